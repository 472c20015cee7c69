"""What the phase resolvers and steps answer: the procedures' outcomes in the order they
happened, and a Skipped, with its reason, for each order they did not carry out."""

from __future__ import annotations

from dataclasses import replace

from rules.dice import ScriptedDice
from rules.empires_in_arms.phases import (
    aid,
    attack_depots,
    immediate_checks,
    operate,
    resolve_conquest,
    resolve_economic,
    resolve_land,
    resolve_peace,
    resolve_revolt_step,
    spanish_removal,
    three_month_endings,
)
from rules.empires_in_arms.procedures import (
    Aid,
    DepotAttack,
    GuerrillaCreation,
    GuerrillaMove,
    Operation,
    RevoltAttempt,
    RevoltEnd,
    RevoltStrength,
    RevoltSuccess,
    SpanishRemoval,
)
from rules.empires_in_arms.state import ALLIED, Corps, Depot, Guerrilla, Revolt
from rules.refusals import Skipped


def kinds(outcomes) -> list[type]:
    return [type(outcome) for outcome in outcomes]


def rolls(world) -> list:
    return [line.roll for line in world.log if line.roll]


def state(world):
    """The World without its log: what a skipped order must leave as it was."""
    return replace(world, log=[])


def revolt(world, area="palatinate", sponsor="great_britain", number=3, factors=0, **fields):
    world.revolts.append(Revolt(7 + len(world.revolts), sponsor, area, number, **fields))
    if factors:
        world.guerrillas.append(Guerrilla(11, area, sponsor, factors, area))
    return world.revolts[-1]


def spain_at_war_with_france(world):
    """A besieged French corps in Castile keeps the Spanish guerrillas on the map
    (EIA-12) without an EIA-10 roll."""
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "castile", besieged=True))


# -- peace step -------------------------------------------------------------------------


def test_peace_answers_the_lapse_and_the_skipped_order_in_land_phase_order(world):
    revolt(world, factors=3)
    orders = {"great_britain": {"lapse": ["palatinate"]}, "austria": {"lapse": ["hesse"]}}
    outcomes = resolve_peace(world, orders, ScriptedDice([]))
    reason = "Austria has no revolt in Hesse to let lapse: order skipped"
    assert outcomes == (
        Skipped("austria", "hesse", reason),
        RevoltEnd("Great Britain lets it lapse", let_down=True, removed=3, let_downs=1),
    )


def test_peace_without_orders_answers_the_immediate_endings(world):
    revolt(world, number=1)
    outcomes = resolve_peace(world, {}, ScriptedDice([]))
    assert outcomes == (RevoltEnd("put down (revolt number 1)"),)


# -- revolt step ------------------------------------------------------------------------


def test_revolt_step_answers_the_attempt_then_the_strength(world):
    world.powers["great_britain"].zone = "Dominant"
    orders = {"great_britain": {"targets": ["palatinate", "hesse"]}}
    outcomes = resolve_revolt_step(world, orders, ScriptedDice([4, 5, 2]))
    assert kinds(outcomes) == [RevoltAttempt, RevoltStrength, RevoltAttempt]
    palatinate, strength, hesse = outcomes
    assert (palatinate.broke_out, palatinate.political_points) == (True, 9)
    assert strength.number == 5 and world.revolts[0].number == 5
    assert (hesse.broke_out, hesse.political_points) == (False, 8)
    assert [o.report for o in outcomes] == rolls(world)


def test_revolt_step_answers_the_three_month_ending_first(world):
    revolt(world, months_without_guerrillas=3)
    orders = {"great_britain": {"targets": ["palatinate"]}}
    outcomes = resolve_revolt_step(world, orders, ScriptedDice([1]))
    assert kinds(outcomes) == [RevoltEnd, RevoltAttempt]
    assert outcomes[0].reason.startswith("no guerrillas in Palatinate for 3 months in a row")


def test_revolt_step_a_refused_attempt_is_skipped_with_its_reason_and_changes_nothing(world):
    world.options["attempt_pp_minimum"] = 1
    world.powers["great_britain"].political_points = 0
    before, dice = state(world.copy()), ScriptedDice([6])
    outcomes = resolve_revolt_step(world, {"great_britain": {"targets": ["palatinate"]}}, dice)
    reason = "Great Britain has 0 PP; an attempt needs 1"
    assert outcomes == (Skipped("great_britain", "palatinate", reason),)
    assert state(world) == before and dice.rolls == []
    assert [line.text for line in world.log] == [f"{reason}: attempt refused"]


def test_revolt_step_an_illegal_target_is_skipped_with_the_log_line_as_reason(world):
    world.alliances.add(frozenset(("great_britain", "france")))
    before = state(world.copy())
    outcomes = resolve_revolt_step(
        world, {"great_britain": {"targets": ["palatinate"]}}, ScriptedDice([])
    )
    reason = (
        "Great Britain: Palatinate is not a legal revolt target now; attempt skipped, no PP spent"
    )
    assert outcomes == (Skipped("great_britain", "palatinate", reason),)
    assert state(world) == before


