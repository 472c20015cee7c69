"""Turn the figures of a run (bench/.out/*.json) into bench/RESULTS.md: the machine, the
date, every figure, and each target of issue 6 marked met or missed.

    python bench/report.py --start      # bench/run: note the start (time, load)
    python bench/report.py              # write bench/RESULTS.md and print the targets
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from bench import common  # noqa: E402
from bench.common import table, verdict  # noqa: E402

RESULTS = common.BENCH / "RESULTS.md"


def read(path: str, key: str, separator: str = ":") -> str:
    """The value of the first line of the file that starts with ``key``."""
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key) and separator in line:
                return line.split(separator, 1)[1].strip()
    except OSError:
        pass
    return "?"


def run(*args: str) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, cwd=common.ROOT).stdout.strip()
    except OSError:
        return "?"


def machine() -> dict:
    from django import get_version
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        postgres = cursor.fetchone()[0]
    memory_kb = int(read("/proc/meminfo", "MemTotal").split()[0] or 0)
    dirty = [line for line in run("git", "status", "--porcelain").splitlines() if line]
    own = [line for line in dirty if line[3:].startswith("bench/") or line[3:] == "README.md"]
    return {
        "cores (nproc)": run("nproc") or str(os.cpu_count()),
        "CPU": read("/proc/cpuinfo", "model name"),
        "RAM": f"{memory_kb / 1024 / 1024:.1f} GiB",
        "OS": read("/etc/os-release", "PRETTY_NAME", "=").strip('"')
        + f", Linux {platform.release()}",
        "Python": platform.python_version(),
        "Django": get_version(),
        "PostgreSQL": postgres + " (loopback)",
        "shared cache": shared_cache(),
        "gunicorn": run(common.PYTHON, "-m", "gunicorn", "--version"),
        "wrk": (run("wrk", "--version") or "?").splitlines()[0].split(" [")[0],
        "code": run("git", "log", "-1", "--format=%h %s")
        + (
            f" + uncommitted changes in {len(dirty) - len(own)} file(s)"
            if len(dirty) > len(own)
            else ""
        ),
    }


def shared_cache() -> str:
    """The cache the pages shared in this run (courier/cache.py)."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    cache = caches["default"]
    if isinstance(cache, RedisCache):
        version = cache._cache.get_client().info("server")["redis_version"]
        return f"Redis {version} (loopback)"
    return "the database's cache table (no Redis answered)"


def start() -> None:
    common.save("start", {"time": time.time(), "loadavg": os.getloadavg()})


# -- the targets --------------------------------------------------------------------------


def phase_targets(data: dict) -> list[list[str]]:
    sizes = sorted(data["sizes"], key=lambda s: s["areas"])
    small, large = sizes[0], sizes[-1]
    lp, sp = large["phases"], small["phases"]
    most = max(max(f["queries"], f["committed_queries"]) for f in lp.values())
    worst = max(lp, key=lambda k: max(lp[k]["queries"], lp[k]["committed_queries"]))
    rows = [
        [
            f"Phase advance, {large['areas']} areas: at most {common.PHASE_MAX_QUERIES} queries",
            f"at most {most} ({worst})",
            verdict(most <= common.PHASE_MAX_QUERIES),
        ]
    ]
    unequal = {k: (lp[k]["queries"], sp[k]["queries"]) for k in lp if k in sp}
    unequal = {k: v for k, v in unequal.items() if v[0] != v[1]}
    differences = data.get("differences", {})
    data_dependent = all(
        not any(s.startswith("SELECT") for side in d.values() for s in side)
        and all(side.count(s) == 1 for side in d.values() for s in side)
        for d in differences.values()
    )
    if not unequal:
        same, ok = "equal in every phase", True
    else:
        listed = ", ".join(f"{k} {a} vs {b}" for k, (a, b) in unequal.items())
        same = f"{listed}" + (
            " (each difference: one write that only one campaign's dice and orders needed;"
            " none per row)"
            if data_dependent
            else ""
        )
        ok = data_dependent
    rows.append(
        [f"… the same count as {small['areas']} areas", same, verdict(ok) if ok else verdict(False)]
    )
    slow = {k: f["service_ms"] for k, f in lp.items() if f["service_ms"] > common.PHASE_MAX_MS}
    slowest = max(lp, key=lambda k: lp[k]["service_ms"])
    rows.append(
        [
            f"… at most {common.PHASE_MAX_MS} ms",
            f"slowest {slowest} {lp[slowest]['service_ms']:.0f} ms"
            + (f"; over: {', '.join(f'{k} {v:.0f} ms' for k, v in slow.items())}" if slow else ""),
            verdict(not slow),
        ]
    )
    over = {k: f["ratio"] for k, f in lp.items() if f["ratio"] > common.PHASE_MAX_RATIO}
    rows.append(
        [
            f"… at most {common.PHASE_MAX_RATIO}× the pure procedures",
            ", ".join(f"{k} {f['ratio']:.1f}×" for k, f in lp.items()),
            verdict(not over),
        ]
    )
    return rows


