"""A stored log message that cannot be said in the reader's language is said in
English, and one that cannot be said at all is the sentence as stored: never an error
on the page (rules/translation.py ``render``)."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules import translation as said
from rules.text import Plural, Text

WINS = Text("%(power)s wins in %(area)s", power="France", area="Tyrol")


@pytest.fixture
def broken_catalog(monkeypatch):
    """A catalog whose translator misspelt a parameter in every message."""
    monkeypatch.setattr(said, "gettext", lambda msgid: msgid.replace("%(power)s", "%(powr)s"))
    monkeypatch.setattr(
        said, "ngettext", lambda one, many, n: (one if n == 1 else many).replace("%(", "%(x")
    )


def test_a_translation_that_names_another_parameter_reads_in_english(broken_catalog):
    assert said.render(WINS.message(), "stored") == "France wins in Tyrol"
    blocks = Plural("%(count)s block", "%(count)s blocks", count=3)
    assert said.render(blocks.message(), "stored") == "3 blocks"
    assert (
        said.localized(Text("%(x)s: %(y)s", x=WINS, y=blocks)) == "France wins in Tyrol: 3 blocks"
    )


@pytest.mark.parametrize(
    "message",
    [
        {"id": "%(power)s wins in %(area)s", "params": {"power": "France"}},  # one missing
        {
            "id": "%(power)s wins",
            "params": {"power": {"id": "%(x)s", "params": {"y": 1}}},
        },  # nested
        {"id": "%(count)s block", "plural": "%(count)s blocks", "params": {"count": "x"}},
    ],
)
def test_a_message_that_cannot_be_made_is_the_sentence_as_stored(message):
    with translation.override("el"):
        assert said.render(message, "France wins in Tyrol") == "France wins in Tyrol"


def test_a_good_message_reads_in_the_reader_s_language():
    with translation.override("el"):
        greek = said.render(Text("Log out").message(), "stored")
    assert greek not in ("Log out", "stored")
