"""Beacons as the rules engine sees it: two phases a night, three procedures
(tests/toy/RULES.md). Its words go through gettext like a real ruleset's: no catalog holds
them (tests/ is not extracted), so they read in English, and in the pseudo-locale
(tests/pseudo.py) like any other."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from rules.engine import PhaseSpec, Ruleset
from rules.text import Text
from tests.toy import procedures

SIGNAL = PhaseSpec(
    key="signal",
    name=gettext_lazy("Signal"),
    rules=("TOY-1",),
    does=gettext_lazy(
        "Each lord may light one unlit area next to one of its beacons, on a die of 4 or "
        "more plus the wood it feeds the fire."
    ),
    owes=lambda world, power: bool(procedures.light_targets(world, power)),
)
RAID = PhaseSpec(
    key="raid",
    name=gettext_lazy("Raid"),
    rules=("TOY-2", "TOY-3"),
    does=gettext_lazy(
        "Each lord either gathers wood or raids a beacon of another lord next to its own; "
        "a raid that reaches its beacon waits for that lord's decision."
    ),
    owes=lambda world, power: bool(
        procedures.gathered(world, power) or procedures.raid_targets(world, power)
    ),
)


def sequence(turn: int, setup: dict) -> list[str]:
    return [SIGNAL.key, RAID.key]


def turn_label(turn: int, setup: dict) -> Text:
    """ "Night 3", in each reader's language."""
    return Text("Night %(turn)s", turn=turn)


RULESET = Ruleset(
    key="toy",
    name=gettext_lazy("Beacons"),
    package="tests.toy",
    phases=(SIGNAL, RAID),
    options=(),
    sequence=sequence,
    turn_label=turn_label,
    pure_modules=("state", "procedures", "phases", "edits"),
    corpus_adapter="corpus_adapter",
    procedures={
        "TOY-1": (
            gettext_lazy("Light a beacon"),
            gettext_lazy(
                "Roll one die, plus 1 for each wood fed from the reserve (at most 2): on 4 "
                "or more the beacon is lit."
            ),
        ),
        "TOY-2": (
            gettext_lazy("Raid a beacon"),
            gettext_lazy(
                "Roll one die: on 4 or more the raid reaches the beacon, and its lord burns "
                "the die less 3 in wood to keep it, or lets it be doused."
            ),
        ),
        "TOY-3": (
            gettext_lazy("Gather wood"),
            gettext_lazy("A lord that does not raid gathers one wood per beacon lit, up to 5."),
        ),
    },
)
