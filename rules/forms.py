"""What every ruleset's forms share: strict whole numbers, id choices, and the bases of
its order forms, GM edit forms, standing orders and mid-phase decisions (the form
classes its rules.engine.Hooks name)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

if TYPE_CHECKING:
    from campaign.models import Seat
    from rules.engine import Actor, Label


class WholeNumberField(forms.IntegerField):
    """A bounded whole number written in ASCII digits, with an optional sign.

    Django's IntegerField takes whatever ``int()`` takes: "٣" or "３" become 3 and "2.0"
    becomes 2. This field refuses them as invalid, and a number too long for ``int()``
    (thousands of digits) is out of range, refused by the bounds: give it both
    ``min_value`` and ``max_value``."""

    digits = re.compile(r"[+-]?[0-9]+")
    longest = 18  # more digits than any bound: out of range, whatever they are

    def __init__(self, *, min_value: int, max_value: int, **kwargs):
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not self.digits.fullmatch(text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        sign = -1 if text.startswith("-") else 1
        digits = text.lstrip("+-").lstrip("0") or "0"
        if len(digits) > self.longest:
            return sign * 10**self.longest
        return sign * int(digits)


def _interpolate(message, params: dict) -> str:
    return message % params


# A message with its named placeholders filled in when it is shown, in the language then
# active: for messages built at import time (class-level fields).
interpolate_lazy = lazy(_interpolate, str)


SAFE_ID = re.compile(r"[A-Za-z0-9_-]+")  # an item an HTML id and a CSS selector take as it is


def row_auto_id(cls: type, pk) -> str:
    """HTML ids unique per form on a page with many forms of one kind."""
    return f"id_{cls.__name__}_{pk}_%s"


def row_item(form: forms.Form) -> str:
    """The item a per-item form edits: the ``pk`` its ``row_auto_id`` names ("" for a
    form without one)."""
    prefix, auto_id = f"id_{type(form).__name__}_", str(form.auto_id)
    if not (auto_id.startswith(prefix) and auto_id.endswith("_%s")):
        return ""
    return auto_id[len(prefix) : -len("_%s")]


def flag(label: Label) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False)


def id_field(
    label: Label, choices: list[tuple[int, str]], what: Label, *, hidden: bool = False
) -> forms.TypedChoiceField:
    """A choice of one object by its database id."""
    return forms.TypedChoiceField(
        label=label,
        choices=[(str(pk), text) for pk, text in choices],
        coerce=int,
        widget=forms.HiddenInput if hidden else forms.Select,
        error_messages={
            "invalid_choice": interpolate_lazy(
                gettext_lazy("There is no such %(what)s any more: reload the page."),
                {"what": what},
            ),
            "required": interpolate_lazy(gettext_lazy("Choose the %(what)s."), {"what": what}),
        },
    )


def row_key(choices: list[tuple[str, str]], refusal: Label = "") -> forms.ChoiceField:
    """The hidden field that says which row (power, space, zone…) an edit form of a
    table row edits; ``refusal``: what a key no longer there gets."""
    messages: dict[str, Label] = {
        "required": gettext_lazy("This form does not say what it edits: reload the page.")
    }
    if refusal:
        messages["invalid_choice"] = refusal
    return forms.ChoiceField(choices=choices, widget=forms.HiddenInput, error_messages=messages)


def number_field(label: Label, bounds: tuple[int, int], **kwargs: Any) -> WholeNumberField:
    """A whole number within ``bounds``; every refusal says the range. (The dashboard's
    message puts the label in front.)"""
    low, high = bounds
    message = interpolate_lazy(
        gettext_lazy("enter a whole number from %(low)s to %(high)s."), {"low": low, "high": high}
    )
    return WholeNumberField(
        label=label,
        min_value=low,
        max_value=high,
        error_messages={
            "invalid": message,
            "min_value": message,
            "max_value": message,
            "required": message,
        },
        **kwargs,
    )


class BaseOrderForm(forms.Form):
    """Base of every order form: built from the World for one power, prefilled from a
    saved draft, refusing any posted field it did not offer."""

    rules: tuple[str, ...] = ()
    field_names: dict[str, Label] = {}  # fixed fields, offered only when legal -> refusal
    field_prefixes: dict[str, Label] = {}  # per-item fields: prefix -> refusal message
    # True: the form also takes ``saved_orders``, the other powers' saved orders of the
    # phase (power key -> payload), for a budget they share; it shows of them only what
    # their powers share with this one.
    reads_saved_orders = False

    def __init__(self, data=None, *, world: Any, power_key: str, initial_payload=None):
        self.world = world
        self.power_key = power_key
        super().__init__(data, initial=self.initial_from(initial_payload or {}))
        self.add_fields()

    @property
    def nothing_to_order(self) -> Label:
        """What the form says when the power has nothing to order."""
        return gettext_lazy("You have nothing to order in this phase.")

    def add_fields(self) -> None:
        """Add the fields this power may fill in now."""

    def initial_from(self, payload: dict) -> dict:
        """Field values from a saved payload."""
        return {}

    def payload(self) -> dict:
        """The order as the phase service reads it (call after is_valid())."""
        raise NotImplementedError

    def budget(self) -> list[str]:
        """What the orders cost and what the power has to pay with, in numbers."""
        return []

    def warnings(self) -> list[str]:
        """What the player should know before ordering: orders that can no longer matter
        (said, not refused)."""
        return []

    @property
    def has_choices(self) -> bool:
        return bool(self.fields)

    @property
    def owes(self) -> bool:
        """Whether the power has something to decide here, so that the phase waits for it:
        by default whenever the form offers a choice. A form whose choices are standing
        answers already kept says otherwise. It agrees with the phase's PhaseSpec.owes
        (tests/services/test_owing_agrees.py)."""
        return self.has_choices

    def posted(self, name: str) -> str:
        values = self.data.getlist(name) if hasattr(self.data, "getlist") else [self.data[name]]
        return ", ".join(str(value) for value in values)

    def clean(self) -> dict[str, Any]:
        """Refuse any posted field this power is not offered (a tampered request)."""
        super().clean()
        cleaned = self.cleaned_data
        for name in self.data:
            if name in self.fields:
                continue
            if name in self.field_names:
                message = self.field_names[name] or self.nothing_to_order
                raise forms.ValidationError(message % {"value": self.posted(name)})
            for prefix, message in self.field_prefixes.items():
                if name.startswith(prefix):
                    raise forms.ValidationError(message % {"value": name.removeprefix(prefix)})
            raise forms.ValidationError(
                gettext("These orders have no “%(name)s”: reload the page and give them again.")
                % {"name": name}
            )
        return cleaned


class BaseStandingForm(forms.Form):
    """A player's standing orders, which answer for the power where a procedure cannot
    stop to ask; ``save`` keeps them (call after is_valid())."""

    def __init__(self, data=None, *, world: Any, power_key: str, **kwargs: Any):
        self.world = world
        self.power_key = power_key
        super().__init__(data, **kwargs)

    def save(self, *, seat: Seat, actor: Actor) -> None:
        raise NotImplementedError


class BaseDecisionForm(forms.Form):
    """The decision a procedure waits for in mid-phase, asked of the reader playing
    ``power_key`` (None: a seat without a power) or of the GM (``as_gm``): whether this
    reader may answer (``answerable``), whom it waits for (``waiting_for``), and the
    answer the ruleset's ``decide`` takes (``answer()``, after is_valid())."""

    answerable = False

    def __init__(self, data=None, *, world: Any, power_key: str | None, as_gm: bool):
        self.world = world
        self.power_key = power_key
        self.as_gm = as_gm
        super().__init__(data)

    @property
    def waiting_for(self) -> str:
        """The power the decision waits for, as people read it."""
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        super().clean()
        return self.cleaned_data

    def answer(self) -> dict:
        raise NotImplementedError


