"""Beacons' procedures, pure: no Django. TOY-1 lights a beacon, TOY-2 raids one (rolled
in the phase, settled as each defender decides), TOY-3 gathers wood
(tests/toy/RULES.md). Each refuses what the rules do not allow with Refused."""

from __future__ import annotations

from rules.dice import Dice
from rules.modifiers import ModifiedRoll, Modifier, RollReport
from rules.refusals import Refused, reason_for
from rules.text import Plural, Text
from tests.toy.state import MOST_FED, MOST_WOOD, NEEDS, Raid, World

LIGHT, RAID, GATHER = "TOY-1", "TOY-2", "TOY-3"


# -- TOY-1 Light a beacon ------------------------------------------------------------


def light_targets(world: World, power: str) -> list[str]:
    """The unlit areas next to one of the lord's lit beacons."""
    return sorted(
        area for area, lord in world.lit.items() if lord is None and world.next_to_own(power, area)
    )


def check_light(world: World, power: str, area: str, feed: int = 0) -> None:
    """TOY-1: an unlit area next to one of the lord's beacons, fed 0 to 2 wood."""
    if area not in light_targets(world, power):
        name = world.names.get(area, area)
        raise Refused(Text("%(area)s is not an unlit area next to a beacon of yours.", area=name))
    if feed not in range(MOST_FED + 1):
        raise Refused(Text("A fire is fed from 0 to %(most)s wood.", most=MOST_FED))


def light_beacon(world: World, power: str, area: str, dice: Dice, feed: int = 0) -> bool:
    """TOY-1: the lord lights the area on a die of 4 or more, plus the wood it feeds the
    fire (what it ordered, or its whole reserve if that is less), which is spent."""
    check_light(world, power, area, feed)
    fed = min(feed, world.wood.get(power, 0))
    purpose = Text("%(power)s lights %(area)s", power=world.powers[power], area=world.names[area])
    face = dice.d6(purpose)
    world.wood[power] = world.wood.get(power, 0) - fed
    roll = ModifiedRoll(face, (Modifier(Text("wood fed"), fed),))
    caught = roll.total >= NEEDS
    if caught:
        world.lit[area] = power
    outcome = Text("the beacon is lit") if caught else Text("it does not catch")
    report = RollReport(LIGHT, purpose, roll, f"≥ {NEEDS}", outcome)
    said = Text("%(purpose)s: %(roll)s", purpose=purpose, roll=report.text)
    world.say(LIGHT, said, power=power, area=area, roll=report)
    return caught


# -- TOY-2 Raid a beacon -------------------------------------------------------------


def raid_targets(world: World, power: str) -> list[str]:
    """The other lords' beacons next to one of the lord's own."""
    return sorted(
        area
        for area, lord in world.lit.items()
        if lord not in (None, power) and world.next_to_own(power, area)
    )


def check_raid(world: World, power: str, area: str) -> None:
    """TOY-2: another lord's beacon next to one of the raider's own."""
    if area not in raid_targets(world, power):
        name = world.names.get(area, area)
        raise Refused(
            Text("%(area)s is not a beacon of another lord next to one of yours.", area=name)
        )


def roll_raid(world: World, power: str, area: str, dice: Dice) -> Raid | None:
    """TOY-2's roll: on 4 or more the raid reaches the beacon and waits, in World.raids,
    for its defender's decision; the raid, or None when it fails."""
    check_raid(world, power, area)
    defender = world.powers[world.lit[area]]
    purpose = Text(
        "%(power)s raids the beacon of %(lord)s in %(area)s",
        power=world.powers[power],
        lord=defender,
        area=world.names[area],
    )
    face = dice.d6(purpose)
    raid = Raid(power, area, face) if face >= NEEDS else None
    if raid is None:
        outcome = Text("the raid fails")
    else:
        outcome = Text("the raid reaches the beacon: %(lord)s decides", lord=defender)
        world.raids.append(raid)
    report = RollReport(RAID, purpose, ModifiedRoll(face), f"≥ {NEEDS}", outcome)
    said = Text("%(purpose)s: %(roll)s", purpose=purpose, roll=report.text)
    world.say(RAID, said, power=power, area=area, roll=report)
    return raid


