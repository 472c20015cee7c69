"""What the rules page reads of a corpus goes through the catalogs: each ruleset's
corpus_words.py lists its cases' titles, its map's description, and the names its map
and cases give that no scenario has (names.py lists those), which the adapters hand the
World as Texts whose msgid is the name, as the log stores a scenario's."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import pytest

from rules import corpus
from rules.engine import ruleset_for
from tests.corpus.logs import adapters


def listed(module: str) -> set[str]:
    return {str.__str__(word) for word in import_module(module).WORDS}


def names(value: Any) -> set[str]:
    """Every ``name`` in a table of the corpus, at any depth."""
    if isinstance(value, dict):
        found = {value["name"]} if isinstance(value.get("name"), str) else set()
        return found.union(*(names(item) for key, item in value.items() if key != "name"))
    if isinstance(value, list):
        return set().union(*(names(item) for item in value))
    return set()


def words(ruleset: str) -> set[str]:
    """What the rules page shows of the ruleset's corpus through the catalogs."""
    cases = [case for found in corpus.cases(ruleset).values() for case in found]
    board = corpus.board(ruleset)
    given = set().union(*(names(case.get("given", {})) for case in cases))
    return {board["description"], *(case["title"] for case in cases)} | names(board) | given


@pytest.mark.parametrize("ruleset", list(adapters()))
def test_every_title_and_name_of_the_corpus_is_listed_for_the_catalogs(ruleset):
    package = ruleset_for(ruleset).package
    scenario = listed(f"{package}.names")
    own = listed(f"{package}.corpus_words")
    assert words(ruleset) - scenario - own == set()
    assert own - words(ruleset) == set(), "listed, but no longer in the corpus"