def page_targets(data: dict) -> list[list[str]]:
    page = data["queries"]["player page"]
    rows = [
        [
            f"Player page, {data['areas']} areas: at most {common.PAGE_MAX_QUERIES} queries",
            f"{page['queries']} (a revalidation: {page.get('revalidate_queries', '–')})",
            verdict(page["queries"] <= common.PAGE_MAX_QUERIES),
        ]
    ]
    unchanged = data["runs"].get("player page, unchanged")
    if unchanged:
        rows.append(
            [
                f"… unchanged state: at least {common.PAGE_MIN_RATIO}× the constant view",
                f"{unchanged['ratio']:.2f}× ({unchanged['rps']:.0f} vs "
                f"{data['constant_rps']:.0f} req/s)",
                verdict(unchanged["ratio"] >= common.PAGE_MIN_RATIO),
            ]
        )
    else:
        rows.append(["… unchanged state (ETag)", "the page sends no ETag", verdict(False)])
    return rows


def submit_targets(data: dict) -> list[list[str]]:
    label = f"{data['players']} submitters"
    lost = data["lost"] + data["last_order_wrong"] + data["missing_order_rows"]
    return [
        [f"{label}: 0 errors", str(data["errors"]), verdict(data["errors"] == 0)],
        [
            "… 0 lost orders",
            f"{lost} ({data['log_lines']} saved of {data['acknowledged']} acknowledged)",
            verdict(lost == 0),
        ],
        [
            f"… p95 at most {common.SUBMIT_MAX_P95_MS} ms",
            f"{data['p95_ms']:.0f} ms (one post every ~{data['think']:g} s each, "
            f"{data['posts_per_s']:.1f} posts/s)",
            verdict(data["p95_ms"] <= common.SUBMIT_MAX_P95_MS),
        ],
    ]


def resolution_targets(data: dict) -> list[list[str]]:
    return [
        [
            f"Resolution at most {common.READY_MAX_S} s after the last ready order",
            f"worst {data['ready_max_s']:.2f} s, median {data['ready_median_s']:.2f} s",
            verdict(data["ready_max_s"] <= common.READY_MAX_S),
        ],
        [
            f"… at most {common.DEADLINE_MAX_S} s after a deadline",
            f"worst {data['deadline_max_s']:.2f} s, median {data['deadline_median_s']:.2f} s "
            f"(clock every {data['clock_interval']} s)",
            verdict(data["deadline_max_s"] <= common.DEADLINE_MAX_S),
        ],
    ]


# -- the sections -------------------------------------------------------------------------


