"""Metrics and logs: what watching the site costs each request, measured in process.

    python bench/metrics_cost.py                          # 15 rounds of 400 requests a page
    python bench/metrics_cost.py --rounds 5 --requests 100

Settings as the other scripts (bench/common.py: bench.settings, DJANGO_DEBUG=0, the
database of DATABASE_URL, migrated, as bench/run leaves it), with the production
logging (courier/settings.py LOGGING: JSON lines, the request id filter), its handler
writing to a file instead of standard error.

Two test clients, Django's, request the same pages: one through the site's middleware as
it is, the other through the same list without the three that watch it
(courier.request_id.RequestIdMiddleware, which also writes the request's JSON line, and
django-prometheus's two). Each round times --requests requests of each client, in turn
(which goes first alternates), after gc.collect(); the figure is the median over the
rounds of the time per request, and the cost is the difference. Times are this
process's CPU time (time.process_time): what the middleware costs is CPU, and CPU time
is not lengthened by whatever else the machine runs meanwhile (wall-clock time is
printed beside it). The pages:

- bench/constant/: a fixed response through the whole stack (the smallest page, where
  the cost weighs most);
- the login page: a form rendered from its template, the session and CSRF machinery.

Then, in CPU time too: a query (``SELECT 1``) with and without the execute wrapper that
counts and times it (courier/metrics.py), a cache read (a miss, of a memory cache) with
and without its counting; and a scrape of /metrics (from loopback, the task queue's query
included), in wall-clock time.

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import copy
import gc
import logging.config
import shutil
import sys
import tempfile
import time
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.conf import settings  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.core.cache.backends.locmem import LocMemCache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402

from bench import common  # noqa: E402
from courier import metrics  # noqa: E402

WATCHING = (
    "courier.request_id.RequestIdMiddleware",
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
)
HOST = "127.0.0.1"


def production_logging(path: str) -> None:
    """courier/settings.py's LOGGING (bench.settings replaces it), written to ``path``."""
    site = sys.modules["courier.settings"]
    config = copy.deepcopy(site.LOGGING)
    handler = config["handlers"]["stderr"]
    handler.pop("stream")
    handler.update({"class": "logging.FileHandler", "filename": path})
    logging.config.dictConfig(config)


def clients(pages: list[str]) -> dict[str, Client]:
    """A client through the site's middleware, and one without the three that watch it;
    each has loaded its middleware (and served each page once) before it is timed."""
    missing = [name for name in WATCHING if name not in settings.MIDDLEWARE]
    if missing:
        sys.exit(f"not in the settings' MIDDLEWARE: {', '.join(missing)}")
    made = {}
    bare = [name for name in settings.MIDDLEWARE if name not in WATCHING]
    for name, middleware in (("without", bare), ("with", list(settings.MIDDLEWARE))):
        with override_settings(MIDDLEWARE=middleware):
            client = Client(HTTP_HOST=HOST)
            for page in pages:
                for _ in range(20):
                    assert client.get(page).status_code == 200, page
        made[name] = client
    return made