class BaseEditForm(forms.Form):
    """One GM edit, its choices built from the World: ``edit_key`` names the ruleset's
    edit (rules/<ruleset>/edits.py) that campaign.play.gm_edits.apply makes with
    ``edit_fields()``."""

    edit_key = ""
    title: Label = ""
    submit_label: Label = gettext_lazy("Save")
    rule = ""
    row_field = ""  # a RowEditForm's: the field that names the row it edits

    def __init__(self, data=None, *, world: Any, caption: str = "", **kwargs):
        self.world = world
        self.caption = caption
        super().__init__(data, **kwargs)
        self.add_choices()

    def add_choices(self) -> None:
        """Set the choice fields from the World."""

    def clean(self) -> dict[str, Any]:
        super().clean()
        return self.cleaned_data

    def full_clean(self) -> None:
        """Validate; a hidden field's errors are the form's own (its reader sees no such
        field, and Django would name it by its code name)."""
        super().full_clean()
        hidden = [name for name in self.errors if name in self.fields and self[name].is_hidden]
        for name in hidden:
            self.add_error(None, self.errors.pop(name))

    def edit_fields(self) -> dict:
        """The edit's arguments (call after is_valid())."""
        return dict(self.cleaned_data)

    @classmethod
    def instances(cls, world: Any) -> list[BaseEditForm]:
        """The forms the dashboard shows: by default one blank form, if it has choices."""
        form = cls(world=world, auto_id=row_auto_id(cls, "new"))
        return [form] if form.offers_choices else []

    @classmethod
    def items(cls, world: Any) -> list[tuple[str, str]]:
        """The item (``row_item``) and caption of each form ``instances`` gives."""
        return [(row_item(form), form.caption) for form in cls.instances(world)]

    @classmethod
    def instance(cls, world: Any, item: str) -> BaseEditForm | None:
        """The form of ``item`` among ``instances``, or None."""
        return next((form for form in cls.instances(world) if row_item(form) == item), None)

    @property
    def element_id(self) -> str:
        """The HTML id of a per-item form's element ("" for a form without one): what an
        edit that changed its row alone answers in place of."""
        item = row_item(self)
        return str(self.auto_id) % "edit-row" if SAFE_ID.fullmatch(item) else ""

    @property
    def offers_choices(self) -> bool:
        """Every required choice has something to choose from."""
        return all(getattr(f, "choices", True) for f in self.fields.values() if f.required)

    @classmethod
    def current(cls, world: Any) -> list[str]:
        """Lines describing the current state this edit changes, if the rows do not."""
        return []


