"""Russian place names in the case their sentence asks for (rules/declension.py): a
translation marks the case after the parameter ("%(area)s{in}") and the log renders the
place in that form ("в Голландии", not "в Голландия"); every place of every shipped
scenario has its forms, so that a new place cannot be forgotten."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from courier.settings import COURIER_RULESETS as SHIPPED  # the site's, not the toy
from rules import declension_ru
from rules.declension import MARKED, declined, with_cases
from rules.engine import package_folder
from rules.text import Join, Plural, Text
from rules.translation import Name, localized
from rules.virgin_queen.state import ZONE_NAMES
from tests.unit.test_catalogs import catalog_path, read_catalog


def place_names() -> set[str]:
    """The English names of every shipped scenario's areas, and Virgin Queen's zones."""
    names = {str.__str__(zone) for zone in ZONE_NAMES.values()}
    for package in SHIPPED:
        for path in (package_folder(package) / "scenarios").glob("*.json"):
            if not path.name.endswith(".map.json"):
                names |= {area["name"] for area in json.loads(path.read_text())["areas"]}
    return names


def test_every_place_of_every_ruleset_has_its_russian_forms():
    with translation.override("ru"):
        missing = {gettext(name) for name in place_names()} - declension_ru.FORMS.keys()
    assert not missing, f"add these to rules/declension_ru.py: {sorted(missing)}"


def test_every_form_has_the_four_cases():
    assert all(len(forms) == 4 and all(forms) for forms in declension_ru.FORMS.values())


@pytest.mark.parametrize(
    ("word", "case", "form"),
    [
        ("Голландия", "prep", "Голландии"),
        ("Голландия", "acc", "Голландию"),
        ("Голландия", "in", "в Голландии"),
        ("Франция", "in", "во Франции"),  # "во" before в or ф and a consonant
        ("Вестфалия", "in", "в Вестфалии"),
        ("Крит", "in", "на Крите"),  # an island
        ("Крит", "from", "с Крита"),
        ("Голландия", "from", "из Голландии"),
        ("Курляндия", "to", "в Курляндию"),
        ("Нидерланды", "in", "в Нидерландах"),
        ("Бордо", "in", "в Бордо"),  # indeclinable
        ("Атлантида", "in", "в Атлантида"),  # unknown: the nominative
    ],
)
def test_a_place_in_each_case(word, case, form):
    assert declined(word, case, "ru") == form


def test_a_language_without_cases_keeps_the_word_and_drops_the_marker():
    template, params = with_cases("in %(area)s{in}", {"area": "Holland"}, "el")
    assert template % params == "in Holland"


def test_a_capital_marker_begins_a_sentence():
    template, params = with_cases("%(area)s{In} идёт восстание", {"area": "Голландия"}, "ru")
    assert template % params == "В Голландии идёт восстание"


def _said(text: Text, language: str) -> str:
    with translation.override(language):
        return localized(text)


def test_a_corps_placed_in_a_province():
    text = Text(
        "%(power)s corps %(name)s placed in %(area)s",
        power=Name("France"),
        name=Name("1st Corps"),
        area=Name("Holland"),
    )
    assert _said(text, "ru") == "Франция: корпус 1-й корпус размещён в Голландии"
    assert _said(text, "en") == "France corps 1st Corps placed in Holland"


def test_a_corps_removed_from_an_island():
    text = Text(
        "%(power)s corps %(name)s removed from %(area)s",
        power=Name("France"),
        name=Name("IV Corps"),
        area=Name("Crete"),
    )
    assert _said(text, "ru") == "Франция: корпус IV корпус убран с Крита"


def test_a_siege_is_laid_to_the_territory_in_the_accusative():
    text = Plural(
        "%(blocks)s lays siege to %(territory)s (1 action).",
        "%(blocks)s lay siege to %(territory)s (1 action).",
        count=1,
        blocks=Join(Name("Flemming"), sep=", "),
        territory=Name("Kurland"),
    )
    assert _said(text, "ru") == "Флемминг осаждает Курляндию (1 действие)."


def test_a_fleet_cannot_enter_into_the_accusative():
    text = Text(
        "%(fleet)s cannot enter %(territory)s: it has no port.",
        fleet=Name("Russian galley fleet"),
        territory=Name("Kurland"),
    )
    assert _said(text, "ru") == "Русский галерный флот не может войти в Курляндию: там нет порта."


def _renders_as_a_log_message(reference: str) -> bool:
    """Whether the source line of a catalog reference makes a Text or a Plural (the log's
    renderer declines the marked places; gettext alone would show the marker)."""
    path, _, line = reference.rpartition(":")
    lines = (Path(settings.BASE_DIR) / path).read_text(encoding="utf-8").splitlines()
    window = "\n".join(lines[max(0, int(line) - 4) : int(line)])
    return bool(re.search(r"\b(Text|Plural)\(", window)) and not re.search(r"gettext|\b_\(", window)


def test_case_markers_are_only_in_sentences_the_log_renders():
    path = catalog_path(settings.LOCALE_PATHS[0], "ru")
    wrong = [
        (entry.key[1], reference)
        for entry in read_catalog(path)
        if any(MARKED.search(text) for text in entry.translations)
        for reference in entry.references
        if not _renders_as_a_log_message(reference)
    ]
    assert not wrong, f"a marker where gettext alone formats the message: {wrong}"
