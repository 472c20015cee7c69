"""GNW-9 line of communication (seed 8.5): the pb_world map, then random small maps."""

from __future__ import annotations

from collections import deque

from hypothesis import given
from hypothesis import strategies as st

from rules.pax_baltica.state import (
    ARMY,
    COALITION,
    FLEET,
    SEA,
    SWEDEN_SIDE,
    TERRITORY,
    Block,
    Nation,
    Territory,
    World,
)
from rules.pax_baltica.supply import friendly, line_explanation, line_of_communication
from tests.unit.pb_world import build_world


def add(world: World, nation: str, kind: str, area: str) -> Block:
    block = Block(
        max(world.blocks, default=0) + 1, nation, kind, f"{nation} {kind}", 2, 4, location=area
    )
    world.blocks[block.id] = block
    return block


def clear(world: World, area: str) -> None:
    for block in world.blocks_in(area):
        block.location = None


def ally_holds(world: World, area: str) -> None:
    """Holstein, Sweden's ally, controls ``area``: friendly to Sweden, but not a
    territory Sweden controls, so a Swedish line must go on from it."""
    world.nations.setdefault("holstein", Nation("holstein", "Holstein", SWEDEN_SIDE))
    world.territories[area].controller = "holstein"


# -- friendly (seed 1.2) -----------------------------------------------------------------


def test_friendly_own_ally_enemy_neutral_and_sea():
    world = build_world()
    assert friendly(world, "sweden", "livland")  # own, controlled
    assert friendly(world, "russia", "lietuva")  # an ally's, controlled by the ally
    assert not friendly(world, "sweden", "velikaya")  # the enemy's
    assert not friendly(world, "sweden", "kurland")  # neutral transit
    assert not friendly(world, "sweden", "central_baltic")  # a sea zone
    world.territories["velikaya"].controller = "sweden"
    assert friendly(world, "sweden", "velikaya")  # captured by Sweden
    assert not friendly(world, "russia", "velikaya")  # own, but an enemy controls it
    world.territories["velikaya"].controller = None
    assert friendly(world, "russia", "velikaya")  # own without an enemy garrison
    assert friendly(world, "denmark", "velikaya")  # an ally's without an enemy garrison
    assert not friendly(world, "sweden", "velikaya")


# -- the seed's example ------------------------------------------------------------------


def test_seed_example_velikaya_yes_rzhev_no():
    """8.5: the Swedish army in Velikaya traces back to Livland; in Rzhev it cannot while
    the Russians hold Velikaya."""
    world = build_world()
    world.blocks[1].location = "velikaya"
    assert line_of_communication(world, "sweden", "velikaya") == ["velikaya", "livland"]
    assert line_explanation(world, "sweden", "velikaya") == (
        "Line of communication: Velikaya → Livland (controlled by Sweden)."
    )
    world.blocks[1].location = "rzhev"
    assert line_of_communication(world, "sweden", "rzhev") is None
    assert line_explanation(world, "sweden", "rzhev") == (
        "No line of communication from Rzhev: Velikaya is held by Russia and is not friendly."
    )


def test_rzhev_has_a_line_once_sweden_holds_velikaya():
    world = build_world()
    world.territories["velikaya"].controller = "sweden"
    assert line_of_communication(world, "sweden", "rzhev") == ["rzhev", "velikaya"]


def test_the_start_is_not_checked_for_enemies_or_friendliness():
    world = build_world()
    add(world, "russia", ARMY, "velikaya")
    assert line_of_communication(world, "sweden", "velikaya") == ["velikaya", "livland"]


# -- own territory -----------------------------------------------------------------------


def test_own_territory_with_own_garrison_is_a_line_by_itself():
    world = build_world()
    add(world, "denmark", ARMY, "stockholm")  # a battle there does not matter here
    assert line_of_communication(world, "sweden", "stockholm") == ["stockholm"]
    assert line_explanation(world, "sweden", "stockholm") == (
        "Line of communication: Stockholm (Sweden's own territory, controlled by Sweden)."
    )


def test_own_territory_under_an_enemy_garrison_needs_a_path():
    world = build_world()
    world.territories["livland"].controller = "russia"
    assert line_of_communication(world, "sweden", "livland") is None
    assert line_explanation(world, "sweden", "livland") == (
        "No line of communication from Livland: Livland has no friendly port; "
        "Kurland holds enemy blocks (Russia); Velikaya is held by Russia and is not friendly."
    )


