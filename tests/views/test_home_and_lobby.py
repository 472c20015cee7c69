"""The home page (the user's campaigns, the most urgent first, in a fixed number of
queries) and the lobby's pages: the list of campaigns looking for players, asking for a
seat and watching, the GM's settings and answers on the dashboard."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.core import readiness
from campaign.models import Campaign, Order, Phase, Power, Profile, Seat, SeatRequest
from campaign.people import home
from campaign.press import press
from tests.factories import make_eia_campaign, snapshot

pytestmark = pytest.mark.django_db
User = get_user_model()
HOME = reverse("campaign:list")
LOBBY = reverse("campaign:lobby")


def seat(campaign, user, power: str | None = None, role: str = "player") -> Seat:
    """Give ``user`` the power's seat, or the campaign's GM or observer seat."""
    found = campaign.seats.get(power__key=power) if power else campaign.seats.get(role=role)
    found.user = user
    found.save(update_fields=["user"])
    return found


def set_deadline(campaign, hours: float | None) -> None:
    deadline = timezone.now() + timedelta(hours=hours) if hours is not None else None
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=deadline)


def mark_ready(campaign, key: str) -> None:
    power = campaign.powers.get(key=key)
    Order.objects.create(campaign=campaign, phase_id=campaign.phase_id, power=power, ready=True)


@pytest.fixture
def reader(db):
    return User.objects.create_user("reader", "reader@example.org")


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def rows(response) -> list[tuple[str, bool, bool]]:
    return [(e.campaign.name, e.owes, e.ready) for e in response.context["entries"]]


# -- the home page ---------------------------------------------------------------------------


def named(name: str) -> Campaign:
    campaign = make_eia_campaign(areas=3)
    Campaign.objects.filter(pk=campaign.pk).update(name=name)
    campaign.refresh_from_db()
    return campaign


def test_the_home_page_puts_the_orders_awaited_first_by_deadline(reader):
    """In the peace step Great Britain owes orders and France does not. "Run" has no
    player there at all: its GM closes the phase, which needs them before the rest
    (tests/views/test_needs_you.py)."""
    later, ready, sooner, not_owed, run = (
        named(n) for n in ("Later", "Ready", "Sooner", "Not owed", "Run")
    )
    for campaign, hours in ((later, 30), (ready, 1), (sooner, 5), (not_owed, 2)):
        set_deadline(campaign, hours)
    for campaign in (later, ready, sooner):
        seat(campaign, reader, "great_britain")
    mark_ready(ready, "great_britain")
    seat(not_owed, reader, "france")
    seat(run, reader, role="gm")
    response = client_for(reader).get(HOME)
    assert rows(response) == [
        ("Sooner", True, False),
        ("Later", True, False),
        ("Run", False, False),
        ("Ready", True, True),
        ("Not owed", False, False),
    ]
    page = response.content.decode()
    assert page.count('class="urgent"') == 2
    assert "Awaited: not ready" in page and "GM dashboard" in page


def test_the_deadline_is_shown_in_the_readers_time_zone(reader):
    campaign = named("Tokyo time")
    seat(campaign, reader, "great_britain")
    Profile.objects.create(user=reader, time_zone="Asia/Tokyo")
    deadline = timezone.now().replace(year=2031, month=3, day=1, hour=12, minute=0)
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=deadline)
    page = client_for(reader).get(HOME).content.decode()
    assert "1 Mar 2031 21:00" in page  # 12:00 UTC


def test_the_home_page_counts_the_press_the_reader_has_not_read(reader):
    campaign = named("Talkative")
    mine = seat(campaign, reader, "france")
    writer = seat(campaign, User.objects.create_user("writer"), "great_britain")
    writer = Seat.objects.select_related("campaign", "power").get(pk=writer.pk)
    for text in ("Hear ye", "Hear ye again"):
        press.post_message(seat=writer, to=press.PUBLIC, text=text)
    press.post_message(seat=writer, to="gm", text="Only for the GM")
    (entry,) = client_for(reader).get(HOME).context["entries"]
    mine = Seat.objects.select_related("campaign", "power").get(pk=mine.pk)
    listed = press.entries(mine, reader, press.campaign_powers(campaign))
    assert entry.unread == sum(e.unread for e in listed) == 2


def home_queries(count: int, user) -> int:
    for n in range(count):
        campaign = make_eia_campaign(areas=3)
        role = ("great_britain", "france", None)[n % 3]
        seat(campaign, user, role, role="observer")
        set_deadline(campaign, n + 1)
    client = client_for(user)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(HOME)
    assert len(response.context["entries"]) == count
    return len(captured)


def test_the_home_page_costs_the_same_queries_for_2_and_20_campaigns(db):
    two = home_queries(2, User.objects.create_user("two"))
    twenty = home_queries(20, User.objects.create_user("twenty"))
    assert two == twenty <= 8


def owing_states():
    """(description, how to change the campaign) for the states the tests compare."""

    def absent(campaign):
        Power.objects.filter(campaign=campaign, key="great_britain").update(absent=True)

    def away(campaign):
        now = timezone.now()
        Seat.objects.filter(campaign=campaign, power__key="great_britain").update(
            away_from=now - timedelta(hours=1), away_until=now + timedelta(days=1)
        )

    def refused_away(campaign):
        away(campaign)
        Seat.objects.filter(campaign=campaign, power__key="great_britain").update(away_refused=True)

    def nothing_owed(campaign):
        Phase.objects.filter(pk=campaign.phase_id).update(owing=[])

    return {
        "as it opens": lambda c: None,
        "absent": absent,
        "away": away,
        "away, refused": refused_away,
        "nothing to order": nothing_owed,
    }


@pytest.mark.parametrize("state", owing_states())
@pytest.mark.parametrize("power", ["great_britain", "france"])
def test_the_home_page_owes_what_scheduling_says_is_owed(reader, state, power):
    campaign = make_eia_campaign(areas=3)
    seat(campaign, reader, power)
    seat(campaign, User.objects.create_user("other"), "france" if power != "france" else "spain")
    owing_states()[state](campaign)
    campaign.refresh_from_db()
    owing = {p.key for p in readiness.owing_powers(campaign, campaign.phase)}
    (entry,) = home.entries(reader)
    assert entry.owes == (power in owing)


def test_a_phase_under_way_awaits_no_orders(reader):
    campaign = make_eia_campaign(areas=3)
    seat(campaign, reader, "great_britain")
    Phase.objects.filter(pk=campaign.phase_id).update(status=Phase.Status.WAITING)
    (entry,) = home.entries(reader)
    assert not entry.owes
    assert "Under way" in client_for(reader).get(HOME).content.decode()


# -- the lobby -------------------------------------------------------------------------------


@pytest.fixture
def listed(db):
    """A campaign in the lobby, its GM, and Great Britain's player."""
    campaign = make_eia_campaign(areas=3)
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True, name="Open table")
    campaign.refresh_from_db()
    gm = User.objects.create_user("gm", "gm@example.org")
    seat(campaign, gm, role="gm")
    seat(campaign, User.objects.create_user("briton"), "great_britain")
    return campaign, gm