def test_revolt_step_answers_the_political_end_guerrillas(world):
    world.options["revolt_guerrillas_when"] = "political_end"
    revolt(world, area="hesse", number=4)
    outcomes = resolve_revolt_step(world, {}, ScriptedDice([1]))
    assert kinds(outcomes) == [GuerrillaCreation]
    assert outcomes[0].created == 3


# -- land phase -------------------------------------------------------------------------


def test_land_answers_the_operation_then_the_ending_it_brings(world):
    revolt(world, number=2, factors=3)
    world.corps.append(Corps(1, "france", "palatinate"))
    outcomes = resolve_land(world, {"france": {"operations": ["palatinate"]}}, ScriptedDice([5]))
    assert kinds(outcomes) == [Operation, RevoltEnd]
    operation, ending = outcomes
    assert operation.success and operation.revolt_number == 1
    assert ending == RevoltEnd("put down (revolt number 1)")


def test_land_answers_each_step_in_order(world):
    """Three-month ending, Spain's moves (one refused), its guerrillas, its depot attack."""
    revolt(world, area="hesse", months_without_guerrillas=3)
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "granada"))
    world.guerrillas += [
        Guerrilla(3, "andalusia", "spain", 8, "andalusia", revolt=False),
        Guerrilla(4, "castile", "spain", 1, "castile", revolt=False),
    ]
    world.depots.append(Depot(5, "france", "andalusia"))
    moves = [{"stack": 4, "to": "bosnia"}, {"stack": 4, "to": "granada"}]
    orders = {"spain": {"moves": moves, "depot_attacks": ["andalusia"]}}
    outcomes = resolve_land(world, orders, ScriptedDice([2, 6]))  # EIA-10 Granada, EIA-11
    assert kinds(outcomes) == [RevoltEnd, Skipped, GuerrillaMove, GuerrillaCreation, DepotAttack]
    _, skipped, move, creation, attack = outcomes
    reason = (
        "1 guerrilla factor of Spain stays in Castile: "
        "Bosnia is not an adjacent area they may enter"
    )
    assert skipped == Skipped("spain", moves[0], reason)
    assert (move.stack, move.destination) == (4, "granada")
    assert creation.created == 3 and attack.destroyed == (Depot(5, "france", "andalusia"),)
    assert [o.report for o in outcomes[3:]] == rolls(world)


def test_land_a_refused_move_is_skipped_and_the_stack_stays(world):
    revolt(world, number=2, factors=2)
    before = state(world.copy())
    move = {"stack": 11, "to": "hesse"}
    outcomes = resolve_land(world, {"great_britain": {"moves": [move]}}, ScriptedDice([6]))
    reason = (
        "2 guerrilla factors of Great Britain stay in Palatinate: "
        "revolt guerrillas never leave Palatinate"
    )
    assert outcomes[0] == Skipped("great_britain", move, reason)
    assert kinds(outcomes) == [Skipped, GuerrillaCreation]  # then GB's EIA-3 roll, 6: none
    assert state(world) == before


def test_land_answers_spains_guerrilla_removal(world):
    world.guerrillas.append(Guerrilla(3, "castile", "spain", 7, "castile", revolt=False))
    outcomes = resolve_land(world, {}, ScriptedDice([]))
    assert kinds(outcomes) == [SpanishRemoval]
    assert (outcomes[0].factors, outcomes[0].militia) == (7, 2)


# -- land phase: the steps a GM or test calls -------------------------------------------


def test_operate_answers_the_operation_and_its_payment(world):
    revolt(world, number=3, factors=1)
    world.corps.append(Corps(1, "austria", "palatinate"))
    (operation,) = operate(world, "austria", "palatinate", ScriptedDice([1, 4]))
    assert not operation.success and operation.revolt_number == 3
    assert operation.controller_treasury == 16
    assert [operation.report, operation.payment] == rolls(world)


def test_operate_where_none_is_possible_is_skipped_and_changes_nothing(world):
    revolt(world, number=3)
    before = state(world.copy())
    outcomes = operate(world, "france", "palatinate", ScriptedDice([6]))
    reason = "France: no anti-guerrilla operation possible in Palatinate now; order skipped"
    assert outcomes == (Skipped("france", "palatinate", reason),)
    assert state(world) == before


def test_attack_depots_answers_the_attack(world):
    world.guerrillas.append(Guerrilla(3, "andalusia", "spain", 8, "andalusia", revolt=False))
    spain_at_war_with_france(world)
    world.depots.append(Depot(4, "france", "andalusia"))
    (attack,) = attack_depots(world, "spain", "andalusia", ScriptedDice([4]))
    assert attack.destroyed == () and attack.report == rolls(world)[0]


