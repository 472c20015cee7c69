"""VQ-1 conversion, VQ-2 revolt and VQ-3 espionage markers, one edge at a time, driven
through the interactive engine (start → prompt → decide). No database: the small map of
``vq_world``."""

from __future__ import annotations

import copy
import json

import pytest

from rules.dice import ScriptedDice
from rules.refusals import reason_for
from rules.virgin_queen.procedures import (
    DiceReport,
    Pending,
    Refused,
    check_espionage,
    decide,
    eligible_spaces,
    espionage_markers,
    nearest_legal_spaces,
    prompt,
    start_conversion,
    start_revolt,
)
from rules.virgin_queen.ruleset import OPTIONS
from rules.virgin_queen.state import (
    CATHOLIC,
    MERCENARY,
    PROTESTANT_POWER,
    REGULAR,
    TURN_TRACK,
    Markers,
    Units,
    option,
)
from tests.unit.vq_world import build_world


def refused(world, call, match):
    """``call`` raises Refused matching ``match`` and leaves ``world`` exactly as it was."""
    before = copy.deepcopy(world)
    with pytest.raises(Refused, match=match):
        call()
    assert world == before


def catholic(world):
    return {key for key, space in world.spaces.items() if space.religion == CATHOLIC}


def options_of(world, pending, name):
    question = next(q for q in prompt(world, pending).questions if q.name == name)
    return [value for value, _ in question.options]


def texts(world):
    return [line.text for line in world.log]


def displace(world, pending, to, power="france"):
    """``power`` answers a displacement (VQ-2 step 3 or 4) as its owner would: every piece
    it is asked about goes to ``to``, which must be offered."""
    assert (pending.kind, pending.stage, pending.waiting_for) == ("revolt", "displace", power)
    answer = {}
    for question in prompt(world, pending).questions:
        assert to in [value for value, _ in question.options], question
        answer[question.name] = to
    return decide(world, pending, power, answer).pending


# -- options --------------------------------------------------------------------------


def test_options_have_a_default_and_an_alternative_each():
    assert [(spec.key, spec.decision) for spec in OPTIONS] == [
        ("unrest_cancel", "1"),
        ("displacement", "2"),
    ]
    assert all(len(spec.choices) == 2 for spec in OPTIONS)
    assert option({}, "unrest_cancel") == "each_six"
    assert option({"displacement": "automatic"}, "displacement") == "automatic"


# -- VQ-1 conversion ------------------------------------------------------------------


def test_vq1_all_misses_end_at_once_and_change_nothing():
    world = build_world()
    before = catholic(world)
    dice = ScriptedDice([2, 3, 3])
    assert start_conversion(world, "france", ["france"], 3, dice=dice).pending is None
    assert dice.unused == 0 and catholic(world) == before
    line = world.log[0]
    assert line.text == (
        "France rolled dice 2 3 3 for 3 conversion attempts in France (a major conversion on 6, a "
        "minor one on 4–5, an unrest marker on 1, a miss on 2–3): 3 misses (2 3 3)."
    )
    assert line.roll.text == (
        "dice 2 3 3, a major conversion on 6, a minor one on 4–5, an unrest marker on 1, a miss on "
        "2–3: 3 misses (2 3 3)"
    )
    assert isinstance(line.roll, DiceReport) and line.roll.faces == (2, 3, 3)
    assert (line.rule, line.power, line.roll.rule) == ("VQ-1", "france", "VQ-1")
    assert world.log[-1].text == "France's conversion is over: no space converted."


def test_vq1_the_thresholds_of_the_log_line_are_those_the_dice_are_read_by():
    world = build_world()
    pending = start_conversion(
        world, "france", ["france"], 4, dice=ScriptedDice([6, 5, 4, 1])
    ).pending
    assert world.log[0].text.endswith(
        "(a major conversion on 6, a minor one on 4–5, an unrest marker on 1, a miss on 2–3): "
        "1 major conversion (6), 2 minor conversions (5 4), 1 unrest marker (1)."
    )
    assert pending.data["unrest"] == 1 and len(prompt(world, pending).questions) == 1


def test_vq1_the_sixes_prompt_states_steps_4_and_5_and_the_three_conditions():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([6, 1])).pending
    text = prompt(world, pending).text
    assert "Step 4: each 6 is a major conversion. Keep it for step 5, where it flips a space " in (
        text
    )
    assert "conditions a and b, even one holding Protestant units" in text
    assert "Or lower it to 5 to cancel an unrest marker (step 3: 1 marker taken" in text
    assert text.endswith(
        "The conditions: (a) the space is in France; (b) it is adjacent, by land or pass, to a "
        "Catholic space, or it is a port on a sea zone with another Catholic port, and that "
        "space is not in unrest and was Catholic at the start of this step; (c) it holds no "
        "Protestant units."
    )


def test_vq1_the_flips_prompt_states_the_minor_faces_and_the_conditions():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 1, dice=ScriptedDice([4])).pending
    assert pending.stage == "flips"
    text = prompt(world, pending).text
    assert "Step 5: each minor conversion (4–5) or lowered 6 flips a space meeting all three " in (
        text
    )
    assert "The conditions: (a) the space is in France; (b) it is adjacent" in text


