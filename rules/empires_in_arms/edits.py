"""What the GM edits by hand: the state the seeds do not automate.

Each edit changes the World and returns the sentence the log shows. A reference to
something that does not exist, or a value the rules cannot hold, raises EditError and
changes nothing. The EIA-7 immediate endings are checked by the service afterwards.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.empires_in_arms.state import (
    ALLIED,
    CLIENT,
    CONQUERED,
    MINOR,
    PROVINCE,
    SPAIN,
    ZONE_MODIFIERS,
    ZONE_NAMES,
    Area,
    Corps,
    Depot,
    Guerrilla,
    Revolt,
    World,
)
from rules.refusals import EditError, whole
from rules.text import Join, Plural, Text

NATIONAL_MODIFIER_RANGE = (-5, 5)  # a cell of the Minor Country Chart
MANPOWER_RANGE = (0, 20)
GUERRILLA_VALUE_RANGE = (1, 6)  # the printed value of a Spanish province (EIA-10)
FACTORS_RANGE = (1, 99)  # one guerrilla stack
LET_DOWN_RANGE = (0, 9)
MILITIA_RANGE = (0, 999)
MINOR_STATUSES = {
    ALLIED: Text("allied minor"),
    CLIENT: Text("client state"),
    CONQUERED: Text("conquered minor"),
}


def _error(message: str, **params: object) -> EditError:
    """An EditError saying ``message`` (a msgid) with its parameters, as a Text."""
    return EditError(Text(message, **params))


def _power(world: World, key: str | None) -> str:
    if key not in world.powers:
        raise _error(Text("There is no power “%(key)s”."), key=key)
    return key


def _area(world: World, key: str | None) -> str:
    if key not in world.areas:
        raise _error(Text("There is no area “%(key)s”."), key=key)
    return key


def _by_id(items: list, item_id: int | None, missing: str):
    """The item with this id; ``missing`` (a msgid with %(id)s) says there is none."""
    for item in items:
        if item.id is not None and item.id == item_id:
            return item
    raise _error(missing, id=item_id)


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
        raise _error(Text("“%(status)s” is not allied, client or conquered."), status=status)
    if area.kind != MINOR:
        raise _error(
            Text(
                "%(area)s is a province: only a minor country is an allied, client "
                "or conquered minor."
            ),
            area=area.name,
        )
    if controller is None:
        raise _error(
            Text(
                "%(area)s is neutral: a neutral minor is nobody's allied, client "
                "or conquered minor."
            ),
            area=area.name,
        )
    return status


def _name(world: World, key: str | None) -> str:
    if key is None:
        return Text("nobody")
    return world.powers[key].name if key in world.powers else world.areas[key].name


def edit_power(
    world: World,
    *,
    power: str,
    zone: str,
    political_points: int,
    treasury: int,
    pays_bad_roll: bool,
) -> Text:
    """Political zone, PP and treasury of a power, and its standing bad-roll order (the
    log says only whether the order changed: it stays the power's and the GM's)."""
    state = world.powers[_power(world, power)]
    if zone not in ZONE_MODIFIERS:
        raise _error(Text("“%(zone)s” is not a political status zone."), zone=zone)
    order_changed = state.pays_bad_roll != pays_bad_roll
    state.zone, state.political_points, state.treasury = zone, political_points, treasury
    state.pays_bad_roll = pays_bad_roll
    names = {
        "power": state.name,
        "zone": ZONE_NAMES[zone],
        "points": political_points,
        "treasury": treasury,
    }
    if order_changed:
        return Text(
            "%(power)s: %(zone)s zone, %(points)s PP, $%(treasury)s; "
            "standing order for bad rolls changed",
            **names,
        )
    return Text("%(power)s: %(zone)s zone, %(points)s PP, $%(treasury)s", **names)


def edit_area(
    world: World,
    *,
    area: str,
    controller: str | None,
    ceded: bool,
    minor_status: str | None = None,
) -> Text:
    """Who controls an area (None: a neutral minor) and whether a province is ceded.

    A minor that becomes neutral or changes controller loses its allied / client /
    conquered status unless ``minor_status`` gives the new one (None: keep or clear)."""
    state = world.areas[_area(world, area)]
    if controller is not None:
        _power(world, controller)
    _check_control(world, state, controller, ceded)
    if minor_status is not None:
        status = _minor_status(state, controller, minor_status)
    elif controller != state.controller or state.kind != MINOR:
        status = ""
    else:
        status = state.minor_status
    state.controller, state.ceded, state.minor_status = controller, ceded, status
    names = {"area": state.name, "controller": _name(world, controller)}
    if status:
        return Text(
            "%(area)s: controlled by %(controller)s, %(status)s",
            status=MINOR_STATUSES[status],
            **names,
        )
    if ceded:
        return Text("%(area)s: controlled by %(controller)s, ceded", **names)
    return Text("%(area)s: controlled by %(controller)s", **names)


def _check_control(world: World, area: Area, controller: str | None, ceded: bool) -> None:
    """Only a minor is neutral; only a province of a home nation held by another power
    is ceded."""
    if controller is None and area.kind == PROVINCE:
        raise _error(
            Text(
                "%(area)s is a province: it always has a controller (only a minor country "
                "can be neutral)."
            ),
            area=area.name,
        )
    if not ceded:
        return
    if area.kind != PROVINCE:
        raise _error(Text("%(area)s is a minor country: only provinces are ceded."), area=area.name)
    if area.home_power is None:
        raise _error(
            Text("%(area)s belongs to no power's home nation, so it cannot be ceded."),
            area=area.name,
        )
    if controller == area.home_power:
        raise _error(
            Text(
                "%(area)s is held by its home power, %(power)s: a ceded province is held by "
                "another power."
            ),
            area=area.name,
            power=_name(world, controller),
        )


def edit_area_details(
    world: World, *, area: str, manpower: int, guerrilla_value: int | None, minor_status: str
) -> Text:
    """An area's manpower (EIA-3's cap), a Spanish province's printed guerrilla value
    (EIA-10; None for every other area) and how its controller holds a minor."""
    state = world.areas[_area(world, area)]
    whole(manpower, MANPOWER_RANGE, Text("Manpower"))
    if guerrilla_value is not None:
        if not spanish_province(state):
            raise _error(
                Text(
                    "%(area)s is not a Spanish province: only those have a printed guerrilla "
                    "value (EIA-10)."
                ),
                area=state.name,
            )
        whole(guerrilla_value, GUERRILLA_VALUE_RANGE, Text("A guerrilla value"))
    elif spanish_province(state):
        raise _error(
            Text("%(area)s is a Spanish province: it needs its printed guerrilla value (EIA-10)."),
            area=state.name,
        )
    _check_cap_after_manpower(world, state, manpower)
    status = _minor_status(state, state.controller, minor_status)
    state.manpower, state.guerrilla_value, state.minor_status = manpower, guerrilla_value, status
    return Text("%(area)s: %(details)s", area=state.name, details=_details(world, state))


def _details(world: World, area: Area) -> Text:
    """ "manpower 3, guerrilla value 4" or "manpower 2, client state of France"."""
    parts = [Text("manpower %(manpower)s", manpower=area.manpower)]
    if spanish_province(area):
        parts.append(Text("guerrilla value %(value)s", value=area.guerrilla_value))
    if area.kind == MINOR and area.controller is not None:
        if area.minor_status:
            parts.append(
                Text(
                    "%(status)s of %(power)s",
                    status=MINOR_STATUSES[area.minor_status],
                    power=_name(world, area.controller),
                )
            )
        else:
            parts.append(Text("no minor status"))
    return Join(*parts, sep=", ")


def edit_national_modifier(world: World, *, area: str, power: str, value: int) -> Text:
    """One cell of the Minor Country Chart: NM(power, minor), from −5 to +5."""
    state = world.areas[_area(world, area)]
    _power(world, power)
    if state.kind != MINOR:
        raise _error(
            Text(
                "%(area)s is a province: the Minor Country Chart lists minor countries only "
                "(a ceded province's modifiers follow from who held it)."
            ),
            area=state.name,
        )
    whole(value, NATIONAL_MODIFIER_RANGE, Text("A national modifier"))
    world.national_modifiers[(area, power)] = value
    return Text(
        "Minor Country Chart: NM(%(power)s, %(area)s) = %(value)s",
        power=_name(world, power),
        area=state.name,
        value=f"{value:+d}",
    )


def edit_let_downs(world: World, *, power: str, area: str, count: int) -> Text:
    """How many revolts a power has let down in a minor (EIA-1's −L, minors only)."""
    _power(world, power)
    state = world.areas[_area(world, area)]
    if state.kind != MINOR:
        raise _error(
            Text("%(area)s is a province: let-downs count in minor countries only."),
            area=state.name,
        )
    whole(count, LET_DOWN_RANGE, Text("Revolts let down"))
    world.let_downs[(power, area)] = count
    return Plural(
        "%(power)s has let down %(count)s revolt in %(area)s",
        "%(power)s has let down %(count)s revolts in %(area)s",
        count=count,
        power=_name(world, power),
        area=state.name,
    )


def edit_militia_due(world: World, *, power: str, militia: int) -> Text:
    """EIA-12: the militia factors Spain receives in its next reinforcement phase."""
    if _power(world, power) != SPAIN:
        raise _error(Text("Only Spain receives militia for its guerrillas (EIA-12)."))
    whole(militia, MILITIA_RANGE, Text("Militia factors"))
    world.militia_due[power] = militia
    return Plural(
        "%(power)s is owed %(count)s militia factor (EIA-12)",
        "%(power)s is owed %(count)s militia factors (EIA-12)",
        count=militia,
        power=_name(world, power),
    )


def add_corps(world: World, *, power: str, area: str, name: str, minor: str | None) -> Text:
    """Place a corps (of the power, or of a minor it controls)."""
    _power(world, power)
    _area(world, area)
    if minor is not None and world.areas[_area(world, minor)].controller != power:
        raise _error(
            Text("%(minor)s is not controlled by %(power)s."),
            minor=world.areas[minor].name,
            power=_name(world, power),
        )
    world.corps.append(Corps(None, power, area, name=name, minor=minor))
    names = {"power": _name(world, power), "name": name, "area": world.areas[area].name}
    if minor:
        return Text(
            "%(power)s %(minor)s corps %(name)s placed in %(area)s",
            minor=world.areas[minor].name,
            **names,
        )
    return Text("%(power)s corps %(name)s placed in %(area)s", **names)


def edit_corps(
    world: World, *, corps: int, area: str, fought: bool, besieged: bool, besieging: bool
) -> Text:
    """Move a corps and set its land-combat and siege flags."""
    state = _by_id(world.corps, corps, Text("There is no corps #%(id)s."))
    state.area = _area(world, area)
    state.fought, state.besieged, state.besieging = fought, besieged, besieging
    return Text(
        "%(power)s corps %(name)s in %(area)s: %(flags)s",
        power=_name(world, state.power),
        name=state.name,
        area=world.areas[area].name,
        flags=_corps_flags(state),
    )


def _corps_flags(corps: Corps) -> Text:
    """ "fought, besieging", or "ready" for a corps with no flag set."""
    names = (Text("fought"), Text("besieged"), Text("besieging"))
    values = (corps.fought, corps.besieged, corps.besieging)
    flags = [text for text, on in zip(names, values, strict=True) if on]
    return Join(*flags, sep=", ") if flags else Text("ready")


def remove_corps(world: World, *, corps: int) -> Text:
    """Take a corps off the map (eliminated, disbanded or placed by mistake)."""
    state = _by_id(world.corps, corps, Text("There is no corps #%(id)s."))
    world.corps.remove(state)
    return Text(
        "%(power)s corps %(name)s removed from %(area)s",
        power=_name(world, state.power),
        name=state.name,
        area=world.areas[state.area].name,
    )


def edit_relation(world: World, *, a: str, b: str, kind: str) -> Text:
    """War, alliance or peace between two powers."""
    pair = frozenset((_power(world, a), _power(world, b)))
    if a == b:
        raise _error(Text("A power has no relation with itself."))
    if kind not in ("war", "alliance", "peace"):
        raise _error(Text("“%(kind)s” is not war, alliance or peace."), kind=kind)
    world.wars.discard(pair)
    world.alliances.discard(pair)
    if kind == "war":
        world.wars.add(pair)
    elif kind == "alliance":
        world.alliances.add(pair)
    names = {"a": _name(world, a), "b": _name(world, b)}
    if kind == "war":
        return Text("%(a)s and %(b)s are at war", **names)
    if kind == "alliance":
        return Text("%(a)s and %(b)s are allied", **names)
    return Text("%(a)s and %(b)s are at peace", **names)


def edit_revolt(world: World, *, revolt: int, capital_held_months: int) -> Text:
    """Months the revolt's guerrillas have held the capital unbesieged (EIA-8)."""
    active = [r for r in world.revolts if r.active]
    state: Revolt = _by_id(active, revolt, Text("There is no active revolt #%(id)s."))
    if capital_held_months < 0:
        raise _error(Text("Months cannot be negative."))
    state.capital_held_months = capital_held_months
    return Plural(
        "Revolt in %(area)s: capital held for %(count)s month",
        "Revolt in %(area)s: capital held for %(count)s months",
        count=capital_held_months,
        area=world.areas[state.area].name,
    )


def spanish_field_loss(world: World, *, area: str) -> Text:
    """EIA-10: Spain lost a field combat with a Spanish corps in an unceded home province:
    one Spanish guerrilla factor is created there at once."""
    state = world.areas[_area(world, area)]
    if state.kind != PROVINCE or state.home_power != SPAIN or state.ceded:
        raise _error(Text("%(area)s is not an unceded Spanish home province."), area=state.name)
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
    return Text(
        "Spain lost a field combat in %(area)s: one Spanish guerrilla factor created (EIA-10)",
        area=state.name,
    )


def _check_cap_after_manpower(world: World, area: Area, manpower: int) -> None:
    """EIA-3: lowering a revolting area's manpower may not leave it over 5 × manpower."""
    cap = 5 * max(1, manpower)
    factors = world.guerrilla_factors(area.key)
    if world.active_revolt(area.key) is not None and factors > cap:
        raise _error(
            Text(
                "%(area)s is in revolt with %(factors)s guerrilla factors: manpower "
                "%(manpower)s would allow only %(cap)s (EIA-3: 5 × manpower). Remove "
                "guerrillas first."
            ),
            area=area.name,
            factors=factors,
            manpower=manpower,
            cap=cap,
        )


def _check_cap(world: World, area: Area, factors: int, *, besides: Guerrilla | None = None) -> None:
    """EIA-3: an area in revolt never holds more than 5 × its manpower guerrilla factors."""
    if world.active_revolt(area.key) is None:
        return
    others = sum(g.factors for g in world.guerrillas if g.area == area.key and g is not besides)
    if others + factors > area.guerrilla_cap:
        raise _error(
            Text(
                "%(area)s holds at most %(cap)s guerrilla factors (EIA-3: 5 × manpower "
                "%(manpower)s); %(others)s are there besides these."
            ),
            area=area.name,
            cap=area.guerrilla_cap,
            manpower=max(1, area.manpower),
            others=others,
        )


def edit_guerrilla(world: World, *, stack: int, besieged: bool, factors: int | None = None) -> Text:
    """A guerrilla stack's factors (None: unchanged) and whether it is besieged in a city."""
    state = _by_id(world.guerrillas, stack, Text("There is no guerrilla stack #%(id)s."))
    where = world.areas[state.area]
    if factors is not None:
        whole(factors, FACTORS_RANGE, Text("Guerrilla factors"))
        if factors > state.factors:
            _check_cap(world, where, factors, besides=state)
        state.factors = factors
    state.besieged = besieged
    names = {"count": state.factors, "power": _name(world, state.nationality), "area": where.name}
    if besieged:
        return Plural(
            "%(count)s %(power)s guerrilla factor in %(area)s: besieged",
            "%(count)s %(power)s guerrilla factors in %(area)s: besieged",
            **names,
        )
    return Plural(
        "%(count)s %(power)s guerrilla factor in %(area)s: unbesieged",
        "%(count)s %(power)s guerrilla factors in %(area)s: unbesieged",
        **names,
    )


def add_guerrilla(world: World, *, power: str, area: str, factors: int, revolt: bool) -> Text:
    """Place guerrilla factors in the area they come from: revolt guerrillas of a power
    that sponsors the active revolt there (EIA-3, EIA-9: they never leave their area of
    origin), or Spanish guerrillas in a Spanish home province (EIA-10). They join an
    unbesieged stack of the same kind there, if any."""
    _power(world, power)
    state = world.areas[_area(world, area)]
    whole(factors, FACTORS_RANGE, Text("Guerrilla factors"))
    _check_origin(world, power, state, revolt)
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
    names = {"power": _name(world, power), "area": state.name}
    if revolt:
        return Plural(
            "%(count)s %(power)s revolt guerrilla factor placed in %(area)s",
            "%(count)s %(power)s revolt guerrilla factors placed in %(area)s",
            count=factors,
            **names,
        )
    return Plural(
        "%(count)s %(power)s Spanish guerrilla factor placed in %(area)s",
        "%(count)s %(power)s Spanish guerrilla factors placed in %(area)s",
        count=factors,
        **names,
    )


def _check_origin(world: World, power: str, area: Area, revolt: bool) -> None:
    """Revolt guerrillas appear only in their sponsor's revolt, Spanish ones only in
    Spain's home provinces (EIA-3, EIA-9, EIA-10)."""
    names = {"power": _name(world, power), "area": area.name}
    if revolt:
        active = world.active_revolt(area.key)
        if active is None or active.sponsor != power:
            raise _error(
                Text(
                    "%(power)s sponsors no active revolt in %(area)s: revolt guerrillas "
                    "appear only in the area of their revolt (EIA-3, EIA-9)."
                ),
                **names,
            )
    elif power != SPAIN:
        raise _error(
            Text("%(power)s has no guerrillas without a revolt: only Spain does (EIA-10)."),
            **names,
        )
    elif not spanish_province(area):
        raise _error(
            Text(
                "%(area)s is not a Spanish home province: Spanish guerrillas appear only "
                "there (EIA-10)."
            ),
            **names,
        )


def remove_guerrilla(world: World, *, stack: int) -> Text:
    """Take a guerrilla stack off the map (destroyed in a field combat the GM resolved)."""
    state = _by_id(world.guerrillas, stack, Text("There is no guerrilla stack #%(id)s."))
    world.guerrillas.remove(state)
    return Plural(
        "%(count)s %(power)s guerrilla factor removed from %(area)s",
        "%(count)s %(power)s guerrilla factors removed from %(area)s",
        count=state.factors,
        power=_name(world, state.nationality),
        area=world.areas[state.area].name,
    )


def add_depot(world: World, *, power: str, area: str, port_city: bool, garrison: int) -> Text:
    """Place a depot, in a port city or not, with its garrison factors (not in a corps)."""
    _power(world, power)
    _area(world, area)
    if garrison < 0:
        raise _error(Text("A garrison cannot be negative."))
    world.depots.append(Depot(None, power, area, port_city=port_city, garrison=garrison))
    names = {"power": _name(world, power), "area": world.areas[area].name, "garrison": garrison}
    if port_city:
        return Text("%(power)s depot (port city) in %(area)s, garrison %(garrison)s", **names)
    return Text("%(power)s depot in %(area)s, garrison %(garrison)s", **names)


def remove_depot(world: World, *, depot: int) -> Text:
    """Take a depot off the map (removed, or destroyed other than by EIA-11)."""
    state = _by_id(world.depots, depot, Text("There is no depot #%(id)s."))
    world.depots.remove(state)
    return Text(
        "%(power)s depot in %(area)s removed",
        power=_name(world, state.power),
        area=world.areas[state.area].name,
    )


EDITS: dict[str, Callable[..., Text]] = {
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
