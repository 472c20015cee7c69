"""The phase resolvers: orders re-checked, procedures applied in order, the World changed."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.empires_in_arms.phases import (
    immediate_checks,
    resolve_conquest,
    resolve_economic,
    resolve_land,
    resolve_peace,
    resolve_revolt_step,
)
from rules.empires_in_arms.state import ALLIED, CLIENT, CONQUERED, Corps, Depot, Guerrilla, Revolt


def texts(world, rule=None) -> list[str]:
    return [line.text for line in world.log if rule is None or line.rule == rule]


def gb_revolt(world, number=3, area="palatinate", sponsor="great_britain", factors=0, **fields):
    revolt = Revolt(7, sponsor, area, number, **fields)
    world.revolts.append(revolt)
    if factors:
        world.guerrillas.append(Guerrilla(11, area, sponsor, factors, area))
    return revolt


# -- peace step -------------------------------------------------------------------------


def test_peace_voluntary_lapse_ends_the_revolt_and_counts_a_let_down(world):
    revolt = gb_revolt(world, factors=3)
    spanish = Guerrilla(12, "castile", "spain", 2, "castile", revolt=False)
    world.guerrillas.append(spanish)
    resolve_peace(world, {"great_britain": {"lapse": ["palatinate"]}}, ScriptedDice([]))
    assert not revolt.active and revolt.end_reason == "Great Britain lets it lapse"
    assert world.let_downs[("great_britain", "palatinate")] == 1
    assert world.guerrillas == [spanish]
    assert texts(world) == [
        "Great Britain's revolt in Palatinate ends: Great Britain lets it lapse; "
        "Great Britain let it down (1 in Palatinate so far); 3 guerrilla factors removed"
    ]


def test_peace_lapse_of_another_powers_revolt_is_skipped(world):
    revolt = gb_revolt(world)
    resolve_peace(world, {"austria": {"lapse": ["palatinate"]}}, ScriptedDice([]))
    assert revolt.active
    assert texts(world) == ["Austria has no revolt in Palatinate to let lapse: order skipped"]


THREE_MONTHS_ENDED = (
    "Great Britain's revolt in Palatinate ends: no guerrillas in Palatinate for 3 months in "
    "a row; it ends in the fourth month, before that month's guerrilla rolls"
)


def test_peace_step_leaves_the_three_month_ending_to_the_revolt_step(world):
    revolt = gb_revolt(world, months_without_guerrillas=3)
    resolve_peace(world, {}, ScriptedDice([]))
    assert revolt.active and world.log == []


# -- revolt step ------------------------------------------------------------------------


def test_revolt_step_success_rolls_the_strength_and_starts_the_revolt(world):
    world.powers["great_britain"].zone = "Dominant"
    world.powers["france"].zone = "Dominant"
    dice = ScriptedDice([4, 5])
    resolve_revolt_step(world, {"great_britain": {"targets": ["palatinate"]}}, dice)
    assert world.revolts == [Revolt(None, "great_britain", "palatinate", 5)]
    assert world.powers["great_britain"].political_points == 9
    assert texts(world) == [
        "Great Britain incites a revolt in Palatinate: die 4 +1 Great Britain national modifier "
        "+1 Great Britain Dominant = 6 ≥ 6: the revolt breaks out (Great Britain PP 10 → 9)",
        "Strength of the Great Britain revolt in Palatinate: die 5 +1 Great Britain national "
        "modifier +1 Great Britain Dominant -1 France Dominant = 6 > 5: revolt number 5 "
        "(a new revolt's number is 2 to 5)",
    ]
    assert [line.roll.rule for line in world.log] == ["EIA-1", "EIA-2"]


def test_revolt_step_controller_corps_lowers_the_strength(world):
    world.corps.append(Corps(1, "france", "palatinate"))
    dice = ScriptedDice([6, 3])
    resolve_revolt_step(world, {"great_britain": {"targets": ["palatinate"]}}, dice)
    assert world.revolts[0].number == 3  # 3 + 1 GB NM − 1 French corps


def test_revolt_step_a_target_taken_earlier_this_step_is_skipped_without_cost(world):
    world.national_modifiers[("palatinate", "russia")] = 1
    dice = ScriptedDice([6, 3])
    orders = {"great_britain": {"targets": ["palatinate"]}, "russia": {"targets": ["palatinate"]}}
    resolve_revolt_step(world, orders, dice)
    assert [r.sponsor for r in world.revolts] == ["russia"]  # Russia goes first
    assert world.powers["great_britain"].political_points == 10
    assert texts(world)[-1] == (
        "Great Britain: Palatinate is not a legal revolt target now; attempt skipped, no PP spent"
    )


def test_revolt_step_fourth_attempt_refused(world):
    world.areas["castile"].controller = "france"
    world.areas["castile"].ceded = True
    targets = ["hesse", "wallachia", "andalusia", "castile"]
    dice = ScriptedDice([1, 1, 1])
    resolve_revolt_step(world, {"great_britain": {"targets": targets}}, dice)
    assert world.powers["great_britain"].political_points == 7
    assert texts(world)[-1] == (
        "Great Britain has made its 3 attempts this revolt step: attempt refused"
    )


def test_revolt_step_attempts_need_no_pp_by_default_and_pp_go_negative(world):
    world.powers["great_britain"].political_points = 0
    dice = ScriptedDice([1, 1, 1])
    targets = ["hesse", "wallachia", "andalusia"]
    resolve_revolt_step(world, {"great_britain": {"targets": targets}}, dice)
    assert len(dice.rolls) == 3 and dice.unused == 0
    assert world.powers["great_britain"].political_points == -3
    assert texts(world)[-1].endswith("no revolt (Great Britain PP -2 → -3)")


def test_revolt_step_pp_minimum_option_refuses_attempts_without_pp(world):
    world.options["attempt_pp_minimum"] = 1
    world.powers["great_britain"].political_points = 1
    dice = ScriptedDice([1])
    resolve_revolt_step(world, {"great_britain": {"targets": ["hesse", "wallachia"]}}, dice)
    assert world.powers["great_britain"].political_points == 0
    assert texts(world)[-1] == "Great Britain has 0 PP; an attempt needs 1: attempt refused"


def test_revolt_step_an_allys_area_is_no_target(world):
    world.alliances.add(frozenset(("great_britain", "france")))
    resolve_revolt_step(world, {"great_britain": {"targets": ["palatinate"]}}, ScriptedDice([]))
    assert world.revolts == [] and world.powers["great_britain"].political_points == 10
    assert texts(world) == [
        "Great Britain: Palatinate is not a legal revolt target now; attempt skipped, no PP spent"
    ]


def test_revolt_step_ends_revolts_three_months_without_guerrillas_before_the_attempts(world):
    ended = gb_revolt(world, months_without_guerrillas=3)
    going = gb_revolt(world, area="hesse", months_without_guerrillas=2)
    orders = {"great_britain": {"targets": ["palatinate", "hesse"]}}
    resolve_revolt_step(world, orders, ScriptedDice([1]))  # Palatinate may be targeted again
    assert not ended.active and going.active
    assert ("great_britain", "palatinate") not in world.let_downs
    assert texts(world) == [
        THREE_MONTHS_ENDED,
        "Great Britain incites a revolt in Palatinate: die 1 +1 Great Britain national modifier "
        "= 2 < 6: no revolt (Great Britain PP 10 → 9)",
        "Great Britain: Hesse is not a legal revolt target now; attempt skipped, no PP spent",
    ]
    assert [line.rule for line in world.log] == ["EIA-7", "EIA-1", "EIA-1"]


def test_revolt_step_a_revolt_ended_after_three_months_may_break_out_again(world):
    ended = gb_revolt(world, months_without_guerrillas=3)
    dice = ScriptedDice([5, 3])  # the attempt, then the new revolt's strength
    resolve_revolt_step(world, {"great_britain": {"targets": ["palatinate"]}}, dice)
    assert not ended.active
    assert [(r.area, r.number, r.active) for r in world.revolts] == [
        ("palatinate", 3, False),
        ("palatinate", 4, True),
    ]


def test_revolt_step_three_month_ending_comes_before_political_end_guerrillas(world):
    world.options["revolt_guerrillas_when"] = "political_end"
    ended = gb_revolt(world, number=5, months_without_guerrillas=3)
    dice = ScriptedDice([])
    resolve_revolt_step(world, {}, dice)
    assert not ended.active and dice.rolls == [] and world.guerrillas == []


def test_revolt_step_guerrillas_at_the_end_of_the_political_phase_option(world):
    world.options["revolt_guerrillas_when"] = "political_end"
    old = gb_revolt(world, area="hesse", number=4)
    dice = ScriptedDice([6, 3, 1, 2])  # attempt, strength, old revolt's guerrillas, new one's
    resolve_revolt_step(world, {"great_britain": {"targets": ["palatinate"]}}, dice)
    assert world.revolts[-1].number == 4
    assert [(g.area, g.factors) for g in world.guerrillas] == [("hesse", 3), ("palatinate", 2)]
    assert old.active and dice.unused == 0


def test_revolt_step_no_guerrillas_by_default(world):
    gb_revolt(world, area="hesse")
    resolve_revolt_step(world, {}, ScriptedDice([]))
    assert world.guerrillas == [] and world.log == []


# -- land phase -------------------------------------------------------------------------


def test_land_revolt_guerrillas_in_the_sponsors_step_merge_into_its_stack(world):
    revolt = gb_revolt(world, number=5, factors=2)
    resolve_land(world, {}, ScriptedDice([3]))
    assert [g.factors for g in world.guerrillas] == [4]
    assert texts(world) == [
        "Revolt guerrillas in Palatinate (revolt number 5): die 3 = 3 < 5: "
        "5 − 3 = 2 guerrilla factors in Palatinate"
    ]
    assert world.log[0].power == "great_britain" and revolt.active


def test_land_three_months_without_guerrillas_end_the_revolt_before_any_roll(world):
    ended = gb_revolt(world, number=5, months_without_guerrillas=3)
    going = gb_revolt(world, area="hesse", number=2, months_without_guerrillas=2)
    dice = ScriptedDice([4])  # only the going revolt's EIA-3 roll
    resolve_land(world, {}, dice)
    assert not ended.active and going.active and dice.unused == 0
    assert [r.purpose for r in dice.rolls] == ["Revolt guerrillas in Hesse (revolt number 2)"]
    assert texts(world, "EIA-7") == [THREE_MONTHS_ENDED]
    assert world.log[0].rule == "EIA-7"


def test_land_three_month_ending_after_a_political_phase_is_not_repeated(world):
    ended = gb_revolt(world, months_without_guerrillas=3)
    resolve_revolt_step(world, {}, ScriptedDice([]))
    resolve_land(world, {}, ScriptedDice([]))
    assert not ended.active
    assert texts(world, "EIA-7") == [THREE_MONTHS_ENDED]


def test_land_clears_the_fought_marks_at_the_end(world):
    gb_revolt(world, number=3)
    fought = Corps(1, "france", "palatinate", fought=True)
    world.corps += [
        fought,
        Corps(2, "austria", "castile"),
        Corps(3, "russia", "hesse", fought=True),
    ]
    dice = ScriptedDice([6])  # GB's EIA-3 roll
    resolve_land(world, {"france": {"operations": ["palatinate"]}}, dice)
    assert not any(c.fought for c in world.corps)
    assert texts(world, "EIA-4") == [
        "France: no anti-guerrilla operation possible in Palatinate now; order skipped",
        "Land phase over: 2 corps no longer marked as having fought in this month's land "
        "combat step",
    ]
    assert world.log[-1].rule == "EIA-4"


def test_land_clears_nothing_when_no_corps_fought(world):
    world.corps.append(Corps(1, "france", "palatinate"))
    resolve_land(world, {}, ScriptedDice([]))
    assert world.log == []


def test_land_no_revolt_guerrillas_under_the_political_end_option(world):
    world.options["revolt_guerrillas_when"] = "political_end"
    gb_revolt(world, number=5)
    resolve_land(world, {}, ScriptedDice([]))
    assert world.guerrillas == []


def test_land_powers_act_in_land_phase_order_with_frances_slot(world):
    world.options["france_slot"] = 3
    gb_revolt(world, number=5)
    gb_revolt(world, area="hesse", sponsor="france", number=5)
    gb_revolt(world, area="wallachia", sponsor="russia", number=5)
    resolve_land(world, {}, ScriptedDice([4, 4, 4]))
    assert [line.power for line in world.log] == ["russia", "france", "great_britain"]


def test_land_operation_puts_a_revolt_down(world):
    revolt = gb_revolt(world, number=2, factors=3)
    world.corps.append(Corps(1, "france", "palatinate"))
    dice = ScriptedDice([5])  # France (slot 1) operates before GB's guerrilla step
    resolve_land(world, {"france": {"operations": ["palatinate"]}}, dice)
    assert not revolt.active and revolt.end_reason == "put down (revolt number 1)"
    assert world.guerrillas == []
    assert texts(world, "EIA-7") == [
        "Great Britain's revolt in Palatinate ends: put down (revolt number 1)"
    ]


def test_land_operation_bad_roll_payment_comes_out_of_the_controllers_treasury(world):
    revolt = gb_revolt(world, number=3, factors=1)
    world.corps.append(Corps(1, "austria", "palatinate"))
    dice = ScriptedDice([1, 4, 6])  # Austria's operation, France's $d6, GB's guerrillas
    resolve_land(world, {"austria": {"operations": ["palatinate"]}}, dice)
    assert world.powers["france"].treasury == 16
    assert world.powers["austria"].treasury == 20
    assert revolt.number == 3
    assert texts(world, "EIA-4")[-1] == (
        "France pays $d6 against the rise: die 4 = 4 ≤ treasury $20: France pays $4; "
        "revolt number stays 3"
    )


def test_land_operation_no_longer_possible_is_skipped(world):
    gb_revolt(world, number=3)
    world.corps.append(Corps(1, "france", "palatinate", fought=True))
    resolve_land(world, {"france": {"operations": ["palatinate"]}}, ScriptedDice([6]))
    assert texts(world, "EIA-4")[0] == (
        "France: no anti-guerrilla operation possible in Palatinate now; order skipped"
    )


def test_land_operation_spares_revolt_guerrillas_of_the_operating_powers_allies(world):
    world.corps.append(Corps(1, "france", "hesse"))
    world.alliances.add(frozenset(("france", "austria")))
    world.revolts.append(Revolt(8, "russia", "hesse", 5))
    friendly = Guerrilla(5, "hesse", "austria", 2, "hesse")
    hostile = Guerrilla(6, "hesse", "russia", 2, "hesse")
    world.guerrillas += [friendly, hostile]
    dice = ScriptedDice([6, 4])  # France's operation (slot 1), then Russia's EIA-3 roll
    resolve_land(world, {"france": {"operations": ["hesse"]}}, dice)
    assert world.guerrillas == [friendly]


def test_land_spanish_guerrillas_fight_the_controller_of_a_ceded_province_at_peace(world):
    world.corps.append(Corps(1, "france", "andalusia"))
    world.guerrillas.append(Guerrilla(6, "andalusia", "spain", 2, "andalusia", revolt=False))
    world.wars.add(frozenset(("spain", "austria")))
    world.corps.append(Corps(2, "austria", "castile", besieged=True))  # enemy: no EIA-12
    dice = ScriptedDice([6, 6])  # France's operation, then Spain's EIA-10 roll in Andalusia
    resolve_land(world, {"france": {"operations": ["andalusia"]}}, dice)
    assert texts(world, "EIA-4") == [
        "France anti-guerrilla operation in Andalusia: die 6 = 6 > guerrilla value 4: "
        "2 guerrilla factors eliminated"
    ]
    assert world.guerrillas == []


def test_land_spanish_guerrillas_are_no_target_for_a_power_at_peace_with_spain(world):
    world.corps.append(Corps(1, "austria", "castile"))
    spanish = Guerrilla(6, "castile", "spain", 2, "castile", revolt=False)
    world.guerrillas.append(spanish)
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(2, "france", "granada", besieged=True))  # enemy: no EIA-12
    resolve_land(world, {"austria": {"operations": ["castile"]}}, ScriptedDice([]))
    assert world.guerrillas == [spanish]
    assert texts(world, "EIA-4") == [
        "Austria: no anti-guerrilla operation possible in Castile now; order skipped"
    ]


def test_land_spanish_guerrillas_are_rolled_in_spains_step(world):
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "granada"))
    world.corps.append(Corps(2, "france", "andalusia"))
    resolve_land(world, {}, ScriptedDice([3, 1]))  # Andalusia, then Granada (by name)
    assert [(g.area, g.factors, g.revolt) for g in world.guerrillas] == [
        ("andalusia", 1, False),
        ("granada", 4, False),
    ]
    assert world.militia_due == {}


def test_land_spanish_guerrillas_outside_a_revolt_have_no_cap(world):
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "granada"))
    world.guerrillas.append(Guerrilla(3, "granada", "spain", 9, "granada", revolt=False))
    resolve_land(world, {}, ScriptedDice([1]))
    assert world.guerrilla_factors("granada") == 13  # 5 × manpower 2 would be 10
    assert texts(world, "EIA-10") == [
        "Spanish guerrillas in Granada (guerrilla value 5): die 1 = 1 < 5: "
        "5 − 1 = 4 guerrilla factors in Granada"
    ]


def test_land_spanish_guerrillas_in_a_province_in_revolt_count_toward_its_cap(world):
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "andalusia"))
    world.corps.append(Corps(2, "france", "castile", besieged=True))  # enemy: no EIA-12
    gb_revolt(world, area="andalusia", sponsor="spain", number=2, factors=12)
    world.guerrillas.append(Guerrilla(3, "andalusia", "spain", 2, "andalusia", revolt=False))
    resolve_land(world, {}, ScriptedDice([6, 1]))  # Spain's EIA-3, then its EIA-10 roll
    assert world.guerrilla_factors("andalusia") == 15  # 5 × manpower 3


def test_land_spanish_guerrilla_removal_gives_militia(world):
    world.guerrillas.append(Guerrilla(3, "castile", "spain", 7, "castile", revolt=False))
    world.militia_due["spain"] = 1
    resolve_land(world, {}, ScriptedDice([]))
    assert world.guerrillas == []
    assert world.militia_due["spain"] == 3
    assert texts(world, "EIA-12") == [
        "No enemy in Spain: 7 Spanish guerrilla factors removed; "
        "Spain receives 7 ÷ 3 = 2 militia factors (rounded down) in its next reinforcement phase"
    ]


def test_land_depot_attack_destroys_depots_and_tells_the_gm_about_garrisons(world):
    world.guerrillas.append(Guerrilla(3, "andalusia", "spain", 8, "andalusia", revolt=False))
    depot = Depot(4, "france", "andalusia", garrison=4)
    port = Depot(5, "france", "andalusia", port_city=True)
    world.depots += [depot, port]
    world.corps.append(Corps(1, "austria", "castile", besieged=True))  # enemy: no EIA-12
    world.wars.add(frozenset(("spain", "austria")))
    dice = ScriptedDice([6, 5])  # EIA-10 in Andalusia (French garrison), then the attack
    resolve_land(world, {"spain": {"depot_attacks": ["andalusia"]}}, dice)
    assert world.depots == [port]
    assert texts(world, "EIA-11") == [
        "Spain's guerrillas attack the depots in Andalusia: die 5 = 5 ≥ 5: 1 depot destroyed",
        "GM: France's depot garrison of 4 factors in Andalusia retreats into a city "
        "(up to its capacity) or joins a corps there; the rest are eliminated",
    ]


def test_land_depot_attack_with_too_few_guerrillas_is_skipped(world):
    world.guerrillas.append(Guerrilla(3, "andalusia", "spain", 6, "andalusia", revolt=False))
    world.depots.append(Depot(4, "france", "andalusia"))
    world.wars.add(frozenset(("spain", "austria")))
    world.corps.append(Corps(1, "austria", "castile", besieged=True))
    resolve_land(world, {"spain": {"depot_attacks": ["andalusia"]}}, ScriptedDice([]))
    assert len(world.depots) == 1
    assert texts(world, "EIA-11") == [
        "Spain: no guerrilla depot attack possible in Andalusia now; order skipped"
    ]


def test_land_guerrilla_move_merges_with_a_like_stack(world):
    moving = Guerrilla(3, "castile", "spain", 2, "castile", revolt=False)
    staying = Guerrilla(4, "granada", "spain", 1, "castile", revolt=False)
    world.guerrillas += [moving, staying]
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "castile", besieged=True))  # no EIA-10 roll, no removal
    orders = {"spain": {"moves": [{"stack": 3, "to": "granada"}, {"stack": 3, "to": "castile"}]}}
    resolve_land(world, orders, ScriptedDice([]))
    assert world.guerrillas == [Guerrilla(4, "granada", "spain", 3, "castile", revolt=False)]
    assert texts(world, "EIA-9") == [
        "2 guerrilla factors of Spain move from Castile to Granada",
        "Spain: guerrilla stack 3 has already moved this step; move skipped",
    ]


def test_land_illegal_moves_are_skipped(world):
    gb_revolt(world, number=2, factors=2)
    orders = {"great_britain": {"moves": [{"stack": 11, "to": "hesse"}, {"stack": 99}]}}
    resolve_land(world, orders, ScriptedDice([6]))
    assert world.guerrillas[0].area == "palatinate"
    assert texts(world, "EIA-9") == [
        "2 guerrilla factors of Great Britain stay in Palatinate: "
        "revolt guerrillas never leave Palatinate",
        "Great Britain: guerrilla stack 99 is not one of its stacks; move skipped",
    ]


def spanish_at_war_with_france(world):
    """Spain at war with France, whose besieged corps in Castile keeps the Spanish
    guerrillas on the map (EIA-12) without an EIA-10 roll."""
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "castile", besieged=True))


def test_land_a_guerrilla_moves_one_area_even_when_the_stack_it_joins_moves_on(world):
    """EIA-9: one adjacent area per land movement step. Castile's 2 factors join the
    stack in Granada; that stack's own factor may still move, theirs may not."""
    joining = Guerrilla(3, "castile", "spain", 2, "castile", revolt=False)
    joined = Guerrilla(4, "granada", "spain", 1, "castile", revolt=False)
    world.guerrillas += [joining, joined]
    spanish_at_war_with_france(world)
    orders = {"spain": {"moves": [{"stack": 3, "to": "granada"}, {"stack": 4, "to": "andalusia"}]}}
    resolve_land(world, orders, ScriptedDice([]))
    assert (world.guerrilla_factors("granada"), world.guerrilla_factors("andalusia")) == (2, 1)
    assert texts(world, "EIA-9") == [
        "2 guerrilla factors of Spain move from Castile to Granada",
        "1 guerrilla factor of Spain moves from Granada to Andalusia",
    ]


