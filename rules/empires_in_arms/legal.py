"""Which orders the rules allow a power to give, from the current state.

Forms offer only these choices and refuse anything else; the phase resolvers check
again at resolution time (the GM may have edited the state since) and skip, with a
log line, an order that is no longer legal.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.empires_in_arms.state import (
    MINOR,
    PROVINCE,
    Corps,
    Depot,
    Guerrilla,
    Revolt,
    World,
    option,
)

MAX_ATTEMPTS = 3
AID_RANGE = (1, 6)
DEPOT_ATTACK_MINIMUM = 7  # "more than six guerrilla factors"
SUCCESS_NUMBER = 6  # EIA-8


def revolt_targets(world: World, power: str) -> list[str]:
    """EIA-1: minors and ceded provinces controlled by another major power, not in revolt.

    Not an ally's (Decision 17, option ``revolt_against_ally``): a revolt against an ally
    would end at once as a let-down (EIA-7). Under the option an ally's area is a target:
    the attempt is made and paid for, and a revolt that breaks out ends at once.
    """
    ally_ok = option(world.options, "revolt_against_ally") == "allowed"
    return sorted(
        (
            key
            for key, area in world.areas.items()
            if area.controller is not None
            and area.controller != power
            and area.controller in world.powers
            and (ally_ok or not world.allied(power, area.controller))
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
    if option(world.options, "aid_limit") == "sponsor_and_allies":
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
    """EIA-4: areas where the power may mount an anti-guerrilla operation (``can_operate``),
    in name order. Only areas holding one of its eligible corps are looked at."""
    candidates = {c.area for c in world.corps if c.power == power and c.eligible}
    return _by_name(world, (key for key in candidates if can_operate(world, power, key)))


def can_operate(world: World, power: str, area: str) -> bool:
    """EIA-4: the power has an eligible corps in the area and guerrillas there are its
    enemies (``operation_targets``), or, under Decision 11, a revolt whose guerrillas
    would treat it as enemy (EIA-9: not the sponsor, not its allies), guerrillas or not.
    Never the power's own revolt."""
    if area not in world.areas or not eligible_corps(world, power, area):
        return False
    revolt = world.active_revolt(area)
    if revolt is not None and revolt.sponsor == power:
        return False
    if operation_targets(world, power, area):
        return True
    allowed_empty = option(world.options, "operation_without_guerrillas")
    return bool(allowed_empty) and revolt_enemy(world, revolt, power)


def _by_name(world: World, keys) -> list[str]:
    return sorted(keys, key=lambda k: world.areas[k].name)


def revolt_enemy(world: World, revolt: Revolt | None, power: str) -> bool:
    """EIA-9: whether the revolt's guerrillas treat ``power`` as enemy (every power but
    the sponsor and its allies)."""
    if revolt is None:
        return False
    return guerrilla_enemy(world, revolt.sponsor, True, revolt.area, power)


def operation_targets(world: World, power: str, area: str) -> list[Guerrilla]:
    """EIA-4: the guerrilla stacks in the area that treat ``power`` as an enemy."""
    return [
        g for g in world.guerrillas if g.area == area and is_enemy_of_guerrillas(world, g, power)
    ]


def depot_attack_areas(world: World, power: str) -> list[str]:
    """EIA-11: areas where this power may attack depots (``can_attack_depots``), in name
    order. Only areas holding one of its guerrilla stacks are looked at."""
    candidates = {g.area for g in world.guerrillas if g.nationality == power}
    return _by_name(world, (key for key in candidates if can_attack_depots(world, power, key)))


def can_attack_depots(world: World, power: str, area: str) -> bool:
    """EIA-11: this power's unbesieged guerrillas in the area number more than six and an
    enemy of theirs has a depot there outside a port city."""
    stacks = own_stacks(world, power, area)
    if sum(g.factors for g in stacks) < DEPOT_ATTACK_MINIMUM:
        return False
    return any(
        d.area == area and not d.port_city and enemy_of_any(world, stacks, d.power)
        for d in world.depots
    )


class DepotAttackForces(NamedTuple):
    """EIA-11: what an attack on the depots in an area weighs."""

    guerrilla_factors: int  # the attacking power's unbesieged guerrillas there
    enemy_corps: int  # the corps there of an enemy of theirs
    depots: list[Depot]  # the depots there of an enemy of theirs


def depot_attack_forces(world: World, power: str, area: str) -> DepotAttackForces:
    """EIA-11: this power's guerrillas that would attack the depots in the area, and the
    enemy corps and depots they would face."""
    own = own_stacks(world, power, area)
    return DepotAttackForces(
        sum(g.factors for g in own),
        sum(1 for c in world.corps_in(area) if enemy_of_any(world, own, c.power)),
        [d for d in world.depots if d.area == area and enemy_of_any(world, own, d.power)],
    )


def own_stacks(world: World, power: str, area: str) -> list[Guerrilla]:
    """EIA-11: this power's guerrilla stacks in the area whose factors may attack depots:
    not the besieged ones, which are in a siege ("which do not in any other way initiate
    battle")."""
    return [
        g for g in world.guerrillas if g.area == area and g.nationality == power and not g.besieged
    ]


def enemy_of_any(world: World, stacks: list[Guerrilla], other: str) -> bool:
    """EIA-11: ``other`` is an enemy of at least one of these stacks."""
    return any(is_enemy_of_guerrillas(world, g, other) for g in stacks)


def is_enemy_of_guerrillas(world: World, stack: Guerrilla, other: str | None) -> bool:
    """Whether a force of ``other`` is an enemy of this guerrilla stack (EIA-9, EIA-10)."""
    return guerrilla_enemy(world, stack.nationality, stack.revolt, stack.area, other)


