"""The GM's Virgin Queen edits (rules/virgin_queen/edits.py) at their bounds: unit counts
and markers on both sides of their ranges, moves that join, move or split a stack."""

from __future__ import annotations

import copy

import pytest

from rules.virgin_queen.edits import (
    EditError,
    edit_markers,
    edit_power,
    edit_space,
    move_units,
    set_units,
)
from tests.unit.vq_world import build_world

LYON = {"space": "lyon", "religion": "protestant", "controller": "france", "fortified": True}


def refused(edit, world, match: str, **fields) -> None:
    before = copy.deepcopy(world)
    with pytest.raises(EditError, match=match):
        edit(world, **fields)
    assert world == before


@pytest.mark.parametrize(("count", "allowed"), [(0, True), (30, True), (-1, False), (31, False)])
def test_a_stack_holds_0_to_30_units(count, allowed):
    world = build_world()
    fields = {"power": "france", "kind": "regular", "space": "lyon", "count": count}
    if allowed:
        set_units(world, **fields)
        assert world.units[2].count == count
    else:
        refused(set_units, world, "0 to 30", **fields)


def test_units_set_where_the_power_has_none_make_a_new_stack():
    world = build_world()
    set_units(world, power="france", kind="naval", space="lyon", count=2)
    assert world.units["new:france:naval:lyon"].count == 2 and world.units[2].count == 1


@pytest.mark.parametrize(("value", "allowed"), [(0, True), (9, True), (-1, False), (10, False)])
def test_espionage_markers_are_0_to_9(value, allowed):
    world = build_world()
    fields = {"power": "spain", "informant": value, "assassination_used": 0, "cipher_key": 0}
    if allowed:
        edit_markers(world, **fields)
        assert world.markers["spain"].informant == value
    else:
        refused(edit_markers, world, "0 to 9", **fields)


def test_a_space_edit_names_its_unrest_and_siege_only_when_set():
    world = build_world()
    text = edit_space(world, unrest=False, besieged=False, zone="france", **LYON)
    assert text == "Lyon: protestant, controlled by France"
    text = edit_space(world, unrest=True, besieged=True, zone="france", **LYON)
    assert text == "Lyon: protestant, controlled by France, unrest, besieged"
    refused(edit_space, world, "struggle zone", unrest=False, besieged=False, zone="spain", **LYON)


def test_units_move_to_join_their_stack_there_up_to_30():
    world = build_world()
    world.units[1].count = 29  # 29 French regulars in Paris, 1 in Lyon
    move_units(world, stack=2, to="paris", count=1)
    assert world.units[1].count == 30 and world.units[2].count == 0
    world.units[2].count = 1
    refused(move_units, world, "0 to 30", stack=2, to="paris", count=1)


def test_a_whole_stack_moves_and_part_of_one_splits():
    world = build_world()
    move_units(world, stack=3, to="dijon", count=2)  # both French mercenaries
    assert world.units[3].space == "dijon" and world.units[3].count == 2
    move_units(world, stack=3, to="clermont", count=1)
    assert world.units[3].count == 1
    assert world.units["new:france:mercenary:clermont"].count == 1


@pytest.mark.parametrize(("count", "allowed"), [(1, True), (2, True), (0, False), (3, False)])
def test_one_to_all_of_a_stack_moves(count, allowed):
    world = build_world()
    if allowed:
        move_units(world, stack=3, to="dijon", count=count)
    else:
        refused(move_units, world, "units that move", stack=3, to="dijon", count=count)


def test_a_move_needs_a_stored_stack_and_another_space():
    world = build_world()
    world.units["new:x"] = copy.copy(world.units[3])
    world.units["new:x"].id = None
    refused(move_units, world, "no unit stack", stack="new:x", to="dijon", count=1)
    refused(move_units, world, "no unit stack", stack=99, to="dijon", count=1)
    refused(move_units, world, "already in Lyon", stack=3, to="lyon", count=1)


def test_a_power_becomes_catholic_or_not():
    world = build_world()
    edit_power(world, power="england", catholic=True)
    assert world.catholic_powers == {"spain", "france", "hre", "england"}
    edit_power(world, power="hre", catholic=False)
    assert world.catholic_powers == {"spain", "france", "england"}
