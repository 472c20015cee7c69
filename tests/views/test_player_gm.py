"""A GM who also plays a power: the power's seat becomes the GM's, and the GM reads the
other powers' orders for a phase only once their own are marked ready, which seals them."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from campaign.models import Order, Seat
from tests.factories import make_eia_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def revolt_step(client_as, campaign):
    """The GM plays Spain; the revolt step is open; Great Britain has given orders."""
    gm = client_as("gm")
    response = gm.post(reverse("campaign:plays", args=[campaign.pk]), {"power": "spain"})
    assert response.status_code == 302
    resolve(campaign)  # peace
    order(campaign, "great_britain", {"targets": ["minor-0"]})
    campaign.refresh_from_db()
    return campaign, gm


def dashboard(gm, campaign) -> str:
    return gm.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()


def orders_panel(html: str) -> str:
    return html.split('id="orders-given"', 1)[1].split("</section>", 1)[0]


def test_the_gm_takes_an_open_power_seat(revolt_step):
    campaign, _ = revolt_step
    gm_seat = Seat.objects.get(campaign=campaign, role=Seat.Role.GM)
    assert gm_seat.power.key == "spain"
    assert not Seat.objects.filter(campaign=campaign, role="player", power__key="spain").exists()
    assert campaign.events.filter(text__contains="The GM also plays Spain").exists()


def test_a_seated_power_cannot_be_taken(client_as, campaign):
    before = snapshot(campaign)
    response = client_as("gm").post(
        reverse("campaign:plays", args=[campaign.pk]), {"power": "france"}
    )
    assert response.status_code == 422
    assert "is not a power without a player" in response.content.decode()
    assert snapshot(campaign) == before


def test_the_other_orders_stay_hidden_until_the_gm_seals_their_own(revolt_step):
    campaign, gm = revolt_step
    html = orders_panel(dashboard(gm, campaign))
    assert "shown once" in html and "Minor 000" not in html
    url = reverse("campaign:orders", args=[campaign.pk])
    draft = {"phase": campaign.phase_id, "ready": "0"}
    assert gm.post(url, draft).status_code == 302  # a draft seals nothing
    assert "Minor 000" not in orders_panel(dashboard(gm, campaign))
    assert gm.post(url, {**draft, "ready": "1"}).status_code == 302
    html = orders_panel(dashboard(gm, campaign))
    assert "Great Britain makes 1 revolt attempt in Minor 000 (1 PP)" in html


def test_sealed_orders_cannot_change(revolt_step):
    campaign, gm = revolt_step
    url = reverse("campaign:orders", args=[campaign.pk])
    assert gm.post(url, {"phase": campaign.phase_id, "ready": "1"}).status_code == 302
    before = snapshot(campaign)
    response = gm.post(url, {"phase": campaign.phase_id, "ready": "0"})
    assert response.status_code == 409
    assert "sealed" in response.content.decode()
    assert snapshot(campaign) == before
    assert Order.objects.get(phase=campaign.phase, power__key="spain").ready


def test_a_gm_who_does_not_play_reads_every_order():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    resolve(campaign)
    order(campaign, "great_britain", {"targets": ["minor-0"]})
    from django.test import Client

    gm = Client()
    gm.force_login(users["gm"])
    assert "attempt in Minor 000" in orders_panel(dashboard(gm, campaign))


def test_the_gm_stops_playing_and_the_power_is_open_again(revolt_step):
    campaign, gm = revolt_step
    assert gm.post(reverse("campaign:plays", args=[campaign.pk]), {"power": ""}).status_code == 302
    seat = Seat.objects.get(campaign=campaign, role="player", power__key="spain")
    assert seat.user is None and seat.invite_token
    assert Seat.objects.get(campaign=campaign, role=Seat.Role.GM).power is None


# -- sealing everywhere: the area panel, the export, switching "GM also plays" ------------


def area_panel(gm, campaign, key: str) -> str:
    url = reverse("campaign:area", args=[campaign.pk, key])
    return gm.get(url, HTTP_HX_REQUEST="true").content.decode()


def exported_orders(gm, campaign) -> dict[str, dict]:
    response = gm.get(reverse("campaign:export", args=[campaign.pk]))
    assert response.status_code == 200
    open_phase = [campaign.turn, campaign.phase.position]
    orders = json.loads(response.content)["orders"]
    return {o["power"]: o["payload"] for o in orders if o["phase"] == open_phase}


def seal_spain(gm, campaign) -> None:
    url = reverse("campaign:orders", args=[campaign.pk])
    assert gm.post(url, {"phase": campaign.phase_id, "ready": "1"}).status_code == 302


def test_the_area_panel_shows_the_others_orders_only_once_the_gm_has_sealed(revolt_step):
    campaign, gm = revolt_step
    assert "Great Britain" not in area_panel(gm, campaign, "minor-0").split("Orders", 1)[-1]
    seal_spain(gm, campaign)
    assert "Great Britain" in area_panel(gm, campaign, "minor-0").split("Orders", 1)[-1]


def test_the_export_holds_the_others_orders_only_once_the_gm_has_sealed(revolt_step):
    campaign, gm = revolt_step
    assert "great_britain" not in exported_orders(gm, campaign)
    seal_spain(gm, campaign)
    assert exported_orders(gm, campaign)["great_britain"] == {"targets": ["minor-0"]}


def test_a_gm_who_stops_playing_leaves_their_orders_sealed(revolt_step):
    campaign, gm = revolt_step
    url = reverse("campaign:orders", args=[campaign.pk])
    assert gm.post(url, {"phase": campaign.phase_id, "ready": "0"}).status_code == 302
    assert gm.post(reverse("campaign:plays", args=[campaign.pk]), {"power": ""}).status_code == 302
    assert Order.objects.get(phase=campaign.phase, power__key="spain").ready
    assert campaign.events.filter(text__contains="sealed as the GM left them").exists()


def test_a_gm_cannot_take_a_power_once_others_have_given_orders(revolt_step):
    campaign, gm = revolt_step
    plays = reverse("campaign:plays", args=[campaign.pk])
    assert gm.post(plays, {"power": ""}).status_code == 302  # reads every order now
    before = snapshot(campaign)
    response = gm.post(plays, {"power": "spain"})
    assert response.status_code == 409
    assert "Other powers have already given orders for this phase" in response.content.decode()
    assert snapshot(campaign) == before
    resolve(campaign)  # the next phase: nobody has given orders yet
    assert gm.post(plays, {"power": "spain"}).status_code == 302


def test_the_gm_reads_the_orders_given_in_their_language(revolt_step):
    """The sentence and the scenario's names in it (the power, the area where a catalog
    has it) are in the reader's language; a name no catalog has stays as given."""
    campaign, gm = revolt_step
    assert (
        gm.post(
            reverse("campaign:orders", args=[campaign.pk]),
            {"phase": campaign.phase_id, "ready": "1"},
        ).status_code
        == 302
    )
    html = orders_panel(
        gm.get(
            reverse("campaign:gm", args=[campaign.pk]), HTTP_ACCEPT_LANGUAGE="ru"
        ).content.decode()
    )
    assert "Великобритания делает 1 попытку восстания в области Minor 000 (1 ПО)" in html
    assert "Great Britain" not in html
