"""Pax Baltica's actions form with the allies' saved orders (GNW-8: one pool of actions a
side): the budget says what they spend, and orders that would overspend are refused with
the figures."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.pax_baltica.forms.orders import ActionOrderForm
from rules.pax_baltica.legal import actions_ordered
from tests.unit.pb_world import build_world

RUSSIA = {"reinforce": [{"block": 2, "actions": 1}], "fleet_moves": [], "sieges": []}
DENMARK = {"fleet_moves": [{"fleet": 7, "path": ["skagerrak"]}]}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def saxony_form(data=None, **saved) -> ActionOrderForm:
    """Saxony-Poland's actions form, August II at 1/4 in Lausitz, the Coalition 3 actions."""
    return ActionOrderForm(data, world=build_world(), power_key="saxony", saved_orders=saved)


def test_a_saved_order_spends_its_steps_moves_and_sieges():
    assert actions_ordered(RUSSIA) == 1 and actions_ordered(DENMARK) == 1
    assert actions_ordered({"sieges": [{"territory": "narva", "blocks": [3]}]}) == 1
    assert actions_ordered({}) == 0


def test_the_budget_names_each_allys_commitment_and_what_is_left():
    form = saxony_form(russia=RUSSIA, denmark=DENMARK, sweden={"sieges": [{}] * 3})
    assert form.budget()[1] == (
        "Russia has committed 1 action in its saved orders; Denmark has committed 1 action "
        "in its saved orders; 1 action is left for you."
    )


def test_without_the_allies_orders_the_budget_is_the_sides():
    assert len(saxony_form().budget()) == 1
    assert len(saxony_form(russia={"reinforce": []}, saxony=RUSSIA).budget()) == 1


def test_orders_the_allies_leave_too_few_actions_for_are_refused_with_the_figures():
    form = saxony_form({"act_5": "2"}, russia=RUSSIA, denmark=DENMARK)
    assert not form.is_valid()
    assert form.non_field_errors() == [
        "These orders need 2 actions, and your side has 3 this season: Russia has committed 1 "
        "action in its saved orders; Denmark has committed 1 action in its saved orders, which "
        "leaves 1 for you. Your orders were not saved: give fewer, or agree with your allies."
    ]
    assert saxony_form({"act_5": "1"}, russia=RUSSIA, denmark=DENMARK).is_valid()
