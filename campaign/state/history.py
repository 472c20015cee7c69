"""A campaign's history: snapshots as phases open, the state a phase resolves from, the
decisions answered, and a past phase's state for the history pages and the GM's rollback
(campaign/records/rollback.py).

Snapshots. When a phase opens (lifecycle.open_phase, after its opening line and the
ruleset's turn-start hook), a PhaseSnapshot keeps the game state with the campaign's
newest log line and roll. When the phase starts to resolve (services.resolve_open_phase)
the snapshot records the newest log line then (``resolution_event_id``: what the phase's
log gains after it is the resolution's), the state it resolves from (``before``: it
differs from the opening state when the GM edited the state, or a player a standing
order, meanwhile), and the rule options and dice mode it resolves with. Each is one
query, whatever the size of the map: the database builds the state
(campaign/state/snapshots.py). A phase that opened before snapshots were kept has none, and
its history page, rollback and replay say so.

So the state "after phase N resolved" is the opening snapshot of phase N+1, and the
state "before phase N resolved" is N's ``before``.

Decisions. Each answer the platform's ``decide`` accepts is kept as a DecisionRecord, in
order: a replay feeds them back to the ruleset's decision service.

Inputs. An input that changes the state outside a resolution and outside the orders (a
player's standing order) is kept as an InputRecord with the open phase, saying what it
changed (``record_input``, called by the ruleset's service that takes it): a replay
makes the same changes, in order (``with_inputs``), so that the state a phase resolved
from is its opening state with its inputs, and only the GM's edits are left unexplained.

Neither snapshots nor decision and input records are in an export (archive.NOT_ARCHIVED):
they hold this database's ids. An imported campaign keeps its history from the import
on: the import snapshots its open phase.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Case, Count, JSONField, Q, When

from campaign.models import (
    Campaign,
    DecisionRecord,
    Event,
    InputRecord,
    Phase,
    PhaseSnapshot,
    RollRecord,
    Seat,
)
from campaign.state import snapshots

# -- taking snapshots -----------------------------------------------------------------


def phase_opened(campaign: Campaign, phase: Phase) -> None:
    """Snapshot the state as ``phase`` opens, with the state version it is of: one INSERT,
    the database building the state. The caller's transaction changes the state no more
    without bumping the state version again."""
    PhaseSnapshot.objects.create(
        campaign=campaign,
        phase=phase,
        state=snapshots.state_expression(campaign),
        state_version=campaign.state_version,
        event_id=snapshots.newest(Event, campaign),
        roll_id=snapshots.newest(RollRecord, campaign),
    )


def resolution_starts(campaign: Campaign, phase: Phase) -> None:
    """Note, as ``phase`` starts to resolve, where its resolution's log lines begin, the
    state it resolves from, its options and dice mode: one UPDATE (nothing for a phase
    without a snapshot). The state it resolves from is kept only where it may differ
    from the opening state: where the campaign has moved on from the snapshot's state
    version (every change of the state bumps it under the campaign's lock)."""
    unchanged = Q(state_version=campaign.state_version)
    PhaseSnapshot.objects.filter(phase=phase).update(
        resolution_event_id=snapshots.newest(Event, campaign),
        before=Case(
            When(unchanged, then=None),
            default=snapshots.state_expression(campaign),
            output_field=JSONField(),
        ),
        options=campaign.options,
        dice_mode=campaign.dice_mode,
    )


def opening_state(snapshot: PhaseSnapshot, ruleset: str) -> dict:
    """The state when the snapshot's phase opened (``state_of(ids=True)``'s form)."""
    return snapshots.decode(snapshot.state, ruleset)


def resolved_from(snapshot: PhaseSnapshot, ruleset: str) -> dict:
    """The state the snapshot's phase resolved from (its opening state if it has not)."""
    state = snapshot.before if snapshot.before is not None else snapshot.state
    return snapshots.decode(state, ruleset)


def record_decision(campaign: Campaign, phase: Phase, seat: Seat, answer: dict, actor) -> None:
    """Keep an accepted answer to a decision, for a replay."""
    DecisionRecord.objects.create(
        campaign=campaign,
        phase=phase,
        power=seat.power.key if seat.power_id else "",
        as_gm=seat.is_gm,
        answer=answer,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
    )


def record_input(campaign: Campaign, seat: Seat, kind: str, changes: list[dict], actor) -> None:
    """Keep an input given outside the orders, with the open phase, for a replay (one
    query). ``kind``: the ruleset's name for it; ``changes``: what it changed in the state,
    each ``{"table": key, "row": {field: value}, "values": {field: value}}``, a state
    table's key (campaign/records/archive.py) and its fields and values as ``state_of(ids=True)``
    gives them (a power by its key), ``row`` naming exactly one row. Before the campaign
    starts there is no phase, and nothing to keep: its first snapshot holds the change."""
    if campaign.phase_id is None:
        return
    status, answers = (
        Phase.objects.filter(pk=campaign.phase_id)
        .annotate(answers=Count("decisions"))
        .values_list("status", "answers")
        .get()
    )
    InputRecord.objects.create(
        campaign=campaign,
        phase_id=campaign.phase_id,
        kind=kind,
        power=seat.power.key if seat.power_id else "",
        changes=changes,
        answers=answers if status == Phase.Status.WAITING else None,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
    )


def with_inputs(state: dict, records: Iterable[InputRecord]) -> dict:
    """The state (``state_of(ids=True)``'s form) once the recorded inputs' changes are
    made, in order: a copy. ValueError when a change names no row, or several."""
    records = list(records)
    if not records:
        return state
    state = copy.deepcopy(state)
    for record in records:
        for change in record.changes:
            named = change["row"].items()
            rows = [r for r in state.get(change["table"], []) if named <= r.items()]
            if len(rows) != 1:
                raise ValueError(
                    f"input #{record.pk} ({record.kind}) names {len(rows)} "
                    f"{change['table']} row(s) by {change['row']}"
                )
            rows[0].update(change["values"])
    return state


# -- a past phase -----------------------------------------------------------------------


@dataclass(frozen=True)
class PastState:
    """What a history page shows of a resolved phase: the state (None: no snapshot) and
    the newest log line of that moment (None: the whole log of the phases so far)."""

    state: dict | None
    event_id: int | None
    after: bool  # the state after the phase resolved (else: before it did)
    turn: int  # the turn the state belongs to


def past_state(phase: Phase, following: Phase | None) -> PastState:
    """The state after ``phase`` resolved: the opening snapshot of ``following``, the
    phase its resolution opened; failing that, the state it resolved from (one query)."""
    taken = {
        s.phase_id: s
        for s in PhaseSnapshot.objects.filter(
            phase_id__in=[p.pk for p in (phase, following) if p is not None]
        )
    }
    if following is not None and following.pk in taken:
        after = taken[following.pk]
        return PastState(
            opening_state(after, phase.campaign.ruleset), after.event_id, True, following.turn
        )
    own = taken.get(phase.pk)
    if own is not None:
        mark = own.resolution_event_id if own.resolution_event_id is not None else own.event_id
        return PastState(resolved_from(own, phase.campaign.ruleset), mark, False, phase.turn)
    return PastState(None, None, False, phase.turn)


def at_turn(campaign: Campaign, turn: int) -> Campaign:
    """A copy of the campaign object as of ``turn`` (its label, and what a World reads)."""
    past = copy.copy(campaign)
    past.turn = turn
    return past
