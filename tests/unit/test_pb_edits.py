"""The GM's Pax Baltica edits (rules/pax_baltica/edits.py) at their bounds: every range
on both sides, where a block may stand, who carries it, and what each side reads."""

from __future__ import annotations

import copy

import pytest

from rules.pax_baltica.edits import (
    EditError,
    add_block,
    edit_block,
    edit_nation,
    edit_side,
    edit_territory,
    record_battle,
)
from rules.pax_baltica.state import ARMY, FLEET, Block
from tests.unit.pb_world import build_world

KARL = {  # Karl XII (block 1) as it is, in Lietuva
    "block": 1,
    "location": "lietuva",
    "strength": 2,
    "max_strength": 4,
    "rating": "B3",
    "supply_trains": 1,
    "carried_by": None,
    "in_battle": False,
}


def refused(edit, world, match: str, **fields) -> None:
    before = copy.deepcopy(world)
    with pytest.raises(EditError, match=match):
        edit(world, **fields)
    assert world == before


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("max_strength", 4, True),
        ("max_strength", 6, True),
        ("max_strength", 7, False),
        ("supply_trains", 0, True),
        ("supply_trains", 4, True),
        ("supply_trains", 5, False),
        ("supply_trains", -1, False),
        ("strength", 1, True),
        ("strength", 0, False),
        ("strength", 4, True),
        ("strength", 5, False),
    ],
)
def test_a_block_on_the_map_has_its_values_in_range(field, value, allowed):
    world = build_world()
    if allowed:
        edit_block(world, **{**KARL, field: value})
        assert getattr(world.blocks[1], field) == value
    else:
        refused(edit_block, world, "whole number", **{**KARL, field: value})


@pytest.mark.parametrize("max_strength", [0, 1])
def test_a_maximum_strength_is_at_least_one(max_strength):
    world = build_world()
    fields = {**KARL, "strength": 1, "max_strength": max_strength}
    if max_strength:
        edit_block(world, **fields)
    else:
        refused(edit_block, world, "maximum strength", **fields)


@pytest.mark.parametrize(("strength", "allowed"), [(0, True), (-1, False)])
def test_a_block_sent_to_the_pool_may_have_no_step(strength, allowed):
    world = build_world()
    fields = {**KARL, "location": None, "strength": strength, "in_battle": True}
    if allowed:
        edit_block(world, **fields)
        assert world.blocks[1].in_pool and not world.blocks[1].in_battle
    else:
        refused(edit_block, world, "strength", **fields)


def test_a_block_in_battle_is_marked_and_its_correction_named_only_to_its_side():
    world = build_world()
    change = edit_block(world, **{**KARL, "in_battle": True, "strength": 3})
    assert world.blocks[1].in_battle
    assert change.text == ("Karl XII (Sweden): strength 3/4, B3, 1 supply train, in a battle")
    assert change.redacted == "corrects a block of Sweden" and change.audience == ("sweden",)
    moved = edit_block(world, **{**KARL, "location": "kurland", "strength": 3})
    assert moved.redacted == "a block of Sweden moves from Lietuva to Kurland"


def test_a_fleet_only_in_a_sea_zone_or_a_port():
    world = build_world()
    fleet = {**KARL, "block": 6, "strength": 3, "rating": "B2", "supply_trains": 0}
    refused(edit_block, world, "has no port", **{**fleet, "location": "lietuva"})
    edit_block(world, **{**fleet, "location": "livland"})
    assert world.blocks[6].location == "livland"


def test_an_army_at_sea_is_carried_by_a_fleet_of_its_nation_in_the_same_place():
    world = build_world()
    at_sea = {**KARL, "location": "gulf_of_bothnia"}
    refused(edit_block, world, "carried by a fleet", **at_sea)
    world.blocks[6].location = "gulf_of_bothnia"
    refused(edit_block, world, "same place", **{**at_sea, "carried_by": 7})  # Danish fleet
    refused(edit_block, world, "same place", **{**at_sea, "carried_by": 11})  # a regiment
    refused(edit_block, world, "same place", **{**KARL, "carried_by": 6})  # in Lietuva
    edit_block(world, **{**at_sea, "carried_by": 6})
    assert (world.blocks[1].location, world.blocks[1].carried_by) == ("gulf_of_bothnia", 6)


def test_a_fleet_is_not_carried():
    world = build_world()
    world.blocks[12] = Block(12, "sweden", FLEET, "Second fleet", 2, 4, "B2", 0, "stockholm")
    fields = {**KARL, "block": 12, "location": "stockholm", "carried_by": 6}
    refused(edit_block, world, "not carried", **{**fields, "rating": "B2", "supply_trains": 0})


