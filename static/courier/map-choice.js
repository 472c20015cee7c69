// The map's areas. Clicking (or pressing Enter or Space on) a highlighted area while a
// decision is asked puts it in the decision form — in the first question offering it
// that is not yet answered with an area, or by ticking its checkbox; the form stays the
// place where the choice is checked and sent. Any other area (or an area link of the
// map's table) opens its details in the side panel (#area-panel) through HTMX, or, on a
// page without that panel, goes to the area's page.
(function () {
  function highlighted() {
    return new Set(
      Array.from(document.querySelectorAll("#map g.area.highlight")).map((g) => g.dataset.key)
    );
  }

  function choose(key) {
    const form = document.querySelector("#decision form");
    if (!form) return false;
    const areas = highlighted();
    for (const select of form.querySelectorAll("select")) {
      const offers = Array.from(select.options).some((option) => option.value === key);
      if (offers && !areas.has(select.value)) {
        select.value = key;
        select.focus();
        return true;
      }
    }
    for (const box of form.querySelectorAll('input[type="checkbox"]')) {
      if (box.value === key && !box.checked) {
        box.checked = true;
        box.focus();
        return true;
      }
    }
    return false;
  }

  function showDetails(url) {
    const panel = document.getElementById("area-panel");
    if (!panel || !window.htmx) {
      window.location.assign(url);
      return;
    }
    htmx.ajax("GET", url, { target: panel, swap: "innerHTML" }).then(() => {
      const top = panel.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight - 80) panel.scrollIntoView({ block: "start" });
    });
  }

  function areaUrl(area) {
    return area.closest("svg").dataset.areaUrl.replace("__key__", area.dataset.key);
  }

  function activate(area) {
    if (area.classList.contains("highlight") && choose(area.dataset.key)) return;
    showDetails(areaUrl(area));
  }

  function closePanel(panel) {
    const key = panel.firstElementChild && panel.firstElementChild.dataset.key;
    panel.replaceChildren();
    const area = key && document.getElementById(`map-${key}`);
    if (area) area.focus();
  }

  document.addEventListener("click", (event) => {
    if (!event.target.closest) return;
    const area = event.target.closest("#map g.area[data-key]");
    const link = event.target.closest("#map a.area-link");
    const closer = event.target.closest("#area-panel [data-close-area]");
    if (area) {
      event.preventDefault();
      activate(area);
    } else if (link && document.getElementById("area-panel")) {
      event.preventDefault();
      showDetails(link.getAttribute("href"));
    } else if (closer) {
      closePanel(document.getElementById("area-panel"));
    }
  });
  document.addEventListener("keydown", (event) => {
    if (!event.target.closest) return;
    const area = event.target.closest("#map g.area[data-key]");
    if (area && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      activate(area);
    } else if (event.key === "Escape" && event.target.closest("#area-panel")) {
      closePanel(document.getElementById("area-panel"));
    }
  });
})();
