"""Labelled modifiers and rolls that explain themselves, the way a careful GM writes them."""

from __future__ import annotations

from dataclasses import dataclass

from rules.text import Join, Text


@dataclass(frozen=True)
class Modifier:
    """One labelled addition to a die roll: ``Modifier("GB national modifier", +1)``."""

    label: str
    value: int


@dataclass(frozen=True)
class ModifiedRoll:
    """A die face plus its modifiers; zero modifiers are kept but not printed."""

    face: int
    modifiers: tuple[Modifier, ...] = ()

    @property
    def total(self) -> int:
        return self.face + sum(m.value for m in self.modifiers)

    @property
    def applied(self) -> tuple[Modifier, ...]:
        return tuple(m for m in self.modifiers if m.value)

    def explain(self) -> Text:
        """ "4 +1 GB national modifier +1 GB Dominant = 6" (each label translated)."""
        parts = [self.face, *(Join(f"{m.value:+d}", m.label, sep=" ") for m in self.applied)]
        return Text("%(roll)s = %(total)s", roll=Join(*parts, sep=" "), total=self.total)


@dataclass(frozen=True)
class RollReport:
    """A roll as the log shows it: which rule, what for, the roll, and what it did.

    ``text`` reads like the GM's e-mail:
    "4 +1 GB national modifier +1 GB Dominant = 6 ≥ 6: the revolt breaks out".
    """

    rule: str
    purpose: str
    roll: ModifiedRoll
    comparison: str
    outcome: str
    power: str | None = None
    area: str | None = None
    extra_faces: tuple[int, ...] = ()

    @property
    def text(self) -> Text:
        roll, outcome = self.roll.explain(), self.outcome
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