def test_land_stacks_that_meet_after_their_moves_merge(world):
    world.guerrillas += [
        Guerrilla(3, "castile", "spain", 2, "castile", revolt=False),
        Guerrilla(4, "granada", "spain", 1, "castile", revolt=False),
    ]
    spanish_at_war_with_france(world)
    orders = {"spain": {"moves": [{"stack": 3, "to": "granada"}]}}
    resolve_land(world, orders, ScriptedDice([]))
    assert world.guerrillas == [Guerrilla(4, "granada", "spain", 3, "castile", revolt=False)]


def test_land_the_same_stack_ordered_to_move_twice_moves_once(world):
    world.guerrillas.append(Guerrilla(3, "castile", "spain", 2, "castile", revolt=False))
    spanish_at_war_with_france(world)
    orders = {"spain": {"moves": [{"stack": 3, "to": "granada"}, {"stack": 3, "to": "andalusia"}]}}
    resolve_land(world, orders, ScriptedDice([]))
    assert [(g.id, g.area, g.factors) for g in world.guerrillas] == [(3, "granada", 2)]
    assert texts(world, "EIA-9") == [
        "2 guerrilla factors of Spain move from Castile to Granada",
        "Spain: guerrilla stack 3 has already moved this step; move skipped",
    ]


def test_land_no_move_takes_a_province_in_revolt_over_its_cap(world):
    """EIA-3 / seed 4.3.3.1: the guerrillas in a revolting province never exceed 5 ×
    manpower (Andalusia: 15); a move that would is skipped, one that fits is not."""
    gb_revolt(world, area="andalusia", number=2, factors=12)
    world.guerrillas += [
        Guerrilla(3, "castile", "spain", 2, "castile", revolt=False),
        Guerrilla(4, "granada", "spain", 2, "granada", revolt=False),
    ]
    spanish_at_war_with_france(world)
    moves = [{"stack": 3, "to": "andalusia"}, {"stack": 4, "to": "andalusia"}]
    resolve_land(world, {"spain": {"moves": moves}}, ScriptedDice([6]))  # GB's EIA-3 roll
    assert world.guerrilla_factors("andalusia") == 14
    assert world.guerrilla_factors("granada") == 2
    assert texts(world, "EIA-9") == [
        "2 guerrilla factors of Spain move from Castile to Andalusia",
        "2 guerrilla factors of Spain stay in Granada: Andalusia is in revolt and holds 14 "
        "guerrilla factors; 2 more would pass its cap of 15",
    ]


