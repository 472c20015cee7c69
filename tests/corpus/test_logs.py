"""The logs the rules page shows (rules/<ruleset>/corpus/logs.json, which
tests/corpus/logs.py writes) are the engine's lines as it writes them now, and read in
English as each case's ``log`` says, word for word."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from rules import corpus
from rules.text import is_message
from rules.translation import render
from tests.corpus import logs

RULESETS = list(logs.adapters())  # those with a corpus


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_stored_logs_are_what_the_engine_writes_now(ruleset):
    stored = logs.path(ruleset).read_text(encoding="utf-8")
    assert json.loads(stored) == json.loads(logs.text(ruleset)), (
        "run `DJANGO_DEBUG=1 .venv/bin/python -m tests.corpus.logs`"
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_stored_logs_read_in_english_as_the_cases_say(ruleset):
    stored = corpus.logs(ruleset)
    with translation.override(None):  # the msgids: the rules' own English
        for found in corpus.cases(ruleset).values():
            for case in found:
                lines = [f"{rule} {render(message)}" for rule, message in stored[case["id"]]]
                assert lines == case["log"], case["id"]


# The parameters of the corpus's log sentences that are values, not words: the rules page
# shows them as code (campaign/views/pages.py log_html). A word stored as a plain value
# would stay in English in every language: it must be a message (a Text, a Name, a Join).
VALUES = {
    ("%(block)s (%(rating)s, %(dice)s)", "rating"),
    ("Garrison of %(territory)s (%(rating)s, %(dice)s)", "rating"),
    ("there is no territory “%(key)s”", "key"),
    ("%(area)s is not an area of the map.", "area"),
    ("There is no religious struggle zone “%(zone)s”.", "zone"),
}


def lettered_values(message: dict) -> set[tuple[str, str]]:
    """(msgid, parameter) of each parameter of ``message``, at any depth, that is a
    value holding letters rather than a message."""
    found = set()
    for key, value in message["params"].items():
        if is_message(value):
            found |= lettered_values(value)
        elif isinstance(value, str) and any(char.isalpha() for char in value):
            found.add((message["id"], key))
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_word_of_a_stored_log_is_a_message(ruleset):
    found = set()
    for log in corpus.logs(ruleset).values():
        for _, message in log:
            found |= lettered_values(message)
    assert found - VALUES == set()
