"""EIA-1..EIA-12, one procedure at a time: the edges of every rule and option."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.empires_in_arms.legal import (
    depot_attack_areas,
    guerrilla_destinations,
    is_enemy_of_guerrillas,
    operation_areas,
    revolt_targets,
)
from rules.empires_in_arms.procedures import (
    aid_revolt,
    anti_guerrilla_operation,
    depot_attack,
    guerrilla_move,
    revolt_attempt,
    revolt_attempt_needs,
    revolt_ending,
    revolt_guerrillas,
    revolt_strength,
    spanish_guerrilla_areas,
    spanish_guerrilla_removal,
    spanish_guerrillas,
    successful_revolt,
    three_months_ending,
    voluntary_lapse,
)
from rules.empires_in_arms.state import (
    ALLIED,
    CLIENT,
    CONQUERED,
    Corps,
    Depot,
    Guerrilla,
    Revolt,
    option,
)
from rules.modifiers import Modifier
from rules.refusals import Refused


def labels(report) -> list[str]:
    return [m.label for m in report.roll.modifiers]


# -- EIA-1 revolt attempt ---------------------------------------------------------------


def attempt(world, face, *, area="palatinate", nm=1, let_downs=0, earlier=(), options=None):
    gb = world.powers["great_britain"]
    dice = ScriptedDice([face] if face else [])
    area_ = world.areas[area]
    return revolt_attempt(gb, area_, nm, let_downs, list(earlier), dice, options), dice


def refused_attempt(world, *, area="palatinate", earlier=(), options=None) -> str:
    """Why the attempt is Refused: it rolls no die."""
    gb, dice = world.powers["great_britain"], ScriptedDice([])
    with pytest.raises(Refused) as refused:
        revolt_attempt(gb, world.areas[area], 1, 0, list(earlier), dice, options)
    assert dice.rolls == []
    return refused.value.text


def test_eia1_palatinate_reads_like_the_gms_email(world):
    world.powers["great_britain"].zone = "Dominant"
    outcome, _ = attempt(world, 4)
    assert outcome.broke_out
    assert outcome.report.text == (
        "die 4 +1 Great Britain national modifier +1 Great Britain Dominant = 6 ≥ 6: "
        "the revolt breaks out"
    )
    assert outcome.report.rule == "EIA-1"
    assert outcome.political_points == 9


def test_eia1_a_failed_attempt_still_costs_one_pp(world):
    outcome, _ = attempt(world, 3)
    assert not outcome.broke_out
    assert outcome.report.text.endswith("= 4 < 6: no revolt")
    assert outcome.political_points == 9


@pytest.mark.parametrize(
    ("zone", "nm", "let_downs", "needs"),
    [("Dominant", 1, 0, 4), ("Dominant", 1, 2, 6), ("Dominant", 3, 0, 2), ("Dominant", 0, 3, 8)],
)
def test_eia1_what_the_die_needs_is_the_face_from_which_the_attempt_breaks_out(
    world, zone, nm, let_downs, needs
):
    world.powers["great_britain"].zone = zone
    area = world.areas["palatinate"]
    assert revolt_attempt_needs(world.powers["great_britain"], area, nm, let_downs) == needs
    for face in range(1, 7):
        outcome, _ = attempt(world, face, nm=nm, let_downs=let_downs)
        assert outcome.broke_out == (face >= needs), face


def test_eia1_let_down_penalty_in_a_minor(world):
    outcome, _ = attempt(world, 6, let_downs=2)
    assert Modifier("let down 2 earlier revolts", -2) in outcome.report.roll.modifiers
    assert outcome.report.roll.total == 5 and not outcome.broke_out


def test_eia1_let_downs_do_not_count_in_a_ceded_province(world):
    outcome, _ = attempt(world, 6, area="andalusia", nm=0, let_downs=2)
    assert not any("let down" in label for label in labels(outcome.report))
    assert outcome.broke_out


def test_eia1_zero_modifiers_are_kept_for_transparency(world):
    outcome, _ = attempt(world, 5, nm=0)
    assert labels(outcome.report) == [
        "Great Britain national modifier",
        "Great Britain Neutral",
        "let down 0 earlier revolts",
    ]
    assert outcome.report.text == "die 5 = 5 < 6: no revolt"


def test_eia1_political_status_is_the_zone_when_rolled(world):
    world.powers["great_britain"].zone = "Fiasco"
    outcome, _ = attempt(world, 6)
    assert Modifier("Great Britain Fiasco", -2) in outcome.report.roll.modifiers
    assert outcome.report.roll.total == 5


def test_eia1_fourth_attempt_refused(world):
    reason = refused_attempt(world, earlier=["hesse", "wallachia", "andalusia"])
    assert reason == "Great Britain has made its 3 attempts this revolt step"
    assert world.powers["great_britain"].political_points == 10


def test_eia1_per_target_limit_allows_a_fourth_attempt_elsewhere(world):
    options = {"attempt_limit": "per_target"}
    outcome, _ = attempt(world, 6, earlier=["hesse", "hesse", "hesse"], options=options)
    assert outcome.broke_out


def test_eia1_per_target_limit_refuses_a_fourth_attempt_on_one_target(world):
    options = {"attempt_limit": "per_target"}
    reason = refused_attempt(world, earlier=["palatinate"] * 3, options=options)
    assert reason == "Great Britain has made its 3 attempts on Palatinate this step"


def test_eia1_pp_may_go_negative_by_default(world):
    world.powers["great_britain"].political_points = 0
    outcome, _ = attempt(world, 2)
    assert outcome.political_points == -1


def test_eia1_negative_pp_need_no_minimum_by_default(world):
    world.powers["great_britain"].political_points = -2
    outcome, _ = attempt(world, 6, earlier=["hesse", "wallachia"])
    assert outcome.broke_out
    assert outcome.political_points == -3


def test_eia1_pp_minimum_option_refuses_without_pp(world):
    world.powers["great_britain"].political_points = 0
    reason = refused_attempt(world, options={"attempt_pp_minimum": 1})
    assert reason == "Great Britain has 0 PP; an attempt needs 1"
    assert world.powers["great_britain"].political_points == 0


# -- EIA-2 revolt strength --------------------------------------------------------------


def strength(world, face, *, sponsor_nm=1, controller_nm=0, corps=False, area="palatinate"):
    gb, france = world.powers["great_britain"], world.powers["france"]
    dice = ScriptedDice([face])
    return revolt_strength(gb, france, world.areas[area], sponsor_nm, controller_nm, corps, dice)


def test_eia2_palatinate_six_becomes_five(world):
    world.powers["great_britain"].zone = "Dominant"
    world.powers["france"].zone = "Dominant"
    outcome = strength(world, 5)
    assert outcome.number == 5
    assert outcome.report.text == (
        "die 5 +1 Great Britain national modifier +1 Great Britain Dominant -1 France Dominant"
        " = 6 > 5: revolt number 5 (a new revolt's number is 2 to 5)"
    )


def test_eia2_revolt_number_never_above_5(world):
    world.powers["great_britain"].zone = "Dominant"
    assert strength(world, 6, sponsor_nm=3).number == 5


def test_eia2_revolt_number_never_below_2(world):
    world.powers["great_britain"].zone = "Fiasco"
    outcome = strength(world, 1, sponsor_nm=-1, controller_nm=2, corps=True)
    assert outcome.report.roll.total == -5
    assert outcome.number == 2
    assert "< 2: revolt number 2" in outcome.report.text


def test_eia2_unclamped_number_has_no_comparison(world):
    outcome = strength(world, 3, sponsor_nm=0)
    assert outcome.report.text == "die 3 = 3: revolt number 3"


def test_eia2_controller_corps_present_is_minus_one_and_shown_even_when_zero(world):
    assert Modifier("France corps present", 0) in strength(world, 3).report.roll.modifiers
    assert Modifier("France corps present", -1) in (
        strength(world, 3, corps=True).report.roll.modifiers
    )


def test_eia2_controller_national_modifier_is_subtracted(world):
    outcome = strength(world, 4, sponsor_nm=0, controller_nm=2)
    assert Modifier("France national modifier", -2) in outcome.report.roll.modifiers
    assert outcome.number == 2


def test_eia2_ceded_former_home_province_modifiers(world):
    assert world.national_modifier("spain", "andalusia") == 3
    assert world.national_modifier("france", "andalusia") == 0


# -- EIA-3 revolt guerrillas ------------------------------------------------------------


def guerrillas(world, face, *, number=5, existing=0, area="palatinate"):
    revolt = Revolt(1, "great_britain", area, number)
    return revolt_guerrillas(revolt, world.areas[area], existing, ScriptedDice([face]))


def test_eia3_one_factor_per_point_under_the_revolt_number(world):
    outcome = guerrillas(world, 2)
    assert outcome.created == 3
    assert outcome.report.text == "die 2 = 2 < 5: 5 − 2 = 3 guerrilla factors in Palatinate"
    assert outcome.report.rule == "EIA-3"


@pytest.mark.parametrize("face", [5, 6])
def test_eia3_a_roll_at_or_over_the_number_creates_none(world, face):
    outcome = guerrillas(world, face)
    assert outcome.created == 0
    assert outcome.report.text == f"die {face} = {face} ≥ 5: no guerrilla factors"


def test_eia3_never_above_five_times_manpower(world):
    outcome = guerrillas(world, 1, existing=9)
    assert outcome.created == 1
    assert "4 guerrilla factors, of which 10 − 9 = 1 fit under the cap of 10" in outcome.report.text


def test_eia3_manpower_zero_counts_as_one(world):
    assert world.areas["hesse"].guerrilla_cap == 5
    assert guerrillas(world, 1, number=9, area="hesse").created == 5


def test_eia3_an_area_at_its_cap_gets_none(world):
    assert guerrillas(world, 1, existing=10).created == 0


def test_eia3_a_number_raised_by_aid_above_5_still_counts(world):
    assert guerrillas(world, 1, number=7).created == 6


# -- EIA-4 anti-guerrilla operation -----------------------------------------------------


def stack(factors, *, besieged=False, area="palatinate", nationality="great_britain"):
    return Guerrilla(None, area, nationality, factors, area, revolt=True, besieged=besieged)


def operate(world, faces, *, power="france", area="palatinate", number=3, corps=1,
            stacks=(), options=None):  # fmt: skip
    revolt = Revolt(1, "great_britain", area, number) if number else None
    area_ = world.areas[area]
    controller = world.powers[area_.controller]
    dice = ScriptedDice(faces)
    outcome = anti_guerrilla_operation(
        world.powers[power], area_, revolt, corps, list(stacks), controller, dice, options
    )
    return outcome, dice


def test_eia4_success_eliminates_unbesieged_guerrillas_and_lowers_the_number(world):
    free, besieged = stack(3), stack(2, besieged=True)
    outcome, _ = operate(world, [5], stacks=[free, besieged])
    assert outcome.success
    assert outcome.eliminated == (free,)
    assert outcome.revolt_number == 2
    assert outcome.report.text == (
        "die 5 = 5 > revolt number 3: 3 guerrilla factors eliminated, 2 besieged survive; "
        "revolt number 3 → 2 (−1 for the success)"
    )


def test_eia4_besieged_guerrillas_eliminated_option(world):
    free, besieged = stack(3), stack(2, besieged=True)
    options = {"besieged_guerrillas": "eliminated"}
    outcome, _ = operate(world, [5], stacks=[free, besieged], options=options)
    assert outcome.eliminated == (free, besieged)


def test_eia4_roll_equal_to_the_value_fails(world):
    outcome, _ = operate(world, [3], stacks=[stack(3)])
    assert not outcome.success and outcome.eliminated == ()
    assert outcome.revolt_number == 3
    assert outcome.report.text == "die 3 = 3 ≤ revolt number 3: no effect"


def test_eia4_operation_in_a_revolt_without_guerrillas(world):
    outcome, _ = operate(world, [4])
    assert outcome.success and outcome.revolt_number == 2
    assert "no guerrillas to hit" in outcome.report.text


def test_eia4_two_or_more_eligible_corps_add_one(world):
    outcome, _ = operate(world, [3], corps=2)
    assert outcome.report.roll.total == 4 and outcome.success
    assert outcome.report.roll.modifiers == (Modifier("2 or more eligible corps", 1),)


def test_eia4_one_corps_shows_the_zero_modifier(world):
    outcome, _ = operate(world, [3])
    assert outcome.report.roll.modifiers == (Modifier("2 or more eligible corps", 0),)


def test_eia4_modified_six_lowers_one_more(world):
    outcome, _ = operate(world, [6], number=4)
    assert outcome.revolt_number == 2
    assert "revolt number 4 → 2 (−1 for the success, −1 more for a modified 6)" in (
        outcome.report.text
    )


def test_eia4_modified_six_extra_reduction_off(world):
    outcome, _ = operate(world, [6], number=4, options={"six_extra_reduction": False})
    assert outcome.revolt_number == 3


def test_eia4_extra_reduction_needs_a_success_by_default(world):
    outcome, _ = operate(world, [5], number=6, corps=2)
    assert outcome.report.roll.total == 6 and not outcome.success
    assert outcome.revolt_number == 6


def test_eia4_extra_reduction_on_any_modified_six_option(world):
    options = {"six_extra_needs_success": False}
    outcome, _ = operate(world, [5], number=6, corps=2, options=options)
    assert outcome.revolt_number == 5
    assert "revolt number 6 → 5 (−1 more for a modified 6)" in outcome.report.text


def test_eia4_bad_roll_without_payment_raises_the_number(world):
    world.powers["france"].pays_bad_roll = False
    outcome, dice = operate(world, [1])
    assert outcome.revolt_number == 4
    assert outcome.payment is None and outcome.controller_treasury is None
    assert len(dice.rolls) == 1
    assert outcome.report.text == (
        "die 1 = 1 ≤ revolt number 3: no effect; a bad roll, France does not pay (standing order): "
        "revolt number 3 → 4"
    )


def test_eia4_bad_roll_payment_die_is_rolled_and_logged(world):
    outcome, dice = operate(world, [1, 4])
    assert outcome.revolt_number == 3
    assert outcome.controller_treasury == 16
    assert [r.purpose for r in dice.rolls] == [
        "France anti-guerrilla operation in Palatinate",
        "France pays $d6 against the rise",
    ]
    assert outcome.payment.rule == "EIA-4"
    assert outcome.payment.text == "die 4 = 4 ≤ treasury $20: France pays $4; revolt number stays 3"
    assert outcome.report.text.endswith("a bad roll: France pays $d6 or the revolt number rises")


def test_eia4_bad_roll_payment_never_option_rolls_no_payment_die(world):
    outcome, dice = operate(world, [1], options={"bad_roll_payment": "never"})
    assert outcome.revolt_number == 4 and len(dice.rolls) == 1
    assert "France never pays (campaign option)" in outcome.report.text


def test_eia4_unaffordable_payment_rises(world):
    world.powers["france"].treasury = 2
    outcome, _ = operate(world, [1, 5])
    assert outcome.revolt_number == 4
    assert outcome.controller_treasury == 2
    assert outcome.payment.text == (
        "die 5 = 5 > treasury $2: France cannot pay $5 (treasury $2): revolt number 3 → 4"
    )


def test_eia4_unaffordable_payment_pays_all_option(world):
    world.powers["france"].treasury = 2
    outcome, _ = operate(world, [1, 5], options={"unaffordable_payment": "pays_all"})
    assert outcome.revolt_number == 3
    assert outcome.controller_treasury == 0
    assert "France pays its whole treasury, $2" in outcome.payment.text


def test_eia4_bad_roll_modified_6_option(world):
    world.powers["france"].pays_bad_roll = False
    options = {"bad_roll": "modified_6"}
    outcome, _ = operate(world, [6], number=5, options=options)
    assert outcome.revolt_number == 4  # −1 success, −1 modified 6, +1 bad roll
    low, _ = operate(world, [1], options=options)
    assert low.revolt_number == 3


def test_eia4_no_bad_roll_outside_a_revolt(world):
    outcome, dice = operate(world, [1], area="andalusia", number=None)
    assert outcome.revolt_number is None and len(dice.rolls) == 1


def test_eia4_spanish_province_uses_its_printed_value(world):
    spanish = stack(3, area="andalusia", nationality="spain")
    failed, _ = operate(world, [4], area="andalusia", number=None, stacks=[spanish])
    done, _ = operate(world, [5], area="andalusia", number=None, stacks=[spanish])
    assert not failed.success and failed.report.comparison == "≤ guerrilla value 4"
    assert done.success and done.eliminated == (spanish,)


@pytest.mark.parametrize("choice, success", [("revolt_number", True), ("printed", False)])
def test_eia4_spanish_province_in_revolt_value_option(world, choice, success):
    options = {"spanish_revolt_value": choice}
    outcome, _ = operate(world, [3], area="andalusia", number=2, options=options)
    assert outcome.success is success


def test_eia4_ottoman_bonus_replaces_the_two_corps_modifier(world):
    outcome, _ = operate(world, [2], power="turkey", area="bosnia", corps=3)
    assert outcome.report.roll.modifiers == (Modifier("Ottoman: 3 eligible corps", 3),)
    assert outcome.report.roll.total == 5


def test_eia4_ottoman_bonus_adds_to_the_two_corps_modifier(world):
    options = {"ottoman_bonus": "adds"}
    outcome, _ = operate(world, [2], power="turkey", area="bosnia", corps=2, options=options)
    assert outcome.report.roll.modifiers == (
        Modifier("2 or more eligible corps", 1),
        Modifier("Ottoman: 2 eligible corps", 2),
    )


def test_eia4_ottoman_bonus_capped_at_3(world):
    outcome, _ = operate(world, [1], power="turkey", area="bosnia", corps=5)
    assert outcome.report.roll.modifiers == (Modifier("Ottoman: 5 eligible corps", 3),)


def test_eia4_ottoman_bonus_inside_an_ottoman_home_province(world):
    """Bosnia is an Ottoman home nation province: one eligible corps is +1, where any
    other power would have +0."""
    outcome, _ = operate(world, [2], power="turkey", area="bosnia", corps=1)
    assert outcome.report.roll.modifiers == (Modifier("Ottoman: 1 eligible corps", 1),)
    assert (
        outcome.report.text == "die 2 +1 Ottoman: 1 eligible corps = 3 ≤ revolt number 3: no effect"
    )


def test_eia4_no_ottoman_bonus_in_a_province_ceded_to_the_ottomans(world):
    castile = world.areas["castile"]
    castile.controller, castile.ceded = "turkey", True  # a home province of Spain's
    outcome, _ = operate(world, [2], power="turkey", area="castile", corps=2)
    assert labels(outcome.report) == ["2 or more eligible corps"]


def test_eia4_ottoman_bonus_in_a_minor_conquered_by_the_ottomans(world):
    world.areas["wallachia"].minor_status = CONQUERED
    outcome, _ = operate(world, [1], power="turkey", area="wallachia", corps=1)
    assert outcome.report.roll.modifiers == (Modifier("Ottoman: 1 eligible corps", 1),)


@pytest.mark.parametrize("status", [ALLIED, CLIENT, ""])
def test_eia4_no_ottoman_bonus_in_an_ottoman_minor_not_conquered(world, status):
    world.areas["wallachia"].minor_status = status
    outcome, _ = operate(world, [1], power="turkey", area="wallachia", corps=2)
    assert labels(outcome.report) == ["2 or more eligible corps"]


def test_eia4_no_ottoman_bonus_outside_ottoman_ground(world):
    outcome, _ = operate(world, [1], power="turkey", area="palatinate", corps=3)
    assert labels(outcome.report) == ["2 or more eligible corps"]


def test_eia4_no_ottoman_bonus_for_another_power_in_ottoman_ground(world):
    outcome, _ = operate(world, [1], power="russia", area="bosnia", corps=3)
    assert labels(outcome.report) == ["2 or more eligible corps"]


def test_eia4_any_powers_success_lowers_the_number_by_default(world):
    outcome, _ = operate(world, [5], power="austria")
    assert outcome.revolt_number == 2


def test_eia4_controller_only_option(world):
    options = {"operation_lowers": "controller_only"}
    outcome, _ = operate(world, [5], power="austria", stacks=[stack(2)], options=options)
    assert outcome.revolt_number == 3 and outcome.eliminated
    assert "only the controller's operations lower the revolt number" in outcome.report.text


# -- EIA-5 aid --------------------------------------------------------------------------


def aid(world, amount, face=None):
    revolt = Revolt(1, "great_britain", "palatinate", 3)
    dice = ScriptedDice([face] if face else [])
    gb = world.powers["great_britain"]
    return aid_revolt(gb, revolt, world.areas["palatinate"], amount, dice), dice


def test_eia5_roll_at_most_the_amount_raises_the_number(world):
    outcome, _ = aid(world, 3, 3)
    assert outcome.revolt_number == 4 and outcome.treasury == 17
    assert outcome.report.text == "die 3 = 3 ≤ $3: revolt number 3 → 4"


def test_eia5_money_is_spent_whatever_the_result(world):
    outcome, _ = aid(world, 3, 4)
    assert outcome.revolt_number == 3 and outcome.treasury == 17
    assert outcome.report.text == "die 4 = 4 > $3: no effect"


def refused_aid(world, amount) -> str:
    """Why the aid is Refused: it rolls no die and spends nothing."""
    revolt, dice = Revolt(1, "great_britain", "palatinate", 3), ScriptedDice([])
    gb = world.powers["great_britain"]
    treasury = gb.treasury
    with pytest.raises(Refused) as refused:
        aid_revolt(gb, revolt, world.areas["palatinate"], amount, dice)
    assert dice.rolls == [] and gb.treasury == treasury and revolt.number == 3
    return refused.value.text


@pytest.mark.parametrize("amount", [0, 7, -2])
def test_eia5_aid_is_1_to_6(world, amount):
    assert refused_aid(world, amount) == f"aid is $1 to $6, not {amount}"


def test_eia5_a_power_that_cannot_afford_it_is_refused(world):
    world.powers["great_britain"].treasury = 2
    assert refused_aid(world, 3) == "Great Britain cannot afford $3 (treasury $2)"


# -- EIA-7 ending a revolt --------------------------------------------------------------


def test_eia7_voluntary_lapse_lets_a_minor_down(world):
    ending = voluntary_lapse(world.areas["palatinate"], world.powers["great_britain"])
    assert ending.let_down and ending.reason == "Great Britain lets it lapse"


def test_eia7_voluntary_lapse_in_a_province_counts_no_let_down(world):
    assert not voluntary_lapse(world.areas["andalusia"], world.powers["spain"]).let_down


def test_eia7_three_months_without_guerrillas(world):
    revolt = Revolt(1, "great_britain", "palatinate", 3, months_without_guerrillas=2)
    assert three_months_ending(revolt, world.areas["palatinate"]) is None
    revolt.months_without_guerrillas = 3
    ending = three_months_ending(revolt, world.areas["palatinate"])
    assert ending.reason == (
        "no guerrillas in Palatinate for 3 months in a row; "
        "it ends in the fourth month, before that month's guerrilla rolls"
    )
    assert not ending.let_down


def test_eia7_allies_end_the_revolt_as_a_let_down(world):
    revolt = Revolt(1, "great_britain", "palatinate", 3)
    world.alliances.add(frozenset(("great_britain", "france")))
    ending = revolt_ending(world, revolt)
    assert ending.let_down and ending.reason == "Great Britain and France are allies"


def test_eia7_allies_end_a_revolt_in_a_ceded_province_without_counting_a_let_down(world):
    """The sponsor "is considered to have let down the revolt", but the count only ever
    weighs on attempts in a minor (EIA-1's −L): none is recorded for a province."""
    revolt = Revolt(1, "spain", "andalusia", 3)
    world.alliances.add(frozenset(("spain", "france")))
    ending = revolt_ending(world, revolt)
    assert ending.reason == "Spain and France are allies"
    assert not ending.let_down and not ending.to_infantry


def test_eia7_area_ceded_to_the_sponsor(world):
    revolt = Revolt(1, "spain", "andalusia", 3)
    world.areas["andalusia"].controller = "spain"
    ending = revolt_ending(world, revolt)
    assert ending.reason == "Andalusia is now Spain's" and not ending.let_down


def test_eia7_neutral_minor_turns_guerrillas_into_infantry(world):
    revolt = Revolt(1, "great_britain", "palatinate", 3)
    world.areas["palatinate"].controller = None
    ending = revolt_ending(world, revolt)
    assert ending.to_infantry and ending.reason == "Palatinate is neutral"


@pytest.mark.parametrize("number", [1, 0])
def test_eia7_revolt_number_1_or_less_puts_it_down(world, number):
    ending = revolt_ending(world, Revolt(1, "great_britain", "palatinate", number))
    assert ending.reason == f"put down (revolt number {number})"


def test_eia7_a_revolt_going_on_has_no_ending(world):
    assert revolt_ending(world, Revolt(1, "great_britain", "palatinate", 2)) is None


# -- EIA-8 successful revolt ------------------------------------------------------------


def success_world(world, area="palatinate", sponsor="great_britain", factors=4, **revolt):
    fields = {"number": 6, "capital_held_months": 1} | revolt
    world.revolts.append(Revolt(1, sponsor, area, **fields))
    world.guerrillas.append(Guerrilla(1, area, sponsor, factors, area))
    return world.revolts[-1]


@pytest.mark.parametrize("fields", [{"capital_held_months": 0}, {"number": 5}])
def test_eia8_needs_the_capital_for_a_month_and_number_6(world, fields):
    assert successful_revolt(world, success_world(world, **fields)) is None


@pytest.mark.parametrize("factors, besieged", [(0, False), (4, True)])
def test_eia8_needs_unbesieged_guerrilla_factors_in_the_area(world, factors, besieged):
    """EIA-8: "Guerrilla factors have occupied the area's capital, unbesieged": none, or
    only besieged ones, is no success whatever the months entered."""
    revolt = Revolt(1, "great_britain", "palatinate", 6, capital_held_months=1)
    world.revolts.append(revolt)
    if factors:
        world.guerrillas.append(stack(factors, besieged=besieged))
    assert successful_revolt(world, revolt) is None


def test_eia8_at_peace_a_minor_becomes_an_allied_minor(world):
    revolt = success_world(world)
    world.corps.append(Corps(1, "austria", "palatinate"))
    world.corps.append(Corps(2, "great_britain", "palatinate"))
    outcome = successful_revolt(world, revolt)
    assert outcome.controller == "great_britain" and not outcome.ceded
    assert outcome.minor_status == ALLIED
    assert (outcome.infantry, outcome.infantry_owner) == (4, "palatinate")
    assert outcome.reason == (
        "Palatinate becomes an allied minor of Great Britain; "
        "4 guerrilla factors become infantry of Palatinate"
    )
    assert outcome.gm_note == (
        "GM: repatriate garrisons of France from Palatinate; "
        "move corps of Austria to nearest friendly territory"
    )


def test_eia8_at_peace_a_ceded_province_reverts_to_the_sponsors_home_nation(world):
    revolt = success_world(world, area="andalusia", sponsor="spain")
    outcome = successful_revolt(world, revolt)
    assert (outcome.controller, outcome.ceded, outcome.home_power) == ("spain", False, "spain")
    assert (outcome.infantry, outcome.infantry_owner, outcome.minor_status) == (4, "spain", "")
    assert outcome.reason == (
        "Andalusia becomes a home province of Spain again; 4 guerrilla factors become infantry "
        "of Spain"
    )
    assert "move corps" not in outcome.gm_note and "check" not in outcome.gm_note


def test_eia8_at_peace_another_powers_ceded_province_is_not_made_the_sponsors_home(world):
    revolt = success_world(world, area="andalusia")
    outcome = successful_revolt(world, revolt)
    assert (outcome.controller, outcome.ceded, outcome.home_power) == (
        "great_britain",
        True,
        "spain",
    )
    assert (outcome.infantry, outcome.infantry_owner) == (4, "great_britain")
    assert outcome.gm_note.endswith(
        "GM: check Andalusia: the rules speak only of a former province of the sponsor "
        "reverting, and Andalusia never was Great Britain's; Great Britain is made its "
        "controller, its home nation and cession are left as they were"
    )


def test_eia8_at_peace_islamic_infantry_where_appropriate(world):
    world.areas["wallachia"].islamic = True
    revolt = success_world(world, area="wallachia", sponsor="russia")
    outcome = successful_revolt(world, revolt)
    assert (outcome.infantry, outcome.infantry_owner) == (4, "wallachia")
    assert outcome.reason.endswith("4 guerrilla factors become Islamic infantry of Wallachia")


def test_eia8_at_war_a_former_home_province_gets_regular_infantry(world):
    world.wars.add(frozenset(("spain", "france")))
    outcome = successful_revolt(world, success_world(world, area="andalusia", sponsor="spain"))
    assert (outcome.controller, outcome.ceded, outcome.home_power) == ("spain", False, "spain")
    assert (outcome.infantry, outcome.infantry_owner, outcome.minor_status) == (4, "spain", "")
    assert outcome.reason.endswith("4 guerrilla factors become regular infantry")
    assert outcome.gm_note is None


def test_eia8_at_war_another_powers_province_is_conquered_and_guerrillas_removed(world):
    world.wars.add(frozenset(("great_britain", "france")))
    outcome = successful_revolt(world, success_world(world, area="andalusia"))
    assert outcome.controller == "great_britain" and outcome.infantry == 0
    assert (outcome.home_power, outcome.ceded) == ("spain", True)


def test_eia8_at_war_a_minor_may_become_a_client_state(world):
    world.wars.add(frozenset(("great_britain", "france")))
    outcome = successful_revolt(world, success_world(world), "client")
    assert outcome.choice == "client" and outcome.minor_status == CLIENT
    assert (outcome.infantry, outcome.infantry_owner) == (4, "palatinate")
    assert outcome.reason == (
        "Palatinate becomes a client state of Great Britain with 4 infantry factors"
    )


def test_eia8_at_war_a_minor_is_conquered_by_default(world):
    world.wars.add(frozenset(("great_britain", "france")))
    outcome = successful_revolt(world, success_world(world))
    assert outcome.choice == "conquered" and outcome.minor_status == CONQUERED
    assert outcome.infantry == 0 and outcome.controller == "great_britain"
    assert outcome.reason == (
        "Palatinate becomes a conquered minor of Great Britain (Great Britain gave no choice: "
        "conquered by default); 4 guerrilla factors removed"
    )


def test_eia8_at_war_a_minor_conquered_by_choice(world):
    world.wars.add(frozenset(("great_britain", "france")))
    outcome = successful_revolt(world, success_world(world), "conquered")
    assert outcome.minor_status == CONQUERED
    assert outcome.reason == (
        "Palatinate becomes a conquered minor of Great Britain; 4 guerrilla factors removed"
    )


# -- EIA-9 guerrilla movement -----------------------------------------------------------


def refused_move(world, stack_, destination) -> str:
    """Why the move is Refused: the stack stays where it is."""
    here = stack_.area
    with pytest.raises(Refused) as refused:
        guerrilla_move(world, stack_, destination)
    assert stack_.area == here
    return refused.value.text


def test_eia9_spanish_guerrillas_move_one_adjacent_area(world):
    spanish = Guerrilla(1, "castile", "spain", 2, "castile", revolt=False)
    outcome = guerrilla_move(world, spanish, "granada")
    assert (outcome.stack, outcome.destination) == (1, "granada")
    assert outcome.text == "2 guerrilla factors of Spain move from Castile to Granada"
    assert spanish.area == "castile"  # the phase moves it


def test_eia9_revolt_guerrillas_never_leave_their_area_of_origin(world):
    reason = refused_move(world, stack(2), "castile")
    assert reason.endswith("stay in Palatinate: revolt guerrillas never leave Palatinate")


def test_eia9_besieged_guerrillas_stay(world):
    spanish = Guerrilla(1, "castile", "spain", 2, "castile", revolt=False, besieged=True)
    assert refused_move(world, spanish, "granada").endswith("they are besieged")


def test_eia9_spanish_guerrillas_stay_within_spains_original_home_nation(world):
    world.adjacency["castile"].add("palatinate")
    spanish = Guerrilla(1, "castile", "spain", 1, "castile", revolt=False)
    assert guerrilla_destinations(world, spanish) == ["andalusia", "granada"]
    assert refused_move(world, spanish, "palatinate") == (
        "1 guerrilla factor of Spain stays in Castile: Palatinate is not an adjacent area they "
        "may enter"
    )


def test_eia9_from_a_ceded_province_to_any_former_spanish_province_whoever_holds_it(world):
    world.areas["castile"].controller = "france"  # occupied, not ceded
    spanish = Guerrilla(1, "andalusia", "spain", 1, "andalusia", revolt=False)
    assert guerrilla_destinations(world, spanish) == ["castile", "granada"]


def test_eia9_revolt_and_besieged_stacks_have_no_destinations(world):
    besieged = Guerrilla(1, "castile", "spain", 1, "castile", revolt=False, besieged=True)
    assert guerrilla_destinations(world, besieged) == []
    assert guerrilla_destinations(world, stack(2)) == []


def test_eia9_only_adjacent_areas(world):
    spanish = Guerrilla(1, "castile", "spain", 1, "castile", revolt=False)
    assert refused_move(world, spanish, "bosnia") == (
        "1 guerrilla factor of Spain stays in Castile: "
        "Bosnia is not an adjacent area they may enter"
    )


# -- EIA-10 Spanish guerrillas ----------------------------------------------------------


def test_eia10_unceded_province_with_an_unbesieged_enemy_corps_rolls(world):
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "castile"))
    assert spanish_guerrilla_areas(world) == ["castile"]


