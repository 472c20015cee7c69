"""A game is one folder: the tests' own game (registered by tests/settings.py alone) is
named nowhere in the platform, so removing its folder and its settings line leaves no
trace of it."""

from __future__ import annotations

import re
from pathlib import Path

from rules.engine import registry, shipped_packages

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = ("campaign", "courier", "rules", "templates", "static", "locale", "pyproject.toml")
BINARY = {".png", ".ico", ".woff2", ".mo", ".pyc", ".jar", ".gz"}


def platform_files() -> list[Path]:
    found = []
    for place in map(ROOT.joinpath, PLATFORM):
        paths = [place] if place.is_file() else place.rglob("*")
        found += [p for p in paths if p.is_file() and p.suffix not in BINARY]
    return found


def traces(package: str, key: str, name: str) -> list[str]:
    """Where the platform names this game: its package, its folder, its key or its name."""
    words = (package, package.replace(".", "/"), key, name)
    pattern = re.compile("|".join(rf"\b{re.escape(w)}\b" for w in words), re.IGNORECASE)
    return [
        f"{path.relative_to(ROOT)}:{number}"
        for path in platform_files()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if pattern.search(line)
    ]


def test_the_tests_game_is_named_nowhere_in_the_platform():
    shipped = set(shipped_packages())
    added = [r for r in registry().values() if r.package not in shipped]
    assert added, "the tests' settings register a game of their own"
    for ruleset in added:
        assert traces(ruleset.package, ruleset.key, str(ruleset.name)) == [], ruleset.key


def test_the_search_finds_a_shipped_game():
    """The search above can fail: a shipped game is named in the platform's settings."""
    ruleset = next(r for r in registry().values() if r.package in shipped_packages())
    assert traces(ruleset.package, ruleset.key, str(ruleset.name))
