"""The import contracts every registered game is held to, made from the registry.

pyproject.toml holds the platform's contracts (checked by ``lint-imports`` in bin/test)
and names no game. The games' contracts are made here from the rulesets the settings
register, the tests' toy included, and checked with import-linter: a game added to
COURIER_RULESETS is held to them without being named anywhere else. A game reaches the
platform through its facade, rules/platform.py, alone: of rules/ it imports only that and
the pure kit (the modules pyproject.toml holds to load no Django).
"""

from __future__ import annotations

import io
import logging
import tomllib
from contextlib import contextmanager, redirect_stdout
from pathlib import Path

from importlinter.cli import lint_imports

from rules.engine import registry

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
FACADE = "rules.platform"
KIT = "The platform's pure rule modules load neither Django nor the campaign app"
LAYERS = "The campaign app's subpackages import downwards only"


def platform_config() -> dict:
    return tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]


def kit() -> list[str]:
    """The pure kit of rules/ a game is written with: the modules of pyproject.toml's
    contract ``KIT``."""
    (pure,) = (c for c in platform_config()["contracts"] if c["name"] == KIT)
    return pure["source_modules"]


def platform_modules() -> list[str]:
    """What a game may not import itself: the campaign app, the site, and the modules of
    rules/ that are neither the kit nor the facade (which re-exports what a game needs of
    them)."""
    own = {f"rules.{path.stem}" for path in (ROOT / "rules").glob("*.py")} - {"rules.__init__"}
    return ["campaign", "courier", *sorted(own - set(kit()) - {FACADE})]


def facade_contract(packages: list[str]) -> dict:
    """The games ``packages`` import the platform through the facade alone (their
    migrations as they were written)."""
    return {
        "name": f"A game imports the platform through {FACADE} alone",
        "type": "forbidden",
        "source_modules": packages,
        "forbidden_modules": platform_modules(),
        "ignore_imports": ["**.migrations.** -> campaign.**"],
        "unmatched_ignore_imports_alerting": "none",
        "allow_indirect_imports": "True",
    }


def games_pure_modules() -> list[str]:
    """Each registered game's pure modules (its Ruleset's ``pure_modules``) and corpus
    adapter: they load no Django."""
    return sorted(
        f"{r.package}.{name}"
        for r in registry().values()
        for name in (*r.pure_modules, r.corpus_adapter)
        if name
    )


def games_contracts() -> list[dict]:
    """The contracts of the registered games: their pure modules load no Django, they
    import the platform through its facade alone, the platform imports none of them, and
    none imports another."""
    packages = sorted(r.package for r in registry().values())
    pure = games_pure_modules()
    return [
        {
            "name": "A game's pure rule modules load neither Django nor the campaign app",
            "type": "forbidden",
            "source_modules": pure,
            "forbidden_modules": ["django", "campaign", "courier"],
        },
        facade_contract(packages),
        {
            "name": "The campaign app and the site import no single game (rules.engine finds them)",
            "type": "forbidden",
            "source_modules": ["campaign", "courier"],
            "forbidden_modules": packages,
        },
        {
            "name": "The games import nothing of each other",
            "type": "independence",
            "modules": packages,
        },
    ]


def lint(contracts: list[dict], tmp_path: Path, *others: str) -> tuple[int, str]:
    """import-linter's verdict and report on these contracts over the platform's packages,
    the registered games' and ``others``."""
    roots = set(platform_config()["root_packages"]) | set(others)
    roots |= {r.package.split(".")[0] for r in registry().values()}
    config = tmp_path / "contracts.toml"
    config.write_text(_toml(sorted(roots), contracts))
    report = io.StringIO()
    with redirect_stdout(report), loggers_kept():
        verdict = lint_imports(config_filename=str(config), no_cache=True, no_logo=True)
    return verdict, report.getvalue()


@contextmanager
def loggers_kept():
    """Within, import-linter's command configures logging with dictConfig, which disables
    every logger that exists (disable_existing_loggers): the test process's loggers
    (campaign's, courier's) are enabled again after it, or the later tests of this worker
    that read their records would find none."""
    loggers = [
        lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger)
    ]
    kept = [(lg, lg.disabled) for lg in loggers]
    try:
        yield
    finally:
        for lg, disabled in kept:
            lg.disabled = disabled


def _toml(roots: list[str], contracts: list[dict]) -> str:
    def value(v) -> str:
        return "[" + ", ".join(f'"{item}"' for item in v) + "]" if isinstance(v, list) else f'"{v}"'

    lines = ["[tool.importlinter]", f"root_packages = {value(roots)}"]
    lines.append("include_external_packages = true")
    if platform_config().get("exclude_type_checking_imports"):
        lines.append("exclude_type_checking_imports = true")
    for contract in contracts:
        lines.append("[[tool.importlinter.contracts]]")
        lines += [f"{key} = {value(v)}" for key, v in contract.items()]
    return "\n".join(lines) + "\n"


def test_every_registered_game_keeps_its_contracts(tmp_path):
    verdict, report = lint(games_contracts(), tmp_path)
    assert verdict == 0, report
    assert f"Contracts: {len(games_contracts())} kept, 0 broken." in report


def test_a_broken_contract_is_reported(tmp_path):
    """The check above can fail: the platform does import rules.engine."""
    broken = {
        "name": "The campaign app imports no rules (false)",
        "type": "forbidden",
        "source_modules": ["campaign"],
        "forbidden_modules": ["rules.engine"],
    }
    verdict, report = lint([broken], tmp_path)
    assert verdict != 0 and "BROKEN" in report


def test_the_campaign_apps_layers_can_break(tmp_path):
    """The layers of campaign/ (pyproject.toml's contract ``LAYERS``) are kept, and upside
    down they break: play does import notify."""
    (layers,) = (c for c in platform_config()["contracts"] if c["name"] == LAYERS)
    verdict, report = lint([layers], tmp_path)
    assert verdict == 0, report
    upside_down = {**layers, "layers": layers["layers"][::-1]}
    verdict, report = lint([upside_down], tmp_path)
    assert verdict != 0 and "campaign.play is not allowed to import campaign.notify" in report


def test_a_game_that_imports_the_platform_past_its_facade_breaks_its_contract(
    tmp_path, monkeypatch
):
    """The facade contract can fail: a game importing a campaign module, or a Django
    module of rules/, itself; what it imports through the facade is kept."""
    game = tmp_path / "stray_game"
    (game / "migrations").mkdir(parents=True)
    (game / "__init__.py").write_text("")
    (game / "migrations" / "__init__.py").write_text("")
    (game / "migrations" / "0001_initial.py").write_text("from campaign.models import Area\n")
    (game / "services.py").write_text("from campaign.state.persistence import Loaded\n")
    (game / "forms.py").write_text("from rules.forms import BaseOrderForm\n")
    (game / "hooks.py").write_text(
        "from rules.engine import Hooks\nfrom rules.platform import Area\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    verdict, report = lint([facade_contract(["stray_game"])], tmp_path, "stray_game")
    assert verdict != 0 and "BROKEN" in report
    assert "stray_game.services -> campaign.state.persistence" in report
    assert "stray_game.forms -> rules.forms" in report
    assert "stray_game.hooks" not in report and "stray_game.migrations" not in report


def test_each_game_declares_its_pure_modules():
    for ruleset in registry().values():
        assert "procedures" in ruleset.pure_modules, ruleset.key


def test_pyproject_names_no_game():
    text = PYPROJECT.read_text()
    for ruleset in registry().values():
        assert ruleset.package not in text, ruleset.package
    assert "tests" not in platform_config()["root_packages"]
