"""The GM's Pax Baltica edits as the players read them: every log line in full, with
each name and number in it, every refusal in full, and each value the edit changes."""

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
from rules.pax_baltica.state import ARMY, FLEET, REGIMENT
from tests.unit.pb_world import build_world
from tests.unit.test_pb_edits import KARL  # Karl XII (block 1) as it is, in Lietuva

FLEET_6 = {**KARL, "block": 6, "location": "stockholm", "strength": 3, "rating": "B2"}
FLEET_6["supply_trains"] = 0
NEW = {
    "nation": "sweden",
    "kind": ARMY,
    "name": "Rehnskiold",
    "location": "stockholm",
    "strength": 2,
    "max_strength": 4,
    "rating": "B2",
    "supply_trains": 1,
}
FLAGS = {"port": False, "transit": False, "in_poland": False, "surrendered": False}
PLACES = {"deployment": ["stockholm"], "fleet_ports": ["stockholm"], "forced_peace": False}


def refused(edit, world, message: str, **fields) -> None:
    """The edit raises EditError saying exactly ``message`` and changes nothing."""
    before = copy.deepcopy(world)
    with pytest.raises(EditError) as raised:
        edit(world, **fields)
    assert raised.value.text == message
    assert world == before


# -- blocks ----------------------------------------------------------------------------------


def test_a_block_corrected_in_place_names_itself_its_nation_and_its_values():
    world = build_world()
    change = edit_block(world, **{**KARL, "strength": 3, "supply_trains": 2})
    assert change.text == "Karl XII (Sweden): strength 3/4, B3, 2 supply trains"


def test_a_moved_block_names_where_from_and_where_to():
    world = build_world()
    change = edit_block(world, **{**KARL, "location": "kurland"})
    assert (
        change.text == "Karl XII (Sweden) from Lietuva to Kurland: strength 2/4, B3, 1 supply train"
    )


@pytest.mark.parametrize("rating", ["E1", "B7", "b3", ""])
def test_a_rating_is_a_letter_and_a_number(rating):
    refused(
        edit_block,
        build_world(),
        "The rating is a letter A–D and a number 1–6, like C1.",
        **{**KARL, "rating": rating},
    )


def test_an_unknown_block_is_named_by_its_number():
    refused(edit_block, build_world(), "There is no block #99.", **{**KARL, "block": 99})


def test_an_unknown_place_is_named():
    world = build_world()
    refused(
        edit_block, world, "There is no territory “atlantis”.", **{**KARL, "location": "atlantis"}
    )


def test_a_fleet_in_a_territory_without_a_port_names_the_territory():
    refused(
        edit_block,
        build_world(),
        "A fleet can only be in a sea zone or a port; Lietuva has no port.",
        **{**FLEET_6, "location": "lietuva"},
    )


def test_a_fleet_sent_to_the_pool_leaves_its_cargo_where_it_was_carried_off_the_map():
    world = build_world()
    world.blocks[1].location, world.blocks[1].carried_by = "stockholm", 6
    edit_block(world, **{**FLEET_6, "location": None, "strength": 0})
    assert (world.blocks[1].location, world.blocks[1].carried_by) == (None, None)


# -- new blocks ------------------------------------------------------------------------------


def test_a_new_block_names_everything_it_is_to_its_side():
    world = build_world()
    change = add_block(world, **NEW)
    assert change.text == "adds Rehnskiold (Sweden army, 2/4, B2) in Stockholm"
    assert change.redacted == "adds a block of Sweden in Stockholm"
    assert change.audience == ("sweden",)
    block = world.blocks["new:Rehnskiold"]
    assert (block.nation, block.kind, block.location, block.supply_trains) == (
        "sweden",
        ARMY,
        "stockholm",
        1,
    )


def test_a_new_block_in_the_pool_is_said_to_be_there():
    change = add_block(build_world(), **{**NEW, "kind": REGIMENT, "location": None})
    assert change.text == "adds Rehnskiold (Sweden regiment, 2/4, B2) in the pool"
    assert change.redacted == "adds a block of Sweden in the pool"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"nation": "prussia"}, "There is no nation “prussia”."),
        ({"kind": "cavalry"}, "A block is an army, a regiment or a fleet, not “cavalry”."),
        ({"name": "Karl XII"}, "Give the block a name no other block has (“Karl XII”)."),
        ({"max_strength": 7}, "The maximum strength must be a whole number from 1 to 6."),
        ({"supply_trains": 5}, "Supply trains must be a whole number from 0 to 4."),
        ({"rating": "Z9"}, "The rating is a letter A–D and a number 1–6, like C1."),
        ({"location": "atlantis"}, "There is no territory “atlantis”."),
        (
            {"kind": FLEET, "location": "lietuva"},
            "A fleet can only be in a sea zone or a port; Lietuva has no port.",
        ),
    ],
)
def test_an_impossible_new_block_is_refused_saying_why(fields, message):
    refused(add_block, build_world(), message, **{**NEW, **fields})


