"""Beacons' Django side: its World, its one phase, its table and scenario section."""

from __future__ import annotations

from rules.engine import Hooks, PhaseHooks, ScenarioHooks
from tests.toy import scenario_loader, services
from tests.toy.forms import SignalForm
from tests.toy.storage import STORAGE

HOOKS = Hooks(
    load_world=services.load_world,
    phases={"signal": PhaseHooks(services.resolve_signal, SignalForm)},
    storage=STORAGE,
    scenario=ScenarioHooks(scenario_loader.validate, scenario_loader.load_extras),
)
