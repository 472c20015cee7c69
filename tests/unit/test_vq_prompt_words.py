"""What Virgin Queen asks and answers, word for word: each prompt a power reads when a
conversion or a revolt waits for it (the spaces, zone, nation and counts it names), each
question's label, and each refusal of an answer or a start, in full. On the small map of
tests/unit/vq_world.py."""

from __future__ import annotations

import copy

import pytest

from rules.dice import ScriptedDice
from rules.refusals import Refused
from rules.virgin_queen.procedures import (
    check_revolt,
    decide,
    eligible_spaces,
    play_espionage,
    prompt,
    revolt_needs,
    start_conversion,
    start_revolt,
)
from rules.virgin_queen.state import CATHOLIC, REGULAR, Leader, Units
from tests.unit.vq_world import build_world

P = "protestant"
FRENCH_CHOICES = (("orleans", "Orléans"), ("paris", "Paris"))


def asked(world, pending) -> tuple[str, list[tuple]]:
    """The prompt's text, and (name, label, options, many, min, max) of each question."""
    shown = prompt(world, pending)
    questions = [(q.name, q.label, q.options, q.many, q.min, q.max) for q in shown.questions]
    return shown.text, questions


def refused(world, pending, power, answer, message: str) -> None:
    """The answer is refused saying exactly ``message``; nothing changes."""
    before, kept = copy.deepcopy(world), copy.deepcopy(pending)
    with pytest.raises(Refused) as raised:
        decide(world, pending, power, answer)
    assert raised.value.text == message
    assert world == before and pending == kept


# -- VQ-2 revolt ----------------------------------------------------------------------------


def test_the_controller_is_asked_how_many_units_each_stack_loses():
    world = build_world()
    pending = start_revolt(world, "antwerp", 3, ScriptedDice([6, 1, 2])).pending
    text, questions = asked(world, pending)
    assert text == (
        "The Protestant rolled dice 6 1 2 against Antwerp: 1 hit. Spain removes 1 Catholic "
        "unit of its own in Antwerp: how many from each stack (step 2)? Units remain, so the "
        "revolt fails."
    )
    assert questions == [
        ("unit:6", "1 Spanish regular in Antwerp", (("0", "0"), ("1", "1")), False, 1, 1),
        ("unit:7", "1 Spanish naval unit in Antwerp", (("0", "0"), ("1", "1")), False, 1, 1),
    ]
    refused(
        world,
        pending,
        "spain",
        {"unit:6": ["1"], "unit:7": "0"},
        "1 Spanish regular in Antwerp: choose one.",
    )
    refused(
        world,
        pending,
        "spain",
        {"unit:6": "3", "unit:7": "0"},
        "1 Spanish regular in Antwerp: “3” is not one of the choices.",
    )
    refused(
        world,
        pending,
        "spain",
        {"unit:7": "1"},
        "1 Spanish regular in Antwerp: a choice is needed.",
    )


def test_the_owner_is_asked_where_each_displaced_piece_goes():
    world = build_world()
    pending = start_revolt(world, "lyon", 3, ScriptedDice([1, 2, 5])).pending
    text, questions = asked(world, pending)
    assert text == (
        "The revolt in Lyon displaces France's units and leaders (step 3, 12.5): choose where "
        "each goes among the nearest fortified spaces it controls or its capital."
    )
    assert questions == [
        ("unit:3", "2 French mercenaries in Lyon", FRENCH_CHOICES, False, 1, 1),
        ("leader:2", "Guise in Lyon", FRENCH_CHOICES, False, 1, 1),
    ]
    refused(
        world,
        pending,
        "france",
        {"unit:3": "dijon", "leader:2": "paris"},
        "2 French mercenaries in Lyon: Dijon is not among the nearest legal spaces "
        "(Orléans and Paris).",
    )


def test_a_leader_whose_name_starts_small_is_named_with_a_capital():
    world = build_world()
    world.leaders[2] = Leader(2, "duc de Guise", "france", "military", "lyon")
    pending = start_revolt(world, "lyon", 3, ScriptedDice([1, 2, 5])).pending
    decide(world, pending, "france", {"unit:3": "orleans", "leader:2": "paris"})
    assert "Duc de Guise in Lyon displaced to Paris (step 3)." in [line.text for line in world.log]


@pytest.fixture
def extra():
    """The seed's revolt in Lyon (3 CP) once France's pieces are displaced: the Protestant
    chooses the spaces that come under its control with Lyon."""
    world = build_world()
    pending = start_revolt(world, "lyon", 3, ScriptedDice([1, 2, 5])).pending
    pending = decide(world, pending, "france", {"unit:3": "orleans", "leader:2": "orleans"}).pending
    return world, pending


