// A choice made on the map: clicking (or pressing Enter on) a highlighted area puts it
// in the decision form — in the first question offering it that is not yet answered
// with an area, or by ticking its checkbox. The form stays the place where the choice
// is checked and sent.
(function () {
  function highlighted() {
    return new Set(
      Array.from(document.querySelectorAll("#map g.area.highlight")).map((g) => g.dataset.key)
    );
  }

  function choose(key) {
    const form = document.querySelector("#decision form");
    if (!form) return;
    const areas = highlighted();
    for (const select of form.querySelectorAll("select")) {
      const offers = Array.from(select.options).some((option) => option.value === key);
      if (offers && !areas.has(select.value)) {
        select.value = key;
        select.focus();
        return;
      }
    }
    for (const box of form.querySelectorAll('input[type="checkbox"]')) {
      if (box.value === key && !box.checked) {
        box.checked = true;
        box.focus();
        return;
      }
    }
  }

  function areaOf(event) {
    return event.target.closest && event.target.closest("#map g.area.highlight");
  }

  document.addEventListener("click", (event) => {
    const area = areaOf(event);
    if (area) choose(area.dataset.key);
  });
  document.addEventListener("keydown", (event) => {
    const area = areaOf(event);
    if (area && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(area.dataset.key);
    }
  });
})();
