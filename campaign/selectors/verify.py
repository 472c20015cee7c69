"""What the verify page reads: the rolls a phase stored."""

from __future__ import annotations

from campaign.models import Phase, RollRecord


def phase_rolls(phase: Phase) -> list[RollRecord]:
    """The phase's stored rolls in the order they were made, each with its log line and
    power."""
    rows = RollRecord.objects.filter(phase=phase).select_related("event", "power")
    return list(rows.order_by("index", "pk"))
