"""Place names in the grammatical case a translated sentence asks for.

English says "in Holland" and "from Holland"; Russian says "в Голландии" and "из
Голландии", and the nominative the catalogs translate the name to ("Голландия") would
be wrong there. A translation names the case it needs right after the parameter, in
braces:

    msgid  "%(power)s corps %(name)s placed in %(area)s"
    msgstr "%(power)s: корпус %(name)s размещён %(area)s{in}"

The log's renderer (rules/translation.py) replaces ``%(area)s{in}`` by the place in that
form, read from the language's table (``FORMS``, one module per language:
rules/declension_ru.py) by the name as the catalogs translate it. The forms are the cases
``gen``, ``dat``, ``acc`` and ``prep``, and three phrases with their preposition, which
varies with the word: ``in`` ("в Голландии", "во Франции", "на Крите"), ``to`` ("в
Голландию", "на Крит") and ``from`` ("из Голландии", "с Крита"), capitalised (``In``)
to begin a sentence ("В Голландии"). The parameter itself stays in the translation, so
``msgfmt --check-format`` still finds every parameter of the msgid.

A word the table lacks (a name typed by the GM, a list of names) is left in the
nominative: ``in`` and ``from`` then put the plain preposition before it. This module
imports no Django; tests/unit/test_russian_cases.py checks every place name of every
shipped scenario has its forms.
"""

from __future__ import annotations

import re

from rules import declension_ru

CASES = ("gen", "dat", "acc", "prep")  # the order of each table's forms
PHRASES = ("in", "to", "from")
FORMS = (*CASES, *PHRASES, "In", "To", "From")  # a capital: the phrase begins a sentence
MARKED = re.compile(r"%\((\w+)\)s\{(" + "|".join(FORMS) + r")\}")


def _russian(word: str, case: str) -> str:
    """``word`` in ``case``: a form of declension_ru.FORMS, or a phrase with the
    preposition the word takes; the nominative where the table lacks it."""
    on = word in declension_ru.ON
    if case in ("in", "to"):  # where (prepositional) and whither (accusative)
        preposition = "на" if on else "во" if VO.match(word) else "в"
        return f"{preposition} {_russian(word, 'prep' if case == 'in' else 'acc')}"
    if case == "from":
        return f"{'с' if on else 'из'} {_russian(word, 'gen')}"
    forms = declension_ru.FORMS.get(word)
    return forms[CASES.index(case)] if forms else word


VO = re.compile(r"[ВвФф][бвгджзклмнпрстфхцчшщ]")  # "во Франции", but "в Вестфалии"
LANGUAGES = {"ru": _russian}  # a language without its function keeps every word as it is


def declined(word: str, case: str, language: str) -> str:
    """``word`` (a name in ``language``'s nominative) in ``case``; as it is in a language
    without a table."""
    decline = LANGUAGES.get((language or "").split("-")[0])
    return decline(word, case) if decline else word


def with_cases(template: str, params: dict, language: str) -> tuple[str, dict]:
    """The template and parameters with each ``%(key)s{case}`` of the template made a
    parameter of its own holding the declined word (see the module docstring)."""
    if "{" not in template:
        return template, params
    params = dict(params)

    def marked(match: re.Match) -> str:
        key, case = match.groups()
        word = declined(str(params[key]), case.lower(), language)
        params[f"{key}:{case}"] = word[:1].upper() + word[1:] if case[0].isupper() else word
        return f"%({key}:{case})s"

    return MARKED.sub(marked, template), params