def test_a_captured_territory_is_a_line_by_itself():
    """8.5: a line is traced to a territory the nation controls; a block already standing
    in one has a line of no steps, even in a captured territory and amid enemies."""
    world = build_world()
    world.territories["akershus"].controller = "sweden"  # Danish Christiansand next door
    assert line_of_communication(world, "sweden", "akershus") == ["akershus"]
    assert line_explanation(world, "sweden", "akershus") == (
        "Line of communication: Akershus (captured, controlled by Sweden)."
    )


def test_captured_velikaya_held_by_sweden_with_enemy_neighbours():
    world = build_world()
    world.territories["velikaya"].controller = "sweden"
    add(world, "russia", ARMY, "livland")  # Livland and Rzhev: enemy blocks all around
    add(world, "russia", ARMY, "rzhev")
    add(world, "russia", ARMY, "velikaya")  # the start is not checked for enemies
    assert line_of_communication(world, "sweden", "velikaya") == ["velikaya"]
    assert line_explanation(world, "sweden", "velikaya") == (
        "Line of communication: Velikaya (captured, controlled by Sweden)."
    )
    world.territories["velikaya"].controller = "russia"  # retaken: no line any more
    assert line_of_communication(world, "sweden", "velikaya") is None


def test_an_ally_controlled_territory_is_friendly_but_not_a_target():
    world = build_world()
    clear(world, "lausitz")
    assert line_of_communication(world, "saxony", "lausitz") == ["lausitz"]
    assert line_of_communication(world, "russia", "lausitz") is None  # Saxon, not Russian
    world.territories["lietuva"].controller = "russia"
    assert line_of_communication(world, "russia", "lausitz") is None  # Karl XII there
    clear(world, "lietuva")
    assert line_of_communication(world, "russia", "lausitz") == ["lausitz", "lietuva"]


# -- transit and enemy blocks ------------------------------------------------------------


def test_transit_territory_may_be_crossed():
    world = build_world()
    clear(world, "kurland")
    assert line_of_communication(world, "sweden", "lietuva") == ["lietuva", "kurland", "livland"]
    world.territories["kurland"].transit = False
    assert line_of_communication(world, "sweden", "lietuva") is None
    assert "Kurland is neither friendly nor transit" in line_explanation(world, "sweden", "lietuva")


def test_enemy_blocks_on_the_path_close_it_whoever_controls_the_territory():
    world = build_world()  # Pyotr I, Sheremetev and Woronjetski stand in transit Kurland
    assert line_of_communication(world, "sweden", "lietuva") is None
    assert line_explanation(world, "sweden", "lietuva") == (
        "No line of communication from Lietuva: Kurland holds enemy blocks (Russia); "
        "Lausitz holds enemy blocks (Saxony-Poland)."
    )
    clear(world, "kurland")
    add(world, "russia", FLEET, "kurland")  # a fleet in port is an enemy block too
    assert line_of_communication(world, "sweden", "lietuva") is None


def test_enemy_blocks_in_the_target_close_it():
    world = build_world()
    add(world, "russia", ARMY, "livland")
    assert line_of_communication(world, "sweden", "velikaya") is None
    assert line_explanation(world, "sweden", "velikaya") == (
        "No line of communication from Velikaya: Livland holds enemy blocks (Russia); "
        "Rzhev is held by Russia and is not friendly."
    )


def test_allied_blocks_do_not_close_a_path():
    world = build_world()
    world.territories["velikaya"].controller = "sweden"
    add(world, "sweden", ARMY, "velikaya")
    assert line_of_communication(world, "sweden", "rzhev") == ["rzhev", "velikaya"]


# -- across the sea ----------------------------------------------------------------------


def sea_world() -> World:
    """Sweden's ally Holstein holds Kurland (transit, a port) and Russians stand in
    Livland: the only way to a territory Sweden controls is across the Central Baltic."""
    world = build_world()
    clear(world, "kurland")
    ally_holds(world, "kurland")
    world.blocks[8].location = "gulf_of_bothnia"  # the galley out of the way
    add(world, "russia", ARMY, "livland")
    return world


