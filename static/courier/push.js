// "Show notices on this device" (templates/campaign/account/devices.html): asks the browser
// for a Web Push subscription under the site's VAPID key, through the service worker that
// static/courier/install.js registers, and posts it with the form. Without this script the
// button posts nothing the server can use, and it says so.
(function () {
  "use strict";

  function bytes(base64url) {
    var base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(base64 + "===".slice((base64.length + 3) % 4));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }

  function sameKey(subscription, key) {
    var held = subscription.options && subscription.options.applicationServerKey;
    if (!held) return false;
    var bytesHeld = new Uint8Array(held);
    return bytesHeld.length === key.length && bytesHeld.every(function (b, i) { return b === key[i]; });
  }

  function show(form, name) {
    form.querySelector("[data-push-" + name + "]").hidden = false;
  }

  function subscribe(form) {
    var key = bytes(form.dataset.vapidKey);
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        show(form, "refused");
        return;
      }
      return navigator.serviceWorker.ready.then(function (registration) {
        var manager = registration.pushManager;
        return manager.getSubscription().then(function (old) {
          // one made under another key (the site's keys were replaced) must go first
          if (old && !sameKey(old, key)) return old.unsubscribe();
        }).then(function () {
          return manager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
        });
      }).then(function (subscription) {
        var data = subscription.toJSON();
        form.elements.endpoint.value = data.endpoint;
        form.elements.p256dh.value = data.keys.p256dh;
        form.elements.auth.value = data.keys.auth;
        form.submit();
      });
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "push-subscribe" || form.elements.endpoint.value) return;
    event.preventDefault();
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      show(form, "unsupported");
      return;
    }
    subscribe(form).catch(function () { show(form, "refused"); });
  });
})();
