"""How long ago and how long until (campaign/templatetags/durations.py), in each
language Courier speaks: every word from the catalogs, none left in English; under a
minute, "less than a minute", never "0 minutes"."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from campaign.templatetags.durations import since, until
from tests import pseudo

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
# (under a minute: "less than a minute", checked through the pseudo-locale below until the
# Greek and Russian catalogs translate it)
SPANS = [timedelta(seconds=95), timedelta(minutes=65), timedelta(days=3), timedelta(days=400)]


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


@pytest.mark.parametrize("seconds", [0, 1, 59])
def test_under_a_minute_is_less_than_a_minute(seconds, time_machine):
    time_machine.move_to(NOW, tick=False)
    moment = timedelta(seconds=seconds)
    assert since(NOW - moment) == "less than a minute"
    assert until(NOW + moment) == "less than a minute"
    assert f"Saved {since(NOW - moment)} ago" == "Saved less than a minute ago"


def test_a_minute_is_a_minute(time_machine):
    time_machine.move_to(NOW, tick=False)
    assert since(NOW - timedelta(seconds=60)) == "1\xa0minute"
    assert until(NOW + timedelta(seconds=61)) == "1\xa0minute"


def test_a_moment_just_ahead_of_the_clock_is_less_than_a_minute(time_machine):
    time_machine.move_to(NOW, tick=False)
    assert since(NOW + timedelta(seconds=2)) == "less than a minute"


def test_less_than_a_minute_comes_through_the_catalogs(time_machine):
    time_machine.move_to(NOW, tick=False)
    with pseudo.installed(), translation.override(pseudo.CODE):
        said = since(NOW - timedelta(seconds=5))
    assert said.startswith(pseudo.OPEN) and not pseudo.escapes(said)
