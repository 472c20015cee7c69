"""How the rules say no, one way only: a procedure, a GM edit or an order for the GM that
the rules do not allow raises Refused (an edit: EditError) carrying why, as a Text, and
changes nothing. What the rules check is one function that raises it (``check_*``),
called by the procedure that acts; a form, a presenter or a page that asks beforehand
why not asks that same function (``reason_for``), never a second one that could
disagree. A phase resolver that meets a Refused order skips it, logs why and answers
Skipped among what happened. Pure: no Django."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.text import Text


class Refused(ValueError):
    """An input the rules do not allow; the state is unchanged. ``text``: why."""

    @property
    def text(self) -> Text:
        return self.args[0]


@dataclass(frozen=True)
class Skipped:
    """An order a phase resolver did not carry out: whose, what it named, and why."""

    power: str
    order: Any
    reason: Text


def reason_for(check: Callable[..., object], *args: Any, **kwargs: Any) -> Text | None:
    """Why ``check`` (a function that raises Refused) refuses these arguments; None when
    it does not: the question a form, a presenter or a page asks before anything is
    done."""
    try:
        check(*args, **kwargs)
    except Refused as refusal:
        return refusal.text
    return None


class EditError(Refused):
    """A GM edit that names something unknown or an impossible value."""


def whole(value: object, bounds: tuple[int, int], what: Text) -> int:
    """``value`` if it is a whole number within ``bounds`` (both included), else
    EditError naming it as ``what``."""
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EditError(
            Text(
                "%(what)s must be a whole number from %(low)s to %(high)s.",
                what=what,
                low=low,
                high=high,
            )
        )
    return value
