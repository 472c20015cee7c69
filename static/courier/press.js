// The press. A message sent with htmx is answered with a notice: once sent, the text is
// cleared; refused, the text stays for another try and the notice says why (htmx is told
// to show 403, the press rules forbid it, and 429, too many a minute: base.html has it
// swap 400, 409 and 422 only). A message sent from the campaign page's panel (a reply
// box or its compose form) is answered, once sent, with the panel in place of the panel,
// the focus on its notice.
// The panel polls itself, but not while something is being written in it: a reply box
// or the compose form open, or a text not sent. The powers' checkboxes show only while
// "the powers ticked below" is chosen. Without JavaScript the form posts as a page, every
// checkbox shown, and the press page says why a message was refused.
(function () {
  function syncPowers(form) {
    const to = form.querySelector('select[name="to"]');
    const box = form.querySelector('input[name="powers"]');
    const fieldset = box && box.closest("fieldset");
    if (to && fieldset) {
      fieldset.hidden = to.value !== "private";
    }
  }

  function writing(panel) {
    if (panel.querySelector("details[open]")) {
      return true;
    }
    return Array.from(panel.querySelectorAll("textarea")).some(function (text) {
      return text.value.trim() !== "";
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = event.detail.elt;
    if (elt.id === "press-panel" && writing(elt)) {
      event.preventDefault(); // the next poll will try again
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    const status = event.detail.xhr.status;
    const target = event.detail.target;
    if ((status === 403 || status === 429) && target && target.id.startsWith("press-notice")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const form = event.detail.elt;
    const sent = event.detail.xhr && event.detail.xhr.status === 200;
    if (sent && form.matches && form.matches("#press-compose form")) {
      form.querySelector('textarea[name="text"]').value = "";
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target.matches('#press-compose select[name="to"]')) {
      syncPowers(event.target.form);
    }
  });
  document.addEventListener("htmx:load", function (event) {
    const root = event.detail.elt;
    if (root.querySelectorAll) {
      root.querySelectorAll("#press-compose form").forEach(syncPowers);
    }
    if (root.id === "press-panel") {
      const sent = root.querySelector(".notice.success");
      if (sent) {
        sent.focus(); // the form that had the focus was replaced with the panel
      }
    }
  });
})();
