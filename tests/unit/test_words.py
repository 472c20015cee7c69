"""Sentences fixed for issue 33 ("every word, in every language, written well"), pinned in
English, Greek and Russian: one block lays siege and several lay siege; a unit's name is
the reader's ("1-й корпус", "1ο Σώμα", "Русский галерный флот"); a phase's name that says
"phase" is not preceded by the word again; no English jargon left in a translation."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from rules.engine import package_folder
from rules.pax_baltica.names import WORDS as PAX_BALTICA_WORDS
from rules.text import Join, Plural
from rules.translation import Name, localized
from rules.virgin_queen.names import WORDS as VIRGIN_QUEEN_WORDS
from rules.virgin_queen.state import ZONE_NAMES
from tests.unit.test_catalogs import catalog_path, read_catalog

LANGUAGES = ("el", "ru")


def siege(*blocks: str) -> Plural:
    return Plural(
        "%(blocks)s lays siege to %(territory)s (1 action).",
        "%(blocks)s lay siege to %(territory)s (1 action).",
        count=len(blocks),
        blocks=Join(*(Name(block) for block in blocks), sep=", "),
        territory=Name("Kurland"),
    )


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        (
            "en",
            "Flemming lays siege to Kurland (1 action).",
            "Flemming, Paykull lay siege to Kurland (1 action).",
        ),
        (
            "el",
            "Φλέμινγκ πολιορκεί το έδαφος Κουρλάνδη (1 ενέργεια).",
            "Φλέμινγκ, Πάικουλ πολιορκούν το έδαφος Κουρλάνδη (1 ενέργεια).",
        ),
        (
            "ru",
            "Флемминг осаждает Курляндию (1 действие).",
            "Флемминг, Пайкуль осаждают Курляндию (1 действие).",
        ),
    ],
)
def test_one_block_lays_siege_and_several_lay_siege(language, one, two):
    with translation.override(language):
        assert localized(siege("Flemming")) == one
        assert localized(siege("Flemming", "Paykull")) == two


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ["1st Corps", "2nd Corps", "IV Corps", "Russian galley fleet", "Polish"]),
        ("el", ["1ο Σώμα", "2ο Σώμα", "IV Σώμα", "Ρωσικός στόλος γαλερών", "Πολωνοί"]),
        ("ru", ["1-й корпус", "2-й корпус", "IV корпус", "Русский галерный флот", "поляки"]),
    ],
)
def test_units_are_named_in_the_readers_language(language, names):
    english = ["1st Corps", "2nd Corps", "IV Corps", "Russian galley fleet", "Polish"]
    with translation.override(language):
        assert [str(Name(word)) for word in english] == names


def test_a_corps_the_gm_names_is_numbered_too_and_any_other_name_is_kept():
    with translation.override("ru"):
        assert str(Name("23rd Corps")) == "23-й корпус"
        assert str(Name("Davout")) == "Davout"


@pytest.mark.parametrize(
    ("package", "scenario", "units", "words"),
    [
        ("rules.pax_baltica", "pax-baltica-1700", "blocks", PAX_BALTICA_WORDS),
        ("rules.virgin_queen", "virgin-queen-1559", "leaders", VIRGIN_QUEEN_WORDS),
    ],
)
def test_every_unit_of_a_shipped_scenario_is_a_translated_catalog_word(
    package, scenario, units, words
):
    path = package_folder(package) / "scenarios" / f"{scenario}.json"
    data = json.loads(path.read_text())[package.rpartition(".")[2]]
    names = {unit["name"] for unit in data[units]}
    assert names - {str.__str__(word) for word in words} == set()
    for language in LANGUAGES:
        with translation.override(language):
            assert not [name for name in names if gettext(name) == name], language


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_struggle_zones_are_named_in_the_readers_language(language):
    with translation.override(language):
        assert all(localized(zone) != str.__str__(zone) for zone in ZONE_NAMES.values())


# The word "phase" right before a phase's name ("Фаза «Политическая фаза…»")
PHASE_WORD = re.compile(r"(фаз\w*|φάσ\w*)\s*[«(]?\s*(<strong>)?%\(phase\)s", re.IGNORECASE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_phase_name_is_preceded_by_the_word_phase(language):
    path = catalog_path(settings.LOCALE_PATHS[0], language)
    doubled = [
        text
        for entry in read_catalog(path)
        for text in entry.translations
        if PHASE_WORD.search(text)
    ]
    assert not doubled


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "<strong>%(phase)s</strong> is open"),
        ("el", "<strong>%(phase)s</strong>: ανοιχτή"),
        ("ru", "<strong>%(phase)s</strong>: открыто"),
    ],
)
def test_an_open_phase_is_said_once(language, line):
    with translation.override(language):
        assert gettext("<strong>%(phase)s</strong> is open") == line


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_jargon_is_left_in_a_translation(language):
    path = catalog_path(settings.LOCALE_PATHS[0], language)
    left = [
        text
        for entry in read_catalog(path)
        for text in entry.translations
        if re.search(r"\bgunboat\b|\bhook\b", text)
    ]
    assert not left


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "1 guerrilla factor of Spain moves from Catalonia to Aragon"),
        (
            "el",
            "1 μονάδα ανταρτών (Ισπανία) κινείται από την περιοχή Καταλονία στην περιοχή Αραγωνία",
        ),
        ("ru", "Испания: 1 фактор партизан перемещается из области Каталония в область Арагон"),
    ],
)
def test_one_guerrilla_factor_moves(language, line):
    text = Plural(
        "%(count)s guerrilla factor of %(power)s moves from %(here)s to %(there)s",
        "%(count)s guerrilla factors of %(power)s move from %(here)s to %(there)s",
        count=1,
        power=Name("Spain"),
        here=Name("Catalonia"),
        there=Name("Aragon"),
    )
    with translation.override(language):
        assert localized(text) == line
