// Orders for the GM, in the order form: "Add a line" copies the empty row of its
// <template> (names and ids hold "__row__", the shown number "__number__") after the
// last row. Without scripts the form offers empty rows after the saved ones instead.
(function () {
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-add-gm-line]");
    if (!button) return;
    const part = button.closest(".gm-orders");
    const template = part && part.querySelector("template.gm-line-template");
    const list = part && part.querySelector("ol.gm-lines");
    if (!template || !list) return;
    const row = Number(part.dataset.nextRow);
    part.dataset.nextRow = String(row + 1);
    const html = template.innerHTML
      .replaceAll("__row__", String(row))
      .replaceAll("__number__", String(row + 1));
    list.insertAdjacentHTML("beforeend", html);
    const added = list.lastElementChild.querySelector("select");
    if (added) added.focus();
  });
})();
