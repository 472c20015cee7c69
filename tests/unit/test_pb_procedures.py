"""GNW-1..GNW-8 and GNW-10..GNW-12, one procedure at a time: the edges of every rule and
option. No database: the small map of ``pb_world``."""

from __future__ import annotations

import dataclasses
import re

import pytest

from rules.dice import DiceExhausted, ScriptedDice
from rules.pax_baltica.procedures import (
    battle_before_siege,
    check_placement,
    check_reinforcement,
    draw_blocks,
    forage,
    friendly_garrison,
    placement_choices,
    reinforce_by_action,
    reinforce_with_rp,
    rp_available,
    rp_levels_after,
    siege_result,
    siege_round,
    step_cost,
)
from rules.pax_baltica.state import ARMY, FLEET, REGIMENT, Block, Nation, Territory
from rules.refusals import Refused, reason_for
from tests.unit.pb_world import build_world

NARVA = Territory("narva", "Narva", nation="sweden", controller="sweden", garrison=2)


def block(id_, strength, rating="C2", *, name=None, kind=ARMY, nation="russia", **kw):
    return Block(id_, nation, kind, name or f"Block {id_}", strength, 4, rating, **kw)


# -- GNW-1 siege round ------------------------------------------------------------------


def test_gnw1_garrison_fires_first_on_equal_letters_and_hits_at_once():
    sheremetev = block(3, 4, name="Sheremetev")
    dice = ScriptedDice([1, 5, 2, 6, 1])
    outcome = siege_round(NARVA, [sheremetev], dice)
    garrison, attacker = outcome.reports
    assert garrison.purpose == "Garrison of Narva (C1, 2 dice)"
    assert garrison.text == "dice 1 5, hits on 1 → 1 hit: Sheremetev 4 → 3"
    assert attacker.purpose == "Sheremetev (C2, 3 dice)"
    assert attacker.text == "dice 2 6 1, hits on 2 or less → 2 hits"
    assert garrison.faces == (1, 5) and garrison.roll.face == 1 and garrison.extra_faces == (5,)
    assert (garrison.rule, garrison.power, garrison.area) == ("GNW-1", "sweden", "narva")
    assert (attacker.power, attacker.area) == ("russia", "narva")
    assert (outcome.garrison_hits, outcome.besieger_hits) == (1, 2)
    assert outcome.captured and outcome.strengths == {3: 3}
    assert dice.unused == 0
    assert outcome.text == (
        "Siege of Narva: the garrison scores 1 hit (Sheremetev 4 → 3); the besiegers score "
        "2 hits against a garrison of 2: the garrison is captured"
    )


def test_gnw1_procedures_change_nothing_they_are_given():
    sheremetev = block(3, 4)
    before = (dataclasses.replace(NARVA), dataclasses.replace(sheremetev))
    siege_round(NARVA, [sheremetev], ScriptedDice([1, 1, 2, 2]))
    assert (NARVA, sheremetev) == before


def test_gnw1_attacker_first_option_lets_equal_letters_fire_before_the_garrison():
    dice = ScriptedDice([6, 6, 6, 6, 1, 1])
    outcome = siege_round(NARVA, [block(3, 4)], dice, {"siege_fire_order": "attacker_first"})
    assert [r.purpose.split(" (")[0] for r in outcome.reports] == ["Block 3", "Garrison of Narva"]
    assert outcome.strengths == {3: 2} and not outcome.captured


def test_gnw1_letters_decide_before_the_defender_rule():
    """A B block fires before the C1 garrison; a D block after it, whatever the option."""
    karl, slow = block(1, 2, "B3", nation="sweden"), block(2, 1, "D1", nation="sweden")
    for options in ({}, {"siege_fire_order": "attacker_first"}):
        outcome = siege_round(NARVA, [slow, karl], ScriptedDice([6, 6, 6, 6, 6]), options)
        assert [r.purpose.split(" (")[0] for r in outcome.reports] == [
            "Block 1",
            "Garrison of Narva",
            "Block 2",
        ]


