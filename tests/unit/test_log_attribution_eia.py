"""Whom each Empires in Arms log line is about, and where: a line's power becomes its
Event's power, which puts it in that power's phase summary and under "Your rolls and
results" in its mail (campaign/summary.py, campaign/notifications.py); its area is the
map area the log links. A line given to the wrong power, or to none, is missing from the
summary of the player it concerns."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.empires_in_arms.phases import (
    immediate_checks,
    resolve_conquest,
    resolve_economic,
    resolve_land,
    resolve_peace,
    resolve_revolt_step,
)
from rules.empires_in_arms.state import Corps, Depot, Guerrilla, Revolt


def said(world, rule: str) -> list[tuple[str | None, str | None, str]]:
    """(power, area, text) of the log lines of one rule, in order."""
    return [(line.power, line.area, line.text) for line in world.log if line.rule == rule]


def revolt_of(world, sponsor="great_britain", area="palatinate", number=3, factors=0, **fields):
    revolt = Revolt(7, sponsor, area, number, **fields)
    world.revolts.append(revolt)
    if factors:
        world.guerrillas.append(Guerrilla(11, area, sponsor, factors, area))
    return revolt


def spanish_at_war_with_france(world):
    """Spain at war with France, whose besieged corps in Castile keeps the Spanish
    guerrillas on the map (EIA-12) without an EIA-10 roll."""
    world.wars.add(frozenset(("spain", "france")))
    world.corps.append(Corps(1, "france", "castile", besieged=True))


# -- skipped orders ---------------------------------------------------------------------


def test_a_skipped_lapse_is_the_ordering_powers_line_in_the_area_named(world):
    revolt_of(world)
    resolve_peace(world, {"austria": {"lapse": ["palatinate"]}}, ScriptedDice([]))
    assert said(world, "EIA-7") == [
        (
            "austria",
            "palatinate",
            "Austria has no revolt in Palatinate to let lapse: order skipped",
        )
    ]


def test_a_skipped_revolt_attempt_is_the_ordering_powers_line(world):
    world.alliances.add(frozenset(("austria", "france")))
    resolve_revolt_step(world, {"austria": {"targets": ["palatinate"]}}, ScriptedDice([]))
    assert said(world, "EIA-1") == [
        (
            "austria",
            "palatinate",
            "Austria: Palatinate is not a legal revolt target now; attempt skipped, no PP spent",
        )
    ]


def test_a_refused_revolt_attempt_is_the_ordering_powers_line(world):
    world.options["attempt_pp_minimum"] = 1
    world.powers["great_britain"].political_points = 0
    orders = {"great_britain": {"targets": ["palatinate"]}}
    resolve_revolt_step(world, orders, ScriptedDice([]))
    ((power, area, text),) = said(world, "EIA-1")
    assert (power, area) == ("great_britain", "palatinate")
    assert text.endswith(": attempt refused")


def test_skipped_guerrilla_moves_are_the_moving_powers_lines(world):
    revolt_of(world, number=2, factors=2)
    orders = {"great_britain": {"moves": [{"stack": 11, "to": "hesse"}, {"stack": 99}]}}
    resolve_land(world, orders, ScriptedDice([6]))
    assert said(world, "EIA-9") == [
        (
            "great_britain",
            "palatinate",
            "2 guerrilla factors of Great Britain stay in Palatinate: "
            "revolt guerrillas never leave Palatinate",
        ),
        (
            "great_britain",
            None,
            "Great Britain: guerrilla stack 99 is not one of its stacks; move skipped",
        ),
    ]


def test_a_guerrilla_move_and_a_second_one_of_the_stack_are_the_movers_lines(world):
    world.guerrillas.append(Guerrilla(3, "castile", "spain", 2, "castile", revolt=False))
    spanish_at_war_with_france(world)
    orders = {"spain": {"moves": [{"stack": 3, "to": "granada"}, {"stack": 3, "to": "castile"}]}}
    resolve_land(world, orders, ScriptedDice([]))
    assert said(world, "EIA-9") == [
        ("spain", "castile", "2 guerrilla factors of Spain move from Castile to Granada"),
        ("spain", None, "Spain: guerrilla stack 3 has already moved this step; move skipped"),
    ]


def test_a_skipped_operation_is_the_operating_powers_line(world):
    revolt_of(world)
    world.corps.append(Corps(1, "france", "palatinate", fought=True))
    resolve_land(world, {"france": {"operations": ["palatinate"]}}, ScriptedDice([6]))
    assert said(world, "EIA-4")[0] == (
        "france",
        "palatinate",
        "France: no anti-guerrilla operation possible in Palatinate now; order skipped",
    )


def test_a_skipped_depot_attack_is_the_attackers_line(world):
    world.guerrillas.append(Guerrilla(3, "andalusia", "spain", 6, "andalusia", revolt=False))
    world.depots.append(Depot(4, "france", "andalusia"))
    spanish_at_war_with_france(world)
    resolve_land(world, {"spain": {"depot_attacks": ["andalusia"]}}, ScriptedDice([]))
    assert said(world, "EIA-11") == [
        (
            "spain",
            "andalusia",
            "Spain: no guerrilla depot attack possible in Andalusia now; order skipped",
        )
    ]


def test_skipped_aid_is_the_aiding_powers_line_in_the_revolts_area(world):
    revolt_of(world)
    world.alliances.add(frozenset(("great_britain", "austria")))
    world.powers["great_britain"].treasury = 1
    orders = {
        "great_britain": {"aid": {"palatinate": 2}},
        "austria": {"aid": {"palatinate": 2}},
    }
    resolve_economic(world, orders, ScriptedDice([]))
    assert sorted(said(world, "EIA-5")) == [
        ("austria", "palatinate", "Austria may not aid a revolt in Palatinate now; order skipped"),
        (
            "great_britain",
            "palatinate",
            "Great Britain cannot afford $2 (treasury $1); aid skipped",
        ),
    ]


# -- depots, Spanish removal --------------------------------------------------------------


def test_a_depot_garrisons_retreat_is_its_owners_line_the_attack_the_attackers(world):
    """The GM's line on France's garrison is France's to read; the attack is Spain's."""
    world.guerrillas.append(Guerrilla(3, "andalusia", "spain", 8, "andalusia", revolt=False))
    world.depots += [Depot(4, "france", "andalusia", garrison=4)]
    world.corps.append(Corps(1, "austria", "castile", besieged=True))  # enemy: no EIA-12
    world.wars.add(frozenset(("spain", "austria")))
    resolve_land(world, {"spain": {"depot_attacks": ["andalusia"]}}, ScriptedDice([6, 5]))
    assert said(world, "EIA-11") == [
        (
            "spain",
            "andalusia",
            "Spain's guerrillas attack the depots in Andalusia: die 5 = 5 ≥ 5: 1 depot destroyed",
        ),
        (
            "france",
            "andalusia",
            "GM: France's depot garrison of 4 factors in Andalusia retreats into a city "
            "(up to its capacity) or joins a corps there; the rest are eliminated",
        ),
    ]


def test_spanish_guerrilla_removal_is_spains_line(world):
    world.guerrillas.append(Guerrilla(3, "castile", "spain", 7, "castile", revolt=False))
    resolve_land(world, {}, ScriptedDice([]))
    assert said(world, "EIA-12") == [
        (
            "spain",
            None,
            "No enemy in Spain: 7 Spanish guerrilla factors removed; Spain receives "
            "7 ÷ 3 = 2 militia factors (rounded down) in its next reinforcement phase",
        )
    ]


# -- revolt success -----------------------------------------------------------------------


def test_a_successful_revolt_is_the_sponsors_line_and_its_end_reason_says_so(world):
    revolt = revolt_of(world, number=6, factors=4, capital_held_months=1)
    resolve_conquest(world, {}, ScriptedDice([]))
    reason = (
        "Palatinate becomes an allied minor of Great Britain; "
        "4 guerrilla factors become infantry of Palatinate"
    )
    assert said(world, "EIA-8") == [
        ("great_britain", "palatinate", f"Great Britain's revolt in Palatinate succeeds: {reason}"),
        ("great_britain", "palatinate", "GM: repatriate garrisons of France from Palatinate"),
    ]
    assert not revolt.active
    assert revolt.end_reason == f"successful: {reason}"
    assert revolt.end_reason.msgid == "successful: %(reason)s"


def test_a_revolt_that_cannot_succeed_yet_is_the_sponsors_line_for_the_gm(world):
    revolt_of(world, number=6, capital_held_months=1)
    besieged = Guerrilla(3, "palatinate", "great_britain", 4, "palatinate", besieged=True)
    world.guerrillas.append(besieged)
    resolve_conquest(world, {}, ScriptedDice([]))
    ((power, area, text),) = said(world, "EIA-8")
    assert (power, area) == ("great_britain", "palatinate")
    assert text.startswith("GM: Great Britain's revolt in Palatinate has number 6")


# -- revolt endings ---------------------------------------------------------------------


def test_a_month_without_guerrillas_is_the_sponsors_line(world):
    revolt_of(world, months_without_guerrillas=1)
    resolve_conquest(world, {}, ScriptedDice([]))
    assert said(world, "EIA-7") == [
        ("great_britain", "palatinate", "No guerrillas in Palatinate this month (2 in a row)")
    ]


def test_a_lapse_is_the_sponsors_line(world):
    revolt_of(world, factors=3)
    resolve_peace(world, {"great_britain": {"lapse": ["palatinate"]}}, ScriptedDice([]))
    assert [(power, area) for power, area, _ in said(world, "EIA-7")] == [
        ("great_britain", "palatinate")
    ]


def test_a_three_month_ending_is_the_sponsors_line(world):
    revolt = revolt_of(world, months_without_guerrillas=3)
    resolve_revolt_step(world, {}, ScriptedDice([]))
    assert not revolt.active
    assert said(world, "EIA-7") == [
        (
            "great_britain",
            "palatinate",
            "Great Britain's revolt in Palatinate ends: no guerrillas in Palatinate for 3 "
            "months in a row; it ends in the fourth month, before that month's guerrilla rolls",
        )
    ]


def test_an_ending_by_alliance_is_the_sponsors_line_not_the_controllers(world):
    revolt_of(world, factors=2)
    world.alliances.add(frozenset(("great_britain", "france")))
    immediate_checks(world)
    assert [(power, area) for power, area, _ in said(world, "EIA-7")] == [
        ("great_britain", "palatinate")
    ]


def test_a_revolt_against_an_ally_that_breaks_out_ends_at_once_whatever_came_before(world):
    """Decision 17's option: the new revolt, the last one, is let down as soon as it breaks
    out, before the next power's attempt."""
    world.options["revolt_against_ally"] = "allowed"
    world.alliances.add(frozenset(("great_britain", "france")))
    older = revolt_of(world, area="hesse", sponsor="russia")
    orders = {"great_britain": {"targets": ["palatinate"]}, "spain": {"targets": ["wallachia"]}}
    resolve_revolt_step(world, orders, ScriptedDice([6, 4, 1]))
    assert [(line.rule, line.power, line.area) for line in world.log] == [
        ("EIA-1", "great_britain", "palatinate"),
        ("EIA-2", "great_britain", "palatinate"),
        ("EIA-7", "great_britain", "palatinate"),
        ("EIA-1", "spain", "wallachia"),
    ]
    assert older.active and not world.revolts[-1].active
