"""Watching a game with hidden information through the pages (campaign/core/watching.py):
what each role reads of Pax Baltica's blocks on the campaign page and a past phase's
page, the GM's lobby setting of what watchers see (refused to every other role), and the
lobby's watch seat where the GM allows watching."""

from __future__ import annotations

from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Phase, Seat
from campaign.play import disorder
from campaign.play.ending import end_campaign
from campaign.play.services import assign_seat
from tests.factories import make_pb_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import resolve
from tests.views.conftest import ROLES

pytestmark = pytest.mark.django_db
User = get_user_model()

SWEDISH, RUSSIAN = "Karl XII", "Sheremetev"  # a block of each side, on the map


@pytest.fixture
def campaign(db):
    return make_pb_campaign()


@pytest.fixture
def users(campaign):
    found = seat_users(campaign, "sweden", "russia")
    found["watcher"] = User.objects.create_user(f"watcher-{campaign.pk}")
    return found


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(campaign, user, name: str = "campaign:detail", *args) -> str:
    response = client_for(user).get(reverse(name, args=[campaign.pk, *args]))
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def sees(html: str) -> set[str]:
    return {block for block in (SWEDISH, RUSSIAN) if block in html}


def set_watchers(campaign, gm, watchers_see: str, watch: str = "on"):
    url = reverse("campaign:lobby_settings", args=[campaign.pk])
    return client_for(gm).post(url, {"lobby_watch": watch, "watchers_see": watchers_see})


def test_each_role_reads_the_blocks_it_may(campaign, users):
    assert sees(page(campaign, users["gm"], "campaign:gm")) == {SWEDISH, RUSSIAN}
    assert sees(page(campaign, users["player"])) == {SWEDISH}
    assert sees(page(campaign, users["other_player"])) == {RUSSIAN}
    assert sees(page(campaign, users["observer"])) == set()  # by default: neither side
    assert (
        client_for(users["outsider"])
        .get(reverse("campaign:detail", args=[campaign.pk]))
        .status_code
        == 404
    )
    anonymous = client_for(None).get(reverse("campaign:detail", args=[campaign.pk]))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]


def test_the_gm_lets_watchers_see_one_side(campaign, users):
    response = set_watchers(campaign, users["gm"], "russia")
    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).watchers_see == "russia"
    assert sees(page(campaign, users["observer"])) == {RUSSIAN}
    watch = client_for(users["watcher"]).post(reverse("campaign:lobby_watch", args=[campaign.pk]))
    assert watch.status_code == 302
    assert sees(page(campaign, users["watcher"])) == {RUSSIAN}
    assert "Watchers see what Russia" in page(campaign, users["gm"], "campaign:gm")


def test_a_past_phase_shows_the_watcher_no_more(campaign, users):
    resolve(campaign, users["gm"])  # recruitment: a past phase with a map
    past = Phase.objects.filter(campaign=campaign, resolved_at__isnull=False).first()
    assert sees(page(campaign, users["gm"], "campaign:history", past.pk)) == {SWEDISH, RUSSIAN}
    assert sees(page(campaign, users["observer"], "campaign:history", past.pk)) == set()
    set_watchers(campaign, users["gm"], "sweden")
    assert sees(page(campaign, users["observer"], "campaign:history", past.pk)) == {SWEDISH}


def test_watchers_see_everything_once_the_campaign_ends(campaign, users):
    campaign.refresh_from_db()
    end_campaign(
        campaign_id=campaign.pk, expected_state_version=campaign.state_version, actor=users["gm"]
    )
    assert sees(page(campaign, users["observer"])) == {SWEDISH, RUSSIAN}


def test_the_lobby_form_asks_what_watchers_see(campaign, users):
    html = page(campaign, users["gm"], "campaign:gm")
    form = html.split('id="lobby"', 1)[1].split("</form>", 1)[0]
    assert 'name="watchers_see"' in form
    assert "what Russia's player sees" in unescape(form)


@pytest.mark.parametrize("role", [r for r in ROLES if r != "gm"])
def test_no_other_role_sets_what_watchers_see(campaign, users, role):
    before = snapshot(campaign)
    response = set_watchers(campaign, users.get(role), "russia")
    expected = {"anonymous": 302, "outsider": 404}.get(role, 403)
    assert response.status_code == expected
    assert snapshot(campaign) == before
    assert Campaign.objects.get(pk=campaign.pk).watchers_see == ""


def test_a_power_not_of_the_campaign_is_refused_with_the_reason(campaign, users):
    before = snapshot(campaign)
    response = set_watchers(campaign, users["gm"], "prussia")
    assert response.status_code == 422
    assert snapshot(campaign) == before


def test_the_lobby_refuses_watching_until_the_gm_allows_it(campaign, users):
    url = reverse("campaign:lobby_watch", args=[campaign.pk])
    before = snapshot(campaign)
    refused = client_for(users["watcher"]).post(url)
    assert refused.status_code == 422
    assert "cannot be watched from the lobby" in refused.content.decode()
    assert snapshot(campaign) == before
    set_watchers(campaign, users["gm"], "")
    lobby_page = client_for(users["watcher"]).get(reverse("campaign:lobby")).content.decode()
    said = "Watchers see no power's hidden information until the campaign ends."
    assert said in unescape(lobby_page)
    assert client_for(users["watcher"]).post(url).status_code == 302
    assert Seat.objects.get(campaign=campaign, user=users["watcher"]).role == Seat.Role.OBSERVER
    assert sees(page(campaign, users["watcher"])) == set()


def test_a_replaced_player_sees_their_sides_past_but_not_its_present(campaign, users):
    """Sweden's player is replaced after civil disorder: the phases resolved while they
    played still show them Sweden's blocks, the campaign as it goes on shows them no side's
    (even where watchers see Sweden's), and they can no longer act."""
    resolve(campaign, users["gm"])  # recruitment, resolved while they played
    played = Phase.objects.filter(campaign=campaign, resolved_at__isnull=False).first()
    sweden = campaign.powers.get(key="sweden")
    disorder.set_disorder(
        campaign_id=campaign.pk, power_id=sweden.pk, disorder=True, actor=users["gm"]
    )
    successor = User.objects.create_user(f"successor-{campaign.pk}")
    assign_seat(seat=campaign.seats.get(power=sweden), user=successor, actor=users["gm"])
    set_watchers(campaign, users["gm"], "sweden")
    replaced = users["player"]
    assert sees(page(campaign, replaced)) == set()
    assert sees(page(campaign, successor)) == {SWEDISH}
    assert sees(page(campaign, replaced, "campaign:history", played.pk)) == {SWEDISH}
    resolve(campaign, users["gm"])  # a phase resolved after they left
    later = Phase.objects.filter(campaign=campaign, resolved_at__isnull=False).last()
    assert sees(page(campaign, replaced, "campaign:history", later.pk)) == set()
    before = snapshot(campaign)
    campaign.refresh_from_db()
    orders = client_for(replaced).post(
        reverse("campaign:orders", args=[campaign.pk]), {"phase": campaign.phase_id, "ready": "1"}
    )
    assert orders.status_code == 403
    assert snapshot(campaign) == before
