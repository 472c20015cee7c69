"""What the history pages read: the campaign's phases in order, and the log as it stood
once a past phase had resolved."""

from __future__ import annotations

from django.db.models import Q

from campaign.models import Campaign, Event, Phase


def campaign_phases(campaign: Campaign) -> list[Phase]:
    """The campaign's phases, turn by turn in their order."""
    return list(Phase.objects.filter(campaign=campaign).order_by("turn", "position"))


def past_lines(
    campaign: Campaign, phase_ids: list[int], until: int | None, limit: int
) -> list[Event]:
    """The newest ``limit`` lines of the phases ``phase_ids`` and of no phase, written up
    to line ``until`` (None: up to now), each with its actor and phase."""
    events = Event.objects.filter(campaign=campaign).filter(
        Q(phase_id__in=phase_ids) | Q(phase__isnull=True)
    )
    if until is not None:
        events = events.filter(pk__lte=until)
    return list(events.select_related("actor", "phase")[:limit])