def test_land_besieged_guerrillas_do_not_count_toward_a_depot_attack(world):
    """EIA-11: besieged factors are in a siege, a battle of their own: 6 free factors and
    2 besieged are not "more than six" that start no other battle."""
    world.guerrillas += [
        Guerrilla(3, "andalusia", "spain", 6, "andalusia", revolt=False),
        Guerrilla(4, "andalusia", "spain", 2, "andalusia", revolt=False, besieged=True),
    ]
    world.depots.append(Depot(5, "france", "andalusia"))
    spanish_at_war_with_france(world)
    resolve_land(world, {"spain": {"depot_attacks": ["andalusia"]}}, ScriptedDice([]))
    assert len(world.depots) == 1
    assert texts(world, "EIA-11") == [
        "Spain: no guerrilla depot attack possible in Andalusia now; order skipped"
    ]


def test_land_only_unbesieged_guerrillas_count_toward_ten_for_the_depot_attack(world):
    world.guerrillas += [
        Guerrilla(3, "andalusia", "spain", 8, "andalusia", revolt=False),
        Guerrilla(4, "andalusia", "spain", 3, "andalusia", revolt=False, besieged=True),
    ]
    world.depots.append(Depot(5, "france", "andalusia"))
    spanish_at_war_with_france(world)
    resolve_land(world, {"spain": {"depot_attacks": ["andalusia"]}}, ScriptedDice([4]))
    assert len(world.depots) == 1
    assert texts(world, "EIA-11") == [
        "Spain's guerrillas attack the depots in Andalusia: die 4 = 4 < 5: no effect"
    ]


