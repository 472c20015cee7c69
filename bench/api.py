"""The API's "orders due" and a campaign's state under gunicorn against PostgreSQL, driven
by wrk on loopback, side by side with a constant-response view through the same stack.

    python bench/api.py                       # 10 s per measurement
    python bench/api.py --duration 5 --connections 8

A large campaign (bench/generate.py, 400 areas) is generated, at its peace step (Great
Britain owes orders); France's player and Great Britain's get a personal access token
each (campaign/api/tokens.py), sent as ``Authorization: Bearer …`` by wrk. The API's rate
limit (settings.API_RATE_LIMIT) is raised out of the way for the run: the figures are the
server's, not the limit's (tests/views/test_api.py checks the 429). gunicorn serves
bench.settings with 2 × cores + 1 sync workers; wrk requests, each for --duration
seconds after a 2-second warm-up:

- the constant view (before and after the API; the yardstick is their mean),
- ``/api/orders-due`` as Great Britain's player (one campaign due),
- ``/api/campaigns/{id}`` as France's player (the state as the campaign page shows it:
  the World from the shared cache, as for the pages).

Each figure is requests/s and latency (p50, p99); the ratio is to the constant view. The
SQL queries of each route are counted in-process with Django's test client.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from bench import common  # noqa: E402
from bench.generate import NAME_PREFIX, make_campaign  # noqa: E402
from campaign.api import tokens  # noqa: E402

HOST = "127.0.0.1"
UNLIMITED = str(10**9)  # requests a minute per token, for the run


def count_queries(token: str, url: str) -> dict:
    """The queries of a request (after a first one: the World cached, the last use
    written)."""
    client = Client(HTTP_HOST=HOST, headers={"Authorization": f"Bearer {token}"})
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return {
        "status": response.status_code,
        "queries": len(queries),
        "sql": [common.shape(q["sql"]) for q in queries.captured_queries],
        "bytes": len(response.content),
    }


def wrk(url: str, token: str, *, duration: int, connections: int) -> dict:
    headers = [f"Authorization: Bearer {token}"] if token else []
    return common.run_wrk(url, headers=headers, duration=duration, connections=connections)


def measure(name: str, url: str, token: str, args) -> dict:
    wrk(url, token, duration=2, connections=args.connections)
    data = wrk(url, token, duration=args.duration, connections=args.connections)
    common.print_run(name, data, width=28)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--areas", type=int, default=400)
    parser.add_argument("--duration", type=int, default=10, help="seconds per measurement")
    parser.add_argument("--connections", type=int, default=10)
    parser.add_argument("--workers", type=int, default=common.default_workers())
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (apt-get install wrk; bench/run does it)")

    generated = make_campaign(areas=args.areas, name=f"{NAME_PREFIX} api {args.areas}")
    campaign = generated.campaign
    _, player = tokens.make_token(user=generated.users["france"], name="bench")
    _, owing = tokens.make_token(user=generated.users["great_britain"], name="bench")
    due, state = reverse("api:orders_due"), reverse("api:campaign", args=[campaign.pk])
    queries = {"orders due": count_queries(owing, due), "state": count_queries(player, state)}
    print(f"The API on campaign {campaign.pk} ({args.areas} areas)")
    for name, q in queries.items():
        print(f"  {name}: {q['queries']} queries ({q['status']}, {q['bytes']} bytes)")

    os.environ["COURIER_API_RATE_LIMIT"] = UNLIMITED  # gunicorn's environment
    runs = {}
    with common.gunicorn(args.workers) as base:
        print(f"wrk: 2 threads, {args.connections} connections, {args.duration} s each")
        constant = f"{base}/bench/constant/"
        runs["constant (before)"] = measure("constant view", constant, "", args)
        runs["orders due"] = measure("/api/orders-due", base + due, owing, args)
        runs["state"] = measure("/api/campaigns/{id}", base + state, player, args)
        runs["constant (after)"] = measure("constant view (again)", constant, "", args)

    yardstick = common.against_constant(runs)
    common.save(
        "api",
        {
            "areas": args.areas,
            "campaign": campaign.pk,
            "workers": args.workers,
            "connections": args.connections,
            "duration": args.duration,
            "queries": queries,
            "constant_rps": yardstick,
            "runs": runs,
        },
    )


if __name__ == "__main__":
    main()