def ask_url(campaign, key: str = "spain") -> str:
    return reverse("campaign:lobby_ask", args=[campaign.pk, campaign.powers.get(key=key).pk])


def test_anyone_reads_the_lobby_and_is_sent_to_sign_up_and_back(listed):
    campaign, _gm = listed
    make_eia_campaign(areas=3)  # not in the lobby
    response = Client().get(LOBBY)
    page = response.content.decode()
    assert [listing.campaign for listing in response.context["listings"]] == [campaign]
    assert "Open table" in page and "Empires in Arms" in page and "Spain" in page
    assert "Great Britain" not in page.split("Open table", 1)[1].split("</section>")[0]
    assert f"{reverse('campaign:signup')}?next=/lobby/" in page
    assert "Ask to play" not in page


def test_a_user_asks_for_a_seat_and_the_gm_accepts_it(listed, reader):
    campaign, gm = listed
    response = client_for(reader).post(ask_url(campaign))
    assert response.status_code == 302 and response.url == LOBBY
    page = client_for(reader).get(LOBBY).content.decode()
    assert "You asked to play Spain: waiting for the GM's answer." in page
    assert (
        "Spain in Open table: waiting for the GM" in client_for(reader).get(HOME).content.decode()
    )
    dashboard = client_for(gm).get(reverse("campaign:gm", args=[campaign.pk]))
    (asked,) = dashboard.context["seat_requests"]
    html = dashboard.content.decode()
    form = html.split(reverse("campaign:seat_request", args=[campaign.pk, asked.pk]), 1)[1]
    assert 'name="state_version"' in form.split("</form>")[0]
    assert "reader asks to play Spain" in html
    url = reverse("campaign:seat_request", args=[campaign.pk, asked.pk])
    response = client_for(gm).post(url, {"answer": "accept"})
    assert response.status_code == 302 and response.url.endswith("#lobby")
    assert campaign.seats.get(power__key="spain").user == reader
    assert client_for(reader).get(reverse("campaign:detail", args=[campaign.pk])).status_code == 200


