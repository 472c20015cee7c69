"""Replay: re-resolve every resolved phase of a campaign and check that it comes out as it did.

``replay(campaign_id)`` works on the campaign itself inside a transaction that is always
rolled back, with the campaign row locked meanwhile (nothing else changes it, and nobody
sees the replay). Starting from the first phase that has a snapshot, for each phase in
order:

1. its opening state with the inputs recorded while it was open (a player's standing
   order: campaign/state/history.py) must be the state it resolved from; where it is not, the
   state was edited meanwhile (the GM's edits are logged, and not something a replay can
   redo), and the report names the phase, with the GM's log lines meanwhile and the
   first difference;
2. the state the phase resolved from is restored (its ``before``, with every piece's
   database id, so its saved orders and recorded decisions name the right pieces);
3. the phase's resolver runs with its saved orders, the rule options it resolved with
   and its dice: seeded dice from its revealed seed and dice context (the seed is first
   checked against the hash published while it was open), or, for GM-entered dice, the
   faces its rolls recorded; then every decision answered while it waited, in order,
   each followed by the inputs recorded after it; then, when the next phase starts a
   turn, the ruleset's turn-start hook;
4. its rolls (rule, purpose, faces, total, outcome) must be those the log recorded, and
   the state must be the one the next phase opened with (compared without database ids:
   the replay creates new pieces under new ids).

Last, the live state must be the open phase's opening state with its recorded inputs
(or, when the open phase waits for a decision, the state its replay so far produces);
where it is not, the GM edited it since (the report names the phase) or, with no GM log
line since, it is a difference. The report gives the first difference found, or says
that everything matches.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from django.db import transaction

from campaign.core.changes import locked_campaign
from campaign.models import (
    Campaign,
    DecisionRecord,
    Event,
    InputRecord,
    Order,
    Phase,
    PhaseSnapshot,
    RollRecord,
)
from campaign.play.lifecycle import WAITING
from campaign.play.services import PhaseContext
from campaign.records.archive import restore_state
from campaign.state.history import opening_state, resolved_from, with_inputs
from campaign.state.snapshots import comparable, first_difference, read_state
from rules.dice import DiceExhausted, ScriptedDice, SeededDice, seed_hash
from rules.translation import localized


@dataclass
class ReplayReport:
    """What a replay found: the phases replayed, those whose state was edited (label and
    what is known of the edit), and the first difference (None: everything matches)."""

    campaign: Campaign
    replayed: list[str] = field(default_factory=list)
    edits: list[tuple[str, str]] = field(default_factory=list)
    difference: str | None = None
    skipped: int = 0  # phases before the first snapshot

    @property
    def match(self) -> bool:
        return self.difference is None

    @property
    def edited(self) -> list[str]:
        return [label for label, _ in self.edits]

    def lines(self) -> list[str]:
        c = self.campaign
        out = [f"Campaign #{c.pk} “{c.name}” ({c.rules.name}): {len(self.replayed)} phase(s)"]
        if self.replayed:
            out[0] += f" replayed, {self.replayed[0]} to {self.replayed[-1]}."
        else:
            out[0] += " replayed."
        if self.skipped:
            out.append(
                f"{self.skipped} earlier phase(s) resolved before snapshots were kept (or "
                "before the campaign was imported): not replayed."
            )
        out.extend(f"{label}: {edit}" for label, edit in self.edits)
        if self.match:
            out.append(
                "MATCH: every phase resolves as it did, with the same rolls, and the live "
                "state is the replayed one."
            )
        else:
            out.append(f"MISMATCH: {self.difference}")
        return out


class _Mismatch(Exception):
    pass


def replay(campaign_id: int) -> ReplayReport:
    """Replay the campaign (see the module docstring); nothing is changed."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        report = ReplayReport(campaign)
        try:
            _replay(campaign, report)
        except _Mismatch as mismatch:
            report.difference = str(mismatch)
        transaction.set_rollback(True)
    return report


@dataclass
class _History:
    """What the campaign recorded of its phases, by phase id."""

    orders: dict[int, dict] = field(default_factory=dict)
    decisions: dict[int, list[DecisionRecord]] = field(default_factory=dict)
    inputs: dict[int, list[InputRecord]] = field(default_factory=dict)
    rolls: dict[int, list[tuple]] = field(default_factory=dict)

    @classmethod
    def of(cls, campaign: Campaign) -> _History:
        history = cls()
        for order in Order.objects.filter(campaign=campaign).select_related("power"):
            history.orders.setdefault(order.phase_id, {})[order.power.key] = order.payload
        for record in DecisionRecord.objects.filter(campaign=campaign).order_by("pk"):
            history.decisions.setdefault(record.phase_id, []).append(record)
        for given in InputRecord.objects.filter(campaign=campaign).order_by("pk"):
            history.inputs.setdefault(given.phase_id, []).append(given)
        for roll in RollRecord.objects.filter(campaign=campaign).order_by("phase", "index", "pk"):
            history.rolls.setdefault(roll.phase_id, []).append(_roll(roll))
        return history

    def given_while_open(self, phase: Phase) -> list[InputRecord]:
        return [r for r in self.inputs.get(phase.pk, []) if r.answers is None]


