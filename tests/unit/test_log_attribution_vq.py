"""Whom each Virgin Queen log line is about, and where, through whole conversions and
revolts: a line's power becomes its Event's power, which puts it under "Your rolls and
results" in that power's mail (campaign/notifications.py); its area is the space the log
links. A conversion's lines are the converting power's, every step of it; a revolt's are
the Protestant's, but for what the controlling power or a displaced piece's owner does
(and a step-2 result, which is both sides'). On the small map of tests/unit/vq_world.py."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.virgin_queen.procedures import decide, start_conversion, start_revolt
from tests.unit.vq_world import build_world

P = "protestant"


def said(world) -> list[tuple[str, str | None, str | None, str]]:
    """(rule, power, area, text) of every log line, in order."""
    return [(line.rule, line.power, line.area, line.text) for line in world.log]


# -- VQ-1 conversion ------------------------------------------------------------------------


def test_every_step_of_a_conversion_with_a_lowered_six_is_the_converting_powers():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([6, 1])).pending
    pending = decide(world, pending, "france", {"die_1": "lower"}).pending
    decide(world, pending, "france", {"die_1": "lyon"})
    assert said(world) == [
        (
            "VQ-1",
            "france",
            None,
            "France rolled dice 6 1 for 2 conversion attempts in France (a major conversion on "
            "6, a minor one on 4–5, an unrest marker on 1, a miss on 2–3): 1 major conversion "
            "(6), 1 unrest marker (1).",
        ),
        (
            "VQ-1",
            "france",
            None,
            "France's 6s (step 4): die 1 is lowered to 5, cancelling an unrest marker (step 3).",
        ),
        ("VQ-1", "france", None, "France's step 5: die 1 (5) flips Lyon to Catholic."),
        ("VQ-1", "france", None, "France's conversion is over: Lyon converted to Catholic."),
    ]
    assert world.log[0].roll.power == "france"


def test_the_flips_and_the_unrest_of_a_conversion_are_the_converting_powers():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([4, 4, 1])).pending
    pending = decide(world, pending, "france", {"die_1": "lyon", "die_2": "dijon"}).pending
    decide(world, pending, "france", {"unrest": ["lyon"]})
    assert said(world)[1:] == [
        (
            "VQ-1",
            "france",
            None,
            "France's step 5: die 1 (4) flips Lyon to Catholic; die 2 (4) flips Dijon to Catholic.",
        ),
        ("VQ-1", "france", None, "Unrest in Lyon (step 6)."),
        (
            "VQ-1",
            "france",
            None,
            "France's conversion is over: Lyon and Dijon converted to Catholic.",
        ),
    ]


def test_a_six_kept_for_step_five_is_the_converting_powers_line():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 1, dice=ScriptedDice([6])).pending
    pending = decide(world, pending, "france", {"die_1": "keep"}).pending
    decide(world, pending, "france", {"die_1": "la_rochelle"})
    assert said(world)[1:3] == [
        ("VQ-1", "france", None, "France's 6s (step 4): die 1 is kept for step 5."),
        ("VQ-1", "france", None, "France's step 5: die 1 (6) flips La Rochelle to Catholic."),
    ]


# -- VQ-2 revolt ----------------------------------------------------------------------------


def test_the_seed_revolt_in_lyon_line_by_line():
    world = build_world()
    pending = start_revolt(world, "lyon", 3, ScriptedDice([1, 2, 5])).pending
    pending = decide(world, pending, "france", {"unit:3": "orleans", "leader:2": "orleans"}).pending
    decide(world, pending, P, {"extra": ["dijon", "clermont"]})
    assert said(world) == [
        ("VQ-2", P, "lyon", "The Protestant spends 3 CP on a revolt in Lyon (France)."),
        (
            "VQ-2",
            P,
            "lyon",
            "Revolt in Lyon (3 CP): dice 1 2 5, hits on 5–6: 1 hit against 1 Catholic unit of "
            "France.",
        ),
        (
            "VQ-2",
            "france",
            "lyon",
            "1 French regular in Lyon destroyed: no Catholic unit of France is left, the revolt "
            "succeeds (step 2).",
        ),
        ("VQ-2", "france", "lyon", "2 French mercenaries in Lyon displaced to Orléans (step 3)."),
        ("VQ-2", "france", "lyon", "Guise in Lyon displaced to Orléans (step 3)."),
        ("VQ-2", P, "lyon", "Lyon comes under Protestant control (step 4)."),
        (
            "VQ-2",
            P,
            None,
            "Dijon and Clermont also come under Protestant control (step 4: 3 of at most 3 "
            "spaces).",
        ),
        (
            "VQ-2",
            P,
            "lyon",
            "1 Huguenot regular placed in Lyon (step 5: 1 per 2 full CP, 3 CP → 1; 5 left).",
        ),
        ("VQ-2", P, None, "The Protestant and France are now at war (step 6)."),
        (
            "VQ-2",
            P,
            None,
            "The Huguenot capital is already in La Rochelle: no capital placed (step 7).",
        ),
        ("VQ-2", P, None, "No Huguenot military leader can enter play (step 8)."),
        (
            "VQ-2",
            P,
            "lyon",
            "The revolt in Lyon is over: the Protestant now controls Lyon, Dijon and Clermont.",
        ),
    ]
    assert (world.log[1].roll.power, world.log[1].roll.area) == (P, "lyon")


def test_a_revolt_whose_capital_and_leader_are_placed_line_by_line():
    world = build_world()
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    pending = decide(world, pending, P, {"extra": []}).pending
    pending = decide(world, pending, P, {"capital": "amsterdam"}).pending
    decide(world, pending, P, {"leader": "4"})
    assert said(world) == [
        (
            "VQ-2",
            P,
            "amsterdam",
            "The Protestant spends 2 CP on a revolt in Amsterdam (the Netherlands).",
        ),
        (
            "VQ-2",
            None,
            "amsterdam",
            "No Catholic unit of Spain in Amsterdam: the revolt succeeds automatically (step 2).",
        ),
        ("VQ-2", P, "amsterdam", "Amsterdam comes under Protestant control (step 4)."),
        ("VQ-2", P, None, "The Protestant takes no other space (step 4)."),
        (
            "VQ-2",
            P,
            "amsterdam",
            "1 Dutch regular placed in Amsterdam (step 5: 1 per 2 full CP, 2 CP → 1; 0 left).",
        ),
        ("VQ-2", P, None, "The Protestant and Spain are now at war (step 6)."),
        ("VQ-2", P, "amsterdam", "The Dutch capital is placed in Amsterdam (step 7)."),
        ("VQ-2", P, "amsterdam", "William of Orange enters play in Amsterdam (step 8)."),
        (
            "VQ-2",
            P,
            "amsterdam",
            "The revolt in Amsterdam is over: the Protestant now controls Amsterdam.",
        ),
    ]


def test_a_declined_capital_and_leader_are_the_protestants_lines():
    world = build_world()
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    pending = decide(world, pending, P, {"extra": []}).pending
    pending = decide(world, pending, P, {"capital": ""}).pending
    decide(world, pending, P, {})
    assert said(world)[6:8] == [
        ("VQ-2", P, None, "The Protestant places no Dutch capital (step 7)."),
        ("VQ-2", P, "amsterdam", "The Protestant places no leader (step 8)."),
    ]


def test_no_extra_space_is_the_protestants_line():
    world = build_world()
    world.spaces["clermont"].besieged = True
    world.spaces["dijon"].religion = "catholic"
    pending = start_revolt(world, "lyon", 3, ScriptedDice([5, 5, 5])).pending
    decide(world, pending, "france", {"unit:3": "orleans", "leader:2": "orleans"})
    assert (
        "VQ-2",
        P,
        None,
        "No space adjacent to Lyon can also come under Protestant control (step 4).",
    ) in said(world)


def test_hits_taken_are_the_controllers_lines_and_a_failure_is_the_targets():
    world = build_world()
    pending = start_revolt(world, "antwerp", 3, ScriptedDice([6, 1, 2])).pending
    decide(world, pending, "spain", {"unit:6": "0", "unit:7": "1"})
    assert said(world)[2:] == [
        ("VQ-2", "spain", "antwerp", "Spain removes 1 Spanish naval unit in Antwerp (step 2)."),
        (
            "VQ-2",
            None,
            "antwerp",
            "1 Catholic unit of Spain remains in Antwerp: the revolt fails (step 2).",
        ),
    ]


def test_a_single_stack_takes_its_hits_without_a_question_as_the_controllers_line():
    world = build_world()
    world.units[2].count = 2
    start_revolt(world, "lyon", 3, ScriptedDice([5, 1, 2]))
    assert said(world)[2:] == [
        ("VQ-2", "france", "lyon", "France removes 1 French regular in Lyon (step 2)."),
        (
            "VQ-2",
            None,
            "lyon",
            "1 Catholic unit of France remains in Lyon: the revolt fails (step 2).",
        ),
    ]