def test_land_the_sponsors_ally_may_not_operate_against_an_empty_revolt(world):
    revolt = gb_revolt(world, number=3)
    world.alliances.add(frozenset(("great_britain", "austria")))
    world.corps.append(Corps(1, "austria", "palatinate"))
    resolve_land(world, {"austria": {"operations": ["palatinate"]}}, ScriptedDice([6]))
    assert revolt.number == 3
    assert texts(world, "EIA-4") == [
        "Austria: no anti-guerrilla operation possible in Palatinate now; order skipped"
    ]


# -- conquest step ----------------------------------------------------------------------


def test_conquest_at_peace_the_minor_becomes_an_allied_minor(world):
    revolt = gb_revolt(world, number=6, factors=4, capital_held_months=1)
    dice = ScriptedDice([])
    resolve_conquest(world, {}, dice)
    assert not revolt.active and dice.rolls == []
    palatinate = world.areas["palatinate"]
    assert (palatinate.controller, palatinate.minor_status) == ("great_britain", ALLIED)
    assert world.guerrillas == []
    assert texts(world, "EIA-8") == [
        "Great Britain's revolt in Palatinate succeeds: Palatinate becomes an allied minor of "
        "Great Britain; 4 guerrilla factors become infantry of Palatinate",
        "GM: repatriate garrisons of France from Palatinate",
    ]


