"""The adjudication corpus (rules/<ruleset>/corpus/, described in tests/corpus/README.md):
every case run through the rules' public functions by its ruleset's corpus adapter, and
every procedure of the ruleset (Ruleset.procedures) with its numbered cases."""

from __future__ import annotations

import re

import pytest

from rules import corpus
from rules.engine import registry, ruleset_for
from tests.corpus.logs import adapters, run

ADAPTERS = adapters()
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
    procedures = list(ruleset_for(ruleset).procedures)
    prefix = procedures[0].rpartition("-")[0]
    assert procedures == [f"{prefix}-{n}" for n in range(1, len(procedures) + 1)]
    assert list(found) == procedures
    for procedure, cases in found.items():
        assert len(cases) >= MINIMUM, procedure
        ids = [case["id"] for case in cases]
        assert ids == [f"{procedure}.{n:02d}" for n in range(1, len(cases) + 1)]
        for case in cases:
            assert case["title"] and case["source"] and case["log"], case["id"]
            assert re.search(r"\.md|\.txt:\d|Decision \d", case["source"]), case["id"]


def test_every_ruleset_with_a_corpus_has_an_adapter_to_run_it():
    with_corpus = {
        key for key, ruleset in registry().items() if (ruleset.folder / "corpus").is_dir()
    }
    assert set(ADAPTERS) == with_corpus
