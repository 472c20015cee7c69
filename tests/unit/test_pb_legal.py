"""Who has something to order in a Pax Baltica phase (rules/pax_baltica/legal.py), from
what every player sees."""

from __future__ import annotations

from rules.pax_baltica.legal import can_act, can_recruit, orders_forage_losses
from rules.pax_baltica.state import ARMY, FLEET, Block
from tests.unit.pb_world import build_world


def test_recruitment_needs_rp_and_a_block_on_the_map_or_in_the_pool():
    world = build_world()
    assert can_recruit(world, "saxony")  # August II on the map, Schulenburg in the pool
    world.nations["saxony"].rp_level = 0
    assert not can_recruit(world, "saxony")
    world.nations["saxony"].event_rp = 1
    assert can_recruit(world, "saxony")
    world.nations["denmark"].rp_level = 16
    world.blocks = {k: b for k, b in world.blocks.items() if b.nation != "denmark"}
    assert not can_recruit(world, "denmark")


def test_recruitment_with_only_a_pool_or_only_blocks_on_the_map():
    world = build_world()
    world.blocks = {9: world.blocks[9]}  # Saxony's Schulenburg, in the pool
    assert can_recruit(world, "saxony") and not can_recruit(world, "russia")
    world.blocks[9].location = "lausitz"
    block = world.blocks[9]
    block.strength = block.max_strength  # on the map at full strength: nothing to buy
    assert not can_recruit(world, "saxony")
    block.strength = block.max_strength - 1
    assert can_recruit(world, "saxony")


def test_actions_need_actions_left_and_a_block_on_the_map():
    world = build_world()
    assert can_act(world, "russia") and can_act(world, "sweden")
    world.actions["coalition"] = 0
    assert not can_act(world, "russia")
    world.actions = {"sweden": 1}
    assert can_act(world, "sweden") and not can_act(world, "denmark")
    world.blocks = {k: b for k, b in world.blocks.items() if b.nation != "sweden"}
    assert not can_act(world, "sweden")


def test_forage_orders_where_two_blocks_may_take_a_loss_the_order_chooses():
    world = build_world()
    assert orders_forage_losses(world, "russia")  # Kurland 1 short: Pyotr I or Sheremetev
    assert not orders_forage_losses(world, "sweden")  # one block in Lietuva, a fleet in port
    world.blocks[12] = Block(12, "sweden", ARMY, "Rehnskiold", 4, 4, "B2", 0, "lietuva")
    assert orders_forage_losses(world, "sweden")  # Lietuva 2 short: the second is a choice
    world.blocks[12].location = None  # in the pool: not on the map
    assert not orders_forage_losses(world, "sweden")


def test_forage_orders_count_no_sea_zone_and_no_block_off_the_map():
    world = build_world()
    world.blocks = {
        1: Block(1, "sweden", FLEET, "North fleet", 2, 4, "B2", 0, "central_baltic"),
        2: Block(2, "sweden", FLEET, "South fleet", 2, 4, "B2", 0, "central_baltic"),
        3: Block(3, "sweden", ARMY, "Karl XII", 2, 4, "B3", 0, "nowhere"),
        4: Block(4, "sweden", ARMY, "Rehnskiold", 2, 4, "B3", 0, "nowhere"),
    }
    assert not orders_forage_losses(world, "sweden")


def test_forage_orders_only_while_the_owner_orders_the_losses():
    world = build_world(forage_further_losses="strongest")
    assert not orders_forage_losses(world, "russia")
