"""The GM's schedule: setting, extending, pausing and resuming a phase's deadline,
pausing every deadline of the campaign at once, the default deadlines per phase kind,
automatic resolution and the webhook; marking a power absent; a player's away periods.
When a phase may resolve on its own, and whom it waits for: campaign/readiness.py.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.changes import locked_campaign, log, moment_text
from campaign.errors import Conflict, ServiceError
from campaign.lifecycle import resolve_when_everyone_is_ready, settle
from campaign.models import Campaign, Event, Phase, Seat
from campaign.readiness import PAUSED_CAMPAIGN, away_at, to_order
from campaign.webhooks import webhook_refusal
from rules.text import Join, Text
from rules.translation import Term

EXTEND_RANGE = (1, 24 * 14)  # hours


def state_edited(campaign: Campaign, world: Any = None) -> None:
    """After a GM edit of the state, in its transaction (the campaign locked): whom the
    open phase waits for, as the state now stands (``world``: the edited World, else read
    again); it resolves at once if nobody is left."""
    phase = campaign.phase
    if phase is None or phase.status != Phase.Status.OPEN:
        return
    owing = to_order(campaign, campaign.rules.phase(phase.key), world)
    if owing != phase.owing:
        phase.owing = owing
        Phase.objects.filter(pk=phase.pk).update(owing=owing)
    resolve_when_everyone_is_ready(campaign, phase)


# -- the GM's deadline controls ------------------------------------------------------


def _open_phase_for_change(campaign_id: int, phase_id: int) -> tuple[Campaign, Phase]:
    campaign = locked_campaign(campaign_id)
    phase = campaign.phase
    if phase is None or phase.pk != phase_id:
        raise Conflict(_("That phase is no longer open: nothing was changed."))
    if campaign.paused_at is not None:
        raise ServiceError(PAUSED_CAMPAIGN)
    if phase.status == Phase.Status.WAITING:
        raise Conflict(
            _(
                "The phase is being resolved (it waits for a decision): its deadline no longer "
                "applies."
            )
        )
    return campaign, phase


def extend_deadline(*, campaign_id: int, phase_id: int, hours: int, actor) -> Phase:
    """Push the deadline back by ``hours`` (from now when the phase has none)."""
    if not EXTEND_RANGE[0] <= hours <= EXTEND_RANGE[1]:
        raise ServiceError(
            _("Extend by %(low)s to %(high)s hours.")
            % {"low": EXTEND_RANGE[0], "high": EXTEND_RANGE[1]}
        )
    with transaction.atomic():
        campaign, phase = _open_phase_for_change(campaign_id, phase_id)
        if phase.paused_remaining is not None:
            raise ServiceError(_("The deadline is paused: resume it first."))
        start = phase.deadline or timezone.now()
        phase.deadline = start + timedelta(hours=hours)
        phase.reminders_sent = []
        phase.save(update_fields=["deadline", "reminders_sent"])
        log(
            campaign,
            Event.Kind.GM,
            Text(
                "Deadline extended by %(hours)s h, to %(when)s.",
                hours=hours,
                when=moment_text(phase.deadline),
            ),
            actor=actor,
        )
        campaign.bump_version()
        return phase


def pause_deadline(*, campaign_id: int, phase_id: int, actor) -> Phase:
    """Stop the clock: the time left is kept until the GM resumes."""
    with transaction.atomic():
        campaign, phase = _open_phase_for_change(campaign_id, phase_id)
        if phase.deadline is None:
            raise ServiceError(_("The phase has no deadline to pause."))
        left = max(phase.deadline - timezone.now(), timedelta(0))
        phase.paused_remaining, phase.deadline = left, None
        phase.save(update_fields=["paused_remaining", "deadline"])
        said = Text("Deadline paused with %(left)s left.", left=_duration(left))
        log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()
        return phase


def resume_deadline(*, campaign_id: int, phase_id: int, actor) -> Phase:
    """Start the clock again with the time that was left."""
    with transaction.atomic():
        campaign, phase = _open_phase_for_change(campaign_id, phase_id)
        if phase.paused_remaining is None:
            raise ServiceError(_("The deadline is not paused."))
        phase.deadline = timezone.now() + phase.paused_remaining
        phase.paused_remaining = None
        phase.save(update_fields=["paused_remaining", "deadline"])
        said = Text("Deadline resumed: %(when)s.", when=moment_text(phase.deadline))
        log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()
        return phase


def _duration(left: timedelta) -> Text:
    hours, rest = divmod(int(left.total_seconds()), 3600)
    return Text("%(hours)s h %(minutes)s min", hours=hours, minutes=f"{rest // 60:02d}")


def set_schedule(
    *,
    campaign_id: int,
    auto_resolve: bool,
    deadline_hours: dict,
    webhook_url: str,
    actor,
    paused: bool | None = None,
) -> None:
    """Automatic resolution, default deadlines per phase kind, the webhook, and
    (``paused``, None: as it is) every deadline of the campaign paused or running."""
    refusal = webhook_refusal(webhook_url)
    if refusal:
        raise ServiceError(refusal)
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        campaign.auto_resolve, campaign.deadline_hours = auto_resolve, deadline_hours
        campaign.webhook_url = webhook_url
        campaign.save(update_fields=["auto_resolve", "deadline_hours", "webhook_url"])
        log(campaign, Event.Kind.GM, _schedule_line(campaign, webhook_url), actor=actor)
        if paused is not None and paused != (campaign.paused_at is not None):
            (_pause_all if paused else _resume_all)(campaign, actor)
        campaign.bump_version()
        settle(campaign)


def _pause_all(campaign: Campaign, actor) -> None:
    """Stop every deadline: the open phase keeps the time it had left, and a phase that
    opens meanwhile the time the schedule gives it."""
    now = timezone.now()
    campaign.paused_at = now
    campaign.save(update_fields=["paused_at"])
    phase = campaign.phase
    if phase is not None and phase.deadline is not None:
        phase.paused_remaining = max(phase.deadline - now, timedelta(0))
        phase.deadline = None
        phase.save(update_fields=["paused_remaining", "deadline"])
    said = Text("Every deadline is paused until the GM resumes them.")
    log(campaign, Event.Kind.GM, said, actor=actor)


def _resume_all(campaign: Campaign, actor) -> None:
    """Start every deadline again: the open phase gets back the time it had left."""
    campaign.paused_at = None
    campaign.save(update_fields=["paused_at"])
    phase = campaign.phase
    if phase is not None and phase.paused_remaining is not None:
        phase.deadline = timezone.now() + phase.paused_remaining
        phase.paused_remaining = None
        phase.save(update_fields=["paused_remaining", "deadline"])
        when = moment_text(phase.deadline)
        said = Text("Every deadline runs again; this phase's: %(when)s.", when=when)
    else:
        said = Text("Every deadline runs again.")
    log(campaign, Event.Kind.GM, said, actor=actor)


def _schedule_line(campaign: Campaign, webhook_url: str) -> Text:
    """The log line of a schedule change."""
    names = {spec.key: spec.name for spec in campaign.rules.phases}
    names |= {spec.schedule_key: spec.schedule_name for spec in campaign.rules.phases}
    hours = [
        Text("%(phase)s %(hours)s h", phase=Term(names.get(key, key)), hours=h)
        for key, h in campaign.deadline_hours.items()
    ]
    return Text(
        "Schedule: automatic resolution %(auto)s; default deadlines: %(deadlines)s; "
        "webhook %(webhook)s.",
        auto=Text("on") if campaign.auto_resolve else Text("off"),
        deadlines=Join(*hours, sep=", ") if hours else Text("none"),
        webhook=Text("set") if webhook_url else Text("none"),
    )


def set_absent(*, campaign_id: int, power_id: int, absent: bool, actor) -> None:
    """Mark a power absent (it owes no orders; its default orders apply) or back."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        power = campaign.powers.filter(pk=power_id).first()
        if power is None:
            raise ServiceError(_("There is no such power in this campaign."))
        power.absent = absent
        power.save(update_fields=["absent"])
        if absent:
            said = Text(
                "%(power)s is absent: it owes no orders and its default orders apply.",
                power=power.display_name,
            )
        else:
            said = Text("%(power)s is back.", power=power.display_name)
        log(campaign, Event.Kind.SEAT, said, actor=actor, power=power)
        campaign.bump_version()
        settle(campaign)


