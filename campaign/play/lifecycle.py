"""A phase's lifecycle: it opens (its snapshot taken, its players told), waits for
orders and for the decisions its procedures ask, is finished, and the next phase in the
turn sequence opens. A phase that waits for nobody is resolved by the worker once the
transaction commits (``ready_to_resolve``). The resolution itself, orders and decisions
come in through campaign/play/services.py.

A campaign made from the new-campaign form has not started (Campaign.started_at empty):
its first phase is open, players take their seats and may give orders, but no phase
resolves by itself and none has a deadline until it starts (``begin``), when the GM says
so or, if the GM chose it (Campaign.start_when), as the last player seat is taken
(``settle``). The GM may still resolve a phase meanwhile.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone, translation

from campaign.core import readiness
from campaign.core.changes import log, moment_text
from campaign.models import Campaign, Event, Phase, Seat
from campaign.notify import notifications
from campaign.state import history
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
        **_opening_clock(campaign, spec.key),
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


def _opening_clock(campaign: Campaign, key: str) -> dict:
    """readiness.opening_clock, once the campaign has started: before, a phase opens
    without a deadline (its clock starts with the campaign, ``begin``)."""
    if campaign.started_at is None:
        return {}
    return readiness.opening_clock(campaign, key, timezone.now())


def runs_by_itself(campaign: Campaign) -> bool:
    """The campaign has started and resolves itself (readiness.resolves_itself): its
    phases resolve without the GM, when everyone is ready or at their deadline."""
    return campaign.started_at is not None and readiness.resolves_itself(campaign)


def resolve_when_everyone_is_ready(campaign: Campaign, phase: Phase) -> None:
    """Once the transaction commits, have the worker resolve the phase if every power
    that owes orders is ready (and the campaign has started and resolves itself)."""
    if runs_by_itself(campaign) and readiness.everyone_ready(campaign, phase):
        transaction.on_commit(
            lambda: ready_to_resolve.send(
                Phase, campaign_id=campaign.pk, phase_id=phase.pk, seed_hash=phase.seed_hash
            )
        )


def settle(campaign: Campaign) -> None:
    """After a change of who is there (an absence, an away period, a seat, the schedule),
    inside the caller's transaction: a campaign that starts when every seat is taken
    starts once they are (``begin``); a decision under way whose power's player is no
    longer there gets its default answer, and an open phase that waits for nobody any
    more resolves (resolve_when_everyone_is_ready)."""
    phase = campaign.phase
    if phase is None or campaign.ended_at is not None:
        return
    if campaign.started_at is None:
        if starts_now(campaign):
            begin(campaign, actor=None)  # which settles the started campaign
        return
    if phase.status == Phase.Status.WAITING:
        go_on(campaign, phase, WAITING, None)
    else:
        resolve_when_everyone_is_ready(campaign, phase)


def every_seat_taken(campaign: Campaign) -> bool:
    """No power's seat waits for a player (a power the GM plays has none)."""
    return not campaign.seats.filter(role=Seat.Role.PLAYER, user__isnull=True).exists()


def starts_now(campaign: Campaign) -> bool:
    """The campaign has not started, starts when every seat is taken, and every one is."""
    return (
        campaign.started_at is None
        and campaign.start_when == Campaign.StartWhen.SEATS
        and every_seat_taken(campaign)
    )


def begin(campaign: Campaign, *, actor) -> None:
    """Start the campaign, inside the caller's transaction (the campaign locked; actor
    None: the last seat taken started it). Logged; the open phase's deadline runs from
    now by the schedule (a deadline the GM set meanwhile stays; while every deadline is
    paused, it gets the time the schedule gives once they resume); then a phase that waits
    for nobody resolves (``settle``)."""
    now = timezone.now()
    campaign.started_at = now
    campaign.save(update_fields=["started_at"])
    phase = campaign.phase
    clock = {}
    if (
        phase is not None
        and phase.status == Phase.Status.OPEN
        and phase.deadline is None
        and phase.paused_remaining is None
    ):
        clock = readiness.opening_clock(campaign, phase.key, now)
        for field, value in clock.items():
            setattr(phase, field, value)
        phase.save(update_fields=list(clock))
    log(
        campaign,
        Event.Kind.PHASE if actor is None else Event.Kind.GM,
        _started(campaign, actor, phase if clock.get("deadline") else None),
        actor=actor,
    )
    campaign.bump_version()
    settle(campaign)


def _started(campaign: Campaign, actor, timed: Phase | None) -> Text:
    """The log line of the start; ``timed``: the open phase, whose deadline it set."""
    if timed is None:
        if actor is None:
            return Text("Every seat is taken: the campaign starts.")
        return Text("GM %(gm)s starts the campaign.", gm=actor.get_username())
    until = {
        "phase": Term(campaign.rules.phase(timed.key).name),
        "when": moment_text(timed.deadline),
    }
    if actor is None:
        return Text(
            "Every seat is taken: the campaign starts, and %(phase)s is open until %(when)s.",
            **until,
        )
    return Text(
        "GM %(gm)s starts the campaign: %(phase)s is open until %(when)s.",
        gm=actor.get_username(),
        **until,
    )


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
    if not (decisions and runs_by_itself(campaign)):
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
    campaign.bump_version()  # first: the next phase's snapshot is of the new state version
    return open_phase(campaign, *next_position(campaign, phase), world)
