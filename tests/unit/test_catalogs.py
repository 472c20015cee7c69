"""The Greek and Russian catalogs: every message translated, none fuzzy, none missing.

The catalogs are made with
``manage.py makemessages -l el -l ru --ignore=.venv --ignore=bench --ignore=tests``
and must be run again whenever a translatable string changes; the second test fails
until they are. It needs GNU gettext (skipped without it, a failure under
COURIER_NO_SKIPS=1).
"""

from __future__ import annotations

import ast
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from rules.declension import MARKED

LANGUAGES = ("el", "ru")
IGNORED = [".venv", "bench", "tests"]
GETTEXT_TOOLS = ("xgettext", "msgmerge", "msguniq", "msgattrib")


@dataclass
class Entry:
    """One message of a .po file."""

    fields: dict[str, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    references: list[str] = field(default_factory=list)  # "path:line" of its source

    @property
    def key(self) -> tuple[str, str, str]:
        return (
            self.fields.get("msgctxt", ""),
            self.fields.get("msgid", ""),
            self.fields.get("msgid_plural", ""),
        )

    @property
    def translations(self) -> list[str]:
        return [text for name, text in self.fields.items() if name.startswith("msgstr")]


def read_catalog(path: Path) -> list[Entry]:
    """The live entries of a .po file (obsolete ``#~`` ones left out), header included."""
    entries, entry, current = [], Entry(), None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry.fields:
                entries.append(entry)
            entry, current = Entry(), None
        elif line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#:"):
            entry.references += line[2:].split()
        elif line.startswith('"'):
            entry.fields[current] += ast.literal_eval(line)
        elif not line.startswith("#"):
            current, text = line.split(" ", 1)
            entry.fields[current] = ast.literal_eval(text)
    return entries


def source_tree(root: Path) -> Path:
    """Links to the checkout's files and folders but its catalogs: makemessages run there
    writes fresh catalogs under ``root`` and leaves the committed ones alone."""
    for entry in Path(settings.BASE_DIR).iterdir():
        if entry.name != "locale":
            (root / entry.name).symlink_to(entry)
    return root


def catalog_path(root: Path, language: str) -> Path:
    return root / language / "LC_MESSAGES" / "django.po"


def describe(keys) -> str:
    return "\n".join(
        f"  {msgid!r}" + (f" (context {ctx!r})" if ctx else "") for ctx, msgid, _ in keys
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    path = catalog_path(settings.LOCALE_PATHS[0], language)
    assert path.exists(), f"no catalog {path}: run makemessages (see this module's docstring)"
    messages = [e for e in read_catalog(path) if e.key != ("", "", "")]
    untranslated = [e.key for e in messages if not all(e.translations)]
    fuzzy = [e.key for e in messages if "fuzzy" in e.flags]
    assert not untranslated, (
        f"{len(untranslated)} untranslated in {path}:\n{describe(untranslated)}"
    )
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {path}:\n{describe(fuzzy)}"


# A named %-placeholder (%(power)s) or a {}-placeholder ({name}), as a message formats it;
# a case marker after a %-placeholder ("%(area)s{in}", rules/declension.py) is none
PLACEHOLDER = re.compile(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|\{[A-Za-z_][^{}]*\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_has_its_message_s_placeholders(language):
    """A translation that names a parameter the message does not pass, or drops one, would
    fail when the sentence is made (the log shows English then: rules/translation.py);
    this finds it first. A plural's singular may leave out its count ("one revolt")."""
    path = catalog_path(settings.LOCALE_PATHS[0], language)
    wrong = []
    for entry in read_catalog(path):
        wanted = set(PLACEHOLDER.findall(entry.key[1] + entry.key[2]))
        for text in entry.translations:
            found = set(PLACEHOLDER.findall(MARKED.sub(r"%(\1)s", text)))
            if found - wanted or (wanted - found and not entry.key[2]):
                wrong.append((entry.key[1], text))
    assert not wrong, f"{len(wrong)} translations in {path} with other placeholders:\n" + (
        "\n".join(f"  {msgid!r} → {text!r}" for msgid, text in wrong)
    )


# Abbreviations each language writes in its own letters, wherever they stand
ABBREVIATIONS = {"el": {"PP": "ΠΠ"}, "ru": {"PP": "ПО"}}


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_abbreviation_is_written_one_way_in_a_language(language):
    """Political points read "ΠΠ" in every Greek message, never the English "PP"."""
    path = catalog_path(settings.LOCALE_PATHS[0], language)
    mixed = [
        (e.key, english)
        for e in read_catalog(path)
        for english in ABBREVIATIONS[language]
        if any(re.search(rf"\b{english}\b", text) for text in e.translations)
    ]
    assert not mixed, f"English abbreviations in {path}: {mixed}"


def test_catalogs_hold_exactly_the_messages_of_the_source(tmp_path, settings, monkeypatch):
    missing_tools = [tool for tool in GETTEXT_TOOLS if shutil.which(tool) is None]
    if missing_tools:
        pytest.skip(f"needs GNU gettext ({', '.join(missing_tools)}): apt-get install gettext")
    committed_root = settings.LOCALE_PATHS[0]
    settings.LOCALE_PATHS = [source_tree(tmp_path) / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["el"], ignore_patterns=IGNORED, symlinks=True, verbosity=0)
    source = {e.key for e in read_catalog(catalog_path(settings.LOCALE_PATHS[0], "el"))}
    for language in LANGUAGES:
        path = catalog_path(committed_root, language)
        committed = {e.key for e in read_catalog(path)}
        missing, stale = sorted(source - committed), sorted(committed - source)
        assert not missing, f"{path} lacks {len(missing)} message(s):\n{describe(missing)}"
        assert not stale, f"{path} holds {len(stale)} message(s) no longer used:\n{describe(stale)}"
