"""Joined log sentences (rules/text.py ``Join``): each part in the reader's language, and
the clauses' separator too, where a language writes it otherwise (Greek's ";" is its
question mark)."""

from django.utils import translation

from rules.text import CLAUSES, Join, Text
from rules.translation import localized

HIT, MISS = Text("2 hits"), Text("1 miss")


def test_clauses_read_in_english_as_written():
    joined = Join(HIT, MISS, sep=CLAUSES)
    assert joined == "2 hits; 1 miss"
    assert localized(joined) == "2 hits; 1 miss"


def test_greek_separates_clauses_with_its_ano_teleia():
    with translation.override("el"):
        greek = localized(Join(Text("Log out"), Text("Log out"), sep=CLAUSES))
    assert ";" not in greek and "· " in greek
    with translation.override("ru"):
        assert "; " in localized(Join(Text("Log out"), Text("Log out"), sep=CLAUSES))


def test_a_plain_separator_is_kept_as_it_is():
    with translation.override("el"):
        assert localized(Join("a", "b", sep=" → ")) == "a → b"
