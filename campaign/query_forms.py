"""The query parameters the pages read (``?…``), each parsed by a form whose ``values``
the view uses. A parameter sent wrong counts as one not sent: the page answers as it
does without it."""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from django import forms

ID = re.compile(r"[0-9]{1,18}")  # a database id: ASCII digits that fit a 64-bit column
PRESS_PARTS = ("panel", "channels", "messages")  # the press fragments that poll themselves


class RawField(forms.Field):
    """A parameter as sent, for what reads it to judge (a token, a digest, a key): never
    refused; ``empty`` when it is not sent."""

    def __init__(self, *, empty: str | None = "", **kwargs):
        super().__init__(required=False, **kwargs)
        self.empty = empty

    def to_python(self, value: Any) -> Any:
        return self.empty if value is None else value


class IdField(RawField):
    """A database id written in ASCII digits; None for anything else."""

    def to_python(self, value: Any) -> int | None:
        return int(value) if isinstance(value, str) and ID.fullmatch(value) else None


class PageField(RawField):
    """A page number as Django's Paginator reads it (``int()``); None for one that is no
    number (the first page)."""

    def to_python(self, value: Any) -> int | None:
        try:
            return int(value)
        except (TypeError, ValueError):
            return None


class ParamsForm(forms.Form):
    """Parameters of which one sent wrong counts as not sent: ``values`` holds each
    field's cleaned value, or its ``initial`` where the field refused what was sent."""

    @cached_property
    def values(self) -> dict[str, Any]:
        self.is_valid()
        return {
            name: self.cleaned_data.get(name, field.initial) for name, field in self.fields.items()
        }


class PollForm(ParamsForm):
    """What the campaign page's poll says it shows: its phase, the phase's status and the
    pace (None: the page sent none)."""

    phase = RawField()
    status = RawField()
    pace = RawField(empty=None)


class PressQueryForm(ParamsForm):
    """A press page's query: the fragment that polls itself (``part``, "" for the whole
    page), the page of messages, and the reader's ``stamp`` the fragment was drawn at."""

    part = forms.ChoiceField(choices=[(part, part) for part in PRESS_PARTS], required=False)
    page = PageField(empty=None)
    stamp = RawField(empty=None)


class LobbyQueryForm(ParamsForm):
    """The lobby's page of campaigns (None: the first)."""

    page = PageField(empty=None)


class HealthQueryForm(ParamsForm):
    """Whether /healthz answers 503 when the worker or the clock is stale (``strict=1``)."""

    strict = RawField()


class MapKeyForm(ParamsForm):
    """The signed key a map panel's URL names (``k``): what it draws, for whom."""

    k = RawField()


class EditItemForm(ParamsForm):
    """The item picked in a long list of GM edits (``item``)."""

    item = RawField()


class DigestForm(ParamsForm):
    """The digest of an order's line for the GM, as the GM's page showed it."""

    digest = RawField()


class NextForm(ParamsForm):
    """Where to go on after a page (``next``), as sent: the view checks that it stays on
    this site."""

    next = RawField()