def test_gnw1_besieging_blocks_fire_strongest_first_then_by_id():
    blocks = [block(5, 2), block(4, 3), block(2, 2)]
    outcome = siege_round(NARVA, blocks, ScriptedDice([6] * 9))
    assert [r.purpose.split(" (")[0] for r in outcome.reports] == [
        "Garrison of Narva",
        "Block 4",
        "Block 2",
        "Block 5",
    ]


def test_gnw1_a_block_eliminated_before_it_fires_rolls_nothing():
    dice = ScriptedDice([1, 1, 3, 3])
    outcome = siege_round(NARVA, [block(1, 1), block(2, 1)], dice)
    assert outcome.strengths == {1: 0, 2: 0}
    assert len(outcome.reports) == 1 and outcome.besieger_hits == 0
    assert "Block 1 1 → 0 (eliminated), Block 2 1 → 0 (eliminated)" in outcome.reports[0].text
    assert dice.unused == 2


def test_gnw1_hits_go_to_the_currently_strongest_block_ties_lowest_id():
    """First hit: 7 (3 → 2); then 7 and 4 tie at 2 and the lower id, 4, loses the step."""
    outcome = siege_round(NARVA, [block(7, 3), block(4, 2)], ScriptedDice([1, 1, 6, 6, 6]))
    assert outcome.strengths == {7: 2, 4: 1}
    assert outcome.reports[0].outcome == "2 hits: Block 7 3 → 2, Block 4 2 → 1"


def test_gnw1_end_of_round_option_lets_a_hit_block_fire_in_full():
    dice = ScriptedDice([1, 1, 6, 6, 6, 2])
    outcome = siege_round(NARVA, [block(3, 4)], dice, {"siege_hits": "end_of_round"})
    garrison, attacker = outcome.reports
    assert garrison.outcome == "2 hits (taken at the end of the round)"
    assert attacker.faces == (6, 6, 6, 2) and outcome.besieger_hits == 1
    assert outcome.strengths == {3: 2} and not outcome.captured
    assert outcome.text.endswith(
        "(Block 3 4 → 2); the besiegers score 1 hit against a garrison of 2: the garrison holds"
    )


def test_gnw1_end_of_round_hits_can_eliminate_and_the_excess_is_lost():
    garrison = dataclasses.replace(NARVA, garrison=3)
    outcome = siege_round(
        garrison, [block(3, 1)], ScriptedDice([1, 1, 1, 1]), {"siege_hits": "end_of_round"}
    )
    assert outcome.strengths == {3: 0} and outcome.garrison_hits == 3
    assert "Block 3 1 → 0 (eliminated), 2 hits lost, no besieger left" in outcome.text
    assert not outcome.captured


def test_gnw1_capture_needs_hits_equal_to_the_garrison():
    strong = dataclasses.replace(NARVA, garrison=3)
    held = siege_round(strong, [block(3, 4, "B2")], ScriptedDice([1, 2, 3, 6, 6, 6, 6]))
    assert held.besieger_hits == 2 and not held.captured
    taken = siege_round(strong, [block(3, 4, "B2")], ScriptedDice([1, 2, 2, 6, 6, 6, 6]))
    assert taken.besieger_hits == 3 and taken.captured


def test_gnw1_dice_run_out_when_too_few_faces_are_entered():
    with pytest.raises(DiceExhausted):
        siege_round(NARVA, [block(3, 4)], ScriptedDice([6, 6, 6]))


# -- GNW-2 siege result -----------------------------------------------------------------


def test_gnw2_enemy_nation_territory_gets_the_captors_marker_and_lowers_the_rp_level():
    world = build_world()
    result = siege_result(world, world.territories["akershus"], "sweden")
    assert (result.controller, result.garrison) == ("sweden", 1)
    assert result.surrendered_nation == "denmark"
    assert result.liberated_nation is None and result.forced_peace is None
    assert result.text == (
        "Sweden captures Denmark's garrison of Akershus and places its own garrison marker: "
        "Sweden controls Akershus; the besiegers may not regroup; Denmark's RP level falls "
        "by 4 (GNW-5)"
    )


