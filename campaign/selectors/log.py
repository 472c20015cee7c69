"""What the log panels read: the newest lines, a seated power's lines of the last
resolved phase, and the lines written after the one a page shows."""

from __future__ import annotations

from django.db.models import Q, Subquery, Value
from django.db.models.functions import Coalesce

from campaign.models import Campaign, Event, Phase


def page_lines(
    campaign: Campaign, power_id: int | None, limit: int
) -> tuple[list[Event], list[Event]]:
    """The newest ``limit`` lines (newest first) and, for a power (``power_id``), the
    lines of the last resolved phase that may concern it (its own, and those with an
    audience), oldest first: one query."""
    events = Event.objects.filter(campaign=campaign)
    cutoff = events.order_by("-pk").values("pk")[limit - 1 : limit]
    wanted = Q(pk__gte=Coalesce(Subquery(cutoff), Value(0)))
    last = Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED)
    last = Subquery(last.order_by("-turn", "-position").values("pk")[:1])
    if power_id:
        concerning = Q(power_id=power_id) | ~Q(audience=[])
        wanted |= Q(phase_id=last) & concerning
    rows = list(
        events.filter(wanted)
        .annotate(last_resolved=last)
        .select_related("actor", "phase")
        .order_by("-pk")
    )
    # every line of the last phase that is not among the newest is older than all of them
    newest = rows[:limit]
    mine = [e for e in reversed(rows) if e.phase_id is not None and e.phase_id == e.last_resolved]
    return newest, mine


def with_writers(campaign: Campaign):
    """The campaign's log lines, each with its actor and phase."""
    return Event.objects.filter(campaign=campaign).select_related("actor", "phase")


def lines_after(campaign: Campaign, since: int) -> list[Event]:
    """The lines written after line ``since``, newest first."""
    return list(with_writers(campaign).filter(pk__gt=since).order_by("-pk"))


def is_line_of(campaign: Campaign, line_id: int, phase_id: int) -> bool:
    """Whether line ``line_id`` of the campaign belongs to phase ``phase_id``."""
    return with_writers(campaign).filter(pk=line_id, phase_id=phase_id).exists()


def newest_lines(campaign: Campaign, limit: int) -> list[Event]:
    """The newest ``limit`` lines, in the log's order."""
    return list(with_writers(campaign)[:limit])
