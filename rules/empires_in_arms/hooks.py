"""Empires in Arms's Django side, as rules.engine.Hooks: what the campaign app calls."""

from __future__ import annotations

from rules.empires_in_arms import presenters, scenario_loader, services
from rules.empires_in_arms.forms import orders
from rules.empires_in_arms.forms.edits import EDIT_FORMS
from rules.empires_in_arms.state import World
from rules.empires_in_arms.storage import STORAGE
from rules.engine import Hooks, PhaseHooks, ScenarioHooks

HOOKS: Hooks[World] = Hooks(
    load_world=services.load_world,
    phases={
        "peace": PhaseHooks(services.resolve_peace, orders.PeaceOrderForm),
        "revolt": PhaseHooks(services.resolve_revolt_step, orders.RevoltOrderForm),
        "land": PhaseHooks(services.resolve_land, orders.LandOrderForm),
        "conquest": PhaseHooks(services.resolve_conquest, orders.ConquestOrderForm),
        "economic": PhaseHooks(services.resolve_economic, orders.EconomicOrderForm),
    },
    storage=STORAGE,
    scenario=ScenarioHooks(scenario_loader.validate, scenario_loader.load_extras),
    edit_forms=EDIT_FORMS,
    gm_edit=services.gm_edit,
    standing_form=orders.StandingOrderForm,
    presenter=presenters.PRESENTER,
)
