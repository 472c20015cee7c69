"""The home page: the user's campaigns, the most urgent first (the orders the open phase
waits for from them and that are not ready, the nearest deadline first), in a fixed
number of queries however many campaigns they take part in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import reduce
from operator import or_

from django.db.models import Count, Exists, F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaign import press
from campaign.models import Campaign, Message, Order, Phase, ReadMarker, Seat
from rules.engine import PhaseSpec


@dataclass(frozen=True)
class Entry:
    """One of the user's campaigns: their seat, whether the open phase waits for their
    power's orders (``owes``) and they have marked them ready, and the press messages
    they have not read."""

    seat: Seat
    owes: bool
    ready: bool
    unread: int

    @property
    def campaign(self) -> Campaign:
        return self.seat.campaign

    @property
    def phase(self) -> Phase | None:
        return self.campaign.phase

    @property
    def spec(self) -> PhaseSpec | None:
        return self.campaign.rules.phase(self.phase.key) if self.phase else None

    @property
    def urgent(self) -> bool:
        return self.owes and not self.ready


def entries(user) -> list[Entry]:
    """The user's campaigns, the most urgent first (three queries)."""
    ready = Order.objects.filter(
        phase_id=OuterRef("campaign__phase_id"), power_id=OuterRef("power_id"), ready=True
    )
    seats = list(
        Seat.objects.filter(user=user)
        .select_related("campaign", "campaign__phase", "power")
        .annotate(ready=Exists(ready))
    )
    unread = unread_press(user, seats)
    now = timezone.now()
    found = [Entry(s, owes(s, now), s.ready, unread.get(s.campaign_id, 0)) for s in seats]
    return sorted(found, key=urgency)


def owes(seat: Seat, now: datetime) -> bool:
    """Whether the open phase waits for the orders of the seat's power:
    readiness.owing_powers for this one power, over the rows already loaded (the tests
    check that both agree)."""
    campaign, phase = seat.campaign, seat.campaign.phase
    if seat.power_id is None or phase is None or campaign.ended_at is not None:
        return False
    spec = campaign.rules.phase(phase.key)
    return (
        phase.status == Phase.Status.OPEN
        and spec.takes_orders
        and not seat.power.absent
        and not seat.away_at(now)
        and phase.waits_for(spec, seat.power.key)
    )


def urgency(entry: Entry) -> tuple:
    """Orders awaited and not ready first; then by deadline (none last) and name."""
    deadline = entry.phase.deadline if entry.phase else None
    return (
        not entry.urgent,
        deadline is None,
        deadline.timestamp() if deadline else 0,
        entry.campaign.name.casefold(),
    )


def unread_press(user, seats: list[Seat]) -> dict[int, int]:
    """By campaign id, the press messages the user's seat there reads and the user has not
    read (one query): press.readable's channels, past the user's read marker of each,
    written by someone else."""
    if not seats:
        return {}
    readable = reduce(or_, (Q(channel__in=press.readable(seat)) for seat in seats))
    marker = ReadMarker.objects.filter(user_id=user.pk, channel_id=OuterRef("channel_id"))
    rows = (
        Message.objects.filter(readable)
        .exclude(author_id=user.pk)
        .alias(read_upto=Coalesce(Subquery(marker.values("last_read")[:1]), Value(0)))
        .filter(pk__gt=F("read_upto"))
        .values("campaign_id")
        .annotate(count=Count("pk"))
        .order_by()
    )
    return {row["campaign_id"]: row["count"] for row in rows}
