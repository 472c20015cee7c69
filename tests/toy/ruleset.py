"""Beacons as the rules engine sees it: one phase a turn, one procedure. Its words go
through gettext like a real ruleset's: no catalog holds them (tests/ is not extracted),
so they read in English, and in the pseudo-locale (tests/pseudo.py) like any other."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from rules.engine import PhaseSpec, Ruleset
from rules.text import Text

SIGNAL = PhaseSpec(
    key="signal",
    name=gettext_lazy("Signal"),
    rules=("TOY-1",),
    does=gettext_lazy(
        "Each power lights one unlit area next to one of its beacons, on a die of 4 or more."
    ),
)


def sequence(turn: int, setup: dict) -> list[str]:
    return [SIGNAL.key]


def turn_label(turn: int, setup: dict) -> Text:
    """ "Night 3", in each reader's language."""
    return Text("Night %(turn)s", turn=turn)


RULESET = Ruleset(
    key="toy",
    name=gettext_lazy("Beacons"),
    package="tests.toy",
    phases=(SIGNAL,),
    options=(),
    sequence=sequence,
    turn_label=turn_label,
    procedures={
        "TOY-1": (
            gettext_lazy("Light a beacon"),
            gettext_lazy("Roll one die: on 4 or more the beacon is lit."),
        )
    },
)