def test_vq1_ones_without_conversions_are_discarded():
    world = build_world()
    assert (
        start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([1, 1, 2])).pending
        is None
    )
    assert not any(space.unrest for space in world.spaces.values())
    assert "2 unrest markers discarded: no space was converted (step 6)." in texts(world)


def test_vq1_a_six_lowered_to_five_cancels_unrest_and_becomes_a_minor_conversion():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([6, 1])).pending
    assert (pending.kind, pending.stage, pending.waiting_for) == ("conversion", "sixes", "france")
    asked = prompt(world, pending)
    assert asked.rule == "VQ-1" and asked.text.startswith("France rolled dice 6 1 for 2 conversion")
    assert [q.name for q in asked.questions] == ["die_1"]
    assert options_of(world, pending, "die_1") == [
        "keep",
        "lower",
        "dijon",
        "lyon",
        "nantes",
        "rouen",
    ]
    assert asked.highlight == ("dijon", "lyon", "nantes", "rouen")
    pending = decide(world, pending, "france", {"die_1": "lower"}).pending
    assert pending.stage == "flips"
    assert prompt(world, pending).questions[0].label == "Die 1 (6 lowered to 5)"
    # a lowered 6 is a minor conversion: no space with Protestant units (La Rochelle)
    assert "la_rochelle" not in options_of(world, pending, "die_1")
    assert decide(world, pending, "france", {"die_1": "lyon"}).pending is None
    assert world.spaces["lyon"].religion == CATHOLIC and not world.spaces["lyon"].unrest
    assert "France's 6s (step 4): die 1 is lowered to 5, cancelling an unrest marker (step 3)." in (
        texts(world)
    )


def test_vq1_each_lowered_six_cancels_one_marker_by_default_and_one_in_all_by_option():
    world = build_world()
    pending = start_conversion(
        world, "france", ["france"], 4, dice=ScriptedDice([6, 6, 1, 1])
    ).pending
    after = decide(
        world, copy.deepcopy(pending), "france", {"die_1": "lower", "die_2": "lower"}
    ).pending
    assert after.data["unrest"] == 0 and after.data["lowered"] == [1, 2]
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([6, 6, 1])).pending
    refused(
        world,
        lambda: decide(world, pending, "france", {"die_1": "lower", "die_2": "lower"}),
        "At most 1 six may be lowered to cancel unrest \\(one per unrest marker, and 1 marker",
    )

    strict = build_world(unrest_cancel="one_per_action")
    pending = start_conversion(
        strict, "france", ["france"], 4, dice=ScriptedDice([6, 6, 1, 1])
    ).pending
    refused(
        strict,
        lambda: decide(strict, pending, "france", {"die_1": "lower", "die_2": "lower"}),
        "At most 1 six may be lowered to cancel unrest \\(one per action, by campaign option\\)",
    )
    pending = decide(strict, pending, "france", {"die_1": "lower", "die_2": "keep"}).pending
    assert pending.data["unrest"] == 1


def test_vq1_the_automatic_six_of_an_event_is_not_rolled_and_may_be_lowered():
    world = build_world()
    pending = start_conversion(world, "spain", ["netherlands"], 1, "Council of Troubles").pending
    assert pending.data["faces"] == [6]
    assert world.log[0].roll is None
    assert "(Council of Troubles: the first die is a 6, not rolled)" in world.log[0].text
    assert prompt(world, pending).questions[0].label == "Die 1 (6: Council of Troubles)"
    assert "lower" not in options_of(world, pending, "die_1")  # no unrest to cancel

    dice = ScriptedDice([1])
    pending = start_conversion(
        world, "spain", ["netherlands"], 2, "English Recusants", dice
    ).pending
    assert pending.data["faces"] == [6, 1] and dice.unused == 0
    assert "lower" in options_of(world, pending, "die_1")


def test_vq1_a_kept_six_flips_a_space_with_protestant_units_a_minor_die_cannot():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([6, 4])).pending
    assert "la_rochelle" not in options_of(world, pending, "die_1")  # not in step 4 either
    refused(
        world,
        lambda: decide(world, pending, "france", {"die_1": "la_rochelle"}),
        "La Rochelle holds Protestant units: only a 6 kept for step 5 may flip it",
    )
    pending = decide(world, pending, "france", {"die_1": "keep"}).pending
    assert "la_rochelle" in options_of(world, pending, "die_1")
    assert "la_rochelle" not in options_of(world, pending, "die_2")
    assert prompt(world, pending).questions[1].label == "Die 1 (6 kept for step 5)"
    refused(
        world,
        lambda: decide(world, pending, "france", {"die_2": "la_rochelle", "die_1": "lyon"}),
        "Die 2 \\(4\\): La Rochelle holds Protestant units",
    )
    assert (
        decide(world, pending, "france", {"die_1": "la_rochelle", "die_2": "lyon"}).pending is None
    )
    assert world.spaces["la_rochelle"].religion == CATHOLIC
    assert world.units[4].space == "la_rochelle"  # the Huguenots stay where they are


