"""How much of each rules page (/rules/<ruleset>/) is left in English on a Greek or
Russian page: the page's visible lines that hold Latin-script words.

    python bench/rules_page_words.py                          # the figures
    python bench/rules_page_words.py --show 40                # and 40 English lines each
    python bench/rules_page_words.py --locale-dir /tmp/loc    # with other catalogs

Each page is rendered with Django's test client (no database, no server), with the
language cookie set to the language. A *line* is a line of the page's visible text:

- the <head>, <script>, <style> and <svg> elements are dropped;
- what may stay in another language is dropped with its element: a <code> element (a
  rule's data path such as ``powers.france.zone``, a case's source, a key or code the
  page shows as data) and a <q> element with a lang attribute (a quotation of a seed,
  in the seed's language); but a <code> element that holds ``path = value`` (how the
  page wrote a case's values before issue 33: ``powers.france.zone = Dominant``) keeps
  its `` = value``, which is shown to the reader as a value, not as a path;
- an inline tag (``INLINE``: a link, <code>, <q>, <em> …) is a space, and every other
  tag ends a line (so a list item, a term, a paragraph are lines of their own);
  entities are unescaped, and each line is stripped; empty lines are not counted.

A line is *English* when, after rule ids (``EIA-1``, ``GNW-12.03``, ``VQ-2``) and the
terms the catalogs keep in Latin letters on purpose (``KEPT``: "GM", Pax Baltica's "RP"
and "FP", Virgin Queen's "CP" in Greek, dice as "d6", the Roman numerals of a ruler,
"Courier" and the games' names) are taken out, it still holds a word of two or more
Latin letters (``[A-Za-z]{2,}``).

The figures are given for the whole page and for its adjudication cases alone (the
lines inside a ``<details class="corpus">``).

With --locale-dir, the catalogs of that folder (LOCALE_PATHS) are used instead of the
project's locale/: a copy of locale/ with a fragment merged in and compiled, to see a
translation's effect before it is merged.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from collections import Counter
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.conf import settings  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402

RULESETS = ("empires_in_arms", "pax_baltica", "virgin_queen")
LANGUAGES = ("el", "ru")

PATH_AND_VALUE = re.compile(r"<code>[^<=]*?( = [^<]*)</code>")
DROPPED = re.compile(
    r"<(head|script|style|svg|code)\b.*?</\1>|<q\b[^>]*\blang=[^>]*>.*?</q>", re.S | re.I
)
INLINE = re.compile(r"</?(?:a|abbr|b|code|em|i|q|small|span|strong|time)\b[^>]*>", re.I)
TAG = re.compile(r"<[^>]+>")
RULE_ID = re.compile(r"\b[A-Z]{2,4}-\d+(?:\.\d+)?\b")
KEPT = re.compile(
    r"\b(?:GM|RP|FP|CP|Courier|Empires in Arms|Pax Baltica|Virgin Queen|\d*d\d+|[IVX]+)\b"
)
CASES = re.compile(r'<details class="corpus">.*?</details>', re.S)
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def visible_lines(page: str) -> list[str]:
    """The page's visible lines, as the docstring defines them."""
    text = TAG.sub("\n", INLINE.sub(" ", DROPPED.sub(" ", PATH_AND_VALUE.sub(r"\1", page))))
    lines = (html.unescape(line).strip() for line in text.splitlines())
    return [line for line in lines if line]


def is_english(line: str) -> bool:
    return bool(LATIN_WORD.search(KEPT.sub(" ", RULE_ID.sub(" ", line))))


def rules_page(ruleset: str, language: str, client: Client | None = None) -> str:
    client = client or Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("campaign:rules", args=[ruleset]))
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def english_lines(ruleset: str, language: str, cases: bool = False) -> tuple[list[str], int]:
    """The English lines of the page (of its cases alone with ``cases``), and how many
    lines it (they) has."""
    page = rules_page(ruleset, language)
    lines = visible_lines("\n".join(CASES.findall(page)) if cases else page)
    return [line for line in lines if is_english(line)], len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locale-dir", type=Path, help="catalogs to use instead of locale/")
    parser.add_argument("--show", type=int, default=0, help="print N English lines each")
    parser.add_argument("--ruleset", action="append", choices=RULESETS)
    parser.add_argument("--language", action="append", choices=LANGUAGES)
    args = parser.parse_args()
    paths = [args.locale_dir.resolve()] if args.locale_dir else settings.LOCALE_PATHS
    with override_settings(LOCALE_PATHS=paths, ALLOWED_HOSTS=["testserver"]):
        for ruleset in args.ruleset or RULESETS:
            for language in args.language or LANGUAGES:
                english, total = english_lines(ruleset, language)
                in_cases, of_cases = english_lines(ruleset, language, cases=True)
                print(
                    f"{ruleset:16} {language}: {len(english):5,} of {total:5,} lines English"
                    f" (in the cases {len(in_cases):5,} of {of_cases:5,})"
                )
                for line, count in Counter(english).most_common(args.show):
                    print(f"    {count:3} × {line[:150]}")


if __name__ == "__main__":
    main()
