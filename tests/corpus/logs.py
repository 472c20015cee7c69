"""Each case's log as the app stores it, beside the case (rules/<ruleset>/corpus/logs.json):
{case id: [[rule, message], …]}, the message a Text's stored form (rules/text.py, as
campaign/state/persistence.py writes a log line), so that the rules page shows the log in the
reader's language. Each ruleset's corpus adapter (``Ruleset.corpus_adapter``) runs its
cases and the file is written from the lines the engine wrote; tests/corpus/test_logs.py
fails when it is out of date.

    DJANGO_DEBUG=1 .venv/bin/python -m tests.corpus.logs      # after changing a case
"""

from __future__ import annotations

import json
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from rules import corpus
from rules.engine import registry
from rules.text import message_of


def adapters() -> dict[str, ModuleType]:
    """{ruleset key: its corpus adapter} of every installed ruleset that has a corpus."""
    return {
        key: import_module(f"{ruleset.package}.{ruleset.corpus_adapter}")
        for key, ruleset in registry().items()
        if ruleset.corpus_adapter
    }


def path(ruleset: str) -> Path:
    return corpus.corpus_dir(ruleset) / "logs.json"


def run(ruleset: str, case: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    """The case run by its ruleset's adapter: (outcome, log as (rule, text) pairs)."""
    return adapters()[ruleset].run(case, corpus.board(ruleset))


def written(ruleset: str) -> dict[str, list[list]]:
    """Every case's log as the engine writes it now, each line [rule, message]."""
    return {
        case["id"]: [[rule, message_of(text)] for rule, text in run(ruleset, case)[1]]
        for found in corpus.cases(ruleset).values()
        for case in found
    }


def text(ruleset: str) -> str:
    """The contents of the ruleset's logs.json: a case a block, a log line a line."""
    cases = [
        f"{json.dumps(case)}: [\n" + ",\n".join(f"  {dumped(line)}" for line in log) + "\n ]"
        for case, log in written(ruleset).items()
    ]
    return "{\n " + ",\n ".join(cases) + "\n}\n"


def dumped(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def main() -> None:
    import os

    import django

    # The names of the corpus map are rules.translation.Name, which reads the catalogs.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "courier.settings")
    django.setup()
    for ruleset in adapters():
        path(ruleset).write_text(text(ruleset), encoding="utf-8")


if __name__ == "__main__":
    main()
