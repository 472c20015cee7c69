"""Whom each Pax Baltica log line is about, and where: a line's power becomes its Event's
power ("Your rolls and results" in that power's mail, campaign/notifications.py), its
area the map area the log links, its roll the dice the log shows beside it; a line kept
for one side names its nation. On the small test map (tests/unit/pb_world.py)."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.pax_baltica import phases
from rules.refusals import Skipped
from tests.unit.pb_world import build_world

COALITION = ("russia", "saxony", "denmark")


def said(world, rule: str) -> list[tuple[str | None, str | None, str]]:
    """(power, area, text) of the log lines of one rule, in order."""
    return [(line.power, line.area, line.text) for line in world.log if line.rule == rule]


def dalregementet_in_livland(world):
    """Sweden's regiment (block 11, 2 of 3 steps) in its own Livland."""
    world.blocks[11].location = "livland"
    return world.blocks[11]


# -- recruitment and actions ---------------------------------------------------------------


def test_a_reinforcement_with_rp_is_the_nations_line_where_the_block_stands():
    world = build_world()
    dalregementet_in_livland(world)
    phases.resolve_recruitment(
        world, {"sweden": {"reinforce": [{"block": 11, "steps": 1}]}}, ScriptedDice([])
    )
    (line,) = said(world, "GNW-7")[:1]
    assert line[:2] == ("sweden", "livland")


def test_a_reinforcement_by_action_is_the_nations_line_where_the_block_stands():
    world = build_world()
    dalregementet_in_livland(world)
    phases.resolve_actions(
        world, {"sweden": {"reinforce": [{"block": 11, "actions": 1}]}}, ScriptedDice([])
    )
    ((power, area, _),) = said(world, "GNW-8")
    assert (power, area) == ("sweden", "livland")


def test_a_fleet_move_is_the_nations_line_where_the_fleet_ends():
    world = build_world()
    phases.resolve_actions(
        world,
        {"sweden": {"fleet_moves": [{"fleet": 6, "path": ["central_baltic"]}]}},
        ScriptedDice([]),
    )
    ((power, area, _),) = said(world, "GNW-13")
    assert (power, area) == ("sweden", "central_baltic")
    assert world.log[-1].audience == ("sweden",)


def test_a_fleet_that_is_not_the_nations_is_a_skipped_order():
    world = build_world()
    order = {"fleet": 7, "path": ["skagerrak"]}
    done = phases.resolve_actions(world, {"sweden": {"fleet_moves": [order]}}, ScriptedDice([]))
    assert done == (Skipped("sweden", order, "Block #7 is not one of your blocks."),)
    assert world.blocks[7].location == "copenhagen"


def test_a_siege_declaration_names_every_block_and_is_the_nations_line_there():
    world = build_world()
    world.blocks[11].location = "lietuva"
    order = {"territory": "lietuva", "blocks": [1, 11]}
    phases.resolve_actions(world, {"sweden": {"sieges": [order]}}, ScriptedDice([]))
    assert said(world, "GNW-1") == [
        ("sweden", "lietuva", "Karl XII, Dalregementet lay siege to Lietuva (1 action).")
    ]


# -- sieges -------------------------------------------------------------------------------


def coalition_before_livland(world):
    """Pyotr I (Russia, 4 steps) and August II (Saxony, 1 step) besiege Swedish Livland
    (garrison 2)."""
    for block_id in (2, 5):
        world.blocks[block_id].location = "livland"
        world.blocks[block_id].besieging = True


def test_a_siege_no_longer_allowed_is_logged_there_and_skipped_for_the_strongest_besieger():
    world = build_world()
    coalition_before_livland(world)
    world.territories["livland"].garrison = 0
    done = phases.resolve_sieges(world, {}, ScriptedDice([]))
    assert said(world, "GNW-1") == [
        (None, "livland", "No siege of Livland: Livland has no garrison to besiege.")
    ]
    ((skipped),) = done
    assert skipped.power == "russia"


def test_the_battle_before_a_siege_is_the_strongest_besiegers_line_there():
    world = build_world()
    coalition_before_livland(world)
    world.territories["livland"].battle_winner = "coalition"
    phases.resolve_sieges(world, {}, ScriptedDice([6] * 12))
    ((power, area, _),) = said(world, "GNW-3")
    assert (power, area) == ("russia", "livland")


