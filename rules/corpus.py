"""The adjudication corpus: numbered cases of what each rule procedure does, as data.

Each ruleset keeps its cases in its package's ``corpus/`` (rules/<ruleset>/corpus/):
``map.toml``, the board every case starts from, and one file per procedure
(``EIA-1.toml`` …), each a list of cases: id, title, source, quote, given, dice,
choices, expect and log. The tests run them (tests/corpus, whose README describes the
format) and the rules page shows them, so both read these same files. ``logs.json``
holds each case's log as the app stores it (rule, message: rules/text.py), for the page
to show in the reader's language; tests/corpus/logs.py writes it from the engine's own
lines.

Each ruleset runs its cases through its corpus adapter (``Ruleset.corpus_adapter``, a
pure module of its package): ``run(case, board)`` builds the state from the corpus map
``board`` and the case's ``given`` (``merged``), makes the call the case's procedure
names with its ``dice`` and ``choices``, and returns (outcome, log): the outcome a nested
dict that ``expect`` is matched against, the log the lines written as (rule, text) pairs
(``lines``), the text a ``Text`` (rules/text.py) as the app stores it; ``build(data)``
is the World of a merged map. Pure: no Django.
"""

from __future__ import annotations

import copy
import json
import re
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


def merged(board: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """``given`` laid over a copy of ``board``: tables merged key by key, the rest
    replaced."""
    out = copy.deepcopy(board)
    for key, value in given.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def lines(log) -> list[tuple[str, Any]]:
    """Log lines as (rule, text) pairs."""
    return [(line.rule, line.text) for line in log]


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


@cache
def logs(ruleset: str) -> dict[str, list[tuple[str, dict]]]:
    """{case id: its log as (rule, stored message) pairs}, none for a ruleset without a
    corpus (treat as read-only)."""
    path = corpus_dir(ruleset) / "logs.json"
    found = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    return {case: [(rule, message) for rule, message in log] for case, log in found.items()}


def leaves(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """A case's part as the rules page lists it: (dotted path, leaf) pairs, like
    ``flatten`` but into lists of tables too (``units.1.power``), so that every leaf is
    a value: a number, a bool, a word, or a list of them; an empty table or list is a
    leaf of its own. A list of steps is numbered as ``flatten`` does."""
    if isinstance(value, list) and (not prefix or any(isinstance(i, dict) for i in value)):
        pairs = []
        for number, item in enumerate(value, 1):
            pairs += leaves(item, f"{prefix}.{number}" if prefix else str(number))
        return pairs
    if not isinstance(value, dict) or not value:
        return [(prefix, value)] if prefix else []
    pairs = []
    for key, item in value.items():
        pairs += leaves(item, f"{prefix}.{key}" if prefix else str(key))
    return pairs


@cache
def names(ruleset: str) -> dict[str, str]:
    """{key: name} of what the corpus map or a case's ``given`` names (a power, an
    area, a nation, a territory, a space: each table of a table with a ``name``), for
    the page to show a key that a case gives as a value by its name."""
    tables = [board(ruleset)]
    tables += [case.get("given", {}) for found in cases(ruleset).values() for case in found]
    return {
        key: item["name"]
        for given in tables
        for table in given.values()
        if isinstance(table, dict)
        for key, item in table.items()
        if isinstance(item, dict) and isinstance(item.get("name"), str)
    }


# The languages of the files a source cites, and the letters each is written in.
SOURCE_LANGUAGES = {r"\.ru\.txt\b": ("ru",), r"\.el-en\.txt\b": ("el", "en"), r"\.md\b": ("en",)}
LETTERS = {"ru": re.compile("[А-яЁё]"), "el": re.compile("[Α-ώ]"), "en": re.compile("[A-Za-z]")}


def quote_language(source: str, quote: str) -> str:
    """The language of a case's quote: of the languages of the files its source cites,
    the first whose letters the quote is written in (a Greek-English seed quotes the
    rulebook's English too); English when none is."""
    cited = [
        language
        for pattern, languages in SOURCE_LANGUAGES.items()
        if re.search(pattern, source)
        for language in languages
    ]
    return next((language for language in cited if LETTERS[language].search(quote)), "en")


def display(case: dict[str, Any], log: list[tuple[str, dict]]) -> dict[str, Any]:
    """A case as the rules page lists it: each part as (path, leaf) pairs (``leaves``),
    the quote with its language, and ``log``, its lines as stored messages."""
    parts = {part: leaves(case.get(part, {})) for part in CASE_PARTS}
    quote = case.get("quote", "")
    return {
        "id": case["id"],
        "title": case["title"],
        "source": case["source"],
        "quote": quote,
        "quote_language": quote_language(case["source"], quote),
        "dice": " ".join(str(face) for face in case.get("dice", [])),
        "log": log,
        **parts,
    }


@cache
def procedure_cases(ruleset: str) -> dict[str, list[dict[str, Any]]]:
    """{procedure number: its cases as ``display`` gives them} (treat as read-only)."""
    stored = logs(ruleset)
    return {
        number: [display(c, stored[c["id"]]) for c in found]
        for number, found in cases(ruleset).items()
    }