def test_eia10_no_roll_for_a_corps_of_a_power_not_at_war_with_spain(world):
    world.corps.append(Corps(1, "france", "castile"))
    assert spanish_guerrilla_areas(world) == []


def test_eia10_no_roll_for_a_besieged_enemy_corps(world):
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "castile", besieged=True))
    assert spanish_guerrilla_areas(world) == []


def test_eia10_an_enemy_garrison_is_enough(world):
    world.wars.add(frozenset(("spain", "france")))
    world.depots.append(Depot(1, "france", "granada", garrison=3))
    assert spanish_guerrilla_areas(world) == ["granada"]


def test_eia10_ceded_province_rolls_for_its_controller_even_at_peace(world):
    world.corps.append(Corps(1, "france", "andalusia"))
    assert spanish_guerrilla_areas(world) == ["andalusia"]


def test_eia10_ceded_province_ignores_a_third_power_at_peace_with_spain(world):
    world.corps.append(Corps(1, "austria", "andalusia"))
    assert spanish_guerrilla_areas(world) == []


def test_eia10_one_factor_per_point_under_the_printed_value(world):
    outcome = spanish_guerrillas(world.areas["granada"], 0, ScriptedDice([2]), in_revolt=False)
    assert outcome.created == 3
    assert outcome.report.rule == "EIA-10"
    assert outcome.report.text == "die 2 = 2 < 5: 5 − 2 = 3 guerrilla factors in Granada"


