"""An order form as plain text, for the mail that awaits a power's orders and for the reply
that gives them: ``written`` turns the form into lines ``<key>: <value>`` a player can edit,
``read`` turns the lines of a reply back into the data the form validates, as if posted
from the page, and ``answered`` attaches the form's errors to the lines that caused them.

A line's key is its field's label. Two fields of a form with the same label are told apart
by their rank among the fields of that label, in the form's order: "<label> [1]",
"<label> [2]"… (the order is the form's, which the state it is built from fixes). Keys and
choices are matched case-folded, without accents, whitespace collapsed, and "," ";" "|"
taken alike; a label's trailing "(…)" may be left out wherever the rest names one field or
choice only; a choice may also be given by its value. Blank lines and "#" lines are skipped,
and READY (or the active language's word for ready) on a line of its own marks the orders
ready. Quoted text and signatures of a mail reply are the caller's to cut off first.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace

from django import forms
from django.utils.translation import gettext, pgettext

from rules.forms import BaseOrderForm

READY = "READY"
LISTED = re.compile(r"\s*[,;|]\s*")  # between the items of a list: "a, b", "a | b"
YES = ("yes", "true", "1", "x", "да", "ναι")
NO = ("no", "false", "0", "нет", "όχι")
CHECKED = "on"  # what a browser posts for a ticked checkbox


@dataclass(frozen=True)
class Line:
    """One order line of a reply."""

    text: str  # the line as the player wrote it
    field: str | None  # the form field it sets (None for READY or a refused line)
    refusal: str  # "" when understood; else why not (translated)


@dataclass(frozen=True)
class Reading:
    """A reply read against an order form."""

    data: dict[str, str | list[str]]  # posted data: the form's current values, overwritten
    ready: bool
    lines: tuple[Line, ...]


# -- writing ------------------------------------------------------------------------------


def written(form: BaseOrderForm) -> str:
    """The form as plain-text orders, in the active language: a line ``<key>: <value>`` a
    field with its current value, a "# " line explaining what it takes, and a last "# "
    line on READY."""
    lines = []
    for name, key in field_keys(form).items():
        lines.append(f"{key}: {shown_value(form[name])}")
        explanation = explained(form.fields[name])
        if explanation:
            lines.append(f"# {key}: {explanation}")
    lines.append("# " + ready_instruction())
    return "\n".join(lines) + "\n"


def field_keys(form: BaseOrderForm) -> dict[str, str]:
    """Each field's key: its label, ranked ("<label> [2]") when another field shares it."""
    labels = {name: one_line(form[name].label) for name in form.fields}
    shared = Counter(canon(label) for label in labels.values())
    ranks: Counter = Counter()
    keys = {}
    for name, label in labels.items():
        ranks[canon(label)] += 1
        keys[name] = f"{label} [{ranks[canon(label)]}]" if shared[canon(label)] > 1 else label
    return keys


def shown_value(bound: forms.BoundField) -> str:
    """The value as the page shows it: a choice by its label, a boolean as yes or no."""
    field, value = bound.field, bound.value()
    if isinstance(field, forms.BooleanField):
        return gettext("yes") if value else gettext("no")
    if isinstance(field, forms.ChoiceField):
        labels = {str(choice): one_line(label) for choice, label in field.choices}
        return " | ".join(labels[choice] for choice in chosen(bound))
    return "" if value is None else one_line(value)


def explained(field: forms.Field) -> str:
    """What the field takes (its choices, its bounds), and its help text."""
    parts = [allowed(field), one_line(field.help_text)]
    return "; ".join(part for part in parts if part)


def allowed(field: forms.Field) -> str:
    """The choices a field offers or the bounds of a number ("" for neither)."""
    if isinstance(field, forms.BooleanField):
        return f"{gettext('yes')} | {gettext('no')}"
    if isinstance(field, forms.ChoiceField):
        choices = " | ".join(one_line(label) for _, label in field.choices)
        if isinstance(field, forms.MultipleChoiceField):
            return gettext("any of %(choices)s, separated by |") % {"choices": choices}
        return choices
    low, high = getattr(field, "min_value", None), getattr(field, "max_value", None)
    if low is not None and high is not None:
        return gettext("%(low)s to %(high)s") % {"low": low, "high": high}
    if low is not None:
        return gettext("at least %(low)s") % {"low": low}
    if high is not None:
        return gettext("at most %(high)s") % {"high": high}
    return ""


def ready_instruction() -> str:
    """How a reply marks the orders ready."""
    return gettext(
        "Write %(ready)s on a line of its own to mark these orders ready; without it they "
        "are saved as a draft."
    ) % {"ready": READY}


