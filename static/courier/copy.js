// A button with data-copy puts its text on the clipboard (the GM's invitation links) and
// says so for a moment. The buttons stay hidden where this script does not run.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.hidden = false;
  }
});
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