def phases_section(data: dict) -> str:
    rows = []
    for size in sorted(data["sizes"], key=lambda s: -s["areas"]):
        for key, f in size["phases"].items():
            rows.append(
                [
                    size["areas"],
                    f"{key} (turn {f['turn']})",
                    f["queries"],
                    f["service_ms"],
                    f["pure_ms"],
                    f"{f['ratio']:.1f}×",
                    f["committed_ms"],
                    f["committed_queries"],
                    f["rolls"],
                ]
            )
    text = table(
        [
            "areas",
            "phase",
            "queries",
            "service ms",
            "pure ms",
            "service / pure",
            "committed ms",
            "committed queries",
            "rolls",
        ],
        rows,
    )
    sizes = "; ".join(
        f"{s['areas']} areas: " + ", ".join(f"{v} {k}" for k, v in s["counts"].items())
        for s in sorted(data["sizes"], key=lambda s: -s["areas"])
    )
    diffs = data.get("differences") or {}
    notes = "\n".join(
        f"- {key}: only the large campaign ran {', '.join(d['large only']) or 'nothing more'}"
        + (f"; only the small one ran {', '.join(d['small only'])}" if d["small only"] else "")
        for key, d in diffs.items()
    )
    return (
        f"`bench/phases.py`: median of {data['runs']} runs, each rolled back. The campaigns: "
        f"{sizes}. Every power gives `bench_orders()` (as much as the rules allow), with the "
        "same dice for both sizes.\n\n"
        "- *service*: `campaign.play.services.resolve_open_phase` (lock, orders, the phase "
        "service, log, next phase, and its on-commit notifications), COMMIT not included;\n"
        "- *pure*: the phase resolver of `rules/empires_in_arms/phases.py` alone on a copy of "
        "the World (`load_state` once, `copy.deepcopy` per run, not timed);\n"
        "- *committed*: one real resolution of the same phase (1 run, COMMIT included).\n\n"
        f"{text}\n\n" + (f"Statements that differ between the sizes:\n\n{notes}\n" if notes else "")
    )


def pages_section(data: dict) -> str:
    q = data["queries"]
    query_rows = [
        [
            name,
            f["queries"],
            f.get("revalidate_queries", "no ETag"),
            f"{f['bytes'] / 1024:.0f} KiB",
        ]
        for name, f in q.items()
    ]
    rows = [
        [
            name,
            r["rps"],
            r["latency_us"]["p50"] / 1000,
            r["latency_us"]["p99"] / 1000,
            f"{r['ratio']:.3f}",
            ", ".join(f"{k}: {v}" for k, v in sorted(r["statuses"].items())),
            r["errors_total"],
        ]
        for name, r in data["runs"].items()
    ]
    sql = ", ".join(q["player page"]["sql"])
    alone = data.get("alone_ms", {})
    alone_text = "; ".join(
        f"{name} {', '.join(f'{t:.0f}' for t in times)} ms" for name, times in alone.items()
    )
    return (
        f"`bench/pages.py`: campaign of {data['areas']} areas; gunicorn with "
        f"{data['workers']} sync workers on loopback; wrk, 2 threads, {data['connections']} "
        f"connections, {data['duration']} s per line after a 2 s warm-up (the dashboard: one "
        f"connection per core, {2 * data['duration']} s, no warm-up). *Unchanged* sends the "
        "ETag of the copy the browser holds (If-None-Match). The yardstick is the mean of the "
        f"two constant-view runs: {data['constant_rps']:.0f} req/s.\n\n"
        + table(["request", "req/s", "p50 ms", "p99 ms", "× constant", "statuses", "errors"], rows)
        + "\n\nSQL queries (Django test client, CaptureQueriesContext, after a first visit):\n\n"
        + table(["page", "render", "revalidation", "size"], query_rows)
        + (f"\n\nOne request at a time, before wrk: {alone_text}." if alone_text else "")
        + f"\n\nThe player page's queries: {sql}.\n"
    )


def submit_section(paced: dict, saturated: dict | None) -> str:
    rows = []
    for name, d in (("paced", paced), ("saturation", saturated)):
        if d:
            rows.append(
                [
                    name,
                    f"~{d['think']:g} s",
                    d["duration"],
                    d["posts"],
                    d["posts_per_s"],
                    d["errors"],
                    d["lost"] + d["last_order_wrong"] + d["missing_order_rows"],
                    d["p50_ms"],
                    d["p95_ms"],
                    d["p99_ms"],
                    d["max_ms"],
                ]
            )
    return (
        f"`bench/submit.py`: {paced['players']} players in {paced['campaigns']} campaigns of "
        f"{paced['areas']} areas (revolt step), each a thread posting one to three random legal "
        "revolt targets as a draft through the HTMX orders endpoint, with a think time between "
        "posts (uniform from 0 to twice the figure). *Lost* counts the powers whose "
        "acknowledged posts left no log line (a draft saved again takes the place of the "
        "earlier line), last acknowledged orders not in the Order row, and missing Order rows; "
        f"the paced run: {paced['log_lines']} order log lines for {paced['acknowledged']} "
        f"acknowledged posts, {paced['order_rows']} Order rows for "
        f"{paced['players_with_acknowledged_orders']} players. The saturation run posts "
        "without pause: its posts/s is the capacity, its latency mostly queueing.\n\n"
        + table(
            [
                "run",
                "think",
                "s",
                "posts",
                "posts/s",
                "errors",
                "lost",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "max ms",
            ],
            rows,
        )
        + "\n"
    )