def guerrilla_enemy(
    world: World, nationality: str, revolt: bool, area: str, other: str | None
) -> bool:
    """EIA-9 / EIA-10: who guerrillas of ``nationality`` in ``area`` treat as enemy.

    Revolt guerrillas: every force not of the sponsor or its allies (EIA-9). Spanish
    guerrillas: powers at war with Spain, and in a ceded former Spanish province also
    the power controlling it, even at peace with Spain (seed 7.6.1).
    """
    if other is None or other == nationality:
        return False
    if revolt:
        return not world.allied(other, nationality)
    here = world.areas[area]
    ceded_home = here.ceded and here.home_power == nationality
    return world.at_war(other, nationality) or (ceded_home and other == here.controller)


def guerrilla_destinations(world: World, stack: Guerrilla) -> list[str]:
    """EIA-9 / EIA-10: where a stack may move this land movement step (one adjacent area).

    Revolt guerrillas never leave their area of origin (an Area here is the whole province
    or minor), so they have nowhere to go; besieged ones stay. Spanish guerrillas never
    leave Spain's original home nation borders, and those in a ceded province move only
    between former Spanish provinces: either way, to an adjacent province whose home
    nation is Spain's, ceded or not, whoever holds it (seed 7.6.1, 7.6.3). Never into an
    area in revolt that the stack would take over its 5 × manpower cap (seed 4.3.3.1).
    """
    if stack.revolt or stack.besieged:
        return []
    return [key for key in home_neighbours(world, stack) if not over_cap(world, key, stack.factors)]


def home_neighbours(world: World, stack: Guerrilla) -> list[str]:
    """EIA-10: the adjacent provinces of the stack's home nation (Spain's), ceded or not."""
    return [
        key
        for key in sorted(world.adjacency.get(stack.area, ()))
        if world.areas[key].kind == PROVINCE and world.areas[key].home_power == stack.nationality
    ]


def over_cap(world: World, area: str, factors: int) -> bool:
    """EIA-3 / seed 4.3.3.1: ``factors`` more guerrilla factors would take this area over
    its 5 × manpower cap; the cap binds only while the area is in revolt."""
    if world.active_revolt(area) is None:
        return False
    return world.guerrilla_factors(area) + factors > world.areas[area].guerrilla_cap


def movable_stacks(world: World, power: str) -> list[Guerrilla]:
    """This power's guerrilla stacks that have somewhere to go."""
    return [
        g
        for g in world.guerrillas
        if g.nationality == power and g.id is not None and guerrilla_destinations(world, g)
    ]


def conquest_choice_revolts(world: World, power: str) -> list[Revolt]:
    """EIA-8: the sponsor's revolts in minors held by a power it is at war with, where the
    client-state / conquered choice will be asked if the revolt succeeds (a standing
    answer: it may be given in advance, and is kept until changed)."""
    return [
        r
        for r in own_revolts(world, power)
        if world.areas[r.area].kind == MINOR and world.at_war(power, world.areas[r.area].controller)
    ]


def revolt_stacks(world: World, revolt: Revolt) -> list[Guerrilla]:
    """EIA-7 / EIA-8: the guerrilla stacks a revolt raised (its sponsor's, from its area)."""
    return [
        g
        for g in world.guerrillas
        if g.revolt and g.origin == revolt.area and g.nationality == revolt.sponsor
    ]


def unbesieged_factors(world: World, revolt: Revolt) -> int:
    """EIA-8: the revolt's guerrilla factors in its area that are not besieged."""
    return sum(
        g.factors for g in revolt_stacks(world, revolt) if g.area == revolt.area and not g.besieged
    )


def succeeds_now(world: World, revolt: Revolt) -> bool:
    """EIA-8: the revolt succeeds in this conquest step as the state stands: its
    guerrillas held the capital for a month (the GM's entry), its number is 6 or more, and
    some of its guerrilla factors are in its area unbesieged."""
    return (
        revolt.capital_held_months >= 1
        and revolt.number >= SUCCESS_NUMBER
        and unbesieged_factors(world, revolt) > 0
    )


def conquest_choices_due(world: World, power: str) -> list[Revolt]:
    """EIA-8: the conquest-choice revolts that succeed in this step with no answer kept
    for them: only there does the sponsor's choice change the outcome now."""
    return [
        r
        for r in conquest_choice_revolts(world, power)
        if not r.conquest_choice and succeeds_now(world, r)
    ]


# -- who has something to order (the phases wait only for them) ------------------------


def sponsors_a_revolt(world: World, power: str) -> bool:
    """Peace step (EIA-7): only a sponsor has a revolt it may let lapse."""
    return bool(own_revolts(world, power))


def can_incite(world: World, power: str) -> bool:
    """Revolt step (EIA-1): some area may be a target of this power's attempts."""
    return bool(revolt_targets(world, power))


def has_land_orders(world: World, power: str) -> bool:
    """Land phase, guerrilla steps: a stack to move (EIA-9, EIA-10), an operation (EIA-4)
    or a depot attack (EIA-11) to order. Corps moves are orders for the GM, which are
    optional and never make a power owe."""
    return bool(
        movable_stacks(world, power)
        or operation_areas(world, power)
        or depot_attack_areas(world, power)
    )


def has_conquest_choice(world: World, power: str) -> bool:
    """Conquest step (EIA-8): a revolt that succeeds now and asks the sponsor's choice,
    with no answer kept for it (``conquest_choices_due``)."""
    return bool(conquest_choices_due(world, power))


def can_aid(world: World, power: str) -> bool:
    """Economic phase (EIA-5): a revolt this power may aid."""
    return bool(aidable_revolts(world, power))
