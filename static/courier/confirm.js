// A form with data-confirm (the GM's "Close and resolve") asks before it is sent, saying
// what will happen; without JavaScript it is sent at once.
document.addEventListener(
  "submit",
  (event) => {
    const message = event.target.dataset ? event.target.dataset.confirm : "";
    if (message && !window.confirm(message)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  },
  true,
);