def test_eia10_spanish_guerrillas_respect_the_cap_in_a_province_in_revolt(world):
    outcome = spanish_guerrillas(world.areas["granada"], 9, ScriptedDice([1]), in_revolt=True)
    assert outcome.created == 1
    assert "4 guerrilla factors, of which 10 − 9 = 1 fit under the cap of 10" in outcome.report.text


def test_eia10_no_cap_outside_a_revolt(world):
    outcome = spanish_guerrillas(world.areas["granada"], 9, ScriptedDice([1]), in_revolt=False)
    assert outcome.created == 4
    assert outcome.report.text == "die 1 = 1 < 5: 5 − 1 = 4 guerrilla factors in Granada"


# -- EIA-9 / EIA-10: who is an enemy of a guerrilla stack --------------------------------


def spanish(area, factors=7):
    return Guerrilla(1, area, "spain", factors, area, revolt=False)


def test_revolt_guerrillas_treat_all_but_the_sponsor_and_its_allies_as_enemy(world):
    world.alliances.add(frozenset(("great_britain", "austria")))
    revolt_stack = stack(2)
    assert is_enemy_of_guerrillas(world, revolt_stack, "russia")
    assert not is_enemy_of_guerrillas(world, revolt_stack, "austria")
    assert not is_enemy_of_guerrillas(world, revolt_stack, "great_britain")