def test_the_protestant_is_asked_for_the_spaces_that_come_with_the_target(extra):
    world, pending = extra
    text, questions = asked(world, pending)
    assert text == (
        "Lyon comes under Protestant control. Step 4: choose up to 2 more spaces adjacent to "
        "Lyon in France, Protestant, under French control, not besieged and free of Catholic "
        "units (3 CP: at most 3 spaces, Lyon included). Units there that the Protestant does "
        "not control are displaced."
    )
    assert questions == [
        (
            "extra",
            "Spaces adjacent to Lyon also under Protestant control (at most 2)",
            (("clermont", "Clermont"), ("dijon", "Dijon")),
            True,
            0,
            2,
        )
    ]


@pytest.mark.parametrize(
    "chosen, why",
    [
        (["dijon", "dijon"], "a choice is given twice"),
        (["atlantis"], "there is no space “atlantis”"),
        (["brussels"], "Brussels is not adjacent to Lyon, the target (Decision 6)"),
    ],
)
def test_a_space_that_cannot_come_with_the_target_is_refused_saying_why(extra, chosen, why):
    world, pending = extra
    label = "Spaces adjacent to Lyon also under Protestant control (at most 2)"
    refused(world, pending, P, {"extra": chosen}, f"{label}: {why}.")


def test_an_adjacent_space_of_another_zone_is_refused_naming_the_zone(extra):
    world, pending = extra
    world.adjacency["lyon"].add("utrecht")
    world.adjacency["utrecht"].add("lyon")
    refused(
        world,
        pending,
        P,
        {"extra": ["utrecht"]},
        "Spaces adjacent to Lyon also under Protestant control (at most 2): Utrecht is not in "
        "France.",
    )


def test_one_cp_more_than_the_target_is_one_space_more():
    world = build_world()
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    text, questions = asked(world, pending)
    assert text == (
        "Amsterdam comes under Protestant control. Step 4: choose up to 1 more space adjacent "
        "to Amsterdam in the Netherlands, Protestant, under Spanish control, not besieged and "
        "free of Catholic units (2 CP: at most 2 spaces, Amsterdam included). Units there that "
        "the Protestant does not control are displaced."
    )
    refused(
        world,
        pending,
        P,
        {"extra": ["utrecht", "antwerp"]},
        "2 CP put at most 2 spaces under Protestant control, Amsterdam included: at most 1 more.",
    )


def test_the_protestant_is_asked_for_a_capital_then_a_leader():
    world = build_world()
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    pending = decide(world, pending, P, {"extra": []}).pending
    assert asked(world, pending) == (
        "The Protestant has no Dutch capital (step 7): it may place one in a fortified "
        "Protestant home space it controls in the Netherlands, or leave it blank.",
        [("capital", "Dutch capital", (("amsterdam", "Amsterdam"),), False, 0, 1)],
    )
    pending = decide(world, pending, P, {"capital": "amsterdam"}).pending
    assert asked(world, pending) == (
        "Step 8: a Dutch military leader may enter play in Amsterdam; choose one, or leave it "
        "blank.",
        [("leader", "Leader to place in Amsterdam", (("4", "William of Orange"),), False, 0, 1)],
    )


def test_what_a_revolt_needs_names_the_units_the_power_and_the_hits():
    world = build_world()
    assert revolt_needs(world, "lyon") == (
        "1 Catholic unit of France: a die per CP, each 5–6 a hit; it needs 1 hit"
    )
    assert revolt_needs(world, "dijon") == "no Catholic unit of France: succeeds automatically"
    world.units[9] = Units(9, "spain", REGULAR, "amsterdam", 2)
    assert revolt_needs(world, "amsterdam") == (
        "2 Catholic units of Spain: a die per CP +1 (Protestant home space), each 5–6 a hit; "
        "it needs 2 hits"
    )


@pytest.mark.parametrize(
    "target, message",
    [
        ("london", "London is in neither France nor the Netherlands, where revolts happen."),
        ("atlantis", "There is no space “atlantis”."),
        (
            "la_rochelle",
            "La Rochelle is not under French political control (the Protestant controls it)",
        ),
        ("paris", "Paris is Catholic, not under Protestant religious influence"),
    ],
)
def test_a_revolt_target_that_is_not_legal_is_refused_saying_why(target, message):
    world = build_world()
    with pytest.raises(Refused) as raised:
        check_revolt(world, target, 2)
    assert raised.value.text == message


# -- VQ-1 conversion ------------------------------------------------------------------------


