"""The away period for every campaign through the pages: saved from the preferences page
by every role (only a power's seats take it), shown there as saved, and saved again as
shown without undoing a GM's refusal; ended there; bad input refused with a clear error,
changing nothing, never a 500; the campaign page's away panel says where the period
comes from."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape

import pytest
from django.urls import reverse

from campaign.models import Profile, Seat
from campaign.play import scheduling
from tests.factories import snapshot
from tests.views.conftest import ROLES

pytestmark = pytest.mark.django_db
START = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
UNTIL = datetime(2026, 1, 15, 9, 0, tzinfo=UTC)
URL = reverse("campaign:away_everywhere")
FROM_PREFERENCES = "Set in your preferences for every campaign"


@pytest.fixture(autouse=True)
def frozen(time_machine):
    time_machine.move_to(START, tick=False)


def text(response) -> str:
    """The page's words, without its tags."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", response.content.decode())).split())


def france(campaign) -> Seat:
    return Seat.objects.get(campaign=campaign, power__key="france")


def periods(campaign) -> dict[int, tuple]:
    seats = Seat.objects.filter(campaign=campaign)
    return {s.pk: (s.away_from, s.away_until, s.away_refused) for s in seats}


def saved(user) -> tuple:
    found = Profile.objects.filter(user=user).values_list("away_from", "away_until").first()
    return found or (None, None)


@pytest.mark.parametrize("role", ROLES)
def test_every_role_saves_it_and_only_a_power_seat_takes_it(campaign, users, client_as, role):
    before = periods(campaign)
    response = client_as(role).post(URL, {"start": "", "end": "2026-01-15T09:00"})
    if role == "anonymous":
        assert response.status_code == 302 and "login" in response["Location"]
        assert periods(campaign) == before
        return
    assert response.status_code == 302 and response["Location"] == reverse("campaign:preferences")
    assert saved(users[role]) == (START, UNTIL)
    seat = Seat.objects.filter(campaign=campaign, user=users[role]).first()
    changed = {pk for pk, held in periods(campaign).items() if held != before[pk]}
    if role in ("player", "other_player"):
        assert changed == {seat.pk} and periods(campaign)[seat.pk] == (START, UNTIL, False)
    else:
        assert changed == set()


def test_the_page_shows_it_as_saved_and_saving_it_again_keeps_a_refusal(
    campaign, users, client_as, time_machine
):
    player = client_as("player")
    player.post(URL, {"start": "", "end": "2026-01-15T09:00"})
    seat = france(campaign)
    scheduling.refuse_away(campaign_id=campaign.pk, seat_id=seat.pk, actor=users["gm"])
    time_machine.move_to(datetime(2026, 1, 13, 9, 0, tzinfo=UTC), tick=False)
    page = player.get(reverse("campaign:preferences"))
    html = text(page)
    assert "You are away from 12 Jan 2026 09:00 UTC until 15 Jan 2026 09:00 UTC" in html
    form = page.context["away_form"]
    shown = {name: form[name].value() for name in ("start", "end")}
    data = {name: form.fields[name].widget.format_value(value) for name, value in shown.items()}
    assert data == {"start": "2026-01-12T09:00", "end": "2026-01-15T09:00"}
    before = snapshot(campaign)
    assert player.post(URL, data).status_code == 302
    assert snapshot(campaign) == before
    assert france(campaign).away_refused


def test_ending_it_from_the_preferences(campaign, users, client_as):
    player = client_as("player")
    player.post(URL, {"start": "", "end": "2026-01-15T09:00"})
    response = player.post(URL, {"action": "back"}, follow=True)
    assert "Welcome back" in text(response)
    assert periods(campaign)[france(campaign).pk] == (None, None, False)
    assert saved(users["player"]) == (None, None)
    refused = player.post(URL, {"action": "back"})
    assert refused.status_code == 422
    assert "You have no away period to end." in text(refused)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"start": "2026-01-11T09:00", "end": "2026-01-15T09:00"}, "cannot begin in the past"),
        ({"start": "", "end": "2026-01-11T09:00"}, "must end after it begins"),
        ({"start": "", "end": "2026-04-15T09:00"}, "lasts at most 60 days"),
        ({"start": "", "end": "someday"}, "Enter a valid date/time"),
        ({"start": "2026-02-30T25:61", "end": "2026-01-15T09:00"}, "Enter a valid date/time"),
        ({"start": ""}, "This field is required"),
        ({"end": "x" * 5000}, "Enter a valid date/time"),
    ],
)
def test_bad_input_changes_nothing(campaign, users, client_as, data, said):
    before = snapshot(campaign)
    response = client_as("player").post(URL, data)
    assert response.status_code == 422
    html = text(response)
    assert said in html and "Your away period was not saved." in html
    assert snapshot(campaign) == before
    assert saved(users["player"]) == (None, None)


def test_only_a_post_is_taken(client_as):
    assert client_as("player").get(URL).status_code == 405


def test_the_campaign_page_says_the_period_comes_from_the_preferences(campaign, client_as):
    player = client_as("player")
    player.post(URL, {"start": "", "end": "2026-01-15T09:00"})
    html = text(player.get(reverse("campaign:detail", args=[campaign.pk])))
    assert "You are away until 15 Jan 2026 09:00 UTC" in html and FROM_PREFERENCES in html
    # a period set on one campaign's page is that campaign's own
    assert (
        player.post(reverse("campaign:away", args=[campaign.pk]), {"end": "2026-01-14T09:00"})
    ).status_code == 302
    html = text(player.get(reverse("campaign:detail", args=[campaign.pk])))
    assert "You are away until 14 Jan 2026 09:00 UTC" in html and FROM_PREFERENCES not in html


def test_the_preferences_page_links_to_the_profile(users, client_as):
    html = client_as("player").get(reverse("campaign:preferences")).content.decode()
    assert reverse("campaign:profile", args=[users["player"].username]) in html
