"""The logs the rules page shows (rules/<ruleset>/corpus/logs.json, which
tests/corpus/logs.py writes) are the engine's lines as it writes them now, and read in
English as each case's ``log`` says, word for word."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from rules import corpus
from rules.translation import render
from tests.corpus import logs


@pytest.mark.parametrize("ruleset", list(logs.ADAPTERS))
def test_the_stored_logs_are_what_the_engine_writes_now(ruleset):
    stored = logs.path(ruleset).read_text(encoding="utf-8")
    assert json.loads(stored) == json.loads(logs.text(ruleset)), (
        "run `DJANGO_DEBUG=1 .venv/bin/python -m tests.corpus.logs`"
    )


@pytest.mark.parametrize("ruleset", list(logs.ADAPTERS))
def test_the_stored_logs_read_in_english_as_the_cases_say(ruleset):
    stored = corpus.logs(ruleset)
    with translation.override(None):  # the msgids: the rules' own English
        for found in corpus.cases(ruleset).values():
            for case in found:
                lines = [f"{rule} {render(message)}" for rule, message in stored[case["id"]]]
                assert lines == case["log"], case["id"]
