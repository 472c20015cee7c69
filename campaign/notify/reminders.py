"""Reminders before a deadline: each user chooses how many hours before it he is
reminded (Profile.reminder_hours, "24, 2" unless he changes it), and each campaign may
turn them off (MailChoice). A reminder (a mail, and a push to each of the user's
devices) goes while the power owes orders not marked ready, once for each offset: the
offsets it covers are written (ReminderSent) in the transaction that queues it, so that
several workers, a restart or a clock tick that comes late neither send it twice nor skip
it. A deadline moved later by at least an offset that went
(an extension of a day for the 24-hour reminder) has that offset go again when it is due;
a pause or a shorter move does not. When the worker comes back after several offsets
have passed, one mail covers them, saying the time really left.

The clock looks only where a reminder may have come due since it last looked (its moment
kept as Heartbeat "reminders"): the campaigns changed since (each keeps the version it
was last looked at, REMINDERS_UNCHECKED; a change of a player's choices counts as one,
``watch_choices``), the phases whose deadline one of the chosen offsets has passed, and
those where an away period ended. Its cost follows what happened since, not the number
of campaigns.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext, ngettext

from campaign.core import readiness
from campaign.models import (
    Campaign,
    Heartbeat,
    MailChoice,
    MailKind,
    Order,
    Phase,
    Profile,
    PushSubscription,
    ReminderSent,
    Seat,
)
from campaign.models.core import OPEN_DEADLINE, REMINDERS_UNCHECKED
from campaign.models.mail import default_reminder_hours
from campaign.notify import mail_orders, notifications, order_text, outgoing, push

LOOKED_AT_ONCE = 2000  # phases per query (a site's campaigns all changed at once: many)


def send_due(now: datetime) -> int:
    """Queue every reminder due at ``now``; returns how many mails were queued. (The clock
    calls it every few seconds: see ``_to_look_at`` for the few open phases it reads.)"""
    offsets = _chosen_offsets()
    unchecked = list(unchecked_campaigns())
    queued = 0
    for phases in _phases_to_look_at(now, offsets, unchecked):
        due = phases.filter(_something_due(now, offsets)).select_related("campaign")
        queued += sum(_remind(phase, now) for phase in due)
    Campaign.objects.bulk_update(
        [Campaign(pk=pk, reminders_checked=seen) for pk, _phase, seen in unchecked],
        ["reminders_checked"],
        batch_size=500,
    )
    Heartbeat.record(Heartbeat.Name.REMINDERS, now)
    return queued


def _phases_to_look_at(now: datetime, offsets: list[list[int]], unchecked: list) -> Iterator:
    """The open phases a reminder may be due in, a query at a time: each within the
    longest offset of its deadline and, once the clock has looked before, where one may
    have come due since (``_to_look_at``)."""
    hours = sorted({hour for chosen in offsets for hour in chosen})
    phases = Phase.objects.filter(
        status=Phase.Status.OPEN,
        campaign__started_at__isnull=False,  # a deadline runs from the start
        campaign__phase=F("pk"),
        deadline__gt=now,
        deadline__lte=now + timedelta(hours=hours[-1]),
    )
    since = Heartbeat.last(Heartbeat.Name.REMINDERS)
    if since is None:  # the first time: every open phase
        yield phases
        return
    ids = sorted(_to_look_at(since, now, hours, unchecked))
    for start in range(0, len(ids), LOOKED_AT_ONCE):
        yield phases.filter(pk__in=ids[start : start + LOOKED_AT_ONCE])


def _to_look_at(since: datetime, now: datetime, hours: list[int], unchecked: list) -> set:
    """The phases where a reminder may have come due since the clock last looked
    (``since``). Nothing else brings a reminder forward, so the rest need not be read."""
    return (
        {phase for _pk, phase, _seen in unchecked}
        | set(offsets_passed(since, now, hours).values_list("pk", flat=True))
        | set(back_from_away(since, now).values_list("campaign__phase_id", flat=True))
    ) - {None}


def unchecked_campaigns():
    """(id, open phase, what to mark it checked at) of the campaigns changed since the
    clock last looked at them: a deadline moved, a seat taken, orders no longer ready, a
    player's choices (REMINDERS_UNCHECKED, through its index)."""
    return Campaign.objects.filter(REMINDERS_UNCHECKED).values_list(
        "pk", "phase_id", F("version") + F("reminder_changes")
    )