def test_the_gm_answers_a_request_in_place(listed, reader):
    campaign, gm = listed
    client_for(reader).post(ask_url(campaign))
    url = reverse("campaign:seat_request", args=[campaign.pk, SeatRequest.objects.get().pk])
    response = client_for(gm).post(url, {"answer": "accept"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'id="lobby"' in html.split(">", 1)[0] and 'id="seats"' in html
    assert campaign.seats.get(power__key="spain").user == reader


def test_the_gm_refuses_a_request(listed, reader):
    campaign, gm = listed
    client_for(reader).post(ask_url(campaign))
    asked = SeatRequest.objects.get()
    url = reverse("campaign:seat_request", args=[campaign.pk, asked.pk])
    assert client_for(gm).post(url, {"answer": "refuse"}).status_code == 302
    assert SeatRequest.objects.get().status == "refused"
    assert campaign.seats.get(power__key="spain").user is None


def test_a_campaign_that_seats_at_once_sends_the_player_to_the_campaign(listed, reader):
    campaign, _gm = listed
    Campaign.objects.filter(pk=campaign.pk).update(lobby_at_once=True)
    assert "Play Spain" in client_for(reader).get(LOBBY).content.decode()
    response = client_for(reader).post(ask_url(campaign))
    assert response.url == reverse("campaign:detail", args=[campaign.pk])
    assert campaign.seats.get(power__key="spain").user == reader


def test_anyone_logged_in_may_watch_where_the_gm_allows_it(listed, reader):
    campaign, _gm = listed
    url = reverse("campaign:lobby_watch", args=[campaign.pk])
    refused = client_for(reader).post(url)
    assert refused.status_code == 422
    assert "cannot be watched from the lobby" in refused.content.decode()
    Campaign.objects.filter(pk=campaign.pk).update(lobby_watch=True)
    assert "Watch as an observer" in client_for(reader).get(LOBBY).content.decode()
    response = client_for(reader).post(url)
    assert response.url == reverse("campaign:detail", args=[campaign.pk])
    assert campaign.seats.get(user=reader).role == Seat.Role.OBSERVER


@pytest.mark.parametrize(
    "case, status, said",
    [
        ("closed", 422, "This campaign does not take players from the lobby."),
        ("taken", 409, "Great Britain&#x27;s seat has already been taken."),
        ("twice", 409, "You have already asked for a seat in this campaign"),
        ("seated", 409, "You already have a seat in this campaign."),
        ("foreign power", 422, "This campaign has no such seat to offer."),
        ("no campaign", 422, "This campaign does not exist."),
    ],
)
def test_a_refused_request_says_why_and_changes_nothing(listed, reader, case, status, said):
    campaign, gm = listed
    other = make_eia_campaign(areas=3)
    client = client_for(gm if case == "seated" else reader)
    url = ask_url(campaign, "great_britain" if case == "taken" else "spain")
    if case == "closed":
        Campaign.objects.filter(pk=campaign.pk).update(lobby_open=False)
    elif case == "twice":
        client.post(ask_url(campaign, "austria"))
    elif case == "foreign power":
        url = reverse("campaign:lobby_ask", args=[campaign.pk, other.powers.first().pk])
    elif case == "no campaign":
        url = reverse("campaign:lobby_ask", args=[10**17, 1])
    before, requests = snapshot(campaign), SeatRequest.objects.count()
    response = client.post(url)
    assert response.status_code == status
    assert said in response.content.decode()
    assert snapshot(campaign) == before and SeatRequest.objects.count() == requests


def test_the_gm_opens_the_lobby_from_the_dashboard(listed):
    campaign, gm = listed
    url = reverse("campaign:lobby_settings", args=[campaign.pk])
    page = client_for(gm).get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    form = page.split(f'action="{url}"', 1)[1].split("</form>")[0]
    assert 'name="state_version"' in form and 'name="lobby_at_once"' in form
    response = client_for(gm).post(url, {"lobby_open": "on", "lobby_watch": "on"})
    assert response.status_code == 302 and response.url.endswith("#lobby")
    campaign.refresh_from_db()
    assert (campaign.lobby_open, campaign.lobby_at_once, campaign.lobby_watch) == (
        True,
        False,
        True,
    )


@pytest.mark.raw_gm_posts
def test_a_stale_answer_is_refused(listed, reader):
    campaign, gm = listed
    client_for(reader).post(ask_url(campaign))
    asked = SeatRequest.objects.get()
    url = reverse("campaign:seat_request", args=[campaign.pk, asked.pk])
    stale = {"answer": "accept", "state_version": campaign.state_version - 1 or 999}
    response = client_for(gm).post(url, stale)
    assert response.status_code == 409
    assert SeatRequest.objects.get().status == "pending"


def test_a_request_of_another_campaign_is_refused_on_the_dashboard(listed, reader):
    campaign, gm = listed
    other = make_eia_campaign(areas=3)
    Campaign.objects.filter(pk=other.pk).update(lobby_open=True)
    client_for(reader).post(ask_url(other))
    asked = SeatRequest.objects.get()
    url = reverse("campaign:seat_request", args=[campaign.pk, asked.pk])
    response = client_for(gm).post(url, {"answer": "accept"})
    assert response.status_code == 422
    assert "This campaign has no such request." in response.content.decode()
    assert SeatRequest.objects.get().status == "pending"
    assert other.seats.get(power__key="spain").user is None


@pytest.mark.parametrize("role", ["briton", "reader"])
def test_only_the_gm_answers(listed, reader, role):
    campaign, _gm = listed
    client_for(reader).post(ask_url(campaign))
    asked = SeatRequest.objects.get()
    url = reverse("campaign:seat_request", args=[campaign.pk, asked.pk])
    who = User.objects.get(username=role)
    response = client_for(who).post(url, {"answer": "accept"})
    assert response.status_code == (403 if role == "briton" else 404)
    assert SeatRequest.objects.get().status == "pending"