def batch(client: Client, page: str, count: int) -> tuple[float, float]:
    """CPU and wall-clock microseconds per request of ``count`` requests of ``page``."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(count):
        client.get(page)
    return (time.process_time() - cpu) / count * 1e6, (time.perf_counter() - wall) / count * 1e6


def each(call, count: int, clock=time.process_time) -> float:
    """Microseconds (of ``clock``) per call of ``count`` calls."""
    gc.collect()
    started = clock()
    for _ in range(count):
        call()
    return (clock() - started) / count * 1e6


def paired(watched, bare, count: int, rounds: int) -> tuple[float, float]:
    """Medians over ``rounds`` of the CPU microseconds per call of ``watched()`` and of
    ``bare()``, timed in turn in each round (which goes first alternates)."""
    times: dict = {watched: [], bare: []}
    for round_ in range(rounds):
        for call in (watched, bare) if round_ % 2 else (bare, watched):
            times[call].append(each(call, count))
    return common.median(times[watched]), common.median(times[bare])


def queries(count: int, rounds: int) -> tuple[float, float]:
    """Microseconds of a ``SELECT 1`` with the execute wrapper, and without it."""
    connection.ensure_connection()
    wrappers = connection.execute_wrappers
    assert metrics.timed_query in wrappers, "the wrapper is installed on each connection"

    def select():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    def unwrapped():
        wrappers.remove(metrics.timed_query)
        try:
            select()
        finally:
            wrappers.insert(0, metrics.timed_query)

    def wrapped():  # the same list operations, for the same cost, around a timed query
        wrappers.insert(0, wrappers.pop(0))
        select()

    return paired(wrapped, unwrapped, count, rounds)


def cache_reads(count: int, rounds: int) -> tuple[float, float]:
    """Microseconds of a cache read that misses, counted, and without the counting: on a
    process's memory cache (LocMemCache, counted as the site's backend is), where the
    counting is not lost in the time of a query or of a round trip to Redis."""
    backend = LocMemCache("bench", {})
    metrics.meter_cache(LocMemCache)
    bare_read = LocMemCache.get.__wrapped__
    return paired(
        lambda: backend.get("bench:nothing"),
        lambda: bare_read(backend, "bench:nothing"),
        count,
        rounds,
    )


def pages_cost(pages: dict[str, str], args) -> None:
    """The table of the pages, with and without the watching middleware."""
    made = clients(list(pages.values()))
    rows = []
    for name, page in pages.items():
        times: dict[str, list] = {"with": [], "without": []}
        for round_ in range(args.rounds):
            order = ("with", "without") if round_ % 2 else ("without", "with")
            for which in order:
                times[which].append(batch(made[which], page, args.requests))
        (watched, watched_wall), (bare, bare_wall) = (
            [common.median([t[i] for t in times[which]]) for i in (0, 1)]
            for which in ("with", "without")
        )
        cost = watched - bare
        share = f"{cost / bare * 100:+.1f} %"
        wall = f"{bare_wall:.0f} → {watched_wall:.0f}"
        rows.append([name, f"{bare:.0f}", f"{watched:.0f}", f"{cost:+.0f}", share, wall])
    headers = ["page", "without (µs CPU)", "with (µs CPU)", "cost (µs)", "cost", "wall-clock µs"]
    print(common.table(headers, rows))


def parts_cost() -> None:
    """The table of a query and a cache read, and a scrape's time."""
    timed, bare = queries(500, 30)
    counted, uncounted = cache_reads(5000, 30)
    scrape = Client(HTTP_HOST=HOST)  # from loopback (the test client's address)
    body = scrape.get("/metrics").content
    scrape_ms = [each(lambda: scrape.get("/metrics"), 1, time.perf_counter) for _ in range(50)]
    read = "a cache read (a miss, locmem)"
    print(
        common.table(
            ["what", "without (µs CPU)", "with (µs CPU)", "cost (µs)"],
            [
                ["a query (SELECT 1)", f"{bare:.1f}", f"{timed:.1f}", f"{timed - bare:+.1f}"],
                [read, f"{uncounted:.1f}", f"{counted:.1f}", f"{counted - uncounted:+.1f}"],
            ],
        )
    )
    median_ms = common.median(scrape_ms) / 1000
    print(f"a scrape of /metrics: median {median_ms:.1f} ms, {len(body)} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--requests", type=int, default=200, help="requests a round and page")
    args = parser.parse_args()

    log = Path(tempfile.mkdtemp(prefix="courier-bench-")) / "log.jsonl"
    production_logging(str(log))
    try:
        backend = type(caches["default"]).__name__
        print(
            f"Metrics and logs, in process: {args.rounds} rounds of {args.requests} requests a page"
            f" and client (database {connection.vendor}, cache {backend})"
        )
        pages_cost({"constant view": "/bench/constant/", "login page": reverse("login")}, args)
        written = log.read_text(encoding="utf-8").splitlines()
        size = sum(map(len, written)) / max(len(written), 1)
        print(f"JSON lines written: {len(written)} (about {size:.0f} bytes each)")
        parts_cost()
    finally:
        shutil.rmtree(log.parent)


if __name__ == "__main__":
    main()
