"""A user's private notes on a campaign (campaign/press/notes.py): the notes page, where each
note is a form of its own.

Any seat reads and writes its own notes here, and nobody else's: no seat, 404. A note
saves in place (HTMX: the answer is its form again, saying it was saved, or why not,
with 422); without JavaScript the post comes back to the page with a message. The page
is never cached: it is its reader's alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from campaign.errors import ServiceError
from campaign.models import Seat
from campaign.play.services import seat_for
from campaign.press import notes
from campaign.press.note_forms import NEW, NoteForm, key_of
from campaign.views import refusals
from campaign.views.access import error_text

UNSENT = object()  # no phase sent (or none a number): no note's form is the one sent


@dataclass
class Slot:
    """One note's form on the page: the note as saved (None: the phase sent is none of
    the campaign's), its form, whether it is the open phase's, and what was just done."""

    entry: notes.Entry | None
    form: NoteForm
    current: bool = False
    notice: str = ""

    @property
    def key(self) -> str:
        return key_of(self.entry.phase_id) if self.entry else NEW


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def notes_page(request, campaign_id: int):
    seat = seat_for(request.user, campaign_id)
    if request.method == "POST":
        return save(request, seat)
    return page(request, seat)


def save(request, seat: Seat):
    form = NoteForm.posted(request.POST)
    if not form.is_valid():
        return refuse(request, seat, form)
    phase_id, text = form.cleaned_data["phase"], form.cleaned_data["text"]
    try:
        notes.save_note(
            campaign_id=seat.campaign_id, user=request.user, phase_id=phase_id, text=text
        )
    except ServiceError as error:
        return refuse(request, seat, form, refusals.into_form(form, error))
    said = gettext("Note saved.") if text.strip() else gettext("Note deleted.")
    if not request.htmx:
        messages.success(request, said)
        url = reverse("campaign:notes", args=[seat.campaign_id])
        return redirect(f"{url}#note-{key_of(phase_id)}")
    book = notes.notebook(seat)
    entry = book.entry(phase_id)
    slot = slot_of(book, entry, NoteForm(initial=initial(entry), key=key_of(phase_id)), said)
    return render(request, "campaign/notes.html#note", {"campaign": seat.campaign, "slot": slot})


def refuse(request, seat: Seat, form: NoteForm, status: int = refusals.REFUSED):
    """The form as sent, with its errors (HTMX: alone), having changed nothing."""
    if not request.htmx:
        messages.error(request, gettext("Your note was not saved."))
        return page(request, seat, form, status=status)
    phase_id = form.cleaned_data.get("phase", UNSENT)
    book = notes.notebook(seat)
    entry = book.entry(phase_id) if phase_id is not UNSENT else None
    context = {"campaign": seat.campaign, "slot": slot_of(book, entry, form)}
    return render(request, "campaign/notes.html#note", context, status=status)


def page(request, seat: Seat, bound: NoteForm | None = None, status: int = 200):
    """Every note of the reader's: the campaign's, the open phase's, the earlier phases'
    and a form for a new one on an earlier phase. ``bound``, a form sent and refused,
    takes the place of the form it was sent from."""
    book = notes.notebook(seat)
    slots = [
        slot_of(book, entry, NoteForm(initial=initial(entry), key=key_of(entry.phase_id)))
        for entry in book.shown
    ]
    new = NoteForm(key=NEW).offer(book.unnoted) if book.unnoted else None
    if bound is not None:
        new = place(request, bound, slots, new, book)
    context = {"campaign": seat.campaign, "seat": seat, "slots": slots, "new": new}
    return render(request, "campaign/notes.html", context, status=status)


def place(request, bound: NoteForm, slots: list[Slot], new, book: notes.Notebook):
    """Put the refused form where it was sent from: a note's slot, or the new note's form
    (returned); a form the page has no place for says its errors at the top."""
    sent = bound.cleaned_data.get("phase", UNSENT)
    for slot in slots:
        if slot.entry.phase_id == sent:
            slot.form = bound
            return new
    if new is not None and sent in {entry.phase_id for entry in book.unnoted}:
        return bound.offer(book.unnoted)
    messages.error(request, error_text(bound))
    return new


def slot_of(book: notes.Notebook, entry: notes.Entry | None, form: NoteForm, notice="") -> Slot:
    current = entry is not None and entry is book.current
    return Slot(entry, form, current, notice)


def initial(entry: notes.Entry | None) -> dict:
    if entry is None:
        return {}
    return {"phase": entry.phase_id, "text": entry.text}