def test_sea_crossing_needs_a_fleet_of_the_same_nationality():
    world = sea_world()
    assert line_of_communication(world, "sweden", "kurland") is None
    assert line_explanation(world, "sweden", "kurland") == (
        "No line of communication from Kurland: Central Baltic has no fleet of Sweden; "
        "Lietuva is held by Saxony-Poland and is not friendly; "
        "Livland holds enemy blocks (Russia)."
    )
    add(world, "sweden", FLEET, "central_baltic")
    assert line_of_communication(world, "sweden", "kurland") == [
        "kurland",
        "central_baltic",
        "stockholm",
    ]
    assert line_explanation(world, "sweden", "kurland") == (
        "Line of communication: Kurland → Central Baltic → Stockholm (controlled by Sweden)."
    )


def test_an_enemy_fleet_in_the_zone_closes_it():
    world = sea_world()
    add(world, "sweden", FLEET, "central_baltic")
    world.blocks[8].location = "central_baltic"
    assert line_of_communication(world, "sweden", "kurland") is None


def test_sea_crossing_from_a_port_that_is_not_friendly_is_closed():
    world = sea_world()
    add(world, "sweden", FLEET, "central_baltic")
    world.territories["kurland"].controller = None  # transit, neutral again
    assert line_of_communication(world, "sweden", "kurland") is None
    assert "Kurland has no friendly port" in line_explanation(world, "sweden", "kurland")


def test_a_long_crossing_through_several_zones():
    world = build_world()
    ally_holds(world, "akershus")
    for zone in ("skagerrak", "southern_baltic"):
        add(world, "sweden", FLEET, zone)
    assert line_of_communication(world, "sweden", "akershus") is None  # no fleet in Central
    world.blocks[8].location = None
    add(world, "sweden", FLEET, "central_baltic")
    assert line_of_communication(world, "sweden", "akershus") == [
        "akershus",
        "skagerrak",
        "southern_baltic",
        "central_baltic",
        "livland",
    ]


def russian_in_copenhagen() -> World:
    """Russia holds Livland; a Russian army in Danish Copenhagen must cross three zones."""
    world = build_world()
    world.territories["livland"].controller = "russia"
    world.blocks[8].location = "central_baltic"  # the Russian galley fleet
    add(world, "russia", ARMY, "copenhagen")
    return world


def test_an_allied_fleet_does_not_carry_the_line():
    world = russian_in_copenhagen()
    world.blocks[7].location = "southern_baltic"  # the Danish fleet
    assert line_of_communication(world, "russia", "copenhagen") is None
    assert line_explanation(world, "russia", "copenhagen") == (
        "No line of communication from Copenhagen: Skagerrak has no fleet of Russia; "
        "Southern Baltic has no fleet of Russia."
    )
    add(world, "russia", FLEET, "southern_baltic")
    assert line_of_communication(world, "russia", "copenhagen") == [
        "copenhagen",
        "southern_baltic",
        "central_baltic",
        "livland",
    ]


def test_landing_needs_a_friendly_port():
    world = russian_in_copenhagen()
    add(world, "russia", FLEET, "southern_baltic")
    world.territories["livland"].port = False
    assert line_of_communication(world, "russia", "copenhagen") is None
    assert "Livland has no port" in line_explanation(world, "russia", "copenhagen")


def test_a_line_may_land_and_go_on_by_land():
    world = russian_in_copenhagen()
    add(world, "russia", FLEET, "southern_baltic")
    world.territories["livland"].controller = "denmark"  # friendly to Russia, not Russia's
    assert line_of_communication(world, "russia", "copenhagen") == [
        "copenhagen",
        "southern_baltic",
        "central_baltic",
        "livland",
        "velikaya",
    ]


def test_no_line_from_a_sea_zone_the_pool_or_an_isolated_territory():
    world = build_world()
    assert line_of_communication(world, "sweden", "central_baltic") is None
    assert line_explanation(world, "sweden", "central_baltic") == (
        "No line of communication from Central Baltic: it is a sea zone, not a territory."
    )
    assert line_of_communication(world, "saxony", None) is None  # a pool block
    assert line_explanation(world, "saxony", None) == (
        "No line of communication: the block is not on the map."
    )
    ally_holds(world, "rzhev")  # friendly, but not Sweden's own
    world.adjacency["velikaya"].discard("rzhev")
    world.adjacency["rzhev"].discard("velikaya")
    assert line_explanation(world, "sweden", "rzhev") == (
        "No line of communication from Rzhev: no territory controlled by Sweden can be reached."
    )


