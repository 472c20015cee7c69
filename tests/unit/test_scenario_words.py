"""The words of the shipped scenarios that people read (their names and descriptions,
their powers' and areas' names, their drawn maps' abbreviations) are listed for the
catalogs (each ruleset's names.py), so that makemessages extracts them;
rules.translation.Name shows them in the reader's language and leaves a word the
catalogs lack as the scenario gives it."""

from __future__ import annotations

import json
import pickle
from importlib import import_module

import pytest
from django.template import Context, Template
from django.utils import translation

from courier.settings import COURIER_RULESETS as SHIPPED  # the site's, not the toy
from rules.engine import package_folder
from rules.text import Text
from rules.translation import Name, localized


def shipped_words(package: str) -> set[str]:
    words = set()
    for path in (package_folder(package) / "scenarios").glob("*.json"):
        data = json.loads(path.read_text())
        if path.name.endswith(".map.json"):  # the drawn map's abbreviations
            words |= {area["label"]["text"] for area in data["areas"].values()} - {None}
            continue
        words |= {data["name"], data.get("description", "")} - {""}
        words |= {row["name"] for row in (*data["powers"], *data["areas"])}
    return words


@pytest.mark.parametrize("package", SHIPPED)
def test_every_shipped_scenario_word_is_listed_for_the_catalogs(package):
    listed = {str.__str__(word) for word in import_module(f"{package}.names").WORDS}
    assert shipped_words(package) and shipped_words(package) - listed == set()


def test_a_name_is_the_readers_word_where_it_is_shown_and_english_where_it_is_kept():
    name = Name("Sweden")
    sentence = Text("%(power)s wins", power=name)
    pattern = "%(name)s"  # as the forms format their messages
    with translation.override("ru"):
        assert str(name) == pattern % {"name": name} == f"{name}" == "Швеция"
        assert Template("{{ name }}").render(Context({"name": name})) == "Швеция"
        assert localized(sentence) == "Швеция wins"
        assert sentence == "Sweden wins"  # the log's English, whoever wrote it
        assert name == "Sweden" and json.dumps(name) == '"Sweden"'
    assert pickle.loads(pickle.dumps(name)).__class__ is Name


def test_a_word_the_catalogs_lack_stays_as_the_scenario_gives_it():
    with translation.override("el"):
        assert str(Name("Atlantis")) == "Atlantis"
        assert str(Name("")) == ""
        assert localized(Text("%(area)s", area=Name(""))) == ""