# -- the form's current values ------------------------------------------------------------


def chosen(bound: forms.BoundField) -> list[str]:
    """The choices a choice field shows now, in the order of its choices (a value it does
    not offer is not shown): a drop-down list with none of its choices set shows its
    first, as a browser does."""
    value, field = bound.value(), bound.field
    offered = [str(choice) for choice, _ in field.choices]
    if isinstance(field, forms.MultipleChoiceField):
        selected = {str(item) for item in value or []}
        return [choice for choice in offered if choice in selected]
    if str(value) in offered:
        return [str(value)]
    return offered[:1] if isinstance(field.widget, forms.Select) else []


def posted_now(form: BaseOrderForm) -> dict[str, str | list[str]]:
    """The form's current values as a browser posts them (an unticked box is absent)."""
    data: dict[str, str | list[str]] = {}
    for name, field in form.fields.items():
        bound = form[name]
        if isinstance(field, forms.MultipleChoiceField):
            data[name] = chosen(bound)
        elif isinstance(field, forms.ChoiceField):
            data[name] = next(iter(chosen(bound)), "")
        elif isinstance(field, forms.BooleanField):
            if bound.value():
                data[name] = CHECKED
        else:
            value = bound.value()
            data[name] = "" if value is None else str(value)
    return data


# -- reading ------------------------------------------------------------------------------


def read(form: BaseOrderForm, text: str) -> Reading:
    """The reply ``text`` read against the unbound ``form``: the data to bind it to (its
    current values, with what the lines set), whether READY was written, and each line
    that is not blank or a "# " comment, with why it was refused, if it was."""
    reader = Reader(form)
    lines = tuple(reader.line(line) for line in text.splitlines() if not ignored(line))
    ready = any(line.field is None and not line.refusal for line in lines)
    return Reading(data=reader.data, ready=ready, lines=lines)


def answered(reading: Reading, bound_form: BaseOrderForm) -> tuple[Line, ...]:
    """The reading's lines once ``bound_form`` (bound to ``reading.data``) was validated:
    a line accepted whose field has errors is refused with them. The form's non-field
    errors, and errors of fields no line names (values kept from the saved orders), are
    the caller's to report."""
    return tuple(
        replace(line, refusal=" ".join(bound_form.errors[line.field]))
        if line.field in bound_form.errors
        else line
        for line in reading.lines
    )


def ignored(line: str) -> bool:
    """A blank line, or a comment ("# …")."""
    return not line.strip() or line.lstrip().startswith("#")


class Reader:
    """Reads the lines of one reply, in order, into the data of one form."""

    def __init__(self, form: BaseOrderForm):
        self.form = form
        self.keys = field_keys(form)
        self.named = lookup(self.keys.items())
        self.data = posted_now(form)
        self.given: set[str] = set()

    def is_ready(self, text: str) -> bool:
        return canon(text) in {canon(READY), canon(pgettext("orders", "ready"))}

    def line(self, text: str) -> Line:
        """One line read: what it sets is set, unless it is refused."""
        if self.is_ready(text):
            return Line(text, None, "")
        split = self.split(text)
        if split is None:
            return Line(text, None, self.not_an_order())
        name, key, value = split
        if name is None:
            return Line(text, None, self.unknown_key(key))
        if name in self.given:
            return Line(
                text, None, gettext("“%(key)s” is given twice: give it once.") % {"key": key}
            )
        self.given.add(name)
        posted, refusal = self.value(name, value)
        if refusal:
            return Line(text, None, refusal)
        self.data.pop(name, None)
        if posted is not None:
            self.data[name] = posted
        return Line(text, name, "")

    def split(self, text: str) -> tuple[str | None, str, str] | None:
        """(field, key, value) of a line "<key>: <value>" or "<key> = <value>": the longest
        key naming a field (labels may hold a colon), else the text before the first
        separator, naming none; None for a line without a separator."""
        cuts = [i for i, char in enumerate(text) if char in ":="]
        for cut in reversed(cuts):
            name = self.named.get(canon(text[:cut]))
            if name is not None:
                return name, self.keys[name], text[cut + 1 :].strip()
        if not cuts:
            return None
        return None, text[: cuts[0]].strip(), text[cuts[0] + 1 :].strip()

    def value(self, name: str, text: str) -> tuple[str | list[str] | None, str]:
        """What the field's line posts (None: nothing, an unticked box), or why not."""
        field, key = self.form.fields[name], self.keys[name]
        if isinstance(field, forms.BooleanField):
            return yes_or_no(text, key)
        if isinstance(field, forms.MultipleChoiceField):
            return several_choices(field, text, key)
        if isinstance(field, forms.ChoiceField):
            return one_choice(field, text, key)
        return text, ""

    def not_an_order(self) -> str:
        return gettext(
            "This line is not an order: write “name: value”, or %(ready)s on a line of its own."
        ) % {"ready": READY}

    def unknown_key(self, key: str) -> str:
        names = " | ".join(briefly(self.named, name, key) for name, key in self.keys.items())
        return gettext("These orders have no “%(key)s”; they have: %(keys)s.") % {
            "key": key,
            "keys": names,
        }


