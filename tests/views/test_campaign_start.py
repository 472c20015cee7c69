"""A new campaign's schedule and start through the client: the new-campaign form's pace,
hours and start (bad input refused with its reason, nothing created), the campaign page
and GM dashboard saying that it has not started and what starts it, the GM's start
control for every role, and the schedule form's choice for the open phase's deadline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from django.urls import reverse

from campaign.models import Campaign, Event, Phase
from campaign.play import scheduling
from rules.engine import registry
from tests.factories import snapshot
from tests.views.conftest import ROLES

pytestmark = pytest.mark.django_db
START = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def frozen(time_machine):
    time_machine.move_to(START, tick=False)


def page(response) -> str:
    return unescape(response.content.decode())


def new(client, **data):
    base = {"name": "Spring 1805", "scenario": "eia-1805", "dice_mode": "seeded"}
    return client.post(reverse("campaign:new"), {**base, **data})


def not_started(campaign: Campaign) -> Campaign:
    """The fixture's campaign as if made by the new-campaign form: not started yet."""
    Campaign.objects.filter(pk=campaign.pk).update(started_at=None)
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=None)
    campaign.refresh_from_db()
    return campaign


# -- the new-campaign form -----------------------------------------------------------


def test_the_form_offers_a_pace_and_when_to_start(client_as):
    html = page(client_as("outsider").get(reverse("campaign:new")))
    assert 'name="pace"' in html and 'name="start_when"' in html
    assert '<option value="standard" selected>standard: 48 h for orders, 12 h for a GM step' in html
    assert '<option value="gm" selected>when the GM says so</option>' in html
    assert '<option value="seats">when every seat is taken</option>' in html
    assert 'name="orders_hours"' in html and 'name="gm_hours"' in html


def test_a_new_campaign_takes_its_pace_and_waits_to_start(client_as):
    client = client_as("outsider")
    response = new(client, pace="fast", start_when="seats", gm_hours="")
    created = Campaign.objects.get(name="Spring 1805")
    assert response["Location"] == reverse("campaign:gm", args=[created.pk])
    assert created.deadline_hours == scheduling.pace_hours(registry()["empires_in_arms"], "fast")
    assert created.start_when == Campaign.StartWhen.SEATS and created.started_at is None
    assert created.phase.deadline is None
    dashboard = page(client.get(response["Location"]))
    assert "It starts when every seat is taken." in dashboard  # the message
    assert "The campaign has not started yet." in dashboard
    assert "It starts by itself when every seat is taken: 7 powers still have no player" in (
        " ".join(dashboard.split())
    )
    assert "not started yet" in dashboard and "Start the campaign" in dashboard


def test_the_gm_own_hours_replace_the_pace(client_as):
    new(client_as("outsider"), pace="none", orders_hours="30")
    created = Campaign.objects.get(name="Spring 1805")
    assert created.deadline_hours and set(created.deadline_hours.values()) == {30}
    assert created.start_when == Campaign.StartWhen.GM


def test_a_post_without_the_new_fields_takes_their_defaults(client_as):
    new(client_as("outsider"))
    created = Campaign.objects.get(name="Spring 1805")
    assert created.deadline_hours == scheduling.pace_hours(
        registry()["empires_in_arms"], "standard"
    )
    assert created.start_when == Campaign.StartWhen.GM and created.started_at is None


@pytest.mark.parametrize(
    "data, error",
    [
        ({"pace": "glacial"}, "“glacial” is not a pace Courier offers: pick one listed."),
        ({"orders_hours": "-5"}, "A deadline is a whole number of hours from 1 to 1440."),
        ({"gm_hours": "0"}, "A deadline is a whole number of hours from 1 to 1440."),
        ({"gm_hours": "99999"}, "A deadline is a whole number of hours from 1 to 1440."),
        ({"orders_hours": "two"}, "Enter a whole number."),
        ({"start_when": "never"}, "“never” is not a way to start: pick one listed."),
    ],
)
def test_bad_input_is_refused_with_its_reason_and_creates_nothing(client_as, data, error):
    before = Campaign.objects.count()
    response = new(client_as("outsider"), **data)
    assert response.status_code == 422
    assert error in page(response)
    assert Campaign.objects.count() == before


# -- what the pages say before the start ---------------------------------------------


def test_the_campaign_page_says_it_has_not_started_and_what_starts_it(campaign, client_as):
    not_started(campaign)
    html = " ".join(page(client_as("player").get(campaign.get_absolute_url())).split())
    assert "The campaign has not started yet: it starts when the GM starts it." in html
    Campaign.objects.filter(pk=campaign.pk).update(start_when=Campaign.StartWhen.SEATS)
    html = " ".join(page(client_as("player").get(campaign.get_absolute_url())).split())
    assert "The campaign has not started yet: it starts when every seat is taken." in html
    Campaign.objects.filter(pk=campaign.pk).update(started_at=START)
    html = page(client_as("player").get(campaign.get_absolute_url()))
    assert "has not started yet" not in html


