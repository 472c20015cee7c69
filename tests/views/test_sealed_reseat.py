"""Sealed means sealed, whoever sits where, through the pages (campaign/core/sealing.py): the
GM plays Spain and stops mid-phase (Spain's draft sealed, every order read), then tries
each way of putting an account in Spain's seat. The dashboard, the invitation page and
the lobby say why it is refused, and nothing changes; no other role may try at all."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Order, Seat
from tests.factories import snapshot
from tests.services.test_eia_phase_services import resolve
from tests.views.conftest import ROLES

pytestmark = pytest.mark.django_db
User = get_user_model()

REFUSED = "Nobody can be seated as Spain until this phase is resolved"


@pytest.fixture
def left_spain(client_as, campaign, users):
    """The GM played Spain in the open revolt step, saved a draft and stopped playing;
    ``sock`` is the GM's second account."""
    gm = client_as("gm")
    assert (
        gm.post(reverse("campaign:plays", args=[campaign.pk]), {"power": "spain"}).status_code
        == 302
    )
    resolve(campaign)  # peace
    campaign.refresh_from_db()
    orders = reverse("campaign:orders", args=[campaign.pk])
    assert gm.post(orders, {"phase": campaign.phase_id, "ready": "0"}).status_code == 302
    assert gm.post(reverse("campaign:plays", args=[campaign.pk]), {"power": ""}).status_code == 302
    campaign.refresh_from_db()
    users["sock"] = User.objects.create_user(f"sock-{campaign.pk}")
    return campaign, gm


def spain(campaign) -> Seat:
    return campaign.seats.get(role=Seat.Role.PLAYER, power__key="spain")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_dashboard_says_why_the_seat_change_is_refused(left_spain, users):
    campaign, gm = left_spain
    before = snapshot(campaign)
    url = reverse("campaign:seat", args=[campaign.pk, spain(campaign).pk])
    response = gm.post(url, {"username": users["sock"].username})
    assert response.status_code == 409
    assert REFUSED in response.content.decode()
    assert snapshot(campaign) == before


def test_the_dashboards_seats_section_says_it_in_place(left_spain, users):
    campaign, gm = left_spain
    before = snapshot(campaign)
    url = reverse("campaign:seat", args=[campaign.pk, spain(campaign).pk])
    response = gm.post(url, {"username": users["outsider"].username}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert REFUSED in response.content.decode()
    assert snapshot(campaign) == before


@pytest.mark.parametrize("role", [r for r in ROLES if r != "gm"])
def test_no_other_role_may_seat_anyone(left_spain, client_as, users, role):
    campaign, _ = left_spain
    before = snapshot(campaign)
    url = reverse("campaign:seat", args=[campaign.pk, spain(campaign).pk])
    response = client_as(role).post(url, {"username": users["sock"].username})
    expected = {"anonymous": 302, "outsider": 404}.get(role, 403)
    assert response.status_code == expected
    assert snapshot(campaign) == before


@pytest.mark.parametrize("role", ["sock", "outsider", "player", "other_player", "observer", "gm"])
def test_nobody_claims_the_powers_invitation_link_mid_phase(left_spain, users, role):
    campaign, _ = left_spain
    before = snapshot(campaign)
    url = reverse("campaign:join", args=[spain(campaign).invite_token])
    response = logged_in(users[role]).post(url)
    assert response.status_code == 409
    html = response.content.decode()
    if role in ("sock", "outsider"):
        assert REFUSED in html
    else:  # a seat of their own already
        assert "You already have a seat in this campaign." in html
    assert snapshot(campaign) == before


def test_an_anonymous_claim_is_sent_to_log_in(left_spain, client_as):
    campaign, _ = left_spain
    before = snapshot(campaign)
    response = client_as("anonymous").post(
        reverse("campaign:join", args=[spain(campaign).invite_token])
    )
    assert response.status_code == 302 and "login" in response["Location"]
    assert snapshot(campaign) == before


def test_the_lobby_says_why_it_seats_nobody_at_once(left_spain, users):
    campaign, _ = left_spain
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True, lobby_at_once=True)
    before = snapshot(campaign)
    url = reverse("campaign:lobby_ask", args=[campaign.pk, spain(campaign).power_id])
    response = logged_in(users["sock"]).post(url)
    assert response.status_code == 409
    assert REFUSED in response.content.decode()
    assert snapshot(campaign) == before


def test_the_sealed_orders_cannot_be_replaced_from_the_seat(left_spain, users):
    """Were the account in the seat anyway, its orders page refuses to replace them."""
    campaign, _ = left_spain
    Seat.objects.filter(pk=spain(campaign).pk).update(user=users["sock"])
    sealed = Order.objects.get(phase=campaign.phase, power__key="spain")
    assert sealed.ready
    before = snapshot(campaign)
    response = logged_in(users["sock"]).post(
        reverse("campaign:orders", args=[campaign.pk]), {"phase": campaign.phase_id, "ready": "1"}
    )
    assert response.status_code in (409, 422)
    assert "sealed by the GM who played it" in response.content.decode()
    assert snapshot(campaign) == before


def test_once_resolved_the_gm_seats_the_power(left_spain, users):
    campaign, gm = left_spain
    resolve(campaign)
    url = reverse("campaign:seat", args=[campaign.pk, spain(campaign).pk])
    assert gm.post(url, {"username": users["sock"].username}).status_code == 302
    assert spain(campaign).user == users["sock"]