@dataclass(frozen=True)
class Row:
    """A row a RowEditForm edits: its key, its caption and its fields' current values."""

    key: Any
    caption: str
    values: Mapping[str, Any]

    @classmethod
    def of(cls, key: Any, caption: str, item: Any, *names: str, **values: Any) -> Row:
        """The row of ``item`` whose fields ``names`` hold its attributes of those names
        (``values``: the other fields')."""
        return cls(key, caption, {**{name: getattr(item, name) for name in names}, **values})


class RowEditForm(BaseEditForm):
    """An edit of one row of a table (a power, a corps, a zone…), shown as one prefilled
    form a row, so that an edit never clears what it leaves: ``row_field`` is the field
    that says which row (set in ``add_choices``; by default the edit's own name,
    ``edit_key``), ``rows(world)`` lists them."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not cls.row_field:
            cls.row_field = cls.edit_key

    @classmethod
    def rows(cls, world: Any) -> Iterable[Row]:
        """The rows to edit, in the order shown."""
        raise NotImplementedError

    @classmethod
    def instances(cls, world: Any) -> list[BaseEditForm]:
        return [cls.of_row(world, row) for row in cls.rows(world)]

    @classmethod
    def items(cls, world: Any) -> list[tuple[str, str]]:
        return [(str(row.key), row.caption) for row in cls.rows(world)]

    @classmethod
    def instance(cls, world: Any, item: str) -> BaseEditForm | None:
        row = next((row for row in cls.rows(world) if str(row.key) == item), None)
        return None if row is None else cls.of_row(world, row)

    @classmethod
    def of_row(cls, world: Any, row: Row) -> BaseEditForm:
        """The form of one row, prefilled."""
        return cls(
            world=world,
            caption=row.caption,
            initial={cls.row_field: row.key, **row.values},
            auto_id=row_auto_id(cls, row.key),
        )
