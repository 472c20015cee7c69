"""Replacements: a new player takes over the seat of a power in civil disorder
(campaign/play/disorder.py).

A signed-in user asks for the seat in the lobby, as "replacement wanted"; where the GM
accepts each replacement (Campaign.replacements_need_gm, the default) the request waits
for the GM's answer, otherwise the seat is theirs at once; the GM may also seat a user
by name or send the seat's invitation link. The seat's player leaves it: the tenure that
says who played which phases closes (campaign/play/tenures.py), both records count it
(campaign/play/reliability.py), the player is told by mail and keeps an observer seat that
remembers the power (Seat.former_power, left_at): they read what an observer reads, their
power's press up to then and its hidden state in the phases they played
(campaign/press/press.py, campaign/core/watching.py), and act no more. The callers
(services.claim_seat, services.assign_seat) lock the campaign and the seat and check the
seat may be given, in that order, so of two users taking the same seat at once one gets
it and the other is told it has been taken.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core.changes import log
from campaign.models import Campaign, Event, Seat, Tenure
from campaign.notify import outgoing
from campaign.play import disorder, reliability, tenures
from rules.text import Text


def is_replacement(seat: Seat, user) -> bool:
    """Whether giving ``seat`` to ``user`` takes it over from its player: its power is in
    civil disorder and someone else plays it."""
    return (
        seat.power_id is not None
        and seat.power.in_disorder
        and seat.user_id is not None
        and seat.user_id != user.pk
    )


def take_over(campaign: Campaign, seat: Seat, user, *, actor) -> Seat:
    """``user`` takes over ``seat`` from its player, inside the caller's transaction (see
    the module docstring); ``actor``: who gave it (the GM, or the user)."""
    old, power = seat.user, seat.power
    campaign.seats.filter(user=user, role=Seat.Role.OBSERVER).delete()
    seat.user, seat.user_placeholder = user, ""
    seat.clear_away()
    seat.invite_token = Seat._meta.get_field("invite_token").get_default()
    seat.save(update_fields=["user", "user_placeholder", "invite_token", *Seat.AWAY_FIELDS])
    Seat.objects.create(
        campaign=campaign,
        role=Seat.Role.OBSERVER,
        user=old,
        former_power=power,
        left_at=timezone.now(),
    )
    tenures.end(campaign, power, Tenure.Ended.REPLACED)
    tenures.begin(campaign, power, user)
    reliability.add([old.pk], "seats_left")
    reliability.add([user.pk], "replaced_in")
    disorder.restore(power)
    said = Text(
        "%(user)s takes over %(power)s from %(old)s after civil disorder.",
        user=user.get_username(),
        power=power.display_name,
        old=old.get_username(),
    )
    log(campaign, Event.Kind.SEAT, said, actor=actor, power=power)
    _mail_replaced(campaign, power, old)
    return seat


def _mail_replaced(campaign: Campaign, power, user) -> None:
    def write() -> outgoing.Letter:
        names = {"campaign": campaign.name, "power": power.display_name}
        subject = _("[%(campaign)s] A new player plays %(power)s") % names
        body = [
            _("A new player has taken over %(power)s, which was in civil disorder.") % names,
            _(
                "You keep an observer's seat: you read the campaign as an observer does, and "
                "no longer act in it."
            ),
        ]
        link = outgoing.site_url(reverse("campaign:detail", args=[campaign.pk]))
        return outgoing.Letter(subject, body, link=link)

    transaction.on_commit(lambda: outgoing.send(user, write, campaign=campaign))
