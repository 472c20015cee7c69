// Courier as an installable app: once the page has loaded, register the service worker
// this script's data-worker names (/sw.js, campaign/views/app_shell.py), where the
// browser has service workers.
(function () {
  const worker = document.currentScript.dataset.worker;
  if (!("serviceWorker" in navigator) || !worker) return;
  window.addEventListener("load", () => navigator.serviceWorker.register(worker));
})();
