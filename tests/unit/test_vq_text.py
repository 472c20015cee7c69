"""The Virgin Queen log speaks in Texts: every line the procedures and GM edits write,
every question the engine asks and every refusal carries its msgid and parameters,
renders back to the same English and stores as JSON."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from rules.dice import ScriptedDice
from rules.refusals import reason_for
from rules.virgin_queen import edits
from rules.virgin_queen.procedures import (
    Pending,
    Refused,
    check_espionage,
    check_revolt,
    decide,
    espionage_markers,
    prompt,
    start_conversion,
    start_revolt,
)
from rules.virgin_queen.ruleset import turn_label
from rules.virgin_queen.state import TURN_TRACK, World
from tests.unit.translatable import assert_log_translatable, assert_translatable
from tests.unit.vq_world import build_world


def ask(world: World, pending: Pending, stage: str) -> None:
    """The pending decision is at ``stage`` and its question, labels and sentence choices
    are Texts."""
    assert pending.stage == stage
    json.dumps(pending.data)
    asked = prompt(world, pending)
    assert_translatable(asked.text)
    for question in asked.questions:
        assert_translatable(question.label)
        for value, label in question.options:
            if value not in world.spaces and not value.isdigit():
                assert_translatable(label)


def assert_refused(call) -> None:
    with pytest.raises(Refused) as refusal:
        call()
    assert_translatable(refusal.value.text)


# -- VQ-1 -------------------------------------------------------------------------------


def test_conversion_through_its_stages():
    world = build_world()
    pending = start_conversion(
        world, "france", ["france"], 4, dice=ScriptedDice([6, 1, 4, 5])
    ).pending
    ask(world, pending, "sixes")
    assert_refused(lambda: decide(world, pending, "spain", {"die_1": "keep"}))
    assert_refused(lambda: decide(world, pending, "france", {"die_1": "london"}))
    pending = decide(world, pending, "france", {"die_1": "keep"}).pending
    ask(world, pending, "flips")
    flips = {"die_1": "la_rochelle", "die_3": "lyon", "die_4": "dijon"}
    assert_refused(lambda: decide(world, pending, "france", flips | {"die_4": "lyon"}))
    assert_refused(lambda: decide(world, pending, "france", flips | {"die_4": ""}))
    pending = decide(world, pending, "france", flips).pending
    ask(world, pending, "unrest")
    assert_refused(lambda: decide(world, pending, "france", {"unrest": []}))
    assert decide(world, pending, "france", {"unrest": ["lyon"]}).pending is None
    assert_log_translatable(world.log)


def test_an_event_six_lowered_by_option():
    world = build_world(unrest_cancel="one_per_action")
    event = "Council of Troubles"
    pending = start_conversion(world, "france", ["france"], 3, event, ScriptedDice([1, 1])).pending
    ask(world, pending, "sixes")
    pending = decide(world, pending, "france", {"die_1": "lower"}).pending
    ask(world, pending, "flips")
    assert decide(world, pending, "france", {"die_1": "lyon"}).pending is None
    assert_log_translatable(world.log)


@pytest.mark.parametrize("faces", [[2, 3, 3], [1, 1, 2], [4, 1, 1], [5, 5, 5], [6, 6, 6]])
def test_conversions_answered_with_the_first_free_choices(faces):
    world = build_world()
    pending = start_conversion(world, "france", ["france"], 3, dice=ScriptedDice(faces)).pending
    while pending is not None:
        ask(world, pending, pending.stage)
        pending = decide(world, pending, "france", first_free_choices(world, pending)).pending
    assert_log_translatable(world.log)


def first_free_choices(world: World, pending: Pending) -> dict[str, str | list[str]]:
    answer, taken = {}, set()
    for question in prompt(world, pending).questions:
        free = [value for value, _ in question.options if value not in taken]
        answer[question.name] = free[: question.max] if question.many else free[0]
        taken.update(free[:1])
    return answer


def test_refusals_to_start_are_texts():
    world = build_world()
    assert_refused(lambda: start_conversion(world, "england", ["france"], 1))
    assert_refused(lambda: start_conversion(world, "france", ["atlantis"], 1))
    for target, cp in (("lyon", 6), ("london", 3), ("paris", 2), ("nowhere", 2)):
        assert_translatable(reason_for(check_revolt, world, target, cp))
        assert_refused(lambda target=target, cp=cp: start_revolt(world, target, cp, None))
    assert_translatable(reason_for(check_espionage, 1))


# -- VQ-2 -------------------------------------------------------------------------------


def test_revolt_through_its_stages():
    world = build_world()
    pending = start_revolt(world, "lyon", 3, ScriptedDice([1, 2, 5])).pending
    ask(world, pending, "displace")
    assert_refused(lambda: decide(world, pending, "france", {"unit:3": "dijon"}))
    pending = decide(world, pending, "france", {"unit:3": "paris", "leader:2": "orleans"}).pending
    ask(world, pending, "extra")
    assert_refused(lambda: decide(world, pending, "protestant", {"extra": ["paris"]}))
    assert decide(world, pending, "protestant", {"extra": ["dijon", "clermont"]}).pending is None
    assert_log_translatable(world.log)


def test_revolt_hits_capital_and_leader():
    world = build_world()
    pending = start_revolt(world, "antwerp", 3, ScriptedDice([6, 1, 2])).pending
    ask(world, pending, "hits")
    assert_refused(lambda: decide(world, pending, "spain", {"unit:6": "1", "unit:7": "1"}))
    assert decide(world, pending, "spain", {"unit:6": "0", "unit:7": "1"}).pending is None
    pending = start_revolt(world, "amsterdam", 2, ScriptedDice([])).pending
    pending = decide(world, pending, "protestant", {"extra": []}).pending
    ask(world, pending, "capital")
    pending = decide(world, pending, "protestant", {"capital": "amsterdam"}).pending
    ask(world, pending, "leader")
    assert decide(world, pending, "protestant", {"leader": "4"}).pending is None
    assert_log_translatable(world.log)


def test_a_revolt_stored_without_its_faces_still_asks_with_its_stored_summary():
    world = build_world()
    pending = start_revolt(world, "antwerp", 3, ScriptedDice([6, 1, 2])).pending
    del pending.data["faces"]
    asked = prompt(world, pending)
    assert_translatable(asked.text)
    assert asked.text.startswith("The Protestant rolled dice 6 1 2 against Antwerp: 1 hit. Spain")


@pytest.mark.parametrize(
    ("target", "cp", "faces", "capital"),
    [("lyon", 2, [1, 1], None), ("amsterdam", 4, [5, 5, 5, 5, 5], TURN_TRACK)],
)
def test_revolts_that_fail_or_run_on_automatically(target, cp, faces, capital):
    world = build_world(displacement="automatic")
    world.capitals["netherlands"] = capital
    world.wars.add(frozenset(("protestant", "spain")))
    pending = start_revolt(world, target, cp, ScriptedDice(faces)).pending
    while pending is not None:
        pending = decide(world, pending, pending.waiting_for, {}, as_gm=True).pending
    assert_log_translatable(world.log)


def test_espionage_markers_and_turn_label():
    world = build_world()
    world.turn = 3
    espionage_markers(world)
    assert_log_translatable(world.log)
    with translation.override("en"):
        assert turn_label(3, {}) == "Turn 3"


# -- GM edits ---------------------------------------------------------------------------

EDIT_CALLS = [
    ("space", {"space": "lyon", "religion": "catholic", "controller": None, "unrest": True,
               "fortified": True, "besieged": True}),
    ("space", {"space": "lyon", "religion": "protestant", "controller": "protestant",
               "unrest": False, "fortified": False, "besieged": False}),
    ("units", {"power": "france", "kind": "naval", "space": "paris", "count": 2}),
    ("leader", {"leader": 1, "space": None, "can_enter": True}),
    ("leader", {"leader": 1, "space": "lyon", "can_enter": False}),
    ("zone", {"zone": "netherlands", "capital": TURN_TRACK, "regulars": 1}),
    ("zone", {"zone": "france", "capital": "lyon", "regulars": 3}),
    ("power", {"power": "hre", "catholic": False}),
    ("war", {"first": "protestant", "second": "spain", "at_war": True}),
    ("war", {"first": "england", "second": "spain", "at_war": False}),
    ("markers", {"power": "spain", "informant": 2, "assassination_used": 1, "cipher_key": 0}),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "fields"), EDIT_CALLS)
def test_gm_edits_return_texts(edit, fields):
    assert_translatable(edits.EDITS[edit](build_world(), **fields))


@pytest.mark.parametrize(
    ("edit", "fields"),
    [
        ("units", {"power": "france", "kind": "regular", "space": "paris", "count": 99}),
        ("units", {"power": "france", "kind": "cavalry", "space": "paris", "count": 1}),
        ("leader", {"leader": 99, "space": None, "can_enter": False}),
        ("war", {"first": "spain", "second": "spain", "at_war": True}),
        ("zone", {"zone": "atlantis", "capital": None, "regulars": 0}),
    ],
)
def test_gm_edit_refusals_are_texts(edit, fields):
    with pytest.raises(edits.EditError) as error:
        edits.EDITS[edit](build_world(), **fields)
    assert_translatable(error.value.args[0])
