"""What the API reads, as its token's owner sees it on the pages: the same selectors and
presenters, the same viewer (campaign/core/watching.py) and sealing rule (campaign/core/sealing.py),
each in a fixed number of queries however large the campaign or the user's list of them.
A ``state`` is the page's (campaign.views.context.CampaignState)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils import timezone

from campaign import presenters
from campaign.models import Campaign, Event, Order, Seat
from campaign.people import home
from rules.translation import localized

LOG_PAGE = 100  # log lines a page of the API's log holds unless it asks for fewer
LOG_PAGE_MOST = 500


@dataclasses.dataclass(frozen=True)
class Sitting:
    """One of the user's seats, with whether the open phase waits for its power's orders
    (home.owes, as the home page says it) and whether they are marked ready."""

    seat: Seat
    owes: bool
    ready: bool

    @property
    def campaign(self) -> Campaign:
        return self.seat.campaign


def sittings(user) -> list[Sitting]:
    """The user's seats (GM, player, observer), by campaign name: one query."""
    ready = Order.objects.filter(
        phase_id=OuterRef("campaign__phase_id"), power_id=OuterRef("power_id"), ready=True
    )
    seats = (
        Seat.objects.filter(user=user)
        .select_related("campaign", "campaign__phase", "power")
        .annotate(ready=Exists(ready))
        .order_by("campaign__name", "campaign_id", "pk")
    )
    now = timezone.now()
    return [Sitting(seat, home.owes(seat, now), seat.ready) for seat in seats]


def orders_due(user) -> list[Sitting]:
    """The user's seats whose power owes orders in the open phase, the nearest deadline
    first (none last): one query."""
    due = [s for s in sittings(user) if s.owes]
    return sorted(due, key=lambda s: deadline_order(s.campaign.phase.deadline))


def deadline_order(deadline: datetime | None) -> tuple:
    return (deadline is None, deadline.timestamp() if deadline else 0)


def area_rows(state) -> list[presenters.AreaRow]:
    """The map's areas as the seat's map table shows them: controller, and the ruleset's
    badges, cells and remarks for the seat's viewer."""
    by_pk = {power.pk: power for power in state.powers}
    presenter = state.presenter
    marks = presenter.area_marks(state.world, state.viewer) if presenter else {}
    areas = [a._asdict() if hasattr(a, "_asdict") else vars(a) for a in state.areas]
    rows = [presenters.area_row(area, by_pk, marks.get(area["key"])) for area in areas]
    return sorted(rows, key=lambda row: str(row.name))


def panels(state) -> dict[str, Any]:
    """The ruleset's state panels for the seat's viewer, as plain values."""
    presenter = state.presenter
    return plain(presenter.panels(state.world, state.viewer)) if presenter else {}


def log_page(state, after: int, limit: int) -> tuple[list[dict], int | None]:
    """The log lines after line ``after``, oldest first, as the seat reads them
    (presenters.visible_text with its viewer; a line it may not read at all is left out),
    at most ``limit`` lines read: the lines, and the line to ask after for the next page
    (None: there is no more). One query."""
    events = list(
        Event.objects.filter(campaign=state.campaign, pk__gt=after)
        .select_related("actor", "phase")
        .order_by("pk")[: limit + 1]
    )
    more = len(events) > limit
    events = events[:limit]
    lines = [line for event in events if (line := log_line(state, event))]
    return lines, events[-1].pk if more else None


def log_line(state, event: Event) -> dict | None:
    """One log line as the seat reads it (None: it may not read it at all)."""
    text = presenters.visible_text(event, state.viewer)
    if not text:
        return None
    rules, phase = state.rules, event.phase
    turn = phase.turn if phase else event.turn
    return {
        "id": event.pk,
        "turn": localized(rules.turn_label(turn, state.campaign.setup)),
        "phase": str(rules.phase(phase.key).name) if phase else None,
        "rule": event.rule,
        "kind": event.kind,
        "actor": event.actor_label,
        "text": text,
        "created_at": event.created_at,
    }


def plain(value: Any) -> Any:
    """A presenter's value as JSON can hold it: dataclasses and mappings as objects,
    sequences as lists, translatable text in the active language."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(item) for item in value]
    if value is None or isinstance(value, bool | int | float | datetime):
        return value
    return str(value)  # a lazy translation, a scenario's Name: in the active language
