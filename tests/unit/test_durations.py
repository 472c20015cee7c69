"""How long ago and how long until (campaign/templatetags/durations.py), in each
language Courier speaks: every word from the catalogs, none left in English."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from campaign.templatetags.durations import since, until

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
SPANS = [timedelta(seconds=5), timedelta(minutes=65), timedelta(days=3), timedelta(days=400)]


@pytest.mark.parametrize("language", ["el", "ru"])
@pytest.mark.parametrize("span", SPANS, ids=str)
def test_a_span_reads_without_an_english_word(language, span, time_machine):
    time_machine.move_to(NOW, tick=False)
    with translation.override(language):
        words = f"{since(NOW - span)} {until(NOW + span)}"
    assert words.strip() and not any("a" <= c.lower() <= "z" for c in words), words


@pytest.mark.parametrize(
    "language, span, expected",
    [
        ("en", timedelta(minutes=65), "1 hour, 5 minutes"),
        ("el", timedelta(minutes=65), "1 ώρα, 5 λεπτά"),
        ("ru", timedelta(days=22), "3 недели, 1 день"),
    ],
)
def test_a_span_counts_in_the_language_s_plural_forms(language, span, expected, time_machine):
    time_machine.move_to(NOW, tick=False)
    with translation.override(language):
        assert since(NOW - span).replace("\xa0", " ") == expected  # a number keeps its word


@pytest.mark.parametrize("value", [None, "", "not a time"])
def test_no_time_reads_as_nothing(value):
    assert since(value) == "" and until(value) == ""
