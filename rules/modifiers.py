"""Labelled modifiers and rolls that explain themselves, the way a careful GM writes them."""

from __future__ import annotations

from dataclasses import dataclass


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

    def explain(self) -> str:
        """ "4 +1 GB national modifier +1 GB Dominant = 6"."""
        parts = [str(self.face)] + [f"{m.value:+d} {m.label}" for m in self.applied]
        return f"{' '.join(parts)} = {self.total}"


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
    def text(self) -> str:
        compared = f" {self.comparison}" if self.comparison else ""
        return f"{self.roll.explain()}{compared}: {self.outcome}"


def clamp(value: int, low: int, high: int) -> int:
    """``value`` limited to ``low..high``."""
    return max(low, min(high, value))
