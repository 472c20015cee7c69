"""Pages under gunicorn against PostgreSQL, driven by wrk on loopback, side by side with a
constant-response view through the same stack.

    python bench/pages.py                     # 10 s per measurement
    python bench/pages.py --duration 5 --connections 8

A large campaign (bench/generate.py, 400 areas) is generated; France's player and the GM
get a session (a real login's cookie, made with Django's test client) and a CSRF
cookie (from a first GET, as a browser has). gunicorn serves bench.settings
(Courier's settings with bench/constant/ added) with 2 × cores + 1 sync workers. wrk
then requests, each for --duration seconds after a 2-second warm-up:

- the constant view (before and after the player page; the yardstick is their mean),
- the player's campaign page, as a first visit (no copy: a full render),
- the same page unchanged, revalidated (If-None-Match with the last ETag: what a
  browser sends on a reload or an HTMX poll when nothing changed),
- the map panel that page loads after it (with HTMX, by its signed URL), from the cache,
- the GM dashboard, last, with one connection per core and no warm-up (it may
  take seconds a render), revalidated too if it sends an ETag.

Each figure is requests/s and latency (p50, p99); the ratio is to the constant view.
Before wrk, each page is also requested alone, one request at a time (its latency on an
otherwise idle server). The number of SQL queries of the player page (and the
dashboard) is counted in-process with Django's test client and CaptureQueriesContext,
for a render and a revalidation.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import sys
import time
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.conf import settings  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from bench import common  # noqa: E402
from bench.generate import NAME_PREFIX, make_campaign  # noqa: E402

BACKEND = "django.contrib.auth.backends.ModelBackend"
HOST = "127.0.0.1"


def session_client(user) -> Client:
    client = Client(HTTP_HOST=HOST)
    client.force_login(user, backend=BACKEND)
    return client


def count_queries(client: Client, url: str, **headers) -> dict:
    """Queries of a render, then of a revalidation with the ETag the render gave; after a
    first visit (which gives the client its CSRF cookie, part of the page's ETag)."""
    client.get(url, **headers)
    reset_queries()
    with CaptureQueriesContext(connection) as render:
        first = client.get(url, **headers)
    etag = first.headers.get("ETag")
    figures = {
        "status": first.status_code,
        "queries": len(render),
        "etag": bool(etag),
        "sql": [common.shape(q["sql"]) for q in render.captured_queries],
    }
    if etag:
        with CaptureQueriesContext(connection) as again:
            second = client.get(url, HTTP_IF_NONE_MATCH=etag)
        figures.update(revalidate_status=second.status_code, revalidate_queries=len(again))
    figures["bytes"] = len(first.content)
    return figures


def browser_visit(base: str, path: str, session: str) -> tuple[str, int, str | None]:
    """A browser's first visit: the Cookie header it sends from then on (session + CSRF
    cookie), the status, and the ETag of the copy it keeps (from a second visit, made
    with the CSRF cookie, which the page's ETag depends on)."""
    cookie = f"sessionid={session}"
    status, etag = 0, None
    for _ in range(2):
        request = urllib.request.Request(base + path, headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=120) as response:
            status, etag = response.status, response.headers.get("ETag")
            jar = SimpleCookie()
            for header in response.headers.get_all("Set-Cookie") or []:
                jar.load(header)
        if settings.CSRF_COOKIE_NAME not in jar or settings.CSRF_COOKIE_NAME in cookie:
            break
        cookie += f"; {settings.CSRF_COOKIE_NAME}={jar[settings.CSRF_COOKIE_NAME].value}"
        if not etag:
            break
    return cookie, status, etag


def wrk(
    url: str, cookie: str, *, duration: int, connections: int, etag: str = "", htmx=False
) -> dict:
    headers = (["HX-Request: true"] if htmx else []) + [f"Cookie: {cookie}"]
    return common.run_wrk(
        url,
        headers=headers,
        duration=duration,
        connections=connections,
        script_args=("etag", etag) if etag else (),
    )


def measure(name: str, url: str, cookie: str, args, etag: str = "", warm=True, htmx=False) -> dict:
    if warm:
        wrk(url, cookie, duration=2, connections=args.connections, etag=etag, htmx=htmx)
    data = wrk(
        url, cookie, duration=args.duration, connections=args.connections, etag=etag, htmx=htmx
    )
    common.print_run(name, data)
    return data


def map_panel_url(client: Client, page: str) -> str:
    """The URL a page loads its map panel from (campaign.views.maps.map_panel)."""
    page_html = client.get(page).content.decode()
    match = re.search(r'class="map-loading" data-hx-get="([^"]+)"', page_html)
    return html.unescape(match.group(1))


def sequential(url: str, cookie: str, count: int) -> list[float]:
    """Milliseconds of ``count`` requests made one after the other (an idle server)."""
    times = []
    for _ in range(count):
        request = urllib.request.Request(url, headers={"Cookie": cookie})
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=300) as response:
            response.read()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--areas", type=int, default=400)
    parser.add_argument("--duration", type=int, default=10, help="seconds per measurement")
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--workers", type=int, default=common.default_workers())
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (apt-get install wrk; bench/run does it)")

    generated = make_campaign(areas=args.areas, name=f"{NAME_PREFIX} pages {args.areas}")
    campaign = generated.campaign
    player, gm = generated.users["france"], generated.users["gm"]
    detail = reverse("campaign:detail", args=[campaign.pk])
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    player_client, gm_client = session_client(player), session_client(gm)
    player_map = map_panel_url(player_client, detail)
    queries = {
        "player page": count_queries(player_client, detail),
        "player's map panel": count_queries(player_client, player_map, HTTP_HX_REQUEST="true"),
        "GM dashboard": count_queries(gm_client, dashboard),
    }
    print(f"Pages of campaign {campaign.pk} ({args.areas} areas)")
    for name, q in queries.items():
        extra = (
            f", revalidated: {q['revalidate_queries']} queries ({q['revalidate_status']})"
            if q["etag"]
            else ", no ETag"
        )
        print(f"  {name}: {q['queries']} queries ({q['status']}, {q['bytes']} bytes){extra}")

    runs = {}
    with common.gunicorn(args.workers) as base:
        player_session = player_client.cookies["sessionid"].value
        gm_session = gm_client.cookies["sessionid"].value
        player_cookie, status, player_etag = browser_visit(base, detail, player_session)
        gm_cookie, gm_status, gm_etag = browser_visit(base, dashboard, gm_session)
        if (status, gm_status) != (200, 200):
            sys.exit(f"the pages answered {status} and {gm_status}, not 200: see the gunicorn log")
        alone = {
            "player page": sequential(base + detail, player_cookie, 3),
            "GM dashboard": sequential(base + dashboard, gm_cookie, 2),
        }
        for name, times in alone.items():
            print(f"  {name}, one request at a time: {', '.join(f'{t:.0f}' for t in times)} ms")
        print(f"wrk: 2 threads, {args.connections} connections, {args.duration} s each")
        constant = f"{base}/bench/constant/"
        runs["constant (before)"] = measure("constant view", constant, player_cookie, args)
        runs["player page"] = measure("player page, render", base + detail, player_cookie, args)
        if player_etag:
            runs["player page, unchanged"] = measure(
                "player page, unchanged (ETag)", base + detail, player_cookie, args, player_etag
            )
        runs["map panel"] = measure(
            "player's map panel, cached", base + player_map, player_cookie, args, htmx=True
        )
        runs["constant (after)"] = measure("constant view (again)", constant, player_cookie, args)
        # The dashboard may take seconds a render: one connection per core (no queue
        # builds up behind wrk), twice as long, and it comes last.
        slow = argparse.Namespace(
            duration=2 * args.duration, connections=min(args.connections, os.cpu_count() or 1)
        )
        runs["GM dashboard"] = measure(
            "GM dashboard, render", base + dashboard, gm_cookie, slow, warm=False
        )
        if gm_etag:
            runs["GM dashboard, unchanged"] = measure(
                "GM dashboard, unchanged (ETag)", base + dashboard, gm_cookie, slow, gm_etag
            )

    yardstick = common.against_constant(runs)
    common.save(
        "pages",
        {
            "areas": args.areas,
            "campaign": campaign.pk,
            "workers": args.workers,
            "connections": args.connections,
            "duration": args.duration,
            "queries": queries,
            "alone_ms": alone,
            "constant_rps": yardstick,
            "runs": runs,
        },
    )


if __name__ == "__main__":
    main()
