"""A campaign's history: snapshots as phases open, the state a phase resolves from, the
decisions answered, a past phase's state for the history pages, and the GM's rollback.

Snapshots. When a phase opens (services._open_phase, after its opening line and the
ruleset's turn-start hook), a PhaseSnapshot keeps the game state with the campaign's
newest log line and roll. When the phase starts to resolve (services.resolve_open_phase)
the snapshot records the newest log line then (``resolution_event_id``: what the phase's
log gains after it is the resolution's), the state it resolves from (``before``: it
differs from the opening state when the GM edited the state, or a player a standing
order, meanwhile), and the rule options and dice mode it resolves with. Each is one
query, whatever the size of the map: the database builds the state
(campaign/snapshots.py). A phase that opened before snapshots were kept has none, and
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

Rollback. ``roll_back`` undoes the last resolved phase: the state it resolved from comes
back (every piece with its old database id, so the saved orders still name the right
pieces), its rolls, the log lines of its resolution and the inputs given while it waited
for a decision go, the phase its resolution opened is withdrawn (with its opening lines
and its inputs; what was logged during it — seats, options, deadlines, GM edits — stays,
under the reopened phase), and the phase is open again with its orders as they were
given and a fresh dice seed whose hash is published (the old seed was revealed: it may
not be used again). Nothing is sent. Refused, with nothing changed, when no phase has
been resolved, when the phase it would withdraw has orders or waits for a decision, and
when there is no snapshot to restore.

Neither snapshots nor decision and input records are in an export (archive.NOT_ARCHIVED):
they hold this database's ids. An imported campaign keeps its history from the import
on: the import snapshots its open phase.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count
from django.utils import timezone, translation
from django.utils.translation import gettext

from campaign.archive import restore_state
from campaign.changes import locked_campaign, log, refuse_if_ended
from campaign.errors import Conflict, ServiceError
from campaign.models import (
    Campaign,
    DecisionRecord,
    Event,
    InputRecord,
    Order,
    Phase,
    PhaseSnapshot,
    RollRecord,
    Seat,
)
from campaign.readiness import default_deadline
from campaign.snapshots import decode, newest, read_state, state_expression
from rules.dice import new_seed, seed_hash
from rules.text import Text
from rules.translation import Term

# The kinds of log line a resolution writes (its GM- and seat-kind lines are the GM's
# and the seats', written while a phase waited for a decision: a rollback keeps them).
RESOLUTION_KINDS = (Event.Kind.ROLL, Event.Kind.RULE, Event.Kind.PHASE, Event.Kind.ORDER)


# -- taking snapshots -----------------------------------------------------------------


def phase_opened(campaign: Campaign, phase: Phase) -> None:
    """Snapshot the state as ``phase`` opens: one INSERT, the database building the state."""
    PhaseSnapshot.objects.create(
        campaign=campaign,
        phase=phase,
        state=state_expression(campaign),
        event_id=newest(Event, campaign),
        roll_id=newest(RollRecord, campaign),
    )


def resolution_starts(campaign: Campaign, phase: Phase) -> None:
    """Note, as ``phase`` starts to resolve, where its resolution's log lines begin, the
    state it resolves from, its options and dice mode: one UPDATE (nothing for a phase
    without a snapshot)."""
    PhaseSnapshot.objects.filter(phase=phase).update(
        resolution_event_id=newest(Event, campaign),
        before=state_expression(campaign),
        options=campaign.options,
        dice_mode=campaign.dice_mode,
    )


def opening_state(snapshot: PhaseSnapshot, ruleset: str) -> dict:
    """The state when the snapshot's phase opened (``state_of(ids=True)``'s form)."""
    return decode(snapshot.state, ruleset)


def resolved_from(snapshot: PhaseSnapshot, ruleset: str) -> dict:
    """The state the snapshot's phase resolved from (its opening state if it has not)."""
    return decode(snapshot.before if snapshot.before is not None else snapshot.state, ruleset)


def _rollback_line(campaign: Campaign, last: Phase, newer: Phase, actor, *, edited: bool) -> Text:
    """What the log says of a rollback."""
    rules = campaign.rules
    with translation.override(None):  # the log keeps the rules' own words
        turn = rules.turn_label(last.turn, campaign.setup)
    user = actor.get_username() if getattr(actor, "is_authenticated", False) else ""
    said = Text(
        "%(who)s rolls back %(phase)s (%(turn)s): the state, rolls and log are as they were "
        "before it resolved, %(newer)s is withdrawn, and the phase is open again with the "
        "orders as they were given",
        who=Text("GM %(user)s", user=user) if user else "GM",
        phase=Term(rules.phase(last.key).name),
        turn=turn,
        newer=Term(rules.phase(newer.key).name),
    )
    if edited:
        said = Text(
            "%(rollback)s; the edits of the state made since %(newer)s opened are undone too",
            rollback=said,
            newer=Term(rules.phase(newer.key).name),
        )
    if campaign.dice_mode == Campaign.DiceMode.SEEDED:
        return Text(
            "%(rollback)s. Its dice get a fresh seed (SHA-256 %(hash)s).",
            rollback=said,
            hash=last.seed_hash,
        )
    return Text("%(rollback)s.", rollback=said)


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
    table's key (campaign/archive.py) and its fields and values as ``state_of(ids=True)``
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
    snapshots = {
        s.phase_id: s
        for s in PhaseSnapshot.objects.filter(
            phase_id__in=[p.pk for p in (phase, following) if p is not None]
        )
    }
    if following is not None and following.pk in snapshots:
        after = snapshots[following.pk]
        return PastState(
            opening_state(after, phase.campaign.ruleset), after.event_id, True, following.turn
        )
    own = snapshots.get(phase.pk)
    if own is not None:
        mark = own.resolution_event_id if own.resolution_event_id is not None else own.event_id
        return PastState(resolved_from(own, phase.campaign.ruleset), mark, False, phase.turn)
    return PastState(None, None, False, phase.turn)