def test_spanish_guerrillas_fight_powers_at_war_with_spain_only(world):
    assert not is_enemy_of_guerrillas(world, spanish("castile"), "austria")
    world.wars.add(frozenset(("spain", "austria")))
    assert is_enemy_of_guerrillas(world, spanish("castile"), "austria")


def test_spanish_guerrillas_in_a_ceded_province_fight_its_controller_at_peace(world):
    assert is_enemy_of_guerrillas(world, spanish("andalusia"), "france")
    assert not is_enemy_of_guerrillas(world, spanish("andalusia"), "austria")
    assert not is_enemy_of_guerrillas(world, spanish("castile"), "france")


def test_spanish_guerrillas_back_under_spanish_control_are_standard_again(world):
    world.areas["andalusia"].ceded, world.areas["andalusia"].controller = False, "spain"
    assert not is_enemy_of_guerrillas(world, spanish("andalusia"), "france")


def test_operation_areas_need_guerrillas_that_treat_the_power_as_enemy(world):
    world.guerrillas.append(spanish("castile", 2))
    world.corps.append(Corps(1, "austria", "castile"))
    assert operation_areas(world, "austria") == []
    world.wars.add(frozenset(("spain", "austria")))
    assert operation_areas(world, "austria") == ["castile"]


def test_operation_areas_a_revolt_without_guerrillas_is_open_only_to_its_enemies(world):
    """Decision 11 (4.3.4) lets an operation into a revolting area with no guerrillas, but
    only for a power the revolt's guerrillas treat as enemy (EIA-9): not the sponsor's
    allies."""
    world.revolts.append(Revolt(1, "great_britain", "palatinate", 3))
    world.alliances.add(frozenset(("great_britain", "austria")))
    for n, power in enumerate(("austria", "russia", "france")):
        world.corps.append(Corps(n + 1, power, "palatinate"))
    assert operation_areas(world, "austria") == []
    assert operation_areas(world, "russia") == ["palatinate"]
    assert operation_areas(world, "france") == ["palatinate"]