def offsets_passed(since: datetime, now: datetime, hours: list[int]):
    """The open phases whose deadline one of the offsets ``hours`` passed after ``since``
    (through the index of the open phases' deadlines)."""
    passed = (
        Q(open_deadline__gt=since + timedelta(hours=h), open_deadline__lte=now + timedelta(hours=h))
        for h in hours
    )
    return Phase.objects.alias(open_deadline=OPEN_DEADLINE).filter(
        functools.reduce(operator.or_, passed)
    )


def back_from_away(since: datetime, now: datetime):
    """The seats whose away period ended after ``since``: their power owes orders again
    (through the index of the periods' ends)."""
    return Seat.objects.filter(away_until__gt=since, away_until__lte=now, away_refused=False)


def look_again(*, user_id: int, campaign_id: int | None = None) -> None:
    """The user's choices changed what may remind him: the clock looks again at his
    running campaigns (or this one), at its next tick."""
    campaigns = Campaign.objects.filter(seats__user_id=user_id, ended_at=None)
    if campaign_id is not None:
        campaigns = campaigns.filter(pk=campaign_id)
    campaigns.update(reminder_changes=F("reminder_changes") + 1)


def watch_choices() -> None:
    """Have every save of what a user chooses that may bring a reminder forward (his
    reminder hours, a mail address, his account turned on again, a device, his mail
    choices of a campaign) make the clock look again (``look_again``): a save by any
    form, service or the admin; so do a reminder counted that the admin deletes and the
    preferences deleted. (A change that only holds reminders back needs nothing.)"""
    fields = {Profile: {"reminder_hours"}, get_user_model(): {"email", "is_active"}}
    for model in (Profile, get_user_model(), PushSubscription, MailChoice):
        post_save.connect(
            functools.partial(_chosen, fields.get(model)),
            sender=model,
            weak=False,
            dispatch_uid=f"reminders.{model.__name__}",
        )
    # no row any more: every kind of mail on, the default hours, an offset to remind again
    for model in (MailChoice, Profile, ReminderSent):
        post_delete.connect(
            functools.partial(_chosen, None),
            sender=model,
            weak=False,
            dispatch_uid=f"reminders.{model.__name__}.deleted",
        )


def _chosen(
    fields: set[str] | None, sender, instance, update_fields=None, created=False, **kwargs
) -> None:
    if fields is not None and update_fields is not None and not fields & set(update_fields):
        return  # a login, a language chosen, a digest sent: nothing that reminds
    if created and sender is Profile and instance.reminder_hours == default_reminder_hours():
        return  # the preferences a page makes on reading: as good as none
    user_id = instance.pk if sender is get_user_model() else instance.user_id
    look_again(user_id=user_id, campaign_id=getattr(instance, "campaign_id", None))


def _chosen_offsets() -> list[list[int]]:
    """Each set of offsets chosen by a user seated in a running campaign, and the
    default's (for those who chose none), in one query."""
    chosen = Profile.objects.filter(
        user__seats__campaign__started_at__isnull=False, user__seats__campaign__ended_at=None
    ).values_list("reminder_hours", flat=True)
    return [default_reminder_hours(), *(hours for hours in chosen.distinct() if hours)]


def _something_due(now: datetime, chosen: list[list[int]]) -> Q:
    """The phases where a seat whose power's orders are not marked ready, and whose user
    has not turned reminders off there, has an offset due and not yet counted: the
    phases ``_remind`` may queue a reminder for (it checks the rest: who owes orders, who
    is there, who can be reached)."""
    phase = OuterRef(OuterRef("pk"))
    due = []
    for hours in sorted({hour for offsets in chosen for hour in offsets}):
        holding = Q(user__profile__reminder_hours__in=[o for o in chosen if hours in o])
        if hours in default_reminder_hours():
            holding |= Q(user__profile__isnull=True)
        counted = ReminderSent.objects.filter(  # what _counted counts
            phase=phase,
            user=OuterRef("user"),
            hours=hours,
            deadline__gt=OuterRef(OuterRef("deadline")) - timedelta(hours=hours),
        )
        ready = Order.objects.filter(phase=phase, power=OuterRef("power"), ready=True)
        off = MailChoice.objects.filter(
            user=OuterRef("user"), campaign=OuterRef("campaign"), reminders=False
        )
        seats = Seat.objects.filter(
            holding,
            ~Exists(counted),
            ~Exists(ready),
            ~Exists(off),
            campaign=OuterRef("campaign"),
            user__isnull=False,
            power__isnull=False,
        )
        due.append(Q(Exists(seats), deadline__lte=now + timedelta(hours=hours)))
    return functools.reduce(operator.or_, due)  # the default's offsets: never empty