# -- rollback ---------------------------------------------------------------------------


def roll_back(*, campaign_id: int, actor) -> Phase:
    """Undo the last resolved phase (see the module docstring); returns it, open again."""
    from campaign.services import _next_position  # it imports this module

    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        refuse_if_ended(campaign)
        if campaign.phase_id is None:
            raise ServiceError(gettext("Nothing to roll back: the campaign has not started."))
        rules = campaign.rules
        newer = Phase.objects.select_for_update().get(pk=campaign.phase_id)
        last = (
            Phase.objects.select_for_update()
            .filter(campaign=campaign, status=Phase.Status.RESOLVED)
            .order_by("-turn", "-position")
            .first()
        )
        if last is None:
            raise ServiceError(gettext("Nothing to roll back: no phase has been resolved yet."))
        name, newer_name = rules.phase(last.key).name, rules.phase(newer.key).name
        if newer.status == Phase.Status.WAITING:
            raise Conflict(
                gettext(
                    "%(phase)s is under way and waits for a decision: answer it (or cancel it) "
                    "first. Nothing was rolled back."
                )
                % {"phase": newer_name}
            )
        given = list(
            Order.objects.filter(phase=newer)
            .order_by("power__sort")
            .values_list("power__name", flat=True)
        )
        if given:
            raise Conflict(
                gettext(
                    "Orders have already been given for %(phase)s (%(powers)s): rolling back "
                    "%(last)s would discard them. Nothing was rolled back."
                )
                % {"phase": newer_name, "powers": ", ".join(given), "last": name}
            )
        if _next_position(campaign, last) != (newer.turn, newer.position):
            raise ServiceError(  # pragma: no cover - phases open one after another
                f"{newer_name} is not the phase {name} opened: nothing was rolled back."
            )
        snapshot = PhaseSnapshot.objects.filter(phase=last).first()
        if snapshot is None or snapshot.resolution_event_id is None:
            raise ServiceError(
                gettext(
                    "%(phase)s cannot be rolled back: there is no snapshot of the state it "
                    "resolved from (it resolved before Courier kept them, or before the "
                    "campaign was imported). Nothing was rolled back."
                )
                % {"phase": name}
            )
        opened = PhaseSnapshot.objects.filter(phase=newer).first()
        ruleset = campaign.ruleset
        edited = opened is not None and read_state(campaign) != opening_state(opened, ruleset)

        restore_state(campaign, resolved_from(snapshot, ruleset))
        Event.objects.filter(
            phase=last, pk__gt=snapshot.resolution_event_id, kind__in=RESOLUTION_KINDS
        ).delete()
        RollRecord.objects.filter(phase=last).delete()
        DecisionRecord.objects.filter(phase=last).delete()
        InputRecord.objects.filter(phase=last, answers__isnull=False).delete()  # while it waited
        opening = Event.objects.filter(phase=newer)  # its opening lines, turn start included
        if opened is not None:
            opening.filter(pk__lte=opened.event_id).delete()
        else:  # pragma: no cover - a phase opened by a snapshotted resolution has one
            opening.filter(kind=Event.Kind.PHASE).delete()
        Event.objects.filter(phase=newer).update(phase=last)  # logged since it opened
        seed = new_seed()
        Phase.objects.filter(pk=last.pk).update(
            status=Phase.Status.OPEN,
            resolved_at=None,
            resolved_by=None,
            failure="",
            seed=seed,
            seed_hash=seed_hash(seed),
            deadline=default_deadline(campaign, last.key, timezone.now()),
            paused_remaining=None,
            reminders_sent=[],
        )
        PhaseSnapshot.objects.filter(pk=snapshot.pk).update(
            resolution_event_id=None, before=None, options=None, dice_mode=""
        )
        campaign.turn, campaign.phase_id = last.turn, last.pk
        campaign.save(update_fields=["turn", "phase"])
        newer.delete()  # with its snapshot (it has no orders, rolls or decisions)
        last.refresh_from_db()
        text = _rollback_line(campaign, last, newer, actor, edited=edited)
        log(campaign, Event.Kind.GM, text, actor=actor, phase=last)
        campaign.bump_version()
        return last


def at_turn(campaign: Campaign, turn: int) -> Campaign:
    """A copy of the campaign object as of ``turn`` (its label, and what a World reads)."""
    past = copy.copy(campaign)
    past.turn = turn
    return past
