"""The GM's edit panels in the reader's language: a block's or a unit stack's kind is a
word of the catalogs, not the rules' English key ("army", "regular")."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_pb_campaign, make_vq_campaign, seat_users

pytestmark = pytest.mark.django_db


def gm_client(campaign, language: str) -> Client:
    client = Client()
    client.force_login(seat_users(campaign)["gm"])
    client.cookies["django_language"] = language
    return client


def panel(client: Client, campaign, key: str) -> str:
    url = reverse("campaign:edit_panel", args=[campaign.pk, key])
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("language", "army", "regiment", "fleet"),
    [("el", "στρατιά", "σύνταγμα", "στόλος"), ("ru", "армия", "полк", "флот")],
)
def test_pax_baltica_blocks_are_named_with_their_kind_in_the_readers_language(
    language, army, regiment, fleet
):
    campaign = make_pb_campaign()
    client = gm_client(campaign, language)
    html = panel(client, campaign, "block")
    captions = re.findall(r'<span class="caption">([^<]*)</span>', html)
    denmark = {"el": "Δανία", "ru": "Дания"}[language]  # the scenario's word, translated
    danish_fleet = {"el": "Δανικός στόλος", "ru": "Датский флот"}[language]  # so is the block's
    assert f"{danish_fleet} ({fleet}, {denmark})" in captions
    assert not [c for c in captions if re.search(r"army|regiment|fleet\)", c)]
    added = panel(client, campaign, "block_add")
    kinds = re.search(r'<select name="kind"[^>]*>(.*?)</select>', added, re.S).group(1)
    assert re.findall(r">([^<]+)</option>", kinds) == [army, regiment, fleet]


def test_virgin_queen_unit_stacks_and_powers_are_named_in_the_readers_language():
    campaign = make_vq_campaign()
    client = gm_client(campaign, "ru")
    html = panel(client, campaign, "units")
    listed = re.findall(r"<li>([^<]*)</li>", html)
    assert listed and all(re.fullmatch(r"\d+ [^A-Za-z]+ в .+", line) for line in listed), listed
    leaders = re.findall(r'<span class="caption">([^<]*)</span>', panel(client, campaign, "leader"))
    assert leaders and not [c for c in leaders if "the " in c or "Protestant" in c], leaders
    markers = panel(client, campaign, "markers")
    assert "Protestant" not in markers and "Ottoman" not in markers
    page = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert '<th scope="row">Нидерланды</th>' in page and "the Netherlands" not in page


def test_pax_baltica_order_forms_name_a_blocks_kind_in_the_readers_language():
    from tests.views.test_verify import client_for, pb_siege

    campaign, users, _ = pb_siege()  # the forage: Russia orders which blocks lose steps
    client = client_for(users["other_player"])
    client.cookies["django_language"] = "el"
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    labels = re.findall(r'<label for="id_loss_\d+">([^<]*)</label>', html)
    assert labels and all("(στρατιά, " in label or "(σύνταγμα, " in label for label in labels)