def test_gnw2_a_captured_capital_forces_peace():
    world = build_world()
    result = siege_result(world, world.territories["copenhagen"], "sweden")
    assert result.forced_peace == "denmark"
    assert "Copenhagen is Denmark's capital: peace is forced on Denmark (10.2)" in result.text


def surrendered_to_sweden(world, key):
    territory = world.territories[key]
    territory.controller, territory.garrison, territory.surrendered = "sweden", 1, True
    return territory


@pytest.mark.parametrize("liberator", ["denmark", "russia"])
def test_gnw2_friendly_nation_territory_only_loses_the_enemy_marker(liberator):
    world = build_world()
    territory = surrendered_to_sweden(world, "akershus")
    result = siege_result(world, territory, liberator)
    assert (result.controller, result.garrison) == ("denmark", 0)
    assert result.liberated_nation == "denmark" and result.surrendered_nation is None
    assert "control returns to Denmark" in result.text
    assert "Akershus is liberated: Denmark's RP level is restored by 4" in result.text


def test_gnw2_liberation_by_gm_option_restores_nothing():
    world = build_world(liberation="by_gm")
    result = siege_result(world, surrendered_to_sweden(world, "akershus"), "denmark")
    assert result.liberated_nation is None
    assert "the GM decides any RP restoration" in result.text


def test_gnw2_retaking_ones_own_capital_forces_no_peace():
    world = build_world()
    result = siege_result(world, surrendered_to_sweden(world, "copenhagen"), "denmark")
    assert result.forced_peace is None and result.liberated_nation == "denmark"


def test_gnw2_in_poland_the_captor_always_places_its_garrison():
    world = build_world()
    result = siege_result(world, surrendered_to_sweden(world, "lietuva"), "russia")
    assert (result.controller, result.garrison) == ("russia", 1)
    assert result.liberated_nation == "saxony"
    assert "(in Poland the captor may always place it)" in result.text


def test_gnw2_a_territory_of_no_nation_goes_to_the_captor_without_rp_changes():
    world = build_world()
    kurland = world.territories["kurland"]
    kurland.controller, kurland.garrison = "sweden", 1
    result = siege_result(world, kurland, "russia")
    assert (result.controller, result.garrison) == ("russia", 1)
    assert result.surrendered_nation is None and result.liberated_nation is None


def test_gnw2_a_side_cannot_besiege_its_own_garrison():
    world = build_world()
    with pytest.raises(Refused, match="Russia cannot besiege its own side's garrison"):
        siege_result(world, world.territories["lausitz"], "russia")


# -- GNW-3 battle before siege ----------------------------------------------------------


BESIEGERS = [block(1, 3, name="Karl XII"), block(2, 2, name="Rehnskiöld"), block(3, 2)]


def test_gnw3_winning_besiegers_go_on_without_the_blocks_that_fought():
    outcome = battle_before_siege(BESIEGERS, [1], besiegers_won=True)
    assert outcome.siege_goes_ahead and outcome.besiegers == (2, 3)
    assert outcome.retreating == ()
    assert outcome.text == (
        "the besieging side won the battle; the siege goes ahead with Rehnskiöld, Block 3"
    )


def test_gnw3_no_siege_when_every_besieger_fought():
    outcome = battle_before_siege(BESIEGERS, [1, 2, 3], besiegers_won=True)
    assert not outcome.siege_goes_ahead and outcome.besiegers == ()
    assert outcome.text.endswith("no block is left to besiege: no siege")


def test_gnw3_losing_besiegers_all_retreat_by_default():
    outcome = battle_before_siege(BESIEGERS, [1], besiegers_won=False)
    assert not outcome.siege_goes_ahead and outcome.besiegers == ()
    assert sorted(outcome.retreating) == [1, 2, 3]


