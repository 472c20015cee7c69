"""Beacons' Django side, as rules.engine.Hooks: its World, its two phases, its tables and
scenario section, the GM's edits, its presenter and hidden reserves, and the decision a
raid waits for."""

from __future__ import annotations

from rules.engine import Decisions, Hooks, PhaseHooks, ScenarioHooks
from tests.toy import presenters, scenario_loader, services
from tests.toy.forms.decisions import DefenceForm
from tests.toy.forms.edits import EDIT_FORMS
from tests.toy.forms.orders import RaidForm, SignalForm
from tests.toy.state import World
from tests.toy.storage import STORAGE

HOOKS: Hooks[World] = Hooks(
    load_world=services.load_world,
    phases={
        "signal": PhaseHooks(services.resolve_signal, SignalForm),
        "raid": PhaseHooks(services.resolve_raid, RaidForm),
    },
    storage=STORAGE,
    scenario=ScenarioHooks(scenario_loader.validate, scenario_loader.load_extras),
    edit_forms=EDIT_FORMS,
    gm_edit=services.gm_edit,
    presenter=presenters.PRESENTER,
    sees=presenters.sees,
    decisions=Decisions(
        decide=services.decide, form=DefenceForm, default=services.default_decision
    ),
)