def test_vq1_a_port_on_a_sea_zone_with_a_catholic_port_is_eligible():
    world = build_world()
    # Nantes touches only La Rochelle (Protestant) by land; Bordeaux is a Catholic port
    # on the Bay of Biscay
    assert "nantes" in eligible_spaces(world, ["france"], catholic(world), ignore_units=False)
    world.spaces["bordeaux"].unrest = True
    assert "nantes" not in eligible_spaces(world, ["france"], catholic(world), ignore_units=False)
    world.spaces["bordeaux"].unrest = False
    world.spaces["bordeaux"].port = False
    assert "nantes" not in eligible_spaces(world, ["france"], catholic(world), ignore_units=False)


def test_vq1_a_neighbour_in_unrest_does_not_count():
    world = build_world()
    world.spaces["orleans"].unrest = True
    eligible = eligible_spaces(world, ["france"], catholic(world), ignore_units=False)
    assert "lyon" not in eligible and "dijon" in eligible  # Dijon still has Paris


def test_vq1_step_four_flips_widen_the_base_for_step_five_but_nothing_chains_in_a_step():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([6, 4])).pending
    assert "clermont" not in options_of(world, pending, "die_1")
    pending = decide(world, pending, "france", {"die_1": "lyon"}).pending
    assert "clermont" in options_of(world, pending, "die_2")  # Lyon is Catholic now

    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([4, 5])).pending
    assert "clermont" not in options_of(world, pending, "die_1")
    refused(
        world,
        lambda: decide(world, pending, "france", {"die_1": "lyon", "die_2": "clermont"}),
        "Clermont is next to no Catholic space out of unrest.*condition b",
    )


def test_vq1_conversions_stay_in_the_targeted_zone():
    world = build_world()
    pending = start_conversion(world, "spain", ["netherlands"], 1, dice=ScriptedDice([4])).pending
    assert options_of(world, pending, "die_1") == ["antwerp", "utrecht"]
    refused(
        world,
        lambda: decide(world, pending, "spain", {"die_1": "dijon"}),
        "Dijon is not in the Netherlands, the struggle zone of this action \\(condition a\\)",
    )
    refused(
        world,
        lambda: decide(world, pending, "spain", {"die_1": "brussels"}),
        "Brussels is already Catholic",
    )


def test_vq1_a_space_is_flipped_only_once():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([4, 4])).pending
    refused(
        world,
        lambda: decide(world, pending, "france", {"die_1": "lyon", "die_2": "lyon"}),
        "Lyon is chosen twice",
    )


def test_vq1_a_die_is_wasted_only_when_no_eligible_space_is_left():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([4, 4])).pending
    refused(
        world,
        lambda: decide(world, pending, "france", {"die_1": "lyon"}),
        "Die 2 \\(4\\): a choice is needed",
    )
    # only Dijon is left in a zone-limited world: the second die is wasted, automatically
    world = build_world()
    for key in ("lyon", "nantes", "rouen"):
        world.spaces[key].religion = CATHOLIC
    for key in ("lyon", "orleans"):
        world.spaces[key].unrest = True
    assert eligible_spaces(world, ["france"], catholic(world), ignore_units=False) == ["dijon"]
    assert (
        start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([4, 5])).pending is None
    )
    assert world.spaces["dijon"].religion == CATHOLIC
    assert (
        "France's step 5: die 1 (4) flips Dijon to Catholic; "
        "die 2 (5) is wasted: no eligible space is left."
    ) in texts(world)


def test_vq1_a_blank_is_accepted_when_the_other_dice_take_every_space_it_could_flip():
    world = build_world()
    for key in ("nantes", "rouen", "clermont"):
        world.spaces[key].religion = CATHOLIC
    world.spaces["clermont"].unrest = True
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([4, 4, 4])).pending
    assert [q.min for q in prompt(world, pending).questions] == [0, 0, 0]  # Dijon, Lyon
    refused(world, lambda: decide(world, pending, "france", {"die_1": "lyon"}), "can still flip")
    assert decide(world, pending, "france", {"die_1": "lyon", "die_3": "dijon"}).pending is None
    assert texts(world)[-2] == (
        "France's step 5: die 1 (4) flips Lyon to Catholic; die 2 (4) is wasted: no eligible space "
        "is left; die 3 (4) flips Dijon to Catholic."
    )


def test_vq1_an_answer_wasting_a_die_another_assignment_would_use_is_refused():
    """The reviewer's case: Utrecht holds a Protestant unit, so Spain's 4 may flip only
    Antwerp, while its kept 6 may flip Antwerp or Utrecht. The 6 on Antwerp leaves the 4
    nothing, but 4 → Antwerp and 6 → Utrecht flips both: a die may be wasted only when no
    assignment could use it (Decision 5)."""
    world = build_world()
    world.units[8] = Units(8, PROTESTANT_POWER, REGULAR, "utrecht", 1)
    pending = start_conversion(
        world, "spain", ["netherlands"], 2, dice=ScriptedDice([6, 4])
    ).pending
    assert options_of(world, pending, "die_1") == ["keep", "antwerp"]
    pending = decide(world, pending, "spain", {"die_1": "keep"}).pending
    assert pending.stage == "flips"
    assert options_of(world, pending, "die_2") == ["antwerp"]
    assert options_of(world, pending, "die_1") == ["antwerp", "utrecht"]
    wasteful = (
        "These dice can flip 2 spaces together and your answer flips 1: give each die a "
        "space so that none is wasted \\(Decision 5\\)"
    )
    for answer in ({"die_1": "antwerp", "die_2": ""}, {"die_1": "antwerp"}):
        refused(world, lambda a=answer: decide(world, pending, "spain", a), wasteful)
    assert decide(world, pending, "spain", {"die_1": "utrecht", "die_2": "antwerp"}).pending is None
    assert {"antwerp", "utrecht"} <= catholic(world)
    assert (
        "Spain's step 5: die 2 (4) flips Antwerp to Catholic; die 1 (6) flips Utrecht to Catholic."
    ) in texts(world)