def test_gnw3_fought_retreat_option_keeps_the_others_besieging():
    outcome = battle_before_siege(
        BESIEGERS, [1], besiegers_won=False, options={"besiegers_lose": "fought_retreat"}
    )
    assert outcome.siege_goes_ahead and outcome.besiegers == (2, 3)
    assert outcome.retreating == (1,)


def test_gnw3_blocks_eliminated_in_the_battle_neither_besiege_nor_retreat():
    beaten = [block(1, 0), block(2, 2)]
    assert battle_before_siege(beaten, [1], besiegers_won=False).retreating == (2,)
    assert battle_before_siege(beaten, [], besiegers_won=True).besiegers == (2,)


# -- GNW-4 forage -----------------------------------------------------------------------


def kurland_group(world):
    return [world.blocks[i] for i in (2, 3, 4)]


def test_gnw4_the_seed_example_in_kurland():
    world = build_world()
    check = forage(world.territories["kurland"], kurland_group(world), loss_order=[3])
    assert (check.demand, check.supply, check.deficit) == (5, 4, 1)
    assert check.losses == {3: 1} and check.ignored == 0
    assert check.text == (
        "Kurland: demand 5 FP (2 armies, 1 regiment), supply 3 FP + 1 from supply trains: "
        "5 − 4 = 1 short; Sheremetev 4 → 3"
    )


def test_gnw4_without_a_choice_the_lowest_id_of_the_strongest_loses():
    world = build_world()
    assert forage(world.territories["kurland"], kurland_group(world)).losses == {2: 1}


def test_gnw4_a_loss_order_naming_a_weaker_block_first_cannot_spare_the_strongest():
    world = build_world()
    check = forage(world.territories["kurland"], kurland_group(world), loss_order=[4, 3])
    assert check.losses == {3: 1}


def test_gnw4_enough_forage_costs_nothing():
    world = build_world()
    check = forage(world.territories["kurland"], kurland_group(world), forage_points=4)
    assert check.deficit == 0 and check.losses == {} and check.text.endswith(": enough")


def test_gnw4_trains_feed_neither_armies_nor_allies():
    armies = [block(1, 4, supply_trains=2), block(2, 4, supply_trains=2)]
    swedish_regiment = block(3, 3, kind=REGIMENT, nation="sweden")
    check = forage(Territory("x", "X", forage_points=0), [*armies, swedish_regiment])
    assert (check.demand, check.supply, check.deficit) == (5, 0, 5)


def test_gnw4_a_train_feeds_at_most_its_nations_regiments():
    group = [block(1, 4, supply_trains=3), block(2, 2, kind=REGIMENT)]
    check = forage(Territory("x", "X", forage_points=1), group)
    assert (check.demand, check.supply, check.deficit) == (3, 2, 1)


def test_gnw4_fleets_and_carried_blocks_need_no_forage():
    group = [block(1, 3, kind=FLEET), block(2, 4, carried_by=1), block(3, 2, kind=REGIMENT)]
    check = forage(Territory("x", "X", forage_points=0), group)
    assert (check.demand, check.losses) == (1, {3: 1})


def test_gnw4_supply_is_capped_at_the_demand():
    check = forage(Territory("x", "X", forage_points=9), [block(1, 4)])
    assert (check.demand, check.supply, check.deficit) == (2, 2, 0)


def test_gnw4_further_losses_follow_the_owners_order_cycling():
    group = [block(1, 4), block(2, 4), block(3, 4)]
    check = forage(Territory("x", "X"), group, loss_order=[2, 3])
    # demand 6: first loss 2 (strongest, first listed), then 3, 2, 3, 2; then 3 is above 1
    assert check.losses == {2: 3, 3: 3} and check.ignored == 0


def test_gnw4_owner_order_falls_back_to_the_strongest_when_the_list_is_spent():
    group = [block(1, 4), block(2, 2)]
    check = forage(Territory("x", "X"), group, loss_order=[2])
    # demand 4: first 1 (4 → 3); then 2 (2 → 1); the list is spent: 1, 1 (3 → 1)
    assert check.losses == {1: 3, 2: 1} and check.ignored == 0


