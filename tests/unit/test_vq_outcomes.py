"""What Virgin Queen's impulse and its decisions answer: the outcome of each kind of
action (VQ-1 conversion, VQ-2 revolt, VQ-3 espionage, an action at the table, a pass)
with the decision it waits on, a refused order skipped with its reason, and the form's
checks' reasons None when the rules allow. No database: the small map of
``vq_world``."""

from __future__ import annotations

import copy
import dataclasses

from rules.dice import ScriptedDice
from rules.refusals import Skipped, reason_for
from rules.text import Text
from rules.virgin_queen.phases import Impulse, Passed, TableAction, start_action
from rules.virgin_queen.procedures import (
    Conversion,
    Espionage,
    Revolt,
    check_conversion,
    check_espionage,
    check_revolt,
    decide,
)
from tests.unit.vq_world import build_world


def act(world, power, order, faces=()):
    """``power``'s order started on ``world`` with these dice, every one of them rolled."""
    dice = ScriptedDice(list(faces))
    impulse = start_action(world, power, order, dice)
    assert dice.unused == 0
    return impulse


def last_line(world):
    line = world.log[-1]
    return line.rule, line.power, line.text


def unlogged(world):
    return dataclasses.replace(world, log=[])


def refused_line(world, power, order, reason):
    """``order`` is refused: skipped with ``reason``, one line logged, nothing else."""
    before = copy.deepcopy(world)
    impulse = act(world, power, order)
    assert impulse == Impulse(Skipped(power, order, reason))
    assert isinstance(impulse.did.reason, Text)
    assert len(world.log) == len(before.log) + 1 and unlogged(world) == unlogged(before)
    return last_line(world)


# -- VQ-1 conversion ------------------------------------------------------------------


def test_a_conversion_that_needs_no_decision_answers_its_outcome():
    world = build_world()
    order = {"action": "conversion", "zones": ["france"], "attempts": 3}
    impulse = act(world, "france", order, [2, 3, 3])
    assert impulse == Impulse(Conversion("france", (2, 3, 3), (), ()), None)
    assert last_line(world) == (
        "VQ-1",
        "france",
        "France's conversion is over: no space converted.",
    )


def test_a_conversion_answers_its_outcome_so_far_then_at_each_decision():
    world = build_world()
    order = {"action": "conversion", "zones": ["france"], "attempts": 3}
    impulse = act(world, "france", order, [4, 1, 1])
    assert impulse.did == Conversion("france", (4, 1, 1), (), ())
    assert (impulse.pending.kind, impulse.pending.stage) == ("conversion", "flips")
    progress = decide(world, impulse.pending, "france", {"die_1": "rouen"})
    assert progress.outcome == Conversion("france", (4, 1, 1), ("rouen",), ("rouen",), discarded=1)
    assert progress.pending is None
    assert world.spaces["rouen"].unrest


def test_a_conversion_whose_unrest_is_chosen_answers_where_it_went():
    world = build_world()
    order = {"action": "conversion", "zones": ["france"], "attempts": 3}
    pending = act(world, "france", order, [4, 4, 1]).pending
    progress = decide(world, pending, "france", {"die_1": "lyon", "die_2": "dijon"})
    assert progress.outcome.converted == ("lyon", "dijon") and progress.outcome.unrest == ()
    assert progress.pending.stage == "unrest"
    progress = decide(world, progress.pending, "france", {"unrest": ["dijon"]})
    assert progress.outcome == Conversion("france", (4, 4, 1), ("lyon", "dijon"), ("dijon",))
    assert progress.pending is None


# -- VQ-2 revolt ----------------------------------------------------------------------


def test_a_revolt_without_catholic_units_answers_its_automatic_success():
    world = build_world()
    impulse = act(world, "protestant", {"action": "revolt", "target": "dijon", "cp": 2})
    assert impulse == Impulse(
        Revolt(
            "dijon", 2, (), 0, True, ("dijon",), regulars=1, nation="Huguenot", war_declared=True
        ),
        None,
    )


def test_a_revolt_without_a_hit_answers_its_failure():
    world = build_world()
    impulse = act(world, "protestant", {"action": "revolt", "target": "lyon", "cp": 2}, [4, 4])
    assert impulse == Impulse(Revolt("lyon", 2, (4, 4), 0, False, ()), None)


