"""Beacons (tests/toy), the tests' own game, as its players read it: each log line's
words, power, area, roll and readers; what each refusal says; the raids waiting in turn;
the GM's edits. On a map of four areas: North's beacon in Crag, South's in Moor, Fell and
Dale unlit; Crag – Moor – Dale, Crag – Fell."""

from __future__ import annotations

import copy

import pytest

from rules.dice import ScriptedDice
from rules.refusals import EditError, Refused, Skipped
from tests.toy import edits, phases, procedures
from tests.toy.state import Raid, World


def build_world() -> World:
    return World(
        lit={"crag": "north", "moor": "south", "fell": None, "dale": None},
        adjacency={
            "crag": {"moor", "fell"},
            "moor": {"crag", "dale"},
            "fell": {"crag"},
            "dale": {"moor"},
        },
        names={"crag": "Crag", "moor": "Moor", "fell": "Fell", "dale": "Dale"},
        powers={"north": "North", "south": "South"},
        wood={"north": 3, "south": 1},
    )


def said(world) -> list[tuple]:
    """(rule, power, area, text) of each log line."""
    return [(line.rule, line.power, line.area, line.text) for line in world.log]


def refusal(call) -> str:
    with pytest.raises(Refused) as raised:
        call()
    return raised.value.text


# -- TOY-1 -------------------------------------------------------------------------------


def test_a_beacon_lit_is_its_lords_line_with_the_roll_and_the_wood_fed():
    world = build_world()
    assert procedures.light_beacon(world, "north", "fell", ScriptedDice([3]), feed=1) is True
    assert world.lit["fell"] == "north" and world.wood["north"] == 2
    assert said(world) == [
        (
            "TOY-1",
            "north",
            "fell",
            "North lights Fell: die 3 +1 wood fed = 4 ≥ 4: the beacon is lit",
        )
    ]
    assert world.log[0].roll.faces == (3,)


def test_a_fire_that_does_not_catch_says_so_and_answers_false():
    world = build_world()
    assert procedures.light_beacon(world, "south", "dale", ScriptedDice([1]), feed=2) is False
    assert world.lit["dale"] is None and world.wood["south"] == 0  # its whole reserve, 1
    assert world.log[0].text == ("South lights Dale: die 1 +1 wood fed = 2 ≥ 4: it does not catch")


def test_a_lord_without_a_reserve_feeds_nothing():
    world = build_world()
    del world.wood["north"]
    procedures.light_beacon(world, "north", "fell", ScriptedDice([3]), feed=2)
    assert world.wood["north"] == 0
    assert world.log[0].text == "North lights Fell: die 3 = 3 ≥ 4: it does not catch"


@pytest.mark.parametrize(
    "area, feed, message",
    [
        ("dale", 0, "Dale is not an unlit area next to a beacon of yours."),
        ("fell", 3, "A fire is fed from 0 to 2 wood."),
    ],
)
def test_a_fire_the_rules_refuse_says_why(area, feed, message):
    assert refusal(lambda: procedures.check_light(build_world(), "north", area, feed)) == message


# -- TOY-2 -------------------------------------------------------------------------------


def test_a_raid_that_reaches_the_beacon_waits_for_its_defender():
    world = build_world()
    raid = procedures.roll_raid(world, "south", "crag", ScriptedDice([5]))
    assert raid == Raid("south", "crag", 5) and world.raids == [raid]
    assert said(world) == [
        (
            "TOY-2",
            "south",
            "crag",
            "South raids the beacon of North in Crag: die 5 = 5 ≥ 4: the raid reaches the "
            "beacon: North decides",
        )
    ]
    assert world.log[0].roll.faces == (5,)
    assert world.asked is raid and world.defender(raid) == "north"


def test_a_raid_that_fails_waits_for_nothing():
    world = build_world()
    assert procedures.roll_raid(world, "south", "crag", ScriptedDice([3])) is None
    assert world.raids == []
    assert world.log[0].text.endswith(": die 3 = 3 ≥ 4: the raid fails")


def test_a_raid_on_what_is_not_another_lords_beacon_next_to_yours_is_refused():
    message = "Fell is not a beacon of another lord next to one of yours."
    assert refusal(lambda: procedures.check_raid(build_world(), "south", "fell")) == message