def test_vq1_unrest_goes_to_converted_spaces_one_each():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([4, 4, 1])).pending
    pending = decide(world, pending, "france", {"die_1": "lyon", "die_2": "dijon"}).pending
    assert pending.stage == "unrest"
    (question,) = prompt(world, pending).questions
    assert (question.name, question.many, question.min, question.max) == ("unrest", True, 1, 1)
    assert [value for value, _ in question.options] == ["dijon", "lyon"]
    refused(
        world,
        lambda: decide(world, pending, "france", {"unrest": ["rouen"]}),
        "“rouen” is not one of the choices",
    )
    refused(
        world,
        lambda: decide(world, pending, "france", {"unrest": ["lyon", "dijon"]}),
        "choose exactly 1, not 2",
    )
    assert decide(world, pending, "france", {"unrest": ["lyon"]}).pending is None
    assert world.spaces["lyon"].unrest and not world.spaces["dijon"].unrest


def test_vq1_unrest_beyond_the_converted_spaces_is_discarded():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([4, 1, 1])).pending
    assert decide(world, pending, "france", {"die_1": "rouen"}).pending is None
    assert [key for key, space in world.spaces.items() if space.unrest] == ["rouen"]
    assert (
        "Unrest in Rouen; 1 unrest marker discarded: more markers than converted spaces"
        in (texts(world)[-2])
    )


def test_vq1_refuses_a_start_that_is_not_legal():
    world = build_world()
    refused(
        world,
        lambda: start_conversion(world, "england", ["france"], 1, dice=ScriptedDice([4])),
        "England is not a Catholic power",
    )
    refused(
        world,
        lambda: start_conversion(world, "france", ["france"], 0, dice=ScriptedDice([])),
        "at least one attempt",
    )
    refused(
        world,
        lambda: start_conversion(world, "france", ["spain"], 1, dice=ScriptedDice([4])),
        "There is no religious struggle zone “spain”",
    )


def test_vq1_only_the_waiting_power_answers_unless_the_gm_does():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 1, dice=ScriptedDice([6])).pending
    refused(
        world,
        lambda: decide(world, pending, "spain", {"die_1": "keep"}),
        "This conversion waits for France, not Spain",
    )
    pending = decide(world, pending, "spain", {"die_1": "keep"}, as_gm=True).pending
    assert pending.stage == "flips"


def test_vq1_refused_answers_leave_the_pending_data_unchanged_and_data_is_json():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([6, 4, 1])).pending
    kept = copy.deepcopy(pending)
    refused(world, lambda: decide(world, pending, "france", {"die_1": "paris"}), "already")
    refused(world, lambda: decide(world, pending, "france", {"die_1": ["keep"]}), "choose one")
    refused(world, lambda: decide(world, pending, "france", {}), "a choice is needed")
    assert pending == kept
    assert json.loads(json.dumps(pending.data)) == pending.data
    stored = Pending(
        pending.kind, pending.stage, pending.waiting_for, json.loads(json.dumps(kept.data))
    )
    assert decide(world, stored, "france", {"die_1": "keep"}).pending.stage == "flips"


# -- VQ-2 revolt ----------------------------------------------------------------------


def test_vq2_refuses_illegal_targets_and_cp_clearly():
    world = build_world()
    cases = [
        ("lyon", 1, "A revolt costs 2 to 5 CP, not 1"),
        ("lyon", 6, "A revolt costs 2 to 5 CP, not 6"),
        ("london", 3, "London is in neither France nor the Netherlands"),
        ("la_rochelle", 3, "La Rochelle is not under French political control"),
        ("paris", 3, "Paris is Catholic"),
        ("nowhere", 3, "There is no space “nowhere”"),
    ]
    for target, cp, match in cases:
        refused(world, lambda t=target, c=cp: start_revolt(world, t, c, ScriptedDice([])), match)
    world.spaces["antwerp"].controller = "france"
    refused(
        world,
        lambda: start_revolt(world, "antwerp", 2, ScriptedDice([])),
        "Antwerp is not under Spanish political control \\(France controls it\\): no revolt",
    )
    world.spaces["lyon"].besieged = True
    refused(world, lambda: start_revolt(world, "lyon", 3, ScriptedDice([])), "under siege")
    world.spaces["lyon"].besieged, world.spaces["lyon"].unrest = False, True
    pending = start_revolt(world, "lyon", 2, ScriptedDice([6, 6])).pending  # unrest is ok
    assert displace(world, pending, "orleans").stage == "extra"


