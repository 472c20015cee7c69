"""Labelled modifiers and rolls that explain themselves, the way a careful GM writes them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.text import Join, Plural, Text


@dataclass(frozen=True)
class Modifier:
    """One labelled addition to a die roll: ``Modifier("GB national modifier", +1)``."""

    label: str
    value: int


def faces_text(faces: Sequence[int], *, summed: bool = False) -> Text:
    """The dice as every roll line names them, each face labelled: "die 4"; a pool of
    dice read one by one, "dice 1 2 5"; dice added together (2d6), "dice 3 + 4"."""
    # Translators: the faces of a roll: "die 4"; several dice, "dice 1 2 5" (each read
    # alone) or "dice 3 + 4" (added together).
    return Plural(
        "die %(faces)s",
        "dice %(faces)s",
        count=len(faces),
        faces=Join(*faces, sep=" + " if summed else " "),
    )


@dataclass(frozen=True)
class ModifiedRoll:
    """A die face plus its modifiers; zero modifiers are kept but not printed.

    ``more`` are the faces of further dice added to the first (a 2d6 roll: ``face`` 3,
    ``more`` (4,)); a single die has none."""

    face: int
    modifiers: tuple[Modifier, ...] = ()
    more: tuple[int, ...] = ()

    @property
    def faces(self) -> tuple[int, ...]:
        return (self.face, *self.more)

    @property
    def total(self) -> int:
        return sum(self.faces) + sum(m.value for m in self.modifiers)

    @property
    def applied(self) -> tuple[Modifier, ...]:
        return tuple(m for m in self.modifiers if m.value)

    def explain(self) -> Text:
        """ "die 4 +1 GB national modifier +1 GB Dominant = 6", "dice 3 + 4 = 7" (each
        label translated)."""
        dice = faces_text(self.faces, summed=True)
        parts = [dice, *(Join(f"{m.value:+d}", m.label, sep=" ") for m in self.applied)]
        return Text("%(roll)s = %(total)s", roll=Join(*parts, sep=" "), total=self.total)


@dataclass(frozen=True)
class RollReport:
    """A roll as the log shows it: which rule, what for, the roll, and what it did.

    ``text`` reads like the GM's e-mail:
    "die 4 +1 GB national modifier +1 GB Dominant = 6 ≥ 6: the revolt breaks out".
    """

    rule: str
    purpose: str
    roll: ModifiedRoll
    comparison: str
    outcome: str
    power: str | None = None
    area: str | None = None
    extra_faces: tuple[int, ...] = ()  # further dice read one by one (a pool, a draw)

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face of the roll, in the order rolled."""
        return (*self.roll.faces, *self.extra_faces)

    @property
    def text(self) -> Text:
        """The line; dice read one by one (``extra_faces``) are named each, not summed."""
        roll = faces_text(self.faces) if self.extra_faces else self.roll.explain()
        outcome = self.outcome
        if self.comparison:
            return Text(
                "%(roll)s %(comparison)s: %(outcome)s",
                roll=roll,
                comparison=self.comparison,
                outcome=outcome,
            )
        return Text("%(roll)s: %(outcome)s", roll=roll, outcome=outcome)


def clamp(value: int, low: int, high: int) -> int:
    """``value`` limited to ``low..high``."""
    return max(low, min(high, value))


# -- derived numbers: a result computed from a roll shows its arithmetic ------------------


def difference(minuend: int, subtrahend: int, result: object) -> Text:
    """ "5 − 1 = 4 guerrilla factors": ``result`` (a number, or the Text that counts it)
    is ``minuend`` − ``subtrahend``."""
    return Text(
        "%(minuend)s − %(subtrahend)s = %(result)s",
        minuend=minuend,
        subtrahend=subtrahend,
        result=result,
    )


def quotient(dividend: int, divisor: int, result: object) -> Text:
    """ "6 ÷ 3 = 2 militia factors", or "7 ÷ 3 = 2 militia factors (rounded down)":
    ``result`` counts ``dividend`` // ``divisor``."""
    if dividend % divisor:
        return Text(
            "%(dividend)s ÷ %(divisor)s = %(result)s (rounded down)",
            dividend=dividend,
            divisor=divisor,
            result=result,
        )
    return Text(
        "%(dividend)s ÷ %(divisor)s = %(result)s", dividend=dividend, divisor=divisor, result=result
    )


def product(factor: int, multiplier: int, result: object) -> Text:
    """ "2 × 2 = 4": ``result`` (a number, or the Text that counts it) is ``factor`` ×
    ``multiplier``."""
    return Text(
        "%(factor)s × %(multiplier)s = %(result)s",
        factor=factor,
        multiplier=multiplier,
        result=result,
    )
