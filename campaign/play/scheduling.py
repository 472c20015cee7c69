"""The GM's schedule: starting the campaign, setting, extending, pausing and resuming a
phase's deadline, pausing every deadline of the campaign at once, the default deadlines
per phase kind (a pace for a new campaign), automatic resolution and the webhook;
marking a power absent; a player's away periods. When a phase may resolve on its own,
and whom it waits for: campaign/core/readiness.py; when the campaign starts:
campaign/play/lifecycle.py.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.core.changes import locked_campaign, log, moment_text
from campaign.core.readiness import PAUSED_CAMPAIGN, away_at, default_hours, to_order
from campaign.errors import Conflict, ServiceError
from campaign.models import Campaign, Event, Phase, Seat
from campaign.notify.webhooks import check_webhook
from campaign.play.lifecycle import resolve_when_everyone_is_ready, settle
from campaign.state import world_cache
from rules.text import Join, Text
from rules.translation import Term

EXTEND_RANGE = (1, 24 * 14)  # hours
HOURS_RANGE = (1, 24 * 60)  # a phase kind's default deadline, in hours

# -- a new campaign's schedule: its pace, and when it starts ---------------------------

NO_PACE, STANDARD_PACE = "none", "standard"
# A pace: the default deadline, in hours, of a phase that takes orders and of a GM step
# (a phase that takes none, which waits for the GM or its deadline). Every ruleset's
# schedule follows from its phases (``pace_hours``); no pace: no deadline, the GM closes
# every phase.
PACES = {"relaxed": (72, 24), STANDARD_PACE: (48, 12), "fast": (24, 6)}
PACE_NAMES = {
    NO_PACE: gettext_lazy("none: the GM closes every phase"),
    "relaxed": gettext_lazy("relaxed"),
    STANDARD_PACE: gettext_lazy("standard"),
    "fast": gettext_lazy("fast"),
}


def pace_choices() -> list[tuple[str, str]]:
    """The paces a new campaign may take, as the new-campaign form offers them."""
    said = _("%(pace)s: %(orders)s h for orders, %(gm)s h for a GM step")
    return [(NO_PACE, str(PACE_NAMES[NO_PACE]))] + [
        (pace, said % {"pace": PACE_NAMES[pace], "orders": orders, "gm": gm})
        for pace, (orders, gm) in PACES.items()
    ]


def pace_hours(
    rules, pace: str, *, orders_hours: int | None = None, gm_hours: int | None = None
) -> dict[str, int]:
    """Campaign.deadline_hours for a campaign of ``rules`` at ``pace``: each phase kind
    (PhaseSpec.schedule_key) gets the pace's hours for orders if one of its phases takes
    orders, else those of a GM step; ``orders_hours``, ``gm_hours``: the GM's own instead
    of the pace's. ServiceError for an unknown pace or hours out of HOURS_RANGE."""
    if pace != NO_PACE and pace not in PACES:
        raise ServiceError(_("There is no pace “%(pace)s”.") % {"pace": pace})
    for hours in (orders_hours, gm_hours):
        if hours is not None:
            check_hours(hours)
    given = PACES.get(pace, (None, None))
    orders, gm = orders_hours or given[0], gm_hours or given[1]
    takes_orders: dict[str, bool] = {}
    for spec in rules.phases:
        key = spec.schedule_key
        takes_orders[key] = takes_orders.get(key, False) or spec.takes_orders
    schedule = {key: orders if takes else gm for key, takes in takes_orders.items()}
    return {key: hours for key, hours in schedule.items() if hours}


def check_hours(hours: int) -> None:
    """ServiceError when a deadline of ``hours`` is out of HOURS_RANGE."""
    if not HOURS_RANGE[0] <= hours <= HOURS_RANGE[1]:
        raise ServiceError(
            _("A deadline is a whole number of hours from %(low)s to %(high)s.")
            % {"low": HOURS_RANGE[0], "high": HOURS_RANGE[1]}
        )


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
        phase.save(update_fields=["deadline"])
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
    webhook_format: str | None = None,
    paused: bool | None = None,
    apply_to_open: bool = False,
) -> str:
    """Automatic resolution, default deadlines per phase kind, the webhook and
    (``webhook_format``, None: as it is) the chat format it posts in, and
    (``paused``, None: as it is) every deadline of the campaign paused or running;
    ``apply_to_open``: the open phase's deadline is set from the new schedule too
    (``_apply_to_open``), else it keeps its own. Returns what became of the open
    phase's deadline, to tell the GM ("" when no phase is open)."""
    check_webhook(webhook_url)
    if webhook_format is not None and webhook_format not in Campaign.WebhookFormat.values:
        raise ServiceError(_("Choose one of the webhook formats offered."))
    for hours in deadline_hours.values():
        check_hours(hours)
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        campaign.auto_resolve, campaign.deadline_hours = auto_resolve, deadline_hours
        campaign.webhook_url = webhook_url
        campaign.webhook_format = webhook_format or campaign.webhook_format
        fields = ["auto_resolve", "deadline_hours", "webhook_url", "webhook_format"]
        campaign.save(update_fields=fields)
        log(campaign, Event.Kind.GM, _schedule_line(campaign, webhook_url), actor=actor)
        if paused is not None and paused != (campaign.paused_at is not None):
            (_pause_all if paused else _resume_all)(campaign, actor)
        said = _apply_to_open(campaign, actor) if apply_to_open else _kept(campaign)
        campaign.bump_version()
        settle(campaign)
        return said