def test_operation_areas_the_sponsor_may_not_operate_on_its_own_revolt(world):
    world.revolts.append(Revolt(1, "great_britain", "andalusia", 3))
    world.corps.append(Corps(1, "great_britain", "andalusia"))
    assert operation_areas(world, "great_britain") == []
    world.guerrillas.append(stack(2, area="andalusia"))  # its own revolt's guerrillas
    assert operation_areas(world, "great_britain") == []
    world.wars.add(frozenset(("spain", "great_britain")))
    world.guerrillas.append(spanish("andalusia", 2))  # even with guerrillas hostile to it
    assert operation_areas(world, "great_britain") == []


def test_operation_areas_decision_11_not_allowed_needs_guerrillas_in_a_revolt(world):
    world.options["operation_without_guerrillas"] = False
    world.revolts.append(Revolt(1, "great_britain", "palatinate", 3))
    world.corps.append(Corps(1, "france", "palatinate"))
    assert operation_areas(world, "france") == []
    world.guerrillas.append(stack(1))
    assert operation_areas(world, "france") == ["palatinate"]


# -- EIA-1 targets ----------------------------------------------------------------------


def test_revolt_targets_are_minors_and_ceded_provinces_never_an_unceded_home_province(world):
    assert revolt_targets(world, "great_britain") == [
        "andalusia",
        "hesse",
        "palatinate",
        "wallachia",
    ]  # not Castile, Granada (Spain's) nor Bosnia (Turkey's), unceded home provinces
    world.areas["castile"].ceded, world.areas["castile"].controller = True, "france"
    assert "castile" in revolt_targets(world, "great_britain")


