"""What each Pax Baltica phase resolver answers: the procedures' outcomes in the order
they happened, and a Skipped for each order it did not carry out, which changes
nothing."""

from __future__ import annotations

import copy

from rules.dice import ScriptedDice
from rules.pax_baltica import phases
from rules.pax_baltica.phases import SiegeDeclaration
from rules.pax_baltica.procedures import (
    BattleFirst,
    ForageCheck,
    Recruitment,
    Reinforcement,
    SiegeResult,
    SiegeRound,
)
from rules.pax_baltica.state import ARMY, Block
from rules.pax_baltica.supply import FleetMove
from rules.refusals import Skipped
from tests.unit.pb_world import build_world

GULF = "gulf_of_bothnia"


def kinds(outcomes) -> list[type]:
    return [type(outcome) for outcome in outcomes]


# -- recruitment -------------------------------------------------------------------------


def test_recruitment_answers_each_reinforcement_or_skip_then_each_nations_draws():
    world = build_world()
    karl, pyotr = (
        "Karl XII has no line of communication (GNW-9)",
        "Block #2 is not one of your blocks.",
    )
    orders = {
        "sweden": {
            "reinforce": [
                {"block": 1, "steps": 1},
                {"block": 6, "steps": 1},
                {"block": 2, "steps": 1},  # a Russian block
            ],
            "draws": 1,
            "places": ["stockholm"],
        },
        "saxony": {"draws": 1, "steps_each": 0, "places": ["lausitz"]},
    }
    dice = ScriptedDice([1])  # Saxony-Poland's pool of two: the first, Schulenburg
    outcomes = phases.resolve_recruitment(world, orders, dice)
    assert kinds(outcomes) == [Skipped, Reinforcement, Skipped, Recruitment, Recruitment]
    assert outcomes[0] == Skipped("sweden", {"block": 1, "steps": 1}, karl)
    assert outcomes[2] == Skipped("sweden", {"block": 2, "steps": 1}, pyotr)
    fleet, swedish, saxon = outcomes[1], outcomes[3], outcomes[4]
    assert (fleet.block, fleet.steps, fleet.rp_cost, fleet.strength) == (6, 1, 2, 4)
    assert [(d.name, d.steps, d.placed_at) for d in swedish.draws] == [
        ("Dalregementet", 3, "stockholm")
    ]
    assert swedish.rp_spent + swedish.rp_lost == 18  # 20 RP less the fleet's 2
    assert [(d.name, d.steps, d.placed_at) for d in saxon.draws] == [("Schulenburg", 4, "lausitz")]
    assert dice.unused == 0
    assert (world.blocks[1].strength, world.blocks[2].strength) == (2, 4)
    assert "Karl XII is not reinforced: " + karl in [line.text for line in world.log]


def test_a_reinforcement_the_rp_cannot_pay_is_skipped_and_spends_nothing():
    world = build_world()
    world.nations["saxony"].rp_level = 4
    orders = {"saxony": {"reinforce": [{"block": 5, "steps": 3}]}}  # August II: 6 RP
    outcomes = phases.resolve_recruitment(world, orders, ScriptedDice([]))
    reason = "3 steps for August II cost 6 RP; 4 RP are left"
    assert outcomes[0] == Skipped("saxony", {"block": 5, "steps": 3}, reason)
    assert (outcomes[1].draws, outcomes[1].rp_spent, outcomes[1].rp_lost) == ((), 0, 4)
    assert world.blocks[5].strength == 1
    (refused,) = [line for line in world.log if line.rule == "GNW-7"]
    assert refused.text == "August II is not reinforced: " + reason
    assert "sweden" not in refused.audience


# -- actions -----------------------------------------------------------------------------


def test_actions_answer_each_item_in_the_order_it_was_spent():
    world = build_world()
    orders = {
        "sweden": {
            "reinforce": [{"block": 6, "actions": 1}, {"block": 99, "actions": 1}],
            "fleet_moves": [{"fleet": 6, "path": ["atlantis"]}, {"fleet": 6, "path": [GULF]}],
            "sieges": [
                {"territory": "lietuva", "blocks": [1]},
                {"territory": "nowhere", "blocks": [1]},
            ],
        }
    }
    outcomes = phases.resolve_actions(world, orders, ScriptedDice([]))
    assert kinds(outcomes) == [
        Reinforcement,
        Skipped,
        Skipped,
        FleetMove,
        SiegeDeclaration,
        Skipped,
    ]
    reinforced, unknown, refused, move, siege, nowhere = outcomes
    assert (reinforced.block, reinforced.actions, reinforced.strength) == (6, 1, 4)
    assert unknown.reason == "Block #99 is not one of your blocks."
    assert refused == Skipped(
        "sweden", {"fleet": 6, "path": ["atlantis"]}, "atlantis is not an area of the map."
    )
    assert (move.fleet, move.path, move.zones) == (6, (GULF,), 0)
    assert siege == SiegeDeclaration("lietuva", (1,))
    assert nowhere.reason == "There is no territory “nowhere”."
    assert world.actions["sweden"] == 0
    assert world.blocks[6].location == GULF and world.blocks[1].besieging