def resolution_section(data: dict) -> str:
    def row(after: str, t: dict) -> list:
        return [
            after,
            t["phase"],
            t["turn"],
            t["seconds"] * 1000,
            t.get("enqueued_s", float("nan")) * 1000,
            t.get("waited_s", float("nan")) * 1000,
            t.get("resolving_s", float("nan")) * 1000,
        ]

    rows = [row("last ready order", t) for t in data["ready"]]
    rows += [row("deadline", t) for t in data["deadline"]]
    return (
        f"`bench/resolution.py`: campaign of {data['areas']} areas, 7 players; gunicorn, "
        f"`manage.py db_worker --interval {data['worker_interval']}` (as docker-compose.yml) and "
        f"`manage.py clock` with COURIER_CLOCK_INTERVAL={data['clock_interval']}. From the last "
        "ready order's save (Order.updated_at, just before its commit) or from the deadline, "
        "to Phase.resolved_at; each trial starts at a random point of the worker's polling "
        "cycle and of the clock's (a deadline 2 s ahead plus up to one clock interval). "
        "Failed resolutions: "
        f"{len(data['failures'])}. The last three columns split the latency by the "
        "resolving task's row: until it was enqueued, its wait for the worker (which polls "
        "every second when idle), the resolution itself.\n\n"
        + table(["after", "phase", "turn", "ms", "to enqueue", "worker wait", "resolving"], rows)
        + "\n"
    )


LIGHTHOUSE_TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100}


def fast_page_targets(pages: dict | None, edits: dict | None, lighthouse: dict | None) -> list:
    """Issue 15's targets: the player page, the GM dashboard, a GM edit, Lighthouse."""
    rows = []
    if pages:
        page, runs = pages["queries"]["player page"], pages["runs"]
        size = page["bytes"] / 1024
        rows.append(
            [
                f"Player page, {pages['areas']} areas: at least {common.PAGE_MIN_RPS} req/s",
                f"{runs['player page']['rps']:.1f} req/s ({size:.0f} KiB)",
                verdict(runs["player page"]["rps"] >= common.PAGE_MIN_RPS),
            ]
        )
        rows.append(
            [
                f"… at most {common.PAGE_MAX_KIB} KiB of HTML",
                f"{size:.0f} KiB",
                verdict(size <= common.PAGE_MAX_KIB),
            ]
        )
        dashboard = runs["GM dashboard"]["rps"]
        rows.append(
            [
                f"GM dashboard: at least {common.DASHBOARD_MIN_RPS} req/s",
                f"{dashboard:.1f} req/s",
                verdict(dashboard >= common.DASHBOARD_MIN_RPS),
            ]
        )
    for edit in (edits or {}).get("edits", []):
        rows.append(
            [
                f"GM edit ({edit['edit']}): median at most {common.EDIT_MAX_MS} ms",
                f"{edit['median_ms']:.0f} ms, out of band: {', '.join(edit['fragments'])}",
                verdict(edit["median_ms"] <= common.EDIT_MAX_MS),
            ]
        )
    for page in (lighthouse or {}).get("pages", []):
        median = page["median"]
        met = all(median[c] >= target for c, target in LIGHTHOUSE_TARGETS.items())
        figure = ", ".join(f"{c} {median[c]:.0f}" for c in LIGHTHOUSE_TARGETS)
        rows.append([f"Lighthouse, {page['page']}", figure, verdict(met)])
    return rows


