"""Rolling back the last resolved phase: the state it resolved from comes back (every
piece with its old database id, so the saved orders still name the right pieces), its
rolls, the log lines of its resolution and the inputs given while it waited for a
decision go, the phase its resolution opened is withdrawn (with its opening lines and
its inputs; what was logged during it — seats, options, deadlines, GM edits — stays,
under the reopened phase), and the phase is open again with its orders as they were
given and a fresh dice seed whose hash is published (the old seed was revealed: it may
not be used again). Nothing is sent. Refused, with nothing changed, when no phase has
been resolved, when the phase it would withdraw has orders or waits for a decision, and
when there is no snapshot to restore (campaign/state/history.py keeps the snapshots).

``preview`` says beforehand, for the GM's dashboard, what a rollback would undo: the
GM's edits of the state since the withdrawn phase opened (their log lines stay, the
edits do not), the powers whose standing orders given meanwhile go with it, or why it
cannot be rolled back now (``obstacle``, the refusal roll_back gives).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from campaign.core.changes import locked_campaign, log, refuse_if_ended
from campaign.core.readiness import default_deadline
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
)
from campaign.play import disorder
from campaign.play.lifecycle import next_position
from campaign.press import notes
from campaign.records.archive import restore_state
from campaign.state.history import opening_state, resolved_from
from campaign.state.snapshots import read_state
from rules.dice import new_seed, seed_hash
from rules.gm_orders import EDIT_LINE_MSGIDS
from rules.text import Text
from rules.translation import Term, render

# The kinds of log line a resolution writes (its GM- and seat-kind lines are the GM's
# and the seats', written while a phase waited for a decision: a rollback keeps them).
RESOLUTION_KINDS = (Event.Kind.ROLL, Event.Kind.RULE, Event.Kind.PHASE, Event.Kind.ORDER)


def roll_back(*, campaign_id: int, actor) -> Phase:
    """Undo the last resolved phase (see the module docstring); returns it, open again."""

    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        refuse_if_ended(campaign)
        if campaign.phase_id is None:
            raise ServiceError(gettext("Nothing to roll back: the campaign has not started."))
        newer = Phase.objects.select_for_update().get(pk=campaign.phase_id)
        last = (
            Phase.objects.select_for_update()
            .filter(campaign=campaign, status=Phase.Status.RESOLVED)
            .order_by("-turn", "-position")
            .first()
        )
        if last is None:
            raise ServiceError(gettext("Nothing to roll back: no phase has been resolved yet."))
        refusal = obstacle(campaign, last, newer)
        if refusal is not None:
            said = gettext("%(reason)s Nothing was rolled back.") % {"reason": refusal}
            raise type(refusal)(said)
        snapshot = PhaseSnapshot.objects.get(phase=last)
        opened = PhaseSnapshot.objects.filter(phase=newer).first()
        ruleset = campaign.ruleset
        edited = opened is not None and read_state(campaign) != opening_state(opened, ruleset)
        inputs = inputs_since(newer)  # standing orders, withdrawn with ``newer``
        # a difference the standing orders alone explain is no edit of the GM's
        edited = edited and bool(state_edits_since_opening(newer) or not inputs)

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
        )
        PhaseSnapshot.objects.filter(pk=snapshot.pk).update(
            resolution_event_id=None, before=None, options=None, dice_mode=""
        )
        campaign.turn, campaign.phase_id = last.turn, last.pk
        campaign.save(update_fields=["turn", "phase"])
        notes.phase_withdrawn(newer, last)
        disorder.resolution_withdrawn(last)
        newer.delete()  # with its snapshot (it has no orders, rolls or decisions)
        last.refresh_from_db()
        text = _rollback_line(campaign, last, newer, actor, edited=edited, inputs=inputs)
        log(campaign, Event.Kind.GM, text, actor=actor, phase=last)
        campaign.bump_version()
        return last


@dataclass(frozen=True)
class Preview:
    """What rolling back the last resolved phase would do, for the GM to read first."""

    phase: str  # the last resolved phase, which opens again
    newer: str  # the phase its resolution opened, which is withdrawn
    edits: list[Event]  # the GM's edits of the state since ``newer`` opened, oldest first
    refusal: str = ""  # why it cannot be rolled back now ("": it can)
    inputs: list[str] = field(default_factory=list)  # powers whose standing orders go

    def edit_texts(self) -> list[str]:
        """The edits' log lines in the active language (the GM reads every line in full)."""
        return [render(line.message, line.text) for line in self.edits]


