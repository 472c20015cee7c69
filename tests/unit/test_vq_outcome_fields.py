"""Virgin Queen outcomes say what the log says: what VQ-1 and VQ-2 decide (unrest markers
lowered away or discarded, units removed and displaced, the regulars placed and their
nation, the war, the capital, the leader) is a field of the Conversion or Revolt, and the
log line is written from that field. Pure: the small map of ``vq_world``, scripted dice."""

from __future__ import annotations

import json

from rules.dice import ScriptedDice
from rules.virgin_queen.procedures import decide, start_conversion, start_revolt
from rules.virgin_queen.state import PROTESTANT_POWER, Units
from tests.unit.vq_world import build_world


def texts(world) -> list[str]:
    return [line.text for line in world.log]


# -- VQ-1: unrest markers lowered away and discarded ----------------------------------


def test_vq1_markers_beyond_the_converted_spaces_are_the_discarded_field():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([4, 1, 1])).pending
    progress = decide(world, pending, "france", {"die_1": "rouen"})
    assert (progress.outcome.unrest, progress.outcome.discarded) == (("rouen",), 1)
    assert texts(world)[-2] == (
        "Unrest in Rouen; 1 unrest marker discarded: more markers than converted spaces (step 6)."
    )


def test_vq1_with_no_space_converted_every_marker_is_discarded():
    world = build_world()
    progress = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([1, 1, 2]))
    assert progress.pending is None
    assert (progress.outcome.unrest, progress.outcome.discarded) == ((), 2)
    assert "2 unrest markers discarded: no space was converted (step 6)." in texts(world)


def test_vq1_markers_all_placed_discard_none():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([4, 4, 1])).pending
    pending = decide(world, pending, "france", {"die_1": "lyon", "die_2": "dijon"}).pending
    progress = decide(world, pending, "france", {"unrest": ["dijon"]})
    assert (progress.outcome.unrest, progress.outcome.discarded) == (("dijon",), 0)
    assert texts(world)[-2] == "Unrest in Dijon (step 6)."


def test_vq1_a_six_lowered_to_cancel_unrest_is_the_lowered_field():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([6, 1])).pending
    progress = decide(world, pending, "france", {"die_1": "lower"})
    assert progress.outcome.lowered == (1,)
    progress = decide(world, progress.pending, "france", {"die_1": "lyon"})
    assert (progress.outcome.lowered, progress.outcome.discarded) == ((1,), 0)
    assert progress.outcome.unrest == ()  # the one marker was cancelled


def test_vq1_a_six_kept_lowers_nothing():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([6, 2])).pending
    progress = decide(world, pending, "france", {"die_1": "keep"})
    assert progress.outcome.lowered == ()


# -- VQ-2: the regulars placed, and their nation --------------------------------------


def revolt_in_lyon(world, cp):
    """A revolt in Lyon with no Catholic unit there: automatic; Guise and the French
    mercenaries go to Orléans; no extra space."""
    world.units.pop(2)
    pending = start_revolt(world, "lyon", cp, ScriptedDice([])).pending
    answer = {"unit:3": "orleans", "leader:2": "orleans"}
    pending = decide(world, pending, "france", answer).pending
    return decide(world, pending, "protestant", {"extra": []})


def test_vq2_the_huguenot_regulars_placed_are_fields_of_the_revolt():
    world = build_world()
    done = revolt_in_lyon(world, 5).outcome
    assert (done.regulars, done.nation) == (2, "Huguenot")
    assert (
        "2 Huguenot regulars placed in Lyon (step 5: 1 per 2 full CP, 5 CP → 2; 4 left)."
        in texts(world)
    )
    assert done.displaced == (("unit:3", "orleans"), ("leader:2", "orleans"))


def test_vq2_the_dutch_regulars_are_limited_by_the_counter_mix():
    world = build_world()
    world.units[9] = Units(9, PROTESTANT_POWER, "regular", "utrecht", 1)
    pending = start_revolt(world, "utrecht", 4, ScriptedDice([])).pending
    done = decide(world, pending, "protestant", {"extra": []}).outcome
    assert (done.regulars, done.nation) == (1, "Dutch")
    assert "1 Dutch regular placed in Utrecht, not 2: the counter mix has no more" in (
        "\n".join(texts(world))
    )


def test_vq2_an_empty_counter_mix_places_none_of_the_nation():
    world = build_world()
    world.counter_mix["netherlands"] = 0
    pending = start_revolt(world, "utrecht", 2, ScriptedDice([])).pending
    done = decide(world, pending, "protestant", {"extra": []}).outcome
    assert (done.regulars, done.nation) == (0, "Dutch")


def test_vq2_a_failed_revolt_places_no_regulars_and_names_no_nation():
    world = build_world()
    done = start_revolt(world, "lyon", 2, ScriptedDice([4, 4])).outcome
    assert not done.succeeded
    assert (done.regulars, done.nation, done.removed, done.displaced) == (0, "", 0, ())
    assert (done.war_declared, done.capital, done.leader) == (False, "", "")


def test_vq2_the_units_removed_by_hits_are_a_field():
    world = build_world()
    world.units[8] = Units(8, "france", "regular", "lyon", 2)
    progress = start_revolt(world, "lyon", 2, ScriptedDice([6, 6]))
    assert progress.pending.stage == "hits" and progress.outcome.removed == 0
    done = decide(world, progress.pending, "france", {"unit:2": "1", "unit:8": "1"}).outcome
    assert (done.hits, done.removed, done.succeeded) == (2, 2, False)


# -- VQ-2: the war, the capital and the leader ----------------------------------------


def test_vq2_the_war_is_declared_once():
    world = build_world()
    assert revolt_in_lyon(world, 2).outcome.war_declared
    assert "The Protestant and France are now at war (step 6)." in texts(world)
    done = start_revolt(world, "rouen", 2, ScriptedDice([])).outcome
    assert done.succeeded and not done.war_declared
    assert "The Protestant and France are already at war (step 6)." in texts(world)


def test_vq2_the_capital_and_the_leader_placed_are_fields():
    world = build_world()
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    pending = decide(world, pending, "protestant", {"extra": []}).pending
    progress = decide(world, pending, "protestant", {"capital": "amsterdam"})
    assert (progress.outcome.capital, progress.outcome.leader) == ("amsterdam", "")
    assert "The Dutch capital is placed in Amsterdam (step 7)." in texts(world)
    done = decide(world, progress.pending, "protestant", {"leader": "4"}).outcome
    assert (done.capital, done.leader, done.nation) == ("amsterdam", "4", "Dutch")
    assert "William of Orange enters play in Amsterdam (step 8)." in texts(world)


def test_vq2_a_capital_and_a_leader_declined_are_blank():
    world = build_world()
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    pending = decide(world, pending, "protestant", {"extra": []}).pending
    pending = decide(world, pending, "protestant", {"capital": ""}).pending
    json.dumps(pending.data)  # the fields' data is stored between requests
    done = decide(world, pending, "protestant", {}).outcome
    assert (done.capital, done.leader) == ("", "")
    assert "The Protestant places no Dutch capital (step 7)." in texts(world)
