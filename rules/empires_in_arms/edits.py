"""What the GM edits by hand: the state the seeds do not automate.

Each edit changes the World and returns the sentence the log shows. A reference to
something that does not exist, or a value the rules cannot hold, raises EditError and
changes nothing. The EIA-7 immediate endings are checked by the service afterwards.
"""

from __future__ import annotations

from rules.empires_in_arms.state import (
    ALLIED,
    CLIENT,
    CONQUERED,
    MINOR,
    PROVINCE,
    SPAIN,
    ZONE_MODIFIERS,
    Area,
    Corps,
    Depot,
    Guerrilla,
    Revolt,
    World,
)

NATIONAL_MODIFIER_RANGE = (-5, 5)  # a cell of the Minor Country Chart
MANPOWER_RANGE = (0, 20)
GUERRILLA_VALUE_RANGE = (1, 6)  # the printed value of a Spanish province (EIA-10)
FACTORS_RANGE = (1, 99)  # one guerrilla stack
LET_DOWN_RANGE = (0, 9)
MILITIA_RANGE = (0, 999)
MINOR_STATUSES = {ALLIED: "allied minor", CLIENT: "client state", CONQUERED: "conquered minor"}


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


def _whole(value: object, bounds: tuple[int, int], what: str) -> int:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EditError(f"{what} is a whole number from {low} to {high}, not “{value}”.")
    return value


def spanish_province(area: Area) -> bool:
    """A province of Spain's home nation, ceded or not: the areas with a printed guerrilla
    value and the only ones where Spanish guerrillas appear (EIA-10)."""
    return area.kind == PROVINCE and area.home_power == SPAIN


def _minor_status(area: Area, controller: str | None, status: str) -> str:
    """A minor's status under ``controller``: blank, or allied / client / conquered for a
    controlled minor only."""
    if not status:
        return ""
    if status not in MINOR_STATUSES:
        raise EditError(f"“{status}” is not allied, client or conquered.")
    if area.kind != MINOR:
        raise EditError(
            f"{area.name} is a province: only a minor country is an allied, client "
            "or conquered minor."
        )
    if controller is None:
        raise EditError(
            f"{area.name} is neutral: a neutral minor is nobody's allied, client "
            "or conquered minor."
        )
    return status


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
    """Political zone, PP and treasury of a power, and its standing bad-roll order (the
    log says only whether the order changed: it stays the power's and the GM's)."""
    state = world.powers[_power(world, power)]
    if zone not in ZONE_MODIFIERS:
        raise EditError(f"“{zone}” is not a political status zone.")
    order_changed = state.pays_bad_roll != pays_bad_roll
    state.zone, state.political_points, state.treasury = zone, political_points, treasury
    state.pays_bad_roll = pays_bad_roll
    text = f"{state.name}: {zone} zone, {political_points} PP, ${treasury}"
    return text + ("; standing order for bad rolls changed" if order_changed else "")


def edit_area(
    world: World,
    *,
    area: str,
    controller: str | None,
    ceded: bool,
    minor_status: str | None = None,
) -> str:
    """Who controls an area (None: a neutral minor) and whether a province is ceded.

    A minor that becomes neutral or changes controller loses its allied / client /
    conquered status unless ``minor_status`` gives the new one (None: keep or clear)."""
    state = world.areas[_area(world, area)]
    if controller is not None:
        _power(world, controller)
    if controller is None and state.kind == PROVINCE:
        raise EditError(
            f"{state.name} is a province: it always has a controller (only a minor country "
            "can be neutral)."
        )
    if ceded and state.kind != PROVINCE:
        raise EditError(f"{state.name} is a minor country: only provinces are ceded.")
    if ceded and state.home_power is None:
        raise EditError(f"{state.name} belongs to no power's home nation, so it cannot be ceded.")
    if ceded and controller == state.home_power:
        raise EditError(
            f"{state.name} is held by its home power, {_name(world, controller)}: a ceded "
            "province is held by another power."
        )
    if minor_status is not None:
        status = _minor_status(state, controller, minor_status)
    elif controller != state.controller or state.kind != MINOR:
        status = ""
    else:
        status = state.minor_status
    state.controller, state.ceded, state.minor_status = controller, ceded, status
    held = f", {MINOR_STATUSES[status]}" if status else ""
    return (
        f"{state.name}: controlled by {_name(world, controller)}{held}{', ceded' if ceded else ''}"
    )


