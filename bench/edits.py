"""A GM edit at 400 areas, as the dashboard sends it (HTMX): server time and queries.

    python bench/edits.py                 # 15 edits of each kind
    python bench/edits.py --runs 31

A large campaign (bench/generate.py) is generated; the GM edits one power's row, then one
area's controller (a row of a 400-item list), marks a power absent and back, and sets the
phase's deadline, alternating two values so that every edit changes the state. Each
request runs in-process through the whole middleware stack (Django's test client,
PostgreSQL, committed), timed from the request to the response; the answer's size and the
fragments it swaps out of band are printed with it.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from bench import common  # noqa: E402
from bench.generate import NAME_PREFIX, make_campaign  # noqa: E402
from bench.pages import session_client  # noqa: E402
from campaign.models import Campaign  # noqa: E402

OOB = re.compile(r'<\w+ id="([\w-]+)"[^>]*data-hx-swap-oob="true"')
LOG_SEEN = re.compile(r'id="log-seen" name="log_seen" value="(\d+)"')


def power_edit(campaign, run: int) -> tuple[str, str, dict]:
    url = reverse("campaign:edit", args=[campaign.pk, "power"])
    return (
        "power",
        url,
        {
            "power": "france",
            "zone": "Dominant" if run % 2 else "Neutral",
            "political_points": str(10 + run % 2),
            "treasury": "30",
        },
    )


def area_edit(campaign, run: int) -> tuple[str, str, dict]:
    area = campaign.areas.order_by("key").first()
    url = reverse("campaign:edit", args=[campaign.pk, "area"])
    return "area", url, {"area": area.key, "controller": "france" if run % 2 else "spain"}


def absent_edit(campaign, run: int) -> tuple[str, str, dict]:
    power = campaign.powers.get(key="spain")
    url = reverse("campaign:absent", args=[campaign.pk, power.pk])
    return "seat (absent)", url, {"absent": "on"} if run % 2 == 0 else {}


def deadline_edit(campaign, run: int) -> tuple[str, str, dict]:
    url = reverse("campaign:deadline", args=[campaign.pk])
    return (
        "deadline",
        url,
        {"phase": campaign.phase_id, "deadline": f"2999-01-0{1 + run % 2}T10:00"},
    )


def measure(client, campaign, make, runs: int, page: dict) -> dict:
    """``runs`` edits made by ``make``, each sent as the dashboard's form sends it: with
    the state version and where the page's log ends (``page``, renewed by each answer)."""
    times, queries, sizes, fragments = [], [], [], set()
    for run in range(runs):
        key, url, data = make(campaign, run)
        version = Campaign.objects.values_list("state_version", flat=True).get(pk=campaign.pk)
        data = {**data, "state_version": version, "log_seen": page["log_seen"]}
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.post(url, data, HTTP_HX_REQUEST="true")
            times.append((time.perf_counter() - start) * 1000)
        if response.status_code != 200:
            sys.exit(f"the edit answered {response.status_code}: {response.content[:500]!r}")
        html = response.content.decode()
        page["log_seen"] = LOG_SEEN.search(html).group(1)
        queries.append(len(captured))
        sizes.append(len(html))
        fragments |= set(OOB.findall(html))
    return {
        "edit": key,
        "median_ms": round(common.median(times), 1),
        "p90_ms": round(common.percentile(times, 0.9), 1),
        "queries": max(queries),
        "bytes": max(sizes),
        "fragments": sorted(fragments),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--areas", type=int, default=400)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    generated = make_campaign(areas=args.areas, name=f"{NAME_PREFIX} edits {args.areas}")
    client = session_client(generated.users["gm"])
    dashboard = client.get(reverse("campaign:gm", args=[generated.campaign.pk]))  # a first visit
    page = {"log_seen": LOG_SEEN.search(dashboard.content.decode()).group(1)}
    results = [
        measure(client, generated.campaign, make, args.runs, page)
        for make in (power_edit, area_edit, absent_edit, deadline_edit)
    ]
    print(f"GM edits in place at {args.areas} areas, {args.runs} each")
    headers = ["edit", "median ms", "p90 ms", "queries", "bytes", "out of band"]
    rows = [
        [
            r["edit"],
            r["median_ms"],
            r["p90_ms"],
            r["queries"],
            r["bytes"],
            ", ".join(r["fragments"]),
        ]
        for r in results
    ]
    print(common.table(headers, rows))
    common.save("edits", {"areas": args.areas, "runs": args.runs, "edits": results})


if __name__ == "__main__":
    main()
