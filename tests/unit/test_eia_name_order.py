"""Empires in Arms lists what it names in the order a reader looks things up, by name,
whatever the keys the scenario gave: the areas a form offers, the provinces Spain rolls
in, the powers a GM note names. The tests rename areas and powers so that their keys sort
otherwise. Also: the answers the forms and the phase's "owes orders" read, and the World
copy the services diff against."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.empires_in_arms import legal
from rules.empires_in_arms.gm_orders import carry_out, pieces
from rules.empires_in_arms.phases import resolve_conquest
from rules.empires_in_arms.procedures import (
    anti_guerrilla_operation,
    revolt_attempt,
    spanish_guerrilla_areas,
    spanish_guerrilla_removal,
)
from rules.empires_in_arms.state import Corps, Depot, Guerrilla, Revolt
from rules.gm_orders import BATTLE, MOVE, Prefill
from rules.log import LogLine

# -- by name, not by key --------------------------------------------------------------------


def test_revolt_targets_are_offered_by_name(world):
    world.areas["hesse"].name = "Zweibrücken"
    assert legal.revolt_targets(world, "great_britain") == [
        "andalusia",
        "palatinate",
        "wallachia",
        "hesse",
    ]


def test_operation_areas_are_offered_by_name(world):
    world.areas["hesse"].name = "Zweibrücken"
    world.revolts += [Revolt(1, "great_britain", "palatinate", 3), Revolt(2, "russia", "hesse", 3)]
    world.guerrillas += [
        Guerrilla(1, "palatinate", "great_britain", 2, "palatinate"),
        Guerrilla(2, "hesse", "russia", 2, "hesse"),
    ]
    world.corps += [Corps(1, "france", "hesse"), Corps(2, "france", "palatinate")]
    assert legal.operation_areas(world, "france") == ["palatinate", "hesse"]


def test_depot_attack_areas_are_offered_by_name(world):
    world.areas["andalusia"].name = "Sevilla"
    world.wars.add(frozenset(("spain", "france")))
    for number, key in enumerate(("andalusia", "granada"), 1):
        world.guerrillas.append(Guerrilla(number, key, "spain", 7, key, revolt=False))
        world.depots.append(Depot(number, "france", key))
    assert legal.depot_attack_areas(world, "spain") == ["granada", "andalusia"]


def test_spain_rolls_in_its_provinces_by_name(world):
    world.areas["andalusia"].name = "Sevilla"
    world.wars.add(frozenset(("spain", "france")))
    world.corps += [Corps(1, "france", "andalusia"), Corps(2, "france", "castile")]
    assert spanish_guerrilla_areas(world) == ["castile", "andalusia"]


def test_the_gm_note_of_a_success_at_peace_names_the_powers_by_name(world):
    world.powers["austria"].name = "Habsburg Monarchy"
    world.revolts.append(Revolt(7, "great_britain", "palatinate", 6, capital_held_months=1))
    world.guerrillas.append(Guerrilla(11, "palatinate", "great_britain", 2, "palatinate"))
    world.depots += [Depot(1, "turkey", "palatinate"), Depot(2, "austria", "palatinate")]
    world.corps += [Corps(1, "turkey", "palatinate"), Corps(2, "austria", "palatinate")]
    resolve_conquest(world, {}, ScriptedDice([]))
    assert world.log[-1].text == (
        "GM: repatriate garrisons of France, Habsburg Monarchy, Turkey from Palatinate; "
        "move corps of Habsburg Monarchy, Turkey to nearest friendly territory"
    )


# -- Decision 18: Spanish guerrillas raised in a ceded province stay ---------------------


@pytest.fixture
def spared(world):
    """Decision 18's option; Granada ceded to France too (Andalusia, renamed Sevilla,
    already is); no enemy in unceded Castile."""
    world.options["spanish_removal_ceded"] = "spares_new_ceded"
    world.areas["andalusia"].name = "Sevilla"
    world.areas["granada"].controller, world.areas["granada"].ceded = "france", True
    return world


def test_the_provinces_whose_new_guerrillas_stay_are_named_by_name(spared):
    spared.guerrillas += [
        Guerrilla(1, "andalusia", "spain", 2, "andalusia", revolt=False),
        Guerrilla(2, "granada", "spain", 1, "granada", revolt=False),
    ]
    removal = spanish_guerrilla_removal(spared, {"andalusia": 2, "granada": 1})
    assert removal.kept == 3
    assert removal.text == (
        "No enemy in Spain: 0 Spanish guerrilla factors removed; Spain receives 0 ÷ 3 = 0 "
        "militia factors in its next reinforcement phase; 3 factors raised in this step in a "
        "ceded province stay (Granada, Sevilla)"
    )


def test_a_stack_keeps_only_the_one_factor_raised_this_step(spared):
    stack = Guerrilla(1, "andalusia", "spain", 4, "andalusia", revolt=False)
    spared.guerrillas.append(stack)
    removal = spanish_guerrilla_removal(spared, {"andalusia": 1})
    assert (removal.removed, removal.thinned, removal.factors) == ((), ((stack, 1),), 3)


def test_new_factors_are_spared_from_the_like_stacks_in_turn(spared):
    first = Guerrilla(1, "andalusia", "spain", 3, "andalusia", revolt=False)
    second = Guerrilla(2, "andalusia", "spain", 2, "andalusia", revolt=False)
    spared.guerrillas += [first, second]
    removal = spanish_guerrilla_removal(spared, {"andalusia": 4})
    assert (removal.kept, removal.thinned) == (4, ((second, 1),))
    assert removal.removed == ()


# -- rolls and what they name -------------------------------------------------------------


def test_a_revolt_attempts_roll_is_the_sponsors_in_the_target_area(world):
    attempt = revolt_attempt(
        world.powers["great_britain"], world.areas["palatinate"], 0, 0, [], ScriptedDice([3])
    )
    assert (attempt.report.power, attempt.report.area) == ("great_britain", "palatinate")


def test_a_bad_roll_where_nobody_controls_the_area_says_nobody_pays(world):
    revolt = Revolt(7, "great_britain", "wallachia", 3)
    world.areas["wallachia"].controller = None
    operation = anti_guerrilla_operation(
        world.powers["austria"], world.areas["wallachia"], revolt, 1, [], None, ScriptedDice([1])
    )
    assert operation.payment is None and operation.revolt_number == 4
    assert str(operation.report.outcome).endswith(
        "a bad roll, no controller to pay: revolt number 3 → 4"
    )


# -- the answers the forms and the phases read ---------------------------------------------


def test_the_yes_no_questions_answer_false_not_nothing(world):
    world.revolts.append(Revolt(7, "great_britain", "palatinate", 3))
    assert legal.over_cap(world, "hesse", 99) is False
    assert legal.revolt_enemy(world, None, "france") is False
    assert legal.guerrilla_enemy(world, "spain", False, "castile", None) is False
    assert legal.can_operate(world, "france", "atlantis") is False
    world.corps.append(Corps(1, "great_britain", "palatinate"))
    assert legal.can_operate(world, "great_britain", "palatinate") is False
    assert legal.can_attack_depots(world, "spain", "castile") is False
    assert legal.sponsors_a_revolt(world, "france") is False
    assert legal.can_aid(world, "france") is False


# -- the World -------------------------------------------------------------------------------


def test_a_copy_holds_the_militia_due_the_let_downs_and_the_log_as_its_own(world):
    world.militia_due["spain"] = 2
    world.let_downs[("great_britain", "palatinate")] = 1
    world.log.append(LogLine("EIA-1", "a line"))
    twin = world.copy()
    assert twin == world
    twin.militia_due["spain"] = 5
    twin.let_downs[("great_britain", "palatinate")] = 2
    twin.log.append(LogLine("EIA-1", "another line"))
    assert world.militia_due == {"spain": 2}
    assert world.let_downs == {("great_britain", "palatinate"): 1}
    assert len(world.log) == 1


def test_the_chart_decides_the_modifier_of_an_unceded_province(world):
    world.national_modifiers[("castile", "spain")] = 1
    assert world.national_modifier("spain", "castile") == 1
    assert world.national_modifier("spain", "andalusia") == 3


@pytest.mark.parametrize("slot", range(1, 8))
def test_france_moves_in_its_announced_slot(world, slot):
    world.options["france_slot"] = slot
    assert world.land_order().index("france") == slot - 1


# -- orders for the GM -----------------------------------------------------------------------


@pytest.fixture
def corps(world):
    """France's corps IV (#3) in Castile, besieging; Spain's corps #4."""
    world.adjacency["castile"] = {"granada", "andalusia"}
    world.corps += [
        Corps(3, "france", "castile", name="IV", besieging=True),
        Corps(4, "spain", "granada", name="I"),
        Corps(None, "france", "castile", name="placed"),
    ]
    return world


