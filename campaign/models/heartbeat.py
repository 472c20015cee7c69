"""When each background process was last seen running (campaign/jobs/heartbeat.py): the
clock at each of its ticks, the task worker each time it runs the clock's check."""

from __future__ import annotations

from django.db import models


class Heartbeat(models.Model):
    """One background process's latest sign of life: one row per process, written over
    (an upsert) each time it is seen."""

    class Name(models.TextChoices):
        CLOCK = "clock", "manage.py clock"
        WORKER = "worker", "manage.py db_worker"

    name = models.CharField(max_length=20, unique=True, choices=Name)
    seen_at = models.DateTimeField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name}: {self.seen_at:%Y-%m-%d %H:%M:%S %Z}"
