"""GNW-13 fleet movement (seed 9.1): the pb_world map, then random small seas."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.pax_baltica.state import (
    ARMY,
    COALITION,
    FLEET,
    FLEET_REACH,
    GALLEY_REACH,
    SEA,
    SWEDEN_SIDE,
    TERRITORY,
    Block,
    Nation,
    Territory,
    World,
)
from rules.pax_baltica.supply import (
    fleet_destinations,
    fleet_reach,
    fleet_route,
    move_fleet,
)
from rules.refusals import Refused
from tests.unit.pb_world import build_world

GULF, CENTRAL, SOUTH, SKAG = "gulf_of_bothnia", "central_baltic", "southern_baltic", "skagerrak"


def world_without_galley() -> World:
    world = build_world()
    world.blocks[8].location = None
    return world


def swedes(world: World) -> Block:
    return world.blocks[6]  # in Stockholm's port


def refusal_of(world: World, fleet: Block, path) -> str | None:
    """Why move_fleet refuses ``path``; None when the fleet sails it."""
    try:
        move_fleet(world, fleet, path)
    except Refused as refused:
        return refused.text
    return None


def test_reach_six_and_the_galley_three():
    world = build_world()
    assert fleet_reach(swedes(world)) == FLEET_REACH == 6
    assert fleet_reach(world.blocks[8]) == GALLEY_REACH == 3


# -- reach -------------------------------------------------------------------------------


def test_from_a_port_seven_areas_entered_are_six_zones_and_eight_are_seven():
    """9.1: leaving a port is part of starting the action, so the first zone out is free."""
    world = world_without_galley()
    seven = [GULF, CENTRAL, SOUTH, SKAG, SOUTH, CENTRAL, GULF]
    assert refusal_of(world, swedes(world), seven) is None
    move = move_fleet(world, swedes(world), seven)
    assert (move.path, move.zones, move.stopped_by) == (tuple(seven), 6, None)
    assert refusal_of(world, swedes(world), [*seven, CENTRAL]) == (
        "Swedish fleet cannot reach Central Baltic: 7 zones, more than its 6."
    )


def test_from_a_sea_zone_six_zones_and_not_seven():
    world = world_without_galley()
    swedes(world).location = CENTRAL
    six = [GULF, CENTRAL, SOUTH, SKAG, SOUTH, CENTRAL]
    assert refusal_of(world, swedes(world), six) is None
    move = move_fleet(world, swedes(world), six)
    assert (move.path, move.zones, move.stopped_by) == (tuple(six), 6, None)
    assert refusal_of(world, swedes(world), [*six, GULF]) == (
        "Swedish fleet cannot reach Gulf of Bothnia: 7 zones, more than its 6."
    )


def test_entering_a_port_counts_one_zone_from_a_port():
    world = world_without_galley()
    seven = [GULF, CENTRAL, SOUTH, SKAG, SOUTH, CENTRAL, "livland"]
    assert move_fleet(world, swedes(world), seven).zones == 6
    eight = [CENTRAL, *seven]
    assert refusal_of(world, swedes(world), eight) == (
        "Swedish fleet cannot reach Livland: 7 zones, more than its 6."
    )


def test_entering_a_port_counts_one_zone_from_a_sea_zone():
    world = world_without_galley()
    swedes(world).location = CENTRAL
    six = [SOUTH, SKAG, SOUTH, CENTRAL, GULF, "stockholm"]
    move = move_fleet(world, swedes(world), six)
    assert (move.path, move.zones) == (tuple(six), 6)
    seven = [GULF, CENTRAL, SOUTH, SKAG, SOUTH, CENTRAL, "livland"]
    assert refusal_of(world, swedes(world), seven) == (
        "Swedish fleet cannot reach Livland: 7 zones, more than its 6."
    )


def test_leaving_a_port_costs_nothing():
    world = world_without_galley()
    move = move_fleet(world, swedes(world), [CENTRAL])
    assert (move.path, move.zones) == ((CENTRAL,), 0)
    assert move.text == "Swedish fleet: Stockholm → Central Baltic (0 of 6 zones)."
    back = move_fleet(world, swedes(world), [CENTRAL, "stockholm"])  # out and back in
    assert back.zones == 1
    across = move_fleet(world, swedes(world), [CENTRAL, "livland"])  # out, then into a port
    assert (across.zones, across.text) == (
        1,
        "Swedish fleet: Stockholm → Central Baltic → Livland (1 of 6 zones).",
    )


def test_the_galley_fleet_moves_three():
    world = build_world()
    galley = world.blocks[8]  # at sea in the Central Baltic
    move = move_fleet(world, galley, [SOUTH, CENTRAL, "kurland"])  # Russians hold Kurland
    assert (move.path, move.zones) == ((SOUTH, CENTRAL, "kurland"), 3)
    assert refusal_of(world, galley, [SOUTH, SKAG, SOUTH, CENTRAL]) == (
        "Galley fleet cannot reach Central Baltic: 4 zones, more than its 3."
    )


def test_the_galley_fleet_in_port_reaches_a_port_three_zones_away():
    """The first zone out of Kurland is free; then Southern Baltic, Skagerrak and the
    port of Akershus (Danish, an ally's) count three."""
    world = build_world()
    galley = world.blocks[8]
    galley.location = "kurland"
    route = (CENTRAL, SOUTH, SKAG, "akershus")
    assert refusal_of(world, galley, route) is None
    move = move_fleet(world, galley, route)
    assert (move.path, move.zones, move.stopped_by) == (route, 3, None)
    assert move.text == (
        "Galley fleet: Kurland → Central Baltic → Southern Baltic → Skagerrak → Akershus "
        "(3 of 3 zones)."
    )
    assert fleet_destinations(world, galley)["akershus"] == 3
    assert fleet_route(world, galley, "akershus") == route
    assert refusal_of(world, galley, [CENTRAL, SOUTH, SKAG, SOUTH, "copenhagen"]) == (
        "Galley fleet cannot reach Copenhagen: 4 zones, more than its 3."
    )


def test_a_repeated_zone_is_allowed_and_counted_again():
    world = world_without_galley()
    assert move_fleet(world, swedes(world), [CENTRAL, GULF, CENTRAL, GULF]).zones == 3


# -- stops -------------------------------------------------------------------------------


def test_a_fleet_stops_on_entering_a_zone_with_an_enemy_fleet():
    world = build_world()  # the Russian galley fleet is in the Central Baltic
    move = move_fleet(world, swedes(world), [GULF, CENTRAL, SOUTH])
    assert (move.path, move.stopped_by, move.zones) == ((GULF, CENTRAL), CENTRAL, 1)
    assert move.text == (
        "Swedish fleet: Stockholm → Gulf of Bothnia → Central Baltic (1 of 6 zones), "
        "stopped in Central Baltic by an enemy fleet (Russia)."
    )


def test_an_allied_fleet_does_not_stop_a_fleet():
    world = build_world()
    world.blocks[7].location = SOUTH  # the Danish fleet
    move = move_fleet(world, world.blocks[8], [SOUTH, SKAG])
    assert (move.path, move.stopped_by) == ((SOUTH, SKAG), None)


def test_a_fleet_may_leave_a_zone_with_an_enemy_fleet():
    world = build_world()
    world.blocks[6].location = CENTRAL  # Swedes at sea beside the galleys
    move = move_fleet(world, world.blocks[8], [SOUTH, SKAG])
    assert (move.path, move.stopped_by) == ((SOUTH, SKAG), None)


def test_enemy_armies_at_sea_do_not_stop_a_fleet():
    world = world_without_galley()
    carried = world.blocks[2]
    carried.location, carried.carried_by = GULF, 99  # a Russian army aboard, no fleet here
    assert move_fleet(world, swedes(world), [GULF, CENTRAL]).stopped_by is None


# -- refusals ----------------------------------------------------------------------------


def test_a_port_held_by_the_enemy_is_closed():
    world = world_without_galley()
    fleet = swedes(world)
    world.blocks[6].location = SOUTH
    # Copenhagen: a Danish garrison (and the Danish fleet)
    assert refusal_of(world, fleet, ["copenhagen"]) == (
        "Swedish fleet cannot enter Copenhagen: the port is held by the enemy."
    )
    world.blocks[7].location = SKAG
    assert refusal_of(world, fleet, ["copenhagen"]) is not None  # the garrison alone
    world.territories["copenhagen"].garrison = 0
    assert refusal_of(world, fleet, ["copenhagen"]) is None  # no marker, no blocks
    fleet.location = CENTRAL
    # Kurland: no garrison (transit), but Russian armies
    assert refusal_of(world, fleet, ["kurland"]) == (
        "Swedish fleet cannot enter Kurland: the port is held by the enemy."
    )


def test_a_captured_port_is_open_to_its_captor():
    world = world_without_galley()
    world.territories["akershus"].controller = "sweden"
    fleet = swedes(world)
    assert refusal_of(world, fleet, [CENTRAL, SOUTH, SKAG, "akershus"]) is None
    assert refusal_of(world, world.blocks[7], [SKAG, "akershus"]) is not None


def test_a_territory_without_a_port_is_closed():
    world = world_without_galley()
    world.territories["livland"].port = False
    assert refusal_of(world, swedes(world), [CENTRAL, "livland"]) == (
        "Swedish fleet cannot enter Livland: it has no port."
    )


def test_entering_a_port_ends_the_move():
    world = world_without_galley()
    assert refusal_of(world, swedes(world), [CENTRAL, "livland", CENTRAL]) == (
        "Entering the port of Livland ends Swedish fleet's move."
    )


def test_steps_must_be_adjacent_and_by_sea():
    world = world_without_galley()
    assert refusal_of(world, swedes(world), [SOUTH]) == (
        "Southern Baltic is not adjacent to Stockholm."
    )
    assert refusal_of(world, swedes(world), ["atlantis"]) == "atlantis is not an area of the map."
    world.blocks[6].location = "livland"
    assert refusal_of(world, swedes(world), ["kurland"]) == (
        "Swedish fleet cannot sail overland from Livland to Kurland."
    )
    assert refusal_of(world, swedes(world), ["velikaya"]) == (
        "Swedish fleet cannot sail overland from Livland to Velikaya."
    )


def test_only_a_fleet_on_the_map_and_not_carried_moves():
    world = world_without_galley()
    assert refusal_of(world, world.blocks[2], [CENTRAL]) == "Pyotr I is not a fleet."
    world.blocks[6].location = None
    assert refusal_of(world, swedes(world), [CENTRAL]) == "Swedish fleet is in the pool."
    world.blocks[6].location, world.blocks[6].carried_by = CENTRAL, 7
    assert refusal_of(world, swedes(world), [GULF]) == (
        "Swedish fleet is carried by another fleet."
    )
    assert fleet_destinations(world, swedes(world)) == {}


def test_an_empty_path_is_refused():
    world = build_world()
    assert refusal_of(world, swedes(world), []) == "No move given for Swedish fleet."


def test_move_fleet_raises_the_refusal_and_changes_nothing():
    world = build_world()
    before = copy.deepcopy(world)
    with pytest.raises(Refused, match="not adjacent"):
        move_fleet(world, swedes(world), [SKAG])
    move_fleet(world, swedes(world), [GULF, CENTRAL])
    fleet_destinations(world, swedes(world))
    assert world == before


# -- destinations ------------------------------------------------------------------------


def test_destinations_stop_at_an_enemy_fleet():
    world = build_world()
    assert fleet_destinations(world, swedes(world)) == {GULF: 0, CENTRAL: 0}


def test_destinations_with_the_fewest_zones():
    world = world_without_galley()
    assert fleet_destinations(world, swedes(world)) == {
        GULF: 0,  # out of Stockholm's port: free
        CENTRAL: 0,
        "livland": 1,
        SOUTH: 1,
        SKAG: 2,
    }  # Kurland holds Russians; Copenhagen, Akershus and Christiansand Danish garrisons
    assert fleet_route(world, swedes(world), SKAG) == (CENTRAL, SOUTH, SKAG)
    assert fleet_route(world, swedes(world), "copenhagen") is None
    assert fleet_route(world, swedes(world), "stockholm") is None  # its start


def test_galley_destinations():
    world = build_world()
    assert fleet_destinations(world, world.blocks[8]) == {
        GULF: 1,
        "kurland": 1,
        SOUTH: 1,
        "copenhagen": 2,
        SKAG: 2,
        "akershus": 3,
        "christiansand": 3,
    }


# -- properties on random small seas -----------------------------------------------------

NATIONS = {"sweden": SWEDEN_SIDE, "holstein": SWEDEN_SIDE, "russia": COALITION}
nation_keys = st.sampled_from(sorted(NATIONS))


@st.composite
def seas(draw) -> World:
    """Sea zones s0.. and land territories l0.. (some ports), the moving fleet (id 1) at
    sea or in a port, and other blocks anywhere."""
    zones = [f"s{i}" for i in range(draw(st.integers(1, 6)))]
    lands = [f"l{i}" for i in range(draw(st.integers(0, 4)))]
    areas = zones + lands
    territories = {key: Territory(key, key.upper(), SEA) for key in zones}
    for key in lands:
        territories[key] = Territory(
            key,
            key.upper(),
            TERRITORY,
            controller=draw(st.none() | nation_keys),
            port=draw(st.booleans()),
            garrison=draw(st.integers(0, 2)),
        )
    pair = st.tuples(st.sampled_from(areas), st.sampled_from(areas)).filter(lambda p: p[0] != p[1])
    pairs = list(zip(zones, zones[1:], strict=False))  # a chain of zones, ports on it
    pairs += [(key, draw(st.sampled_from(zones))) for key in lands]
    adjacency: dict[str, set[str]] = {}
    for a, b in pairs + draw(st.lists(pair, max_size=8)):
        adjacency.setdefault(a, set()).add(b)
        adjacency.setdefault(b, set()).add(a)
    start = draw(st.sampled_from(zones + [k for k in lands if territories[k].port]))
    fleet = Block(1, "sweden", FLEET, "Fleet", 2, 4, location=start, galley=draw(st.booleans()))
    blocks = {1: fleet}
    placed = st.tuples(nation_keys, st.sampled_from((ARMY, FLEET)), st.sampled_from(areas))
    for i, (nation, kind, area) in enumerate(draw(st.lists(placed, max_size=6)), start=2):
        blocks[i] = Block(i, nation, kind, f"b{i}", 1, 4, location=area)
    nations = {key: Nation(key, key.title(), side) for key, side in NATIONS.items()}
    return World(nations, territories, adjacency, blocks)


@st.composite
def voyages(draw):
    """A world and a path: mostly a walk along links, now and then a jump anywhere."""
    world = draw(seas())
    here, path = world.blocks[1].location, []
    for _ in range(draw(st.integers(1, 9))):
        near = sorted(world.adjacency.get(here, ()))
        jump = not near or draw(st.integers(0, 19)) == 0
        here = draw(st.sampled_from(sorted(world.territories) if jump else near))
        path.append(here)
    return world, path


def free_start(world: World, fleet: Block) -> int:
    """1 when the fleet starts in a port: the first zone out is not counted."""
    return int(world.territories[fleet.location].kind != SEA)


def enemy_fleet_in(world: World, area: str) -> bool:
    return any(
        b.kind == FLEET and world.side_of(b.nation) != SWEDEN_SIDE for b in world.blocks_in(area)
    )


@given(voyages())
def test_a_move_never_exceeds_the_reach_nor_ends_in_a_portless_territory(voyage):
    world, path = voyage
    fleet = world.blocks[1]
    free = free_start(world, fleet)
    before = copy.deepcopy(world)
    refusal = refusal_of(world, fleet, path)
    if len(path) - free > fleet_reach(fleet) or not path:
        assert refusal is not None
    if refusal is not None:
        assert world == before
        return
    move = move_fleet(world, fleet, path)
    assert world == before
    assert 0 <= move.zones == len(move.path) - free <= fleet_reach(fleet)
    assert move.path == tuple(path[: len(move.path)])
    for area in move.path:
        territory = world.territories[area]
        assert territory.kind == SEA or (territory.port and area == move.path[-1])
    assert not any(enemy_fleet_in(world, area) for area in move.path[:-1])
    if move.stopped_by is None:
        assert move.path == tuple(path)
    else:
        assert move.stopped_by == move.path[-1] and enemy_fleet_in(world, move.stopped_by)
    end = move.path[-1]
    assert end == fleet.location or fleet_destinations(world, fleet)[end] <= move.zones


@given(seas())
def test_every_destination_is_reached_by_a_legal_move_of_that_many_zones(world):
    fleet = world.blocks[1]
    free = free_start(world, fleet)
    destinations = fleet_destinations(world, fleet)
    if free:  # every sea zone off the port it starts in is reached for nothing
        for area in world.adjacency.get(fleet.location, ()):
            assert world.territories[area].kind != SEA or destinations[area] == 0
    for area, zones in destinations.items():
        territory = world.territories[area]
        assert area != fleet.location
        assert 1 - free <= zones <= fleet_reach(fleet)
        assert territory.kind == SEA or territory.port
        route = fleet_route(world, fleet, area)
        assert refusal_of(world, fleet, route) is None
        move = move_fleet(world, fleet, route)
        assert (move.path[-1], move.zones) == (area, zones)
