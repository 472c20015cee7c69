"""What Pax Baltica offers a nation and why it says no: the blocks a form offers (by name),
the sieges it may declare, the forage loss orders that matter, the reasons a block has no
line of communication (in the order of the territories' names, as a reader looks them up
on the map, whatever their keys), and the orders for the GM. On the small test map
(tests/unit/pb_world.py)."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.gm_orders import BATTLE, MOVE, Piece, Prefill
from rules.pax_baltica import gm_orders, legal, supply
from rules.pax_baltica import procedures as gnw
from rules.pax_baltica.state import ARMY, Block
from rules.refusals import Refused
from tests.unit.pb_world import build_world

# -- lines of communication -------------------------------------------------------------------


def test_the_reasons_for_no_line_follow_the_territories_names_not_their_keys():
    world = build_world()
    world.territories["lausitz"].name = "Alt-Lausitz"  # its key sorts after kurland's
    assert supply.line_explanation(world, "sweden", "lietuva") == (
        "No line of communication from Lietuva: Alt-Lausitz holds enemy blocks (Saxony-Poland); "
        "Kurland holds enemy blocks (Russia)."
    )


def test_the_enemy_nations_in_a_closed_territory_are_each_named():
    world = build_world()
    world.blocks[10].location = "kurland"  # a Saxon army beside the Russians
    assert supply.line_explanation(world, "sweden", "lietuva") == (
        "No line of communication from Lietuva: Kurland holds enemy blocks (Russia, "
        "Saxony-Poland); Lausitz holds enemy blocks (Saxony-Poland)."
    )


def test_a_link_given_one_way_is_a_link_both_ways():
    world = build_world()
    world.adjacency["rzhev"].discard("velikaya")  # only velikaya → rzhev is left
    world.territories["rzhev"].controller = None
    world.territories["rzhev"].nation = None
    world.territories["rzhev"].transit = True
    assert supply.line_of_communication(world, "russia", "rzhev") == ["rzhev", "velikaya"]
    world = build_world()
    world.adjacency["velikaya"].discard("rzhev")  # only rzhev → velikaya is left
    world.territories["rzhev"].controller = None
    world.territories["rzhev"].nation = None
    world.territories["rzhev"].transit = True
    assert supply.line_of_communication(world, "russia", "rzhev") == ["rzhev", "velikaya"]


def test_a_sea_zone_is_never_friendly():
    world = build_world()
    assert supply.friendly(world, "sweden", "central_baltic") is False
    assert supply.friendly(world, "sweden", "velikaya") is False


# -- what a form offers --------------------------------------------------------------------


def test_blocks_to_reinforce_are_offered_by_name():
    world = build_world()
    world.blocks[11].location = "livland"
    world.blocks[11].name = "Västmanland"  # after "Swedish fleet" by name, before by id
    assert [b.id for b in legal.reinforceable(world, "sweden")] == [6, 11]


def test_a_block_in_the_pool_or_at_full_strength_cannot_be_reinforced():
    world = build_world()
    assert legal.can_reinforce(world, world.blocks[11]) is False  # in the pool
    world.blocks[11].location = "livland"
    world.blocks[11].strength = 3
    assert legal.can_reinforce(world, world.blocks[11]) is False  # full strength


def test_only_enemy_held_territories_are_offered_for_a_siege():
    world = build_world()
    world.blocks[11].location = "livland"  # a Swedish regiment at home
    assert legal.siege_targets(world, "sweden") == {"lietuva": [world.blocks[1]]}


def test_an_actions_order_counts_its_steps_fleet_moves_and_sieges():
    payload = {
        "reinforce": [{"block": 1, "actions": 2}, {"block": 4}],
        "fleet_moves": [{"fleet": 6, "path": ["central_baltic"]}],
        "sieges": [{"territory": "lietuva", "blocks": [1]}],
    }
    assert legal.actions_ordered(payload) == 4


# -- forage loss orders (Decision 2's owner order) ----------------------------------------------


def test_the_owners_order_spreads_later_losses_in_its_order():
    assert gnw.forage_losses({1: 4, 2: 4}, 3, [1, 2], True) == {1: 2, 2: 1}
    assert gnw.forage_losses({1: 4, 2: 4}, 3, [2, 1], True) == {1: 1, 2: 2}
    assert gnw.forage_losses({1: 4, 2: 4}, 0, [1, 2], True) == {}


@pytest.fixture
def owner_order():
    """Decision 2's owner order: Russia's three blocks in Kurland (4, 4, 3 steps) eat 5 FP
    of its 3 (+1 supply train)."""
    return build_world(forage_further_losses="owner_order")


def test_a_loss_order_matters_where_the_deficit_reaches_blocks_the_owner_chooses(owner_order):
    choices = legal.forage_loss_choices(owner_order, "russia")
    assert choices == {
        "kurland": [owner_order.blocks[2], owner_order.blocks[3], owner_order.blocks[4]]
    }
    assert legal.orders_forage_losses(owner_order, "russia")


def test_no_loss_order_is_asked_without_a_deficit(owner_order):
    owner_order.territories["kurland"].forage_points = 9
    assert legal.forage_loss_choices(owner_order, "russia") == {}
    assert legal.orders_forage_losses(owner_order, "russia") is False


def test_no_loss_order_is_asked_when_no_block_can_lose_a_step(owner_order):
    for block_id in (2, 3, 4):
        owner_order.blocks[block_id].strength = 1
    assert legal.forage_loss_choices(owner_order, "russia") == {}


def test_no_loss_order_is_asked_for_a_single_block(owner_order):
    owner_order.blocks[3].location = owner_order.blocks[4].location = "velikaya"
    owner_order.territories["kurland"].forage_points = 0
    assert "kurland" not in legal.forage_loss_choices(owner_order, "russia")


def test_a_one_step_loss_that_falls_on_the_single_strongest_leaves_no_choice(owner_order):
    owner_order.blocks[3].strength = 2
    owner_order.territories["kurland"].forage_points = 4  # + 1 train: 1 short
    assert legal.forage_loss_choices(owner_order, "russia") == {}


def test_six_blocks_able_to_lose_a_step_are_still_weighed(owner_order):
    for number in range(6):
        owner_order.blocks[30 + number] = Block(
            30 + number, "russia", ARMY, f"Polk {number}", 3, 4, "C2", 0, "rzhev"
        )
    choices = legal.forage_loss_choices(owner_order, "russia")
    assert [b.id for b in choices["rzhev"]] == [30, 31, 32, 33, 34, 35]


def test_one_block_able_to_lose_a_step_may_still_choose_against_an_allys_block(owner_order):
    """Pyotr I (4) ties with a Saxon army of a lower id: Russia's order, not the ids,
    decides which loses the first step."""
    owner_order.blocks[0] = Block(0, "saxony", ARMY, "Flemming", 4, 4, "C2", 0, "kurland")
    owner_order.blocks[3].strength = owner_order.blocks[4].strength = 1
    assert [b.id for b in legal.forage_loss_choices(owner_order, "russia")["kurland"]] == [2, 3, 4]


def test_a_single_block_of_the_nation_is_never_asked_an_order(owner_order):
    owner_order.blocks[0] = Block(0, "saxony", ARMY, "Flemming", 4, 4, "C2", 0, "kurland")
    owner_order.blocks[3].location = owner_order.blocks[4].location = "velikaya"
    assert "kurland" not in legal.forage_loss_choices(owner_order, "russia")


def test_under_shared_forage_a_side_eating_after_the_enemy_always_has_a_choice():
    world = build_world(forage_further_losses="owner_order", forage_both_sides="shared")
    world.blocks[1].location = "livland"  # Karl XII in Swedish Livland
    world.blocks[2].location = world.blocks[3].location = "livland"  # two Russian armies
    world.territories["livland"].forage_points = 9
    assert legal.eats_after_the_enemy(world, "russia", "livland")
    assert legal.eats_after_the_enemy(world, "sweden", "livland") is False
    assert legal.forage_loss_choices(world, "russia") == {
        "livland": [world.blocks[2], world.blocks[3]]
    }


def test_no_side_eats_after_the_enemy_alone_or_without_the_shared_option():
    world = build_world(forage_both_sides="shared")
    assert legal.eats_after_the_enemy(world, "russia", "kurland") is False  # nobody else there
    world = build_world()
    world.blocks[1].location = "kurland"
    assert legal.eats_after_the_enemy(world, "russia", "kurland") is False


# -- procedures' words -----------------------------------------------------------------------


def test_a_side_cannot_take_its_own_sides_garrison():
    world = build_world()
    with pytest.raises(Refused) as raised:
        gnw.siege_result(world, world.territories["livland"], "sweden")
    assert raised.value.text == "Sweden cannot besiege its own side's garrison of Livland"


def test_a_group_with_enough_forage_says_so():
    world = build_world()
    check = gnw.forage(world.territories["lausitz"], [world.blocks[5]], [], {})
    assert check.text == "Lausitz: demand 2 FP (1 army), supply 3 FP: enough"


def test_a_siege_round_without_losses_says_who_scored_what():
    world = build_world()
    fight = gnw.siege_round(world.territories["lietuva"], [world.blocks[1]], ScriptedDice([6] * 3))
    assert fight.text == (
        "Siege of Lietuva: the garrison scores 0 hits; the besiegers score 0 hits against a "
        "garrison of 1: the garrison holds"
    )


def test_a_pool_block_has_no_place():
    world = build_world()
    with pytest.raises(LookupError, match="Schulenburg is in the pool"):
        _ = world.blocks[9].at
    assert world.blocks[1].at == "lietuva"


def test_a_deficit_no_block_can_pay_is_said_to_be_ignored():
    world = build_world()
    for block_id in (2, 3, 4):
        world.blocks[block_id].strength = 1
    check = gnw.forage(world.territories["kurland"], [world.blocks[i] for i in (2, 3, 4)], [], {})
    assert check.text == (
        "Kurland: demand 5 FP (2 armies, 1 regiment), supply 3 FP + 1 from supply trains: "
        "5 − 4 = 1 short; no block can lose a step (every block is at strength 1): the losses "
        "are ignored"
    )


# -- orders for the GM ---------------------------------------------------------------------


def test_a_nations_pieces_are_its_land_blocks_by_name_reaching_land_only():
    world = build_world()
    world.blocks[11].location, world.blocks[11].carried_by = "central_baltic", 6
    assert gm_orders.pieces(world, "sweden") == [
        Piece(1, "Karl XII (army)", "lietuva", ("kurland", "lausitz"))
    ]
    assert [piece.reach for piece in gm_orders.pieces(world, "denmark")] == []
    world.blocks[12] = Block(12, "denmark", ARMY, "Danish army", 2, 4, "C2", 0, "copenhagen")
    assert gm_orders.pieces(world, "denmark") == [Piece(12, "Danish army (army)", "copenhagen", ())]


def test_a_move_or_a_battle_is_carried_out_with_the_edit_it_needs():
    world = build_world()
    assert gm_orders.carry_out(world, {"kind": MOVE, "piece": 1, "area": "kurland"}) == Prefill(
        "block", "1", {"location": "kurland"}
    )
    assert gm_orders.carry_out(world, {"kind": BATTLE, "piece": 1, "area": "lietuva"}) == Prefill(
        "battle", "new", {"territory": "lietuva", "fought": [1]}
    )
    assert gm_orders.carry_out(world, {"kind": "card", "piece": 1, "area": "lietuva"}) is None
    assert gm_orders.carry_out(world, {"kind": MOVE, "piece": 99, "area": "kurland"}) is None