def test_vq2_succeeds_automatically_without_catholic_units():
    world = build_world()
    dice = ScriptedDice([])
    pending = start_revolt(world, "dijon", 2, dice).pending
    assert dice.rolls == []
    assert "No Catholic unit of France in Dijon: the revolt succeeds automatically (step 2)." in (
        texts(world)
    )
    assert pending is None  # Lyon holds a French regular, Paris is Catholic: no extra space
    assert world.spaces["dijon"].controller == PROTESTANT_POWER


def test_vq2_mercenaries_are_never_catholic_units_so_success_is_automatic():
    world = build_world()
    world.units[3].space = "dijon"  # 2 French mercenaries
    dice = ScriptedDice([])
    pending = start_revolt(world, "dijon", 2, dice).pending
    assert dice.rolls == []
    # Dijon touches Paris and Lyon, both fortified and French: France chooses
    assert (pending.stage, pending.waiting_for) == ("displace", "france")
    asked = prompt(world, pending)
    (question,) = asked.questions
    assert question.name == "unit:3" and question.label == "2 French mercenaries in Dijon"
    assert [value for value, _ in question.options] == ["lyon", "paris"]
    assert asked.highlight == ("lyon", "paris")
    refused(
        world,
        lambda: decide(world, pending, "france", {"unit:3": "orleans"}),
        "Orléans is not among the nearest legal spaces \\(Lyon and Paris\\)",
    )
    refused(
        world,
        lambda: decide(world, pending, "protestant", {"unit:3": "paris"}),
        "waits for France, not the Protestant",
    )
    assert decide(world, pending, "france", {"unit:3": "lyon"}).pending is None
    assert world.units[3].space == "lyon"


def test_vq2_the_gm_may_answer_a_displacement_for_its_owner():
    world = build_world()
    world.units[3].space = "dijon"
    pending = start_revolt(world, "dijon", 2, ScriptedDice([])).pending
    assert decide(world, pending, "protestant", {"unit:3": "lyon"}, as_gm=True).pending is None
    assert world.units[3].space == "lyon"


def test_vq2_automatic_displacement_option_takes_the_first_nearest_space():
    world = build_world(displacement="automatic")
    world.units[3].space = "dijon"
    assert start_revolt(world, "dijon", 2, ScriptedDice([])).pending is None
    assert world.units[3].space == "lyon"
    assert (
        "2 French mercenaries in Dijon displaced to Lyon (the nearest, first by name) (step 3)."
        in (texts(world))
    )


def test_vq2_a_displaced_stack_joins_its_powers_stack_there():
    world = build_world()
    world.units[3].space = "rouen"  # Rouen touches only Paris
    world.units[8] = Units(8, "france", MERCENARY, "paris", 1)
    pending = start_revolt(world, "rouen", 2, ScriptedDice([])).pending
    assert 3 not in world.units and world.units[8].count == 3
    assert pending is None  # no adjacent space, no capital to place, no leader


def test_vq2_units_go_to_their_capital_even_when_no_path_leads_there():
    world = build_world()
    world.adjacency["rouen"].clear()  # cut off from Paris, still France's capital
    world.units[3].space = "rouen"
    assert (
        start_revolt(world, "rouen", 2, ScriptedDice([])).pending is None
    )  # Paris, the only choice
    assert world.units[3].space == "paris"
    assert "2 French mercenaries in Rouen displaced to Paris (step 3)." in texts(world)


def test_vq2_units_without_a_legal_space_are_eliminated():
    world = build_world()
    world.adjacency["rouen"].clear()  # cut off from every fortified space
    world.spaces["paris"].controller = "spain"  # and France does not hold its capital
    world.units[3].space = "rouen"
    start_revolt(world, "rouen", 2, ScriptedDice([]))
    assert 3 not in world.units
    assert any(
        "no fortified space or capital of France to go to, eliminated" in t for t in texts(world)
    )


def test_vq2_third_catholic_powers_units_are_not_hit_and_are_displaced():
    world = build_world()
    world.units[8] = Units(8, "spain", REGULAR, "dijon", 2)
    dice = ScriptedDice([])
    pending = start_revolt(world, "dijon", 2, dice).pending
    assert dice.rolls == [] and pending is None
    assert 8 not in world.units and world.units[5].count == 5  # Dijon – Paris – Brussels
    assert "2 Spanish regulars in Dijon displaced to Brussels (step 3)." in texts(world)


def test_vq2_fails_with_units_left_after_one_hit():
    world = build_world()
    world.units[2].count = 2
    assert start_revolt(world, "lyon", 3, ScriptedDice([5, 1, 2])).pending is None
    assert world.units[2].count == 1
    assert world.spaces["lyon"].controller == "france" and not world.wars
    assert texts(world)[-2:] == [
        "France removes 1 French regular in Lyon (step 2).",
        "1 Catholic unit of France remains in Lyon: the revolt fails (step 2).",
    ]


def test_vq2_no_hit_fails_without_a_question():
    world = build_world()
    assert start_revolt(world, "lyon", 2, ScriptedDice([4, 4])).pending is None
    assert world.units[2].count == 1 and world.units[3].space == "lyon"


