"""The rules page lists each procedure's adjudication cases (rules/<ruleset>/corpus/)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules import corpus

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["empires_in_arms", "pax_baltica", "virgin_queen"])
def test_every_case_is_listed_under_its_procedure(client, ruleset):
    html = client.get(reverse("campaign:rules", args=[ruleset])).content.decode()
    for number, cases in corpus.cases(ruleset).items():
        procedure = html.index(f'id="{number}"')
        for case in cases:
            assert html.index(f'id="{case["id"]}"') > procedure
    assert "Every case starts from the same small map" in html


def test_a_case_shows_its_source_given_dice_choices_outcome_and_log(client):
    html = client.get(reverse("campaign:rules", args=["pax_baltica"])).content.decode()
    case = html[html.index('id="GNW-4.01"') : html.index('id="GNW-4.02"')]
    assert "The seed&#x27;s Kurland example" in case
    source = "seed great-northern-war_siege-forage-replacements-fleets.ru.txt:14-20"
    assert f"<code>{source}</code>" in case
    assert '<q lang="ru">Pyotr I, Sheremetev и Woronjetski в Kurland' in case
    assert "<code>russia.loss_order</code> = 3" in case  # the path as code, the value in words
    assert "<code>blocks.Sheremetev.strength</code> = 3" in case
    assert (
        "GNW-4 Kurland: demand 5 FP (2 armies, 1 regiment), supply 3 FP + 1 from supply "
        "trains: 5 − 4 = 1 short; Sheremetev 4 → 3"
    ) in case
    assert f"{len(corpus.cases('pax_baltica')['GNW-4'])} adjudication cases" in html


def test_a_value_in_a_log_sentence_is_shown_as_code(client):
    html = client.get(reverse("campaign:rules", args=["pax_baltica"])).content.decode()
    case = html[html.index('id="GNW-1.01"') : html.index('id="GNW-1.02"')]
    line = "GNW-1 Karl XII (<code>B3</code>, 4 dice): dice 1 2 5 6, hits on 3 or less → 2 hits"
    assert line in case


def test_a_case_reads_in_the_readers_language(client):
    url = reverse("campaign:rules", args=["pax_baltica"])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    case = html[html.index('id="GNW-4.01"') : html.index('id="GNW-4.02"')]
    assert "Пример из исходного текста с Курляндией" in case
    assert "<dt>Источник</dt>" in case
    log = case[case.index('class="case-log"') :]
    assert "GNW-4 Курляндия:" in log and "Шереметев 4 → 3" in log and "Sheremetev" not in log
