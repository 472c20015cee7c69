"""Log sentences (rules/text.py) in the active language, and words the catalogs hold
as Texts: the Django side of rules/text.py, which the pure procedures do not import.

A translation may ask for a place in a grammatical case ("в %(area)s{prep}" or
"%(area)s{in}": rules/declension.py); a numbered unit ("1st Corps") is said with its
noun's pattern and its number in the reader's language (``named``)."""

from __future__ import annotations

import re
from typing import Any

from django.utils import translation
from django.utils.translation import get_language, gettext, ngettext

from rules.declension import with_cases
from rules.text import Text, is_message, message_of


def Term(value: Any) -> Text:  # noqa: N802
    """A word or phrase the catalogs already hold (a gettext_lazy value, e.g. a phase's
    name) as a Text: its English source is its msgid."""
    with translation.override(None):
        return Text(str(value))


class Name(Text):
    """A word of a scenario that people read (a power's or an area's name): kept as the
    scenario gives it (its value, what is stored and compared), a Text whose msgid is
    itself in a log sentence, and shown in the active language wherever it is made a
    str (``%`` formatting, templates, form choices) when the catalogs hold it (each
    ruleset's names.py lists its scenarios' words)."""

    def __new__(cls, word: str) -> Name:
        return cls._make(word, "", {}, word)

    def __str__(self) -> str:
        return named(self.msgid) if self.msgid else ""

    def __reduce__(self):
        return Name, (self.msgid,)


# A numbered unit's name: "1st Corps", "IV Corps" (the number, then the noun)
NUMBERED = re.compile(r"(?:(?P<n>\d+)(?P<suffix>st|nd|rd|th)|(?P<roman>[IVXLC]+)) (?P<noun>.+)")
ORDINAL_SUFFIXES = {  # the English ordinals, translated with their number
    "st": Text("%(n)sst"),
    "nd": Text("%(n)snd"),
    "rd": Text("%(n)srd"),
    "th": Text("%(n)sth"),
}


def named(word: str) -> str:
    """A scenario's word in the active language: the catalogs' translation, else for a
    numbered unit ("1st Corps") the catalogs' "%(number)s Corps" with the number (its
    ordinal translated: "1-й корпус"), else the word as it is."""
    shown = gettext(word)
    return shown if shown != word else numbered(word) or word


def numbered(word: str) -> str | None:
    """A numbered unit's name made from the catalogs' pattern for its noun; None when the
    word is not numbered or the catalogs lack the pattern."""
    match = NUMBERED.fullmatch(word)
    if not match:
        return None
    pattern = "%(number)s " + match["noun"]
    template = gettext(pattern)
    if template == pattern:
        return None
    number = match["roman"] or gettext(ORDINAL_SUFFIXES[match["suffix"]].msgid) % {"n": match["n"]}
    return template % {"number": number}


def localized(text: Any) -> str:
    """A Text in the active language; any other value as its str."""
    message = message_of(text)
    return render(message, str(text)) if message else str(text)


FORMAT_ERRORS = (KeyError, ValueError, TypeError)


def render(message: dict, english: str = "") -> str:
    """A stored message in the active language (its English where a catalog lacks it, or
    where a translation names other parameters than the message holds); ``english``, the
    sentence as stored, where the message itself cannot be made (a parameter missing)."""
    try:
        return _made(message)
    except FORMAT_ERRORS:
        return english


def _made(message: dict) -> str:
    params = {k: _made(v) if is_message(v) else v for k, v in message.get("params", {}).items()}
    if not message["id"]:  # gettext("") is the catalog's header
        return ""
    if message.get("plural"):
        english = message["id"] if params["count"] == 1 else message["plural"]
        template = ngettext(message["id"], message["plural"], int(params["count"]))
    else:
        english = message["id"]
        template = named(english) if not params else gettext(english)
    if not params:
        return template
    try:
        return str.__mod__(*with_cases(template, params, get_language()))
    except FORMAT_ERRORS:
        return english % params