def edits_section(data: dict) -> str:
    rows = [
        [
            e["edit"],
            e["median_ms"],
            e["p90_ms"],
            e["queries"],
            e["bytes"],
            ", ".join(e["fragments"]),
        ]
        for e in data["edits"]
    ]
    return (
        f"`bench/edits.py`: campaign of {data['areas']} areas; in-process through the whole "
        "middleware stack, PostgreSQL, each edit committed; the GM edits one power's row of "
        "the powers' panel, the controller of one area (a 400-item list), a power's seat "
        "(absent and back) and the phase's deadline, as the dashboard's HTMX forms send "
        f"them, {data['runs']} times each.\n\n"
        + table(["edit", "median ms", "p90 ms", "queries", "bytes", "out of band"], rows)
        + "\n"
    )


def lighthouse_section(data: dict) -> str:
    rows = [
        [
            page["page"],
            *(
                f"{page['median'][c]:.0f}"
                for c in ("performance", "accessibility", "best-practices")
            ),
            " · ".join(
                f"{r['performance']:.0f}" if r["performance"] else "–" for r in page["runs"]
            ),
            "; ".join(page["short"]) or "–",
        ]
        for page in data["pages"]
    ]
    return (
        f"`bench/lighthouse.py`: Lighthouse {data['version']} (mobile preset) in Debian's "
        f"Chromium, {data['runs']} runs a page, on the demo (a fresh SQLite database) served "
        "by gunicorn with DEBUG off. Medians of each category, the performance score of each "
        "run, and the audits under 0.9 of the worst run. Targets (issue 15): performance "
        "≥ 95, accessibility 100, best practices 100 (issue 15).\n\n"
        + table(
            ["page", "performance", "accessibility", "best practices", "runs", "short of 0.9"],
            rows,
        )
        + "\n"
    )


def kept_sections(path: Path, written: set[str]) -> list[str]:
    """The sections of ``path`` that other scripts write (press, mutation testing): kept
    as they were, since this report has nothing to put in their place."""
    current = path.read_text() if path.exists() else ""
    parts = current.split("\n## ")[1:]
    return [f"## {part.rstrip()}" for part in parts if part.split("\n", 1)[0] not in written]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", action="store_true")
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args()
    if args.start:
        start()
        return
    began = common.load("start")
    phases, pages = common.load("phases"), common.load("pages")
    paced, saturated = common.load("submit"), common.load("submit-saturation")
    resolution = common.load("resolution")
    lighthouse, edits = common.load("lighthouse"), common.load("edits")
    targets: list[list[str]] = []
    sections: list[tuple[str, str]] = []
    if phases:
        targets += phase_targets(phases)
        sections.append(("Phase advance", phases_section(phases)))
    if pages:
        targets += page_targets(pages)
        sections.append(("Pages", pages_section(pages)))
    if paced:
        targets += submit_targets(paced)
        sections.append(("Concurrent order submission", submit_section(paced, saturated)))
    if resolution:
        targets += resolution_targets(resolution)
        sections.append(("Resolution latency", resolution_section(resolution)))
    if edits:
        sections.append(("GM edits in place", edits_section(edits)))
    if lighthouse:
        sections.append(("Lighthouse", lighthouse_section(lighthouse)))
    fast = fast_page_targets(pages, edits, lighthouse)
    now = datetime.now(UTC)
    took = f"{(time.time() - began['time']) / 60:.1f} min" if began else "?"
    load = (
        f"load average {began['loadavg'][0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end"
        if began
        else ""
    )
    info = machine()
    targets_table = table(["target (issue 6)", "figure", ""], targets)
    if fast:
        targets_table += "\n\n" + table(["target (issue 15)", "figure", ""], fast)
    text = "\n\n".join(
        [
            "# Benchmark results",
            f"One run of `bench/run` on {now:%Y-%m-%d %H:%M} UTC ({took}; {load}). Figures "
            "only: nothing here is asserted by the test suite. Causes of the missed targets "
            "and the fixes they call for: [FINDINGS.md](FINDINGS.md).",
            "## Machine\n\n" + table(["", ""], [[k, v] for k, v in info.items()]),
            "## Targets\n\n" + targets_table,
            *(f"## {title}\n\n{body}" for title, body in sections),
        ]
    )
    kept = kept_sections(Path(args.output), {"Machine", "Targets", *(t for t, _ in sections)})
    Path(args.output).write_text("\n\n".join([text.rstrip(), *kept]).rstrip() + "\n")
    print(targets_table)
    print(f"\nWritten to {args.output}")


if __name__ == "__main__":
    main()
