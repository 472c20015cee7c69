"""Missed deadlines and civil disorder.

As a phase resolves (services._orders_for, in its transaction), each power whose orders
it waited for is counted (``count_turnout``): one that gave orders has them in on time
and its count of missed deadlines starts again; one that gave none by a deadline that
passed plays its default or standing orders (as before) and is marked "missed" in the
log and on the pages. Closed by the GM before its deadline, or without one, a phase marks
nobody missed. After Campaign.disorder_after missed deadlines in a row (0: never) the
power falls into civil disorder: it owes no orders (campaign/core/readiness.py), plays its
default orders, its player is told by mail, and its seat is offered in the lobby as
"replacement wanted" (campaign/play/replacements.py). The GM puts a power into civil disorder
or takes it out; a player who gives orders again takes their power out by themselves.
Every change is logged.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core.changes import locked_campaign, log
from campaign.core.readiness import present_powers
from campaign.errors import ServiceError
from campaign.models import (
    Campaign,
    Event,
    MailChoice,
    MailKind,
    Phase,
    Power,
    Seat,
    SeatRequest,
    Turnout,
)
from campaign.notify import outgoing
from campaign.play import reliability
from campaign.play.lifecycle import settle
from rules.text import Text


def count_turnout(campaign: Campaign, phase: Phase, gave: set[int]) -> None:
    """Count, as ``phase`` resolves, each power it waited for (``gave``: the ids of the
    powers that saved orders for it): see the module docstring. What it counts is kept
    (Turnout) for a rollback to undo (``resolution_withdrawn``)."""
    spec = campaign.rules.phase(phase.key)
    if not spec.takes_orders:
        return
    owing = [p for p in present_powers(campaign) if phase.waits_for(spec, p.key)]
    seats = Seat.objects.filter(power__in=owing, user__isnull=False).exclude(
        role=Seat.Role.OBSERVER
    )
    players = {seat.power_id: seat for seat in seats}
    deadline_passed = phase.deadline is not None and phase.deadline <= timezone.now()
    counted = [
        Turnout(
            phase=phase,
            power=power,
            user_id=players[power.pk].user_id if power.pk in players else None,
            missed=power.pk not in gave,
            missed_before=power.missed_in_row,
        )
        for power in owing
        if power.pk in gave or deadline_passed
    ]
    in_time = [t for t in counted if not t.missed]
    reliability.add((t.user_id for t in in_time), "owed", "on_time")
    Power.objects.filter(pk__in=[t.power_id for t in in_time], missed_in_row__gt=0).update(
        missed_in_row=0
    )
    missed = [t for t in counted if t.missed]
    reliability.add((t.user_id for t in missed), "owed", "missed")
    for turnout in missed:
        seat = players.get(turnout.power_id)
        turnout.fell = _missed(campaign, phase, turnout.power, seat is not None and seat.is_gm)
    Turnout.objects.bulk_create(counted)


def resolution_withdrawn(phase: Phase) -> None:
    """A rollback undoes ``phase``'s resolution, inside its transaction: what it counted
    of each power (missed deadlines in a row, the records, a fall into civil disorder) is
    undone, to be counted again as it resolves again."""
    counted = list(Turnout.objects.filter(phase=phase).select_related("power"))
    for turnout in counted:
        power = turnout.power
        power.missed_in_row = turnout.missed_before
        if turnout.fell:
            power.disorder_since = None
        power.save(update_fields=["missed_in_row", "disorder_since"])
    reliability.add((t.user_id for t in counted if t.missed), "owed", "missed", by=-1)
    reliability.add((t.user_id for t in counted if not t.missed), "owed", "on_time", by=-1)
    Turnout.objects.filter(phase=phase).delete()


def _missed(campaign: Campaign, phase: Phase, power: Power, gm_plays: bool) -> bool:
    """Count the missed deadline, logged; whether the power falls into civil disorder (a
    power the GM plays never does: its seat is the GM's)."""
    power.missed_in_row += 1
    power.save(update_fields=["missed_in_row"])
    limit = campaign.disorder_after
    names = {"power": power.display_name, "missed": power.missed_in_row}
    if limit:
        said = Text(
            "%(power)s missed the deadline: %(missed)s in a row, civil disorder after %(limit)s.",
            limit=limit,
            **names,
        )
    else:
        said = Text("%(power)s missed the deadline: %(missed)s in a row.", **names)
    log(campaign, Event.Kind.ORDER, said, power=power, phase=phase)
    falls = bool(limit) and power.missed_in_row >= limit and not gm_plays
    if falls:
        _fall(campaign, power, actor=None)
    return falls


def _fall(campaign: Campaign, power: Power, *, actor) -> None:
    """The power falls into civil disorder: marked, its seat's invitation renewed (an old
    link no longer takes it over), logged and its player mailed."""
    power.disorder_since = timezone.now()
    power.save(update_fields=["disorder_since"])
    seat = campaign.seats.select_related("user").get(power=power)
    seat.invite_token = Seat._meta.get_field("invite_token").get_default()
    seat.save(update_fields=["invite_token"])
    names = {"power": power.display_name}
    if actor is None:
        said = Text(
            "%(power)s falls into civil disorder after %(missed)s missed deadlines: it plays "
            "its default orders, and its seat is offered to a new player.",
            missed=power.missed_in_row,
            **names,
        )
    else:
        said = Text(
            "GM %(gm)s puts %(power)s into civil disorder: it plays its default orders, and "
            "its seat is offered to a new player.",
            gm=actor.get_username(),
            **names,
        )
    # a fall as a phase resolves is part of its resolution: a rollback withdraws its line
    kind = Event.Kind.ORDER if actor is None else Event.Kind.SEAT
    log(campaign, kind, said, actor=actor, power=power)
    _mail_player(campaign, power, seat.user)


def _mail_player(campaign: Campaign, power: Power, user) -> None:
    def write() -> outgoing.Letter:
        names = {"campaign": campaign.name, "power": power.display_name}
        subject = _("[%(campaign)s] %(power)s is in civil disorder") % names
        body = [
            _(
                "%(power)s is in civil disorder: it plays its default orders, and its seat is "
                "offered to a new player in the lobby."
            )
            % names,
            _("Give orders on the campaign page to take it back before someone takes it over."),
        ]
        link = outgoing.site_url(reverse("campaign:detail", args=[campaign.pk]))
        return outgoing.Letter(subject, body, link=link)

    transaction.on_commit(lambda: outgoing.send(user, write, campaign=campaign))


def _mail_requester(campaign: Campaign, power: Power, user) -> None:
    """Tell a user who asked for the seat that it wants no new player any more (if they
    want the lobby's mail from the campaign)."""
    if not MailChoice.of(user.pk, campaign.pk).wants(MailKind.LOBBY):
        return

    def write() -> outgoing.Letter:
        names = {"campaign": campaign.name, "power": power.display_name}
        subject = _("[%(campaign)s] Your request for %(power)s") % names
        body = _("%(power)s no longer wants a new player: its player is back.") % names
        link = outgoing.site_url(reverse("campaign:lobby"))
        return outgoing.Letter(subject, [body], link=link)

    transaction.on_commit(
        lambda: outgoing.send(user, write, campaign=campaign, kind=MailKind.LOBBY)
    )


def restore(power: Power) -> None:
    """Out of civil disorder, with no missed deadline counted."""
    power.disorder_since, power.missed_in_row = None, 0
    power.save(update_fields=["disorder_since", "missed_in_row"])


def _keep_player(campaign: Campaign, power: Power) -> None:
    """The power keeps its player after all: out of civil disorder, and the requests to
    take its seat over are refused, each requester mailed."""
    restore(power)
    waiting = campaign.seat_requests.filter(power=power, status=SeatRequest.Status.PENDING)
    for asked in waiting.select_related("user"):
        _mail_requester(campaign, power, asked.user)
    waiting.update(status=SeatRequest.Status.REFUSED, answered_at=timezone.now())


def set_disorder(*, campaign_id: int, power_id: int, disorder: bool, actor) -> Power:
    """The GM puts a power whose seat has a player into civil disorder, or takes one out."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        power = campaign.powers.select_for_update().filter(pk=power_id).first()
        if power is None:
            raise ServiceError(_("There is no such power in this campaign."))
        if disorder == power.in_disorder:
            said = (
                _("%(power)s is already in civil disorder.")
                if disorder
                else _("%(power)s is not in civil disorder.")
            )
            raise ServiceError(said % {"power": power.display_name})
        if disorder:
            _refuse_without_player(campaign, power)
            _fall(campaign, power, actor=actor)
        else:
            _keep_player(campaign, power)
            said = Text(
                "GM %(gm)s takes %(power)s out of civil disorder.",
                gm=actor.get_username(),
                power=power.display_name,
            )
            log(campaign, Event.Kind.SEAT, said, actor=actor, power=power)
        campaign.bump_version()
        settle(campaign)
        return power


def _refuse_without_player(campaign: Campaign, power: Power) -> None:
    seat = campaign.seats.filter(power=power).first()
    if seat is None or seat.is_gm:
        raise ServiceError(
            _("The GM plays %(power)s: it cannot fall into civil disorder.")
            % {"power": power.display_name}
        )
    if seat.user_id is None:
        raise ServiceError(
            _("%(power)s has no player: its seat is free already.") % {"power": power.display_name}
        )


def player_is_back(campaign: Campaign, seat: Seat, actor) -> None:
    """Inside the caller's transaction: the player of a power in civil disorder gives
    orders again, which takes it out (logged)."""
    power = seat.power
    if not power.in_disorder or seat.user_id != getattr(actor, "pk", None):
        return
    _keep_player(campaign, power)
    said = Text(
        "%(power)s's player is back: %(power)s is no longer in civil disorder.",
        power=power.display_name,
    )
    log(campaign, Event.Kind.SEAT, said, actor=actor, power=power)
