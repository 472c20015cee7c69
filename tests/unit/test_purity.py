"""The pure rule modules stand without Django: each loads in a fresh interpreter with
neither django nor the campaign app in sys.modules (the platform's, of the import contract
in pyproject.toml, and each game's, as its Ruleset declares them: the import contracts
check them statically), and each ruleset's state knows its options' defaults as the
ruleset declares them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rules.empires_in_arms import state as eia_state
from rules.empires_in_arms.ruleset import OPTIONS as EIA_OPTIONS
from rules.engine import registry
from rules.pax_baltica import state as pb_state
from rules.pax_baltica.ruleset import OPTIONS as PB_OPTIONS
from rules.virgin_queen import state as vq_state
from rules.virgin_queen.ruleset import OPTIONS as VQ_OPTIONS
from tests.unit.test_import_contracts import games_pure_modules

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PLATFORM = next(c for c in CONTRACTS["contracts"] if "django" in c.get("forbidden_modules", []))
PURE = [*PLATFORM["source_modules"], *games_pure_modules()]


def loaded_by(module: str, then: str = "") -> list[str]:
    """What of django and campaign importing ``module`` (and running ``then``) loads."""
    code = (
        f"import json, sys, {module}; {then or 'pass'}; "
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'campaign'})))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return json.loads(run.stdout)


def test_every_procedure_phase_and_state_module_is_declared_pure():
    for path in (ROOT / "rules").glob("*/*.py"):
        if path.stem in ("procedures", "phases", "state", "legal", "supply", "edits"):
            assert f"rules.{path.parent.name}.{path.stem}" in PURE


@pytest.mark.parametrize("module", PURE)
def test_a_pure_module_loads_without_django(module):
    assert loaded_by(module) == []


def test_reading_a_rulesets_corpus_loads_no_django_either():
    read = "[rules.corpus.cases(key) and rules.corpus.board(key) for key in ('pax_baltica',)]"
    assert loaded_by("rules.corpus", read) == []


@pytest.mark.parametrize(
    "state, options",
    [(eia_state, EIA_OPTIONS), (pb_state, PB_OPTIONS), (vq_state, VQ_OPTIONS)],
    ids=["empires_in_arms", "pax_baltica", "virgin_queen"],
)
def test_the_state_knows_each_options_default_as_the_ruleset_does(state, options):
    assert {spec.key: spec.default for spec in options} == state.DEFAULTS


def ruleset_words() -> set[str]:
    """What would name a ruleset: its key (and package) and its name."""
    return {str(word) for r in registry().values() for word in (r.key, r.name)}


@pytest.mark.parametrize("folder", ["campaign", "courier"])
def test_outside_migrations_the_campaign_app_and_the_site_name_no_ruleset(folder):
    named = {
        f"{path.relative_to(ROOT)}: {word}"
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
        for word in ruleset_words()
        if re.search(rf"\b{re.escape(word)}\b", path.read_text())
    }
    assert named == set()


# Columns one game's tables hold (rules/empires_in_arms/models.py), once the core's.
GAME_COLUMNS = ("treasury", "political_points", "ceded", "manpower")


def test_outside_migrations_the_campaign_app_names_no_games_columns():
    named = {
        f"{path.relative_to(ROOT)}: {word}"
        for path in (ROOT / "campaign").rglob("*.py")
        if "migrations" not in path.parts
        for word in GAME_COLUMNS
        if re.search(rf"\b{word}\b", path.read_text())
    }
    assert named == set()
