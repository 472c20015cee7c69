"""What the Pax Baltica pages say stops a block on the map gaining a step."""

from __future__ import annotations

from django.utils import translation

from rules.pax_baltica.presenters import reinforce_obstacle
from tests.unit.pb_world import build_world


@translation.override("en")
def test_the_obstacle_to_reinforcing_a_block_is_empty_when_there_is_none():
    world = build_world()
    assert reinforce_obstacle(world, world.blocks[6]) == ""  # the Swedish fleet in Stockholm
    assert reinforce_obstacle(world, world.blocks[2]) == "at full strength"
    assert reinforce_obstacle(world, world.blocks[1]) == (
        "Karl XII has no line of communication (GNW-9)"
    )