def _remind(phase: Phase, now: datetime) -> int:
    """Queue this phase's due reminders, each in its own transaction."""
    campaign = phase.campaign
    late = {p.pk for p in readiness.owing_powers(campaign, phase) if not p.ready}
    seats = [s for s in notifications.readers(campaign, MailKind.REMINDERS) if s.power_id in late]
    if not seats:
        return 0
    hours = dict(
        Profile.objects.filter(user__in=[s.user_id for s in seats]).values_list(
            "user_id", "reminder_hours"
        )
    )
    left = phase.deadline - now
    sent = _counted(phase)
    world = None
    queued = 0
    for seat in seats:
        offsets = hours.get(seat.user_id, default_reminder_hours())
        fresh = [h for h in offsets if left <= timedelta(hours=h) and (seat.user_id, h) not in sent]
        if not fresh:
            continue
        world = world or campaign.rules.load_world(campaign)
        queued += _queue(seat, phase, fresh, left, world)
    return queued


def _counted(phase: Phase) -> set[tuple[int, int]]:
    """The (user, offset) already reminded of. A reminder for an earlier deadline counts
    unless the deadline moved later by at least its offset (an extension of a day for the
    24-hour reminder): then it is forgotten, to go again; a pause does not."""
    counted = set()
    for row in ReminderSent.objects.filter(phase=phase):
        if phase.deadline - row.deadline >= timedelta(hours=row.hours):
            row.delete()
        else:
            counted.add((row.user_id, row.hours))
    return counted


def _queue(seat: Seat, phase: Phase, offsets: list[int], left: timedelta, world) -> int:
    """Count the offsets as sent and queue their one mail and push, together or not at
    all."""
    try:
        with transaction.atomic():
            ReminderSent.objects.bulk_create(
                ReminderSent(user=seat.user, phase=phase, deadline=phase.deadline, hours=h)
                for h in offsets
            )
            outgoing.send(
                seat.user,
                lambda: _letter(seat, phase, left, world),
                campaign=phase.campaign,
                kind=MailKind.REMINDERS,
                answer=notifications.orders_answer(phase),
            )
            push.notify(
                phase.campaign, MailKind.REMINDERS, [seat.user], lambda: _notice(phase, left)
            )
    except IntegrityError:  # another worker counted one of them first: its mail goes
        return 0
    return 1


def time_left(left: timedelta) -> str:
    """ "5 hours", "40 minutes": the time left, rounded down."""
    hours, minutes = int(left.total_seconds() // 3600), int(left.total_seconds() // 60)
    if hours:
        return ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours}
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def _notice(phase: Phase, left: timedelta) -> push.Notice:
    campaign = phase.campaign
    spec = campaign.rules.phase(phase.key)
    return push.Notice(
        title=gettext("[%(campaign)s] %(phase)s: %(left)s left")
        % {"campaign": campaign.name, "phase": spec.name, "left": time_left(left)},
        body=gettext("%(phase)s closes at %(deadline)s and your orders are not marked ready.")
        % {"phase": spec.name, "deadline": outgoing.moment(phase.deadline)},
        url=notifications.campaign_link(campaign),
        tag=f"reminder-{campaign.pk}",  # beside the phase's opening, not in its place
        urgency="high",
    )


def _letter(seat: Seat, phase: Phase, left: timedelta, world) -> outgoing.Letter:
    campaign = phase.campaign
    spec = campaign.rules.phase(phase.key)
    form = mail_orders.order_form(campaign, phase, seat.power, world)
    return outgoing.Letter(
        subject=gettext("[%(campaign)s] %(phase)s: %(left)s left")
        % {"campaign": campaign.name, "phase": spec.name, "left": time_left(left)},
        paragraphs=[
            gettext("%(phase)s closes at %(deadline)s and your orders are not marked ready.")
            % {"phase": spec.name, "deadline": outgoing.moment(phase.deadline)}
        ],
        orders=order_text.written(form),
        link=notifications.campaign_link(campaign),
    )