def test_gnw4_strongest_option_ignores_the_loss_order_after_the_first_loss():
    group = [block(1, 4), block(2, 4), block(3, 2, kind=REGIMENT)]
    check = forage(
        Territory("x", "X"), group, loss_order=[3], options={"forage_further_losses": "strongest"}
    )
    assert check.losses == {1: 2, 2: 2, 3: 1}


def test_gnw4_never_below_strength_one_the_rest_is_ignored():
    group = [block(1, 2), block(2, 1)]
    check = forage(Territory("x", "X"), group)
    assert check.losses == {1: 1} and check.ignored == 3
    assert check.text.endswith("Block 1 2 → 1; 3 losses ignored (no block above strength 1)")
    weak = forage(Territory("x", "X"), [block(2, 1)])
    assert weak.losses == {} and weak.ignored == 2
    assert weak.text.endswith(
        "2 short; no block can lose a step (every block is at strength 1): the losses are ignored"
    )


# -- GNW-5 RP level ---------------------------------------------------------------------


def test_gnw5_each_surrender_costs_four_and_each_liberation_restores_four():
    levels = {"denmark": 16, "sweden": 20, "ottoman": None}
    after = rp_levels_after(levels, ["denmark", "denmark", "ottoman"])
    assert after == {"denmark": 8, "sweden": 20, "ottoman": None}
    assert rp_levels_after(after, liberated=["denmark"]) == {**after, "denmark": 12}
    assert levels["denmark"] == 16


def test_gnw5_a_nation_not_in_the_levels_is_left_out():
    assert rp_levels_after({"sweden": 20}, ["prussia"], ["prussia"]) == {"sweden": 20}


# -- GNW-6, GNW-7, GNW-8, GNW-12 --------------------------------------------------------


@pytest.mark.parametrize(
    "level, event, expected", [(14, 8, 22), (14, 0, 14), (None, 3, 3), (2, -5, 0), (None, 0, 0)]
)
def test_gnw12_event_rp_add_to_this_phase_only(level, event, expected):
    nation = Nation("sweden", "Sweden", "sweden", level, event_rp=event)
    assert rp_available(nation) == expected
    assert nation.rp_level == level


def test_gnw7_friendly_garrison_is_one_of_the_blocks_side():
    world = build_world()
    assert friendly_garrison(world, world.blocks[5])  # August II, Saxon Lausitz
    assert not friendly_garrison(world, world.blocks[1])  # Karl XII, Saxon Lietuva
    world.blocks[2].location = "lausitz"  # a Russian block under a Saxon (allied) garrison
    assert friendly_garrison(world, world.blocks[2])
    assert not friendly_garrison(world, world.blocks[3])  # Kurland: no marker
    assert not friendly_garrison(world, world.blocks[8])  # at sea
    assert not friendly_garrison(world, world.blocks[9])  # in the pool


def test_gnw6_step_costs():
    world = build_world()
    costs = {b.kind: (step_cost(b, True), step_cost(b, False)) for b in world.blocks.values()}
    assert costs == {ARMY: (2, 4), REGIMENT: (1, 2), FLEET: (2, 4)}


@pytest.mark.parametrize(
    "block_id, steps, has_line, change, reason",
    [
        (
            9,
            1,
            True,
            {},
            "Schulenburg is in the pool: pool blocks are drawn (GNW-10), not reinforced",
        ),
        (2, 1, True, {"carried_by": 6}, "Pyotr I is carried by a fleet and cannot be reinforced"),
        (1, 1, True, {"in_battle": True}, "Karl XII is in a battle and cannot be reinforced"),
        (8, 1, True, {}, "Galley fleet is at sea: a fleet is reinforced only in a port"),
        (1, 1, False, {}, "Karl XII has no line of communication (GNW-9)"),
        (1, 0, True, {}, "0 steps is no reinforcement"),
        (1, 3, True, {}, "Karl XII is at 2 of 4: it can gain 2 steps, not 3"),
        (2, 1, True, {}, "Pyotr I is at 4 of 4: it can gain 0 steps, not 1"),
    ],
)
def test_gnw7_refusals(block_id, steps, has_line, change, reason):
    world = build_world()
    target = dataclasses.replace(world.blocks[block_id], **change)
    assert reason_for(check_reinforcement, world, target, steps, has_line) == reason
    with pytest.raises(Refused, match=re.escape(reason)):
        reinforce_with_rp(world, target, steps, has_line, 99)