# -- a player's away periods ----------------------------------------------------------

AWAY_MAX_DAYS = 60


def away_refusal(start: datetime, end: datetime, now: datetime) -> str:
    """Why an away period is refused ("" when it is fine): it may begin now or later
    (this minute counts as now), ends after it begins, and lasts AWAY_MAX_DAYS at most."""
    if start < now.replace(second=0, microsecond=0):
        return _("An away period cannot begin in the past.")
    if end <= start:
        return _("An away period must end after it begins.")
    if end - start > timedelta(days=AWAY_MAX_DAYS):
        return _("An away period lasts at most %(days)s days.") % {"days": AWAY_MAX_DAYS}
    return ""


def _own_seat(campaign: Campaign, seat_id: int, user) -> Seat:
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("power")
        .filter(pk=seat_id, campaign=campaign, user=user, power__isnull=False)
        .first()
    )
    if seat is None:
        raise ServiceError(_("Only a power's player marks themselves away."))
    return seat


def set_away(*, seat_id: int, start: datetime | None, end: datetime, actor) -> Seat:
    """The player of a power marks themselves away from ``start`` (None: now) until
    ``end``: meanwhile the power owes no orders and gets its default orders and answers."""
    now = timezone.now()
    start = start or now
    refusal = away_refusal(start, end, now)
    if refusal:
        raise ServiceError(refusal)
    with transaction.atomic():
        campaign_id = Seat.objects.filter(pk=seat_id).values_list("campaign_id", flat=True)
        campaign = locked_campaign(campaign_id.first() or 0)
        seat = _own_seat(campaign, seat_id, actor)
        seat.away_from, seat.away_until = max(start, now), end
        seat.away_refused, seat.away_noticed = False, start <= now
        seat.save(update_fields=["away_from", "away_until", "away_refused", "away_noticed"])
        said = Text(
            "%(power)s's player is away from %(start)s until %(end)s: meanwhile %(power)s "
            "owes no orders and gets its default orders.",
            power=seat.power.display_name,
            start=moment_text(seat.away_from),
            end=moment_text(end),
        )
        log(campaign, Event.Kind.SEAT, said, actor=actor, power=seat.power)
        campaign.bump_version()
        if seat.away_noticed:
            settle(campaign)
        return seat


