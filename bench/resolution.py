"""Resolution latency with the worker running: after the last "ready" and after a deadline.

    python bench/resolution.py                  # 10 of each
    python bench/resolution.py --trials 3 --clock-interval 2
    python bench/resolution.py --ready-trials 0 --deadline-trials 3 --clock-interval 30

A large campaign (bench/generate.py, 400 areas, a player at each of the 7 powers) is
generated. gunicorn serves Courier; `manage.py db_worker --interval 0.1` (as in
docker-compose.yml) and `manage.py clock` (COURIER_CLOCK_INTERVAL=--clock-interval
seconds, 2 by default as deployed) run beside it, all on bench.settings.

- After the last ready order: every power posts its orders for the open phase, marked
  ready, through the orders endpoint (as the page's HTMX form does); the latency runs
  from the last order's save (Order.updated_at, taken inside the posting transaction,
  so a little before its commit: the figure errs on the high side) to Phase.resolved_at
  (set by the worker inside the resolving transaction).
- After a deadline: the GM sets the open phase's deadline 2 s ahead plus a random part
  of the clock's interval (the service the dashboard calls) and nobody posts; the
  latency runs from the deadline to Phase.resolved_at.

Each trial starts at a random moment (the ready posts after a random pause of up to a
second, the deadline at a random point of the clock's cycle): trials that followed the
previous resolution at once would all fall at the same point of the worker's polling
cycle and measure that point only.

Each trial resolves one phase; the campaign moves on through its months. The figures
are the median and the worst of the trials, each split by the resolving task's row
(django_tasks_db): until the task was enqueued (the trigger: the commit's on-commit
hook, or the clock's tick and the check it runs), its wait for the worker (which polls
every WORKER_INTERVAL seconds when idle), and the resolution itself (until resolved_at).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.db.models import Max  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench import common  # noqa: E402
from bench.generate import NAME_PREFIX, make_campaign  # noqa: E402
from bench.submit import BACKEND, Player, post_ready, visit  # noqa: E402
from campaign.models import Campaign, Order, Phase  # noqa: E402
from campaign.play.services import set_deadline  # noqa: E402

TIMEOUT = 60  # seconds to wait for a resolution before calling it failed


WORKER_INTERVAL = "0.1"  # seconds between two polls of an idle worker, as deployed


def task_times(phase: Phase, since) -> dict:
    """Where the time went, from the task that resolved the phase: enqueued (after the
    trigger), picked up by the worker (its wait), finished."""
    from django_tasks_db.models import DBTaskResult

    tasks = DBTaskResult.objects.filter(
        task_path="campaign.jobs.tasks.resolve_phase", enqueued_at__gte=since
    ).order_by("enqueued_at")
    for task in tasks:
        args = task.args_kwargs.get("args", [])
        if len(args) >= 2 and args[1] == phase.pk and task.started_at:
            return {
                "enqueued_s": (task.enqueued_at - since).total_seconds(),
                "waited_s": (task.started_at - task.enqueued_at).total_seconds(),
                "resolving_s": (phase.resolved_at - task.started_at).total_seconds(),
            }
    return {}


def wait_resolved(phase_id: int) -> Phase | None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        phase = Phase.objects.get(pk=phase_id)
        if phase.resolved_at is not None:
            return phase
        time.sleep(0.02)
    return None


def show(parts: dict) -> str:
    if not parts:
        return ""
    return (
        f"(task enqueued after {parts['enqueued_s'] * 1000:.0f} ms, waited "
        f"{parts['waited_s'] * 1000:.0f} ms for the worker, resolved in "
        f"{parts['resolving_s'] * 1000:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=10, help="of each kind")
    parser.add_argument("--areas", type=int, default=400)
    parser.add_argument("--clock-interval", type=int, default=2, help="seconds")
    parser.add_argument(
        "--lead", type=float, default=2.0, help="deadline: seconds ahead (+ up to an interval)"
    )
    parser.add_argument("--ready-trials", type=int, help="default: --trials")
    parser.add_argument("--deadline-trials", type=int, help="default: --trials")
    parser.add_argument("--save-as", default="resolution", help="name of the figures file")
    args = parser.parse_args()
    rng = random.Random(6)
    ready_trials = args.trials if args.ready_trials is None else args.ready_trials
    deadline_trials = args.trials if args.deadline_trials is None else args.deadline_trials

    generated = make_campaign(areas=args.areas, name=f"{NAME_PREFIX} resolution {args.areas}")
    campaign, gm = generated.campaign, generated.users["gm"]
    players = []
    for power in campaign.powers.all():
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(generated.users[power.key], backend=BACKEND)
        session = client.cookies["sessionid"].value
        players.append(Player(campaign.pk, 0, power.pk, power.key, session, []))
    env = common.environment()
    env["COURIER_CLOCK_INTERVAL"] = str(args.clock_interval)
    print(
        f"Resolution latency: campaign {campaign.pk} ({args.areas} areas, 7 players), "
        f"db_worker --interval {WORKER_INTERVAL}, clock every {args.clock_interval} s"
    )
    ready, deadline = [], []
    with (
        common.gunicorn() as base,
        common.process(
            common.manage("db_worker", "--interval", WORKER_INTERVAL), name="worker", env=env
        ),
        common.process(common.manage("clock"), name="clock", env=env),
    ):
        for player in players:
            visit(base, player)
        time.sleep(2)  # the worker's random start-up delay (at most 1 s)
        for _ in range(ready_trials):
            # anywhere in the worker's polling cycle, not just after its last task
            time.sleep(rng.uniform(0, 1))
            campaign.refresh_from_db()
            phase = campaign.phase
            # the players the phase waits for (those who owe orders in it), the last of
            # them the one whose ready order lets it resolve
            owing = [p for p in players if phase.owing is None or p.power in phase.owing]
            statuses = [post_ready(base, player, phase.pk) for player in owing]
            if set(statuses) != {200}:
                sys.exit(f"ready posts answered {statuses}: see {common.OUT}/gunicorn.log")
            saved = Order.objects.filter(phase=phase).aggregate(last=Max("updated_at"))["last"]
            resolved = wait_resolved(phase.pk)
            if resolved is None:
                sys.exit(f"phase {phase.pk} was not resolved within {TIMEOUT} s: see worker.log")
            seconds = (resolved.resolved_at - saved).total_seconds()
            parts = task_times(resolved, saved)
            ready.append({"phase": phase.key, "turn": phase.turn, "seconds": seconds, **parts})
            print(f"  last ready → resolved {phase.key:<9} {seconds * 1000:6.0f} ms {show(parts)}")
        for _ in range(deadline_trials):
            campaign.refresh_from_db()
            phase = campaign.phase
            # anywhere in the clock's cycle (and the worker's), not just after a tick
            lead = args.lead + rng.uniform(0, args.clock_interval)
            due = timezone.now() + timedelta(seconds=lead)
            set_deadline(campaign_id=campaign.pk, phase_id=phase.pk, deadline=due, actor=gm)
            resolved = wait_resolved(phase.pk)
            if resolved is None:
                sys.exit(f"phase {phase.pk} was not resolved within {TIMEOUT} s: see worker.log")
            seconds = (resolved.resolved_at - due).total_seconds()
            parts = task_times(resolved, due)
            deadline.append({"phase": phase.key, "turn": phase.turn, "seconds": seconds, **parts})
            print(f"  deadline → resolved   {phase.key:<9} {seconds * 1000:6.0f} ms {show(parts)}")
    failed = Phase.objects.filter(campaign=campaign).exclude(failure="")
    failures = list(failed.values_list("failure", flat=True))
    figures = {
        "areas": args.areas,
        "campaign": campaign.pk,
        "clock_interval": args.clock_interval,
        "worker_interval": float(WORKER_INTERVAL),
        "ready": ready,
        "deadline": deadline,
        "ready_median_s": common.median([t["seconds"] for t in ready]),
        "ready_max_s": max((t["seconds"] for t in ready), default=float("nan")),
        "deadline_median_s": common.median([t["seconds"] for t in deadline]),
        "deadline_max_s": max((t["seconds"] for t in deadline), default=float("nan")),
        "failures": failures,
        "resolved_phases": Phase.objects.filter(
            campaign=campaign, status=Phase.Status.RESOLVED
        ).count(),
        "campaign_turn": Campaign.objects.get(pk=campaign.pk).turn,
    }
    print(
        f"  after the last ready: median {figures['ready_median_s']:.2f} s, "
        f"worst {figures['ready_max_s']:.2f} s; after a deadline: median "
        f"{figures['deadline_median_s']:.2f} s, worst {figures['deadline_max_s']:.2f} s"
    )
    common.save(args.save_as, figures)


if __name__ == "__main__":
    main()
