"""The GM team's pages (campaign/views/gm_team.py): the dashboard's GMs section as each
role, a co-GM using the dashboard, the GM seat's invitation link, leaving, the handover
link, a co-GM sealed from the orders while another GM plays (the dashboard, the area
panel, the export), and the quiet-GM notice with a player's request for a new GM. Bad
input changes nothing."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Event, Handover, NewGmRequest, Seat
from campaign.people import gm_team
from campaign.play import services
from campaign.views.context import load_state, map_context, readable_payloads
from tests.factories import snapshot
from tests.gm_forms import log_seen
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db
User = get_user_model()
NOT_GM = ("player", "other_player", "observer")


def u(name: str, *args) -> str:
    return reverse(f"campaign:{name}", args=args)


def everything(campaign) -> tuple:
    return (
        snapshot(campaign),
        list(Handover.objects.filter(campaign=campaign).values()),
        list(NewGmRequest.objects.filter(campaign=campaign).values()),
    )


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def co(campaign, users):
    """A second GM of the campaign, logged in."""
    user = User.objects.create_user(f"co-{campaign.pk}")
    gm_team.add_gm(campaign_id=campaign.pk, user=user, actor=users["gm"])
    users["co"] = user
    return login(user)


def section(html: str, anchor: str = 'id="gms"') -> str:
    return html.split(anchor, 1)[1].split("</section>", 1)[0]


# -- the dashboard's section, as each role ---------------------------------------------


def test_the_dashboard_shows_the_gms_and_their_controls(client_as, campaign, users, co):
    html = section(client_as("gm").get(u("gm", campaign.pk)).content.decode())
    assert f"gm-{campaign.pk} (you)" in html and f"co-{campaign.pk}" in html
    for name in ("gm_add", "gm_open", "handover_offer"):
        assert f'action="{u(name, campaign.pk)}"' in html
    assert "Leave the GMs" in html and "Remove" in html


@pytest.mark.parametrize("role", NOT_GM)
def test_no_other_seat_changes_the_gms(client_as, campaign, users, role):
    client, before = client_as(role), everything(campaign)
    posts = [
        (u("gm_add", campaign.pk), {"username": users["outsider"].username}),
        (u("gm_open", campaign.pk), {}),
        (u("gm_remove", campaign.pk, campaign.seats.get(role="gm").pk), {}),
        (u("handover_offer", campaign.pk), {"username": users["outsider"].username}),
        (u("handover_withdraw", campaign.pk), {}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403
    assert client_as("outsider").post(posts[0][0], posts[0][1]).status_code == 404
    anonymous = client_as("anonymous").post(posts[0][0], posts[0][1])
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert everything(campaign) == before


def test_a_co_gm_uses_the_dashboard_as_the_gm_does(campaign, users, co):
    assert co.get(u("gm", campaign.pk)).status_code == 200
    spain = campaign.seats.get(power__key="spain")
    response = co.post(u("seat", campaign.pk, spain.pk), {"username": users["outsider"].username})
    assert response.status_code == 302
    response = co.post(u("advance", campaign.pk), {"phase": campaign.phase_id})
    assert response.status_code == 302
    lines = Event.objects.filter(campaign=campaign, actor=users["co"])
    assert lines.filter(text__startswith=f"GM co-{campaign.pk} seats").exists()
    assert co.get(u("export", campaign.pk)).status_code == 200


def test_making_a_user_a_gm_answers_in_place(client_as, campaign, users):
    gm = client_as("gm")
    data = {"username": users["outsider"].username, "log_seen": log_seen(gm, campaign)}
    response = gm.post(u("gm_add", campaign.pk), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"{users['outsider'].username} is a GM of the campaign." in html
    assert re.match(r'\s*<section id="gms"', html)
    assert set(re.findall(r'<\w+ id="([\w-]+)"[^>]*data-hx-swap-oob="true"', html)) == {
        "seats",
        "submissions",
    }
    assert Seat.objects.get(campaign=campaign, user=users["outsider"]).is_gm


@pytest.mark.parametrize(
    "data, reason",
    [
        ({"username": "nobody-here"}, "There is no user called"),
        ({"username": ""}, "This field is required"),
        ({}, "This field is required"),
        ({"username": "x" * 500}, "at most 150 characters"),
    ],
)
def test_a_bad_user_name_changes_nothing(client_as, campaign, data, reason):
    before = everything(campaign)
    for name in ("gm_add", "handover_offer"):
        response = client_as("gm").post(u(name, campaign.pk), data)
        assert response.status_code == 422
        assert reason in response.content.decode()
    assert everything(campaign) == before


def test_a_player_is_not_made_a_gm(client_as, campaign, users):
    before = everything(campaign)
    response = client_as("gm").post(
        u("gm_add", campaign.pk), {"username": users["player"].username}
    )
    assert response.status_code == 422
    assert "a player cannot also be its GM" in response.content.decode()
    assert everything(campaign) == before


# -- a GM seat's invitation link, leaving ------------------------------------------------


def open_gm_seat(client_as, campaign) -> str:
    assert client_as("gm").post(u("gm_open", campaign.pk)).status_code == 302
    seat = campaign.seats.get(role="gm", user__isnull=True)
    link = u("gm_join", campaign.pk, seat.invite_token)
    assert link in client_as("gm").get(u("gm", campaign.pk)).content.decode()
    return link


def test_a_gm_seat_is_taken_by_its_invitation_link(client_as, campaign, users):
    link = open_gm_seat(client_as, campaign)
    outsider = client_as("outsider")
    assert "You are invited to be a GM" in outsider.get(link).content.decode()
    response = outsider.post(link)
    assert response.status_code == 302 and response["Location"] == u("gm", campaign.pk)
    assert outsider.get(u("gm", campaign.pk)).status_code == 200
    assert "You already hold this GM seat." in outsider.get(link).content.decode()
    before = everything(campaign)
    response = client_as("player").post(link)
    assert response.status_code == 409
    assert "already been taken" in response.content.decode()
    assert everything(campaign) == before


def test_a_player_cannot_take_an_open_gm_seat(client_as, campaign):
    link = open_gm_seat(client_as, campaign)
    before = everything(campaign)
    response = client_as("player").post(link)
    assert response.status_code == 409
    assert "You already have a seat in this campaign." in response.content.decode()
    assert everything(campaign) == before


@pytest.mark.parametrize("token", ["not-a-token", "a" * 64, "x\x00y"])
def test_a_bad_gm_invitation_is_not_found(client_as, campaign, token):
    before = everything(campaign)
    for method in ("get", "post"):
        response = getattr(client_as("outsider"), method)(u("gm_join", campaign.pk, token))
        assert response.status_code == 404
    assert everything(campaign) == before


def test_a_player_seats_invitation_is_no_gm_invitation(client_as, campaign):
    token = campaign.seats.get(power__key="spain").invite_token
    before = everything(campaign)
    assert client_as("outsider").post(u("gm_join", campaign.pk, token)).status_code == 404
    assert everything(campaign) == before


def test_an_anonymous_reader_of_a_gm_invitation_logs_in_first(client_as, campaign):
    link = open_gm_seat(client_as, campaign)
    response = client_as("anonymous").get(link)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_a_gm_who_leaves_goes_to_their_campaigns(campaign, users, co):
    own = campaign.seats.get(user=users["co"])
    response = co.post(u("gm_remove", campaign.pk, own.pk))
    assert response.status_code == 302 and response["Location"] == u("list")
    assert not Seat.objects.filter(pk=own.pk).exists()
    assert co.get(u("gm", campaign.pk)).status_code == 404


def test_a_gm_who_leaves_from_the_section_is_sent_to_their_campaigns(campaign, users, co):
    own = campaign.seats.get(user=users["co"])
    response = co.post(u("gm_remove", campaign.pk, own.pk), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Redirect"] == u("list")


def test_the_last_gm_cannot_leave(client_as, campaign):
    own = campaign.seats.get(role="gm")
    before = everything(campaign)
    response = client_as("gm").post(u("gm_remove", campaign.pk, own.pk), HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert "A campaign keeps at least one GM" in response.content.decode()
    assert everything(campaign) == before


# -- the handover link -------------------------------------------------------------------


@pytest.fixture
def offered(client_as, campaign, users):
    heir = User.objects.create_user(f"heir-{campaign.pk}")
    users["heir"] = heir
    response = client_as("gm").post(u("handover_offer", campaign.pk), {"username": heir.username})
    assert response.status_code == 302
    return Handover.objects.get(campaign=campaign)


def test_the_offered_user_reads_the_offer_and_accepts_it(campaign, users, offered, client_as):
    dashboard = section(client_as("gm").get(u("gm", campaign.pk)).content.decode())
    assert f"offered to <strong>heir-{campaign.pk}</strong>" in dashboard
    heir = login(users["heir"])
    link = u("handover", offered.token)
    assert f"gm-{campaign.pk}, a GM of" in heir.get(link).content.decode()
    response = heir.post(link, {"answer": "accept"})
    assert response.status_code == 302 and response["Location"] == u("gm", campaign.pk)
    assert heir.get(u("gm", campaign.pk)).status_code == 200
    assert client_as("gm").get(u("gm", campaign.pk)).status_code == 404
    assert "This offer is no longer open: accepted." in heir.get(link).content.decode()
    before = everything(campaign)
    response = heir.post(link, {"answer": "decline"})
    assert response.status_code == 409
    assert "no longer open" in response.content.decode()
    assert everything(campaign) == before


def test_a_declined_offer_leaves_the_campaign_to_its_gm(campaign, users, offered, client_as):
    heir = login(users["heir"])
    response = heir.post(u("handover", offered.token), {"answer": "decline"})
    assert response.status_code == 302 and response["Location"] == u("list")
    assert client_as("gm").get(u("gm", campaign.pk)).status_code == 200
    assert heir.get(u("gm", campaign.pk)).status_code == 404


@pytest.mark.parametrize("role", ["outsider", "player", "gm"])
def test_the_offer_is_nobody_elses(campaign, offered, client_as, role):
    before = everything(campaign)
    link = u("handover", offered.token)
    assert client_as(role).get(link).status_code == 404
    assert client_as(role).post(link, {"answer": "accept"}).status_code == 404
    anonymous = client_as("anonymous").post(link, {"answer": "accept"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert everything(campaign) == before


@pytest.mark.parametrize("data", [{}, {"answer": "maybe"}, {"answer": ""}])
def test_a_bad_answer_changes_nothing(campaign, users, offered, data):
    before = everything(campaign)
    response = login(users["heir"]).post(u("handover", offered.token), data)
    assert response.status_code == 422
    assert everything(campaign) == before


def test_a_forged_handover_link_is_not_found(campaign, users, offered):
    for token in ("forged", offered.token[:-1], "é"):
        assert login(users["heir"]).get(u("handover", token)).status_code == 404


def test_a_withdrawn_offer_does_nothing(campaign, users, offered, client_as):
    response = client_as("gm").post(u("handover_withdraw", campaign.pk))
    assert response.status_code == 302
    before = everything(campaign)
    response = login(users["heir"]).post(u("handover", offered.token), {"answer": "accept"})
    assert response.status_code == 409
    assert everything(campaign) == before
    response = client_as("gm").post(u("handover_withdraw", campaign.pk))
    assert response.status_code == 409  # nothing to withdraw


# -- a co-GM while another GM plays ----------------------------------------------------


@pytest.fixture
def gm_plays_spain(client_as, campaign, users, co):
    """The GM plays Spain; the revolt step is open; Great Britain has given orders."""
    response = client_as("gm").post(u("plays", campaign.pk), {"power": "spain"})
    assert response.status_code == 302
    resolve(campaign)
    order(campaign, "great_britain", {"targets": ["minor-0"]})
    campaign.refresh_from_db()
    return campaign


def orders_panel(client, campaign) -> str:
    html = client.get(u("gm", campaign.pk)).content.decode()
    return section(html, 'id="orders-given"')


def exported(client, campaign) -> dict:
    open_phase = [campaign.turn, campaign.phase.position]
    orders = json.loads(client.get(u("export", campaign.pk)).content)["orders"]
    return {o["power"]: o["payload"] for o in orders if o["phase"] == open_phase}


def area_orders(client, campaign) -> str:
    html = client.get(u("area", campaign.pk, "minor-0"), HTTP_HX_REQUEST="true").content.decode()
    return html.split("Orders", 1)[-1]


def test_a_co_gm_reads_no_other_order_until_the_playing_gm_seals(gm_plays_spain, client_as, co):
    campaign = gm_plays_spain
    html = orders_panel(co, campaign)
    assert "Another GM plays Spain" in html and "Minor 000" not in html
    assert "great_britain" not in exported(co, campaign)
    assert "Great Britain" not in area_orders(co, campaign)
    seal = client_as("gm").post(
        u("orders", campaign.pk), {"phase": campaign.phase_id, "ready": "1"}
    )
    assert seal.status_code == 302
    assert "Great Britain makes 1 revolt attempt in Minor 000" in orders_panel(co, campaign)
    assert exported(co, campaign)["great_britain"] == {"targets": ["minor-0"]}
    assert "Great Britain" in area_orders(co, campaign)


def test_a_co_gm_is_offered_no_power_while_another_gm_plays(gm_plays_spain, co, client_as):
    campaign = gm_plays_spain
    seats = section(co.get(u("gm", campaign.pk)).content.decode(), 'id="seats"')
    assert "Another GM plays Spain: one GM plays a power at a time." in seats
    assert u("plays", campaign.pk) not in seats
    assert u("plays", campaign.pk) in section(
        client_as("gm").get(u("gm", campaign.pk)).content.decode(), 'id="seats"'
    )
    resolve(campaign)  # nobody has given orders in the next phase
    before = everything(campaign)
    response = co.post(u("plays", campaign.pk), {"power": "austria"})
    assert response.status_code == 409
    assert "Another GM of this campaign already plays Spain" in response.content.decode()
    assert everything(campaign) == before


# -- quiet GMs ---------------------------------------------------------------------------


@pytest.fixture
def quiet(campaign, settings):
    settings.GM_INACTIVE_DAYS = 14
    then = timezone.now() - timedelta(days=20)
    Event.objects.filter(campaign=campaign).update(created_at=then)
    Seat.objects.filter(campaign=campaign).update(created_at=then)
    Campaign.objects.filter(pk=campaign.pk).update(started_at=then)
    return then


def test_players_and_observers_read_that_the_gms_are_quiet(campaign, client_as, quiet):
    notice = "Your GMs have not acted here since"
    player = client_as("player").get(u("detail", campaign.pk)).content.decode()
    assert notice in player and u("new_gm_request", campaign.pk) in player
    observer = client_as("observer").get(u("detail", campaign.pk)).content.decode()
    assert notice in observer and u("new_gm_request", campaign.pk) not in observer
    assert notice not in client_as("gm").get(u("detail", campaign.pk)).content.decode()


def test_a_player_asks_for_a_new_gm_once(campaign, users, client_as, quiet):
    player = client_as("player")
    response = player.post(u("new_gm_request", campaign.pk))
    assert response.status_code == 302 and response["Location"] == u("detail", campaign.pk)
    assert NewGmRequest.objects.filter(campaign=campaign, user=users["player"]).exists()
    page = player.get(u("detail", campaign.pk)).content.decode()
    assert "You have asked the site's admins for a new GM." in page
    before = everything(campaign)
    response = player.post(u("new_gm_request", campaign.pk))
    assert response.status_code == 409
    assert "You have already asked" in response.content.decode()
    assert everything(campaign) == before


def test_no_request_while_the_gms_act_nor_from_another_seat(campaign, client_as, settings):
    settings.GM_INACTIVE_DAYS = 14
    before = everything(campaign)
    response = client_as("player").post(u("new_gm_request", campaign.pk))
    assert response.status_code == 422
    assert "have acted lately" in response.content.decode()
    assert client_as("observer").post(u("new_gm_request", campaign.pk)).status_code == 403
    assert client_as("gm").post(u("new_gm_request", campaign.pk)).status_code == 403
    assert client_as("outsider").post(u("new_gm_request", campaign.pk)).status_code == 404
    assert client_as("player").get(u("new_gm_request", campaign.pk)).status_code == 405
    assert everything(campaign) == before


def test_the_admin_lists_the_requests_and_the_offers(campaign, users, quiet, client_as):
    admin = User.objects.create_superuser("root", "root@example.org", "x")
    gm_team.ask_for_new_gm(campaign_id=campaign.pk, user=users["player"])
    heir = User.objects.create_user(f"heir-{campaign.pk}")
    gm_team.offer_handover(campaign_id=campaign.pk, user=heir, actor=users["gm"])
    client = login(admin)
    requests = client.get(reverse("admin:campaign_newgmrequest_changelist")).content.decode()
    assert users["player"].username in requests
    offers = client.get(reverse("admin:campaign_handover_changelist")).content.decode()
    assert heir.username in offers


def test_readers_who_share_a_drawing_of_the_map_read_the_same_orders(
    gm_plays_spain, client_as, users
):
    """The map's cache key says whose orders its reader reads: a co-GM (Spain's, which
    another GM plays) and an observer (none) never share one drawing."""
    campaign = gm_plays_spain
    draft = client_as("gm").post(u("orders", campaign.pk), {"phase": campaign.phase_id})
    assert draft.status_code == 302
    drawn = {}
    for role in ("co", "observer", "player", "gm"):
        state = load_state(services.seat_for(users[role], campaign.pk))
        key = map_context(state, set())["map_cache_key"]
        drawn.setdefault(key, []).append(readable_payloads(state))
    assert len(drawn) == 4
    assert all(len({json.dumps(p, sort_keys=True) for p in same}) == 1 for same in drawn.values())