def go_on(world: World) -> None:
    """Drop from the front of the raids under way those that no longer stand (their beacon
    doused, or their lord's own beacon next to it), until one waits for its defender."""
    while world.raids:
        raid = world.raids[0]
        if reason_for(check_raid, world, raid.raider, raid.area) is None:
            return
        world.raids.pop(0)
        said = Text(
            "%(power)s's raid on %(area)s does nothing: it is no longer a beacon the raid "
            "may reach.",
            power=world.powers[raid.raider],
            area=world.names[raid.area],
        )
        world.say(RAID, said, power=raid.raider, area=raid.area)


def check_answer(world: World, power: str | None, keep: bool, *, as_gm: bool = False) -> None:
    """TOY-2: the defender of the raid asked (or the GM for it) keeps its beacon only if
    its reserve pays the die less 3."""
    raid = world.asked
    if raid is None:
        raise Refused(Text("No raid waits for a decision."))
    defender = world.defender(raid)
    if not as_gm and power != defender:
        raise Refused(Text("The decision is %(lord)s's to make.", lord=world.powers[defender]))
    if keep and world.wood.get(defender, 0) < raid.cost:
        raise Refused(
            Plural(
                "Keeping the beacon costs %(count)s wood: the reserve holds less.",
                "Keeping the beacon costs %(count)s wood: the reserve holds less.",
                count=raid.cost,
            )
        )


def answer_raid(world: World, power: str | None, keep: bool, *, as_gm: bool = False) -> None:
    """TOY-2: the defender's decision settles the raid asked: it burns the wood and keeps
    its beacon, or lets it be doused; then the next raid standing is asked."""
    check_answer(world, power, keep, as_gm=as_gm)
    raid = world.raids.pop(0)
    defender = world.defender(raid)
    names = {"lord": world.powers[defender], "area": world.names[raid.area]}
    if keep:
        world.wood[defender] -= raid.cost
        said = Plural(
            "%(lord)s burns %(count)s wood: its beacon in %(area)s holds.",
            "%(lord)s burns %(count)s wood: its beacon in %(area)s holds.",
            count=raid.cost,
            **names,
        )
    else:
        world.lit[raid.area] = None
        said = Text("%(lord)s lets it go: its beacon in %(area)s is doused.", **names)
    world.say(RAID, said, power=defender, area=raid.area)
    go_on(world)


def default_answer(world: World) -> tuple[str, dict] | None:
    """Whom the raid asked waits for, and the answer of a defender without a player: it
    keeps the beacon when its reserve pays; None when no raid waits."""
    raid = world.asked
    if raid is None:
        return None
    defender = world.defender(raid)
    return defender, {"keep": world.wood.get(defender, 0) >= raid.cost}


# -- TOY-3 Gather wood ---------------------------------------------------------------


def gathered(world: World, power: str) -> int:
    """The wood the lord would gather: one for each of its beacons, up to a full reserve."""
    room = MOST_WOOD - world.wood.get(power, 0)
    return max(0, min(len(world.beacons_of(power)), room))


def check_gather(world: World, power: str) -> None:
    """TOY-3: a lord with a lit beacon and room in its reserve."""
    if not gathered(world, power):
        raise Refused(Text("There is no wood to gather: no beacon lit, or a full reserve."))


def gather(world: World, power: str) -> int:
    """TOY-3: the lord gathers its wood; what its reserve holds is written for it alone."""
    check_gather(world, power)
    count = gathered(world, power)
    world.wood[power] = world.wood.get(power, 0) + count
    name = world.powers[power]
    said = Plural(
        "%(power)s gathers %(count)s wood: its reserve holds %(wood)s.",
        "%(power)s gathers %(count)s wood: its reserve holds %(wood)s.",
        count=count,
        power=name,
        wood=world.wood[power],
    )
    hidden = Text("%(power)s gathers wood.", power=name)
    world.say(GATHER, said, power=power, audience=(power,), redacted=hidden)
    return count
