"""Sealed means sealed, whoever sits where (campaign/core/sealing.py): a GM who plays, or
played, a power in the open phase and has read the other powers' orders of it seats
nobody as a power that acts in it (by the dashboard, an invitation link or the lobby),
and nobody replaces the orders the GM sealed. Each refusal changes nothing.

The attack this reproduces: the GM plays Spain; France drafts; the GM stops playing
(Spain's draft is sealed, the GM reads every order), seats a second account of theirs
as Spain, and that account marks new orders ready for Spain."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign.core import sealing
from campaign.errors import Conflict, PhaseClosed
from campaign.models import Campaign, Order, Seat, SeatRequest
from campaign.people import lobby
from campaign.play import services
from tests.factories import make_eia_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import resolve

pytestmark = pytest.mark.django_db
User = get_user_model()

SEALED_DRAFT = {"targets": ["minor-0"]}


@pytest.fixture
def campaign():
    """The GM plays Spain; the revolt step is open; France has a draft."""
    campaign = make_eia_campaign()
    return campaign


@pytest.fixture
def users(campaign):
    found = seat_users(campaign)
    found["sock"] = User.objects.create_user(f"sock-{campaign.pk}")
    services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=found["gm"])
    resolve(campaign)  # peace: the revolt step opens
    campaign.refresh_from_db()
    france = seat_of(campaign, "france")
    services.submit_orders(
        seat=france, phase_id=campaign.phase_id, payload={}, ready=False, actor=found["player"]
    )
    return found


def seat_of(campaign, power_key: str) -> Seat:
    return campaign.seats.select_related("power").get(power__key=power_key)


def gm_seat(campaign) -> Seat:
    return campaign.seats.select_related("power").get(role=Seat.Role.GM)


def gm_drafts_spain(campaign, users, ready: bool = False) -> None:
    services.submit_orders(
        seat=gm_seat(campaign),
        phase_id=campaign.phase_id,
        payload=SEALED_DRAFT,
        ready=ready,
        actor=users["gm"],
    )


def gm_stops_playing(campaign, users) -> Seat:
    services.gm_plays(campaign_id=campaign.pk, power_key=None, actor=users["gm"])
    campaign.refresh_from_db()
    return seat_of(campaign, "spain")


def spains_order(campaign) -> Order:
    return Order.objects.get(phase_id=campaign.phase_id, power__key="spain")


# -- the attacker's path -------------------------------------------------------------


def test_the_gm_who_stopped_playing_cannot_seat_a_second_account_as_the_power(campaign, users):
    gm_drafts_spain(campaign, users)
    spain = gm_stops_playing(campaign, users)
    assert spains_order(campaign).ready  # sealed as the GM left it
    before = snapshot(campaign)
    with pytest.raises(Conflict, match="Nobody can be seated as Spain until this phase"):
        services.assign_seat(seat=spain, user=users["sock"], actor=users["gm"])
    assert snapshot(campaign) == before
    assert Seat.objects.get(pk=spain.pk).user is None


def test_nobody_replaces_the_orders_the_gm_sealed_whoever_sits_there(campaign, users):
    """Were the second account seated anyway (an administrator, an older release), the
    orders the GM sealed stay as they are."""
    gm_drafts_spain(campaign, users)
    spain = gm_stops_playing(campaign, users)
    Seat.objects.filter(pk=spain.pk).update(user=users["sock"])
    spain.refresh_from_db()
    before = snapshot(campaign)
    with pytest.raises(PhaseClosed, match="sealed by the GM who played it"):
        services.submit_orders(
            seat=spain,
            phase_id=campaign.phase_id,
            payload={"targets": []},
            ready=True,
            actor=users["sock"],
        )
    assert snapshot(campaign) == before
    assert spains_order(campaign).payload == SEALED_DRAFT


def test_a_gm_who_left_without_a_draft_still_seats_nobody_as_the_power(campaign, users):
    """Nothing of Spain's was sealed, but the GM reads every order now: an account seated
    as Spain would give its orders after reading everyone's."""
    spain = gm_stops_playing(campaign, users)
    assert not Order.objects.filter(phase_id=campaign.phase_id, power__key="spain").exists()
    with pytest.raises(Conflict, match="Nobody can be seated as Spain"):
        services.assign_seat(seat=spain, user=users["sock"], actor=users["gm"])
    assert Seat.objects.get(pk=spain.pk).user is None


# -- the variants: another account, an invitation, the lobby ---------------------------


def test_the_gm_seats_no_existing_account_as_another_power_after_reading(campaign, users):
    """Any account could be the GM's: an existing user is refused like a new one, as
    another free power (Austria) and as a seated one (France's player replaced)."""
    gm_stops_playing(campaign, users)
    before = snapshot(campaign)
    for power, user in (("austria", users["outsider"]), ("france", users["sock"])):
        with pytest.raises(Conflict, match="Nobody can be seated as"):
            services.assign_seat(seat=seat_of(campaign, power), user=user, actor=users["gm"])
    assert snapshot(campaign) == before


