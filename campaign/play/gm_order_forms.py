"""The forms of the orders for the GM (rules/gm_orders.py): the order form's part where a
player gives them, the hidden fields that tie a GM edit to the order it carries out, and
the campaign's setting that reveals them in the log."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from rules import gm_orders as gmo
from rules.forms import WholeNumberField
from rules.translation import localized

PREFIX = "gm"  # posted names: gm-<row>-kind, gm-<row>-target, gm-<row>-text, gm-note
ROW_FIELD = re.compile(rf"{PREFIX}-(\d{{1,3}})-(kind|target|text)")
NOTE_FIELD = f"{PREFIX}-note"
BLANK_ROWS = 1  # an empty row offered after the saved lines ("Add a line" adds more)
ROW_LIMIT = 2 * gmo.MAX_LINES  # a posted row beyond this: too many, whatever it holds


@dataclass(frozen=True)
class Offer:
    """What a power may order the GM: the kinds of line, its pieces and the map's areas."""

    kinds: tuple[str, ...]
    pieces: dict[int, gmo.Piece]
    places: dict[str, str]


def declared_module(ruleset) -> Any:
    """The module of the ruleset's orders for the GM, or None (free text only)."""
    return ruleset.gm_orders.module


def offer(ruleset, world, power_key: str) -> Offer:
    module = declared_module(ruleset)
    if module is None:
        return Offer((), {}, {})
    pieces = {piece.id: piece for piece in module.pieces(world, power_key)}
    kinds = tuple(k for k in ruleset.gm_orders.kinds if pieces or k == gmo.CARD)
    return Offer(kinds, pieces, module.places(world))


def target_choices(offer: Offer) -> list:
    """A select's options: one group per piece, its area first, then those it reaches."""
    choices: list = [("", "—")]
    for piece in offer.pieces.values():
        here = gettext("%(area)s (where it stands)") % {"area": offer.places[piece.area]}
        options = [(f"{piece.id}{gmo.TARGET_SEP}{piece.area}", here)]
        options += [
            (f"{piece.id}{gmo.TARGET_SEP}{key}", offer.places.get(key, key)) for key in piece.reach
        ]
        choices.append((localized(piece.label), options))
    return choices


class LineForm(forms.Form):
    """One line of orders for the GM: its kind, the unit and area, a text."""

    kind = forms.CharField(label=gettext_lazy("Order"), required=False, widget=forms.Select)
    target = forms.CharField(
        label=gettext_lazy("Unit and area"), required=False, widget=forms.Select
    )
    text = forms.CharField(
        label=gettext_lazy("Details"),
        required=False,
        strip=True,
        widget=forms.TextInput(attrs={"maxlength": gmo.MAX_LINE_TEXT, "size": 24}),
    )

    def __init__(self, data=None, *, row, first: int, kinds, targets, initial=None):
        super().__init__(data, prefix=f"{PREFIX}-{row}", initial=initial)
        self.row = row
        self.number = first + row
        self.fields["kind"].widget.choices = [("", "—"), *kinds]
        self.fields["target"].widget.choices = targets
        if any(kind == gmo.CARD for kind, _ in kinds):
            self.fields["text"].label = gettext("Card played, or details")

    def posted(self) -> dict:
        return {name: self.cleaned_data.get(name, "") for name in ("kind", "target", "text")}


class NoteForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("Anything else for the GM"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": gmo.MAX_NOTE}),
    )

    def __init__(self, data=None, initial=None):
        super().__init__(data, prefix=PREFIX, initial=initial)


def initial_of(line: dict) -> dict:
    target = f"{line['piece']}{gmo.TARGET_SEP}{line['area']}" if "piece" in line else ""
    return {"kind": line.get("kind", ""), "target": target, "text": line.get("text", "")}