def test_the_defender_keeps_its_beacon_by_burning_the_die_less_three():
    world = build_world()
    world.raids.append(Raid("south", "crag", 5))
    procedures.answer_raid(world, "north", True)
    assert world.wood["north"] == 1 and world.lit["crag"] == "north" and world.raids == []
    assert said(world) == [
        ("TOY-2", "north", "crag", "North burns 2 wood: its beacon in Crag holds.")
    ]


def test_the_defender_lets_its_beacon_be_doused():
    world = build_world()
    world.raids.append(Raid("south", "crag", 6))
    procedures.answer_raid(world, "north", False)
    assert world.lit["crag"] is None and world.wood["north"] == 3
    assert said(world) == [
        ("TOY-2", "north", "crag", "North lets it go: its beacon in Crag is doused.")
    ]


def test_the_gm_answers_for_the_defender():
    world = build_world()
    world.raids.append(Raid("south", "crag", 4))
    procedures.answer_raid(world, None, True, as_gm=True)
    assert world.wood["north"] == 2


def test_an_answer_that_cannot_be_given_says_why():
    world = build_world()
    assert refusal(lambda: procedures.check_answer(world, "north", True)) == (
        "No raid waits for a decision."
    )
    world.raids.append(Raid("south", "crag", 6))
    assert refusal(lambda: procedures.check_answer(world, "south", False)) == (
        "The decision is North's to make."
    )
    world.wood["north"] = 2
    assert refusal(lambda: procedures.check_answer(world, "north", True)) == (
        "Keeping the beacon costs 3 wood: the reserve holds less."
    )
    del world.wood["north"]
    world.raids[0] = Raid("south", "crag", 4)
    assert refusal(lambda: procedures.check_answer(world, "north", True)) == (
        "Keeping the beacon costs 1 wood: the reserve holds less."
    )


def test_a_defender_without_a_player_keeps_its_beacon_when_its_reserve_pays():
    world = build_world()
    assert procedures.default_answer(world) is None
    world.raids.append(Raid("south", "crag", 6))
    assert procedures.default_answer(world) == ("north", {"keep": True})
    world.raids[0] = Raid("south", "crag", 4)
    del world.wood["north"]
    assert procedures.default_answer(world) == ("north", {"keep": False})


def test_raids_that_no_longer_stand_are_dropped_before_the_one_asked():
    world = build_world()
    stale, standing = Raid("south", "fell", 5), Raid("south", "crag", 5)
    world.raids += [stale, standing]
    assert world.asked is stale
    procedures.go_on(world)
    assert world.raids == [standing]
    assert said(world) == [
        (
            "TOY-2",
            "south",
            "fell",
            "South's raid on Fell does nothing: it is no longer a beacon the raid may reach.",
        )
    ]


def test_settling_a_raid_asks_the_next_one_standing():
    world = build_world()
    world.raids += [Raid("south", "crag", 5), Raid("south", "crag", 6)]
    procedures.answer_raid(world, "north", False)
    assert world.raids == []  # Crag doused: the second raid has no beacon to reach
    assert said(world)[-1][:3] == ("TOY-2", "south", "crag")


# -- TOY-3 -------------------------------------------------------------------------------


def test_gathering_is_read_in_full_by_the_lord_alone():
    world = build_world()
    assert procedures.gather(world, "north") == 1
    assert world.wood["north"] == 4
    (line,) = world.log
    assert (line.rule, line.power, line.audience) == ("TOY-3", "north", ("north",))
    assert line.text == "North gathers 1 wood: its reserve holds 4."
    assert line.redacted == "North gathers wood."


def test_a_lord_gathers_one_wood_a_beacon_up_to_a_full_reserve():
    world = build_world()
    for area in ("moor", "fell", "dale"):
        world.lit[area] = "north"
    world.lit["tor"], world.lit["cairn"] = "north", "north"
    del world.wood["north"]
    assert procedures.gathered(world, "north") == 5
    assert procedures.gather(world, "north") == 5 and world.wood["north"] == 5
    assert refusal(lambda: procedures.check_gather(world, "north")) == (
        "There is no wood to gather: no beacon lit, or a full reserve."
    )