def test_vq2_a_protestant_home_space_adds_a_die():
    world = build_world()
    dice = ScriptedDice([1, 1, 6])
    start_revolt(world, "antwerp", 2, dice)
    assert dice.unused == 1  # Antwerp is not a home space: 2 dice
    world = build_world()
    world.units[9] = Units(9, "spain", REGULAR, "amsterdam", 1)
    dice = ScriptedDice([1, 1, 6])
    start_revolt(world, "amsterdam", 2, dice)
    assert dice.unused == 0
    assert (
        world.log[1].roll.purpose == "Revolt in Amsterdam (2 CP, +1 die in a Protestant home space)"
    )
    assert 9 not in world.units


def test_vq2_the_controller_allocates_hits_among_its_stacks():
    world = build_world()
    pending = start_revolt(world, "antwerp", 3, ScriptedDice([6, 1, 2])).pending
    assert (pending.stage, pending.waiting_for) == ("hits", "spain")
    questions = prompt(world, pending).questions
    assert [(q.name, [v for v, _ in q.options]) for q in questions] == [
        ("unit:6", ["0", "1"]),
        ("unit:7", ["0", "1"]),
    ]
    refused(
        world,
        lambda: decide(world, pending, "spain", {"unit:6": "1", "unit:7": "1"}),
        "1 hit must be taken, one unit each, not 2",
    )
    refused(
        world,
        lambda: decide(world, pending, "spain", {"unit:6": "0", "unit:7": "0"}),
        "not 0",
    )
    refused(
        world,
        lambda: decide(world, pending, "france", {"unit:6": "0", "unit:7": "1"}),
        "waits for Spain",
    )
    assert decide(world, pending, "spain", {"unit:6": "0", "unit:7": "1"}).pending is None
    assert 7 not in world.units and world.units[6].count == 1
    assert texts(world)[-2] == "Spain removes 1 Spanish naval unit in Antwerp (step 2)."


def test_vq2_extra_spaces_are_limited_by_the_cp_and_adjacent_to_the_target():
    world = build_world()
    pending = displace(
        world, start_revolt(world, "lyon", 2, ScriptedDice([5, 5])).pending, "orleans"
    )
    (question,) = prompt(world, pending).questions
    assert (question.name, question.many, question.min, question.max) == ("extra", True, 0, 1)
    assert [value for value, _ in question.options] == ["clermont", "dijon"]
    refused(
        world,
        lambda: decide(world, pending, "protestant", {"extra": ["dijon", "clermont"]}),
        "2 CP put at most 2 spaces under Protestant control, Lyon included: at most 1 more",
    )
    refused(
        world,
        lambda: decide(world, pending, "protestant", {"extra": ["rouen"]}),
        "Rouen is not adjacent to Lyon, the target \\(Decision 6\\)",
    )
    refused(
        world,
        lambda: decide(world, pending, "protestant", {"extra": ["orleans"]}),
        "Orléans is Catholic, not under Protestant religious influence",
    )
    assert decide(world, pending, "protestant", {"extra": ["dijon"]}).pending is None
    assert world.spaces["dijon"].controller == PROTESTANT_POWER
    assert world.spaces["clermont"].controller == "france"


def test_vq2_extra_spaces_must_be_free_of_catholic_units_and_meet_step_one():
    world = build_world()
    world.units[8] = Units(8, "france", REGULAR, "dijon", 1)
    world.spaces["clermont"].besieged = True
    pending = start_revolt(world, "lyon", 3, ScriptedDice([5, 5, 5])).pending
    pending = displace(world, pending, "orleans")  # Guise and the mercenaries
    assert pending is None  # nothing to choose: Dijon has a regular, Clermont is besieged
    assert "No space adjacent to Lyon can also come under Protestant control (step 4)." in (
        texts(world)
    )


def test_vq2_units_in_extra_spaces_are_displaced_after_the_choice():
    world = build_world()
    world.units[8] = Units(8, "france", MERCENARY, "clermont", 1)
    pending = start_revolt(world, "lyon", 3, ScriptedDice([5, 1, 1])).pending
    pending = displace(world, pending, "orleans")
    assert pending.stage == "extra"
    pending = decide(world, pending, "protestant", {"extra": ["clermont"]}).pending
    assert world.units[8].space == "clermont"  # France chooses where it goes (step 4)
    assert (pending.stage, pending.waiting_for) == ("displace", "france")
    asked = prompt(world, pending)
    assert "(step 4, 12.5)" in asked.text
    assert [(q.name, q.label) for q in asked.questions] == [
        ("unit:8", "1 French mercenary in Clermont")
    ]
    # Clermont – Lyon (now Protestant) – Orléans, or Paris, France's capital
    assert asked.highlight == ("orleans", "paris")
    assert displace(world, pending, "orleans") is None
    assert 8 not in world.units and world.units[3].count == 3  # joins the Lyon mercenaries
    assert "1 French mercenary in Clermont displaced to Orléans (step 4)." in texts(world)


def test_vq2_one_regular_per_two_full_cp():
    for cp, regulars in ((2, 1), (3, 1), (4, 2), (5, 2)):
        world = build_world()
        world.units.pop(2)  # no Catholic unit in Lyon
        pending = displace(
            world, start_revolt(world, "lyon", cp, ScriptedDice([])).pending, "orleans"
        )
        decide(world, pending, "protestant", {"extra": []})
        assert world.units[f"new:lyon:{PROTESTANT_POWER}:{REGULAR}"].count == regulars
        assert world.counter_mix["france"] == 6 - regulars


