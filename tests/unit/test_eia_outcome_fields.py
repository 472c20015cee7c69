"""Empires in Arms outcomes say what the log says: each number or power a log sentence
states as decided is a field of the procedure's outcome, and the sentence is written from
that field. Pure: the small map of conftest, scripted dice."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.empires_in_arms.phases import immediate_checks, resolve_conquest, resolve_peace
from rules.empires_in_arms.procedures import (
    RevoltEnd,
    revolt_end,
    revolt_ending,
    revolt_guerrillas,
    spanish_guerrillas,
    successful_revolt,
    voluntary_lapse,
)
from rules.empires_in_arms.state import Corps, Guerrilla, Revolt


def revolt(world, area="palatinate", sponsor="great_britain", number=4, factors=0, **fields):
    world.revolts.append(Revolt(1 + len(world.revolts), sponsor, area, number, **fields))
    if factors:
        world.guerrillas.append(Guerrilla(None, area, sponsor, factors, area))
    return world.revolts[-1]


def lines(world) -> list[str]:
    return [line.text for line in world.log]


# -- EIA-7: what an ending does ---------------------------------------------------------


def test_eia7_a_neutral_minors_guerrillas_become_its_infantry_as_the_ending_says(world):
    world.areas["palatinate"].controller = None
    revolt(world, factors=3)
    (ending,) = immediate_checks(world)
    assert (ending.to_infantry, ending.infantry, ending.removed, ending.let_downs) == (
        True,
        3,
        0,
        0,
    )
    assert lines(world) == [
        "Great Britain's revolt in Palatinate ends: Palatinate is neutral; "
        "3 guerrilla factors become infantry of Palatinate"
    ]


def test_eia7_a_neutral_minor_without_guerrillas_gets_no_infantry(world):
    world.areas["hesse"].controller = None
    revolt(world, area="hesse", sponsor="austria")
    (ending,) = immediate_checks(world)
    assert ending.to_infantry and (ending.infantry, ending.removed) == (0, 0)
    assert lines(world) == ["Austria's revolt in Hesse ends: Hesse is neutral"]


def test_eia7_a_lapse_counts_the_let_down_and_removes_the_guerrillas(world):
    world.let_downs[("great_britain", "palatinate")] = 2
    revolt(world, factors=2)
    (ending,) = resolve_peace(world, {"great_britain": {"lapse": ["palatinate"]}}, ScriptedDice([]))
    assert (ending.infantry, ending.removed, ending.let_downs) == (0, 2, 3)
    assert world.let_downs[("great_britain", "palatinate")] == ending.let_downs
    assert lines(world) == [
        "Great Britain's revolt in Palatinate ends: Great Britain lets it lapse; "
        "Great Britain let it down (3 in Palatinate so far); 2 guerrilla factors removed"
    ]


def test_eia7_a_put_down_revolt_is_no_let_down_and_has_nothing_to_remove(world):
    revolt(world, number=1)
    (ending,) = immediate_checks(world)
    assert ending == RevoltEnd("put down (revolt number 1)")
    assert (ending.infantry, ending.removed, ending.let_downs) == (0, 0, 0)
    assert world.let_downs == {}


def test_eia7_revolt_end_reads_the_board_and_changes_nothing(world):
    """The pure step: the ending with its numbers; the phase then applies them."""
    world.areas["palatinate"].controller = None
    mine = revolt(world, factors=3)
    world.guerrillas.append(Guerrilla(None, "palatinate", "spain", 5, "palatinate", False))
    before = world.copy()
    ending = revolt_end(world, mine, revolt_ending(world, mine))
    assert (ending.infantry, ending.removed, ending.let_downs) == (3, 0, 0)
    lapse = revolt_end(
        world, mine, voluntary_lapse(world.areas["palatinate"], world.powers["great_britain"])
    )
    assert (lapse.infantry, lapse.removed, lapse.let_downs) == (0, 3, 1)
    assert world == before


# -- EIA-8: what a success removes, and whom the GM moves out ----------------------------


def success(world, area="palatinate", sponsor="great_britain", factors=4):
    return revolt(world, area, sponsor, 6, factors, capital_held_months=1)


def test_eia8_a_conquered_minor_says_how_many_factors_are_removed(world):
    world.wars.add(frozenset(("great_britain", "france")))
    outcome = successful_revolt(world, success(world), "conquered")
    assert (outcome.removed, outcome.infantry) == (4, 0)
    assert outcome.reason.endswith(f"; {outcome.removed} guerrilla factors removed")


def test_eia8_a_conquered_province_says_how_many_factors_are_removed(world):
    world.wars.add(frozenset(("great_britain", "france")))
    outcome = successful_revolt(world, success(world, area="andalusia", factors=1))
    assert (outcome.removed, outcome.infantry) == (1, 0)
    assert outcome.reason == "Great Britain conquers Andalusia; 1 guerrilla factor removed"


def test_eia8_guerrillas_that_become_infantry_are_not_removed(world):
    outcome = successful_revolt(world, success(world))
    assert (outcome.removed, outcome.infantry) == (0, 4)
    world.wars.add(frozenset(("great_britain", "france")))
    client = successful_revolt(world, world.revolts[0], "client")
    assert (client.removed, client.infantry) == (0, 4)


def test_eia8_at_peace_names_the_powers_the_gm_moves_out(world):
    world.corps += [
        Corps(1, "russia", "palatinate"),
        Corps(2, "austria", "palatinate"),
        Corps(3, "great_britain", "palatinate"),
    ]
    outcomes = resolve_conquest(world, {}, ScriptedDice([]))
    assert outcomes == ()  # no guerrillas yet: no success
    success(world)
    (outcome,) = resolve_conquest(world, {}, ScriptedDice([]))
    assert outcome.repatriated == ("france",)
    assert outcome.withdrawn == ("austria", "russia")  # by name, never the sponsor
    assert lines(world)[-1] == (
        "GM: repatriate garrisons of France from Palatinate; "
        "move corps of Austria, Russia to nearest friendly territory"
    )


def test_eia8_at_peace_without_corps_there_withdraws_none(world):
    outcome = successful_revolt(world, success(world))
    assert (outcome.repatriated, outcome.withdrawn) == (("france",), ())
    assert outcome.gm_note == "GM: repatriate garrisons of France from Palatinate"


def test_eia8_at_war_the_gm_moves_no_one_out(world):
    world.wars.add(frozenset(("great_britain", "france")))
    world.corps.append(Corps(1, "austria", "palatinate"))
    outcome = successful_revolt(world, success(world))
    assert (outcome.repatriated, outcome.withdrawn, outcome.gm_note) == ((), (), None)


# -- EIA-3 / EIA-10: the factors the die gives, and those that fit under the cap --------


def test_eia3_the_factors_over_the_cap_are_a_field_too(world):
    outcome = revolt_guerrillas(
        Revolt(1, "great_britain", "palatinate", 5), world.areas["palatinate"], 9, ScriptedDice([1])
    )
    assert (outcome.uncapped, outcome.created) == (4, 1)
    assert outcome.report.outcome == (
        f"5 − 1 = {outcome.uncapped} guerrilla factors, of which 10 − 9 = {outcome.created} fit "
        "under the cap of 10 in Palatinate (9 already there)"
    )


def test_eia10_a_roll_at_the_value_gives_none_before_or_after_the_cap(world):
    outcome = spanish_guerrillas(world.areas["granada"], 0, ScriptedDice([5]), in_revolt=False)
    assert (outcome.uncapped, outcome.created) == (0, 0)
    outcome = spanish_guerrillas(world.areas["granada"], 0, ScriptedDice([2]), in_revolt=False)
    assert (outcome.uncapped, outcome.created) == (3, 3)
