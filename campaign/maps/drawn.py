"""Which built map a campaign draws: its own (CampaignMap), once the GM has moved some
areas' points and rebuilt it, else its scenario's, else none (the diagram)."""

from __future__ import annotations

from campaign.maps.stored import BuiltMap, built_map, parsed
from campaign.models import Campaign


def campaign_map(campaign: Campaign) -> BuiltMap | None:
    """The map ``campaign`` draws. ``seat_for`` reads whether it has its own map with the
    seat (no query here for one that has none); its document is read only when it has."""
    own = getattr(campaign, "drawn_map", None)
    return parsed(own.document) if own is not None else built_map(campaign.scenario)
