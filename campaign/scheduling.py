"""Deadlines and who still owes orders: when a phase may resolve on its own.

A phase resolves automatically (campaign.auto_resolve, seeded dice only) as soon as
every power that owes orders has marked them ready, or when its deadline passes. A
power owes orders in a phase when the phase takes orders from it, the ruleset says it
has something to order there (PhaseSpec.owes, asked as the phase opens: Phase.owing),
its seat has a player, it is not marked absent and its player is not away. A phase in
which nobody owes anything resolves as soon as it opens, as long as some player is there
at all (else the GM drives the campaign); a GM-run step (one that takes no orders) waits
for its deadline or the GM. The GM sets, extends, pauses and resumes a deadline, and
pauses every deadline of the campaign at once; a phase's default deadline comes from
the campaign's hours per phase kind.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.models import Campaign, Event, Order, Phase, Power, Seat
from campaign.services import (
    Conflict,
    ServiceError,
    locked_campaign,
    log,
    resolve_when_everyone_is_ready,
    settle,
)
from campaign.webhooks import webhook_refusal
from rules.text import Join, Text
from rules.translation import Term

EXTEND_RANGE = (1, 24 * 14)  # hours
PAUSED_CAMPAIGN = gettext_lazy(
    "Every deadline of the campaign is paused: resume them in the schedule first."
)


def away_at(moment: datetime) -> Q:
    """Seats whose player is away at ``moment``."""
    return Q(away_from__lte=moment, away_until__gt=moment, away_refused=False)


def present_powers(campaign: Campaign):
    """The campaign's powers whose player is there: seated, not marked absent, not away."""
    seated = Seat.objects.filter(user__isnull=False, power__isnull=False)
    there = seated.exclude(away_at(timezone.now())).values("power_id")
    return campaign.powers.filter(absent=False, pk__in=there)


def to_order(campaign: Campaign, spec) -> list[str] | None:
    """The keys of the powers with something to order in a phase of ``spec`` as the state
    stands now; None when the ruleset does not say (every power it takes orders from)."""
    if not spec.owes:
        return None
    world = campaign.rules.load_world(campaign)
    keys = campaign.powers.values_list("key", flat=True)
    return [key for key in keys if spec.owes_orders(world, key)]


def _present_with_readiness(campaign: Campaign, phase: Phase) -> list[Power]:
    ready = Order.objects.filter(phase=phase, power=OuterRef("pk"), ready=True)
    return list(present_powers(campaign).annotate(ready=Exists(ready)))


def owing_powers(campaign: Campaign, phase: Phase) -> list[Power]:
    """The powers whose orders the phase waits for, each with ``ready`` (one query)."""
    spec = campaign.rules.phase(phase.key)
    if not spec.takes_orders:
        return []
    present = _present_with_readiness(campaign, phase)
    return [power for power in present if phase.waits_for(spec, power.key)]


def everyone_ready(campaign: Campaign, phase: Phase) -> bool:
    """The phase waits for nobody: it takes orders, some player is there at all, and every
    power that owes orders (there may be none) has marked them ready (one query)."""
    spec = campaign.rules.phase(phase.key)
    if not spec.takes_orders:
        return False
    present = _present_with_readiness(campaign, phase)
    owing = [power for power in present if phase.waits_for(spec, power.key)]
    return bool(present) and all(power.ready for power in owing)


def state_edited(campaign_id: int) -> None:
    """After a GM edit of the state: whom the open phase waits for, as the state now
    stands; it resolves at once if nobody is left."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        phase = campaign.phase
        if phase is None or phase.status != Phase.Status.OPEN:
            return
        owing = to_order(campaign, campaign.rules.phase(phase.key))
        if owing != phase.owing:
            phase.owing = owing
            Phase.objects.filter(pk=phase.pk).update(owing=owing)
        resolve_when_everyone_is_ready(campaign, phase)


def resolves_itself(campaign: Campaign) -> bool:
    """Automatic resolution is on and the dice need no GM."""
    return campaign.auto_resolve and campaign.dice_mode == Campaign.DiceMode.SEEDED


def default_hours(campaign: Campaign, key: str) -> int | None:
    """The hours a phase ``key`` is open for by the campaign's schedule: its kind's
    (PhaseSpec.schedule_key), else its own key's (a schedule saved before kinds)."""
    spec = campaign.rules.phase(key)
    hours = campaign.deadline_hours
    return hours.get(spec.schedule_key) or hours.get(key)


def default_deadline(campaign: Campaign, key: str, opened: datetime) -> datetime | None:
    """The deadline of a phase ``key`` opened at ``opened``, if the campaign has one."""
    hours = default_hours(campaign, key)
    return opened + timedelta(hours=hours) if hours else None


def opening_clock(campaign: Campaign, key: str, opened: datetime) -> dict:
    """A phase's deadline as it opens, or, while every deadline of the campaign is
    paused, the time it will have once they resume."""
    if campaign.paused_at is None:
        return {"deadline": default_deadline(campaign, key, opened)}
    hours = default_hours(campaign, key)
    return {"deadline": None, "paused_remaining": timedelta(hours=hours) if hours else None}


def due_phases(now: datetime):
    """Open phases past their deadline, in campaigns that resolve themselves."""
    return Phase.objects.filter(
        status=Phase.Status.OPEN,
        deadline__lte=now,
        campaign__auto_resolve=True,
        campaign__dice_mode=Campaign.DiceMode.SEEDED,
        campaign__paused_at__isnull=True,
        campaign__phase=F("pk"),
    ).select_related("campaign")


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
                when=_when(phase.deadline),
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
        said = Text("Deadline resumed: %(when)s.", when=_when(phase.deadline))
        log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()
        return phase


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%d %b %Y %H:%M UTC")


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
        when = _when(phase.deadline)
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
                power=power.name,
            )
        else:
            said = Text("%(power)s is back.", power=power.name)
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
            power=seat.power.name,
            start=_when(seat.away_from),
            end=_when(end),
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
        said = Text("%(power)s's player is back.", power=seat.power.name)
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
            power=seat.power.name,
            start=_when(seat.away_from),
            end=_when(seat.away_until),
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
