"""Where a player's away period comes from, for the campaign page's away panel."""

from __future__ import annotations

from django import template

from campaign.play import away_everywhere

register = template.Library()


@register.filter
def set_everywhere(seat) -> bool:
    """Whether the seat's away period is its player's period for every campaign, set in
    the preferences (one query)."""
    return away_everywhere.from_preferences(seat)
