"""Beacons as the rules engine sees it: one phase a turn, one procedure. Pure."""

from __future__ import annotations

from rules.engine import PhaseSpec, Ruleset

SIGNAL = PhaseSpec(
    key="signal",
    name="Signal",
    rules=("TOY-1",),
    does="Each power lights one unlit area next to one of its beacons, on a die of 4 or more.",
)


def sequence(turn: int, setup: dict) -> list[str]:
    return [SIGNAL.key]


def turn_label(turn: int, setup: dict) -> str:
    return f"Night {turn}"


RULESET = Ruleset(
    key="toy",
    name="Beacons",
    package="tests.toy",
    phases=(SIGNAL,),
    options=(),
    sequence=sequence,
    turn_label=turn_label,
    procedures={"TOY-1": ("Light a beacon", "Roll one die: on 4 or more the beacon is lit.")},
)
