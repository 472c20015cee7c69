"""Who played which power when: a tenure opens when a user takes a power's seat and
closes when they leave it, are replaced, or the campaign ends. The history page lists
them (campaign/views/history.py)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from campaign.models import Campaign, Power, Tenure
from rules.translation import localized


def begin(campaign: Campaign, power: Power, user) -> Tenure:
    """``user`` starts playing ``power`` this turn (a tenure still open is closed as left)."""
    end(campaign, power, Tenure.Ended.LEFT)
    return Tenure.objects.create(
        campaign=campaign,
        power=power,
        user=user,
        user_name=user.get_username(),
        first_turn=campaign.turn,
    )


def end(campaign: Campaign, power: Power, how: str) -> Tenure | None:
    """The power's player stops playing it this turn (``how``: Tenure.Ended); the closed
    tenure, or None when nobody played it."""
    tenure = Tenure.objects.filter(power=power, ended_at__isnull=True).first()
    if tenure is None:
        return None
    tenure.last_turn, tenure.ended_at, tenure.ended = campaign.turn, timezone.now(), how
    tenure.save(update_fields=["last_turn", "ended_at", "ended"])
    return tenure


def end_all(campaign: Campaign, how: str) -> list[int]:
    """Close every open tenure of the campaign (it ends); the ids of their users."""
    open_ones = Tenure.objects.filter(campaign=campaign, ended_at__isnull=True)
    users = list(open_ones.values_list("user_id", flat=True))
    open_ones.update(last_turn=campaign.turn, ended_at=timezone.now(), ended=how)
    return users


@dataclass(frozen=True)
class PlayedBy:
    """One line of a power's players, as the history page shows it."""

    power: Power
    user_name: str
    first: str
    last: str
    ended: str


def played_by(campaign: Campaign) -> list[PlayedBy]:
    """Every tenure of the campaign, by power, oldest first, with the turns' names (one
    query)."""
    rules, setup = campaign.rules, campaign.setup
    rows = Tenure.objects.filter(campaign=campaign).select_related("power")
    rows = rows.order_by("power__sort", "power_id", "started_at", "pk")
    return [
        PlayedBy(
            power=tenure.power,
            user_name=tenure.user_name,
            first=localized(rules.turn_label(tenure.first_turn, setup)),
            last=localized(rules.turn_label(tenure.last_turn, setup)) if tenure.ended else "",
            ended=tenure.get_ended_display() if tenure.ended else "",
        )
        for tenure in rows
    ]
