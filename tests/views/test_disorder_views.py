"""Civil disorder and replacements through the pages: the GM's controls on the dashboard
(every role, plain and HTMX, bad input changing nothing), the lobby's "replacement
wanted" seats with the campaign's rules, the requester's record beside a request, the
player's notices, the replaced player's read-only seat and the history's players."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import Area, Power, Seat
from campaign.people import home
from campaign.play import disorder, reliability, services
from campaign.press import press
from tests.factories import make_toy_campaign, snapshot

pytestmark = pytest.mark.django_db
User = get_user_model()
HTMX = {"HTTP_HX_REQUEST": "true"}
LOBBY = reverse("campaign:lobby")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def toy():
    """A started Beacons campaign: North played by nora, South by sam, West free."""
    campaign = make_toy_campaign()
    gm = campaign.seats.get(role=Seat.Role.GM).user
    users = {"gm": gm}
    for key, name in (("north", "nora"), ("south", "sam")):
        users[name] = User.objects.create_user(name)
        services.assign_seat(seat=campaign.seats.get(power__key=key), user=users[name], actor=gm)
    campaign.refresh_from_db()
    return campaign, users


def north(campaign) -> Power:
    return Power.objects.get(campaign=campaign, key="north")


def into_disorder(campaign, gm) -> None:
    disorder.set_disorder(
        campaign_id=campaign.pk, power_id=north(campaign).pk, disorder=True, actor=gm
    )


def post_as_gm(client, campaign, url, data, **extra):
    campaign.refresh_from_db()
    return client.post(url, {**data, "state_version": campaign.state_version}, **extra)


@pytest.mark.parametrize("htmx", [False, True])
def test_the_gm_puts_a_power_into_civil_disorder_from_the_dashboard(toy, htmx):
    campaign, users = toy
    url = reverse("campaign:disorder", args=[campaign.pk, north(campaign).pk])
    gm = client_for(users["gm"])
    dashboard = gm.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert f'action="{url}"' in dashboard and "Put into civil disorder" in dashboard
    response = post_as_gm(gm, campaign, url, {"disorder": "on"}, **(HTMX if htmx else {}))
    assert response.status_code == 200 if htmx else 302
    assert north(campaign).in_disorder
    if htmx:
        assert "North is in civil disorder: its seat is in the lobby." in response.content.decode()
    dashboard = gm.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert "Take out of civil disorder" in dashboard


def test_the_home_page_marks_a_power_that_missed_deadlines_or_fell(toy):
    campaign, users = toy
    home_page = reverse("campaign:list")
    Power.objects.filter(campaign=campaign, key="north").update(missed_in_row=1)
    assert "missed 1 deadline" in client_for(users["nora"]).get(home_page).content.decode()
    into_disorder(campaign, users["gm"])
    listed = client_for(users["nora"]).get(home_page).content.decode()
    assert '<span class="disorder">civil disorder</span>' in listed
    assert "civil disorder" not in client_for(users["sam"]).get(home_page).content.decode()


@pytest.mark.parametrize("who", ["nora", "sam"])
def test_players_cannot_use_the_gms_controls(toy, who):
    campaign, users = toy
    before = snapshot(campaign)
    for name, data in (
        ("disorder", {"disorder": "on"}),
        ("player_rules", {"disorder_after": "0", "min_on_time": "0"}),
    ):
        args = [campaign.pk, north(campaign).pk] if name == "disorder" else [campaign.pk]
        response = post_as_gm(
            client_for(users[who]), campaign, reverse(f"campaign:{name}", args=args), data
        )
        assert response.status_code == 403
    assert snapshot(campaign) == before


@pytest.mark.parametrize(
    "data",
    [
        {"disorder_after": "21", "min_on_time": "0"},
        {"disorder_after": "two", "min_on_time": "0"},
        {"disorder_after": "2", "min_on_time": "-5"},
        {"disorder_after": "2"},
    ],
)
def test_bad_players_rules_are_refused_and_change_nothing(toy, data):
    campaign, users = toy
    before = snapshot(campaign)
    url = reverse("campaign:player_rules", args=[campaign.pk])
    response = post_as_gm(client_for(users["gm"]), campaign, url, data)
    assert response.status_code == 422
    assert snapshot(campaign) == before


def test_the_players_rules_are_saved_logged_and_shown_in_the_lobby(toy):
    campaign, users = toy
    url = reverse("campaign:player_rules", args=[campaign.pk])
    data = {"disorder_after": "3", "replacements_need_gm": "", "min_on_time": "75"}
    assert post_as_gm(client_for(users["gm"]), campaign, url, data).status_code == 302
    campaign.refresh_from_db()
    assert (campaign.disorder_after, campaign.replacements_need_gm, campaign.min_on_time) == (
        3,
        False,
        75,
    )
    logged = list(
        campaign.events.filter(text__contains="players' rules").values_list("text", flat=True)
    )
    assert len(logged) == 3
    into_disorder(campaign, users["gm"])
    page = client_for(User.objects.create_user("visitor")).get(LOBBY).content.decode()
    assert "misses 3 deadlines in a row falls into civil disorder" in page
    assert "Seat requests need orders in on time in at least 75% of the phases owed." in page
    assert "Replacement wanted: the seat is yours as soon as you take it" in page
    assert "Take over North" in page


def test_the_lobby_offers_the_seat_with_what_the_power_holds_and_the_gm_sees_the_record(toy):
    campaign, users = toy
    Area.objects.filter(campaign=campaign, key="crag").update(controller=north(campaign))
    into_disorder(campaign, users["gm"])
    rita = User.objects.create_user("rita")
    reliability.add([rita.pk], "owed", "on_time")
    page = client_for(rita).get(LOBBY).content.decode()
    assert "Holds 1 area: Crag." in page and "Ask to take over North" in page
    ask = reverse("campaign:lobby_ask", args=[campaign.pk, north(campaign).pk])
    assert client_for(rita).post(ask).status_code == 302
    dashboard = client_for(users["gm"]).get(reverse("campaign:gm", args=[campaign.pk]))
    text = dashboard.content.decode()
    assert "rita asks to play North" in text
    assert reverse("campaign:profile", args=["rita"]) in text


def test_the_player_is_told_and_the_replaced_player_reads_but_cannot_act(toy):
    campaign, users = toy
    page = reverse("campaign:detail", args=[campaign.pk])
    into_disorder(campaign, users["gm"])
    assert "North is in civil disorder" in client_for(users["nora"]).get(page).content.decode()
    said = press.post_message(
        seat=campaign.seats.get(user=users["nora"]),
        to=press.PRIVATE_CHOICE,
        chosen=["south"],
        text="before leaving",
    )
    channel = said.channel
    rita = User.objects.create_user("rita")
    seat = campaign.seats.get(power__key="north")
    services.assign_seat(seat=seat, user=rita, actor=users["gm"])
    press.post_message(
        seat=campaign.seats.get(user=rita),
        to=press.PRIVATE_CHOICE,
        chosen=["south"],
        text="after leaving",
    )
    press.post_message(
        seat=campaign.seats.get(user=rita),
        to=press.PRIVATE_CHOICE,
        chosen=["south", "west"],
        text="a new channel",
    )
    former = campaign.seats.get(user=users["nora"])
    assert home.unread_press(users["nora"], [former]) == {}  # nothing since, not even how much
    nora = client_for(users["nora"])
    index = nora.get(reverse("campaign:press", args=[campaign.pk])).content.decode()
    assert "a new channel" not in index and "West" not in index
    text = nora.get(page).content.decode()
    assert "You played North until" in text
    press_page = nora.get(reverse("campaign:press_channel", args=[campaign.pk, channel.key]))
    assert press_page.status_code == 200
    assert "before leaving" in press_page.content.decode()
    assert "after leaving" not in press_page.content.decode()
    assert (
        "after leaving"
        not in nora.get(reverse("campaign:press", args=[campaign.pk])).content.decode()
    )
    before = snapshot(campaign)
    campaign.refresh_from_db()
    orders = nora.post(reverse("campaign:orders", args=[campaign.pk]), {"phase": campaign.phase_id})
    assert orders.status_code == 403
    assert snapshot(campaign) == before


def test_the_gm_sends_the_seats_invitation_link_and_a_new_player_takes_it_over(toy):
    campaign, users = toy
    into_disorder(campaign, users["gm"])
    dashboard = client_for(users["gm"]).get(reverse("campaign:gm", args=[campaign.pk]))
    link = reverse("campaign:join", args=[campaign.seats.get(power__key="north").invite_token])
    assert link in dashboard.content.decode()
    rita = client_for(User.objects.create_user("rita"))
    page = rita.get(link).content.decode()
    assert "You are invited to take over <strong>North</strong>, in civil disorder" in page
    assert rita.post(link).status_code == 302
    assert campaign.seats.get(power__key="north").user.get_username() == "rita"
    other = client_for(User.objects.create_user("late")).get(link).content.decode()
    assert "This invitation link is not valid." in other  # renewed as it was taken
