"""What the GM edits by hand: the state the seeds do not automate.

Each edit changes the World and returns the sentence the log shows. A reference to
something that does not exist, or a value the rules cannot hold, raises EditError and
changes nothing. The EIA-7 immediate endings are checked by the service afterwards.
"""

from __future__ import annotations

from rules.empires_in_arms.state import (
    PROVINCE,
    SPAIN,
    ZONE_MODIFIERS,
    Corps,
    Depot,
    Guerrilla,
    Revolt,
    World,
)


class EditError(ValueError):
    """A GM edit that names something unknown or an impossible value."""


def _power(world: World, key: str | None) -> str:
    if key not in world.powers:
        raise EditError(f"There is no power “{key}”.")
    return key


def _area(world: World, key: str | None) -> str:
    if key not in world.areas:
        raise EditError(f"There is no area “{key}”.")
    return key


def _by_id(items: list, item_id: int | None, what: str):
    for item in items:
        if item.id is not None and item.id == item_id:
            return item
    raise EditError(f"There is no {what} #{item_id}.")


def _name(world: World, key: str | None) -> str:
    if key is None:
        return "nobody"
    return world.powers[key].name if key in world.powers else world.areas[key].name


def edit_power(
    world: World,
    *,
    power: str,
    zone: str,
    political_points: int,
    treasury: int,
    pays_bad_roll: bool,
) -> str:
    """Political zone, PP and treasury of a power, and its standing bad-roll order."""
    state = world.powers[_power(world, power)]
    if zone not in ZONE_MODIFIERS:
        raise EditError(f"“{zone}” is not a political status zone.")
    state.zone, state.political_points, state.treasury = zone, political_points, treasury
    state.pays_bad_roll = pays_bad_roll
    pays = "pays" if pays_bad_roll else "does not pay"
    return (
        f"{state.name}: {zone} zone, {political_points} PP, ${treasury}; {pays} $d6 on a bad roll"
    )


def edit_area(world: World, *, area: str, controller: str | None, ceded: bool) -> str:
    """Who controls an area (None: a neutral minor) and whether a province is ceded."""
    state = world.areas[_area(world, area)]
    if controller is not None:
        _power(world, controller)
    if ceded and state.kind != PROVINCE:
        raise EditError(f"{state.name} is a minor country: only provinces are ceded.")
    state.controller, state.ceded = controller, ceded
    return f"{state.name}: controlled by {_name(world, controller)}{', ceded' if ceded else ''}"


def add_corps(world: World, *, power: str, area: str, name: str, minor: str | None) -> str:
    """Place a corps (of the power, or of a minor it controls)."""
    _power(world, power)
    _area(world, area)
    if minor is not None and world.areas[_area(world, minor)].controller != power:
        raise EditError(f"{world.areas[minor].name} is not controlled by {_name(world, power)}.")
    world.corps.append(Corps(None, power, area, name=name, minor=minor))
    label = f"{world.areas[minor].name} corps" if minor else "corps"
    return f"{_name(world, power)} {label} {name} placed in {world.areas[area].name}"


def edit_corps(
    world: World, *, corps: int, area: str, fought: bool, besieged: bool, besieging: bool
) -> str:
    """Move a corps and set its land-combat and siege flags."""
    state = _by_id(world.corps, corps, "corps")
    state.area = _area(world, area)
    state.fought, state.besieged, state.besieging = fought, besieged, besieging
    flags = [
        n for n, on in (("fought", fought), ("besieged", besieged), ("besieging", besieging)) if on
    ] or ["ready"]
    where = world.areas[area].name
    return f"{_name(world, state.power)} corps {state.name} in {where}: {', '.join(flags)}"


def remove_corps(world: World, *, corps: int) -> str:
    state = _by_id(world.corps, corps, "corps")
    world.corps.remove(state)
    where = world.areas[state.area].name
    return f"{_name(world, state.power)} corps {state.name} removed from {where}"


def edit_relation(world: World, *, a: str, b: str, kind: str) -> str:
    """War, alliance or peace between two powers."""
    pair = frozenset((_power(world, a), _power(world, b)))
    if a == b:
        raise EditError("A power has no relation with itself.")
    if kind not in ("war", "alliance", "peace"):
        raise EditError(f"“{kind}” is not war, alliance or peace.")
    world.wars.discard(pair)
    world.alliances.discard(pair)
    if kind == "war":
        world.wars.add(pair)
    elif kind == "alliance":
        world.alliances.add(pair)
    words = {"war": "at war", "alliance": "allied", "peace": "at peace"}
    return f"{_name(world, a)} and {_name(world, b)} are {words[kind]}"


def edit_revolt(world: World, *, revolt: int, capital_held_months: int) -> str:
    """Months the revolt's guerrillas have held the capital unbesieged (EIA-8)."""
    state: Revolt = _by_id([r for r in world.revolts if r.active], revolt, "active revolt")
    if capital_held_months < 0:
        raise EditError("Months cannot be negative.")
    state.capital_held_months = capital_held_months
    return (
        f"Revolt in {world.areas[state.area].name}: capital held for {capital_held_months} month(s)"
    )


def spanish_field_loss(world: World, *, area: str) -> str:
    """EIA-10: Spain lost a field combat with a Spanish corps in an unceded home province:
    one Spanish guerrilla factor is created there at once."""
    state = world.areas[_area(world, area)]
    if state.kind != PROVINCE or state.home_power != SPAIN or state.ceded:
        raise EditError(f"{state.name} is not an unceded Spanish home province.")
    stack = next(
        (
            g
            for g in world.guerrillas
            if g.area == area and not g.revolt and g.nationality == SPAIN and not g.besieged
        ),
        None,
    )
    if stack is None:
        world.guerrillas.append(Guerrilla(None, area, SPAIN, 1, origin=area, revolt=False))
    else:
        stack.factors += 1
    return (
        f"Spain lost a field combat in {state.name}: one Spanish guerrilla factor created (EIA-10)"
    )


def edit_guerrilla(world: World, *, stack: int, besieged: bool) -> str:
    """Whether a guerrilla stack is besieged in a city."""
    state = _by_id(world.guerrillas, stack, "guerrilla stack")
    state.besieged = besieged
    where = world.areas[state.area].name
    status = "besieged" if besieged else "unbesieged"
    who = _name(world, state.nationality)
    return f"{state.factors} {who} guerrilla factor(s) in {where}: {status}"


def add_depot(world: World, *, power: str, area: str, port_city: bool, garrison: int) -> str:
    _power(world, power)
    _area(world, area)
    if garrison < 0:
        raise EditError("A garrison cannot be negative.")
    world.depots.append(Depot(None, power, area, port_city=port_city, garrison=garrison))
    port = " (port city)" if port_city else ""
    return f"{_name(world, power)} depot{port} in {world.areas[area].name}, garrison {garrison}"


def remove_depot(world: World, *, depot: int) -> str:
    state = _by_id(world.depots, depot, "depot")
    world.depots.remove(state)
    return f"{_name(world, state.power)} depot in {world.areas[state.area].name} removed"


EDITS = {
    "power": edit_power,
    "area": edit_area,
    "corps_add": add_corps,
    "corps": edit_corps,
    "corps_remove": remove_corps,
    "relation": edit_relation,
    "revolt": edit_revolt,
    "spanish_field_loss": spanish_field_loss,
    "guerrilla": edit_guerrilla,
    "depot_add": add_depot,
    "depot_remove": remove_depot,
}
