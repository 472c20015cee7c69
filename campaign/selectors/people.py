"""What a user's profile page reads: their record and the seats they hold."""

from __future__ import annotations

from django.db.models import Q

from campaign.models import Reliability, Seat


def record_of(person) -> Reliability | None:
    """The record this site keeps of ``person``; None before they owed anything."""
    return Reliability.objects.filter(user=person).first()


def played_seats(person) -> list[Seat]:
    """The seats ``person`` plays a power in or runs a campaign from, with their campaign
    and power, by the campaign's name."""
    seats = Seat.objects.filter(Q(role=Seat.Role.GM) | Q(role=Seat.Role.PLAYER), user=person)
    return list(seats.select_related("campaign", "power").order_by("campaign__name", "campaign_id"))


def seated_campaign_ids(user) -> set[int]:
    """The ids of the campaigns ``user`` holds a seat in."""
    return set(Seat.objects.filter(user=user).values_list("campaign_id", flat=True))
