"""The rules pages' adjudication cases in the reader's language (issue 33): on a Greek or
Russian rules page, the cases' lines (titles, values, logs) are words of the catalogs,
not the corpus's English.

The lines and what makes one English are bench/rules_page_words.py's (its docstring):
visible text, without <code> (data paths, keys), the seeds' quotations (<q lang>), rule
ids and the terms the catalogs keep in Latin letters. ``LEFT`` lines may stay English
on each page: what a translation quotes of the data (a key that names nothing, e.g.
“atlantis” in "there is no territory “atlantis”") and a block's "id" in a title.

A value that is words must be a name of the corpus map or listed in the ruleset's
corpus_words.py (VALUES, PHRASES) to reach the catalogs, and each msgid needs its
translation in locale/el and locale/ru: this test fails on a page where either is
missing."""

from __future__ import annotations

import pytest

from bench.rules_page_words import LANGUAGES, RULESETS, english_lines

LEFT = 5


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_cases_of_a_rules_page_are_in_the_readers_language(ruleset, language):
    english, lines = english_lines(ruleset, language, cases=True)
    assert lines > 500
    assert len(english) <= LEFT, english
