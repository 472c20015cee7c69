"""The GM's Empires in Arms edits at their bounds: each value allowed at the edge of its
range, each kind of relation, and a stack in an area already over its cap."""

from __future__ import annotations

import pytest

from rules.empires_in_arms.edits import (
    EditError,
    edit_area_details,
    edit_guerrilla,
    edit_relation,
    edit_revolt,
)
from rules.empires_in_arms.state import SPAIN, Guerrilla, Revolt


@pytest.mark.parametrize(
    ("kind", "wars", "alliances", "text"),
    [
        ("war", {frozenset(("france", "spain"))}, set(), "France and Spain are at war"),
        ("alliance", set(), {frozenset(("france", "spain"))}, "France and Spain are allied"),
        ("peace", set(), set(), "France and Spain are at peace"),
    ],
)
def test_a_relation_replaces_the_old_one(world, kind, wars, alliances, text):
    world.wars.add(frozenset(("france", "spain")))
    world.alliances.add(frozenset(("spain", "france")))
    assert edit_relation(world, a="france", b="spain", kind=kind) == text
    assert (world.wars, world.alliances) == (wars, alliances)


def test_a_power_has_no_relation_with_itself(world):
    with pytest.raises(EditError, match="itself"):
        edit_relation(world, a="france", b="france", kind="war")


@pytest.mark.parametrize("months", [0, 1])
def test_the_capital_held_months_start_at_zero(world, months):
    world.revolts.append(Revolt(3, "great_britain", "palatinate", 4, capital_held_months=2))
    edit_revolt(world, revolt=3, capital_held_months=months)
    assert world.revolts[0].capital_held_months == months


@pytest.mark.parametrize(("value", "allowed"), [(1, True), (6, True), (0, False), (7, False)])
def test_a_printed_guerrilla_value_is_one_to_six(world, value, allowed):
    details = {"area": "castile", "manpower": 4, "minor_status": ""}
    if allowed:
        edit_area_details(world, guerrilla_value=value, **details)
        assert world.areas["castile"].guerrilla_value == value
    else:
        with pytest.raises(EditError, match="from 1 to 6"):
            edit_area_details(world, guerrilla_value=value, **details)


def test_a_stack_in_an_area_already_over_its_cap_may_be_besieged_keeping_its_factors(world):
    """Andalusia (manpower 3, cap 15) held 20 Spanish factors when a revolt broke out."""
    world.guerrillas.append(Guerrilla(4, "andalusia", SPAIN, 20, "andalusia", revolt=False))
    world.revolts.append(Revolt(1, SPAIN, "andalusia", 3))
    edit_guerrilla(world, stack=4, besieged=True, factors=20)
    assert (world.guerrillas[0].factors, world.guerrillas[0].besieged) == (20, True)
    with pytest.raises(EditError, match="at most 15"):
        edit_guerrilla(world, stack=4, besieged=True, factors=21)
