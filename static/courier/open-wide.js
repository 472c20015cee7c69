// A <details class="open-wide"> is open on a wide screen: courier.css does it where the
// browser can style a closed one's content (::details-content); elsewhere this opens it.
document.addEventListener("DOMContentLoaded", () => {
  const wide = window.matchMedia("(min-width: 56.01rem)").matches;
  if (!wide || CSS.supports("selector(::details-content)")) return;
  document.querySelectorAll("details.open-wide").forEach((details) => {
    details.open = true;
  });
});