# -- battles -----------------------------------------------------------------------------


def test_a_battle_records_its_winner_and_names_the_blocks_count():
    world = build_world()
    change = record_battle(world, territory="kurland", winner="coalition", fought=[2, 3])
    assert world.territories["kurland"].battle_winner == "coalition"
    assert change.text == "battle in Kurland: Coalition won (2 blocks fought)"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"winner": "nobody"}, "Choose the side that won."),
        ({"fought": [1]}, "Karl XII is not in Kurland."),
        ({"fought": [99]}, "There is no block #99."),
        ({"territory": "skagerrak"}, "There is no territory “skagerrak”."),
    ],
)
def test_an_impossible_battle_is_refused_saying_why(fields, message):
    args = {"territory": "kurland", "winner": "coalition", "fought": [2], **fields}
    refused(record_battle, build_world(), message, **args)


# -- nations, territories, sides -----------------------------------------------------------


def test_a_nations_deployment_and_fleet_ports_are_stored_and_peace_said():
    world = build_world()
    change = edit_nation(
        world,
        nation="denmark",
        rp_level=14,
        event_rp=-2,
        forced_peace=True,
        deployment=["akershus", "christiansand"],
        fleet_ports=["akershus"],
    )
    denmark = world.nations["denmark"]
    assert (denmark.deployment, denmark.fleet_ports) == (
        ("akershus", "christiansand"),
        ("akershus",),
    )
    assert change.text == (
        "Denmark: RP level 14, event RP -2 for the next recruitment, peace forced"
    )


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"nation": "prussia"}, "There is no nation “prussia”."),
        ({"deployment": ["skagerrak"]}, "There is no territory “skagerrak”."),
        ({"fleet_ports": ["lausitz"]}, "Lausitz has no port."),
    ],
)
def test_an_impossible_nation_edit_is_refused_saying_why(fields, message):
    args = {"nation": "sweden", "rp_level": 10, "event_rp": 0, **PLACES, **fields}
    refused(edit_nation, build_world(), message, **args)


def test_a_territorys_features_are_stored_and_its_line_names_its_holder():
    world = build_world()
    flags = {"port": True, "transit": True, "in_poland": True, "surrendered": True}
    change = edit_territory(
        world, territory="velikaya", controller="sweden", garrison=2, forage_points=4, **flags
    )
    velikaya = world.territories["velikaya"]
    assert (velikaya.port, velikaya.transit, velikaya.in_poland, velikaya.surrendered) == (
        True,
        True,
        True,
        True,
    )
    assert change.text == "Velikaya: held by Sweden, garrison 2, FP 4"


def test_a_territory_held_by_nobody_says_so():
    world = build_world()
    change = edit_territory(
        world, territory="kurland", controller=None, garrison=0, forage_points=3, **FLAGS
    )
    assert change.text == "Kurland: held by nobody, garrison 0, FP 3"


def test_a_territory_held_by_an_unknown_nation_is_refused():
    args = {"territory": "kurland", "controller": "prussia", "garrison": 0, "forage_points": 3}
    refused(edit_territory, build_world(), "There is no nation “prussia”.", **args, **FLAGS)


def test_a_side_edit_names_the_side_and_its_actions():
    world = build_world()
    change = edit_side(world, side="sweden", actions=1, actions_per_season=4)
    assert change.text == "Sweden: 1 action left this season, 4 each season"
    assert list(world.actions) == ["sweden", "coalition"]


def test_the_side_that_acts_first_is_put_first_and_said_to():
    world = build_world()
    change = edit_side(world, side="coalition", actions=2, actions_per_season=3, first=True)
    assert list(world.actions) == ["coalition", "sweden"]
    assert change.text == "Coalition: 2 actions left this season, 3 each season and acts first"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"side": "poland"}, "There is no side “poland”."),
        ({"actions_per_season": 21}, "Actions per season must be a whole number from 0 to 20."),
    ],
)
def test_an_impossible_side_edit_is_refused_saying_why(fields, message):
    args = {"side": "sweden", "actions": 2, "actions_per_season": 3, **fields}
    refused(edit_side, build_world(), message, **args)
