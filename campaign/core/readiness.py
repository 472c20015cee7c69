"""When a phase may resolve on its own: who owes orders in it, whether they are all
ready, and its deadline.

A phase of a started campaign resolves automatically (campaign.auto_resolve, seeded
dice only: lifecycle.runs_by_itself) as soon as every power that owes orders has marked
them ready, or when its deadline passes. A power owes orders in a phase when the phase
takes orders from it, the ruleset says it has a choice there that can change the outcome
(PhaseSpec.owes, asked as the phase opens and after every GM edit: Phase.owing; its
order form's ``owes`` agrees, tests/services/test_owing_agrees.py), its seat has a
player, it is not marked absent or in civil disorder (campaign/play/disorder.py) and its player
is not away. An optional order for the
GM never makes a power owe. A phase in which nobody owes anything resolves as soon as it
opens, as long as some player is there at all (else the GM drives the campaign); a
GM-run step (one that takes no orders) waits for its deadline or the GM. A phase's
default deadline comes from the campaign's hours per phase kind (the GM's controls:
campaign/play/scheduling.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from campaign.models import Campaign, Order, Phase, Power, Seat
from campaign.models.core import OPEN_DEADLINE

PAUSED_CAMPAIGN = gettext_lazy(
    "Every deadline of the campaign is paused: resume them in the schedule first."
)


def away_at(moment: datetime) -> Q:
    """Seats whose player is away at ``moment``."""
    return Q(away_from__lte=moment, away_until__gt=moment, away_refused=False)


def present_powers(campaign: Campaign):
    """The campaign's powers whose player is there: seated, not marked absent, not away,
    not in civil disorder (campaign/play/disorder.py)."""
    seated = Seat.objects.filter(user__isnull=False, power__isnull=False)
    there = seated.exclude(away_at(timezone.now())).values("power_id")
    return campaign.powers.filter(absent=False, disorder_since__isnull=True, pk__in=there)


def to_order(campaign: Campaign, spec, world: Any = None) -> list[str] | None:
    """The keys of the powers with something to order in a phase of ``spec`` as the state
    (``world``, read if not given) stands now; None when the ruleset does not say (every
    power it takes orders from)."""
    if spec.owes is None:
        return None
    if world is None:
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
    """Open phases past their deadline, in started campaigns that resolve themselves:
    read through the index of the open phases' deadlines (OPEN_DEADLINE), so that the
    resolved phases, whose deadlines are all past, are not read at all."""
    return (
        Phase.objects.alias(open_deadline=OPEN_DEADLINE)
        .filter(
            status=Phase.Status.OPEN,
            open_deadline__lte=now,
            campaign__started_at__isnull=False,
            campaign__auto_resolve=True,
            campaign__dice_mode=Campaign.DiceMode.SEEDED,
            campaign__paused_at__isnull=True,
            campaign__phase=F("pk"),
        )
        .select_related("campaign")
    )
