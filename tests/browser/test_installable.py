"""Courier installs as an app, in a real Chromium: the pages link a manifest that parses,
the service worker registers and controls the pages, a push message shows a notification,
and when the server is down the offline page stands in for the page asked for.

The server is stopped for real. The test runs a live server of its own (the session's
``live_server`` serves the other tests) and stops it: its port closes, and the browser's
requests meet a site that cannot be reached, as a phone's do out of coverage. Neither
``context.set_offline`` nor ``context.route`` is used: both act on the browser's side, and
whether they reach the requests a service worker makes itself depends on the browser and
Playwright's version; a closed port fails the worker's own fetch, which is what its
fallback is for.
"""

from __future__ import annotations

import contextlib
import json
import socket

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from campaign.views.app_shell import THEME_COLOR

PHONE = {"width": 375, "height": 740}
OFFLINE_HEADING = "You are offline"


class ClosingServer(ThreadedWSGIServer):
    """Django's live server, which, once stopped, also closes the connections a browser
    keeps open to it (and waits for their threads): a site that is down answers nothing."""

    daemon_threads = False  # joined when the server closes

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.open_requests: set[socket.socket] = set()

    def process_request(self, request, client_address):
        self.open_requests.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        self.open_requests.discard(request)
        super().shutdown_request(request)

    def server_close(self):
        for request in list(self.open_requests):
            with contextlib.suppress(OSError):
                request.shutdown(socket.SHUT_RDWR)
        super().server_close()


@pytest.fixture
def own_server(transactional_db):
    """A live server this test may stop."""
    server = LiveServer("localhost", start=False)
    server.thread.server_class = ClosingServer
    server.start()
    yield server
    if server.thread.is_alive():
        server.stop()


@pytest.fixture
def tab(browser, own_server):
    context = browser.new_context(base_url=own_server.url, viewport=PHONE)
    context.grant_permissions(["notifications"], origin=own_server.url)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def controlled(page) -> str:
    """The worker's script once it controls the page ("" while none does)."""
    return page.evaluate("() => navigator.serviceWorker.controller?.scriptURL || ''")


def kept(page) -> dict[str, list[str]]:
    """The worker's caches and the URLs in each."""
    return page.evaluate(
        """async () => {
            const kept = {};
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                kept[name] = (await cache.keys()).map((request) => request.url);
            }
            return kept;
        }"""
    )


def installed(page, base_url: str) -> dict:
    """Open a page, check its manifest, wait for the worker to control it after a reload;
    the shell the worker says it keeps (its COURIER)."""
    page.goto("/")
    manifest = page.evaluate(
        """async () => {
            const link = document.querySelector('link[rel="manifest"]');
            return (await fetch(link.href, {credentials: "include"})).json();
        }"""
    )
    assert manifest["name"] == "Courier" and manifest["display"] == "standalone"
    script = page.evaluate("async () => (await navigator.serviceWorker.ready).active.scriptURL")
    assert script == f"{base_url}/sw.js"
    page.reload()
    assert controlled(page) == script
    first_line = page.evaluate("async () => (await (await fetch('/sw.js')).text()).split('\\n')[0]")
    return json.loads(first_line.removeprefix("const COURIER = ").removesuffix(";"))


def notifications(page) -> list[dict]:
    return page.evaluate(
        """async () => (await (await navigator.serviceWorker.ready).getNotifications())
            .map((n) => ({title: n.title, body: n.body, tag: n.tag, icon: n.icon,
                          url: n.data.url}))"""
    )


def push(page, origin: str, message: dict) -> None:
    """Deliver a push message to the page's worker, as a push service would (DevTools)."""
    session = page.context.new_cdp_session(page)
    registrations = []
    session.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.append(event))
    session.send("ServiceWorker.enable")
    for _ in range(100):  # the registrations are reported as events
        if registrations:
            break
        page.wait_for_timeout(50)
    (registration,) = (r for event in registrations for r in event["registrations"])
    session.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": origin,
            "registrationId": registration["registrationId"],
            "data": json.dumps(message),
        },
    )
    session.detach()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_installed_courier_shows_the_offline_page_when_the_server_is_down(
    own_server, tab, artifacts
):
    config = installed(tab, own_server.url)
    shell = {f"{own_server.url}{url}" for url in config["shell"]}
    # the shell alone is kept, under the version's name: no page, fragment or post
    caches = {name: sorted(urls) for name, urls in kept(tab).items()}
    assert caches == {f"courier-shell-{config['version']}": sorted(shell)}

    own_server.stop()
    response = tab.goto("/campaigns/1/")
    assert response.ok  # the worker's answer, not the browser's error page
    expect(tab.get_by_role("heading", level=1)).to_have_text(OFFLINE_HEADING)
    assert tab.url == f"{own_server.url}/campaigns/1/"
    # the kept stylesheet applies: the header has the site's ink
    header = tab.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")
    assert header == "rgb({}, {}, {})".format(*bytes.fromhex(THEME_COLOR[1:]))
    fits = tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, "the offline page scrolls sideways at 375 px"
    tab.screenshot(path=artifacts / "offline-375.png", full_page=True)
    # Try again: the same page asked for again; still down, still the offline page
    tab.get_by_role("link", name="Try again").click()
    expect(tab.get_by_role("heading", level=1)).to_have_text(OFFLINE_HEADING)
    assert tab.url == f"{own_server.url}/campaigns/1/"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_a_push_message_shows_a_notification_that_a_newer_one_replaces(own_server, tab):
    config = installed(tab, own_server.url)
    first = {"title": "Your turn", "body": "Spring 1805", "url": "/campaigns/1/", "tag": "turn-1"}
    push(tab, own_server.url, first)
    tab.wait_for_function(
        "async () => (await (await navigator.serviceWorker.ready).getNotifications()).length === 1"
    )
    (shown,) = notifications(tab)
    assert shown == {
        "title": "Your turn",
        "body": "Spring 1805",
        "tag": "turn-1",
        "icon": f"{own_server.url}{config['icon']}",
        "url": f"{own_server.url}/campaigns/1/",
    }
    newer = {**first, "body": "Summer 1805", "url": "https://elsewhere.example/"}
    push(tab, own_server.url, newer)
    tab.wait_for_function(
        """async () => (await (await navigator.serviceWorker.ready).getNotifications())
            .some((n) => n.body === "Summer 1805")"""
    )
    (shown,) = notifications(tab)
    assert shown["body"] == "Summer 1805"
    assert shown["url"] == f"{own_server.url}/"  # another site's address: Courier's own