def test_conquest_at_war_the_sponsors_choice_comes_from_its_orders(world):
    world.wars.add(frozenset(("great_britain", "france")))
    revolt = gb_revolt(world, number=7, factors=4, capital_held_months=2)
    orders = {"great_britain": {"choices": {"palatinate": "client"}}}
    resolve_conquest(world, orders, ScriptedDice([]))
    assert revolt.conquest_choice == "client"
    assert world.areas["palatinate"].minor_status == CLIENT
    assert texts(world, "EIA-8") == [
        "Great Britain's revolt in Palatinate succeeds: Palatinate becomes a client state of "
        "Great Britain with 4 infantry factors"
    ]


def test_conquest_a_choice_given_before_the_revolt_can_succeed_is_kept(world):
    """EIA-8: the answer is a standing one: given in January, it decides March's success."""
    world.wars.add(frozenset(("great_britain", "france")))
    revolt = gb_revolt(world, number=5, factors=4)
    orders = {"great_britain": {"choices": {"palatinate": "client"}}}
    resolve_conquest(world, orders, ScriptedDice([]))
    assert revolt.active and revolt.conquest_choice == "client"
    resolve_conquest(world, {}, ScriptedDice([]))  # a month without orders keeps it
    assert revolt.conquest_choice == "client"
    revolt.number, revolt.capital_held_months = 6, 1
    resolve_conquest(world, {"great_britain": {}}, ScriptedDice([]))
    assert not revolt.active and world.areas["palatinate"].minor_status == CLIENT


