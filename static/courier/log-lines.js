// A GM change's answer adds the log's new lines after those on the page (data-hx-swap-oob
// beforeend). Two answers may carry the same line (two forms sent at once, one of them
// answered with the whole log): a line already on the page is not added again.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const added = event.detail.fragment;
  if (!(added instanceof Element) || !added.hasAttribute("data-log-added")) return;
  for (const line of added.querySelectorAll("li[id]")) {
    if (document.getElementById(line.id)) line.remove();
  }
});