class GmOrdersForm:
    """The order form's part for the GM: the saved lines the GM has carried out (they no
    longer change), the others as rows to edit with a few empty ones, and a note;
    validated line by line against what the power may order (rules/gm_orders.py).
    ``saved``: the power's saved payload for the phase."""

    def __init__(self, data=None, *, ruleset, world, power_key: str, saved=None):
        self.declared = ruleset.gm_orders
        self.offer = offer(ruleset, world, power_key)
        self.data = data
        self.errors: list[str] = []
        self.lines: list[dict] = []
        self.note = ""
        saved_lines = gmo.lines_of(saved)
        self.kept = [line for line in saved_lines if line.get("done")]
        editable = [line for line in saved_lines if not line.get("done")]
        kinds = [(kind, localized(gmo.KIND_NAMES[kind])) for kind in self.offer.kinds]
        self.row_options = {
            "first": len(self.kept) + 1,
            "kinds": kinds,
            # drawn when a row is rendered (a save that is not shown again needs none);
            # the rows' validation reads the offer itself
            "targets": lambda: self.targets,
        }
        rows = self.posted_rows() if data is not None else range(len(editable) + BLANK_ROWS)
        self.rows = [
            LineForm(
                data,
                row=row,
                initial=initial_of(editable[row]) if row < len(editable) else None,
                **self.row_options,
            )
            for row in rows
        ]
        self.note_form = NoteForm(data, initial={"note": gmo.note_of(saved)})

    @cached_property
    def targets(self) -> list:
        """Every row's choices of unit and area (target_choices), drawn once."""
        return target_choices(self.offer)

    @property
    def carried_out(self) -> list[str]:
        """The lines the GM has carried out, as the player reads them."""
        offer = self.offer
        return [localized(gmo.describe(line, offer.pieces, offer.places)) for line in self.kept]

    @property
    def next_row(self) -> int:
        return max((r.row + 1 for r in self.rows), default=0)

    @property
    def rules(self) -> tuple[str, ...]:
        return self.declared.rules

    @property
    def help(self) -> str:
        return self.declared.help

    def posted_rows(self) -> list[int]:
        """The rows the post holds (at least BLANK_ROWS, to show again on a refusal)."""
        rows = {int(match.group(1)) for name in self.data if (match := ROW_FIELD.fullmatch(name))}
        rows = {row for row in rows if row < ROW_LIMIT}
        return sorted(rows) or list(range(BLANK_ROWS))

    def is_valid(self) -> bool:
        self.errors, self.lines = [], list(self.kept)
        try:
            self.refuse_unknown_fields()
            for row in self.rows:
                self.clean_row(row)
            gmo.check_count(len(self.lines))
            if not self.note_form.is_valid():
                raise forms.ValidationError(self.note_form.errors["note"])
            self.note = gmo.check_note(self.note_form.cleaned_data["note"])
        except gmo.Refused as refusal:
            self.errors.append(localized(refusal.args[0]))
        except forms.ValidationError as error:
            self.errors.extend(error.messages)
        return not self.errors

    def refuse_unknown_fields(self) -> None:
        for name in self.data:
            if not name.startswith(f"{PREFIX}-") or name == NOTE_FIELD:
                continue
            match = ROW_FIELD.fullmatch(name)
            if match is None:
                raise forms.ValidationError(
                    gettext("These orders have no “%(name)s”: reload the page and give them again.")
                    % {"name": name}
                )
            if int(match.group(1)) >= ROW_LIMIT:
                raise forms.ValidationError(
                    gettext("At most %(max)s lines of orders for the GM: reload the page.")
                    % {"max": gmo.MAX_LINES}
                )

    def clean_row(self, row: LineForm) -> None:
        if not row.is_valid():
            for errors in row.errors.values():
                raise forms.ValidationError(
                    gettext("Line %(line)s: %(error)s") % {"line": row.number, "error": errors[0]}
                )
        posted = row.posted()
        if not any(posted.values()):
            return
        if not posted["kind"]:
            raise forms.ValidationError(
                gettext("Line %(line)s: choose what kind of order it is.") % {"line": row.number}
            )
        line = gmo.check_line(
            row.number,
            posted,
            kinds=self.offer.kinds,
            pieces=self.offer.pieces,
            places=self.offer.places,
        )
        self.lines.append(line)

    def payload(self) -> dict:
        """What the orders' payload keeps of them (call after is_valid()): nothing when
        there are none."""
        if not (self.lines or self.note):
            return {}
        return {gmo.KEY: {"lines": self.lines, "note": self.note}}


class CarryOutForm(forms.Form):
    """Which order for the GM a GM edit carries out: the order, its line, and what the line
    said when the GM's page was loaded."""

    carry_order = WholeNumberField(min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput)
    carry_line = WholeNumberField(min_value=1, max_value=gmo.MAX_LINES, widget=forms.HiddenInput)
    carry_digest = forms.RegexField(regex=r"[0-9a-f]{16}", widget=forms.HiddenInput)

    @classmethod
    def posted(cls, data) -> CarryOutForm | None:
        """The form if the post names an order to carry out, else None."""
        return cls(data) if any(name in data for name in cls.base_fields) else None


class RevealForm(forms.Form):
    reveal = forms.BooleanField(
        label=gettext_lazy(
            "Reveal every power's orders for the GM in the log once the phase is over"
        ),
        required=False,
    )