def test_the_dashboard_of_a_started_campaign_offers_no_start(campaign, client_as):
    html = page(client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])))
    assert "has not started yet" not in html and "Start the campaign" not in html


# -- the GM's start control ----------------------------------------------------------


@pytest.mark.parametrize("role", [r for r in ROLES if r != "gm"])
def test_only_the_gm_may_start_the_campaign(campaign, client_as, role):
    not_started(campaign)
    before = snapshot(campaign)
    response = client_as(role).post(reverse("campaign:start", args=[campaign.pk]), {})
    expected = {"anonymous": 302, "outsider": 404}.get(role, 403)
    assert response.status_code == expected
    if role == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    assert snapshot(campaign) == before
    campaign.refresh_from_db()
    assert campaign.started_at is None


def test_the_gm_starts_the_campaign_in_place(campaign, client_as, users):
    not_started(campaign)
    Campaign.objects.filter(pk=campaign.pk).update(deadline_hours={"peace": 24})
    gm = client_as("gm")
    response = gm.post(reverse("campaign:start", args=[campaign.pk]), {}, **HTMX)
    assert response.status_code == 200
    html = page(response)
    assert "The campaign has started." in html
    assert 'id="phase"' in html and "has not started yet" not in html
    campaign.refresh_from_db()
    assert campaign.started_at == START
    assert campaign.phase.deadline == START + timedelta(hours=24)
    line = Event.objects.filter(campaign=campaign, kind=Event.Kind.GM).latest("pk")
    assert line.text.startswith(f"GM {users['gm'].username} starts the campaign: ")
    assert line.actor == users["gm"]

    again = gm.post(reverse("campaign:start", args=[campaign.pk]), {}, **HTMX)
    assert again.status_code == 409
    assert "This campaign has already started." in page(again)


def test_the_gm_starts_the_campaign_without_htmx(campaign, client_as):
    not_started(campaign)
    response = client_as("gm").post(reverse("campaign:start", args=[campaign.pk]), {})
    assert response.status_code == 302
    assert response["Location"].endswith(reverse("campaign:gm", args=[campaign.pk]) + "#phase")
    campaign.refresh_from_db()
    assert campaign.started_at == START


def test_a_stale_start_is_refused_and_changes_nothing(campaign, client_as):
    not_started(campaign)
    before = snapshot(campaign)
    data = {"state_version": campaign.state_version - 1}
    response = client_as("gm").post(reverse("campaign:start", args=[campaign.pk]), data)
    assert response.status_code == 409
    assert snapshot(campaign) == before


# -- the schedule form and the open phase --------------------------------------------


def schedule(client, campaign, **data):
    base = {"auto_resolve": "on", "webhook_url": "", "hours_peace": "10"}
    url = reverse("campaign:schedule", args=[campaign.pk])
    return client.post(url, {**base, **data}, **HTMX)


def test_the_schedule_form_offers_to_set_the_open_phase_deadline(campaign, client_as):
    html = page(client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])))
    assert "Also set the open phase's deadline from this schedule" in html
    assert 'id="id_apply_to_open"' in html
    assert 'id="id_apply_to_open" checked' not in html  # unless asked, the deadline stays


def test_saving_the_schedule_says_what_became_of_the_open_phase(campaign, client_as):
    gm = client_as("gm")
    response = schedule(gm, campaign, apply_to_open="on")
    assert response.status_code == 200
    assert "Schedule saved. The open phase's deadline is now 12 January 2026, 19:00 UTC." in page(
        response
    )
    campaign.refresh_from_db()
    assert campaign.phase.deadline == START + timedelta(hours=10)

    response = schedule(gm, campaign, hours_peace="30")
    assert "Schedule saved. The open phase keeps its deadline, 12 January 2026, 19:00 UTC." in (
        page(response)
    )
    campaign.refresh_from_db()
    assert campaign.deadline_hours == {"peace": 30}
    assert campaign.phase.deadline == START + timedelta(hours=10)


def test_a_schedule_saved_before_the_start_applies_as_it_starts(campaign, client_as):
    not_started(campaign)
    gm = client_as("gm")
    response = schedule(gm, campaign, apply_to_open="on")
    assert "The open phase gets its deadline from this schedule as the campaign starts." in (
        page(response)
    )
    campaign.refresh_from_db()
    assert campaign.phase.deadline is None
    gm.post(reverse("campaign:start", args=[campaign.pk]), {})
    campaign.refresh_from_db()
    assert campaign.phase.deadline == START + timedelta(hours=10)