def test_a_powers_pieces_are_its_own_corps_with_an_id(corps):
    (piece,) = pieces(corps, "france")
    assert (piece.id, piece.label, piece.area, piece.reach) == (
        3,
        "corps IV",
        "castile",
        ("andalusia", "granada"),
    )


def test_a_move_puts_the_corps_in_its_new_area_keeping_its_flags(corps):
    line = {"kind": MOVE, "piece": 3, "area": "granada"}
    assert carry_out(corps, line) == Prefill(
        "corps", "3", {"area": "granada", "fought": False, "besieged": False, "besieging": True}
    )


def test_a_battle_marks_the_corps_as_having_fought(corps):
    line = {"kind": BATTLE, "piece": 3, "area": "castile"}
    assert carry_out(corps, line) == Prefill(
        "corps", "3", {"area": "castile", "fought": True, "besieged": False, "besieging": True}
    )


@pytest.mark.parametrize(
    "line",
    [
        {"kind": MOVE, "piece": 99, "area": "granada"},
        {"kind": MOVE, "piece": None, "area": "granada"},
        {"kind": "card", "piece": 3, "area": "granada"},
    ],
)
def test_a_line_naming_no_corps_or_of_another_kind_carries_out_nothing(corps, line):
    assert carry_out(corps, line) is None