def end_away(*, seat_id: int, actor) -> Seat:
    """The player is back (or will not be away after all): the power owes orders again."""
    with transaction.atomic():
        campaign_id = Seat.objects.filter(pk=seat_id).values_list("campaign_id", flat=True)
        campaign = locked_campaign(campaign_id.first() or 0)
        seat = _own_seat(campaign, seat_id, actor)
        if seat.away_from is None:
            raise ServiceError(_("You have no away period to end."))
        _clear_away(seat)
        said = Text("%(power)s's player is back.", power=seat.power.display_name)
        log(campaign, Event.Kind.SEAT, said, actor=actor, power=seat.power)
        campaign.bump_version()
        return seat


def _clear_away(seat: Seat) -> None:
    seat.away_from = seat.away_until = None
    seat.away_refused = seat.away_noticed = False
    seat.save(update_fields=["away_from", "away_until", "away_refused", "away_noticed"])


def refuse_away(*, campaign_id: int, seat_id: int, actor) -> Seat:
    """The GM refuses a player's away period, which ends it: the power owes orders as
    usual, and the player's page says so."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        seat = (
            Seat.objects.select_for_update(of=("self",))
            .select_related("power")
            .filter(pk=seat_id, campaign=campaign, power__isnull=False)
            .first()
        )
        if seat is None or seat.away_from is None or seat.away_refused:
            raise ServiceError(_("That player has no away period to refuse."))
        if seat.away_until <= timezone.now():
            raise ServiceError(_("That away period is already over."))
        seat.away_refused = True
        seat.save(update_fields=["away_refused"])
        said = Text(
            "The GM refuses the away period of %(power)s's player (%(start)s to %(end)s): "
            "%(power)s owes orders as usual.",
            power=seat.power.display_name,
            start=moment_text(seat.away_from),
            end=moment_text(seat.away_until),
        )
        log(campaign, Event.Kind.SEAT, said, actor=actor, power=seat.power)
        campaign.bump_version()
        return seat


def begun_away_periods(now: datetime) -> list[int]:
    """The campaigns where an away period has begun since the last look (the clock's):
    their open phase no longer waits for that power. Each period is noticed once."""
    begun = Seat.objects.filter(away_at(now), away_noticed=False)
    campaigns = sorted(set(begun.values_list("campaign_id", flat=True)))
    begun.update(away_noticed=True)
    return campaigns