# -- EIA-9 moves and the 5 × manpower cap -----------------------------------------------


def test_eia9_no_move_into_a_province_in_revolt_over_its_cap(world):
    world.revolts.append(Revolt(1, "great_britain", "andalusia", 3))
    world.guerrillas.append(stack(13, area="andalusia"))  # cap 15
    two = Guerrilla(1, "castile", "spain", 2, "castile", revolt=False)
    three = Guerrilla(2, "granada", "spain", 3, "granada", revolt=False)
    assert guerrilla_destinations(world, two) == ["andalusia", "granada"]
    assert guerrilla_destinations(world, three) == ["castile"]
    assert refused_move(world, three, "andalusia") == (
        "3 guerrilla factors of Spain stay in Granada: Andalusia is in revolt and holds 13 "
        "guerrilla factors; 3 more would pass its cap of 15"
    )


def test_eia9_no_cap_on_moves_into_a_province_not_in_revolt(world):
    world.guerrillas.append(spanish("andalusia", 20))
    three = Guerrilla(2, "granada", "spain", 3, "granada", revolt=False)
    assert guerrilla_destinations(world, three) == ["andalusia", "castile"]


# -- EIA-11 depot attack ----------------------------------------------------------------


def attack(world, face, *, factors=7, corps=0, depots=None, options=None):
    depots = depots if depots is not None else [Depot(1, "france", "andalusia")]
    spain, area = world.powers["spain"], world.areas["andalusia"]
    return depot_attack(spain, area, factors, corps, depots, ScriptedDice([face]), options)


