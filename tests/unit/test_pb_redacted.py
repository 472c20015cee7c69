"""What the other side reads of each Pax Baltica log line about hidden blocks (the
``redacted`` text): where something happened, never which block or how strong."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.pax_baltica import phases
from tests.unit.pb_world import build_world

COALITION = ("russia", "saxony", "denmark")


def redacted(world, rule: str) -> list[str]:
    """The redacted texts of a rule's lines that only one side reads in full."""
    return [str(line.redacted) for line in world.log if line.rule == rule and line.audience]


def test_recruitment_says_where_blocks_are_reinforced_and_placed():
    world = build_world()
    world.nations["saxony"].rp_level = 9
    orders = {"saxony": {"reinforce": [{"block": 5, "steps": 1}], "draws": 2, "steps_each": 1}}
    phases.resolve_recruitment(world, orders, ScriptedDice([1]))
    assert redacted(world, "GNW-7") == ["Saxony-Poland reinforces a block in Lausitz.", ""]
    assert redacted(world, "GNW-10") == [
        "Saxony-Poland places a new block in Lausitz.",
        "Saxony-Poland draws a block and returns it to the pool.",
    ]
    assert redacted(world, "GNW-6") == [
        "Saxony-Poland places 1 new block; its unspent RP are lost."
    ]
    assert world.blocks[10].in_pool and world.blocks[9].location == "lausitz"
    assert [line.audience for line in world.log if line.rule == "GNW-10"] == [COALITION] * 2


def test_actions_say_where_a_fleet_went_a_siege_was_laid_and_a_block_reinforced():
    world = build_world()
    orders = {
        "saxony": {"reinforce": [{"block": 5, "actions": 2}]},
        "sweden": {
            "fleet_moves": [{"fleet": 6, "path": ["gulf_of_bothnia"]}],
            "sieges": [{"territory": "lietuva", "blocks": [1]}],
        },
    }
    phases.resolve_actions(world, orders, ScriptedDice([]))
    assert redacted(world, "GNW-13") == [
        "A fleet of Sweden moves from Stockholm to Gulf of Bothnia."
    ]
    assert redacted(world, "GNW-1") == ["Sweden lays siege to Lietuva."]
    assert redacted(world, "GNW-8") == [
        "Coalition spends 2 actions reinforcing a block in Lausitz."
    ]


def test_a_siege_shows_the_garrison_fire_the_besiegers_firing_and_a_loss():
    world = build_world()
    world.blocks[1].besieging = True  # Karl XII (B3, 2 steps) before Lietuva (garrison 1)
    world.blocks[1].strength = 1
    phases.resolve_sieges(world, {}, ScriptedDice([6, 1]))
    assert redacted(world, "GNW-1") == [
        "The besiegers of Lietuva fire.",
        "Garrison of Lietuva (C1, 1 die): 1 → 1 hit on the besiegers",
        "A Sweden block is eliminated before Lietuva.",
    ]


def test_a_battle_before_a_siege_says_only_whether_the_siege_goes_ahead():
    world = build_world()
    world.blocks[1].besieging = True
    world.territories["lietuva"].battle_winner = "coalition"
    world.territories["kurland"].battle_winner = "coalition"
    world.blocks[2].besieging = world.blocks[3].besieging = True  # Russians in Kurland
    world.territories["kurland"].controller = "sweden"
    world.territories["kurland"].garrison = 1
    world.blocks[2].in_battle = True
    phases.resolve_sieges(world, {}, ScriptedDice([6, 6, 6, 6, 6]))
    assert redacted(world, "GNW-3") == [
        "Kurland: the battle comes before the siege; the siege goes ahead.",
        "Lietuva: the battle comes before the siege; there is no siege.",
    ]


def test_forage_says_which_side_goes_short_where():
    world = build_world()
    world.territories["kurland"].forage_points = 0
    phases.resolve_forage(world, {}, ScriptedDice([]))
    assert redacted(world, "GNW-4") == ["Coalition blocks in Kurland go short of forage."]
