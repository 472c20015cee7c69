"""A player's away period through the pages: marked on the campaign page (the power owes
nothing meanwhile), seen and refused by the GM on the dashboard (the player is told),
ended by the player; bad periods refused with a clear error, changing nothing, never a
500. The campaign page's list of orders says whom the phase waits for. The schedule
panel: one deadline for every impulse, and every deadline paused at once."""

from __future__ import annotations

from datetime import UTC, datetime
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from campaign.core import readiness
from campaign.models import Campaign, Event, Seat
from tests.factories import make_vq_campaign, seat_users, snapshot

pytestmark = pytest.mark.django_db
START = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
UNTIL = "2026-01-15T09:00"  # UTC, the players' zone here


@pytest.fixture(autouse=True)
def frozen(time_machine):
    time_machine.move_to(START, tick=False)


def away(client, campaign, data: dict):
    return client.post(reverse("campaign:away", args=[campaign.pk]), data)


def text(response) -> str:
    return " ".join(unescape(response.content.decode()).split())


def detail(client, campaign) -> str:
    return text(client.get(reverse("campaign:detail", args=[campaign.pk])))


def dashboard(client, campaign) -> str:
    return text(client.get(reverse("campaign:gm", args=[campaign.pk])))


def france_seat(campaign) -> Seat:
    return Seat.objects.get(campaign=campaign, power__key="france")


def owing(campaign) -> list[str]:
    campaign.refresh_from_db()
    return [p.key for p in readiness.owing_powers(campaign, campaign.phase)]


def test_the_campaign_page_says_whom_the_phase_waits_for(campaign, client_as):
    html = detail(client_as("player"), campaign)  # the peace step: Britain's revolt only
    table = html.split('id="submissions"')[1].split("</table>")[0]
    rows = {row.split("</span>")[1].split("</td>")[0]: row for row in table.split("<tr>")[2:]}
    assert "nothing to order" in rows["France"]
    assert "none yet" in rows["Great Britain"]
    assert all("default orders" in rows[p] for p in ("Spain", "Austria", "Russia"))


def test_a_player_marks_himself_away_owes_nothing_and_the_gm_sees_it(
    campaign, client_as, advance_to
):
    advance_to(campaign, "revolt")
    assert owing(campaign) == ["france", "great_britain"]
    player = client_as("player")
    response = away(player, campaign, {"start": "", "end": UNTIL})
    assert response.status_code == 302
    seat = france_seat(campaign)
    assert (seat.away_from, seat.away_until) == (START, datetime(2026, 1, 15, 9, tzinfo=UTC))
    assert owing(campaign) == ["great_britain"]
    html = detail(player, campaign)
    assert "Away period saved." in html
    assert "You are away until 15 Jan 2026 09:00 UTC" in html
    assert "away: default orders" in html
    assert "away</strong> until 15 Jan 2026 09:00 UTC (default orders)" in dashboard(
        client_as("gm"), campaign
    )
    line = Event.objects.filter(campaign=campaign, kind=Event.Kind.SEAT).first()
    assert line.text == (
        "France's player is away from 12 January 2026, 09:00 UTC until 15 January 2026, "
        "09:00 UTC: meanwhile France owes no orders and gets its default orders."
    )


def test_the_gm_refuses_an_away_period_and_the_player_is_told(campaign, client_as, advance_to):
    advance_to(campaign, "revolt")
    player, gm = client_as("player"), client_as("gm")
    away(player, campaign, {"start": "", "end": UNTIL})
    seat = france_seat(campaign)
    url = reverse("campaign:refuse_away", args=[campaign.pk, seat.pk])
    response = gm.post(url, {})
    assert response.status_code == 302 and response["Location"].endswith("#seats")
    seat.refresh_from_db()
    assert seat.away_refused
    assert owing(campaign) == ["france", "great_britain"]  # France owes orders again
    assert "refused" in dashboard(gm, campaign)
    assert (
        "The GM refused your away period (12 Jan 2026 09:00 UTC to 15 Jan 2026 09:00 UTC): "
        "France owes orders as usual." in detail(player, campaign)
    )
    line = Event.objects.filter(campaign=campaign, kind=Event.Kind.SEAT).first()
    assert line.text.startswith("The GM refuses the away period of France's player")

    before = snapshot(campaign)
    again = gm.post(url, {})  # nothing left to refuse: a clear refusal
    assert again.status_code == 422
    assert "That player has no away period to refuse." in text(again)
    assert snapshot(campaign) == before


BAD_PERIODS = {
    "in the past": (
        {"start": "2026-01-12T08:00", "end": UNTIL},
        "An away period cannot begin in the past.",
    ),
    "ending before it begins": (
        {"start": "2026-01-14T09:00", "end": "2026-01-13T09:00"},
        "An away period must end after it begins.",
    ),
    "longer than 60 days": (
        {"start": "", "end": "2026-03-30T09:00"},
        "An away period lasts at most 60 days.",
    ),
    "without an end": ({"start": "2026-01-13T09:00"}, "This field is required."),
    "not a date": ({"end": "next week"}, "Enter a valid date/time."),
    "an impossible date": ({"end": "2026-02-31T09:00"}, "Enter a valid date/time."),
    "a year out of range": ({"end": "99999-01-01T00:00"}, "Enter a valid date/time."),
}


