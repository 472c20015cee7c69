"""Beacons' one procedure, pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.dice import Dice
from rules.log import Logbook, LogLine
from rules.modifiers import ModifiedRoll, RollReport
from rules.refusals import Refused
from rules.text import Text

RULE = "TOY-1"
NEEDS = 4  # a beacon catches on 4 or more


@dataclass
class World(Logbook):
    """Which power's beacon is lit in each area (None: unlit), who borders whom, and each
    area's name as people read it."""

    lit: dict[str, str | None]
    adjacency: dict[str, set[str]]
    names: dict[str, str]
    log: list[LogLine] = field(default_factory=list)


def targets(world: World, power: str) -> list[str]:
    """The unlit areas next to one of the power's lit beacons."""
    own = {area for area, owner in world.lit.items() if owner == power}
    return sorted(
        area
        for area, owner in world.lit.items()
        if owner is None and world.adjacency.get(area, set()) & own
    )


def light_beacon(world: World, power: str, area: str, dice: Dice) -> bool:
    """TOY-1: a power lights an unlit area next to its own beacon on a die of 4 or more."""
    if area not in targets(world, power):
        name = world.names.get(area, area)
        raise Refused(Text("%(area)s is not next to a beacon of yours.", area=name))
    face = dice.d6(f"{power} lights {area}")
    caught = face >= NEEDS
    if caught:
        world.lit[area] = power
    outcome = Text("the beacon is lit") if caught else Text("it does not catch")
    report = RollReport(RULE, f"{power} lights {area}", ModifiedRoll(face), f"≥ {NEEDS}", outcome)
    world.say(RULE, report.text, power=power, area=area, roll=report)
    return caught


def resolve_signals(world: World, orders: dict[str, dict], dice: Dice) -> list[str]:
    """Every power's order in turn; returns the areas lit."""
    lit = []
    for power, order in sorted(orders.items()):
        area = order.get("area")
        if area and light_beacon(world, power, area, dice):
            lit.append(area)
    return lit