def test_a_lord_without_a_reserve_gathers_into_an_empty_one():
    world = build_world()
    del world.wood["north"]
    assert procedures.gather(world, "north") == 1 and world.wood["north"] == 1


# -- the phases ---------------------------------------------------------------------------


def test_the_signal_phase_answers_the_areas_lit_and_the_orders_refused():
    world = build_world()
    orders = {"north": {"area": "fell", "feed": 1}, "south": {"area": "fell"}, "east": {}}
    world.powers["east"] = "East"
    done = phases.resolve_signals(world, orders, ScriptedDice([3]))
    assert done == [
        "fell",
        Skipped("south", {"area": "fell"}, "Fell is not an unlit area next to a beacon of yours."),
    ]
    assert said(world)[-1] == (
        "TOY-1",
        "south",
        None,
        "South's order is not carried out: Fell is not an unlit area next to a beacon of yours.",
    )


def test_a_fire_that_does_not_catch_is_not_among_the_areas_lit():
    world = build_world()
    assert phases.resolve_signals(world, {"north": {"area": "fell"}}, ScriptedDice([2])) == []


def test_the_raid_phase_gathers_raids_and_settles_what_no_longer_stands():
    world = build_world()
    world.raids.append(Raid("north", "dale", 5))  # Dale is nobody's beacon now
    orders = {"north": {"action": "gather"}, "south": {"action": "raid", "area": "crag"}}
    done = phases.resolve_raids(world, orders, ScriptedDice([6]))
    assert done == [1, Raid("south", "crag", 6)]
    assert world.raids == [Raid("south", "crag", 6)]


def test_a_gathering_refused_is_read_in_full_by_the_lord_alone():
    world = build_world()
    world.wood["north"] = 5
    done = phases.resolve_raids(world, {"north": {"action": "gather"}}, ScriptedDice([]))
    reason = "There is no wood to gather: no beacon lit, or a full reserve."
    assert done == [Skipped("north", {"action": "gather"}, reason)]
    (line,) = world.log
    assert (line.power, line.audience, line.redacted) == (
        "north",
        ("north",),
        "North gathers nothing.",
    )
    assert line.text == f"North's order is not carried out: {reason}"


def test_a_raid_refused_is_skipped_for_all_to_read():
    world = build_world()
    done = phases.resolve_raids(
        world, {"south": {"action": "raid", "area": "fell"}}, ScriptedDice([])
    )
    assert done == [
        Skipped(
            "south",
            {"action": "raid", "area": "fell"},
            "Fell is not a beacon of another lord next to one of yours.",
        )
    ]
    assert (world.log[0].power, world.log[0].audience) == ("south", ())


# -- the GM's edits -------------------------------------------------------------------------


def test_a_beacon_is_lit_or_put_out_by_the_gm():
    world = build_world()
    assert edits.edit_beacon(world, beacon="dale", lit_by="south").text == (
        "the beacon in Dale is lit by South"
    )
    assert world.lit["dale"] == "south"
    assert edits.edit_beacon(world, beacon="crag", lit_by=None).text == (
        "the beacon in Crag is unlit"
    )
    assert world.lit["crag"] is None


def test_a_reserve_is_set_and_read_in_full_by_its_lord_alone():
    world = build_world()
    change = edits.edit_lord(world, lord="south", wood=4)
    assert world.wood["south"] == 4
    assert (change.text, change.audience, change.redacted) == (
        "South's reserve: 4 wood",
        ("south",),
        "corrects the reserve of South",
    )


@pytest.mark.parametrize(
    "edit, fields, message",
    [
        (edits.edit_beacon, {"beacon": "tor", "lit_by": None}, "There is no area “tor”."),
        (edits.edit_beacon, {"beacon": "dale", "lit_by": "east"}, "There is no lord “east”."),
        (edits.edit_lord, {"lord": "east", "wood": 1}, "There is no lord “east”."),
        (
            edits.edit_lord,
            {"lord": "north", "wood": 6},
            "The reserve must be a whole number from 0 to 5.",
        ),
    ],
)
def test_an_impossible_edit_is_refused_saying_why(edit, fields, message):
    world = build_world()
    before = copy.deepcopy(world)
    with pytest.raises(EditError) as raised:
        edit(world, **fields)
    assert raised.value.text == message
    assert world == before