@pytest.mark.parametrize("case", list(BAD_PERIODS))
def test_a_bad_away_period_is_refused_with_a_clear_error_and_changes_nothing(
    case, campaign, client_as
):
    data, message = BAD_PERIODS[case]
    before = snapshot(campaign)
    response = away(client_as("player"), campaign, data)
    assert response.status_code == 422
    html = text(response)
    assert message in html and "Your away period was not saved." in html
    assert snapshot(campaign) == before


def test_the_player_ends_his_away_period(campaign, client_as):
    player = client_as("player")
    away(player, campaign, {"start": "2026-01-13T09:00", "end": UNTIL})
    assert "You will be away from 13 Jan 2026 09:00 UTC until" in detail(player, campaign)
    response = away(player, campaign, {"action": "back"})
    assert response.status_code == 302
    seat = france_seat(campaign)
    assert (seat.away_from, seat.away_until, seat.away_refused) == (None, None, False)
    before = snapshot(campaign)
    again = away(player, campaign, {"action": "back"})
    assert again.status_code == 422 and "You have no away period to end." in text(again)
    assert snapshot(campaign) == before


@pytest.mark.parametrize(("role", "status"), [("observer", 403), ("gm", 403), ("outsider", 404)])
def test_only_a_power_s_player_marks_himself_away(role, status, campaign, client_as):
    before = snapshot(campaign)
    assert away(client_as(role), campaign, {"end": UNTIL}).status_code == status
    assert snapshot(campaign) == before


def test_the_gm_refuses_an_away_period_in_place(campaign, client_as, advance_to):
    advance_to(campaign, "revolt")
    away(client_as("player"), campaign, {"start": "", "end": UNTIL})
    seat = france_seat(campaign)
    url = reverse("campaign:refuse_away", args=[campaign.pk, seat.pk])
    response = client_as("gm").post(url, {}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<section id="seats"') and "refused" in html
    seat.refresh_from_db()
    assert seat.away_refused


@pytest.mark.parametrize("role", ["player", "other_player", "observer"])
def test_only_the_gm_refuses_an_away_period(role, campaign, client_as):
    away(client_as("player"), campaign, {"end": UNTIL})
    before = snapshot(campaign)
    url = reverse("campaign:refuse_away", args=[campaign.pk, france_seat(campaign).pk])
    assert client_as(role).post(url, {}).status_code == 403
    assert snapshot(campaign) == before


def test_a_seat_of_another_campaign_cannot_be_refused(campaign, client_as):
    other = make_vq_campaign()
    seat = other.seats.filter(power__isnull=False).first()
    url = reverse("campaign:refuse_away", args=[campaign.pk, seat.pk])
    assert client_as("gm").post(url, {}).status_code == 404


# -- the schedule panel ---------------------------------------------------------------


def test_the_schedule_panel_pauses_and_resumes_every_deadline(campaign, client_as):
    gm = client_as("gm")
    url = reverse("campaign:schedule", args=[campaign.pk])
    response = gm.post(url, {"auto_resolve": "on", "paused": "on", "hours_revolt": "48"})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.paused_at == START and campaign.deadline_hours == {"revolt": 48}
    checkbox = dashboard(gm, campaign).split('name="paused"')[1].split(">")[0]
    assert "checked" in checkbox
    before = snapshot(campaign)
    data = {"phase": campaign.phase_id, "deadline": "2026-01-20T12:00"}
    refused = gm.post(reverse("campaign:deadline", args=[campaign.pk]), data)
    assert refused.status_code == 422
    assert "Every deadline of the campaign is paused: resume them in the schedule first." in (
        text(refused)
    )
    assert snapshot(campaign) == before
    assert gm.post(url, {"auto_resolve": "on", "hours_revolt": "48"}).status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).paused_at is None


def test_the_schedule_sets_one_deadline_for_every_impulse():
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    gm = Client()
    gm.force_login(users["gm"])
    html = dashboard(gm, campaign)
    assert 'name="hours_impulse"' in html and 'name="hours_impulse_spain"' not in html
    assert "Deadline of an impulse (hours after it opens)" in html
    url = reverse("campaign:schedule", args=[campaign.pk])
    assert gm.post(url, {"auto_resolve": "on", "hours_impulse": "24"}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.deadline_hours == {"impulse": 24}


@pytest.mark.raw_gm_posts
def test_a_refusal_sent_twice_acts_once(campaign, client_as):
    away(client_as("player"), campaign, {"end": UNTIL})
    campaign.refresh_from_db()
    gm, shown = client_as("gm"), {"state_version": campaign.state_version}
    url = reverse("campaign:refuse_away", args=[campaign.pk, france_seat(campaign).pk])
    assert gm.post(url, shown).status_code == 302
    before = snapshot(campaign)
    response = gm.post(url, shown)
    assert response.status_code == 409 and "The campaign changed after this page" in text(response)
    assert snapshot(campaign) == before