def preview(campaign: Campaign) -> Preview | None:
    """What a rollback would undo now (None: no phase has been resolved, nothing to offer).
    Read without locks: roll_back checks again when the GM confirms."""
    if campaign.phase_id is None or campaign.ended_at is not None:
        return None
    last = (
        Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED)
        .order_by("-turn", "-position")
        .first()
    )
    if last is None:
        return None
    rules = campaign.rules
    newer = Phase.objects.get(pk=campaign.phase_id)
    names = {"phase": rules.phase(last.key).name, "newer": rules.phase(newer.key).name}
    refusal = obstacle(campaign, last, newer)
    if refusal is not None:
        return Preview(**names, edits=[], refusal=str(refusal))
    return Preview(**names, edits=state_edits_since_opening(newer), inputs=inputs_since(newer))


def inputs_since(phase: Phase) -> list[str]:
    """The powers (names, in order) whose inputs given while ``phase`` was open (a
    standing order) a rollback of the phase before it undoes: it withdraws ``phase``
    with them and restores the state the phase before resolved from."""
    keys = InputRecord.objects.filter(phase=phase, answers__isnull=True).values_list(
        "power", flat=True
    )
    given = set(keys)
    if not given:
        return []
    powers = phase.campaign.powers.filter(key__in=given).order_by("sort")
    return list(powers.values_list("name", flat=True))


def state_edits_since_opening(phase: Phase) -> list[Event]:
    """The GM's edits of the state logged since ``phase`` opened (its snapshot's newest
    line), oldest first: a rollback of the phase before it undoes them (their log lines
    stay). Settings, seats and deadlines are GM lines too, but no edit of the state."""
    opened = PhaseSnapshot.objects.filter(phase=phase).values_list("event_id", flat=True).first()
    lines = Event.objects.filter(phase=phase, kind=Event.Kind.GM).order_by("pk")
    if opened is not None:
        lines = lines.filter(pk__gt=opened)
    return [line for line in lines if (line.message or {}).get("id") in EDIT_LINE_MSGIDS]


def obstacle(campaign: Campaign, last: Phase, newer: Phase) -> ServiceError | None:
    """Why ``last`` (the newest resolved phase) cannot be rolled back while ``newer`` is
    open, as the error roll_back raises (its message says why, in a sentence the
    dashboard shows too); None when it can be."""
    rules = campaign.rules
    name, newer_name = rules.phase(last.key).name, rules.phase(newer.key).name
    if newer.status == Phase.Status.WAITING:
        return Conflict(
            gettext(
                "%(phase)s is under way and waits for a decision: answer it (or cancel it) first."
            )
            % {"phase": newer_name}
        )
    given = list(
        Order.objects.filter(phase=newer)
        .order_by("power__sort")
        .values_list("power__name", flat=True)
    )
    if given:
        return Conflict(
            gettext(
                "Orders have already been given for %(phase)s (%(powers)s): rolling back "
                "%(last)s would discard them."
            )
            % {"phase": newer_name, "powers": ", ".join(given), "last": name}
        )
    if next_position(campaign, last) != (newer.turn, newer.position):
        return ServiceError(  # pragma: no cover - phases open one after another
            f"{newer_name} is not the phase {name} opened."
        )
    snapshot = PhaseSnapshot.objects.filter(phase=last).first()
    if snapshot is None or snapshot.resolution_event_id is None:
        return ServiceError(
            gettext(
                "%(phase)s cannot be rolled back: there is no snapshot of the state it "
                "resolved from (it resolved before Courier kept them, or before the "
                "campaign was imported)."
            )
            % {"phase": name}
        )
    return None


def _rollback_line(
    campaign: Campaign, last: Phase, newer: Phase, actor, *, edited: bool, inputs: list[str]
) -> Text:
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
    if inputs:
        said = Text(
            "%(rollback)s; the standing orders given since %(newer)s opened (%(powers)s) are "
            "undone too",
            rollback=said,
            newer=Term(rules.phase(newer.key).name),
            powers=", ".join(inputs),
        )
    if campaign.dice_mode == Campaign.DiceMode.SEEDED:
        return Text(
            "%(rollback)s. Its dice get a fresh seed (SHA-256 %(hash)s).",
            rollback=said,
            hash=last.seed_hash,
        )
    return Text("%(rollback)s.", rollback=said)
