"""Beacons' phase resolvers, pure: each carries out the lords' orders in the order of their
keys, skipping (and logging) an order the rules refuse."""

from __future__ import annotations

from collections.abc import Mapping

from rules.dice import Dice
from rules.refusals import Refused, Skipped
from rules.text import Text
from tests.toy import procedures
from tests.toy.state import World

GATHERING, RAIDING = "gather", "raid"  # the raid phase's actions


def skip(world: World, rule: str, power: str, order: Mapping, refusal: Refused, **seen) -> Skipped:
    """Log why the lord's order is not carried out; ``seen``: who reads the reason."""
    said = Text(
        "%(power)s's order is not carried out: %(reason)s",
        power=world.powers[power],
        reason=refusal.text,
    )
    world.say(rule, said, power=power, **seen)
    return Skipped(power, dict(order), refusal.text)


def resolve_signals(world: World, orders: Mapping[str, dict], dice: Dice) -> list:
    """The signal phase: TOY-1 for each lord that names an area; the areas lit and the
    orders skipped."""
    done: list = []
    for power, order in sorted(orders.items()):
        area = order.get("area")
        if not area:
            continue
        try:
            if procedures.light_beacon(world, power, area, dice, feed=order.get("feed", 0)):
                done.append(area)
        except Refused as refusal:
            done.append(skip(world, procedures.LIGHT, power, order, refusal))
    return done


def resolve_raids(world: World, orders: Mapping[str, dict], dice: Dice) -> list:
    """The raid phase: TOY-3 for the lords that gather, then TOY-2's roll for each raid;
    the raids that reached their beacons wait in World.raids for their defenders. The
    wood gathered and the raids that reached, and the orders skipped."""
    done: list = []
    for power, order in sorted(orders.items()):
        if order.get("action") == GATHERING:
            done.append(gather(world, power, order))
    for power, order in sorted(orders.items()):
        if order.get("action") == RAIDING:
            done.append(raid(world, power, order, dice))
    procedures.go_on(world)
    return done


def gather(world: World, power: str, order: Mapping) -> int | Skipped:
    """TOY-3, or why not (read by the lord alone: it tells of its reserve)."""
    try:
        return procedures.gather(world, power)
    except Refused as refusal:
        hidden = Text("%(power)s gathers nothing.", power=world.powers[power])
        return skip(
            world, procedures.GATHER, power, order, refusal, audience=(power,), redacted=hidden
        )


def raid(world: World, power: str, order: Mapping, dice: Dice):
    """TOY-2's roll, or why not."""
    try:
        return procedures.roll_raid(world, power, order.get("area", ""), dice)
    except Refused as refusal:
        return skip(world, procedures.RAID, power, order, refusal)
