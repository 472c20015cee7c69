"""The lobby shows, for each campaign it lists, its GMs (each a link to their profile),
how many of its powers' seats are taken, and its pace; in as many queries for many
campaigns as for one."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Seat
from campaign.people import lobby
from campaign.play import scheduling
from tests.factories import make_eia_campaign

pytestmark = pytest.mark.django_db
User = get_user_model()
LOBBY = reverse("campaign:lobby")


def listed(name: str, *, gms=("gm",), players=("briton",), **fields) -> Campaign:
    """A campaign in the lobby, its GMs (the first one in its GM seat, the others in new
    GM seats) and players (Great Britain's, then France's, ...)."""
    campaign = make_eia_campaign(areas=3)
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True, name=name, **fields)
    campaign.refresh_from_db()
    for n, username in enumerate(gms):
        user = User.objects.create_user(username)
        if n == 0:
            campaign.seats.filter(role="gm").update(user=user)
        else:
            Seat.objects.create(campaign=campaign, role="gm", user=user)
    powers = ["great_britain", "france", "austria"]
    for key, username in zip(powers, players, strict=False):
        seat = campaign.seats.get(power__key=key)
        seat.user = User.objects.create_user(username)
        seat.save(update_fields=["user"])
    return campaign


def facts(html: str, name: str) -> str:
    entry = html.split(f">{name}</h2>", 1)[1].split("</section>", 1)[0]
    found = entry.split('<p class="lobby-facts">', 1)[1].split("</p>", 1)[0]
    return " ".join(unescape(re.sub(r"<[^>]+>", "", found)).split())


def test_each_campaign_shows_its_gm_seats_taken_and_pace(db):
    rules = make_eia_campaign(areas=3).rules
    listed(
        "Open table",
        players=("briton", "frank"),
        deadline_hours=scheduling.pace_hours(rules, "fast"),
    )
    html = Client().get(LOBBY).content.decode()
    assert facts(html, "Open table") == (
        "GM: gm · seats taken: 2 of 7 · pace: fast: 24 h for orders, 6 h for a GM step"
    )
    assert f'<a href="{reverse("campaign:profile", args=["gm"])}">gm</a>' in html


def test_several_gms_each_link_to_their_profile(db):
    listed("Two GMs", gms=("anna", "boris"), players=())
    html = Client().get(LOBBY).content.decode()
    assert facts(html, "Two GMs").startswith("GMs: anna, boris · seats taken: 0 of 7 · ")
    for name in ("anna", "boris"):
        assert f'href="/users/{name}/">{name}</a>' in html


@pytest.mark.parametrize(
    "hours, paused, said",
    [
        ({}, False, "none: the GM closes every phase"),
        ({"peace": 30, "land": 30}, False, "30 h a phase"),
        ({"peace": 12, "land": 96}, False, "12 to 96 h a phase"),
        ({"peace": 30}, True, "30 h a phase (the deadlines are paused)"),
    ],
)
def test_the_pace_says_the_deadlines(db, hours, paused, said):
    campaign = listed("Paced", deadline_hours=hours, paused_at=timezone.now() if paused else None)
    assert lobby.pace_of(campaign) == said


def test_the_lobby_takes_no_query_per_campaign(db):
    listed("First")
    reader = User.objects.create_user("reader")
    client = Client()
    client.force_login(reader)
    client.get(LOBBY)  # the session, the caches
    with CaptureQueriesContext(connection) as one:
        assert client.get(LOBBY).status_code == 200
    for n in range(3):
        listed(f"More {n}", gms=(f"gm{n}", f"co{n}"), players=(f"p{n}", f"q{n}"))
    with CaptureQueriesContext(connection) as four:
        html = client.get(LOBBY).content.decode()
    assert html.count('class="lobby-facts"') == 4
    assert len(four) == len(one)