def test_an_item_the_actions_cannot_pay_for_is_skipped_and_changes_nothing():
    world = build_world()
    world.actions["sweden"] = 0
    orders = {
        "sweden": {
            "fleet_moves": [{"fleet": 6, "path": [GULF]}],
            "sieges": [{"territory": "lietuva", "blocks": [1]}],
        }
    }
    before = copy.deepcopy(world.blocks)
    outcomes = phases.resolve_actions(world, orders, ScriptedDice([]))
    assert [(o.power, o.reason) for o in outcomes] == [
        (
            "sweden",
            "Moving Swedish fleet, ordered by Sweden: refused, Sweden has 0 actions left and it "
            "needs 1.",
        ),
        (
            "sweden",
            "The siege of Lietuva, ordered by Sweden: refused, Sweden has 0 actions left and it "
            "needs 1.",
        ),
    ]
    assert [line.text for line in world.log] == [o.reason for o in outcomes]
    assert world.blocks == before and world.actions["sweden"] == 0


def test_an_allys_order_the_shared_actions_no_longer_pay_for_is_cut_by_name():
    """Russia's 2 steps and Saxony-Poland's step and siege, saved when the Coalition had
    4 actions; the GM has since taken one: Russia's orders come first, and the log names
    Saxony-Poland's siege as the order cut and why."""
    world = build_world()
    world.blocks[5].strength = 2  # August II, Lausitz
    for russian in (world.blocks[2], world.blocks[3]):  # Pyotr I, Sheremetev
        russian.strength, russian.location = 3, "rzhev"
    world.blocks[12] = Block(12, "saxony", ARMY, "Flemming", 2, 4, "C2", 0, "livland")
    orders = {
        "russia": {"reinforce": [{"block": 2, "actions": 1}, {"block": 3, "actions": 1}]},
        "saxony": {
            "reinforce": [{"block": 5, "actions": 1}],
            "sieges": [{"territory": "livland", "blocks": [12]}],
        },
    }
    outcomes = phases.resolve_actions(world, orders, ScriptedDice([]))
    cut = outcomes[-1]
    assert isinstance(cut, Skipped) and cut.power == "saxony"
    assert cut.reason == (
        "The siege of Livland, ordered by Saxony-Poland: refused, Coalition has 0 actions "
        "left and it needs 1."
    )
    assert world.log[-1].text == cut.reason
    assert world.log[-1].audience == world.side_powers("coalition")
    assert world.actions["coalition"] == 0 and not world.blocks[12].besieging


# -- sieges ------------------------------------------------------------------------------


def test_sieges_answer_the_battle_the_round_and_the_capture():
    world = build_world()
    world.blocks[1].besieging = world.blocks[1].in_battle = True  # Karl XII fought
    world.territories["lietuva"].battle_winner = "sweden"
    world.blocks[11].location, world.blocks[11].besieging = "lietuva", True
    dice = ScriptedDice([1, 1, 6])  # Dalregementet (B2) hits twice; the garrison misses
    outcomes = phases.resolve_sieges(world, {}, dice)
    assert kinds(outcomes) == [BattleFirst, SiegeRound, SiegeResult]
    battle, fight, result = outcomes
    assert (battle.siege_goes_ahead, battle.besiegers) == (True, (11,))
    assert [report.faces for report in fight.reports] == [(1, 1), (6,)]
    assert (fight.besieger_hits, fight.garrison_hits, fight.captured) == (2, 0, True)
    assert (result.controller, result.surrendered_nation) == ("sweden", "saxony")
    assert dice.unused == 0
    assert world.territories["lietuva"].controller == "sweden"


def test_a_siege_that_fails_answers_its_round_alone():
    world = build_world()
    world.blocks[1].besieging = True
    outcomes = phases.resolve_sieges(world, {}, ScriptedDice([6, 6, 1]))
    assert kinds(outcomes) == [SiegeRound]
    assert (outcomes[0].captured, outcomes[0].strengths) == (False, {1: 1})


def test_a_declared_siege_no_longer_allowed_is_skipped_and_changes_nothing():
    world = build_world()
    world.blocks[1].besieging = True
    world.territories["lietuva"].controller = "sweden"  # the GM recorded a change meanwhile
    territories, dice = copy.deepcopy(world.territories), ScriptedDice([])
    outcomes = phases.resolve_sieges(world, {}, dice)
    reason = "Lietuva is not held by the enemy"
    assert outcomes == (Skipped("sweden", {"territory": "lietuva", "blocks": [1]}, reason),)
    assert world.territories == territories and world.blocks[1].strength == 2
    assert world.log[-1].text == f"No siege of Lietuva: {reason}."


# -- forage ------------------------------------------------------------------------------


def test_forage_answers_every_groups_check_in_map_order():
    world = build_world()
    outcomes = phases.resolve_forage(world, {}, ScriptedDice([]))
    assert kinds(outcomes) == [ForageCheck] * 3
    assert [(c.territory, c.demand, c.supply, c.deficit) for c in outcomes] == [
        ("kurland", 5, 4, 1),
        ("lietuva", 2, 2, 0),
        ("lausitz", 2, 2, 0),
    ]
    assert outcomes[0].losses == {2: 1} and world.blocks[2].strength == 3
