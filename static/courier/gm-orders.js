// Orders for the GM, in the order form: "Add a line" copies the form's last line, empty,
// after it (its field names and ids numbered for the next row, its shown number one
// more). Without scripts the form offers an empty line after the saved ones instead.
(function () {
  function emptied(line, row) {
    const copy = line.cloneNode(true);
    for (const field of copy.querySelectorAll("[name], [id]")) {
      for (const attribute of ["name", "id"]) {
        const value = field.getAttribute(attribute);
        if (value) field.setAttribute(attribute, value.replace(/gm-\d+-/, `gm-${row}-`));
      }
      if (field.tagName === "SELECT") field.selectedIndex = 0;
      else if ("value" in field) field.value = "";
    }
    const number = copy.querySelector(".line-number");
    const shown = number && parseInt(number.textContent, 10);
    if (shown) number.textContent = `${shown + 1}.`;
    return copy;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-add-gm-line]");
    if (!button) return;
    const part = button.closest(".gm-orders");
    const last = part && part.querySelector("ol.gm-lines > li.gm-line:last-child");
    if (!last) return;
    const row = Number(part.dataset.nextRow);
    part.dataset.nextRow = String(row + 1);
    const added = emptied(last, row);
    last.after(added);
    const first = added.querySelector("select");
    if (first) first.focus();
  });
})();
