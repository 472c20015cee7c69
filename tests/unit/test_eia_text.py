"""The Empires in Arms log speaks in Texts: every line the phases and GM edits write
carries its msgid and parameters, renders back to the same English and stores as JSON."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.dice import ScriptedDice
from rules.empires_in_arms import edits
from rules.empires_in_arms.phases import (
    resolve_conquest,
    resolve_economic,
    resolve_land,
    resolve_peace,
    resolve_revolt_step,
)
from rules.empires_in_arms.ruleset import turn_label
from rules.empires_in_arms.state import ALLIED, SPAIN, Corps, Depot, Guerrilla, Revolt, World
from rules.translation import localized
from tests.unit.translatable import assert_log_translatable, assert_translatable


def revolt(world: World, area="palatinate", sponsor="great_britain", number=3, factors=0, **kw):
    world.revolts.append(Revolt(7 + len(world.revolts), sponsor, area, number, **kw))
    if factors:
        world.guerrillas.append(Guerrilla(20 + len(world.guerrillas), area, sponsor, factors, area))
    return world.revolts[-1]


# -- phases -----------------------------------------------------------------------------


def test_peace_lapses_and_skipped_lapses(world):
    revolt(world, factors=3)
    orders = {"great_britain": {"lapse": ["palatinate"]}, "austria": {"lapse": ["hesse"]}}
    resolve_peace(world, orders, ScriptedDice([]))
    assert len(world.log) == 2
    assert_log_translatable(world.log)


def test_revolt_step_attempts_strengths_refusals_and_endings(world):
    world.powers["great_britain"].zone = "Dominant"
    world.powers["france"].zone = "Fiasco"
    world.powers["turkey"].zone = "Instability"
    world.corps.append(Corps(1, "france", "palatinate"))
    revolt(world, area="wallachia", sponsor="russia", months_without_guerrillas=3)
    targets = ["palatinate", "hesse", "wallachia", "andalusia", "castile"]
    orders = {"great_britain": {"targets": targets}, "austria": {"targets": ["bosnia"]}}
    resolve_revolt_step(world, orders, ScriptedDice([6, 6, 1, 6, 1, 6, 6, 1]))
    assert {line.rule for line in world.log} == {"EIA-1", "EIA-2", "EIA-7"}
    assert_log_translatable(world.log)


def test_revolt_step_pp_minimum_refusal(world):
    world.powers["great_britain"].political_points = 0
    world.options["attempt_pp_minimum"] = 1
    resolve_revolt_step(world, {"great_britain": {"targets": ["hesse"]}}, ScriptedDice([]))
    assert_log_translatable(world.log)


def test_revolt_step_per_target_refusal_and_political_end_guerrillas(world):
    world.options.update(attempt_limit="per_target", revolt_guerrillas_when="political_end")
    revolt(world, area="hesse", sponsor="russia", number=5)
    orders = {"great_britain": {"targets": ["palatinate"] * 4}}
    resolve_revolt_step(world, orders, ScriptedDice([1, 1, 1, 1]))
    assert_log_translatable(world.log)


@pytest.mark.parametrize("faces", [[1, 6, 1], [6, 6, 6], [4, 2, 2]])
def test_land_operations_moves_and_spanish_guerrillas(world, faces):
    world.wars.add(frozenset((SPAIN, "france")))
    revolt(world, number=3, factors=4)
    world.guerrillas.append(
        Guerrilla(3, "palatinate", "great_britain", 2, "palatinate", True, True)
    )
    world.corps += [
        Corps(1, "france", "palatinate"),
        Corps(2, "france", "palatinate"),
        Corps(3, "france", "granada", fought=True),
        Corps(4, "france", "andalusia"),
    ]
    world.guerrillas += [
        Guerrilla(4, "castile", SPAIN, 8, "castile", revolt=False),
        Guerrilla(5, "granada", SPAIN, 1, "granada", revolt=False, besieged=True),
        Guerrilla(6, "andalusia", SPAIN, 1, "andalusia", revolt=False),
    ]
    moves = [{"stack": s, "to": to} for s, to in ((4, "granada"), (5, "castile"), (4, "castile"))]
    moves += [{"stack": 6, "to": "hesse"}, {"stack": 99}]
    orders = {
        "france": {"operations": ["palatinate", "hesse"]},
        "great_britain": {"moves": [{"stack": 3, "to": "hesse"}]},
        SPAIN: {"moves": moves},
    }
    resolve_land(world, orders, ScriptedDice(faces * 4))
    assert_log_translatable(world.log)


@pytest.mark.parametrize("face", [6, 1])
def test_land_depot_attacks(world, face):
    world.wars.add(frozenset((SPAIN, "france")))
    world.guerrillas.append(Guerrilla(3, "castile", SPAIN, 10, "castile", revolt=False))
    world.corps.append(Corps(1, "france", "castile"))
    world.depots += [Depot(6, "france", "castile", garrison=10), Depot(7, "france", "castile")]
    orders = {SPAIN: {"depot_attacks": ["castile", "granada"]}}
    resolve_land(world, orders, ScriptedDice([6, face]))
    assert {line.rule for line in world.log} >= {"EIA-11"}
    assert_log_translatable(world.log)


@pytest.mark.parametrize(
    ("options", "faces"),
    [
        ({}, [1, 6, 1, 1, 6]),
        ({"unaffordable_payment": "pays_all"}, [1, 6, 1, 1, 6]),
        ({"bad_roll_payment": "never"}, [1, 1, 6]),
        ({"operation_lowers": "controller_only"}, [6, 6, 6]),
    ],
)
def test_land_bad_roll_payments(world, options, faces):
    world.options.update(options)
    revolt(world, number=3, factors=1)
    world.corps += [Corps(1, "austria", "palatinate"), Corps(2, "russia", "palatinate")]
    world.powers["france"].treasury = 2
    orders = {"austria": {"operations": ["palatinate"]}, "russia": {"operations": ["palatinate"]}}
    resolve_land(world, orders, ScriptedDice(faces))
    assert_log_translatable(world.log)


def test_land_standing_order_a_neutral_minor_and_the_ottoman_bonus(world):
    world.powers["france"].pays_bad_roll = False
    revolt(world, number=3, factors=1)
    revolt(world, area="wallachia", sponsor="russia", number=3)
    revolt(world, area="bosnia", sponsor="austria", number=3)
    world.areas["wallachia"].controller = None
    world.corps += [
        Corps(1, "austria", "palatinate"),
        Corps(2, "austria", "wallachia"),
        Corps(3, "turkey", "bosnia"),
        Corps(4, "turkey", "bosnia"),
    ]
    orders = {
        "austria": {"operations": ["palatinate", "wallachia"]},
        "turkey": {"operations": ["bosnia"]},
    }
    resolve_land(world, orders, ScriptedDice([1, 6, 1, 1, 1, 1, 1]))
    assert_log_translatable(world.log)


def test_land_a_cap_that_stops_a_move(world):
    revolt(world, area="andalusia", sponsor="russia", number=5, factors=15)
    world.guerrillas.append(Guerrilla(4, "castile", SPAIN, 2, "castile", revolt=False))
    world.wars.add(frozenset((SPAIN, "austria")))
    world.corps.append(Corps(2, "austria", "granada", besieged=True))
    resolve_land(world, {SPAIN: {"moves": [{"stack": 4, "to": "andalusia"}]}}, ScriptedDice([1]))
    assert_log_translatable(world.log)


def test_land_spanish_removal_and_fought_marks(world):
    world.guerrillas.append(Guerrilla(3, "castile", SPAIN, 7, "castile", revolt=False))
    world.corps.append(Corps(1, "russia", "hesse", fought=True))
    resolve_land(world, {}, ScriptedDice([]))
    assert {line.rule for line in world.log} == {"EIA-12", "EIA-4"}
    assert_log_translatable(world.log)


@pytest.mark.parametrize("choice", ["client", "conquered", ""])
def test_conquest_successes_at_war(world, choice):
    world.wars |= {frozenset(pair) for pair in (("great_britain", "france"), (SPAIN, "france"))}
    world.wars.add(frozenset(("russia", "turkey")))
    world.areas["wallachia"].islamic = True
    revolt(world, number=6, factors=4, capital_held_months=1)
    revolt(world, area="andalusia", sponsor="spain", number=6, factors=2, capital_held_months=1)
    revolt(world, area="bosnia", sponsor="russia", number=6, factors=2, capital_held_months=1)
    revolt(world, area="wallachia", sponsor="russia", number=6, factors=2, capital_held_months=1)
    orders = {
        "great_britain": {"choices": {"palatinate": choice}},
        "russia": {"choices": {"wallachia": choice}},
    }
    resolve_conquest(world, orders, ScriptedDice([]))
    assert_log_translatable(world.log)
    for ended in world.revolts:
        assert_translatable(ended.end_reason)


def test_conquest_successes_at_peace_and_blocked_and_counted(world):
    world.corps.append(Corps(1, "austria", "palatinate"))
    world.depots.append(Depot(2, "prussia", "palatinate"))
    revolt(world, number=6, factors=4, capital_held_months=1)
    revolt(world, area="andalusia", sponsor="spain", number=6, factors=2, capital_held_months=1)
    revolt(world, area="bosnia", sponsor="russia", number=6, factors=2, capital_held_months=1)
    revolt(world, area="wallachia", sponsor="russia", number=6, capital_held_months=2)
    revolt(world, area="hesse", sponsor="austria", number=4, months_without_guerrillas=2)
    resolve_conquest(world, {}, ScriptedDice([]))
    assert_log_translatable(world.log)


def test_immediate_endings(world):
    revolt(world, factors=2)
    revolt(world, area="hesse", sponsor="austria", number=1, factors=1)
    revolt(world, area="wallachia", sponsor="russia", number=3, factors=2)
    revolt(world, area="andalusia", sponsor="spain", number=3)
    world.alliances.add(frozenset(("great_britain", "france")))
    world.areas["wallachia"].controller = None
    world.areas["andalusia"].controller = SPAIN
    resolve_peace(world, {}, ScriptedDice([]))
    assert len(world.log) == 4
    assert_log_translatable(world.log)


def test_economic_aid_and_refusals(world):
    revolt(world, number=3)
    revolt(world, area="wallachia", number=3)
    world.powers["austria"].treasury = 1
    revolt(world, area="hesse", sponsor="austria", number=3)
    orders = {
        "great_britain": {"aid": {"palatinate": 3, "wallachia": 2}},
        "austria": {"aid": {"hesse": 4, "palatinate": 2}},
        "russia": {"aid": {"hesse": 9}},
    }
    resolve_economic(world, orders, ScriptedDice([2, 6, 6]))
    assert_log_translatable(world.log)
    world.log.clear()
    resolve_economic(world, {"great_britain": {"aid": {"palatinate": 9}}}, ScriptedDice([]))
    assert_log_translatable(world.log)


# -- GM edits ---------------------------------------------------------------------------


@pytest.fixture
def edited(world: World) -> World:
    revolt(world, factors=3)
    world.guerrillas.append(Guerrilla(2, "castile", SPAIN, 2, "castile", revolt=False))
    world.corps.append(Corps(3, "france", "palatinate", name="I"))
    world.depots.append(Depot(4, "france", "palatinate"))
    return world


EDIT_CASES = [
    (
        "power",
        dict(power="france", zone="Dominant", political_points=3, treasury=9, pays_bad_roll=False),
    ),
    (
        "power",
        dict(power="france", zone="Neutral", political_points=3, treasury=9, pays_bad_roll=True),
    ),
    ("militia", dict(power=SPAIN, militia=1)),
    ("area", dict(area="palatinate", controller="austria", ceded=False, minor_status=ALLIED)),
    ("area", dict(area="castile", controller="france", ceded=True)),
    ("area", dict(area="hesse", controller="france", ceded=False, minor_status="client")),
    ("area", dict(area="hesse", controller="france", ceded=False, minor_status="conquered")),
    ("area", dict(area="wallachia", controller=None, ceded=False)),
    ("area_details", dict(area="castile", manpower=4, guerrilla_value=3, minor_status="")),
    ("area_details", dict(area="wallachia", manpower=2, guerrilla_value=None, minor_status="")),
    ("area_details", dict(area="hesse", manpower=1, guerrilla_value=None, minor_status=ALLIED)),
    ("national_modifier", dict(area="hesse", power="france", value=-2)),
    ("let_downs", dict(power="france", area="hesse", count=2)),
    ("corps_add", dict(power="france", area="castile", name="II", minor=None)),
    ("corps_add", dict(power="turkey", area="bosnia", name="III", minor="wallachia")),
    ("corps", dict(corps=3, area="hesse", fought=True, besieged=False, besieging=True)),
    ("corps", dict(corps=3, area="hesse", fought=False, besieged=False, besieging=False)),
    ("corps", dict(corps=3, area="hesse", fought=False, besieged=True, besieging=False)),
    ("corps_remove", dict(corps=3)),
    ("relation", dict(a="france", b="austria", kind="war")),
    ("relation", dict(a="france", b="austria", kind="alliance")),
    ("relation", dict(a="france", b="austria", kind="peace")),
    ("revolt", dict(revolt=7, capital_held_months=1)),
    ("spanish_field_loss", dict(area="castile")),
    ("guerrilla", dict(stack=2, besieged=True, factors=1)),
    ("guerrilla", dict(stack=2, besieged=False)),
    ("guerrilla_add", dict(power="great_britain", area="palatinate", factors=2, revolt=True)),
    ("guerrilla_add", dict(power=SPAIN, area="granada", factors=1, revolt=False)),
    ("guerrilla_remove", dict(stack=2)),
    ("depot_add", dict(power="france", area="hesse", port_city=True, garrison=3)),
    ("depot_add", dict(power="france", area="hesse", port_city=False, garrison=0)),
    ("depot_remove", dict(depot=4)),
]


@pytest.mark.parametrize(("edit", "fields"), EDIT_CASES)
def test_each_gm_edit_returns_a_text(edited, edit, fields):
    assert_translatable(edits.EDITS[edit](edited, **fields))


def test_every_gm_edit_is_covered():
    assert {edit for edit, _ in EDIT_CASES} == set(edits.EDITS)


def test_edit_errors_are_in_the_active_language(edited):
    with translation.override("en"), pytest.raises(edits.EditError, match="from -5 to 5"):
        edits.edit_national_modifier(edited, area="hesse", power="france", value=9)


def test_the_turn_label_is_a_message_each_reader_reads_in_their_language():
    label = turn_label(1, {"start_year": 1805})
    assert label == "January 1805"  # its English source, whatever the active language
    with translation.override("ru"):
        assert localized(label) == "Январь 1805"
    with translation.override("el"):
        assert localized(turn_label(4, {"start_year": 1805})) == "Απρίλιος 1805"