def test_the_line_is_a_shortest_one_and_ties_go_by_key():
    world = build_world()
    clear(world, "kurland")
    ally_holds(world, "kurland")
    add(world, "sweden", FLEET, "central_baltic")
    world.blocks[8].location = None
    world.territories["velikaya"].controller = "sweden"
    # Kurland → Livland by land is shorter than any crossing
    assert line_of_communication(world, "sweden", "kurland") == ["kurland", "livland"]
    add(world, "russia", ARMY, "livland")
    # Central Baltic reaches Stockholm only (Livland holds enemies)
    assert line_of_communication(world, "sweden", "kurland") == [
        "kurland",
        "central_baltic",
        "stockholm",
    ]


def test_no_change_to_the_world():
    world = sea_world()
    before = repr(world)
    line_explanation(world, "sweden", "kurland")
    line_of_communication(world, "sweden", "lietuva")
    assert repr(world) == before


# -- properties on random small maps -----------------------------------------------------

NATIONS = {
    "sweden": SWEDEN_SIDE,
    "holstein": SWEDEN_SIDE,
    "russia": COALITION,
    "denmark": COALITION,
}
nation_keys = st.sampled_from(sorted(NATIONS))


@st.composite
def maps(draw, nation: str) -> dict:
    """Land territories l0.., a chain of sea zones s0.. (each off two coasts), links as drawn
    pairs, blocks anywhere and fleets at sea; ``nation`` controls and sails more often,
    so that lines are found and cross the sea."""
    lands = [f"l{i}" for i in range(draw(st.integers(1, 7)))]
    seas = [f"s{i}" for i in range(draw(st.integers(0, 3)))]
    areas = lands + seas
    often = st.sampled_from([nation, nation, nation, *sorted(NATIONS)])
    territories = {
        key: dict(
            nation=draw(st.none() | often),
            controller=draw(st.none() | often),
            port=draw(st.booleans()),
            transit=draw(st.booleans()),
        )
        for key in lands
    }
    pair = st.tuples(st.sampled_from(areas), st.sampled_from(areas)).filter(lambda p: p[0] != p[1])
    coasts = [(zone, draw(st.sampled_from(lands))) for zone in seas for _ in range(2)]
    coasts += list(zip(seas, seas[1:], strict=False))
    pairs = draw(st.lists(pair, max_size=8).map(lambda drawn: coasts + drawn))
    placed = st.tuples(nation_keys, st.sampled_from((ARMY, FLEET)), st.sampled_from(areas))
    blocks = draw(st.lists(placed, max_size=4))
    for zone in seas:
        blocks += [(key, FLEET, zone) for key in draw(st.lists(often, max_size=2))]
    return dict(lands=lands, seas=seas, territories=territories, pairs=pairs, blocks=blocks)


def make(spec: dict, pairs: list[tuple[str, str]], one_way: bool = False) -> World:
    """The drawn map; ``one_way`` lists each link under its first area only."""
    adjacency: dict[str, set[str]] = {}
    for a, b in pairs:
        adjacency.setdefault(a, set()).add(b)
        if not one_way:
            adjacency.setdefault(b, set()).add(a)
    territories = {
        key: Territory(key, key.upper(), TERRITORY, **spec["territories"][key])
        for key in spec["lands"]
    }
    territories.update({key: Territory(key, key.upper(), SEA) for key in spec["seas"]})
    blocks = {
        i: Block(i, nation, kind, f"b{i}", 1, 4, location=area)
        for i, (nation, kind, area) in enumerate(spec["blocks"], start=1)
    }
    nations = {key: Nation(key, key.title(), side) for key, side in NATIONS.items()}
    return World(nations, territories, adjacency, blocks)


def links(spec: dict) -> dict[str, set[str]]:
    return make(spec, spec["pairs"]).adjacency


def enemies_in(world: World, nation: str, area: str) -> bool:
    return any(world.enemies(nation, b.nation) for b in world.blocks_in(area))


def own_fleet(world: World, nation: str, area: str) -> bool:
    return any(b.kind == FLEET and b.nation == nation for b in world.blocks_in(area))