def test_the_power_is_asked_where_its_unrest_goes():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice([4, 4, 1])).pending
    pending = decide(world, pending, "france", {"die_1": "lyon", "die_2": "dijon"}).pending
    assert asked(world, pending) == (
        "France rolled dice 4 4 1 for 3 conversion attempts in France. Step 6: place 1 unrest "
        "marker in spaces converted by this action (Lyon and Dijon), at most one each.",
        [("unrest", "1 unrest marker", (("dijon", "Dijon"), ("lyon", "Lyon")), True, 1, 1)],
    )
    refused(world, pending, "france", {"unrest": []}, "1 unrest marker: choose exactly 1, not 0.")


def test_a_die_given_a_space_that_does_not_exist_is_refused_naming_it():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([4, 4])).pending
    refused(
        world,
        pending,
        "france",
        {"die_1": "atlantis", "die_2": "lyon"},
        "Die 1 (4): there is no space “atlantis”.",
    )


def test_two_sixes_cannot_flip_the_same_space_now():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 2, dice=ScriptedDice([6, 6])).pending
    with pytest.raises(Refused):
        decide(world, pending, "france", {"die_1": "lyon", "die_2": "lyon"})
    assert world.spaces["lyon"].religion != CATHOLIC


def test_a_six_offered_a_space_to_flip_now_names_it():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 1, dice=ScriptedDice([6])).pending
    (question,) = prompt(world, pending).questions
    assert question.options == (
        ("keep", "Keep it for step 5 (it may flip a space with Protestant units)"),
        ("dijon", "Flip Dijon now"),
        ("lyon", "Flip Lyon now"),
        ("nantes", "Flip Nantes now"),
        ("rouen", "Flip Rouen now"),
    )


def test_the_flips_prompt_follows_the_summary_with_the_conditions():
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 1, dice=ScriptedDice([4])).pending
    assert prompt(world, pending).text.startswith(
        "France rolled die 4 for 1 conversion attempt in France. Step 5: each minor "
        "conversion (4–5) or lowered 6 flips"
    )
    assert ". The conditions: (a) the space is in France;" in prompt(world, pending).text


def test_a_conversions_roll_names_the_power_the_attempts_and_the_zones():
    world = build_world()
    pending = start_conversion(
        world, "france", ["france", "netherlands"], 2, dice=ScriptedDice([6, 1])
    ).pending
    roll = world.log[0].roll
    assert roll.purpose == "France: 2 conversion attempts in France and the Netherlands"
    assert (roll.power, roll.faces) == ("france", (6, 1))
    assert roll.text == (
        "dice 6 1, a major conversion on 6, a minor one on 4–5, an unrest marker on 1, a miss "
        "on 2–3: 1 major conversion (6), 1 unrest marker (1)"
    )
    assert pending.data["summary"] == (
        "France rolled dice 6 1 for 2 conversion attempts in France and the Netherlands"
    )


@pytest.mark.parametrize(
    "power, zones, attempts, message",
    [
        (
            "england",
            ["france"],
            1,
            "England is not a Catholic power: only they attempt conversions.",
        ),
        ("france", ["france"], 0, "A conversion needs at least one attempt."),
        ("france", [], 1, "A conversion targets at least one religious struggle zone."),
        ("france", ["france", "italy"], 1, "There is no religious struggle zone “italy”."),
    ],
)
def test_a_conversion_that_cannot_start_is_refused_saying_why(power, zones, attempts, message):
    world = build_world()
    with pytest.raises(Refused) as raised:
        start_conversion(world, power, zones, attempts, dice=ScriptedDice([4]))
    assert raised.value.text == message
    assert world.log == []


def test_a_conversion_needs_its_dice():
    with pytest.raises(ValueError, match="dice are needed"):
        start_conversion(build_world(), "france", ["france"], 1)


def test_spaces_are_offered_by_name_whatever_their_keys():
    world = build_world()
    world.spaces["dijon"].name = "Zürich"
    catholic = {key for key, space in world.spaces.items() if space.religion == CATHOLIC}
    assert eligible_spaces(world, ["france"], catholic, ignore_units=False) == [
        "lyon",
        "nantes",
        "rouen",
        "dijon",
    ]


# -- VQ-3 espionage ---------------------------------------------------------------------------


def test_an_espionage_action_names_the_power_and_what_was_played():
    world = build_world()
    world.turn = 3
    play_espionage(world, "england", "an informant in Paris")
    play_espionage(world, "spain", "")
    assert [(line.power, line.text) for line in world.log] == [
        ("england", "England: an espionage action, played at the table: an informant in Paris"),
        ("spain", "Spain: an espionage action, played at the table"),
    ]
