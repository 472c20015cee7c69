"""When each background process was last seen running (campaign/jobs/heartbeat.py): the
clock at each of its ticks, the task worker each time it runs the clock's check; and up to
what moment the worker has looked for the reminders due (campaign/notify/reminders.py)."""

from __future__ import annotations

from datetime import datetime

from django.db import models


class Heartbeat(models.Model):
    """One background process's latest sign of life: one row per process, written over
    (an upsert) each time it is seen."""

    class Name(models.TextChoices):
        CLOCK = "clock", "manage.py clock"
        WORKER = "worker", "manage.py db_worker"
        REMINDERS = "reminders", "reminders looked for up to"

    name = models.CharField(max_length=20, unique=True, choices=Name)
    seen_at = models.DateTimeField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name}: {self.seen_at:%Y-%m-%d %H:%M:%S %Z}"

    @classmethod
    def record(cls, name: str, moment: datetime) -> None:
        """Write ``moment`` as ``name``'s latest (one query: an insert or update)."""
        cls.objects.bulk_create(
            [cls(name=name, seen_at=moment)],
            update_conflicts=True,
            unique_fields=["name"],
            update_fields=["seen_at"],
        )

    @classmethod
    def last(cls, name: str) -> datetime | None:
        """``name``'s latest moment (None: never recorded), one query."""
        return cls.objects.filter(name=name).values_list("seen_at", flat=True).first()
