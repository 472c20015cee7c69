"""The form of one private note (campaign/press/notes.py): the phase it is on (empty: the
campaign) and its text."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.errors import reason_for
from campaign.press import notes
from rules.forms import WholeNumberField

NEW = "new"  # the key of the form of a new note on an earlier phase


def key_of(phase_id: int | None) -> str:
    """The key of the form of the note on a phase (None: the campaign)."""
    return "campaign" if phase_id is None else str(phase_id)


def key_sent(data) -> str:
    """The key of the form a post was sent from, read from the phase it names (NEW for a
    phase that is no id): the form shown again with its errors keeps its ids."""
    phase = str(data.get("phase", "")).strip()
    if not phase:
        return key_of(None)
    return phase if phase.isascii() and phase.isdigit() and len(phase) < 20 else NEW


class NoteForm(forms.Form):
    """A note on the campaign or one of its phases; an empty text deletes it. Each note's
    form on the page has ids of its own (``key``: the phase's id, or "campaign")."""

    phase = WholeNumberField(
        min_value=1, max_value=2**63 - 1, required=False, widget=forms.HiddenInput
    )
    text = forms.CharField(
        label=_("Note"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "maxlength": notes.MAX_LENGTH}),
    )

    def __init__(self, *args, key: str = "campaign", **kwargs):
        kwargs.setdefault("auto_id", f"id_note-{key}-%s")
        super().__init__(*args, **kwargs)

    @classmethod
    def posted(cls, data) -> NoteForm:
        """The form bound to a post, with the ids of the form it was sent from."""
        return cls(data, key=key_sent(data))

    def clean_text(self) -> str:
        text = notes.normalized(self.cleaned_data["text"])
        refusal = reason_for(notes.check_length, text)
        if refusal:
            raise forms.ValidationError(refusal, code="max_length")
        return text

    def offer(self, entries: list[notes.Entry]) -> NoteForm:
        """The phase to choose among ``entries`` (a new note on an earlier phase)."""
        choices = [(entry.phase_id, entry.label) for entry in entries]
        self.fields["phase"].widget = forms.Select(choices=choices)
        self.fields["phase"].label = _("Phase")
        return self
