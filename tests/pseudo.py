"""A pseudo-locale: a test-only language whose catalog turns every message into a
visibly different one, so that a page read in it shows at a glance (and to a test) any
text that did not come through the catalogs.

The language (``en-xa``, the usual code of accented English) has no .po file: its
catalog is made at run time from the messages themselves. ``installed()`` puts a
translation object for it into Django's translation machinery; the object answers
every gettext, ngettext, pgettext and npgettext (the project's catalogs, Django's own,
the log's stored sentences as rules/translation.py renders them) with the English
message wrapped in ⟦…⟧ and its letters accented (``Log out`` → ``⟦Ĺóğ óúţ⟧``). The
placeholders (``%(power)s``, ``{name}``), HTML tags and entities inside a message are
kept as they are, so a message still formats; what a placeholder receives is not
accented, so a parameter that should have been translated shows as plain letters inside
the markers.

Why not a language of settings.LANGUAGES: the users' Profile offers those as its
choices, and a test-only one would change the migration state (and every page's
language switcher). Django knows ``en-xa`` anyway: ``check_for_language`` finds it
through ``en``'s catalog, and ``get_language_info`` falls back to ``en``'s; a session
may hold it. Only a browser asking for it (Accept-Language) gets English instead, as for
any language the site does not list: a test that needs that adds it to LANGUAGES for
its run (``NAME``).

``escapes(text, allowed)`` is the other half: the parts of a text that contain a letter
that is not an accented one, once the ``allowed`` values (data a person typed or
chose, which no catalog holds) are taken out.
"""

from __future__ import annotations

import gettext as gettext_module
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser

from django.utils.translation import trans_real

CODE = "en-xa"
NAME = "English (accented)"  # its name in a list of languages
OPEN, CLOSE = "⟦", "⟧"
PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ACCENTED = "áƀçđéƒğĥíĵķĺɱñóƥǫŕšţúṽŵẋýžÁƁÇĐÉƑĞĤÍĴĶĹṀÑÓƤǪŔŠŢÚṼŴẊÝŽ"
ACCENT = str.maketrans(PLAIN, ACCENTED)
PSEUDO_LETTERS = frozenset(ACCENTED)
# What a message keeps as it is: a %-placeholder, a {}-placeholder, an HTML tag or entity.
KEPT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]|\{[^{}]*\}|<[^>]*>|&#?\w+;")
CONTEXT = "\x04"  # how Django joins a pgettext context to its message


def pseudo(message: str) -> str:
    """``message`` in the pseudo-locale: wrapped in markers, its own letters accented."""
    if CONTEXT in message:
        message = message.split(CONTEXT, 1)[1]
    out, end = [], 0
    for kept in KEPT.finditer(message):
        out += [message[end : kept.start()].translate(ACCENT), kept.group()]
        end = kept.end()
    out.append(message[end:].translate(ACCENT))
    return OPEN + "".join(out) + CLOSE


class PseudoTranslation(gettext_module.NullTranslations):
    """The pseudo-locale's catalog: every message, translated by ``pseudo``."""

    def gettext(self, message):
        return pseudo(message)

    def ngettext(self, singular, plural, n):
        return pseudo(singular if n == 1 else plural)

    def pgettext(self, context, message):
        return pseudo(message)

    def npgettext(self, context, singular, plural, n):
        return pseudo(singular if n == 1 else plural)

    def language(self):
        return CODE

    def to_language(self):
        return CODE


@contextmanager
def installed() -> Iterator[None]:
    """Django's translation machinery with the pseudo-locale's catalog in it (in front
    of its cache of catalogs, which a change of settings empties)."""
    catalog, original = PseudoTranslation(), trans_real.translation

    def translation(language):
        return catalog if language == CODE else original(language)

    trans_real.translation = translation
    try:
        yield
    finally:
        trans_real.translation = original


def allowing(values: Iterable[str]) -> re.Pattern:
    """One pattern matching any of ``values`` whole (the longest first)."""
    ordered = sorted({v for v in values if v}, key=len, reverse=True)
    alternatives = "|".join(map(re.escape, ordered)) or "(?!)"
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


def escapes(text: str, *allowed: re.Pattern) -> list[str]:
    """The whitespace-separated stretches of ``text`` holding a letter no catalog wrote,
    once what the ``allowed`` patterns (see ``allowing``) match is taken out, in their
    order: a whole (a link) before a part it may hold (a code such as "D3" in a token)."""
    for pattern in allowed:
        text = pattern.sub(" ", text)
    return [word for word in text.split() if any(is_foreign(c) for c in word)]


def is_foreign(char: str) -> bool:
    """A letter the pseudo-locale's catalog did not write."""
    return char.isalpha() and char not in PSEUDO_LETTERS


# -- what a page shows ------------------------------------------------------------------

SHOWN_ATTRIBUTES = frozenset(
    {
        "title",
        "placeholder",
        "aria-label",
        "aria-description",
        "aria-roledescription",
        "aria-valuetext",
        "alt",
        "label",
        "hx-confirm",
        "data-hx-confirm",
        "data-confirm",
    }
)
BUTTON_INPUTS = frozenset({"submit", "button", "reset"})
UNSHOWN = frozenset({"script", "style"})
# Code a person reads as it is, in no language: a dice context, a script, a data path.
CODE_ELEMENTS = frozenset({"code", "pre", "kbd", "samp"})
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


class _Shown(HTMLParser):
    """The page's words, without its code and without what an element declares to be in
    another language than the page's (``lang``: a quotation in the rulebook's language)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.page_language: str | None = None
        self.open: list[tuple[str, bool]] = []  # the open elements: (tag, hides its words)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.page_language = (attrs.get("lang") or "").lower()
        if tag not in VOID:
            self.open.append((tag, self.hides(tag, attrs)))
        if self.hidden:
            return
        self.parts += [v for k, v in attrs.items() if k in SHOWN_ATTRIBUTES and v]
        if tag == "input" and attrs.get("type") in BUTTON_INPUTS and attrs.get("value"):
            self.parts.append(attrs["value"])

    def hides(self, tag: str, attrs: dict) -> bool:
        language = (attrs.get("lang") or "").lower()
        foreign = bool(language) and self.page_language is not None
        return tag in UNSHOWN | CODE_ELEMENTS or (foreign and language != self.page_language)

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return

    @property
    def hidden(self) -> bool:
        return any(hides for _, hides in self.open)

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.parts.append(data)


def shown(html: str) -> list[str]:
    """What a person reads of a page in its language: its text and the attributes a
    browser shows (a title, a placeholder, an accessible name, a confirmation, a button
    input's value), not its code nor what declares another language."""
    parser = _Shown()
    parser.feed(html)
    parser.close()
    return parser.parts
