"""Courier as an installable app (campaign/views/app_shell.py): the manifest, the service
worker's script and the offline page, as anyone may read them."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from campaign.views.app_shell import SHELL_STATIC, cache_version

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES]
MANIFEST, WORKER, OFFLINE = "/manifest.webmanifest", "/sw.js", "/offline/"


def test_the_app_is_served_from_the_root():
    """The worker's scope is the folder of its script: the whole site from /sw.js."""
    names = {MANIFEST: "manifest", WORKER: "service_worker", OFFLINE: "offline"}
    for url, name in names.items():
        assert reverse(f"campaign:{name}") == url


def png_size(data: bytes) -> tuple[int, int, int]:
    """A PNG's width, height and colour type (2: RGB, no transparency), from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height, _depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, colour


def static_bytes(url: str) -> bytes:
    """The file a static URL of the development settings names."""
    assert url.startswith(settings.STATIC_URL) or url.startswith("/" + settings.STATIC_URL)
    found = finders.find(url.split(settings.STATIC_URL, 1)[1])
    assert found, f"{url} names no static file"
    with open(found, "rb") as file:
        return file.read()


def worker_config(body: str) -> dict:
    """What the view puts before static/courier/sw.js: ``const COURIER = {...};``."""
    first, _ = body.split("\n", 1)
    found = re.fullmatch(r"const COURIER = (\{.*\});", first)
    assert found, first
    return json.loads(found.group(1))


def stylesheet_colour(name: str) -> str:
    css = static_bytes(static("courier/courier.css")).decode()
    return re.search(rf"--{name}:\s*(#[0-9a-f]{{6}});", css).group(1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_manifest_describes_the_app_in_the_readers_language(language):
    response = Client().get(MANIFEST, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Courier" and data["short_name"] == "Courier"
    assert data["start_url"] == data["scope"] == "/"
    assert data["display"] == "standalone"
    assert data["lang"] == language
    # the description is the footer's sentence, as a page in that language reads it
    page = Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    footer = re.search(r'<footer class="site">\s*<p>(.*?)</p>', page, re.S).group(1)
    assert data["description"] == footer.strip()


def test_manifest_colours_are_the_sites():
    """The browser's bar is the header's ink, the splash screen the page's paper."""
    data = json.loads(Client().get(MANIFEST).content)
    assert data["theme_color"] == stylesheet_colour("ink")
    assert data["background_color"] == stylesheet_colour("paper")
    page = Client().get(reverse("login")).content.decode()
    assert f'<meta name="theme-color" content="{data["theme_color"]}">' in page


def test_manifest_icons_are_pngs_of_their_size():
    icons = json.loads(Client().get(MANIFEST).content)["icons"]
    purposes = {(icon["sizes"], icon["purpose"]) for icon in icons}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    for icon in icons:
        assert icon["type"] == "image/png"
        width, height, colour = png_size(static_bytes(icon["src"]))
        assert f"{width}x{height}" == icon["sizes"], icon["src"]
        if icon["purpose"] == "maskable":  # full bleed: the launcher's mask cuts into it
            assert colour == 2, f"{icon['src']} has transparent pixels"


def test_pages_link_the_manifest_and_register_the_worker():
    page = Client().get(reverse("login")).content.decode()
    assert f'<link rel="manifest" href="{MANIFEST}"' in page
    install = re.search(r'<script src="([^"]*install\.js)" data-worker="([^"]*)"', page)
    assert install and install.group(2) == WORKER
    assert b"serviceWorker" in static_bytes(install.group(1))


def test_service_worker_is_served_for_the_whole_site():
    response = Client().get(WORKER)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    policy = response["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


def test_service_worker_keeps_the_offline_page_and_the_static_shell():
    body = Client().get(WORKER).content.decode()
    config = worker_config(body)
    manifest = json.loads(Client().get(MANIFEST).content)
    wanted = {OFFLINE, static("courier/courier.css"), static("courier/vendor/htmx.min.js")}
    wanted |= {icon["src"] for icon in manifest["icons"]}
    assert wanted <= set(config["shell"])
    assert config["offline"] == OFFLINE
    assert config["icon"] in config["shell"]
    assert config["version"] == cache_version(config["shell"])
    assert static_bytes(static("courier/sw.js")).decode() in body


@pytest.fixture
def collected(settings, tmp_path):
    """Static files as a deploy serves them: names with their content's hash, read from
    the manifest collectstatic writes (written here for the shell's files)."""

    def deploy(**changed: str) -> None:
        paths = {path: path.replace(".", ".0a1b2c3d4e5f.", 1) for path in SHELL_STATIC}
        paths.update(changed)
        manifest = {"version": "1.1", "paths": paths, "hash": "x"}
        (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
        settings.STATIC_ROOT = tmp_path
        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {
                "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"
            },
        }

    return deploy


def test_a_deploy_gives_the_worker_new_names_and_a_new_cache(collected):
    collected()
    before = worker_config(Client().get(WORKER).content.decode())
    assert "/static/courier/courier.0a1b2c3d4e5f.css" in before["shell"]
    assert "/static/courier/vendor/htmx.0a1b2c3d4e5f.min.js" in before["shell"]
    collected(**{"courier/courier.css": "courier/courier.99aa99aa99aa.css"})
    after = worker_config(Client().get(WORKER).content.decode())
    assert "/static/courier/courier.99aa99aa99aa.css" in after["shell"]
    assert after["version"] != before["version"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_offline_page_in_each_language(language):
    response = Client().get(OFFLINE, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert '<a class="button" href="">' in html  # the page it stands in for, again


def test_offline_page_holds_nothing_of_its_reader(client_as, users):
    """The worker keeps the page for whoever uses the browser next: no name, no token."""
    html = client_as("player").get(OFFLINE).content.decode()
    assert users["player"].get_username() not in html
    assert "csrf" not in html.lower() and "<form" not in html


@pytest.mark.parametrize("url", [MANIFEST, WORKER, OFFLINE])
def test_app_shell_takes_no_post(url, client_as):
    for role in ("anonymous", "player"):
        assert client_as(role).post(url).status_code == 405
