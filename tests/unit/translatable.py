"""The check every ruleset's log test makes of a log sentence."""

import json

from django.utils import translation

from rules.text import Text
from rules.translation import render


def assert_translatable(text) -> None:
    """A Text whose message survives JSON and renders to its English (and to some text
    in another language)."""
    assert isinstance(text, Text), repr(text)
    message = json.loads(json.dumps(text.message()))
    with translation.override("en"):
        assert render(message) == str(text)
    with translation.override("el"):
        assert isinstance(render(message), str)


def assert_log_translatable(log: list) -> None:
    """Every sentence of a World's log, its rolls' parts included, is translatable."""
    assert log, "nothing was written to the log"
    for line in log:
        assert_translatable(line.text)
        if line.redacted:
            assert_translatable(line.redacted)
        if line.roll is not None:
            report = line.roll
            for part in (report.purpose, report.outcome, report.text):
                assert_translatable(part)
            if report.comparison:
                assert_translatable(report.comparison)
            for modifier in report.roll.modifiers:
                assert_translatable(modifier.label)
