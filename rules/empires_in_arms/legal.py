"""Which orders the rules allow a power to give, from the current state.

Forms offer only these choices and refuse anything else; the phase resolvers check
again at resolution time (the GM may have edited the state since) and skip, with a
log line, an order that is no longer legal.
"""

from __future__ import annotations

from rules.empires_in_arms.state import MINOR, PROVINCE, SPAIN, Corps, Guerrilla, Revolt, World

MAX_ATTEMPTS = 3
AID_RANGE = (1, 6)
DEPOT_ATTACK_MINIMUM = 7  # "more than six guerrilla factors"


def revolt_targets(world: World, power: str) -> list[str]:
    """EIA-1: minors and ceded provinces controlled by another major power, not in revolt."""
    return sorted(
        (
            key
            for key, area in world.areas.items()
            if area.controller is not None
            and area.controller != power
            and area.controller in world.powers
            and (area.kind == MINOR or (area.kind == PROVINCE and area.ceded))
            and world.active_revolt(key) is None
        ),
        key=lambda key: world.areas[key].name,
    )


def own_revolts(world: World, power: str) -> list[Revolt]:
    """The active revolts this power sponsors (EIA-5 aid, EIA-7 lapse, EIA-8 choice)."""
    return [r for r in world.revolts if r.active and r.sponsor == power]


def aidable_revolts(world: World, power: str) -> list[Revolt]:
    """EIA-5 / Decision 9: the sponsor's own revolts, or its allies' under that option."""
    if world.options.get("aid_limit") == "sponsor_and_allies":
        return [
            r
            for r in world.revolts
            if r.active and (r.sponsor == power or world.allied(r.sponsor, power))
        ]
    return own_revolts(world, power)


def eligible_corps(world: World, power: str, area: str) -> list[Corps]:
    """EIA-4: this power's corps in the area that may take part in an operation."""
    return [c for c in world.corps if c.area == area and c.power == power and c.eligible]


def operation_areas(world: World, power: str) -> list[str]:
    """EIA-4: areas where the power has an eligible corps and guerrillas, or a revolt."""
    allowed_empty = world.options.get("operation_without_guerrillas", True)
    areas = []
    for key in sorted(world.areas, key=lambda k: world.areas[k].name):
        if not eligible_corps(world, power, key):
            continue
        revolt = world.active_revolt(key)
        if revolt is not None and revolt.sponsor == power:
            continue
        has_guerrillas = any(g.area == key and g.nationality != power for g in world.guerrillas)
        if has_guerrillas or (revolt is not None and allowed_empty):
            areas.append(key)
    return areas


def depot_attack_areas(world: World, power: str) -> list[str]:
    """EIA-11: areas where this power's guerrillas number more than six and an enemy has a
    depot outside a port city."""
    areas = []
    for key in world.areas:
        factors = sum(
            g.factors for g in world.guerrillas if g.area == key and g.nationality == power
        )
        if factors < DEPOT_ATTACK_MINIMUM:
            continue
        if any(
            d.area == key and not d.port_city and is_enemy_of_guerrillas(world, power, d.power)
            for d in world.depots
        ):
            areas.append(key)
    return sorted(areas, key=lambda k: world.areas[k].name)


def is_enemy_of_guerrillas(world: World, nationality: str, other: str) -> bool:
    """EIA-9: revolt guerrillas treat every force not of the sponsor or its allies as enemy."""
    return other != nationality and not world.allied(other, nationality)


def guerrilla_destinations(world: World, stack: Guerrilla) -> list[str]:
    """EIA-9 / EIA-10: where a stack may move this land movement step (one adjacent area).

    Revolt guerrillas never leave their area of origin (an Area here is the whole province
    or minor), so they have nowhere to go. Spanish guerrillas move within Spain's home
    nation; those in ceded provinces only between former Spanish provinces.
    """
    if stack.revolt or stack.besieged:
        return []
    here = world.areas[stack.area]
    destinations = []
    for key in sorted(world.adjacency.get(stack.area, ())):
        area = world.areas[key]
        if area.home_power != SPAIN or area.kind != PROVINCE:
            continue
        if here.ceded and not area.ceded and area.controller != SPAIN:
            continue
        destinations.append(key)
    return destinations


def movable_stacks(world: World, power: str) -> list[Guerrilla]:
    """This power's guerrilla stacks that have somewhere to go."""
    return [
        g
        for g in world.guerrillas
        if g.nationality == power and g.id is not None and guerrilla_destinations(world, g)
    ]


def conquest_choice_revolts(world: World, power: str) -> list[Revolt]:
    """EIA-8: the sponsor's revolts in minors held by a power it is at war with, where the
    client-state / conquered choice will be asked if the revolt succeeds."""
    return [
        r
        for r in own_revolts(world, power)
        if world.areas[r.area].kind == MINOR and world.at_war(power, world.areas[r.area].controller)
    ]
