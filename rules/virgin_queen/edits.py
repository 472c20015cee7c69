"""What the GM edits by hand in Virgin Queen: everything the card play at the table
changes (moves, battles, sieges, events) that the procedures do not. Each edit changes
the World and returns the sentence the log shows; an unknown reference or an impossible
value raises EditError and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.refusals import EditError, whole
from rules.text import Join, Plural, Text
from rules.virgin_queen.state import (
    CATHOLIC,
    MERCENARY,
    NAVAL,
    PROTESTANT,
    REGULAR,
    TURN_TRACK,
    Units,
    World,
    power_name,
    zone_name,
)

COUNT_RANGE = (0, 30)
MARKER_RANGE = (0, 9)
RELIGIONS = {CATHOLIC: Text("catholic"), PROTESTANT: Text("protestant")}
KINDS = {REGULAR: Text("regular"), MERCENARY: Text("mercenary"), NAVAL: Text("naval")}


def _space(world: World, key: str | None) -> str:
    if key not in world.spaces:
        raise EditError(Text("There is no space “%(space)s”.", space=key))
    return key


def _power(world: World, key: str | None) -> str:
    if key not in world.markers:
        raise EditError(Text("There is no power “%(power)s”.", power=key))
    return key


def edit_space(
    world: World,
    *,
    space: str,
    religion: str,
    controller: str | None,
    unrest: bool,
    fortified: bool,
    besieged: bool,
    zone: str = "",
    key_space: bool = False,
    port: bool = False,
    protestant_home: bool = False,
    capital_of: str | None = None,
) -> Text:
    """A space's religious influence, political control, unrest, fortification, siege,
    and what the scenario says of it: struggle zone, key, port, Protestant home, whose
    capital it is."""
    target = world.spaces[_space(world, space)]
    if religion not in (CATHOLIC, PROTESTANT):
        raise EditError(Text("Religious influence is Catholic or Protestant."))
    for power in (controller, capital_of):
        if power is not None:
            _power(world, power)
    if zone and zone not in world.capitals:
        raise EditError(Text("There is no struggle zone “%(zone)s”.", zone=zone))
    target.religion, target.controller, target.unrest = religion, controller, unrest
    target.fortified, target.besieged, target.zone = fortified, besieged, zone
    target.key_space, target.port, target.protestant_home = key_space, port, protestant_home
    target.capital_of = capital_of
    params = {
        "space": target.name,
        "religion": RELIGIONS[religion],
        "power": power_name(controller),
    }
    flags = [word for word, on in ((Text("unrest"), unrest), (Text("besieged"), besieged)) if on]
    if not flags:
        return Text("%(space)s: %(religion)s, controlled by %(power)s", **params)
    return Text(
        "%(space)s: %(religion)s, controlled by %(power)s, %(flags)s",
        flags=Join(*flags, sep=", "),
        **params,
    )


def set_units(world: World, *, power: str, kind: str, space: str, count: int) -> Text:
    """How many of a power's units of a kind stand in a space (0 removes them)."""
    _power(world, power)
    _space(world, space)
    if kind not in (REGULAR, MERCENARY, NAVAL):
        raise EditError(Text("A unit is a regular, a mercenary or a naval unit."))
    whole(count, COUNT_RANGE, Text("The number of units"))
    stack = next(
        (u for u in world.units.values() if (u.power, u.kind, u.space) == (power, kind, space)),
        None,
    )
    if stack is None:
        world.units[f"new:{power}:{kind}:{space}"] = Units(None, power, kind, space, count)
    else:
        stack.count = count
    return Plural(
        "%(count)s %(power)s %(kind)s unit in %(space)s",
        "%(count)s %(power)s %(kind)s units in %(space)s",
        count=count,
        power=power_name(power),
        kind=KINDS[kind],
        space=world.spaces[space].name,
    )


