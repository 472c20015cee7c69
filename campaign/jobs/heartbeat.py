"""Are the background processes running? Each records when it was last seen (a Heartbeat
row, written over with one query): the clock (`manage.py clock`) at each tick, the task
worker (`manage.py db_worker`) each time it runs the check the clock enqueues at each
tick (campaign.jobs.tasks.tick). Without them no deadline passes and no phase resolves by
itself; /healthz (courier/health.py) says whether each is seen, and the GM dashboard of a
campaign that resolves by itself warns when one is not.

The thresholds, here alone: a process is *stale* once it has not been seen for more than
STALE_PERIODS of its periods, and never sooner than STALE_AT_LEAST (a worker busy with a
burst of mail after a resolution takes the clock's check late, without having stopped).
The clock's period is its interval (settings.CLOCK_INTERVAL_SECONDS,
COURIER_CLOCK_INTERVAL); the worker's is the clock's too, since it is seen when it runs
the check the clock enqueues every period.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from campaign.models import Heartbeat

CLOCK: str = Heartbeat.Name.CLOCK.value
WORKER: str = Heartbeat.Name.WORKER.value
PROCESSES = (WORKER, CLOCK)
STALE_PERIODS = 5  # periods missed before a process is said not to be running
STALE_AT_LEAST = timedelta(minutes=2)


def stale_after() -> timedelta:
    """How long the clock or the worker may go unseen before it is stale: a few of the
    clock's intervals, the period of both (the worker is seen running the check the
    clock enqueues each interval)."""
    period = timedelta(seconds=settings.CLOCK_INTERVAL_SECONDS)
    return max(STALE_PERIODS * period, STALE_AT_LEAST)


def beat(name: str, now: datetime | None = None) -> None:
    """Record that the process ``name`` runs (one query: an insert or update)."""
    Heartbeat.record(name, now or timezone.now())


@dataclass(frozen=True)
class Liveness:
    """What is known of one process: when it was last seen (None: never) and whether
    that is too long ago."""

    name: str
    seen_at: datetime | None
    stale: bool

    @property
    def label(self) -> str:
        return "stale" if self.stale else "ok"


def liveness(now: datetime | None = None) -> list[Liveness]:
    """The worker's and the clock's liveness, in that order (one query)."""
    now = now or timezone.now()
    seen = dict(Heartbeat.objects.filter(name__in=PROCESSES).values_list("name", "seen_at"))
    return [
        Liveness(
            name=name,
            seen_at=seen.get(name),
            stale=name not in seen or now - seen[name] > stale_after(),
        )
        for name in PROCESSES
    ]


def stale(now: datetime | None = None) -> list[Liveness]:
    """The processes that are not seen running (one query)."""
    return [process for process in liveness(now) if process.stale]