def test_gnw7_a_fleet_in_port_may_be_reinforced():
    world = build_world()
    assert reason_for(check_reinforcement, world, world.blocks[6], 1, True) is None
    assert reinforce_with_rp(world, world.blocks[6], 1, True, 2).rp_cost == 2


def test_gnw7_karl_xii_in_lietuva_pays_double():
    world = build_world()
    karl = world.blocks[1]
    outcome = reinforce_with_rp(world, karl, 2, True, 10)
    assert (outcome.block, outcome.steps, outcome.rp_cost, outcome.actions) == (1, 2, 8, 0)
    assert outcome.strength == 4 and karl.strength == 2
    assert outcome.text == (
        "Karl XII (army) in Lietuva gains 2 steps (2 → 4): "
        "2 steps × 2 RP × 2 (no friendly garrison) = 8 RP"
    )


def test_gnw7_under_a_friendly_garrison_the_normal_price_and_affordability():
    world = build_world()
    august = world.blocks[5]
    outcome = reinforce_with_rp(world, august, 3, True, 6)
    assert outcome.rp_cost == 6 and outcome.text.endswith("3 steps × 2 RP = 6 RP")
    with pytest.raises(Refused, match="3 steps for August II cost 6 RP; 5 RP are left"):
        reinforce_with_rp(world, august, 3, True, 5)


def test_gnw8_one_step_per_action_at_no_rp_cost():
    world = build_world()
    outcome = reinforce_by_action(world, world.blocks[5], 2, True)
    assert (outcome.steps, outcome.rp_cost, outcome.actions, outcome.strength) == (2, 0, 2, 3)
    assert outcome.text == "August II (army) in Lausitz gains 2 steps for 2 actions (1 → 3), no RP"


def test_gnw8_default_doubling_is_for_rp_only():
    world = build_world()
    assert reinforce_by_action(world, world.blocks[1], 2, True).steps == 2


def test_gnw8_two_actions_option_outside_a_friendly_garrison():
    world = build_world(action_doubling="two_actions")
    outcome = reinforce_by_action(world, world.blocks[1], 2, True)
    assert (outcome.steps, outcome.actions, outcome.strength) == (1, 2, 3)
    assert "(2 per step: no friendly garrison)" in outcome.text
    with pytest.raises(Refused, match="3 actions do not buy whole steps"):
        reinforce_by_action(world, world.blocks[1], 3, True)
    assert reinforce_by_action(world, world.blocks[5], 3, True).steps == 3


def test_gnw8_every_gnw7_restriction_applies():
    world = build_world()
    with pytest.raises(Refused, match="no line of communication"):
        reinforce_by_action(world, world.blocks[5], 1, False)
    with pytest.raises(Refused, match="it can gain 3 steps, not 4"):
        reinforce_by_action(world, world.blocks[5], 4, True)
    with pytest.raises(Refused, match="0 steps is no reinforcement"):
        reinforce_by_action(world, world.blocks[5], 0, True)


# -- GNW-11 placement -------------------------------------------------------------------


def test_gnw11_deployment_territories_in_the_scenarios_order():
    world = build_world()
    world.blocks[1].location = "kurland"  # Karl XII leaves Lietuva
    assert placement_choices(world, world.blocks[9]) == ["lausitz", "lietuva"]
    assert placement_choices(world, world.blocks[11]) == ["stockholm", "livland"]


