"""What the timeline page reads: the state each turn opened with, and the powers."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from campaign.models import Campaign, PhaseSnapshot, Power
from campaign.state.snapshots import decode


def turn_openings(campaign: Campaign) -> list[tuple[int, dict]]:
    """(turn, state) as each turn opened, in turn order: one query."""
    earlier = PhaseSnapshot.objects.filter(
        campaign=campaign,
        phase__turn=OuterRef("phase__turn"),
        phase__position__lt=OuterRef("phase__position"),
    )
    rows = (
        PhaseSnapshot.objects.filter(campaign=campaign)
        .filter(~Exists(earlier))
        .order_by("phase__turn")
        .values_list("phase__turn", "state")
    )
    return [(turn, decode(state, campaign.ruleset)) for turn, state in rows]


def campaign_powers(campaign: Campaign) -> list[Power]:
    """The campaign's powers, in their order."""
    return list(campaign.powers.all())
