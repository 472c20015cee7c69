// A long select with data-search (the time zones) gets a search box above it: typing
// keeps only the options whose text holds what was typed, in their groups. Without this
// script the select works as it is.
document.addEventListener("DOMContentLoaded", () => {
  for (const select of document.querySelectorAll("select[data-search]")) {
    const all = Array.from(select.children).map((child) => child.cloneNode(true));
    const box = document.createElement("input");
    box.type = "search";
    box.id = `${select.id}-search`;
    box.placeholder = select.dataset.searchHint;
    box.setAttribute("aria-controls", select.id);
    const label = document.createElement("label");
    label.htmlFor = box.id;
    label.textContent = select.dataset.search;
    select.before(label, box);
    box.addEventListener("input", () => {
      const words = box.value.trim().toLowerCase();
      const keep = (option) => !words || option.value === select.value
        || option.textContent.toLowerCase().includes(words)
        || option.value.toLowerCase().includes(words);
      const shown = [];
      for (const child of all) {
        if (child.tagName === "OPTGROUP") {
          const group = child.cloneNode(false);
          group.append(...Array.from(child.children).filter(keep).map((o) => o.cloneNode(true)));
          if (group.children.length) shown.push(group);
        } else if (keep(child)) {
          shown.push(child.cloneNode(true));
        }
      }
      const chosen = select.value;
      select.replaceChildren(...shown);
      select.value = chosen;
    });
  }
});