def test_conquest_a_new_choice_replaces_the_kept_one(world):
    world.wars.add(frozenset(("great_britain", "france")))
    revolt = gb_revolt(world, number=6, factors=4, capital_held_months=1)
    revolt.conquest_choice = "client"
    orders = {"great_britain": {"choices": {"palatinate": "conquered"}}}
    resolve_conquest(world, orders, ScriptedDice([]))
    assert world.areas["palatinate"].minor_status == CONQUERED


def test_conquest_at_war_without_a_choice_the_minor_is_conquered(world):
    world.wars.add(frozenset(("great_britain", "france")))
    revolt = gb_revolt(world, number=6, factors=4, capital_held_months=1)
    resolve_conquest(world, {}, ScriptedDice([]))
    palatinate = world.areas["palatinate"]
    assert revolt.conquest_choice == "conquered"
    assert (palatinate.controller, palatinate.minor_status) == ("great_britain", CONQUERED)
    assert texts(world, "EIA-8") == [
        "Great Britain's revolt in Palatinate succeeds: Palatinate becomes a conquered minor "
        "of Great Britain (Great Britain gave no choice: conquered by default); "
        "4 guerrilla factors removed"
    ]


def test_conquest_at_war_the_conquered_choice_is_not_called_a_default(world):
    world.wars.add(frozenset(("great_britain", "france")))
    gb_revolt(world, number=6, factors=4, capital_held_months=1)
    orders = {"great_britain": {"choices": {"palatinate": "conquered"}}}
    resolve_conquest(world, orders, ScriptedDice([]))
    assert world.areas["palatinate"].minor_status == CONQUERED
    assert "default" not in texts(world, "EIA-8")[0]


