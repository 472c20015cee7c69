"""Replay: re-resolve every resolved phase of a campaign and check that it comes out as it did.

``replay(campaign_id)`` works on the campaign itself inside a transaction that is always
rolled back, with the campaign row locked meanwhile (nothing else changes it, and nobody
sees the replay). Starting from the first phase that has a snapshot, for each phase in
order:

1. the state the phase resolved from is restored (its ``before``, with every piece's
   database id, so its saved orders and recorded decisions name the right pieces);
2. the phase's resolver runs with its saved orders and its dice: seeded dice from its
   revealed seed and dice context (the seed is first checked against the hash published
   while it was open), or, for GM-entered dice, the faces its rolls recorded; then every
   decision answered while it waited, in order; then, when the next phase starts a
   turn, the ruleset's turn-start hook;
3. its rolls (rule, purpose, faces, total, outcome) must be those the log recorded, and
   the state must be the one the next phase opened with (compared without database ids:
   the replay creates new pieces under new ids).

The first phase starts from the first snapshot, and each later one from the state the
one before it was just shown to produce — unless the GM edited the state (or a player a
standing order) before it resolved, which the report names: those edits are the GM's,
logged, and not something a replay can redo. Last, the live state must be the state the
open phase opened with (or, when the open phase waits for a decision, the one its replay
so far produces). The report gives the first difference found, or says that everything
matches.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from django.db import transaction

from campaign.archive import restore_state
from campaign.history import opening_state, resolved_from
from campaign.models import (
    Campaign,
    DecisionRecord,
    Event,
    Order,
    Phase,
    PhaseSnapshot,
    RollRecord,
)
from campaign.services import WAITING, PhaseContext, locked_campaign
from campaign.snapshots import comparable, first_difference, read_state
from rules.dice import DiceExhausted, ScriptedDice, SeededDice, seed_hash
from rules.engine import load


@dataclass
class ReplayReport:
    """What a replay found: the phases replayed, those the GM edited first, and the first
    difference (None: everything matches)."""

    campaign: Campaign
    replayed: list[str] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)
    difference: str | None = None
    skipped: int = 0  # phases before the first snapshot

    @property
    def match(self) -> bool:
        return self.difference is None

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
        for label in self.edited:
            out.append(f"{label}: the state was edited before it resolved (logged GM edits or")
            out[-1] += " a standing order); replayed from the state it resolved from."
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


def _replay(campaign: Campaign, report: ReplayReport) -> None:
    rules = campaign.rules
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
    live = comparable(now, campaign.ruleset)
    orders: dict[int, dict] = {}
    for order in Order.objects.filter(campaign=campaign).select_related("power"):
        orders.setdefault(order.phase_id, {})[order.power.key] = order.payload
    decisions: dict[int, list[DecisionRecord]] = {}
    for record in DecisionRecord.objects.filter(campaign=campaign).order_by("pk"):
        decisions.setdefault(record.phase_id, []).append(record)
    stored_rolls: dict[int, list[tuple]] = {}
    for roll in RollRecord.objects.filter(campaign=campaign).order_by("phase", "index", "pk"):
        stored_rolls.setdefault(roll.phase_id, []).append(_roll(roll))
    # the rolls the replay makes are those with a higher id than any made before it
    first_new_roll = RollRecord.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

    for i, phase in enumerate(phases[start:], start):
        label = f"{rules.phase(phase.key).name} ({rules.turn_label(phase.turn, campaign.setup)})"
        snapshot = snapshots.get(phase.pk)
        if snapshot is None:
            raise _Mismatch(f"{label} has no snapshot: the history cannot be replayed past it.")
        if phase.status == Phase.Status.OPEN:
            opened = comparable(opening_state(snapshot, campaign.ruleset), campaign.ruleset)
            difference = first_difference(opened, live)
            if difference:
                edits = Event.objects.filter(
                    phase=phase, pk__gt=snapshot.event_id, kind=Event.Kind.GM
                ).count()
                said = f" ({edits} GM log line(s) since)" if edits else ""
                raise _Mismatch(
                    f"the live state is not the state {label} opened with{said}: {difference}"
                )
            return
        opening = comparable(opening_state(snapshot, campaign.ruleset), campaign.ruleset)
        start_state = resolved_from(snapshot, campaign.ruleset)
        if comparable(start_state, campaign.ruleset) != opening:
            report.edited.append(label)
        following = phases[i + 1] if i + 1 < len(phases) else None
        with transaction.atomic():
            result = _resolve_again(campaign, phase, snapshot, start_state, now, orders, decisions)
            rolls = [
                _roll(r)
                for r in RollRecord.objects.filter(phase=phase, pk__gt=first_new_roll).order_by(
                    "pk"
                )
            ]
            if rolls != stored_rolls.get(phase.pk, []):
                raise _Mismatch(
                    f"{label}: {_roll_difference(stored_rolls.get(phase.pk, []), rolls)}"
                )
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
                _turn_starts(campaign, following)
                expected = comparable(
                    opening_state(snapshots[following.pk], campaign.ruleset), campaign.ruleset
                )
                against = "the state the next phase opened with"
            replayed = comparable(read_state(campaign), campaign.ruleset)
            transaction.set_rollback(True)
        report.replayed.append(label)
        difference = first_difference(expected, replayed)
        if difference:
            raise _Mismatch(f"{label} replayed does not give {against}: {difference}")
        if phase.status == Phase.Status.WAITING:
            return


def _resolve_again(campaign, phase, snapshot, start_state, now, orders, decisions):
    """Restore the state the phase resolved from (``now``: the state in the database) and
    resolve it again, in the caller's transaction: the resolver's result once every
    recorded decision is answered."""
    rules = campaign.rules
    label = rules.phase(phase.key).name
    restore_state(campaign, start_state, current=now)  # only what differs is rewritten
    then = copy.copy(campaign)
    then.turn, then.phase = phase.turn, phase
    if snapshot.options is not None:
        then.options = snapshot.options
    dice_mode = snapshot.dice_mode or campaign.dice_mode
    if dice_mode == Campaign.DiceMode.SCRIPTED:
        faces = [
            face
            for roll in RollRecord.objects.filter(phase=phase).order_by("index", "pk")
            for face in roll.faces
        ]
        dice = ScriptedDice(faces)
    else:
        if seed_hash(phase.seed) != phase.seed_hash:
            raise _Mismatch(f"{label}: its seed is not the one whose hash was published.")
        dice = SeededDice(phase.seed, phase.dice_context)
    spec = rules.phase(phase.key)
    try:
        result = spec.resolver()(PhaseContext(then, phase, orders.get(phase.pk, {}), dice, None))
    except DiceExhausted as error:
        raise _Mismatch(f"{label} rolls more dice than the GM entered: {error}.") from None
    if isinstance(dice, ScriptedDice) and dice.unused and phase.status == Phase.Status.RESOLVED:
        raise _Mismatch(f"{label} rolls fewer dice than the GM entered.")
    for record in decisions.get(phase.pk, []):
        if result != WAITING:
            raise _Mismatch(f"{label} no longer waits for the decision answered at #{record.pk}.")
        result = load(rules.decision_service)(
            campaign=then,
            phase=phase,
            power_key=record.power or None,
            answer=record.answer,
            actor=None,
            as_gm=record.as_gm,
        )
    return result


def _turn_starts(campaign: Campaign, following: Phase) -> None:
    """The ruleset's turn-start hook, when the phase the resolution opened starts a turn."""
    rules = campaign.rules
    if following.position == 0 and rules.turn_started:
        then = copy.copy(campaign)
        then.turn, then.phase = following.turn, following
        load(rules.turn_started)(then, following.turn, None)


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