def test_a_fleet_moved_by_the_gm_takes_its_cargo_and_no_other_block():
    world = build_world()
    world.blocks[1].location, world.blocks[1].carried_by = "stockholm", 6
    world.blocks[11].location = "stockholm"  # Dalregementet, in port, not carried
    fleet = {**KARL, "block": 6, "strength": 3, "rating": "B2", "supply_trains": 0}
    edit_block(world, **{**fleet, "location": "gulf_of_bothnia"})
    assert (world.blocks[1].location, world.blocks[1].carried_by) == ("gulf_of_bothnia", 6)
    assert world.blocks[11].location == "stockholm"


def test_a_new_block_needs_a_new_name_and_a_step():
    world = build_world()
    new = {
        "nation": "sweden",
        "kind": ARMY,
        "name": "Rehnskiold",
        "location": "stockholm",
        "strength": 1,
        "max_strength": 4,
        "rating": "B2",
        "supply_trains": 0,
    }
    refused(add_block, world, "name", **{**new, "name": " "})
    refused(add_block, world, "name", **{**new, "name": "Karl XII"})
    refused(add_block, world, "strength", **{**new, "strength": 0})
    change = add_block(world, **new)
    assert world.blocks["new:Rehnskiold"].strength == 1
    said = change.text.message()
    assert said["params"]["kind"] == {"id": "army", "params": {}}  # a word the catalogs hold


def test_a_battle_marks_the_blocks_that_fought():
    world = build_world()
    record_battle(world, territory="kurland", winner="coalition", fought=[2, 3])
    assert [b.in_battle for b in world.blocks.values() if b.location == "kurland"] == [
        True,
        True,
        False,
    ]


@pytest.mark.parametrize(
    ("fields", "allowed"),
    [
        ({"rp_level": 0, "event_rp": -99}, True),
        ({"rp_level": 99, "event_rp": 99}, True),
        ({"rp_level": -1, "event_rp": 0}, False),
        ({"rp_level": 100, "event_rp": 0}, False),
        ({"rp_level": 10, "event_rp": -100}, False),
        ({"rp_level": 10, "event_rp": 100}, False),
    ],
)
def test_rp_levels_and_event_rp_in_range(fields, allowed):
    world = build_world()
    places = {"deployment": ["stockholm"], "fleet_ports": ["stockholm"], "forced_peace": False}
    if allowed:
        edit_nation(world, nation="sweden", **fields, **places)
        assert world.nations["sweden"].rp_level == fields["rp_level"]
    else:
        refused(edit_nation, world, "whole number", nation="sweden", **fields, **places)


def test_a_nation_without_a_level_and_its_fleet_ports():
    world = build_world()
    fields = {"nation": "denmark", "event_rp": 2, "deployment": [], "forced_peace": False}
    refused(edit_nation, world, "no port", rp_level=None, fleet_ports=["lausitz"], **fields)
    change = edit_nation(world, rp_level=None, fleet_ports=["akershus"], **fields)
    assert change.text == "Denmark: RP level none, event RP +2 for the next recruitment"


@pytest.mark.parametrize(
    ("fields", "allowed"),
    [
        ({"garrison": 0, "forage_points": 0}, True),
        ({"garrison": 9, "forage_points": 9}, True),
        ({"garrison": 0, "forage_points": -1}, False),
        ({"garrison": 0, "forage_points": 10}, False),
    ],
)
def test_forage_points_in_range(fields, allowed):
    world = build_world()
    flags = {"port": False, "transit": False, "in_poland": False, "surrendered": False}
    args = {"territory": "velikaya", "controller": "russia", **fields, **flags}
    if allowed:
        edit_territory(world, **args)
        assert world.territories["velikaya"].forage_points == fields["forage_points"]
    else:
        refused(edit_territory, world, "whole number", **args)


def test_only_a_land_territory_is_edited_as_one():
    world = build_world()
    flags = {"port": False, "transit": False, "in_poland": False, "surrendered": False}
    fields = {"controller": None, "garrison": 0, "forage_points": 0, **flags}
    refused(
        edit_territory, world, "There is no territory “skagerrak”", territory="skagerrak", **fields
    )
    refused(
        edit_territory, world, "There is no territory “atlantis”", territory="atlantis", **fields
    )


@pytest.mark.parametrize(("actions", "allowed"), [(0, True), (20, True), (-1, False), (21, False)])
def test_actions_in_range(actions, allowed):
    world = build_world()
    if allowed:
        edit_side(world, side="sweden", actions=actions, actions_per_season=actions)
        assert world.actions["sweden"] == world.season_actions["sweden"] == actions
    else:
        refused(
            edit_side, world, "whole number", side="sweden", actions=actions, actions_per_season=3
        )


def test_the_side_that_acts_first_comes_first_and_keeps_the_others():
    world = build_world()
    edit_side(world, side="coalition", actions=2, actions_per_season=3, first=True)
    assert world.actions == {"coalition": 2, "sweden": 3}
