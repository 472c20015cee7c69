"""Pax Baltica's Django side, as rules.engine.Hooks: what the campaign app calls."""

from __future__ import annotations

from rules.engine import Hooks, PhaseHooks, ScenarioHooks
from rules.pax_baltica import presenters, scenario_loader, services
from rules.pax_baltica.forms import orders
from rules.pax_baltica.forms.edits import EDIT_FORMS
from rules.pax_baltica.state import World
from rules.pax_baltica.storage import STORAGE

HOOKS: Hooks[World] = Hooks(
    load_world=services.load_world,
    phases={
        "recruitment": PhaseHooks(services.resolve_recruitment, orders.RecruitmentOrderForm),
        "actions": PhaseHooks(services.resolve_actions, orders.ActionOrderForm),
        "siege": PhaseHooks(services.resolve_sieges),
        "forage": PhaseHooks(services.resolve_forage, orders.ForageOrderForm),
    },
    storage=STORAGE,
    scenario=ScenarioHooks(scenario_loader.validate, scenario_loader.load_extras),
    edit_forms=EDIT_FORMS,
    gm_edit=services.gm_edit,
    presenter=presenters.PRESENTER,
    sees=presenters.sees,
    questions=presenters.QUESTIONS,
)