def edit_area_details(
    world: World, *, area: str, manpower: int, guerrilla_value: int | None, minor_status: str
) -> str:
    """An area's manpower (EIA-3's cap), a Spanish province's printed guerrilla value
    (EIA-10; None for every other area) and how its controller holds a minor."""
    state = world.areas[_area(world, area)]
    _whole(manpower, MANPOWER_RANGE, "Manpower")
    if guerrilla_value is not None:
        if not spanish_province(state):
            raise EditError(
                f"{state.name} is not a Spanish province: only those have a printed guerrilla "
                "value (EIA-10)."
            )
        _whole(guerrilla_value, GUERRILLA_VALUE_RANGE, "A guerrilla value")
    elif spanish_province(state):
        raise EditError(
            f"{state.name} is a Spanish province: it needs its printed guerrilla value (EIA-10)."
        )
    _check_cap_after_manpower(world, state, manpower)
    status = _minor_status(state, state.controller, minor_status)
    state.manpower, state.guerrilla_value, state.minor_status = manpower, guerrilla_value, status
    parts = [f"manpower {manpower}"]
    if spanish_province(state):
        shown = guerrilla_value if guerrilla_value is not None else "none"
        parts.append(f"guerrilla value {shown}")
    if state.kind == MINOR and state.controller is not None:
        parts.append(
            f"{MINOR_STATUSES[status]} of {_name(world, state.controller)}"
            if status
            else "no minor status"
        )
    return f"{state.name}: {', '.join(parts)}"


def edit_national_modifier(world: World, *, area: str, power: str, value: int) -> str:
    """One cell of the Minor Country Chart: NM(power, minor), from −5 to +5."""
    state = world.areas[_area(world, area)]
    _power(world, power)
    if state.kind != MINOR:
        raise EditError(
            f"{state.name} is a province: the Minor Country Chart lists minor countries only "
            "(a ceded province's modifiers follow from who held it)."
        )
    _whole(value, NATIONAL_MODIFIER_RANGE, "A national modifier")
    world.national_modifiers[(area, power)] = value
    return f"Minor Country Chart: NM({_name(world, power)}, {state.name}) = {value:+d}"


def edit_let_downs(world: World, *, power: str, area: str, count: int) -> str:
    """How many revolts a power has let down in a minor (EIA-1's −L, minors only)."""
    _power(world, power)
    state = world.areas[_area(world, area)]
    if state.kind != MINOR:
        raise EditError(f"{state.name} is a province: let-downs count in minor countries only.")
    _whole(count, LET_DOWN_RANGE, "Revolts let down")
    world.let_downs[(power, area)] = count
    return f"{_name(world, power)} has let down {count} revolt(s) in {state.name}"


def edit_militia_due(world: World, *, power: str, militia: int) -> str:
    """EIA-12: the militia factors Spain receives in its next reinforcement phase."""
    if _power(world, power) != SPAIN:
        raise EditError("Only Spain receives militia for its guerrillas (EIA-12).")
    _whole(militia, MILITIA_RANGE, "Militia factors")
    world.militia_due[power] = militia
    return f"{_name(world, power)} is owed {militia} militia factor(s) (EIA-12)"


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
    """Take a corps off the map (eliminated, disbanded or placed by mistake)."""
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


def _check_cap_after_manpower(world: World, area: Area, manpower: int) -> None:
    """EIA-3: lowering a revolting area's manpower may not leave it over 5 × manpower."""
    cap = 5 * max(1, manpower)
    factors = world.guerrilla_factors(area.key)
    if world.active_revolt(area.key) is not None and factors > cap:
        raise EditError(
            f"{area.name} is in revolt with {factors} guerrilla factors: manpower {manpower} "
            f"would allow only {cap} (EIA-3: 5 × manpower). Remove guerrillas first."
        )


def _check_cap(world: World, area: Area, factors: int, *, besides: Guerrilla | None = None) -> None:
    """EIA-3: an area in revolt never holds more than 5 × its manpower guerrilla factors."""
    if world.active_revolt(area.key) is None:
        return
    others = sum(g.factors for g in world.guerrillas if g.area == area.key and g is not besides)
    if others + factors > area.guerrilla_cap:
        raise EditError(
            f"{area.name} holds at most {area.guerrilla_cap} guerrilla factors (EIA-3: 5 × "
            f"manpower {max(1, area.manpower)}); {others} are there besides these."
        )


