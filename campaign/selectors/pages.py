"""What a campaign page reads besides the World: the live rows the World is loaded from
(kept for the page), the map's areas and the open phase's orders."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from campaign.core.readiness import away_at
from campaign.models import Area, Campaign, Order, Phase, Power, Seat
from campaign.records.state_rows import LiveRows

MAP_AREA_FIELDS = ("key", "name", "kind", "controller_id", "x", "y")


class PageRows(LiveRows):
    """The live rows, with the powers and areas the World loader reads kept for the page:
    the powers with their player's user name (``player``: the readiness table) and
    whether that player is away (``away``), the areas with their map positions, so that
    the page reads neither table twice."""

    def __init__(self, campaign: Campaign):
        super().__init__(campaign)
        self.power_rows: list[Power] | None = None
        self.area_rows: list[Area] | None = None

    def powers(self, *related: str) -> list[Power]:
        players = Seat.objects.filter(power=OuterRef("pk"), user__isnull=False).exclude(
            role=Seat.Role.OBSERVER
        )
        rows = Power.objects.filter(campaign=self.campaign).select_related(*related)
        rows = rows.annotate(
            player=Subquery(players.values("user__username")[:1]),
            away=Exists(players.filter(away_at(timezone.now()))),
        )
        self.power_rows = list(rows)
        return self.power_rows

    def areas(self, *related: str) -> list[Area]:
        self.area_rows = super().areas(*related)
        return self.area_rows


def map_areas(campaign: Campaign) -> list[Any]:
    """The campaign's areas as the map draws them: named rows of MAP_AREA_FIELDS."""
    rows = Area.objects.filter(campaign=campaign)
    return list(rows.values_list(*MAP_AREA_FIELDS, named=True))


def area_cells(campaign: Campaign) -> dict[str, dict]:
    """The campaign's areas by key: each one's key, name, kind and controller's id."""
    rows = campaign.areas.values("key", "name", "kind", "controller_id")
    return {area["key"]: area for area in rows}


def orders_by_power(phase: Phase) -> dict[int, Order]:
    """The phase's orders (drafts and ready), by power id."""
    return {order.power_id: order for order in phase.orders.all()}