def test_a_revolt_that_destroys_the_defenders_answers_each_step_of_its_success():
    world = build_world()
    impulse = act(world, "protestant", {"action": "revolt", "target": "lyon", "cp": 2}, [6, 6])
    assert impulse.did == Revolt("lyon", 2, (6, 6), 2, True, (), removed=1)
    assert (impulse.pending.stage, impulse.pending.waiting_for) == ("displace", "france")
    answer = {"unit:3": "orleans", "leader:2": "orleans"}
    progress = decide(world, impulse.pending, "france", answer)
    displaced = (("unit:3", "orleans"), ("leader:2", "orleans"))
    assert progress.outcome == Revolt(
        "lyon", 2, (6, 6), 2, True, ("lyon",), removed=1, displaced=displaced
    )
    assert progress.pending.stage == "extra"
    progress = decide(world, progress.pending, "protestant", {"extra": ["dijon"]})
    assert progress.outcome.controlled == ("lyon", "dijon") and progress.pending is None


def test_a_revolt_whose_hits_the_controller_allocates_answers_its_failure():
    world = build_world()
    order = {"action": "revolt", "target": "antwerp", "cp": 3}
    impulse = act(world, "protestant", order, [6, 1, 2])
    assert impulse.did == Revolt("antwerp", 3, (6, 1, 2), 1, False, ())
    assert (impulse.pending.stage, impulse.pending.waiting_for) == ("hits", "spain")
    progress = decide(world, impulse.pending, "spain", {"unit:6": "0", "unit:7": "1"})
    assert progress.outcome == dataclasses.replace(impulse.did, removed=1)
    assert progress.pending is None


# -- VQ-3 espionage, the table, a pass ------------------------------------------------


def test_espionage_from_turn_three_answers_what_was_played():
    world = build_world()
    world.turn = 3
    impulse = act(world, "spain", {"action": "espionage", "note": "Walsingham: "})
    assert impulse == Impulse(Espionage("spain", "Walsingham"))
    assert last_line(world) == (
        "VQ-3",
        "spain",
        "Spain: an espionage action, played at the table: Walsingham",
    )


def test_an_action_at_the_table_and_a_pass_answer_what_they_were():
    world = build_world()
    order = {"action": "other", "note": "Drake sails"}
    assert act(world, "england", order) == Impulse(TableAction("england", "Drake sails"))
    assert last_line(world) == ("", "england", "England plays an action at the table: Drake sails")
    assert act(world, "england", None) == Impulse(Passed("england"))
    assert act(world, "england", {"action": "pass"}) == Impulse(Passed("england"))
    assert last_line(world) == ("", "england", "England passes.")


# -- refused orders -------------------------------------------------------------------


def test_refused_espionage_is_skipped_with_its_reason_and_changes_nothing():
    world = build_world()
    order = {"action": "espionage", "note": "Walsingham"}
    reason = "No espionage on turn 1: espionage actions begin on turn 3."
    assert refused_line(world, "spain", order, reason) == (
        "VQ-3",
        "spain",
        f"Spain: {reason}",
    )


def test_a_refused_conversion_is_skipped_with_its_reason_and_changes_nothing():
    world = build_world()
    order = {"action": "conversion", "zones": ["france"], "attempts": 2}
    reason = "England is not a Catholic power: only they attempt conversions."
    assert refused_line(world, "england", order, reason) == (
        "VQ-1",
        "england",
        f"England: {reason}",
    )


def test_a_refused_revolt_is_skipped_with_its_reason_and_changes_nothing():
    world = build_world()
    order = {"action": "revolt", "target": "paris", "cp": 2}
    reason = "Paris is Catholic, not under Protestant religious influence: no revolt there."
    assert refused_line(world, "protestant", order, reason) == (
        "VQ-2",
        "protestant",
        f"Protestant: {reason}",
    )


# -- the form's questions -------------------------------------------------------------


def test_the_checks_refuse_with_a_text_and_let_through_what_the_rules_allow():
    world = build_world()
    assert reason_for(check_conversion, world, "france", ["france"], 2) is None
    assert reason_for(check_revolt, world, "dijon", 2) is None
    assert reason_for(check_espionage, 3) is None
    assert isinstance(reason_for(check_conversion, world, "england", ["france"], 2), Text)
    assert isinstance(reason_for(check_revolt, world, "paris", 2), Text)
    assert isinstance(reason_for(check_espionage, 2), Text)
