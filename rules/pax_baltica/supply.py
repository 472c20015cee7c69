"""Lines of communication (GNW-9, seed 8.5) and fleet movement (GNW-13, seed 9.1).

Pure functions of a ``World``: nothing here changes it. Links are read both ways (the
map's adjacency is symmetric; a one-way entry is taken as a link too), and neighbours
are visited in key order, so every answer is deterministic and a shortest one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.pax_baltica.state import FLEET, FLEET_REACH, GALLEY_REACH, SEA, Block, World
from rules.refusals import Refused, reason_for
from rules.text import CLAUSES, Join, Text

Links = dict[str, set[str]]


def _links(world: World) -> Links:
    links: Links = {}
    for area, others in world.adjacency.items():
        for other in others:
            links.setdefault(area, set()).add(other)
            links.setdefault(other, set()).add(area)
    return links


def _name(world: World, area: str) -> str:
    territory = world.territories.get(area)
    return territory.name if territory else area


def _nation_name(world: World, nation: str) -> str:
    known = world.nations.get(nation)
    return known.name if known else nation


def _is_sea(world: World, area: str) -> bool:
    return world.territories[area].kind == SEA


def _enemy_blocks(world: World, nation: str, area: str) -> list[Block]:
    return [b for b in world.blocks_in(area) if world.enemies(nation, b.nation)]


def _enemy_fleets(world: World, nation: str, area: str) -> list[Block]:
    return [b for b in _enemy_blocks(world, nation, area) if b.kind == FLEET]


def _nations_of(world: World, blocks: list[Block]) -> Text:
    return Join(*sorted({_nation_name(world, b.nation) for b in blocks}), sep=", ")


def _side(world: World, nation: str | None) -> str | None:
    known = world.nations.get(nation) if nation else None
    return known.side if known else None


# -- GNW-9 line of communication ---------------------------------------------------------


def friendly(world: World, nation: str, area: str) -> bool:
    """Seed 1.2: a land territory is friendly when a nation of ``nation``'s side controls
    it, or when it is the home of a nation of that side and no enemy controls it."""
    territory = world.territories[area]
    if territory.kind == SEA:
        return False
    side, holder = world.side_of(nation), _side(world, territory.controller)
    if holder == side:
        return True
    return _side(world, territory.nation) == side and holder in (None, side)


def _own_base(world: World, nation: str, area: str) -> bool:
    """Seed 8.5: a line ends in a territory ``nation`` controls, its own home territory
    or one it has captured (the territory's nation does not matter)."""
    return world.territories[area].controller == nation


def _closed(world: World, nation: str, came_from: str, area: str) -> Text | None:
    """Why the line may not step from ``came_from`` into ``area``; None when it may."""
    territory, origin = world.territories[area], world.territories[came_from]
    name = territory.name
    boarding = origin.kind != SEA and territory.kind == SEA
    if boarding and not (origin.port and friendly(world, nation, came_from)):
        return Text("%(territory)s has no friendly port", territory=origin.name)
    enemies = _enemy_blocks(world, nation, area)
    if enemies:
        return Text(
            "%(territory)s holds enemy blocks (%(nations)s)",
            territory=name,
            nations=_nations_of(world, enemies),
        )
    if territory.kind == SEA:
        if any(b.kind == FLEET and b.nation == nation for b in world.blocks_in(area)):
            return None
        return Text(
            "%(sea)s has no fleet of %(nation)s", sea=name, nation=_nation_name(world, nation)
        )
    if origin.kind == SEA:
        if not territory.port:
            return Text("%(territory)s has no port", territory=name)
        if not friendly(world, nation, area):
            return Text("the port of %(territory)s is not friendly", territory=name)
        return None
    if territory.transit or friendly(world, nation, area):
        return None
    if territory.controller:
        return Text(
            "%(territory)s is held by %(nation)s and is not friendly",
            territory=name,
            nation=_nation_name(world, territory.controller),
        )
    return Text("%(territory)s is neither friendly nor transit", territory=name)


def _trace(world: World, nation: str, area: str | None) -> tuple[list[str] | None, dict[str, Text]]:
    """Breadth-first search from ``area``: the path, else the closed areas next to the
    reached ones, each with the reason it is closed. A start that ``nation`` controls is
    a line by itself (``[area]``), whatever stands there."""
    if area not in world.territories or world.territories[area].kind == SEA:
        return None, {}
    if _own_base(world, nation, area):
        return [area], {}
    links = _links(world)
    came: dict[str, str | None] = {area: None}
    closed: dict[str, Text] = {}
    queue = deque([area])
    while queue:
        here = queue.popleft()
        for there in sorted(links.get(here, ())):
            if there in came:
                continue
            reason = _closed(world, nation, here, there)
            if reason is not None:
                closed.setdefault(there, reason)
                continue
            came[there] = here
            if _own_base(world, nation, there):
                path = [there]
                while (step := came[path[-1]]) is not None:
                    path.append(step)
                return path[::-1], {}
            queue.append(there)
    return None, {key: why for key, why in closed.items() if key not in came}


def line_of_communication(world: World, nation: str, area: str | None) -> list[str] | None:
    """GNW-9: a shortest path of area keys from ``area`` to a territory ``nation``
    controls, through friendly or transit land and through sea zones holding a fleet of
    ``nation`` (boarding and landing at friendly ports), never entering an area with
    enemy blocks; ``[area]`` when ``nation`` controls ``area`` itself (its own territory
    or a captured one); None when there is no line (or ``area`` is a sea zone or not on
    the map, as a pool block's)."""
    return _trace(world, nation, area)[0]


def line_explanation(world: World, nation: str, area: str | None) -> Text:
    """GNW-9 in one sentence: the line of communication, or why there is none."""
    if area not in world.territories:
        return Text("No line of communication: the block is not on the map.")
    path, closed = _trace(world, nation, area)
    who = _nation_name(world, nation)
    start = _name(world, area)
    if path == [area]:
        if world.territories[area].nation == nation:
            return Text(
                "Line of communication: %(territory)s (%(nation)s's own territory, controlled by "
                "%(nation)s).",
                territory=start,
                nation=who,
            )
        return Text(
            "Line of communication: %(territory)s (captured, controlled by %(nation)s).",
            territory=start,
            nation=who,
        )
    if path:
        route = Join(*(_name(world, key) for key in path), sep=" → ")
        return Text(
            "Line of communication: %(route)s (controlled by %(nation)s).", route=route, nation=who
        )
    if world.territories[area].kind == SEA:
        return Text(
            "No line of communication from %(sea)s: it is a sea zone, not a territory.", sea=start
        )
    order = sorted(closed, key=lambda key: _name(world, key))
    reasons = list(dict.fromkeys(closed[key] for key in order)) or [
        Text("no territory controlled by %(nation)s can be reached", nation=who)
    ]
    return Text(
        "No line of communication from %(territory)s: %(reasons)s.",
        territory=start,
        reasons=Join(*reasons, sep=CLAUSES),
    )


# -- GNW-13 fleet movement ---------------------------------------------------------------


@dataclass(frozen=True)
class FleetMove:
    fleet: int
    path: tuple[str, ...]  # the areas actually entered, in order
    stopped_by: str | None  # the sea zone where an enemy fleet stopped it
    zones: int  # movement counted: areas entered, less the free first one out of a port
    text: Text


def fleet_reach(fleet: Block) -> int:
    """GNW-13: sea zones per action: 6, the Russian galley fleet 3."""
    return GALLEY_REACH if fleet.galley else FLEET_REACH


def _enemy_port(world: World, nation: str, area: str) -> bool:
    territory = world.territories[area]
    holder = _side(world, territory.controller)
    held = holder not in (None, world.side_of(nation)) and territory.garrison > 0
    return held or bool(_enemy_blocks(world, nation, area))


def _check_movable(fleet: Block) -> None:
    """Refused unless ``fleet`` is a fleet on the map, not carried."""
    if fleet.kind != FLEET:
        raise Refused(Text("%(block)s is not a fleet.", block=fleet.name))
    if fleet.in_pool:
        raise Refused(Text("%(fleet)s is in the pool.", fleet=fleet.name))
    if fleet.carried_by is not None:
        raise Refused(Text("%(fleet)s is carried by another fleet.", fleet=fleet.name))


def _check_step(world: World, fleet: Block, links: Links, here: str, there: str) -> None:
    """Refused with why ``fleet`` may not sail from ``here`` into ``there``."""
    if there not in world.territories:
        raise Refused(Text("%(area)s is not an area of the map.", area=there))
    target = world.territories[there]
    if there not in links.get(here, ()):
        raise Refused(
            Text(
                "%(area)s is not adjacent to %(start)s.", area=target.name, start=_name(world, here)
            )
        )
    if target.kind == SEA:
        return
    fields = {"fleet": fleet.name, "territory": target.name}
    if not _is_sea(world, here):
        raise Refused(
            Text(
                "%(fleet)s cannot sail overland from %(start)s to %(territory)s.",
                start=_name(world, here),
                **fields,
            )
        )
    if not target.port:
        raise Refused(Text("%(fleet)s cannot enter %(territory)s: it has no port.", **fields))
    if _enemy_port(world, fleet.nation, there):
        raise Refused(
            Text("%(fleet)s cannot enter %(territory)s: the port is held by the enemy.", **fields)
        )


def _allowed(check: Callable[..., None], *args: object) -> bool:
    """Whether ``check(*args)`` passes (raises no Refused)."""
    return reason_for(check, *args) is None


def _leaving_port(world: World, fleet: Block) -> int:
    """1 when the fleet starts in a port: its first step, out into the sea, is free."""
    return 0 if _is_sea(world, fleet.at) else 1


def _check_path(world: World, fleet: Block, path: Sequence[str]) -> None:
    """Refused with why the fleet may not sail along ``path`` (the areas to enter, in
    order). Leaving a port into an adjacent sea zone is free (seed 9.1: leaving is part of
    starting the action); each further sea zone and entering a port (which ends the move)
    count one zone. Enemy fleets, which stop a move, do not make it illegal."""
    _check_movable(fleet)
    if not path:
        raise Refused(Text("No move given for %(fleet)s.", fleet=fleet.name))
    links, here, reach = _links(world), fleet.at, fleet_reach(fleet)
    free = _leaving_port(world, fleet)
    for step, there in enumerate(path, start=1):
        _check_step(world, fleet, links, here, there)
        name, zones = world.territories[there].name, step - free
        if zones > reach:
            raise Refused(
                Text(
                    "%(fleet)s cannot reach %(area)s: %(zones)s zones, more than its %(reach)s.",
                    fleet=fleet.name,
                    area=name,
                    zones=zones,
                    reach=reach,
                )
            )
        if not _is_sea(world, there) and step < len(path):
            raise Refused(
                Text(
                    "Entering the port of %(territory)s ends %(fleet)s's move.",
                    territory=name,
                    fleet=fleet.name,
                )
            )
        here = there


def move_fleet(world: World, fleet: Block, path: Sequence[str]) -> FleetMove:
    """GNW-13: sail a legal ``path`` (the areas to enter, in order), stopping in the first
    sea zone entered that holds an enemy fleet. Does not change the world: the caller
    moves the fleet and the blocks it carries. Refused with why for an illegal path."""
    _check_path(world, fleet, path)
    entered: list[str] = []
    stopped_by, stoppers = None, []
    for there in path:
        entered.append(there)
        stoppers = _enemy_fleets(world, fleet.nation, there)
        if stoppers:
            stopped_by = there
            break
    zones = len(entered) - _leaving_port(world, fleet)
    fields = {
        "fleet": fleet.name,
        "route": Join(*(_name(world, key) for key in (fleet.at, *entered)), sep=" → "),
        "zones": zones,
        "reach": fleet_reach(fleet),
    }
    if stopped_by:
        text = Text(
            "%(fleet)s: %(route)s (%(zones)s of %(reach)s zones), stopped in %(sea)s by an "
            "enemy fleet (%(nations)s).",
            sea=_name(world, stopped_by),
            nations=_nations_of(world, stoppers),
            **fields,
        )
    else:
        text = Text("%(fleet)s: %(route)s (%(zones)s of %(reach)s zones).", **fields)
    return FleetMove(fleet.id, tuple(entered), stopped_by, zones, text)


def _fleet_search(world: World, fleet: Block) -> dict[str, str]:
    """Breadth-first search of the fleet's legal ends: each reachable area and the area
    it is entered from. A port or a sea zone with an enemy fleet ends the move there.
    From a port the count starts at -1, so the first zone out is entered at 0."""
    if not _allowed(_check_movable, fleet):
        return {}
    links, reach = _links(world), fleet_reach(fleet)
    came: dict[str, str] = {}
    queue = deque([(fleet.at, -_leaving_port(world, fleet))])
    while queue:
        here, zones = queue.popleft()  # zones counted on reaching here (-1: a port start)
        if zones >= reach:
            continue
        for there in sorted(links.get(here, ())):
            if there == fleet.location or there in came:
                continue
            if not _allowed(_check_step, world, fleet, links, here, there):
                continue
            came[there] = here
            if _is_sea(world, there) and not _enemy_fleets(world, fleet.nation, there):
                queue.append((there, zones + 1))
    return came


def fleet_destinations(world: World, fleet: Block) -> dict[str, int]:
    """GNW-13: every area the fleet could end this action in (not its start), with the
    fewest zones counted (0 for a sea zone next to the port it starts in). A sea zone
    with an enemy fleet is an end, never passed through."""
    came, free = _fleet_search(world, fleet), _leaving_port(world, fleet)
    return {area: len(_route(came, area)) - free for area in came}


def fleet_route(world: World, fleet: Block, destination: str) -> tuple[str, ...] | None:
    """GNW-13: a shortest legal path to ``destination`` (as ``fleet_destinations`` finds
    it), for ``move_fleet``; None when the fleet cannot end there this action."""
    came = _fleet_search(world, fleet)
    return _route(came, destination) if destination in came else None


def _route(came: dict[str, str], area: str) -> tuple[str, ...]:
    path = [area]
    while path[-1] in came:
        path.append(came[path[-1]])
    return tuple(path[-2::-1])
