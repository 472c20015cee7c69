"""The adjudication corpus (rules/<ruleset>/corpus/, described in tests/corpus/README.md):
every case run through the rules' public functions by its ruleset's adapter."""

from __future__ import annotations

import re

import pytest

from rules import corpus
from tests.corpus.logs import ADAPTERS, run

PROCEDURES = {"empires_in_arms": "EIA", "pax_baltica": "GNW", "virgin_queen": "VQ"}
COUNTS = {"empires_in_arms": 12, "pax_baltica": 13, "virgin_queen": 3}
MINIMUM = 5  # cases per procedure
CASES = [
    pytest.param(ruleset, case, id=case["id"])
    for ruleset in ADAPTERS
    for found in corpus.cases(ruleset).values()
    for case in found
]


@pytest.mark.parametrize(("ruleset", "case"), CASES)
def test_case(ruleset, case):
    outcome, log = run(ruleset, case)
    assert outcome.get("dice_left", 0) == 0, "the case gives more dice than were rolled"
    got = dict(corpus.flatten(outcome))
    expected = corpus.flatten(case.get("expect", {}))
    assert [(path, got.get(path, "(missing)")) for path, _ in expected] == expected
    assert [f"{rule} {text}" for rule, text in log] == case["log"]


@pytest.mark.parametrize("ruleset", list(ADAPTERS))
def test_every_procedure_has_numbered_cited_cases(ruleset):
    found = corpus.cases(ruleset)
    prefix = PROCEDURES[ruleset]
    assert list(found) == [f"{prefix}-{n}" for n in range(1, COUNTS[ruleset] + 1)]
    for procedure, cases in found.items():
        assert len(cases) >= MINIMUM, procedure
        ids = [case["id"] for case in cases]
        assert ids == [f"{procedure}.{n:02d}" for n in range(1, len(cases) + 1)]
        for case in cases:
            assert case["title"] and case["source"] and case["log"], case["id"]
            assert re.search(r"\.md|\.txt:\d|Decision \d", case["source"]), case["id"]
