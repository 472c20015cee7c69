"""A phase's lifecycle: it opens (its snapshot taken, its players told), waits for
orders and for the decisions its procedures ask, is finished, and the next phase in the
turn sequence opens. A phase that waits for nobody is resolved by the worker once the
transaction commits (``ready_to_resolve``). The resolution itself, orders and decisions
come in through campaign/services.py.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone, translation

from campaign import history, notifications, readiness
from campaign.changes import log
from campaign.models import Campaign, Event, Phase, Seat
from rules.dice import new_seed, seed_hash
from rules.text import Text
from rules.translation import Term

WAITING = "waiting"  # a phase service's result when a procedure waits for a decision

ready_to_resolve = Signal()  # campaign_id, phase_id, seed_hash: the phase waits for nobody


def next_position(campaign: Campaign, phase: Phase) -> tuple[int, int]:
    """The turn and position of the phase that follows ``phase`` in the turn sequence."""
    count = len(campaign.rules.turn_phases(phase.turn, campaign.setup))
    if phase.position + 1 < count:
        return phase.turn, phase.position + 1
    return phase.turn + 1, 0


def open_phase(campaign: Campaign, turn: int, position: int, world: Any = None) -> Phase:
    """Open the phase at ``position`` of ``turn``: logged, the ruleset's turn-start hook
    run for a turn's first phase, snapshotted, announced, and resolved once the
    transaction commits if it waits for nobody. Nobody's act: its log lines are credited
    to nobody, whoever's resolution or answer led to it. ``world``: the state now, if the
    caller has it (who owes orders is read from it)."""
    spec = campaign.rules.turn_phases(turn, campaign.setup)[position]
    turn_started = campaign.rules.hooks.turn_started  # which changes the state
    starts_turn = position == 0 and turn_started is not None
    seed = new_seed()
    phase = Phase.objects.create(
        campaign=campaign,
        turn=turn,
        position=position,
        key=spec.key,
        seed=seed,
        seed_hash=seed_hash(seed),
        dice_context=Phase.context_for(campaign.pk, turn, position, spec.key),
        **readiness.opening_clock(campaign, spec.key, timezone.now()),
        owing=None if starts_turn else readiness.to_order(campaign, spec, world),
    )
    campaign.turn = turn
    campaign.phase = phase
    campaign.save(update_fields=["turn", "phase"])
    with translation.override(None):  # the log keeps the rules' own words
        text = Text(
            "%(turn)s: %(phase)s is open. %(does)s",
            turn=campaign.rules.turn_label(turn, campaign.setup),
            phase=Term(spec.name),
            does=Term(spec.does),
        )
    log(campaign, Event.Kind.PHASE, text, rule=spec.rules[0], phase=phase)
    if starts_turn:
        turn_started(campaign, turn, None)
        phase.owing = readiness.to_order(campaign, spec)
        if phase.owing is not None:
            phase.save(update_fields=["owing"])
    history.phase_opened(campaign, phase)  # a snapshot of the state as the phase opens
    notifications.phase_opened(campaign, phase)
    resolve_when_everyone_is_ready(campaign, phase)  # nobody may owe anything in it
    return phase


def resolve_when_everyone_is_ready(campaign: Campaign, phase: Phase) -> None:
    """Once the transaction commits, have the worker resolve the phase if every power
    that owes orders is ready (and the campaign resolves itself)."""
    if readiness.resolves_itself(campaign) and readiness.everyone_ready(campaign, phase):
        transaction.on_commit(
            lambda: ready_to_resolve.send(
                Phase, campaign_id=campaign.pk, phase_id=phase.pk, seed_hash=phase.seed_hash
            )
        )


def settle(campaign: Campaign) -> None:
    """After a change of who is there (an absence, an away period, a seat, the schedule),
    inside the caller's transaction: a decision under way whose power's player is no
    longer there gets its default answer, and an open phase that waits for nobody any
    more resolves (resolve_when_everyone_is_ready)."""
    phase = campaign.phase
    if phase is None or campaign.ended_at is not None:
        return
    if phase.status == Phase.Status.WAITING:
        go_on(campaign, phase, WAITING, None)
    else:
        resolve_when_everyone_is_ready(campaign, phase)


def go_on(campaign: Campaign, phase: Phase, result, actor, world: Any = None) -> Phase:
    """After the resolver or an answer: the decisions asked of powers whose player is not
    there get their default answers; then the phase waits for the next, or is finished
    and the next opens. Returns the phase open now. ``world``: the state as the resolver
    left it and its service wrote it, if it left it (PhaseContext.world)."""
    if result == WAITING:
        result = _answer_by_default(campaign, phase)
        world = None  # the answers changed the state
    if result == WAITING:
        return _wait(campaign, phase)
    return finish_phase(campaign, phase, actor, world)


def _answer_by_default(campaign: Campaign, phase: Phase) -> str | None:
    """While the decision under way waits for a power whose player is not there (no
    player, absent or away), give the ruleset's default answer, logged as such; only in
    a campaign that resolves itself and has some player there (else the GM answers)."""
    rules = campaign.rules
    decisions = rules.hooks.decisions
    if not (decisions and readiness.resolves_itself(campaign)):
        return WAITING
    present = set(readiness.present_powers(campaign).values_list("key", flat=True))
    result = WAITING
    while result == WAITING and present:
        asked = decisions.default(rules.load_world(campaign))
        if asked is None or asked[0] in present:
            break
        power = campaign.powers.get(key=asked[0])
        said = Text(
            "%(power)s has no player here to decide: it gives the default answer.",
            power=power.display_name,
        )
        log(campaign, Event.Kind.ORDER, said, power=power, phase=phase)
        result = decisions.decide(
            campaign=campaign,
            phase=phase,
            power_key=power.key,
            answer=asked[1],
            actor=None,
            as_gm=False,
        )
        seat = Seat(campaign=campaign, power=power)  # its seat, as a replay reads it
        history.record_decision(campaign, phase, seat, asked[1], None)
    return result


def _wait(campaign: Campaign, phase: Phase) -> Phase:
    if phase.status != Phase.Status.WAITING:
        phase.status = Phase.Status.WAITING
        phase.save(update_fields=["status"])
    campaign.bump_version()
    return phase


def finish_phase(campaign: Campaign, phase: Phase, actor, world: Any = None) -> Phase:
    """Mark the phase resolved, announce and log it, open the next (``world``: the state
    now, if the caller has it); returns the opened phase."""
    spec = campaign.rules.phase(phase.key)
    phase.status = Phase.Status.RESOLVED
    phase.resolved_at = timezone.now()
    phase.resolved_by = actor if getattr(actor, "is_authenticated", False) else None
    phase.failure = ""
    phase.save(update_fields=["status", "resolved_at", "resolved_by", "failure"])
    notifications.phase_resolved(campaign, phase)
    text = Text("%(phase)s resolved.", phase=Term(spec.name))
    log(
        campaign,
        Event.Kind.PHASE,
        text,
        actor=actor,
        phase=phase,
        rule=spec.rules[0],
    )
    opened = open_phase(campaign, *next_position(campaign, phase), world)
    campaign.bump_version()
    return opened