@pytest.mark.parametrize("face, destroyed", [(4, 0), (5, 1), (6, 1)])
def test_eia11_five_or_six_destroys_the_depots(world, face, destroyed):
    assert len(attack(world, face).destroyed) == destroyed


def test_eia11_minus_one_per_enemy_corps(world):
    outcome = attack(world, 6, corps=2)
    assert Modifier("2 enemy corps", -2) in outcome.report.roll.modifiers
    assert outcome.destroyed == ()
    assert outcome.report.text == "die 6 -2 2 enemy corps = 4 < 5: no effect"


def test_eia11_ten_or_more_guerrilla_factors_add_one(world):
    outcome = attack(world, 4, factors=10)
    assert outcome.report.text == "die 4 +1 10 or more guerrilla factors = 5 ≥ 5: 1 depot destroyed"


@pytest.mark.parametrize(
    "garrison, threshold, modifier",
    [(10, "at_least", -1), (12, "at_least", -1), (9, "at_least", 0), (10, "exactly", -1),
     (12, "exactly", 0)],
)  # fmt: skip
def test_eia11_depot_garrison_of_10_factors(world, garrison, threshold, modifier):
    depots = [Depot(1, "france", "andalusia", garrison=garrison)]
    options = {"depot_garrison_threshold": threshold}
    outcome = attack(world, 5, depots=depots, options=options)
    assert Modifier("depot garrison of 10 factors", modifier) in outcome.report.roll.modifiers