def _replay(campaign: Campaign, report: ReplayReport) -> None:
    rules, ruleset = campaign.rules, campaign.ruleset
    phases = list(Phase.objects.filter(campaign=campaign).order_by("turn", "position"))
    snapshots = {s.phase_id: s for s in PhaseSnapshot.objects.filter(campaign=campaign)}
    start = next((i for i, p in enumerate(phases) if p.pk in snapshots), None)
    if start is None:
        raise _Mismatch(
            "there is no snapshot to start from (the campaign has not started, or all its "
            "phases opened before snapshots were kept)."
        )
    report.skipped = sum(1 for p in phases[:start] if p.status == Phase.Status.RESOLVED)
    now = read_state(campaign)  # each replayed phase is rolled back to it
    live = comparable(now, ruleset)
    history = _History.of(campaign)
    # the rolls the replay makes are those with a higher id than any made before it
    first_new_roll = RollRecord.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

    for i, phase in enumerate(phases[start:], start):
        turn = localized(rules.turn_label(phase.turn, campaign.setup))
        label = f"{rules.phase(phase.key).name} ({turn})"
        snapshot = snapshots.get(phase.pk)
        if snapshot is None:
            raise _Mismatch(f"{label} has no snapshot: the history cannot be replayed past it.")
        opened = _with_inputs(opening_state(snapshot, ruleset), history.given_while_open(phase))
        expected = comparable(opened, ruleset)
        if phase.status == Phase.Status.OPEN:
            _compare_start(report, phase, snapshot, label, expected, live, is_live=True)
            return
        start_state = resolved_from(snapshot, ruleset)
        _compare_start(report, phase, snapshot, label, expected, comparable(start_state, ruleset))
        following = phases[i + 1] if i + 1 < len(phases) else None
        with transaction.atomic():
            result = _resolve_again(campaign, phase, snapshot, start_state, now, history)
            rolls = [
                _roll(r)
                for r in RollRecord.objects.filter(phase=phase, pk__gt=first_new_roll).order_by(
                    "pk"
                )
            ]
            stored = history.rolls.get(phase.pk, [])
            if rolls != stored:
                raise _Mismatch(f"{label}: {_roll_difference(stored, rolls)}")
            if phase.status == Phase.Status.WAITING:
                if result != WAITING:
                    raise _Mismatch(f"{label} no longer waits for a decision once replayed.")
                expected, against = live, "the live state"
            else:
                if result == WAITING:
                    raise _Mismatch(
                        f"{label} still waits for a decision after its recorded answers."
                    )
                if following is None or following.pk not in snapshots:
                    raise _Mismatch(f"the phase after {label} has no snapshot to compare with.")
                _turn_starts(campaign, snapshot, following)
                expected = comparable(opening_state(snapshots[following.pk], ruleset), ruleset)
                against = "the state the next phase opened with"
            replayed = comparable(read_state(campaign), ruleset)
            transaction.set_rollback(True)
        report.replayed.append(label)
        difference = first_difference(expected, replayed)
        if difference:
            raise _Mismatch(f"{label} replayed does not give {against}: {difference}")
        if phase.status == Phase.Status.WAITING:
            return


def _with_inputs(state: dict, records: list[InputRecord]) -> dict:
    """The state once the recorded inputs are made; one that cannot be is a mismatch."""
    try:
        return with_inputs(state, records)
    except ValueError as error:
        raise _Mismatch(f"{error}: the input cannot be made again.") from None


def _compare_start(report, phase, snapshot, label, expected, actual, *, is_live=False) -> None:
    """Name the phase when the state it resolved from (or the live state, for the open
    phase) is not ``expected``, its opening state with its recorded inputs: an edit of
    the state meanwhile. A live state that differs with no GM log line since the phase
    opened is a mismatch."""
    difference = first_difference(expected, actual)
    if difference is None:
        return
    lines = Event.objects.filter(phase=phase, pk__gt=snapshot.event_id, kind=Event.Kind.GM)
    if not is_live and snapshot.resolution_event_id is not None:
        lines = lines.filter(pk__lte=snapshot.resolution_event_id)
    count = lines.count()
    if is_live:
        if not count:
            raise _Mismatch(
                f"the live state is not the state {label} opened with and its recorded "
                f"inputs made, and the GM logged nothing since: {difference}"
            )
        edit = f"edited by the GM since it opened ({count} GM log line(s)): {difference}."
    elif count:
        edit = (
            f"edited by the GM before it resolved ({count} GM log line(s)): {difference}; "
            "replayed from the state it resolved from."
        )
    else:
        edit = (
            f"changed before it resolved, with no GM log line meanwhile: {difference}; "
            "replayed from the state it resolved from."
        )
    report.edits.append((label, edit))