def move_units(world: World, *, stack: int, to: str, count: int) -> Text:
    """``count`` units of a stack move to another space, joining the power's stack of
    that kind there (a move played at the table)."""
    units = world.units.get(stack)
    if units is None or units.id is None:
        raise EditError(Text("There is no unit stack #%(stack)s.", stack=stack))
    origin = units.space
    if _space(world, to) == origin:
        raise EditError(Text("The units are already in %(space)s.", space=world.spaces[to].name))
    whole(count, (1, units.count), Text("The number of units that move"))
    there = next(
        (
            u
            for u in world.units.values()
            if (u.power, u.kind, u.space) == (units.power, units.kind, to)
        ),
        None,
    )
    if there is not None:
        there.count = whole(there.count + count, COUNT_RANGE, Text("The number of units"))
        units.count -= count
    elif count == units.count:
        units.space = to
    else:
        units.count -= count
        world.units[f"new:{units.power}:{units.kind}:{to}"] = Units(
            None, units.power, units.kind, to, count
        )
    return Plural(
        "%(count)s %(power)s %(kind)s unit moves from %(origin)s to %(space)s",
        "%(count)s %(power)s %(kind)s units move from %(origin)s to %(space)s",
        count=count,
        power=power_name(units.power),
        kind=KINDS[units.kind],
        origin=world.spaces[origin].name,
        space=world.spaces[to].name,
    )


def edit_leader(world: World, *, leader: int, space: str | None, can_enter: bool) -> Text:
    """Where a leader is (None: off the map), and whether it may enter play."""
    target = world.leaders.get(leader)
    if target is None:
        raise EditError(Text("There is no leader #%(leader)s.", leader=leader))
    if space is not None:
        _space(world, space)
    target.space, target.can_enter = space, can_enter
    where = world.spaces[space].name if space else Text("off the map")
    if can_enter:
        return Text("%(leader)s: %(where)s, may enter play", leader=target.name, where=where)
    return Text("%(leader)s: %(where)s", leader=target.name, where=where)


def edit_zone(world: World, *, zone: str, capital: str | None, regulars: int) -> Text:
    """The Protestant's capital in a struggle zone (None: none; TURN_TRACK: captured this
    turn) and the Protestant regulars left for it in the counter mix."""
    if zone not in world.capitals:
        raise EditError(Text("There is no struggle zone “%(zone)s”.", zone=zone))
    if capital not in (None, TURN_TRACK):
        _space(world, capital)
    whole(regulars, COUNT_RANGE, Text("Regulars available"))
    world.capitals[zone], world.counter_mix[zone] = capital, regulars
    where = {None: Text("none"), TURN_TRACK: Text("on the turn track")}.get(
        capital, world.spaces[capital].name if capital in world.spaces else capital
    )
    return Plural(
        "%(zone)s: Protestant capital %(capital)s, %(count)s regular available",
        "%(zone)s: Protestant capital %(capital)s, %(count)s regulars available",
        count=regulars,
        zone=zone_name(zone),
        capital=where,
    )


def edit_power(world: World, *, power: str, catholic: bool) -> Text:
    """Whether a power's regulars and naval units are Catholic units (the Holy Roman
    Empire's religion is chosen at the start of the game)."""
    _power(world, power)
    others = world.catholic_powers - {power}
    world.catholic_powers = others | {power} if catholic else others
    if catholic:
        return Text("%(power)s is a Catholic power", power=power_name(power))
    return Text("%(power)s is not a Catholic power", power=power_name(power))


def set_war(world: World, *, first: str, second: str, at_war: bool) -> Text:
    """Two powers at war, or at peace."""
    pair = frozenset((_power(world, first), _power(world, second)))
    if len(pair) != 2:
        raise EditError(Text("Choose two different powers."))
    (world.wars.add if at_war else world.wars.discard)(pair)
    params = {"first": power_name(first), "second": power_name(second)}
    if at_war:
        return Text("%(first)s and %(second)s are at war", **params)
    return Text("%(first)s and %(second)s are at peace", **params)


def edit_markers(
    world: World, *, power: str, informant: int, assassination_used: int, cipher_key: int
) -> Text:
    """A power's espionage markers (VQ-3)."""
    markers = world.markers[_power(world, power)]
    for value, what in (
        (informant, Text("Informant markers")),
        (assassination_used, Text("Assassination Used markers")),
        (cipher_key, Text("Cipher Key markers")),
    ):
        whole(value, MARKER_RANGE, what)
    markers.informant, markers.assassination_used = informant, assassination_used
    markers.cipher_key = cipher_key
    return Text(
        "%(power)s: %(informant)s Informant, %(assassination)s Assassination Used, "
        "%(cipher)s Cipher Key",
        power=power_name(power),
        informant=informant,
        assassination=assassination_used,
        cipher=cipher_key,
    )


EDITS: dict[str, Callable[..., Text]] = {
    "space": edit_space,
    "units": set_units,
    "units_move": move_units,
    "leader": edit_leader,
    "zone": edit_zone,
    "power": edit_power,
    "war": set_war,
    "markers": edit_markers,
}
