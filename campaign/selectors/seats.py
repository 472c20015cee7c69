"""What the seat pages read: a campaign's seats, the seat an invitation offers, and an
offer of a campaign as it now stands."""

from __future__ import annotations

from campaign.models import Campaign, Handover, Seat
from campaign.people.gm_team import with_offer


def campaign_seats(campaign: Campaign) -> list[Seat]:
    """Every seat of the campaign with its user, power and former power, and the offer of
    the campaign waiting for an answer (campaign.people.gm_team.with_offer): one query."""
    return list(with_offer(campaign.seats.select_related("user", "power", "former_power")))


def invited_seat(token: str) -> Seat | None:
    """The player's or observer's seat an invitation token names (taken or not), with its
    campaign and power; None for no such token."""
    seats = Seat.objects.select_related("campaign", "power").exclude(role=Seat.Role.GM)
    return seats.filter(invite_token=token).first()


def offer_as_now(offer: Handover) -> Handover:
    """``offer`` read again: as it stands after an answer was refused."""
    offer.refresh_from_db()
    return offer