def _resolve_again(campaign, phase, snapshot, start_state, now, history: _History):
    """Restore the state the phase resolved from (``now``: the state in the database) and
    resolve it again, in the caller's transaction: the resolver's result once every
    recorded decision is answered, each followed by the inputs given after it."""
    rules = campaign.rules
    label = rules.phase(phase.key).name
    restore_state(campaign, start_state, current=now)  # only what differs is rewritten
    then = _as_of(campaign, snapshot, phase)
    dice = _dice(campaign, phase, snapshot, label)
    spec = rules.phase(phase.key)
    orders = history.orders.get(phase.pk, {})
    try:
        result = rules.hooks.phase(spec.key).resolve(PhaseContext(then, phase, orders, dice, None))
    except DiceExhausted as error:
        raise _Mismatch(f"{label} rolls more dice than the GM entered: {error}.") from None
    if isinstance(dice, ScriptedDice) and dice.unused and phase.status == Phase.Status.RESOLVED:
        raise _Mismatch(f"{label} rolls fewer dice than the GM entered.")
    answered = history.decisions.get(phase.pk, [])
    waited = [r for r in history.inputs.get(phase.pk, []) if r.answers is not None]
    if any(r.answers > len(answered) for r in waited):
        raise _Mismatch(f"{label} has inputs recorded after answers that are not recorded.")
    _give(campaign, [r for r in waited if r.answers == 0])
    for n, record in enumerate(answered, 1):
        if result != WAITING:
            raise _Mismatch(f"{label} no longer waits for the decision answered at #{record.pk}.")
        result = rules.hooks.decisions.decide(
            campaign=then,
            phase=phase,
            power_key=record.power or None,
            answer=record.answer,
            actor=None,
            as_gm=record.as_gm,
        )
        _give(campaign, [r for r in waited if r.answers == n])
    return result


def _as_of(campaign: Campaign, snapshot: PhaseSnapshot, phase: Phase) -> Campaign:
    """A copy of the campaign at ``phase``, with the rule options the snapshot's phase
    resolved with."""
    then = copy.copy(campaign)
    then.turn, then.phase = phase.turn, phase
    if snapshot.options is not None:
        then.options = snapshot.options
    return then


def _dice(campaign: Campaign, phase: Phase, snapshot: PhaseSnapshot, label: str):
    """The phase's dice: its revealed seed, or the faces the GM entered."""
    if (snapshot.dice_mode or campaign.dice_mode) == Campaign.DiceMode.SCRIPTED:
        rolls = RollRecord.objects.filter(phase=phase).order_by("index", "pk")
        return ScriptedDice([face for roll in rolls for face in roll.faces])
    if seed_hash(phase.seed) != phase.seed_hash:
        raise _Mismatch(f"{label}: its seed is not the one whose hash was published.")
    return SeededDice(phase.seed, phase.dice_context)


def _give(campaign: Campaign, records: list[InputRecord]) -> None:
    """Make again, in the database, the inputs given while the phase waited."""
    if records:
        state = read_state(campaign)
        restore_state(campaign, _with_inputs(state, records), current=state)


def _turn_starts(campaign: Campaign, snapshot: PhaseSnapshot, following: Phase) -> None:
    """The ruleset's turn-start hook, when the phase the resolution opened starts a turn
    (run, as it was, with the options the snapshot's phase resolved with)."""
    turn_started = campaign.rules.hooks.turn_started
    if following.position == 0 and turn_started:
        turn_started(_as_of(campaign, snapshot, following), following.turn, None)


def _roll(roll: RollRecord) -> tuple:
    return (roll.rule, roll.purpose, list(roll.faces), roll.total, roll.outcome)


def _roll_difference(stored: list[tuple], replayed: list[tuple]) -> str:
    for n, (a, b) in enumerate(zip(stored, replayed, strict=False)):
        if a != b:
            return (
                f"roll {n + 1} differs: the log has {a[1]!r} {a[2]} = {a[3]} ({a[4]}), the "
                f"replay {b[1]!r} {b[2]} = {b[3]} ({b[4]})"
            )
    return f"the log has {len(stored)} roll(s), the replay makes {len(replayed)}"