def test_gnw11_never_among_enemy_blocks_or_under_an_enemy_garrison():
    world = build_world()
    schulenburg = world.blocks[9]
    assert placement_choices(world, schulenburg) == ["lausitz"]  # Karl XII in Lietuva
    assert (
        reason_for(check_placement, world, schulenburg, "lietuva") == "Lietuva holds enemy blocks"
    )
    livland = world.territories["livland"]
    livland.controller = "russia"
    assert placement_choices(world, world.blocks[11]) == ["stockholm"]
    assert reason_for(check_placement, world, world.blocks[11], "livland") == (
        "Livland holds Russia's garrison"
    )


def test_gnw11_an_allied_block_or_garrison_is_no_bar():
    world = build_world()
    world.blocks[2].location = "lausitz"
    assert reason_for(check_placement, world, world.blocks[9], "lausitz") is None


def test_gnw11_new_fleets_go_to_their_ports():
    world = build_world()
    fleet = Block(20, "sweden", FLEET, "Second fleet", 1, 4)
    assert placement_choices(world, fleet) == ["stockholm"]
    assert reason_for(check_placement, world, fleet, "livland") == (
        "new Sweden fleets are placed only in Stockholm"
    )
    world.nations["sweden"].fleet_ports = ("stockholm", "velikaya")
    assert placement_choices(world, fleet) == ["stockholm"]
    assert reason_for(check_placement, world, fleet, "velikaya") == "Velikaya has no port"


def test_gnw11_red_dot_blocks_have_their_own_places():
    world = build_world()
    cossacks = Block(21, "russia", REGIMENT, "Cossacks", 1, 3, red_dot=True, places=("kurland",))
    assert placement_choices(world, cossacks) == ["kurland"]
    assert reason_for(check_placement, world, cossacks, "velikaya") == (
        "Cossacks (red dot) is placed only in Kurland"
    )
    assert (
        reason_for(check_placement, world, cossacks, "moscow") == "there is no territory “moscow”"
    )


# -- GNW-10 drawing new blocks ----------------------------------------------------------


def in_order(pool):
    return pool[0]


def test_gnw10_the_saxon_example():
    world = build_world()
    pool = world.pool("saxony")
    names = {k: t.name for k, t in world.territories.items()}
    outcome = draw_blocks(pool, 12, 5, lambda b: 4, lambda b: "lausitz", in_order, {}, names)
    schulenburg, lubomirski = outcome.draws
    assert (schulenburg.steps, schulenburg.rp_spent, schulenburg.placed_at) == (4, 10, "lausitz")
    assert schulenburg.first_step_cost == 4 and not schulenburg.returned
    assert schulenburg.text == (
        "Schulenburg (army) drawn: 2 × 2 = 4 RP for the first step + 3 × 2 = 6 RP for 3 more "
        "= strength 4, placed in Lausitz"
    )
    assert lubomirski.returned and (lubomirski.steps, lubomirski.rp_spent) == (0, 0)
    assert lubomirski.text == (
        "Lubomirski (army) drawn: 2 RP cannot pay the first step (4 RP); "
        "it returns to the pool and spending ends"
    )
    assert (outcome.rp_spent, outcome.rp_lost) == (10, 2)
    assert outcome.text == "12 RP: 10 spent, 1 block placed; 12 − 10 = 2 RP unspent and lost"


def regiment(id_, name="Regiment"):
    return Block(id_, "sweden", REGIMENT, name, 3, 3)


def army(id_, name="Army"):
    return Block(id_, "sweden", ARMY, name, 4, 4)


def test_gnw10_an_unaffordable_draw_ends_spending_even_if_a_cheaper_block_waits():
    outcome = draw_blocks([army(1), regiment(2)], 3, 5, lambda b: 1, lambda b: "x", in_order)
    assert [d.block for d in outcome.draws] == [1]
    assert (outcome.rp_spent, outcome.rp_lost) == (0, 3)