def yes_or_no(text: str, key: str) -> tuple[str | None, str]:
    """A ticked box for yes, none for no or nothing written."""
    word = canon(text)
    if word in {canon(w) for w in (*YES, gettext("yes"))}:
        return CHECKED, ""
    if not word or word in {canon(w) for w in (*NO, gettext("no"))}:
        return None, ""
    refusal = gettext("Write %(yes)s or %(no)s for “%(key)s”.")
    return None, refusal % {"yes": gettext("yes"), "no": gettext("no"), "key": key}


def one_choice(field: forms.ChoiceField, text: str, key: str) -> tuple[str, str]:
    """A choice by its label or its value; nothing written posts nothing chosen."""
    if not text:
        return "", ""
    value = choice_lookup(field).get(canon(text))
    if value is None and field.valid_value(text):  # a choice the form itself explains
        value = text
    if value is None:
        return "", unknown_choice(field, text, key)
    return value, ""


def several_choices(field: forms.MultipleChoiceField, text: str, key: str) -> tuple[list[str], str]:
    """Choices separated by "|", "," or ";", which labels may hold too: from each item on,
    the longest run of items that names a choice is taken."""
    items = [item for item in LISTED.split(text.strip()) if item]
    matched = [canon(item) for item in items]
    table, values, start = choice_lookup(field), [], 0
    while start < len(items):
        runs = [",".join(matched[start:end]) for end in range(len(items), start, -1)]
        longest = next((run for run in runs if run in table), None)
        if longest is None:
            return [], unknown_choice(field, items[start], key)
        values.append(table[longest])
        start = len(items) - runs.index(longest)
    return values, ""


def unknown_choice(field: forms.ChoiceField, text: str, key: str) -> str:
    """Why ``text`` is not one of the field's choices, naming them briefly."""
    table = choice_lookup(field)
    choices = " | ".join(
        briefly(table, str(value), one_line(label)) for value, label in field.choices
    )
    return gettext("“%(value)s” is not a choice for “%(key)s”; choose from: %(choices)s.") % {
        "value": text,
        "key": key,
        "choices": choices,
    }


def choice_lookup(field: forms.ChoiceField) -> dict[str, str]:
    """A choice's value by its label or its value."""
    labelled = [(str(value), one_line(label)) for value, label in field.choices]
    return lookup(labelled, [(value, value) for value, _ in labelled])


# -- matching -----------------------------------------------------------------------------


def lookup(
    entries: Iterable[tuple[str, str]], exact: Iterable[tuple[str, str]] = ()
) -> dict[str, str]:
    """Target by matched text, from (target, text) entries: each text, then each ``exact``
    alias, then each text without its trailing "(…)" where that names one target only."""
    entries = list(entries)
    table: dict[str, str] = {}
    for target, text in [*entries, *exact]:
        table.setdefault(canon(text), target)
    short: defaultdict[str, set[str]] = defaultdict(set)
    for target, text in entries:
        short[canon(without_note(text))].add(target)
    for text, targets in short.items():
        if len(targets) == 1:
            table.setdefault(text, targets.pop())
    return table


def briefly(table: dict[str, str], target: str, text: str) -> str:
    """``text`` without its trailing "(…)", if that still names ``target``."""
    short = without_note(text)
    return short if table.get(canon(short)) == target else text


def without_note(text: str) -> str:
    """The text without a trailing parenthesised note (nested ones included)."""
    if not text.endswith(")"):
        return text
    depth = 0
    for position in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[position], 0)
        if depth == 0:
            return text[:position].rstrip() or text
    return text


def canon(text: str) -> str:
    """The text as matched: case-folded, without accents, whitespace collapsed and list
    separators alike."""
    folded = unicodedata.normalize("NFKD", str(text).casefold())
    bare = "".join(char for char in folded if not unicodedata.combining(char))
    return LISTED.sub(",", " ".join(bare.split()))


def one_line(text) -> str:
    return " ".join(str(text).split())
