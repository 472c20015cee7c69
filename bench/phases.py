"""Phase advance: SQL queries and wall time of each Empires in Arms phase service, at two
sizes, against the pure resolver alone on the same state.

    python bench/phases.py                    # 400 and 40 areas, 7 runs each
    python bench/phases.py --sizes 400 --runs 3

For each size a campaign is generated (bench/generate.py) and walked through three
months (peace, revolt, land, conquest; land, conquest; land, conquest, economic), every
power giving bench_orders() each phase, with fixed dice (the same seed and context for
both sizes, so that both roll the same faces). At the first phase of each kind:

- service: campaign.play.services.resolve_open_phase, as the GM's "resolve" and the worker
  call it (lock, orders, the phase service, the log, opening the next phase, and what it
  hands to transaction.on_commit: the notifications), starting from the World the
  players' pages keep in the shared cache (courier/settings.py: Redis where
  COURIER_CACHE_URL names one, as bench/run sets it), run ``runs`` times inside a
  transaction that is rolled back, so each run starts from the same state; the median
  wall time and the SQL statements it ran (not counting its own transaction's BEGIN and
  COMMIT, nor the savepoint that stands for them here; the COMMIT is not timed);
- pure: the phase resolver of rules/empires_in_arms/phases.py alone, on the World loaded
  once with rules.empires_in_arms.services.load_state and copied (copy.deepcopy, not
  timed) for each run, with the same orders and dice;
- the ratio service / pure: what loading and persisting cost.

Then the phase is resolved once for real (committed; timed and counted as "committed")
and the walk goes on.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from collections import Counter  # noqa: E402

from django.db import connection, reset_queries, transaction  # noqa: E402
from django.test import TestCase  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench import common  # noqa: E402
from bench.generate import bench_orders, make_campaign  # noqa: E402
from campaign.models import Campaign, Order, Phase  # noqa: E402
from campaign.play.services import resolve_open_phase  # noqa: E402
from campaign.records.state_rows import LiveRows  # noqa: E402
from campaign.state.world_cache import page_world  # noqa: E402
from rules.dice import SeededDice  # noqa: E402
from rules.empires_in_arms import phases as resolvers  # noqa: E402
from rules.empires_in_arms.services import load_state  # noqa: E402

KEYS = ("peace", "revolt", "land", "conquest", "economic")
RESOLVERS = {
    "peace": resolvers.resolve_peace,
    "revolt": resolvers.resolve_revolt_step,
    "land": resolvers.resolve_land,
    "conquest": resolvers.resolve_conquest,
    "economic": resolvers.resolve_economic,
}
SEED = "b" * 64
SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")
TRANSACTION = ("BEGIN", "COMMIT", "ROLLBACK")  # logged by Django, not counted here


class Rollback(Exception):
    pass


def fix_dice(phase: Phase) -> None:
    """The same dice for both sizes: a fixed seed and a context without the campaign id."""
    phase.seed = SEED
    phase.dice_context = f"bench/{phase.turn}/{phase.position}/{phase.key}"
    Phase.objects.filter(pk=phase.pk).update(seed=phase.seed, dice_context=phase.dice_context)


def give_orders(campaign: Campaign, phase: Phase, gm) -> dict[str, dict]:
    """Every power's bench orders, saved ready (as the order forms would save them), read
    from the World the players' pages keep for the state version (world_cache.page_world),
    which the phase service then starts from."""
    world = page_world(campaign, LiveRows(campaign))
    orders = bench_orders(world, phase.key)
    powers = {p.key: p.pk for p in campaign.powers.all()}
    Order.objects.bulk_create(
        [
            Order(
                campaign=campaign,
                phase=phase,
                power_id=powers[k],
                payload=payload,
                ready=True,
                submitted_by=gm,
            )
            for k, payload in orders.items()
        ]
    )
    return orders


def service_run(campaign_id: int, phase_id: int) -> tuple[float, list[str]]:
    """One resolve_open_phase, rolled back: (seconds, the SQL it ran)."""
    elapsed, sql = 0.0, []
    reset_queries()  # the query log keeps 9,000 statements; a full one counts nothing
    try:
        with transaction.atomic():
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                # the on-commit callbacks run at the end of this block, as after a commit
                with TestCase.captureOnCommitCallbacks(execute=True):
                    resolve_open_phase(
                        campaign_id=campaign_id, expected_phase_id=phase_id, actor=None
                    )
                elapsed = time.perf_counter() - started
            sql = [q["sql"] for q in captured.captured_queries]
            raise Rollback
    except Rollback:
        pass
    # the first savepoint is resolve_open_phase's own transaction (BEGIN … COMMIT, which
    # Django does not count, when it is called outside one): drop it and its release
    outer = sql[0].split()[-1] if sql and sql[0].startswith("SAVEPOINT") else None
    return elapsed, [s for s in sql if not (outer and s.startswith(SAVEPOINTS) and outer in s)]


def shape_difference(large: list[str], small: list[str]) -> dict[str, list[str]]:
    """The statements one size ran and the other did not (by shape)."""
    a, b = Counter(map(common.shape, large)), Counter(map(common.shape, small))
    return {"large only": sorted((a - b).elements()), "small only": sorted((b - a).elements())}


def pure_run(world, key: str, orders: dict, phase: Phase) -> float:
    world = copy.deepcopy(world)
    dice = SeededDice(phase.seed, phase.dice_context)
    started = time.perf_counter()
    RESOLVERS[key](world, orders, dice)
    return time.perf_counter() - started


def measure(areas: int, runs: int) -> dict:
    generated = make_campaign(areas=areas, name=f"{common_name()} phases {areas}")
    campaign, gm = generated.campaign, generated.users["gm"]
    figures: dict[str, dict] = {}
    walked = 0
    while len(figures) < len(KEYS) and walked < 12:
        campaign.refresh_from_db()
        phase = campaign.phase
        fix_dice(phase)
        orders = give_orders(campaign, phase, gm)
        if phase.key not in figures:
            service_run(campaign.pk, phase.pk)  # warm-up (imports, caches)
            service = [service_run(campaign.pk, phase.pk) for _ in range(runs)]
            world = load_state(campaign).world
            pure_run(world, phase.key, orders, phase)  # warm-up
            pure = [pure_run(world, phase.key, orders, phase) for _ in range(runs)]
            counts = sorted({len(sql) for _, sql in service})
            reset_queries()
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=phase.pk, actor=None)
                committed = time.perf_counter() - started
            service_ms = common.median([t for t, _ in service]) * 1000
            pure_ms = common.median(pure) * 1000
            figures[phase.key] = {
                "turn": phase.turn,
                "queries": counts[-1],
                "queries_seen": counts,
                "service_ms": service_ms,
                "service_runs_ms": [t * 1000 for t, _ in service],
                "pure_ms": pure_ms,
                "pure_runs_ms": [t * 1000 for t in pure],
                "ratio": service_ms / pure_ms if pure_ms else float("inf"),
                "committed_ms": committed * 1000,
                "committed_queries": sum(
                    1 for q in captured.captured_queries if q["sql"] not in TRANSACTION
                ),
                "sql": service[0][1],
                "rolls": _rolls(campaign.pk, phase.pk),
            }
            f = figures[phase.key]
            print(
                f"  {areas:>4} areas  {phase.key:<9} {f['queries']:>3} queries  "
                f"service {service_ms:7.1f} ms  pure {pure_ms:7.2f} ms  "
                f"ratio {f['ratio']:6.1f}×  committed {f['committed_ms']:7.1f} ms "
                f"({f['committed_queries']} queries, {f['rolls']} rolls)"
            )
        else:
            resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=phase.pk, actor=None)
        walked += 1
    return {"areas": areas, "counts": generated.counts, "campaign": campaign.pk, "phases": figures}


def _rolls(campaign_id: int, phase_id: int) -> int:
    from campaign.models import RollRecord

    return RollRecord.objects.filter(campaign_id=campaign_id, phase_id=phase_id).count()


def common_name() -> str:
    from bench.generate import NAME_PREFIX

    return NAME_PREFIX


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[400, 40])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"Phase advance: resolve_open_phase vs the pure resolver, median of {args.runs} runs")
    results = [measure(areas, args.runs) for areas in args.sizes]
    rows = []
    for result in results:
        for key in KEYS:
            f = result["phases"].get(key)
            if f:
                rows.append(
                    [
                        result["areas"],
                        key,
                        f["queries"],
                        f["service_ms"],
                        f["pure_ms"],
                        f"{f['ratio']:.1f}×",
                        f["committed_ms"],
                    ]
                )
    print()
    print(
        common.table(
            ["areas", "phase", "queries", "service ms", "pure ms", "ratio", "committed ms"],
            rows,
        )
    )
    differences = {}
    if len(results) > 1:
        by_size = sorted(results, key=lambda r: r["areas"])
        small, large = by_size[0], by_size[-1]
        for key in KEYS:
            if key in large["phases"] and key in small["phases"]:
                diff = shape_difference(large["phases"][key]["sql"], small["phases"][key]["sql"])
                if diff["large only"] or diff["small only"]:
                    differences[key] = diff
                    print(f"  {key}: statements of one size only: {diff}")
    common.save("phases", {"runs": args.runs, "sizes": results, "differences": differences})


if __name__ == "__main__":
    main()