def test_vq2_regulars_are_limited_by_the_counter_mix_and_join_a_stack_there():
    world = build_world()
    world.units[9] = Units(9, PROTESTANT_POWER, REGULAR, "utrecht", 1)
    pending = start_revolt(world, "utrecht", 4, ScriptedDice([])).pending
    decide(world, pending, "protestant", {"extra": []})
    assert world.units[9].count == 2 and world.counter_mix["netherlands"] == 0
    assert "1 Dutch regular placed in Utrecht, not 2: the counter mix has no more" in (
        "\n".join(texts(world))
    )
    assert not any(str(key).startswith("new:") for key in world.units)


def test_vq2_the_war_marker_is_placed_once():
    world = build_world()
    world.units.pop(2)
    pending = displace(world, start_revolt(world, "lyon", 2, ScriptedDice([])).pending, "paris")
    decide(world, pending, "protestant", {"extra": []})
    assert world.wars == {frozenset({"france", PROTESTANT_POWER})}
    assert "The Protestant and France are now at war (step 6)." in texts(world)
    start_revolt(world, "rouen", 2, ScriptedDice([]))
    assert world.wars == {frozenset({"france", PROTESTANT_POWER})}
    assert texts(world).count("The Protestant and France are already at war (step 6).") == 1


def test_vq2_a_capital_and_a_leader_may_be_placed_or_declined():
    world = build_world()
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    assert pending.stage == "extra"
    pending = decide(world, pending, "protestant", {"extra": []}).pending
    assert world.spaces["amsterdam"].controller == PROTESTANT_POWER
    assert (pending.stage, pending.waiting_for) == ("capital", PROTESTANT_POWER)
    (question,) = prompt(world, pending).questions
    assert (question.name, question.min, question.options) == (
        "capital",
        0,
        (("amsterdam", "Amsterdam"),),
    )
    pending = decide(world, pending, "protestant", {"capital": "amsterdam"}).pending
    assert world.capitals["netherlands"] == "amsterdam"
    assert pending.stage == "leader"
    (question,) = prompt(world, pending).questions
    assert question.options == (("4", "William of Orange"),)
    refused(world, lambda: decide(world, pending, "protestant", {"leader": "1"}), "not one of")
    assert decide(world, pending, "protestant", {"leader": "4"}).pending is None
    assert world.leaders[4].space == "amsterdam"
    assert texts(world)[-1] == (
        "The revolt in Amsterdam is over: the Protestant now controls Amsterdam."
    )

    world = build_world()
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    pending = decide(world, pending, "protestant", {"extra": []}).pending
    pending = decide(world, pending, "protestant", {"capital": ""}).pending
    assert world.capitals["netherlands"] is None
    assert decide(world, pending, "protestant", {}).pending is None
    assert world.leaders[4].space is None


def test_vq2_no_capital_while_it_is_on_the_turn_track():
    world = build_world()
    world.capitals["netherlands"] = TURN_TRACK
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    pending = decide(world, pending, "protestant", {"extra": []}).pending
    assert pending.stage == "leader"
    assert any("on the turn track" in text for text in texts(world))


def test_vq2_the_seed_example():
    world = build_world()
    pending = start_revolt(world, "lyon", 3, ScriptedDice([1, 2, 5])).pending
    assert world.log[1].text == (
        "Revolt in Lyon (3 CP): dice 1 2 5, hits on 5–6: 1 hit against 1 Catholic unit of France."
    )
    # step 3: "the nearest fortified space under French control or Paris": Orléans chosen
    pending = displace(world, pending, "orleans")
    assert world.units[3].space == "orleans" and world.leaders[2].space == "orleans"
    assert decide(world, pending, "protestant", {"extra": ["dijon", "clermont"]}).pending is None
    assert world.units["new:lyon:protestant:regular"].count == 1
    assert {line.rule for line in world.log} == {"VQ-2"}


def test_vq2_the_seeds_mercenaries_are_offered_orleans_and_paris_and_france_chooses():
    """Step 3 of the seed: "the nearest fortified space under French control or Paris,
    the French capital". France (the owner) chooses; the revolt waits for it."""
    world = build_world()
    pending = start_revolt(world, "lyon", 3, ScriptedDice([1, 2, 5])).pending
    assert (pending.kind, pending.stage, pending.waiting_for) == ("revolt", "displace", "france")
    asked = prompt(world, pending)
    both = (("orleans", "Orléans"), ("paris", "Paris"))
    assert [(q.name, q.label, q.options, q.min) for q in asked.questions] == [
        ("unit:3", "2 French mercenaries in Lyon", both, 1),
        ("leader:2", "Guise in Lyon", both, 1),
    ]
    assert asked.highlight == ("orleans", "paris")
    assert "(step 3, 12.5)" in asked.text
    assert world.units[3].space == "lyon" and world.spaces["lyon"].controller == "france"
    refused(
        world,
        lambda: decide(world, pending, "france", {"unit:3": "dijon", "leader:2": "paris"}),
        "2 French mercenaries in Lyon: Dijon is not among the nearest legal spaces "
        "\\(Orléans and Paris\\)",
    )
    refused(
        world,
        lambda: decide(world, pending, "france", {"unit:3": "paris"}),
        "Guise in Lyon: a choice is needed",
    )
    refused(
        world,
        lambda: decide(world, pending, PROTESTANT_POWER, {"unit:3": "paris", "leader:2": "paris"}),
        "waits for France, not the Protestant",
    )
    pending = decide(world, pending, "france", {"unit:3": "paris", "leader:2": "orleans"}).pending
    assert world.units[3].space == "paris" and world.units[1].space == "paris"  # two stacks
    assert world.leaders[2].space == "orleans"
    assert "2 French mercenaries in Lyon displaced to Paris (step 3)." in texts(world)
    assert "Guise in Lyon displaced to Orléans (step 3)." in texts(world)
    assert (pending.stage, pending.waiting_for) == ("extra", PROTESTANT_POWER)
    assert world.spaces["lyon"].controller == PROTESTANT_POWER