def edit_guerrilla(world: World, *, stack: int, besieged: bool, factors: int | None = None) -> str:
    """A guerrilla stack's factors (None: unchanged) and whether it is besieged in a city."""
    state = _by_id(world.guerrillas, stack, "guerrilla stack")
    where = world.areas[state.area]
    if factors is not None:
        _whole(factors, FACTORS_RANGE, "Guerrilla factors")
        if factors > state.factors:
            _check_cap(world, where, factors, besides=state)
        state.factors = factors
    state.besieged = besieged
    status = "besieged" if besieged else "unbesieged"
    who = _name(world, state.nationality)
    return f"{state.factors} {who} guerrilla factor(s) in {where.name}: {status}"


def add_guerrilla(world: World, *, power: str, area: str, factors: int, revolt: bool) -> str:
    """Place guerrilla factors in the area they come from: revolt guerrillas of a power
    that sponsors the active revolt there (EIA-3, EIA-9: they never leave their area of
    origin), or Spanish guerrillas in a Spanish home province (EIA-10). They join an
    unbesieged stack of the same kind there, if any."""
    _power(world, power)
    state = world.areas[_area(world, area)]
    _whole(factors, FACTORS_RANGE, "Guerrilla factors")
    if revolt:
        active = world.active_revolt(area)
        if active is None or active.sponsor != power:
            raise EditError(
                f"{_name(world, power)} sponsors no active revolt in {state.name}: revolt "
                "guerrillas appear only in the area of their revolt (EIA-3, EIA-9)."
            )
    elif power != SPAIN:
        raise EditError(
            f"{_name(world, power)} has no guerrillas without a revolt: only Spain does (EIA-10)."
        )
    elif not spanish_province(state):
        raise EditError(
            f"{state.name} is not a Spanish home province: Spanish guerrillas appear only there "
            "(EIA-10)."
        )
    _check_cap(world, state, factors)
    stack = next(
        (
            g
            for g in world.guerrillas
            if g.area == area
            and g.origin == area
            and g.nationality == power
            and g.revolt == revolt
            and not g.besieged
        ),
        None,
    )
    if stack is None:
        world.guerrillas.append(Guerrilla(None, area, power, factors, origin=area, revolt=revolt))
    else:
        stack.factors += factors
    kind = "revolt" if revolt else "Spanish"
    return f"{factors} {_name(world, power)} {kind} guerrilla factor(s) placed in {state.name}"


def remove_guerrilla(world: World, *, stack: int) -> str:
    """Take a guerrilla stack off the map (destroyed in a field combat the GM resolved)."""
    state = _by_id(world.guerrillas, stack, "guerrilla stack")
    world.guerrillas.remove(state)
    who = _name(world, state.nationality)
    return f"{state.factors} {who} guerrilla factor(s) removed from {world.areas[state.area].name}"


def add_depot(world: World, *, power: str, area: str, port_city: bool, garrison: int) -> str:
    """Place a depot, in a port city or not, with its garrison factors (not in a corps)."""
    _power(world, power)
    _area(world, area)
    if garrison < 0:
        raise EditError("A garrison cannot be negative.")
    world.depots.append(Depot(None, power, area, port_city=port_city, garrison=garrison))
    port = " (port city)" if port_city else ""
    return f"{_name(world, power)} depot{port} in {world.areas[area].name}, garrison {garrison}"


def remove_depot(world: World, *, depot: int) -> str:
    """Take a depot off the map (removed, or destroyed other than by EIA-11)."""
    state = _by_id(world.depots, depot, "depot")
    world.depots.remove(state)
    return f"{_name(world, state.power)} depot in {world.areas[state.area].name} removed"


EDITS = {
    "power": edit_power,
    "militia": edit_militia_due,
    "area": edit_area,
    "area_details": edit_area_details,
    "national_modifier": edit_national_modifier,
    "let_downs": edit_let_downs,
    "corps_add": add_corps,
    "corps": edit_corps,
    "corps_remove": remove_corps,
    "relation": edit_relation,
    "revolt": edit_revolt,
    "spanish_field_loss": spanish_field_loss,
    "guerrilla": edit_guerrilla,
    "guerrilla_add": add_guerrilla,
    "guerrilla_remove": remove_guerrilla,
    "depot_add": add_depot,
    "depot_remove": remove_depot,
}