def may_step(world: World, nation: str, a: str, b: str) -> bool:
    """The seed's 8.5 step by step, written out independently of the search."""
    ta, tb = world.territories[a], world.territories[b]
    if enemies_in(world, nation, b):
        return False
    if ta.kind == SEA and tb.kind == SEA:
        return own_fleet(world, nation, b)
    if ta.kind == SEA:
        return tb.port and friendly(world, nation, b)
    if tb.kind == SEA:
        return ta.port and friendly(world, nation, a) and own_fleet(world, nation, b)
    return tb.transit or friendly(world, nation, b)


def oracle_length(world: World, nation: str, start: str, adjacency) -> int | None:
    """Steps in a shortest line, by plain breadth-first search over ``may_step``."""
    if world.territories[start].controller == nation:
        return 0
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        for there in adjacency.get(here, ()):
            if there not in seen and may_step(world, nation, here, there):
                seen[there] = seen[here] + 1
                if world.territories[there].controller == nation:
                    return seen[there]
                queue.append(there)
    return None


@st.composite
def cases(draw):
    """A map, a nation and a start; half the time the start l0 (held by an ally, so not a
    line by itself) and the last land (held by the nation) are friendly ports at either
    end of the chain of zones, each zone with a fleet of the nation, so that the line may
    cross the sea (unless drawn enemies are in the way)."""
    nation = draw(nation_keys)
    spec = draw(maps(nation))
    lands, seas = spec["lands"], spec["seas"]
    if not seas or len(lands) < 2 or draw(st.booleans()):
        return spec, nation, draw(st.sampled_from(lands))
    ally = next(key for key in sorted(NATIONS) if key != nation and NATIONS[key] == NATIONS[nation])
    spec["territories"]["l0"].update(nation=None, controller=ally, port=True)
    spec["territories"][lands[-1]].update(controller=nation, port=True)
    spec["pairs"] += [("l0", seas[0]), (seas[-1], lands[-1])]
    spec["blocks"] += [(nation, FLEET, zone) for zone in seas]
    return spec, nation, "l0"


@given(cases())
def test_the_line_steps_only_along_links_and_matches_a_plain_search(case):
    spec, nation, start = case
    world = make(spec, spec["pairs"])
    path = line_of_communication(world, nation, start)
    expected = oracle_length(world, nation, start, world.adjacency)
    assert (path is None) == (expected is None)
    if path is not None:
        assert path[0] == start
        assert len(path) - 1 == expected
        for a, b in zip(path, path[1:], strict=False):
            assert b in world.adjacency[a] and a in world.adjacency[b]
            assert may_step(world, nation, a, b)


@given(cases(), st.randoms(use_true_random=False))
def test_the_line_does_not_depend_on_how_the_links_were_listed(case, rnd):
    spec, nation, start = case
    answer = line_of_communication(make(spec, spec["pairs"]), nation, start)
    shuffled = [(b, a) if rnd.random() < 0.5 else (a, b) for a, b in spec["pairs"]]
    rnd.shuffle(shuffled)
    for one_way in (False, True):
        world = make(spec, shuffled, one_way=one_way)
        assert line_of_communication(world, nation, start) == answer
        assert line_explanation(world, nation, start) == line_explanation(
            make(spec, spec["pairs"]), nation, start
        )


@given(cases())
def test_the_line_avoids_enemy_blocks_and_ends_where_the_nation_controls(case):
    spec, nation, start = case
    world = make(spec, spec["pairs"])
    path = line_of_communication(world, nation, start)
    if path is None:
        assert line_explanation(world, nation, start).startswith("No line of communication")
        return
    assert not any(enemies_in(world, nation, area) for area in path[1:])
    end = world.territories[path[-1]]
    assert end.controller == nation
    assert (len(path) == 1) == (world.territories[start].controller == nation)
    assert line_explanation(world, nation, start).startswith("Line of communication: ")


@given(cases(), st.data())
def test_an_enemy_block_on_the_path_makes_that_path_invalid(case, data):
    spec, nation, start = case
    world = make(spec, spec["pairs"])
    path = line_of_communication(world, nation, start)
    if path is None or len(path) == 1:
        return
    blocked = data.draw(st.sampled_from(path[1:]))
    enemy = "russia" if NATIONS[nation] == SWEDEN_SIDE else "sweden"
    add(world, enemy, data.draw(st.sampled_from((ARMY, FLEET))), blocked)
    after = line_of_communication(world, nation, start)
    assert after != path
    assert after is None or blocked not in after
