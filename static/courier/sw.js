/* Courier's service worker, served at /sw.js by campaign/views/app_shell.py, which puts
   COURIER before this: the cache's version, the shell's URLs, the offline page, the
   notifications' icon.

   - The shell (the offline page, the styles, htmx, the icons) is kept at install; a new
     version's cache replaces the others at activation.
   - A page goes to the network; when the network fails, the offline page is shown.
   - The shell's static files come from the cache first.
   - Nothing else is touched or kept: posts, HTMX fragments, /api/, /calendar/, every page
     and whatever belongs to one user go to the network as if there were no worker.
   - A push message {title, body, url, tag} shows a notification; a newer one of the same
     tag replaces it and alerts again. A click focuses Courier's window at its URL or opens it. */
"use strict";

const CACHE = `courier-shell-${COURIER.version}`;
const SHELL = new Set(COURIER.shell.map((url) => new URL(url, self.location.origin).href));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(COURIER.shell))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function offlinePage() {
  return caches
    .open(CACHE)
    .then((cache) => cache.match(COURIER.offline, { ignoreVary: true }))
    .then((page) => page || Response.error());
}

function fromCacheFirst(request) {
  return caches
    .open(CACHE)
    .then((cache) => cache.match(request))
    .then((kept) => kept || fetch(request));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
  } else if (SHELL.has(request.url)) {
    event.respondWith(fromCacheFirst(request));
  }
});

/* The URL as an absolute one of this site, or the site's root for any other. */
function ownUrl(url) {
  try {
    const parsed = new URL(url, self.location.origin);
    if (parsed.origin === self.location.origin) return parsed.href;
  } catch (error) {
    /* not a URL: the site's root */
  }
  return self.registration.scope;
}

self.addEventListener("push", (event) => {
  let notice;
  try {
    notice = event.data.json();
  } catch (error) {
    return;
  }
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      renotify: true,
      icon: COURIER.icon,
      data: { url: ownUrl(notice.url) },
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = ownUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    })
  );
});