def test_each_round_of_siege_fire_is_logged_there_with_its_dice():
    world = build_world()
    coalition_before_livland(world)
    phases.resolve_sieges(world, {}, ScriptedDice([6] * 12))
    fire = [line for line in world.log if line.rule == "GNW-1"]
    assert [(line.power, line.area) for line in fire] == [("russia", "livland")] * 3
    assert all(line.roll is not None for line in fire)
    assert [line.roll.faces for line in fire] == [(6, 6), (6, 6, 6, 6), (6,)]


def test_a_failed_siege_is_logged_there():
    world = build_world()
    coalition_before_livland(world)
    phases.resolve_sieges(world, {}, ScriptedDice([6] * 12))
    assert said(world, "GNW-2") == [
        (
            None,
            "livland",
            "The siege of Livland fails (0 hits against a garrison of 2); the besiegers may "
            "not retreat.",
        )
    ]


def test_a_capture_is_the_attackers_line_and_each_rp_level_its_nations():
    world = build_world()
    world.blocks[1].besieging = True  # Karl XII before Saxon Lietuva (garrison 1)
    phases.resolve_sieges(world, {}, ScriptedDice([6, 1, 1]))
    capture = said(world, "GNW-2")
    assert [(power, area) for power, area, _ in capture] == [("sweden", "lietuva")]
    levels = said(world, "GNW-5")
    assert [power for power, _, _ in levels] == ["saxony"]
    assert levels[0][2].startswith("Saxony-Poland's RP level: 12 → ")


# -- forage and the season's end -----------------------------------------------------------


def test_a_forage_deficit_is_logged_there_for_the_first_blocks_nation():
    world = build_world()
    for block_id in (5, 9):
        world.blocks[block_id].location = "velikaya"  # two Saxon armies on 2 FP
    world.blocks[4].location = "velikaya"  # and a Russian regiment
    phases.resolve_forage(world, {}, ScriptedDice([]))
    line = world.log[-1]
    assert (line.rule, line.power, line.area, line.audience) == (
        "GNW-4",
        "russia",
        "velikaya",
        COALITION,
    )
    assert line.text.endswith("Woronjetski 3 → 2, Schulenburg 4 → 2")


def test_under_shared_forage_the_controllers_side_eats_first():
    world = build_world(forage_both_sides="shared")
    world.blocks[2].location = "livland"  # Pyotr I (2 FP wanted) in Swedish Livland (2 FP)
    world.blocks[11].location = "livland"  # Dalregementet (1 FP wanted)
    checks = phases.forage_checks(world)
    livland = [check for _, check in checks if check.territory == "livland"]
    assert [(check.deficit > 0) for check in livland] == [False, True]
    assert [group[0].nation for group, check in checks if check.territory == "livland"] == [
        "sweden",
        "russia",
    ]


def test_the_season_ends_with_no_battle_on_record():
    world = build_world()
    world.territories["kurland"].battle_winner = "coalition"
    phases.resolve_forage(world, {}, ScriptedDice([]))
    assert world.territories["kurland"].battle_winner == ""


# -- pool draws ----------------------------------------------------------------------------


def test_a_draw_is_logged_where_the_block_is_placed_and_names_the_pool():
    world = build_world()
    orders = {"saxony": {"draws": 1, "steps_each": 0, "places": ["lausitz"]}}
    phases.resolve_recruitment(world, orders, ScriptedDice([1]))
    (draw,) = [line for line in world.log if line.rule == "GNW-10"]
    assert (draw.power, draw.area) == ("saxony", "lausitz")
    assert draw.roll.purpose == "Saxony-Poland draws from its pool of 2"
    assert draw.roll.comparison == "one of 2"


def test_a_captured_capital_forces_peace_on_its_nation_in_its_lines():
    world = build_world()
    karl = world.blocks[1]
    karl.location, karl.strength, karl.besieging = "copenhagen", 4, True
    phases.resolve_sieges(world, {}, ScriptedDice([1, 1, 1, 6, 6, 6, 6]))
    assert [(power, area) for power, area, _ in said(world, "GNW-2")] == [
        ("sweden", "copenhagen"),
        ("denmark", "copenhagen"),
    ]
    assert said(world, "GNW-2")[1][2] == (
        "Copenhagen was Denmark's capital: peace is forced on it (10.2); the GM applies the "
        "peace terms."
    )
    assert world.nations["denmark"].forced_peace


def test_the_rp_a_nation_without_orders_loses_are_its_line():
    world = build_world()
    phases.resolve_recruitment(world, {}, ScriptedDice([]))
    assert said(world, "GNW-6")[0] == ("sweden", None, "Sweden's 20 RP are lost.")
    assert [power for power, _, _ in said(world, "GNW-6")] == [
        "sweden",
        "russia",
        "saxony",
        "denmark",
    ]