def test_gnw10_draw_again_option_sets_the_block_aside_and_goes_on():
    outcome = draw_blocks(
        [army(1), regiment(2), army(3)],
        3,
        5,
        lambda b: 1,
        lambda b: "x",
        in_order,
        {"unaffordable_draw": "draw_again"},
    )
    assert [(d.block, d.returned) for d in outcome.draws] == [(1, True), (2, False)]
    assert "it is not drawn again this phase" in outcome.draws[0].text
    assert (outcome.rp_spent, outcome.rp_lost) == (2, 1)  # 1 RP cannot pay any first step


def test_gnw10_further_steps_stop_at_full_strength_and_at_the_rp():
    full = draw_blocks([regiment(1)], 20, 1, lambda b: 9, lambda b: "x", in_order)
    assert (full.draws[0].steps, full.rp_spent) == (3, 4)
    poor = draw_blocks([army(1)], 9, 1, lambda b: 4, lambda b: "x", in_order)
    assert (poor.draws[0].steps, poor.rp_spent, poor.rp_lost) == (3, 8, 1)
    one = draw_blocks([regiment(1, "Dal")], 9, 1, lambda b: 1, lambda b: "x", in_order)
    assert (
        one.draws[0].text
        == "Dal (regiment) drawn: 1 × 2 = 2 RP for the first step = strength 1, placed in x"
    )


def test_gnw10_max_draws_and_an_empty_pool_end_the_drawing():
    pool = [regiment(1), regiment(2), regiment(3)]
    assert len(draw_blocks(pool, 20, 2, lambda b: 1, lambda b: "x", in_order).draws) == 2
    assert len(draw_blocks(pool, 20, 9, lambda b: 1, lambda b: "x", in_order).draws) == 3
    assert draw_blocks([], 20, 9, lambda b: 1, lambda b: "x", in_order).rp_lost == 20


def test_gnw10_no_draw_without_the_rp_for_any_first_step():
    outcome = draw_blocks([regiment(1)], 1, 5, lambda b: 1, lambda b: "x", in_order)
    assert outcome.draws == () and outcome.rp_lost == 1


def test_gnw10_the_draw_function_picks_from_what_is_left():
    seen = []

    def last(pool):
        seen.append([b.id for b in pool])
        return pool[-1]

    pool = [regiment(1), regiment(2), regiment(3)]
    outcome = draw_blocks(pool, 20, 3, lambda b: 1, lambda b: "x", last)
    assert seen == [[1, 2, 3], [1, 2], [1]] and [d.block for d in outcome.draws] == [3, 2, 1]


def test_gnw11_an_unplaceable_block_returns_and_its_rp_are_lost_spending_goes_on():
    def place(b):
        return None if b.id == 1 else "x"

    outcome = draw_blocks([regiment(1, "Dal"), regiment(2)], 10, 5, lambda b: 2, place, in_order)
    lost, placed = outcome.draws
    assert lost.returned and lost.placed_at is None and (lost.steps, lost.rp_spent) == (2, 3)
    assert lost.text == (
        "Dal (regiment) drawn: 1 × 2 = 2 RP for the first step + 1 × 1 = 1 RP for 1 more "
        "= strength 2, but it has no legal place: it returns to the pool and the 3 RP paid are "
        "lost"
    )
    assert not placed.returned and (outcome.rp_spent, outcome.rp_lost) == (6, 4)
    assert outcome.text == "10 RP: 6 spent, 1 block placed; 10 − 6 = 4 RP unspent and lost"


def test_gnw11_unplaceable_ends_option_stops_the_spending():
    outcome = draw_blocks(
        [regiment(1), regiment(2)],
        10,
        5,
        lambda b: 1,
        lambda b: None,
        in_order,
        {"unplaceable_block": "ends"},
    )
    assert len(outcome.draws) == 1 and outcome.draws[0].text.endswith("; spending ends")
    assert (outcome.rp_spent, outcome.rp_lost) == (2, 8)