def test_eia11_spanish_guerrillas_attack_no_depot_of_a_power_at_peace_with_spain(world):
    world.guerrillas.append(spanish("castile"))
    world.depots.append(Depot(1, "austria", "castile"))
    assert depot_attack_areas(world, "spain") == []
    world.wars.add(frozenset(("spain", "austria")))
    assert depot_attack_areas(world, "spain") == ["castile"]


def test_eia11_spanish_guerrillas_attack_the_ceded_provinces_controller_at_peace(world):
    world.guerrillas.append(spanish("andalusia"))
    world.depots.append(Depot(1, "france", "andalusia"))
    assert depot_attack_areas(world, "spain") == ["andalusia"]


def test_eia11_revolt_guerrillas_attack_any_non_allied_depot(world):
    world.guerrillas.append(stack(7))
    world.depots.append(Depot(1, "france", "palatinate"))
    assert depot_attack_areas(world, "great_britain") == ["palatinate"]
    world.alliances.add(frozenset(("great_britain", "france")))
    assert depot_attack_areas(world, "great_britain") == []


def test_eia11_port_city_depots_are_not_attacked(world):
    world.guerrillas.append(spanish("andalusia"))
    world.depots.append(Depot(1, "france", "andalusia", port_city=True))
    assert depot_attack_areas(world, "spain") == []
    world.depots.append(Depot(2, "france", "andalusia"))
    assert depot_attack_areas(world, "spain") == ["andalusia"]


def test_eia11_besieged_guerrillas_are_in_a_siege_and_do_not_count(world):
    world.guerrillas += [spanish("andalusia", 6), spanish("andalusia", 3)]
    world.guerrillas[-1].besieged = True
    world.depots.append(Depot(1, "france", "andalusia"))
    assert depot_attack_areas(world, "spain") == []
    world.guerrillas[-1].besieged = False
    assert depot_attack_areas(world, "spain") == ["andalusia"]


def test_eia11_besieged_guerrillas_alone_attack_no_depot(world):
    world.guerrillas.append(spanish("andalusia", 8))
    world.guerrillas[-1].besieged = True
    world.depots.append(Depot(1, "france", "andalusia"))
    assert depot_attack_areas(world, "spain") == []


def test_eia11_port_city_depots_are_immune(world):
    port, inland = Depot(1, "france", "andalusia", port_city=True), Depot(2, "france", "andalusia")
    assert attack(world, 6, depots=[port, inland]).destroyed == (inland,)


# -- EIA-12 Spanish guerrilla removal ---------------------------------------------------


def spanish_stacks(world):
    world.guerrillas += [
        Guerrilla(1, "castile", "spain", 4, "castile", revolt=False),
        Guerrilla(2, "andalusia", "spain", 3, "andalusia", revolt=False),
        Guerrilla(3, "andalusia", "spain", 2, "andalusia", revolt=True),
    ]


def test_eia12_no_enemy_in_spain_removes_every_spanish_guerrilla(world):
    spanish_stacks(world)
    removal = spanish_guerrilla_removal(world)
    assert removal.factors == 7 and removal.militia == 2
    assert [g.id for g in removal.removed] == [1, 2]
    assert removal.text == (
        "No enemy in Spain: 7 Spanish guerrilla factors removed; "
        "Spain receives 7 ÷ 3 = 2 militia factors (rounded down) in its next reinforcement phase"
    )


def test_eia12_an_enemy_corps_in_unceded_spain_keeps_them(world):
    spanish_stacks(world)
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "castile", besieged=True))
    assert spanish_guerrilla_removal(world) is None


def test_eia12_an_enemy_in_a_ceded_province_does_not_count(world):
    spanish_stacks(world)
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "andalusia"))
    assert spanish_guerrilla_removal(world).factors == 7


def test_eia12_nothing_to_remove(world):
    assert spanish_guerrilla_removal(world) is None


# -- options ----------------------------------------------------------------------------


def test_options_default_to_the_first_choice_of_the_ruleset():
    assert option(None, "attempt_pp_minimum") == 0
    assert option({}, "operation_without_guerrillas") is True
    assert option({"aid_limit": "sponsor_and_allies"}, "aid_limit") == "sponsor_and_allies"
