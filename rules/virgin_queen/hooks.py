"""Virgin Queen's Django side, as rules.engine.Hooks: what the campaign app calls."""

from __future__ import annotations

from rules.engine import Decisions, Hooks, PhaseHooks, ScenarioHooks
from rules.virgin_queen import presenters, scenario_loader, services
from rules.virgin_queen.forms.decisions import DecisionForm
from rules.virgin_queen.forms.edits import EDIT_FORMS
from rules.virgin_queen.forms.orders import ImpulseOrderForm
from rules.virgin_queen.ruleset import PHASES
from rules.virgin_queen.storage import STORAGE

HOOKS: Hooks[services.Loaded] = Hooks(
    load_world=services.load_world,
    # every impulse is played alike: its power's action
    phases={spec.key: PhaseHooks(services.resolve_impulse, ImpulseOrderForm) for spec in PHASES},
    storage=STORAGE,
    scenario=ScenarioHooks(scenario_loader.validate, scenario_loader.load_extras),
    edit_forms=EDIT_FORMS,
    gm_edit=services.gm_edit,
    presenter=presenters.PRESENTER,
    decisions=Decisions(
        decide=services.decide, form=DecisionForm, default=services.default_decision
    ),
    turn_started=services.turn_started,
)