def test_conquest_at_peace_another_powers_ceded_province_is_left_for_the_gm_to_check(world):
    revolt = gb_revolt(world, area="andalusia", number=6, factors=2, capital_held_months=1)
    resolve_conquest(world, {}, ScriptedDice([]))
    andalusia = world.areas["andalusia"]
    assert not revolt.active
    assert (andalusia.controller, andalusia.ceded, andalusia.home_power) == (
        "great_britain",
        True,
        "spain",
    )
    assert texts(world, "EIA-8") == [
        "Great Britain's revolt in Andalusia succeeds: Great Britain takes control of "
        "Andalusia; 2 guerrilla factors become infantry of Great Britain",
        "GM: repatriate garrisons of France from Andalusia; GM: check Andalusia: the rules "
        "speak only of a former province of the sponsor reverting, and Andalusia never was "
        "Great Britain's; Great Britain is made its controller, its home nation and cession "
        "are left as they were",
    ]


def test_conquest_at_war_a_former_home_province_returns(world):
    world.wars.add(frozenset(("spain", "france")))
    gb_revolt(world, area="andalusia", sponsor="spain", number=6, factors=3, capital_held_months=1)
    resolve_conquest(world, {}, ScriptedDice([]))
    andalusia = world.areas["andalusia"]
    assert (andalusia.controller, andalusia.ceded, andalusia.home_power) == (
        "spain",
        False,
        "spain",
    )
    assert texts(world, "EIA-8") == [
        "Spain's revolt in Andalusia succeeds: Spain conquers Andalusia, its former home "
        "province; 3 guerrilla factors become regular infantry"
    ]


def test_conquest_counts_months_without_guerrillas(world):
    empty = gb_revolt(world, months_without_guerrillas=2)
    held = gb_revolt(world, area="hesse", factors=1, months_without_guerrillas=2)
    resolve_conquest(world, {}, ScriptedDice([]))
    assert (empty.months_without_guerrillas, held.months_without_guerrillas) == (3, 0)
    assert texts(world) == [
        "No guerrillas in Palatinate this month (3 in a row): "
        "the revolt ends next month, before its guerrilla rolls"
    ]


def test_conquest_needs_unbesieged_guerrillas_of_the_revolt_in_the_area(world):
    """EIA-8: "Guerrilla factors have occupied the area's capital, unbesieged": with none
    there the revolt does not succeed, whatever the months the GM entered."""
    revolt = gb_revolt(world, number=6, capital_held_months=1)
    besieged = Guerrilla(3, "palatinate", "great_britain", 4, "palatinate", besieged=True)
    world.guerrillas.append(besieged)
    resolve_conquest(world, {}, ScriptedDice([]))
    assert revolt.active and world.areas["palatinate"].controller == "france"
    assert texts(world, "EIA-8") == [
        "GM: Great Britain's revolt in Palatinate has number 6 and the capital held for 1 "
        "month, but no unbesieged guerrilla factors of the revolt are in Palatinate: "
        "it does not succeed"
    ]


def test_conquest_not_yet(world):
    revolt = gb_revolt(world, number=6, factors=4)
    resolve_conquest(world, {}, ScriptedDice([]))
    assert revolt.active and world.areas["palatinate"].controller == "france"


# -- economic phase ---------------------------------------------------------------------


def test_economic_aid_raises_the_number_and_costs_the_money(world):
    revolt = gb_revolt(world, number=3)
    resolve_economic(world, {"great_britain": {"aid": {"palatinate": 4}}}, ScriptedDice([2]))
    assert revolt.number == 4 and world.powers["great_britain"].treasury == 16
    assert texts(world) == [
        "Great Britain aids the revolt in Palatinate with $4: die 2 = 2 ≤ $4: "
        "revolt number 3 → 4 (treasury $20 → $16)"
    ]


