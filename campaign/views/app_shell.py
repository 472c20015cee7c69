"""Courier as an installable web app: its manifest, its service worker and the page the
worker shows when the site cannot be reached.

The worker (static/courier/sw.js) is served from the site's root so that its scope is the
whole site. It keeps the shell: the offline page and the static files listed here, by
their hashed names once the static files are collected; the cache's version is derived
from those names, so a deploy that changes one of them replaces the old cache. Pages and
everything else go to the network and are never kept.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

# static/courier/courier.css: the header's ink (the browser's bar) and the page's paper
THEME_COLOR = "#1f2328"
BACKGROUND_COLOR = "#fbfaf7"
ICONS = {  # static path: (size, purpose)
    "courier/icons/icon-192.png": (192, "any"),
    "courier/icons/icon-512.png": (512, "any"),
    "courier/icons/icon-maskable-192.png": (192, "maskable"),
    "courier/icons/icon-maskable-512.png": (512, "maskable"),
}
NOTICE_ICON = "courier/icons/icon-192.png"  # the icon of a push notification
SHELL_STATIC = (
    "courier/courier.css",
    "courier/map.css",
    "courier/vendor/htmx.min.js",
    "courier/favicon.svg",
    *ICONS,
)
WORKER_SOURCE = "courier/sw.js"


def shell_urls() -> list[str]:
    """What the service worker keeps: the offline page and the static shell's URLs."""
    return [reverse("campaign:offline"), *(static(path) for path in SHELL_STATIC)]


def cache_version(urls: list[str]) -> str:
    """A name for the worker's cache that changes whenever one of ``urls`` does."""
    return hashlib.sha256("\n".join(urls).encode()).hexdigest()[:16]


def site_root() -> str:
    """The app's start and scope: the whole site, from its home page."""
    return reverse("campaign:list")


@require_safe
def manifest(request):
    """The web app manifest, its description in the request's language."""
    icons = [
        {"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
        for path, (size, purpose) in ICONS.items()
    ]
    home = site_root()
    data = {
        "name": "Courier",
        "short_name": "Courier",
        # the footer's sentence (templates/base.html), already in every language
        "description": gettext(
            "Courier runs play-by-web campaigns. Every roll is logged and explained."
        ),
        "lang": get_language(),
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": icons,
    }
    return JsonResponse(
        data,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


@require_safe
def service_worker(request):
    """static/courier/sw.js, preceded by what it keeps (COURIER), served at the root with
    the whole site as its scope; the browser asks again at each visit (no-cache)."""
    urls = shell_urls()
    config = {
        "version": cache_version(urls),
        "shell": urls,
        "offline": reverse("campaign:offline"),
        "icon": static(NOTICE_ICON),
    }
    source = Path(finders.find(WORKER_SOURCE)).read_text(encoding="utf-8")
    response = HttpResponse(
        f"const COURIER = {json.dumps(config)};\n{source}", content_type="text/javascript"
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = site_root()
    return response


@require_safe
def offline(request):
    """The page the service worker shows in place of one the network cannot bring."""
    return render(request, "offline.html")
