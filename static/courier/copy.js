// A button with data-copy puts its text on the clipboard (the GM's invitation links) and
// says so for a moment. The buttons stay hidden where this script does not run; those of
// a section swapped in by htmx (the seats, after a change) are shown as they arrive.
function showCopyButtons(root) {
  for (const button of root.querySelectorAll("button[data-copy]")) {
    button.hidden = false;
  }
}
document.addEventListener("DOMContentLoaded", () => showCopyButtons(document));
document.addEventListener("htmx:load", (event) => showCopyButtons(event.detail.elt));
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(button.dataset.copy);
    button.textContent = button.dataset.copied;
  } catch (error) {
    button.textContent = button.dataset.failed;
  }
  setTimeout(() => { button.textContent = label; }, 2000);
});
