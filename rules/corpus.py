"""The adjudication corpus: numbered cases of what each rule procedure does, as data.

Each ruleset keeps its cases in its package's ``corpus/`` (rules/<ruleset>/corpus/):
``map.toml``, the board every case starts from, and one file per procedure
(``EIA-1.toml`` …), each a list of cases: id, title, source, quote, given, dice,
choices, expect and log. The tests run them (tests/corpus, whose README describes the
format) and the rules page shows them, so both read these same files. Pure: no Django.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from rules.engine import folder_of

CASE_PARTS = ("given", "choices", "expect")


def corpus_dir(ruleset: str) -> Path:
    return folder_of(ruleset) / "corpus"


def _number(path: Path) -> tuple[str, int]:
    prefix, _, number = path.stem.rpartition("-")
    return prefix, int(number)


@cache
def board(ruleset: str) -> dict[str, Any]:
    """The corpus map of a ruleset (treat it as read-only: copy it to change it)."""
    path = corpus_dir(ruleset) / "map.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


@cache
def cases(ruleset: str) -> dict[str, tuple[dict[str, Any], ...]]:
    """{procedure number: its cases, in file order}, procedures in number order (treat
    the cases as read-only)."""
    found = {}
    files = [p for p in corpus_dir(ruleset).glob("*-*.toml")]
    for path in sorted(files, key=_number):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        procedure = data["procedure"]
        found[procedure] = tuple({**case, "procedure": procedure} for case in data["case"])
    return found


def flatten(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """A nested table as (dotted path, leaf value) pairs, in order; a list of steps as
    ("1", step), ("2", step) …"""
    if isinstance(value, list) and not prefix:
        return [(str(number), item) for number, item in enumerate(value, 1)]
    if not isinstance(value, dict) or not value:
        return [(prefix, value)] if prefix else []
    pairs = []
    for key, item in value.items():
        pairs += flatten(item, f"{prefix}.{key}" if prefix else str(key))
    return pairs


def shown(value: Any) -> str:
    """A given or expected value as the rules page writes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{key} {shown(item)}" for key, item in value.items()) or "—"
    if isinstance(value, list):
        return "; ".join(shown(item) for item in value) or "—"
    return str(value)


def display(case: dict[str, Any]) -> dict[str, Any]:
    """A case as the rules page lists it: each part as (path, value text) pairs."""
    parts = {part: [(k, shown(v)) for k, v in flatten(case.get(part, {}))] for part in CASE_PARTS}
    return {
        "id": case["id"],
        "title": case["title"],
        "source": case["source"],
        "quote": case.get("quote", ""),
        "dice": " ".join(str(face) for face in case.get("dice", [])),
        "log": list(case.get("log", [])),
        **parts,
    }


@cache
def procedure_cases(ruleset: str) -> dict[str, list[dict[str, Any]]]:
    """{procedure number: its cases as ``display`` gives them} (treat as read-only)."""
    return {number: [display(c) for c in found] for number, found in cases(ruleset).items()}