def test_vq2_the_seeds_mercenaries_go_to_the_first_by_name_with_automatic_displacement():
    world = build_world(displacement="automatic")
    pending = start_revolt(world, "lyon", 3, ScriptedDice([1, 2, 5])).pending
    assert (pending.stage, pending.waiting_for) == ("extra", PROTESTANT_POWER)  # no wait
    assert world.units[3].space == "orleans" and world.leaders[2].space == "orleans"
    assert (
        "2 French mercenaries in Lyon displaced to Orléans (the nearest, first by name) (step 3)."
        in (texts(world))
    )
    assert "Guise in Lyon displaced to Orléans (the nearest, first by name) (step 3)." in texts(
        world
    )


def test_nearest_legal_spaces_are_all_those_at_the_shortest_distance():
    world = build_world()
    assert nearest_legal_spaces(world, "france", "dijon") == ["lyon", "paris"]
    # the nearest fortified spaces, and France's capital however far it is
    assert nearest_legal_spaces(world, "france", "clermont") == ["lyon", "paris"]
    assert nearest_legal_spaces(world, "france", "lyon") == ["orleans", "paris"]
    assert nearest_legal_spaces(world, "france", "paris") == ["orleans"]  # not the origin
    assert nearest_legal_spaces(world, "spain", "dijon") == ["brussels"]
    assert nearest_legal_spaces(world, PROTESTANT_POWER, "nantes") == ["la_rochelle"]
    world.spaces["paris"].fortified = False  # still France's capital
    assert nearest_legal_spaces(world, "france", "rouen") == ["paris"]
    assert nearest_legal_spaces(world, "england", "lyon") == []
    world.spaces["paris"].controller = "spain"  # a capital France lost is no refuge
    assert nearest_legal_spaces(world, "france", "clermont") == ["lyon"]
    assert nearest_legal_spaces(world, "france", "rouen") == ["orleans"]  # via Paris


def test_unknown_stage_is_refused():
    world = build_world()
    with pytest.raises(Refused, match="There is no revolt stage “vote”"):
        decide(world, Pending("revolt", "vote", "france", {}), "france", {})


# -- VQ-3 espionage -------------------------------------------------------------------


def test_vq3_espionage_is_refused_on_turns_one_and_two():
    assert "turn 1" in reason_for(check_espionage, 1) and "turn 3" in reason_for(check_espionage, 1)
    assert reason_for(check_espionage, 2).startswith("No espionage on turn 2")
    assert reason_for(check_espionage, 3) is None and reason_for(check_espionage, 7) is None


def test_vq3_markers_are_given_at_the_start_of_turn_three_only():
    world = build_world()
    world.turn = 2
    espionage_markers(world)
    assert all(markers == Markers() for markers in world.markers.values()) and not world.log
    world.turn = 3
    espionage_markers(world)
    assert all(markers == Markers(2, 1, 1) for markers in world.markers.values())
    assert len(world.markers) == 6
    assert [line.rule for line in world.log] == ["VQ-3"]
    assert world.log[0].text == (
        "Turn 3: espionage begins. Each power receives 2 Informant markers, "
        "1 Assassination Used marker and 1 Cipher Key marker."
    )
    world.turn = 4
    world.markers = {"france": Markers()}
    espionage_markers(world)
    assert world.markers["france"] == Markers() and len(world.log) == 1


def test_vq3_markers_are_added_to_those_the_gm_gave_before_turn_three():
    """The hook runs once, when turn 3 begins; a marker a power already holds (one the GM
    gave earlier) does not stop any power receiving its four."""
    world = build_world()
    world.markers["england"] = Markers(informant=1, cipher_key=2)
    world.turn = 3
    espionage_markers(world)
    assert world.markers["england"] == Markers(3, 1, 3)
    others = {power: m for power, m in world.markers.items() if power != "england"}
    assert len(others) == 5 and all(m == Markers(2, 1, 1) for m in others.values())
    assert [line.rule for line in world.log] == ["VQ-3"]
    # each call gives them again: the turn hook, not this function, calls it once
    espionage_markers(world)
    assert world.markers["france"] == Markers(4, 2, 2) and len(world.log) == 2
