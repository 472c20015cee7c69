"""Details of the pages: the preferences' time-zone picker (every zone, grouped by region
and named by its place, in the reader's language, with a search box where scripts run),
the icon browsers ask for, and compression."""

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Profile
from campaign.time_zones import OTHER, REGIONS, TIME_ZONES, grouped_choices, place


def test_every_zone_is_offered_once_under_a_region():
    offered = [zone for _, zones in grouped_choices() for zone, _ in zones]
    assert sorted(offered) == TIME_ZONES
    groups = dict(grouped_choices())
    assert ("Europe/Athens", "Athens") in groups[REGIONS["Europe"]]
    assert ("UTC", "UTC") in groups[OTHER]
    assert place("America/Argentina/Buenos_Aires") == "Argentina / Buenos Aires"


@pytest.fixture
def client(users):
    client = Client()
    client.force_login(users["player"])
    return client


def test_the_preferences_group_the_zones_in_the_readers_language(client):
    html = client.get(reverse("campaign:preferences"), HTTP_ACCEPT_LANGUAGE="el").content.decode()
    assert '<optgroup label="Ευρώπη">' in html and '<option value="Europe/Athens">Athens' in html
    assert 'data-search="Βρείτε ζώνη ώρας"' in html


def test_a_grouped_zone_saves_and_an_unknown_one_is_refused(client, users):
    url = reverse("campaign:preferences")
    assert client.post(url, {"time_zone": "Europe/Athens"}).status_code == 302
    assert Profile.objects.get(user=users["player"]).time_zone == "Europe/Athens"
    refused = client.post(url, {"time_zone": "Mars/Olympus_Mons"})
    assert refused.status_code == 422 and "Mars/Olympus_Mons" in refused.content.decode()
    assert Profile.objects.get(user=users["player"]).time_zone == "Europe/Athens"


def test_favicon_ico_leads_to_the_icon(db):
    response = Client().get("/favicon.ico")
    assert response.status_code == 301 and response.url.endswith("courier/favicon.svg")


def test_pages_are_compressed_for_a_browser_that_takes_gzip(client):
    url = reverse("campaign:preferences")
    compressed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert compressed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in compressed.headers["Vary"]
    assert "Content-Encoding" not in client.get(url).headers
