"""How far the open phase has gone, as the campaign page shows it and polls for it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from campaign.core.readiness import everyone_ready
from campaign.jobs.tasks import resolution_queued
from campaign.models import Campaign, Phase
from campaign.play.lifecycle import runs_by_itself

OPEN, RESOLVING, WAITING, WITH_GM = "open", "resolving", "waiting", "with_gm"
FAST_POLL_SECONDS = 2  # while the phase resolves or waits for a decision
# what the GM is to do with a phase whose orders are all in (WITH_GM)
START, DICE, RESOLVE = "start", "dice", "resolve"


@dataclass(frozen=True)
class Progress:
    """``pace``: the phase takes orders (open), has all of them and its resolution is
    queued or running (resolving), has all of them and waits for the GM (with_gm: to
    ``start`` the campaign, enter the ``dice`` or ``resolve`` it), or waits for a decision
    (waiting)."""

    pace: str
    gm_step: str = ""

    @property
    def poll_seconds(self) -> int:
        """Open or with the GM: settings.POLL_SECONDS (COURIER_POLL_SECONDS); otherwise
        every 2 s."""
        return settings.POLL_SECONDS if self.pace in (OPEN, WITH_GM) else FAST_POLL_SECONDS

    @property
    def key(self) -> str:
        """What the page shows, as the poll compares it."""
        return f"{self.pace}-{self.gm_step}" if self.gm_step else self.pace


def of_phase(campaign: Campaign, phase: Phase, ready: Callable[[], bool]) -> Progress:
    """The phase's progress; ``ready`` (every order is in) is asked only when it matters.
    It is said to be resolving only while a resolution is queued or running."""
    if phase.status == Phase.Status.WAITING:
        return Progress(WAITING)
    if not ready():
        return Progress(OPEN)
    if runs_by_itself(campaign):
        return Progress(RESOLVING if resolution_queued(phase.pk) else OPEN)
    return Progress(WITH_GM, gm_step=_gm_step(campaign))


def _gm_step(campaign: Campaign) -> str:
    if campaign.started_at is None:
        return START
    return DICE if campaign.dice_mode == Campaign.DiceMode.SCRIPTED else RESOLVE


def polled(campaign: Campaign, phase: Phase) -> Progress:
    """The phase's progress read from the database (at most two queries)."""
    return of_phase(campaign, phase, lambda: everyone_ready(campaign, phase))


def on_page(state: Any) -> Progress | None:
    """The open phase's progress from a loaded page (context.CampaignState), without a
    query but where every order is in; None before the first phase."""
    if state.phase is None:
        return None
    return of_phase(
        state.campaign,
        state.phase,
        lambda: all_ready(state.powers, state.orders, state.spec, state.phase),
    )


def all_ready(powers: list[Any], orders: dict[int, Any], spec: Any, phase: Phase) -> bool:
    """readiness.everyone_ready over loaded rows: the phase takes orders, some power's
    player is there (``power.player``, not absent, not ``away``, not in civil disorder),
    and every such power the phase waits for has marked its orders ready."""
    if not spec.takes_orders:
        return False
    present = [p for p in powers if p.player and not (p.absent or p.away or p.in_disorder)]
    owing = [p for p in present if phase.waits_for(spec, p.key)]
    return bool(present) and all(p.pk in orders and orders[p.pk].ready for p in owing)
