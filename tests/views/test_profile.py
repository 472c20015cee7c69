"""A user's profile page (/users/<name>/): any logged-in user reads the record Courier
keeps of them (all zero, "no record yet", without one) and the campaigns they play or
run that the reader may know of: those where the reader sits too (with the power) and
those the lobby lists (without it); never another. The one-line record the lobby and
the GM's request list include links to it."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from campaign.models import Reliability, Seat
from tests.factories import make_eia_campaign
from tests.views.conftest import ROLES
from tests.views.test_valid_html import nu_errors

pytestmark = pytest.mark.django_db


def profile_url(user) -> str:
    return reverse("campaign:profile", args=[user.get_username()])


def text(html: str) -> str:
    """The words of the page: a link's words run on with the text around it."""
    inline = re.sub(r"</?a\b[^>]*>", "", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", inline)).split())


def page(client, user) -> str:
    response = client.get(profile_url(user))
    assert response.status_code == 200
    return text(response.content.decode())


def named(campaign, name: str):
    campaign.name = name
    campaign.save(update_fields=["name"])
    return campaign


@pytest.mark.parametrize("role", ROLES)
def test_every_logged_in_user_reads_it(users, client_as, role):
    response = client_as(role).get(profile_url(users["player"]))
    if role == "anonymous":
        assert response.status_code == 302 and "login" in response["Location"]
    else:
        assert response.status_code == 200
        assert users["player"].get_username() in text(response.content.decode())


def test_an_unknown_or_inactive_name_is_not_found(users, client_as):
    reader = client_as("outsider")
    assert reader.get(reverse("campaign:profile", args=["nobody-here"])).status_code == 404
    users["player"].is_active = False
    users["player"].save(update_fields=["is_active"])
    assert reader.get(profile_url(users["player"])).status_code == 404
    assert reader.post(profile_url(users["gm"])).status_code == 405


def test_the_record_as_kept(users, client_as):
    Reliability.objects.create(
        user=users["player"], owed=25, on_time=23, missed=1, seats_left=0, replaced_in=2
    )
    html = page(client_as("outsider"), users["player"])
    assert "on time 92% of 25 phases · 1 missed · 0 seats left" in html
    for line in (
        "phases owed 25",
        "orders in on time 23 (92%)",
        "deadlines missed 1",
        "seats left 0",
        "seats taken over 2",
        "campaigns finished 0",
    ):
        assert line in html


def test_without_a_record_every_count_is_zero(users, client_as):
    html = page(client_as("outsider"), users["player"])
    assert "no record yet" in html
    assert "phases owed 0" in html and "orders in on time 0 " in html
    assert "%" not in html.split("phases owed")[1].split("Campaigns")[0]


def test_the_campaigns_the_reader_may_know_of_and_no_other(campaign, users, client_as):
    named(campaign, "Shared Campaign")
    player = users["player"]
    private = named(make_eia_campaign(), "Private Campaign")
    Seat.objects.filter(campaign=private, power__key="spain").update(user=player)
    listed = named(make_eia_campaign(), "Listed Campaign")
    listed.lobby_open = True
    listed.save(update_fields=["lobby_open"])
    Seat.objects.filter(campaign=listed, power__key="russia").update(user=player)
    run = named(make_eia_campaign(), "Run Campaign")
    Seat.objects.filter(campaign=run, role=Seat.Role.GM).update(user=player)

    html = page(client_as("other_player"), player)  # sits in the shared one only
    assert "Shared Campaign: plays France" in html
    assert "Listed Campaign: plays a power" in html and "Russia" not in html
    assert "Private Campaign" not in html and "Spain" not in html
    assert "Run Campaign" not in html

    outsider = page(client_as("outsider"), player)
    assert "Listed Campaign: plays a power" in outsider
    assert "Shared Campaign" not in outsider and "Private Campaign" not in outsider

    own = page(client_as("player"), player)
    for line in (
        "Shared Campaign: plays France",
        "Private Campaign: plays Spain",
        "Listed Campaign: plays Russia",
        "Run Campaign: game master",
    ):
        assert line in own
    assert (
        reverse("campaign:preferences")
        in client_as("player").get(profile_url(player)).content.decode()
    )


def test_an_observer_of_the_campaign_sees_the_gm_and_the_players(campaign, users, client_as):
    named(campaign, "Shared Campaign")
    assert "Shared Campaign: game master" in page(client_as("observer"), users["gm"])
    assert "Shared Campaign: plays Great Britain" in page(
        client_as("observer"), users["other_player"]
    )
    assert "No campaign of theirs that you may see." in page(
        client_as("outsider"), users["other_player"]
    )


@pytest.mark.parametrize(
    ("counts", "line"),
    [
        (None, "no record yet"),
        ({"owed": 1, "on_time": 1}, "on time 100% of 1 phase · 0 missed · 0 seats left"),
        ({"seats_left": 1}, "no phase owed yet · 0 missed · 1 seat left"),
        (
            {"owed": 40, "on_time": 30, "missed": 10, "seats_left": 2},
            "on time 75% of 40 phases · 10 missed · 2 seats left",
        ),
    ],
)
def test_the_one_line_record_links_to_the_profile(counts, line):
    person = get_user_model().objects.create_user("some-player")
    record = Reliability(user=person, **counts) if counts is not None else None
    html = render_to_string(
        "campaign/reliability.html#record", {"record": record, "person": person}
    )
    assert text(html) == line
    assert f'href="{reverse("campaign:profile", args=["some-player"])}"' in html


@pytest.mark.validator
def test_the_pages_are_valid_html(campaign, users, client_as, tmp_path):
    """The profile page, and the preferences and campaign pages with an away period for
    every campaign, to the W3C's Nu checker (needs Java: ``-m validator``)."""
    Reliability.objects.create(user=users["player"], owed=3, on_time=2, missed=1)
    player = client_as("player")
    end = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    saved = player.post(reverse("campaign:away_everywhere"), {"end": end}, follow=True)
    assert saved.redirect_chain  # and its message read (base.html's list of messages aside)
    urls = [
        profile_url(users["player"]),
        profile_url(users["other_player"]),
        reverse("campaign:preferences"),
        reverse("campaign:detail", args=[campaign.pk]),
    ]
    files = []
    for number, url in enumerate(urls):
        response = player.get(url)
        assert response.status_code == 200
        files.append(tmp_path / f"{number}.html")
        files[-1].write_text(response.content.decode(), encoding="utf-8")
    assert nu_errors(files) == {}
