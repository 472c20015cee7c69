"""The Pax Baltica phase resolvers on the small test map: what they change and who may
read each log line."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.pax_baltica import edits, phases
from rules.pax_baltica.state import ARMY, REGIMENT, Block
from rules.refusals import Refused, reason_for
from tests.unit.pb_world import build_world

COALITION = {"russia", "saxony", "denmark"}


def texts_for(world, viewer: set[str]) -> list[str]:
    """The log as a player of ``viewer``'s side reads it."""
    return [
        line.text if not line.audience or viewer & set(line.audience) else line.redacted
        for line in world.log
    ]


def test_a_siege_of_a_territory_without_a_garrison_is_refused():
    world = build_world()
    world.territories["lietuva"].garrison = 0
    phases.resolve_actions(
        world, {"sweden": {"sieges": [{"territory": "lietuva", "blocks": [1]}]}}, ScriptedDice([])
    )
    assert not world.blocks[1].besieging
    assert world.actions["sweden"] == 3
    assert "has no garrison to besiege" in world.log[-1].text


def test_a_siege_check_raises_refused_and_the_forms_question_asks_it_why_not():
    world = build_world()
    lietuva, karl = world.territories["lietuva"], world.blocks[1]
    assert reason_for(phases.check_siege, world, "sweden", lietuva, [karl]) is None
    phases.check_siege(world, "sweden", lietuva, [karl])
    karl.besieging = True
    with pytest.raises(Refused) as refused:
        phases.check_siege(world, "sweden", lietuva, [karl])
    assert refused.value.text == "Karl XII already besieges"
    assert (
        reason_for(phases.check_siege, world, "sweden", lietuva, [karl])
        == "Karl XII already besieges"
    )
    phases.check_siege(world, "sweden", lietuva, [karl], declared=True)
    livland = world.territories["livland"]
    assert reason_for(phases.check_siege, world, "sweden", livland, [karl]) == (
        "Livland is not held by the enemy"
    )


def test_a_declared_siege_is_checked_again_when_it_comes():
    world = build_world()
    world.blocks[1].besieging = True
    world.territories["lietuva"].controller = "sweden"  # the GM recorded a change meanwhile
    phases.resolve_sieges(world, {}, ScriptedDice([]))
    assert "No siege of Lietuva" in world.log[-1].text
    assert not world.blocks[1].besieging


def test_the_garrison_fire_names_the_besiegers_only_to_their_side():
    world = build_world()
    world.blocks[1].besieging = True  # Karl XII (B3, 2 steps) before Lietuva (garrison 1)
    dice = ScriptedDice(
        [6, 6, 1]
    )  # Karl XII fires first (B before C) and misses; the garrison hits
    phases.resolve_sieges(world, {}, dice)
    assert world.blocks[1].strength == 1
    coalition_reads = " ".join(texts_for(world, COALITION))
    sweden_reads = " ".join(texts_for(world, {"sweden"}))
    assert "Karl XII" not in coalition_reads
    assert "Garrison of Lietuva" in coalition_reads and "1 hit on the besiegers" in coalition_reads
    assert "Karl XII loses 1 step" in sweden_reads


def test_an_rp_level_never_falls_below_zero():
    world = build_world()
    world.nations["saxony"].rp_level = 2
    world.blocks[1].besieging = True
    phases.resolve_sieges(world, {}, ScriptedDice([6, 1, 1]))  # garrison misses, 2 hits
    assert world.territories["lietuva"].controller == "sweden"
    assert world.nations["saxony"].rp_level == 0


def test_a_saxon_train_does_not_feed_a_polish_regiment():
    world = build_world()
    world.blocks[20] = Block(20, "saxony", REGIMENT, "Polish horse", 2, 2, nationality="Polish")
    world.blocks[20].location = "lausitz"
    world.blocks[5].strength = 3  # August II, 1 train: demand 2 + 1 = 3 = FP 3 + 0
    phases.resolve_forage(world, {}, ScriptedDice([]))
    assert world.blocks[5].strength == 3 and world.blocks[20].strength == 2
    world.blocks[21] = Block(21, "saxony", ARMY, "Flemming", 2, 4, location="lausitz")
    phases.resolve_forage(world, {}, ScriptedDice([]))  # demand 5, supply 3: two steps
    assert world.blocks[5].strength + world.blocks[21].strength + world.blocks[20].strength == 5


def test_a_gm_move_ends_a_declared_siege_and_carries_the_fleets_cargo():
    world = build_world()
    world.blocks[1].besieging = True
    edits.edit_block(
        world,
        block=1,
        location="lausitz",
        strength=2,
        max_strength=4,
        rating="B3",
        supply_trains=1,
        carried_by=None,
        in_battle=False,
    )
    assert not world.blocks[1].besieging
    world.blocks[11].location, world.blocks[11].carried_by = "stockholm", 6
    edits.edit_block(
        world,
        block=6,
        location="central_baltic",
        strength=3,
        max_strength=4,
        rating="B2",
        supply_trains=0,
        carried_by=None,
        in_battle=False,
    )
    assert world.blocks[11].location == "central_baltic" and world.blocks[11].carried_by == 6


def test_pool_draw_amounts_are_for_the_nations_side_only():
    world = build_world()
    orders = {"saxony": {"draws": 1, "steps_each": 0, "places": ["lausitz"]}}
    phases.resolve_recruitment(world, orders, ScriptedDice([1]))
    sweden_reads = " ".join(texts_for(world, {"sweden"}))
    assert "Schulenburg" not in sweden_reads and "10 spent" not in sweden_reads
    assert "Saxony-Poland places 1 new block" in sweden_reads
