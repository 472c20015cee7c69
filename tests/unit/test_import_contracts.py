"""The import contracts of pyproject.toml (checked by import-linter in bin/test) name every
ruleset the site's settings register, the tests' toy included: a game added to
COURIER_RULESETS and forgotten in the contracts would go unchecked."""

from __future__ import annotations

import tomllib
from importlib.util import find_spec
from pathlib import Path

from django.conf import settings

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
# A ruleset's modules that must load no Django (its pure rules), where it has them
PURE = ("procedures", "phases", "state", "legal", "supply", "edits", "gm_orders")


def linter() -> dict:
    return tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]


def contract(**match) -> dict:
    """The one contract whose settings include ``match``."""
    (found,) = (c for c in linter()["contracts"] if match.items() <= c.items())
    return found


def test_every_registered_ruleset_is_in_the_import_contracts():
    registered = set(settings.COURIER_RULESETS)
    assert "tests.toy" in registered  # the toy plugs in through the settings alone
    assert {package.split(".")[0] for package in registered} <= set(linter()["root_packages"])
    assert set(contract(type="independence")["modules"]) == registered
    single = contract(type="forbidden", source_modules=["campaign", "courier"])
    assert set(single["forbidden_modules"]) == registered


def test_each_rulesets_pure_modules_are_held_to_load_no_django():
    pure = contract(forbidden_modules=["django", "campaign", "courier"])
    missing = [
        f"{package}.{name}"
        for package in settings.COURIER_RULESETS
        for name in PURE
        if find_spec(f"{package}.{name}") and f"{package}.{name}" not in pure["source_modules"]
    ]
    assert not missing, f"pure modules not in the contract: {missing}"
