"""Who has something to order in the Empires in Arms land and conquest steps
(rules/empires_in_arms/legal.py), one example per reason."""

from __future__ import annotations

from rules.empires_in_arms.legal import (
    conquest_choice_revolts,
    has_conquest_choice,
    has_land_orders,
    movable_stacks,
    operation_areas,
)
from rules.empires_in_arms.state import SPAIN, Corps, Depot, Guerrilla, Revolt


def test_a_power_with_nothing_on_the_map_has_no_land_orders(world):
    assert not has_land_orders(world, "russia")


def test_a_corps_alone_owes_no_land_orders(world):
    """Its moves are orders for the GM, which are optional."""
    world.corps.append(Corps(1, "russia", "hesse"))
    assert not has_land_orders(world, "russia")


def test_a_corps_that_may_operate_owes_land_orders(world):
    world.revolts.append(Revolt(1, "great_britain", "palatinate", 4))
    world.guerrillas.append(Guerrilla(1, "palatinate", "great_britain", 2, "palatinate"))
    world.corps.append(Corps(1, "austria", "palatinate"))
    assert has_land_orders(world, "austria") and not has_land_orders(world, "russia")


def test_spain_moves_its_spanish_guerrillas(world):
    world.guerrillas.append(Guerrilla(1, "castile", SPAIN, 2, "castile", revolt=False))
    assert [g.id for g in movable_stacks(world, SPAIN)] == [1]
    assert has_land_orders(world, SPAIN) and not has_land_orders(world, "france")


def test_a_stack_not_yet_stored_or_with_nowhere_to_go_does_not_move(world):
    world.guerrillas += [
        Guerrilla(None, "castile", SPAIN, 2, "castile", revolt=False),
        Guerrilla(2, "granada", SPAIN, 1, "granada", revolt=False, besieged=True),
        Guerrilla(3, "palatinate", "great_britain", 3, "palatinate"),
    ]
    world.revolts.append(Revolt(1, "great_britain", "palatinate", 4))
    assert movable_stacks(world, SPAIN) == []
    assert not has_land_orders(world, SPAIN) and not has_land_orders(world, "great_britain")


def test_a_depot_attack_is_a_land_order(world):
    world.revolts.append(Revolt(1, "great_britain", "palatinate", 4))
    world.guerrillas.append(Guerrilla(1, "palatinate", "great_britain", 7, "palatinate"))
    world.depots.append(Depot(1, "france", "palatinate"))
    assert has_land_orders(world, "great_britain")


def test_operation_areas_are_the_powers_own_eligible_corps_areas(world):
    world.revolts.append(Revolt(1, "great_britain", "palatinate", 4))
    world.corps += [Corps(1, "austria", "palatinate"), Corps(2, "france", "hesse")]
    assert operation_areas(world, "france") == []
    assert operation_areas(world, "austria") == ["palatinate"]


def test_the_conquest_choice_is_asked_for_a_minor_held_by_an_enemy(world):
    world.revolts += [
        Revolt(1, "great_britain", "palatinate", 6),
        Revolt(2, "great_britain", "andalusia", 6),
        Revolt(3, "great_britain", "hesse", 6),
    ]
    world.wars.add(frozenset(("great_britain", "france")))
    assert [r.id for r in conquest_choice_revolts(world, "great_britain")] == [1]
    world.revolts[0].capital_held_months = 1
    world.guerrillas.append(Guerrilla(1, "palatinate", "great_britain", 2, "palatinate"))
    assert has_conquest_choice(world, "great_britain")
    world.wars.clear()
    assert not has_conquest_choice(world, "great_britain")


def test_the_conquest_choice_is_owed_only_where_the_revolt_succeeds_now(world):
    """EIA-8: the capital held for a month, number 6 or more, unbesieged guerrillas."""
    revolt = Revolt(1, "great_britain", "palatinate", 5, capital_held_months=1)
    world.revolts.append(revolt)
    world.wars.add(frozenset(("great_britain", "france")))
    stack = Guerrilla(1, "palatinate", "great_britain", 2, "palatinate")
    world.guerrillas.append(stack)
    assert conquest_choice_revolts(world, "great_britain")  # a standing answer is offered
    assert not has_conquest_choice(world, "great_britain")  # number 5: it cannot succeed
    revolt.number = 6
    assert has_conquest_choice(world, "great_britain")
    stack.besieged = True
    assert not has_conquest_choice(world, "great_britain")
    stack.besieged, revolt.capital_held_months = False, 0
    assert not has_conquest_choice(world, "great_britain")


def test_a_kept_conquest_choice_is_not_asked_again(world):
    revolt = Revolt(1, "great_britain", "palatinate", 6, capital_held_months=1)
    world.revolts.append(revolt)
    world.wars.add(frozenset(("great_britain", "france")))
    world.guerrillas.append(Guerrilla(1, "palatinate", "great_britain", 2, "palatinate"))
    assert has_conquest_choice(world, "great_britain")
    revolt.conquest_choice = "client"
    assert not has_conquest_choice(world, "great_britain")