def test_attack_depots_too_few_guerrillas_is_skipped_and_changes_nothing(world):
    world.guerrillas.append(Guerrilla(3, "andalusia", "spain", 6, "andalusia", revolt=False))
    spain_at_war_with_france(world)
    world.depots.append(Depot(4, "france", "andalusia"))
    before = state(world.copy())
    outcomes = attack_depots(world, "spain", "andalusia", ScriptedDice([6]))
    reason = "Spain: no guerrilla depot attack possible in Andalusia now; order skipped"
    assert outcomes == (Skipped("spain", "andalusia", reason),)
    assert state(world) == before


def test_spanish_removal_answers_nothing_while_an_enemy_is_in_spain(world):
    world.guerrillas.append(Guerrilla(3, "castile", "spain", 7, "castile", revolt=False))
    spain_at_war_with_france(world)
    assert spanish_removal(world) == ()
    world.corps.clear()
    (removal,) = spanish_removal(world)
    assert removal.militia == 2 and world.militia_due == {"spain": 2}


# -- conquest step ----------------------------------------------------------------------


def test_conquest_answers_the_success(world):
    revolt(world, number=6, factors=4, capital_held_months=1)
    hesse = revolt(world, area="hesse", number=1)
    outcomes = resolve_conquest(world, {}, ScriptedDice([]))
    assert kinds(outcomes) == [RevoltSuccess, RevoltEnd]
    success, ending = outcomes
    assert (success.controller, success.minor_status, success.infantry) == (
        "great_britain",
        ALLIED,
        4,
    )
    assert success.gm_note == "GM: repatriate garrisons of France from Palatinate"
    assert ending == RevoltEnd("put down (revolt number 1)") and not hesse.active


def test_conquest_a_blocked_success_answers_nothing(world):
    revolt(world, number=6, capital_held_months=1)
    assert resolve_conquest(world, {}, ScriptedDice([])) == ()
    assert world.log[0].text.startswith("GM: Great Britain's revolt in Palatinate")


# -- economic phase ---------------------------------------------------------------------


def test_economic_answers_each_aid(world):
    revolt(world, number=3)
    revolt(world, area="hesse", number=3)
    orders = {"great_britain": {"aid": {"palatinate": 4, "hesse": 1}}}
    outcomes = resolve_economic(world, orders, ScriptedDice([2, 5]))
    assert kinds(outcomes) == [Aid, Aid]
    assert [(o.revolt_number, o.treasury) for o in outcomes] == [(4, 16), (3, 15)]
    assert [o.report for o in outcomes] == rolls(world)


def test_economic_refused_aid_is_skipped_with_its_reason_and_changes_nothing(world):
    revolt(world, number=3)
    world.powers["great_britain"].treasury = 1
    before, dice = state(world.copy()), ScriptedDice([1])
    outcomes = resolve_economic(world, {"great_britain": {"aid": {"palatinate": 2}}}, dice)
    reason = "Great Britain cannot afford $2 (treasury $1)"
    assert outcomes == (Skipped("great_britain", ("palatinate", 2), reason),)
    assert state(world) == before and dice.rolls == []
    assert [line.text for line in world.log] == [f"{reason}; aid skipped"]


def test_aid_out_of_range_is_skipped_with_its_reason(world):
    revolt(world, number=3)
    before = state(world.copy())
    outcomes = aid(world, "great_britain", "palatinate", 7, ScriptedDice([1]))
    assert outcomes == (Skipped("great_britain", ("palatinate", 7), "aid is $1 to $6, not 7"),)
    assert state(world) == before


def test_aid_to_another_powers_revolt_is_skipped(world):
    revolt(world, number=3)
    outcomes = aid(world, "austria", "palatinate", 2, ScriptedDice([1]))
    reason = "Austria may not aid a revolt in Palatinate now; order skipped"
    assert outcomes == (Skipped("austria", ("palatinate", 2), reason),)


# -- EIA-7 endings ----------------------------------------------------------------------


def test_three_month_endings_answer_each_ending_and_nothing_the_second_time(world):
    revolt(world, months_without_guerrillas=3)
    revolt(world, area="hesse", months_without_guerrillas=2)
    (ending,) = three_month_endings(world)
    assert ending.reason.startswith("no guerrillas in Palatinate for 3 months in a row")
    assert three_month_endings(world) == ()


def test_immediate_checks_answer_each_ending(world):
    revolt(world, factors=2)
    revolt(world, area="andalusia", sponsor="spain")
    world.alliances.add(frozenset(("great_britain", "france")))
    world.areas["andalusia"].controller = "spain"
    assert immediate_checks(world) == (
        RevoltEnd("Great Britain and France are allies", let_down=True, removed=2, let_downs=1),
        RevoltEnd("Andalusia is now Spain's"),
    )
    assert immediate_checks(world) == ()