def _apply_to_open(campaign: Campaign, actor) -> str:
    """The open phase's deadline from the schedule: its kind's hours from when it opened
    (or the campaign started, if later), or from now if that moment has passed; none if
    the schedule gives its kind none. Before the start, the phase gets it as the campaign
    starts; while every deadline is paused, it keeps the time until then for the resume."""
    phase = campaign.phase
    if phase is None or campaign.ended_at is not None:
        return ""
    if phase.status != Phase.Status.OPEN:
        return _("The open phase is being resolved: its deadline no longer applies.")
    now, hours = timezone.now(), default_hours(campaign, phase.key)
    if campaign.started_at is None:
        phase.deadline = phase.paused_remaining = None
        phase.save(update_fields=["deadline", "paused_remaining"])
        if hours:
            return _("The open phase gets its deadline from this schedule as the campaign starts.")
        return _("The schedule gives the open phase no deadline: the GM closes it.")
    deadline = None
    if hours:
        deadline = max(phase.opened_at, campaign.started_at) + timedelta(hours=hours)
        if deadline <= now:
            deadline = now + timedelta(hours=hours)
    # paused, with the campaign or on its own: it keeps the time until then for the resume
    paused = campaign.paused_at is not None or phase.paused_remaining is not None
    if paused:
        phase.deadline, phase.paused_remaining = None, deadline and deadline - now
    else:
        phase.deadline, phase.paused_remaining = deadline, None
    phase.save(update_fields=["deadline", "paused_remaining"])
    if deadline is None:
        log(campaign, Event.Kind.GM, Text("The open phase now has no deadline."), actor=actor)
        return _("The open phase now has no deadline: the GM closes it.")
    if paused:
        left = _duration(phase.paused_remaining)
        said = Text("The open phase's deadline is paused with %(left)s left.", left=left)
        log(campaign, Event.Kind.GM, said, actor=actor)
        return _("The open phase's deadline is paused with %(left)s left.") % {"left": left}
    when = moment_text(deadline)
    said = Text("The open phase's deadline is now %(when)s.", when=when)
    log(campaign, Event.Kind.GM, said, actor=actor)
    return _("The open phase's deadline is now %(when)s.") % {"when": when}


def _kept(campaign: Campaign) -> str:
    """What the open phase keeps when the schedule is not applied to it."""
    phase = campaign.phase
    if phase is None or campaign.ended_at is not None or phase.status != Phase.Status.OPEN:
        return ""
    if phase.paused_remaining is not None:
        left = _duration(phase.paused_remaining)
        return _("The open phase keeps its paused deadline, with %(left)s left.") % {"left": left}
    if phase.deadline is not None:
        return _("The open phase keeps its deadline, %(when)s.") % {
            "when": moment_text(phase.deadline)
        }
    if campaign.started_at is None and default_hours(campaign, phase.key):
        return _("The open phase gets its deadline from this schedule as the campaign starts.")
    return _("The open phase keeps having no deadline.")


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
        locked = campaign.state_version, campaign.state_stamp
        campaign.bump_version()
        world_cache.carry_over(campaign, *locked)  # no World holds an absence
        settle(campaign)


# -- a player's away periods ----------------------------------------------------------

AWAY_MAX_DAYS = 60


def check_away(start: datetime, end: datetime, now: datetime) -> None:
    """ServiceError saying why an away period may not be set: it may begin now or later
    (this minute counts as now), ends after it begins, and lasts AWAY_MAX_DAYS at most."""
    if start < now.replace(second=0, microsecond=0):
        raise ServiceError(_("An away period cannot begin in the past."))
    if end <= start:
        raise ServiceError(_("An away period must end after it begins."))
    if end - start > timedelta(days=AWAY_MAX_DAYS):
        raise ServiceError(
            _("An away period lasts at most %(days)s days.") % {"days": AWAY_MAX_DAYS}
        )


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
    check_away(start, end, now)
    with transaction.atomic():
        campaign_id = Seat.objects.filter(pk=seat_id).values_list("campaign_id", flat=True)
        campaign = locked_campaign(campaign_id.first() or 0)
        seat = _own_seat(campaign, seat_id, actor)
        begin_away(campaign, seat, max(start, now), end, actor, now)
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
        back(campaign, seat, actor)
        campaign.bump_version()
        return seat


def begin_away(campaign: Campaign, seat: Seat, start: datetime, end: datetime, actor, now) -> None:
    """Inside the caller's transaction (the campaign locked): the seat's player is away
    from ``start`` until ``end``, logged; noticed at once when it has begun (``now``)."""
    seat.away_from, seat.away_until = start, end
    seat.away_refused, seat.away_noticed = False, start <= now
    seat.save(update_fields=Seat.AWAY_FIELDS)
    said = Text(
        "%(power)s's player is away from %(start)s until %(end)s: meanwhile %(power)s "
        "owes no orders and gets its default orders.",
        power=seat.power.display_name,
        start=moment_text(seat.away_from),
        end=moment_text(end),
    )
    log(campaign, Event.Kind.SEAT, said, actor=actor, power=seat.power)


def back(campaign: Campaign, seat: Seat, actor) -> None:
    """Inside the caller's transaction: the seat's player is back, logged."""
    _clear_away(seat)
    said = Text("%(power)s's player is back.", power=seat.power.display_name)
    log(campaign, Event.Kind.SEAT, said, actor=actor, power=seat.power)


def _clear_away(seat: Seat) -> None:
    seat.clear_away()
    seat.save(update_fields=Seat.AWAY_FIELDS)


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
    their open phase no longer waits for that power. Each period is noticed once. Only
    the periods not yet noticed are read (an index of their own, Seat.Meta.indexes), and
    those found are marked by their ids (a second query, none when there are none)."""
    begun = list(
        Seat.objects.filter(away_at(now), away_noticed=False).values_list("pk", "campaign_id")
    )
    if begun:
        Seat.objects.filter(pk__in=[seat_id for seat_id, c in begun]).update(away_noticed=True)
    return sorted({campaign_id for s, campaign_id in begun})