def test_economic_only_the_sponsor_aids_by_default(world):
    revolt = gb_revolt(world, number=3)
    world.alliances.add(frozenset(("great_britain", "austria")))
    resolve_economic(world, {"austria": {"aid": {"palatinate": 2}}}, ScriptedDice([]))
    assert revolt.number == 3 and world.powers["austria"].treasury == 20
    assert texts(world) == ["Austria may not aid a revolt in Palatinate now; order skipped"]


def test_economic_allies_may_aid_under_the_option(world):
    world.options["aid_limit"] = "sponsor_and_allies"
    revolt = gb_revolt(world, number=3)
    world.alliances.add(frozenset(("great_britain", "austria")))
    resolve_economic(world, {"austria": {"aid": {"palatinate": 2}}}, ScriptedDice([1]))
    assert revolt.number == 4 and world.powers["austria"].treasury == 18


def test_economic_unaffordable_aid_is_skipped(world):
    revolt = gb_revolt(world, number=3)
    world.powers["great_britain"].treasury = 1
    resolve_economic(world, {"great_britain": {"aid": {"palatinate": 2}}}, ScriptedDice([]))
    assert revolt.number == 3 and world.powers["great_britain"].treasury == 1
    assert texts(world) == ["Great Britain cannot afford $2 (treasury $1); aid skipped"]


# -- immediate checks -------------------------------------------------------------------


def test_immediate_alliance_ends_the_revolt_as_a_let_down(world):
    revolt = gb_revolt(world, factors=2)
    world.alliances.add(frozenset(("great_britain", "france")))
    immediate_checks(world)
    assert not revolt.active and world.guerrillas == []
    assert world.let_downs[("great_britain", "palatinate")] == 1


def test_immediate_alliance_ending_a_revolt_in_a_ceded_province_counts_no_let_down(world):
    """EIA-7: the sponsor is "considered to have let down the revolt", but let-downs only
    weigh on later attempts in a minor (EIA-1's −L), so none is counted for a province."""
    revolt = gb_revolt(world, area="andalusia", sponsor="spain", factors=2)
    world.alliances.add(frozenset(("spain", "france")))
    immediate_checks(world)
    assert not revolt.active and world.guerrillas == []
    assert world.let_downs == {}
    assert texts(world) == [
        "Spain's revolt in Andalusia ends: Spain and France are allies; 2 guerrilla factors removed"
    ]


def test_immediate_cession_to_the_sponsor_ends_the_revolt(world):
    revolt = gb_revolt(world, area="andalusia", sponsor="spain", factors=2)
    world.areas["andalusia"].controller = "spain"
    immediate_checks(world)
    assert not revolt.active and world.let_downs == {}
    assert texts(world) == [
        "Spain's revolt in Andalusia ends: Andalusia is now Spain's; 2 guerrilla factors removed"
    ]


def test_immediate_neutral_minor_turns_guerrillas_into_islamic_infantry(world):
    world.areas["wallachia"].islamic = True
    revolt = gb_revolt(world, area="wallachia", sponsor="russia", factors=3)
    world.areas["wallachia"].controller = None
    immediate_checks(world)
    assert not revolt.active and world.guerrillas == []
    assert texts(world) == [
        "Russia's revolt in Wallachia ends: Wallachia is neutral; "
        "3 guerrilla factors become Islamic infantry of Wallachia"
    ]


def test_immediate_revolt_number_1_ends_it(world):
    revolt = gb_revolt(world, number=1)
    immediate_checks(world)
    assert not revolt.active


def test_immediate_checks_leave_a_going_revolt_alone(world):
    revolt = gb_revolt(world, factors=2)
    immediate_checks(world)
    assert revolt.active and world.log == []


RESOLVERS = [resolve_peace, resolve_revolt_step, resolve_land, resolve_conquest, resolve_economic]


@pytest.mark.parametrize("resolver", RESOLVERS, ids=lambda r: r.__name__)
def test_every_phase_ends_with_the_immediate_endings(world, resolver):
    revolt = gb_revolt(world, number=1, area="hesse", factors=2)
    resolver(world, {}, ScriptedDice([6]))  # resolve_land: GB's EIA-3 roll
    assert not revolt.active and world.guerrillas == []
    assert texts(world, "EIA-7")[-1] == (
        "Great Britain's revolt in Hesse ends: put down (revolt number 1); "
        "2 guerrilla factors removed"
    )


@pytest.mark.parametrize("resolver", RESOLVERS, ids=lambda r: r.__name__)
def test_every_phase_ends_a_revolt_whose_sponsor_is_now_allied_to_the_controller(world, resolver):
    revolt = gb_revolt(world, area="hesse")
    world.alliances.add(frozenset(("great_britain", "prussia")))
    resolver(world, {}, ScriptedDice([6]))
    assert not revolt.active and world.let_downs[("great_britain", "hesse")] == 1