def test_a_gm_who_plays_and_sealed_their_orders_seats_nobody(campaign, users):
    gm_drafts_spain(campaign, users, ready=True)  # sealed: the GM reads every order
    assert sealing.gm_has_read([gm_seat(campaign)], campaign.phase, orders_of(campaign))
    before = snapshot(campaign)
    with pytest.raises(Conflict, match="Nobody can be seated as Austria"):
        services.assign_seat(
            seat=seat_of(campaign, "austria"), user=users["outsider"], actor=users["gm"]
        )
    assert snapshot(campaign) == before


def test_a_second_account_cannot_claim_the_powers_invitation_link(campaign, users):
    gm_drafts_spain(campaign, users)
    spain = gm_stops_playing(campaign, users)
    before = snapshot(campaign)
    with pytest.raises(Conflict, match="Nobody can be seated as Spain"):
        services.claim_seat(token=spain.invite_token, user=users["sock"])
    assert snapshot(campaign) == before


def test_the_lobby_seats_nobody_at_once_mid_phase(campaign, users):
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True, lobby_at_once=True)
    spain = gm_stops_playing(campaign, users)
    before = snapshot(campaign)
    with pytest.raises(Conflict, match="Nobody can be seated as Spain"):
        lobby.ask_for_seat(campaign_id=campaign.pk, power_id=spain.power_id, user=users["sock"])
    assert snapshot(campaign) == before


def test_the_gm_accepts_no_lobby_request_mid_phase(campaign, users):
    """The request waits: the GM may accept it once the phase is resolved."""
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True)
    spain = gm_stops_playing(campaign, users)
    asked = lobby.ask_for_seat(campaign_id=campaign.pk, power_id=spain.power_id, user=users["sock"])
    before = snapshot(campaign)
    with pytest.raises(Conflict, match="Nobody can be seated as Spain"):
        lobby.answer_request(
            campaign_id=campaign.pk, request_id=asked.pk, accept=True, actor=users["gm"]
        )
    assert snapshot(campaign) == before
    assert SeatRequest.objects.get(pk=asked.pk).status == SeatRequest.Status.PENDING
    resolve(campaign)
    lobby.answer_request(
        campaign_id=campaign.pk, request_id=asked.pk, accept=True, actor=users["gm"]
    )
    assert Seat.objects.get(pk=spain.pk).user == users["sock"]


def test_the_gm_takes_no_other_power_after_reading(campaign, users):
    """Directly: having left Spain, the GM cannot play Austria in the same phase."""
    gm_drafts_spain(campaign, users)
    gm_stops_playing(campaign, users)
    with pytest.raises(Conflict, match="Other powers have already given orders"):
        services.gm_plays(campaign_id=campaign.pk, power_key="austria", actor=users["gm"])


# -- what stays allowed ----------------------------------------------------------------


def orders_of(campaign) -> dict:
    return {o.power_id: o for o in Order.objects.filter(phase_id=campaign.phase_id)}


def test_a_gm_who_plays_and_has_not_sealed_may_seat_a_player(campaign, users):
    """The GM has read no other power's orders: Austria's new player is seated, and the
    orders that player gives stay sealed from the GM until the GM's own are."""
    gm_drafts_spain(campaign, users)
    austria = services.assign_seat(
        seat=seat_of(campaign, "austria"), user=users["outsider"], actor=users["gm"]
    )
    services.submit_orders(
        seat=austria, phase_id=campaign.phase_id, payload={}, ready=False, actor=users["outsider"]
    )
    readable = sealing.readable_orders(gm_seat(campaign), orders_of(campaign))
    assert set(readable) == {gm_seat(campaign).power_id}


def test_a_gm_who_does_not_play_seats_anyone_mid_phase():
    """The referee reads every order and seats whom they like, as before."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    resolve(campaign)
    sock = User.objects.create_user(f"sock-{campaign.pk}")
    seat = services.assign_seat(seat=seat_of(campaign, "spain"), user=sock, actor=users["gm"])
    assert seat.user == sock


def test_emptying_a_seat_and_opening_an_observer_seat_stay_allowed(campaign, users):
    gm_stops_playing(campaign, users)
    france = services.assign_seat(seat=seat_of(campaign, "france"), user=None, actor=users["gm"])
    assert france.user is None
    observer = services.add_observer_seat(campaign_id=campaign.pk, actor=users["gm"])
    assert (
        services.claim_seat(token=observer.invite_token, user=users["sock"]).user == users["sock"]
    )


def test_the_next_phase_seats_players_again(campaign, users):
    gm_drafts_spain(campaign, users)
    spain = gm_stops_playing(campaign, users)
    resolve(campaign)
    campaign.refresh_from_db()
    assert not campaign.phase.gm_stopped_playing
    seated = services.assign_seat(seat=spain, user=users["sock"], actor=users["gm"])
    assert seated.user == users["sock"]
