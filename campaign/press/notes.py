"""Each user's private notes on a campaign: one on the campaign and one on any of its
phases, read and written by that user alone (models/notes.py).

Whoever holds a seat keeps notes: the GM, a player, an observer, a replaced player in the
observer seat he keeps. Nobody else reads them: no page shows them but the owner's notes
page (never cached), and no download holds them but the owner's own (campaign/records/archive.py
``notes``). So saving one logs nothing and leaves the campaign's version as it was: the
pages, fragments and ETags keyed by it show nothing of a note.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from campaign.core.changes import locked_campaign
from campaign.errors import ServiceError
from campaign.models import Note, Phase, Seat
from rules.translation import localized

MAX_LENGTH = Note._meta.get_field("text").max_length  # characters, a line break counting one


@dataclass(frozen=True)
class Entry:
    """A note as its owner's notes page shows it: on the campaign (``phase_id`` None) or
    on one phase, with that phase's name and turn; ``text`` empty while there is none."""

    phase_id: int | None
    name: str = ""
    turn: str = ""
    text: str = ""
    updated_at: datetime | None = None

    @property
    def label(self) -> str:
        if self.phase_id is None:
            return _("The campaign")
        return _("%(phase)s (%(turn)s)") % {"phase": self.name, "turn": self.turn}


@dataclass(frozen=True)
class Notebook:
    """A user's notes on a campaign: the campaign's, the open phase's (None before the
    campaign starts), those on the other phases in phase order, and the other phases
    without one (where a new note may go)."""

    campaign: Entry
    current: Entry | None
    past: list[Entry]
    unnoted: list[Entry]

    @property
    def shown(self) -> list[Entry]:
        """The notes the page shows a form of: the campaign's, the open phase's, the
        other phases' that have one."""
        return [self.campaign, *([self.current] if self.current else []), *self.past]

    def entry(self, phase_id: object) -> Entry | None:
        """The note on that phase of the campaign (None: on the campaign), or None."""
        return next((e for e in (*self.shown, *self.unnoted) if e.phase_id == phase_id), None)


def notebook(seat: Seat) -> Notebook:
    """The notes of the seat's user on its campaign (two queries)."""
    campaign = seat.campaign
    rules = campaign.rules
    mine = {
        note.phase_id: note
        for note in Note.objects.filter(campaign_id=campaign.pk, user_id=seat.user_id)
    }
    current, past, unnoted = None, [], []
    for phase in Phase.objects.filter(campaign_id=campaign.pk).order_by("turn", "position"):
        name = str(rules.phase(phase.key).name)
        turn = localized(rules.turn_label(phase.turn, campaign.setup))
        entry = _with_note(Entry(phase.pk, name, turn), mine.get(phase.pk))
        if phase.pk == campaign.phase_id:
            current = entry
        elif entry.text:
            past.append(entry)
        else:
            unnoted.append(entry)
    return Notebook(_with_note(Entry(None), mine.get(None)), current, past, unnoted)


def _with_note(entry: Entry, note: Note | None) -> Entry:
    return replace(entry, text=note.text, updated_at=note.updated_at) if note else entry


def normalized(text: str) -> str:
    """The text with its line breaks as one character each, as a browser counts them."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def check_length(text: str) -> None:
    """ServiceError when a note of this (normalized) text is longer than MAX_LENGTH."""
    if len(text) > MAX_LENGTH:
        raise ServiceError(
            _(
                "A note holds at most %(most)s characters; this one has %(length)s: shorten "
                "it or split it over the campaign's note and the phases' notes."
            )
            % {"most": f"{MAX_LENGTH:,}", "length": f"{len(text):,}"}
        )


def save_note(*, campaign_id: int, user, phase_id: int | None, text: str) -> Note | None:
    """Keep ``text`` as the user's note on the campaign (``phase_id`` None) or on one of
    its phases; an empty text deletes the note (None is returned). Refused for a user
    without a seat in the campaign, a phase of another campaign, or a text longer than
    MAX_LENGTH. Under the campaign's lock: of two saves at once, the last one wins."""
    text = normalized(text)
    check_length(text)
    with transaction.atomic():
        locked_campaign(campaign_id)
        if not Seat.objects.filter(campaign_id=campaign_id, user=user).exists():
            raise ServiceError(_("Only those with a seat in this campaign keep notes on it."))
        if phase_id is not None and not _is_phase_of(campaign_id, phase_id):
            raise ServiceError(_("This campaign has no such phase: reload the page."))
        if not text.strip():
            Note.objects.filter(campaign_id=campaign_id, user=user, phase_id=phase_id).delete()
            return None
        return Note.objects.update_or_create(
            campaign_id=campaign_id, user=user, phase_id=phase_id, defaults={"text": text}
        )[0]


def _is_phase_of(campaign_id: int, phase_id: int) -> bool:
    return Phase.objects.filter(campaign_id=campaign_id, pk=phase_id).exists()


def exported(campaign_id: int, user_id: int) -> list[dict]:
    """The user's notes on the campaign for their own download: the campaign's first
    (``phase`` null), then each phase's (``phase``: [turn, position]) in phase order."""
    notes = (
        Note.objects.filter(campaign_id=campaign_id, user_id=user_id)
        .select_related("phase")
        .order_by(F("phase__turn").asc(nulls_first=True), "phase__position")
    )
    return [
        {"phase": [n.phase.turn, n.phase.position] if n.phase else None, "text": n.text}
        for n in notes
    ]


def phase_withdrawn(withdrawn: Phase, reopened: Phase) -> None:
    """A rollback withdraws ``withdrawn`` and opens ``reopened`` again, inside its
    transaction: each note on the withdrawn phase moves to the reopened one, after the
    note its owner already has there, so that no note is lost."""
    for note in Note.objects.filter(phase=withdrawn):
        kept = Note.objects.filter(user_id=note.user_id, phase=reopened).first()
        if kept is None:
            Note.objects.filter(pk=note.pk).update(phase=reopened)
            continue
        kept.text = f"{kept.text}\n\n{note.text}"
        kept.save(update_fields=["text", "updated_at"])
        note.delete()
