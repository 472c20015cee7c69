"""The ruleset contract (rules/engine.py): every installed ruleset's hooks play each of
its phases, and hooks that do not are refused when its app attaches them."""

from __future__ import annotations

import dataclasses

import pytest

from rules import engine
from rules.engine import Hooks, PhaseHooks, PhaseSpec, registry, ruleset_for


def resolve(context):
    return None


class OrderForm:
    pass


@pytest.mark.parametrize("key", sorted(registry()))
def test_every_installed_ruleset_has_hooks_for_each_of_its_phases(key):
    rules = ruleset_for(key)
    for spec in rules.phases:
        played = rules.hooks.phase(spec.key)
        assert callable(played.resolve)
        assert (played.order_form is not None) == spec.takes_orders


@pytest.fixture
def toy_hooks():
    """Beacons' hooks, attached again as they were after each test."""
    hooks = ruleset_for("toy").hooks
    yield hooks
    engine.attach("toy", hooks)


def test_hooks_missing_a_phase_are_refused(toy_hooks):
    with pytest.raises(ValueError, match="phase 'signal': no hooks"):
        engine.attach("toy", dataclasses.replace(toy_hooks, phases={}))


def test_a_phase_taking_orders_needs_an_order_form(toy_hooks):
    phases = {"signal": PhaseHooks(resolve)}
    with pytest.raises(ValueError, match="takes orders but has no order form"):
        engine.attach("toy", dataclasses.replace(toy_hooks, phases=phases))


def test_hooks_for_a_phase_the_ruleset_lacks_are_refused(toy_hooks):
    phases = {**toy_hooks.phases, "dawn": PhaseHooks(resolve, OrderForm)}
    with pytest.raises(ValueError, match="no phase 'dawn'"):
        engine.attach("toy", dataclasses.replace(toy_hooks, phases=phases))


@pytest.mark.parametrize(
    "edits", [{"edit_forms": {}}, {"gm_edit": None}], ids=["no forms", "no service"]
)
def test_edit_forms_and_the_edit_service_go_together(toy_hooks, edits):
    with pytest.raises(ValueError, match="edit forms and gm_edit go together"):
        engine.attach("toy", dataclasses.replace(toy_hooks, **edits))


def test_refused_hooks_leave_the_attached_ones_in_place(toy_hooks):
    with pytest.raises(ValueError):
        engine.attach("toy", dataclasses.replace(toy_hooks, phases={}))
    assert ruleset_for("toy").hooks is toy_hooks


def test_a_phase_taking_no_orders_has_no_order_form():
    spec = PhaseSpec(key="dusk", name="Dusk", rules=(), does="", orders_from="none")
    assert engine.phase_problems(spec, PhaseHooks(resolve, OrderForm)) == [
        "takes no orders but has an order form"
    ]
    assert engine.phase_problems(spec, PhaseHooks(resolve)) == []


def test_a_ruleset_without_hooks_says_so():
    bare = dataclasses.replace(ruleset_for("toy"), key="unattached")
    with pytest.raises(LookupError, match="'unattached' has no hooks"):
        bare.load_world(campaign=None)


def test_optional_hooks_default_to_nothing():
    hooks = Hooks(load_world=lambda campaign, rows=None: None, phases={})
    assert (hooks.storage, hooks.scenario, hooks.presenter, hooks.sees) == (None,) * 4
    assert (hooks.standing_form, hooks.decisions, hooks.turn_started) == (None,) * 3
    assert hooks.gm_edit is None
    assert dict(hooks.edit_forms) == {} and dict(hooks.questions) == {}
