"""The GM's schedule controls through the client (extend, pause, resume the deadline;
the schedule form with its webhook checks; absent powers; the failure notice), refusals
that change nothing, each user's preferences, and deadlines shown in the reader's time
zone (chosen, else the browser's)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaign import errors
from campaign.models import Campaign, Event, Phase, Power, Profile
from campaign.play import scheduling, services
from rules.dice import ScriptedDice
from rules.translation import render
from tests.factories import make_vq_campaign, seat_users, snapshot
from tests.services.test_scheduling import give_orders, run_worker

pytestmark = pytest.mark.django_db
START = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
WINTER_DEADLINE = datetime(2026, 1, 14, 9, 0, tzinfo=UTC)  # Athens: 11:00 EET
SUMMER_DEADLINE = datetime(2026, 7, 14, 9, 0, tzinfo=UTC)  # Athens: 12:00 EEST


@pytest.fixture(autouse=True)
def frozen(time_machine):
    time_machine.move_to(START, tick=False)


def post(client, campaign, name: str, data: dict, *args):
    return client.post(reverse(f"campaign:{name}", args=[campaign.pk, *args]), data)


def page(response) -> str:
    return unescape(response.content.decode())


def deadline_in(campaign, hours: float) -> Phase:
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=START + timedelta(hours=hours))
    return Phase.objects.get(pk=campaign.phase_id)


def gm_lines(campaign) -> list[str]:
    return list(
        Event.objects.filter(campaign=campaign, kind=Event.Kind.GM)
        .order_by("pk")
        .values_list("text", flat=True)
    )


# -- extend, pause, resume ----------------------------------------------------------


def test_the_gm_extends_pauses_and_resumes_the_deadline(campaign, client_as, time_machine):
    gm = client_as("gm")
    phase = deadline_in(campaign, 10)
    dashboard = page(gm.get(reverse("campaign:gm", args=[campaign.pk])))
    assert "Pause the clock" in dashboard and "Resume the clock" not in dashboard

    response = post(gm, campaign, "clock", {"phase": phase.pk, "action": "extend", "hours": "24"})
    assert response.status_code == 302 and response["Location"].endswith("#phase")
    phase.refresh_from_db()
    assert phase.deadline == START + timedelta(hours=34)
    assert gm_lines(campaign)[-1] == "Deadline extended by 24 h, to 13 January 2026, 19:00 UTC."
    line = Event.objects.filter(campaign=campaign, kind=Event.Kind.GM).latest("pk")
    with translation.override("el"):
        assert "13 Ιανουαρίου 2026, 19:00 UTC" in render(line.message)
    with translation.override("ru"):
        assert "13 января 2026, 19:00 UTC" in render(line.message)

    time_machine.move_to(START + timedelta(hours=4), tick=False)
    response = post(gm, campaign, "clock", {"phase": phase.pk, "action": "pause"})
    assert response.status_code == 302
    phase.refresh_from_db()
    assert (phase.deadline, phase.paused_remaining) == (None, timedelta(hours=30))
    dashboard = page(gm.get(response["Location"]))
    assert "Deadline paused." in dashboard
    assert "The deadline is paused" in dashboard and "Resume the clock" in dashboard

    time_machine.move_to(START + timedelta(days=5), tick=False)  # long past the old one
    response = post(gm, campaign, "clock", {"phase": phase.pk, "action": "resume"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("campaign:gm", args=[campaign.pk]))
    phase.refresh_from_db()
    assert phase.deadline == START + timedelta(days=5, hours=30)
    assert phase.paused_remaining is None


def test_a_clock_paused_with_no_time_left_can_still_be_resumed(campaign, client_as, time_machine):
    """Automatic resolution off: the deadline passed and the GM pauses the clock (0 left).
    The dashboard must still say it is paused and offer to resume it."""
    Campaign.objects.filter(pk=campaign.pk).update(auto_resolve=False)
    gm = client_as("gm")
    phase = deadline_in(campaign, 1)
    time_machine.move_to(START + timedelta(hours=2), tick=False)
    response = post(gm, campaign, "clock", {"phase": phase.pk, "action": "pause"})
    assert response.status_code == 302
    phase.refresh_from_db()
    assert phase.paused_remaining == timedelta(0)
    dashboard = page(gm.get(reverse("campaign:gm", args=[campaign.pk])))
    assert "The deadline is paused" in dashboard
    assert "Resume the clock" in dashboard


BAD_CLOCK = {
    "extend by 0 hours": ({"action": "extend", "hours": "0"}, 10, 422, "Hours:"),
    "extend by 999 hours": ({"action": "extend", "hours": "999"}, 10, 422, "Hours:"),
    "extend by a word": ({"action": "extend", "hours": "abc"}, 10, 422, "Hours:"),
    "extend by nothing": ({"action": "extend"}, 10, 422, "Say by how many hours"),
    "an unknown action": ({"action": "explode", "hours": "1"}, 10, 422, "explode"),
    "a phase id that is a word": ({"phase": "abc", "action": "pause"}, 10, 422, ""),
    "pause without a deadline": ({"action": "pause"}, None, 422, "no deadline to pause"),
    "resume when not paused": ({"action": "resume"}, 10, 422, "The deadline is not paused"),
}


@pytest.mark.parametrize("case", list(BAD_CLOCK))
def test_bad_clock_requests_are_refused_and_change_nothing(case, campaign, client_as):
    data, hours, status, message = BAD_CLOCK[case]
    if hours is not None:
        deadline_in(campaign, hours)
    before = snapshot(campaign)
    response = post(client_as("gm"), campaign, "clock", {"phase": campaign.phase_id, **data})
    assert response.status_code == status
    assert message in page(response)
    assert snapshot(campaign) == before


def test_extending_a_paused_clock_is_refused(campaign, client_as):
    gm = client_as("gm")
    phase = deadline_in(campaign, 10)
    post(gm, campaign, "clock", {"phase": phase.pk, "action": "pause"})
    before = snapshot(campaign)
    response = post(gm, campaign, "clock", {"phase": phase.pk, "action": "extend", "hours": "5"})
    assert response.status_code == 422
    assert "The deadline is paused: resume it first." in page(response)
    assert snapshot(campaign) == before


@pytest.mark.parametrize("action", ["extend", "pause", "resume"])
def test_a_stale_phase_id_is_a_conflict(action, campaign, client_as, advance_to):
    stale = deadline_in(campaign, 10).pk
    advance_to(campaign, "revolt")
    deadline_in(campaign, 10)
    before = snapshot(campaign)
    data = {"phase": stale, "action": action, "hours": "5"}
    response = post(client_as("gm"), campaign, "clock", data)
    assert response.status_code == 409
    assert "That phase is no longer open: nothing was changed." in page(response)
    assert snapshot(campaign) == before


@pytest.mark.parametrize("action", ["extend", "pause", "resume"])
def test_a_phase_waiting_for_a_decision_has_no_clock_to_change(action, monkeypatch):
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    give_orders(
        campaign, "spain", payload={"action": "conversion", "zones": ["france"], "attempts": 3}
    )
    monkeypatch.setattr(services, "_dice_for", lambda *a: ScriptedDice([6, 4, 1]))
    campaign.refresh_from_db()
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    phase = Phase.objects.get(pk=campaign.phase_id)
    assert phase.status == Phase.Status.WAITING
    Phase.objects.filter(pk=phase.pk).update(deadline=START + timedelta(hours=5))
    gm = Client()
    gm.force_login(users["gm"])
    before = snapshot(campaign)
    response = post(gm, campaign, "clock", {"phase": phase.pk, "action": action, "hours": "5"})
    assert response.status_code == 409
    assert "waits for a decision" in page(response)
    assert snapshot(campaign) == before


def test_a_deadline_in_the_past_is_refused(campaign, client_as):
    before = snapshot(campaign)
    data = {"phase": campaign.phase_id, "deadline": "2026-01-12T08:59"}  # UTC: a minute ago
    response = post(client_as("gm"), campaign, "deadline", data)
    assert response.status_code == 422
    assert "A deadline must be in the future." in page(response)
    assert snapshot(campaign) == before


def test_setting_a_deadline_clears_a_paused_clock(campaign, client_as):
    gm = client_as("gm")
    phase = deadline_in(campaign, 10)
    post(gm, campaign, "clock", {"phase": phase.pk, "action": "pause"})
    response = post(gm, campaign, "deadline", {"phase": phase.pk, "deadline": "2026-01-20T12:00"})
    assert response.status_code == 302
    phase.refresh_from_db()
    assert phase.deadline == datetime(2026, 1, 20, 12, 0, tzinfo=UTC)
    assert phase.paused_remaining is None


# -- the schedule form --------------------------------------------------------------


def test_the_schedule_form_saves_automatic_resolution_hours_and_webhook(campaign, client_as):
    gm = client_as("gm")
    html = page(gm.get(reverse("campaign:gm", args=[campaign.pk])))
    assert 'name="hours_revolt"' in html and 'name="webhook_url"' in html
    data = {
        "webhook_url": "https://discord.example.com/api/webhooks/1/abc",
        "hours_revolt": "48",
        "hours_land": "72",
        "hours_peace": "",
    }  # auto_resolve unchecked: off
    response = post(gm, campaign, "schedule", data)
    assert response.status_code == 302 and response["Location"].endswith("#schedule")
    campaign.refresh_from_db()
    assert campaign.auto_resolve is False
    assert campaign.deadline_hours == {"revolt": 48, "land": 72}
    assert campaign.webhook_url == "https://discord.example.com/api/webhooks/1/abc"
    assert gm_lines(campaign)[-1] == (
        "Schedule: automatic resolution off; default deadlines: Political phase · revolt step "
        "48 h, Land phase · guerrilla steps 72 h; webhook set."
    )
    html = page(gm.get(reverse("campaign:gm", args=[campaign.pk])))
    assert "You resolve the phase (automatic" in html


BAD_SCHEDULES = {
    "not http": "ftp://hooks.example.com/courier",
    "javascript": "javascript:alert(1)",
    "localhost": "http://localhost/hook",
    "localhost with a port": "https://localhost:8443/hook",
    "loopback": "http://127.0.0.1:8000/hook",
    "another loopback": "http://127.0.0.2/hook",
    "IPv6 loopback": "http://[::1]/hook",
    "10.x": "http://10.1.2.3/hook",
    "192.168.x": "https://192.168.1.20/hook",
    "172.16.x": "http://172.16.0.5/hook",
    "link-local": "http://169.254.169.254/latest/meta-data",
    "this server": "https://courier.example.org/hook",
    "this server, upper case": "https://COURIER.example.org/hook",
    "an allowed host": "https://play.example.net/hook",
    "a .localhost name (loopback, RFC 6761)": "http://courier.localhost:8000/hook",
}


@pytest.mark.parametrize("case", list(BAD_SCHEDULES))
def test_a_webhook_that_is_not_another_public_http_server_is_refused(
    case, campaign, client_as, settings
):
    settings.SITE_URL = "https://courier.example.org"
    settings.ALLOWED_HOSTS = ["courier.example.org", "play.example.net", "testserver"]
    before = snapshot(campaign)
    data = {"auto_resolve": "on", "webhook_url": BAD_SCHEDULES[case]}
    response = post(client_as("gm"), campaign, "schedule", data)
    assert response.status_code == 422
    assert "webhook" in page(response).lower() or "URL" in page(response)
    assert snapshot(campaign) == before


@pytest.mark.parametrize(
    "url",
    [
        "http://127.1/hook",  # inet_aton's short forms and numbers: 127.0.0.1
        "http://2130706433/hook",
        "http://0x7f000001/hook",
        "http://0/hook",  # 0.0.0.0: this host
        "http://[::]/hook",
    ],
)
def test_the_schedule_service_refuses_other_spellings_of_this_host(url, campaign, users):
    """The form's URL check happens to refuse these; the service, which other code calls
    (an import, the shell), must refuse them itself: urllib connects each to this host."""
    before = snapshot(campaign)
    with pytest.raises(errors.ServiceError, match="webhook"):
        scheduling.set_schedule(
            campaign_id=campaign.pk,
            auto_resolve=True,
            deadline_hours={},
            webhook_url=url,
            actor=users["gm"],
        )
    assert snapshot(campaign) == before


@pytest.mark.parametrize("hours", ["0", "-4", "abc", "99999"])
def test_bad_default_hours_are_refused(hours, campaign, client_as):
    before = snapshot(campaign)
    response = post(client_as("gm"), campaign, "schedule", {"hours_revolt": hours})
    assert response.status_code == 422
    assert snapshot(campaign) == before


# -- absent powers ------------------------------------------------------------------


def test_the_gm_marks_a_power_absent_and_back(campaign, client_as):
    gm = client_as("gm")
    spain = campaign.powers.get(key="spain")
    html = page(gm.get(reverse("campaign:gm", args=[campaign.pk])))
    assert reverse("campaign:absent", args=[campaign.pk, spain.pk]) in html
    response = post(gm, campaign, "absent", {"absent": "on"}, spain.pk)
    assert response.status_code == 302
    spain.refresh_from_db()
    assert spain.absent
    line = Event.objects.filter(campaign=campaign, kind=Event.Kind.SEAT).latest("pk")
    assert (
        line.text == ("Spain is absent: it owes no orders and its default orders apply.")
        and line.power == spain
    )
    html = page(gm.get(reverse("campaign:gm", args=[campaign.pk])))
    assert "(default orders)" in html
    assert post(gm, campaign, "absent", {}, spain.pk).status_code == 302
    spain.refresh_from_db()
    assert not spain.absent


def test_a_power_of_another_campaign_cannot_be_marked_absent(campaign, client_as):
    other = Power.objects.exclude(campaign=campaign).first() or Power.objects.create(
        campaign=Campaign.objects.create(name="x", ruleset="empires_in_arms", scenario="t"),
        key="x",
        name="X",
    )
    before = snapshot(campaign)
    response = post(client_as("gm"), campaign, "absent", {"absent": "on"}, other.pk)
    assert response.status_code == 422
    assert "There is no such power in this campaign." in page(response)
    assert snapshot(campaign) == before
    other.refresh_from_db()
    assert not other.absent


def test_marking_the_last_power_not_ready_absent_resolves_the_phase(
    campaign, client_as, django_capture_on_commit_callbacks
):
    peace = campaign.phase_id
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "france")
    assert run_worker(django_capture_on_commit_callbacks) == []
    britain = campaign.powers.get(key="great_britain")
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client_as("gm"), campaign, "absent", {"absent": "on"}, britain.pk)
    assert response.status_code == 302
    outcomes = run_worker(django_capture_on_commit_callbacks)
    assert ("resolve_phase", "resolved") in outcomes
    campaign.refresh_from_db()
    assert campaign.phase_id != peace and campaign.phase.key == "revolt"


def test_the_dashboard_shows_a_failed_resolution(campaign, client_as):
    Phase.objects.filter(pk=campaign.phase_id).update(failure="RuntimeError: the engine broke")
    html = page(client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])))
    assert "The last automatic resolution failed and was undone:" in html
    assert "RuntimeError: the engine broke" in html
    html = page(client_as("player").get(reverse("campaign:detail", args=[campaign.pk])))
    assert "RuntimeError" not in html


@pytest.mark.parametrize("role", ["player", "other_player", "observer"])
def test_players_and_observers_may_not_touch_the_clock(role, campaign, client_as):
    client = client_as(role)
    spain = campaign.powers.get(key="spain")
    deadline_in(campaign, 10)
    before = snapshot(campaign)
    calls = [
        ("clock", {"phase": campaign.phase_id, "action": "extend", "hours": "5"}, ()),
        ("clock", {"phase": campaign.phase_id, "action": "pause"}, ()),
        ("schedule", {"auto_resolve": "", "webhook_url": "https://a.example.com/"}, ()),
        ("absent", {"absent": "on"}, (spain.pk,)),
        ("gm", {}, ()),
    ]
    for name, data, args in calls:
        assert post(client, campaign, name, data, *args).status_code == 403, name
    assert snapshot(campaign) == before


# -- preferences and time zones -----------------------------------------------------


def test_preferences_are_shown_and_saved(campaign, users):
    client = Client()
    client.force_login(users["player"])
    url = reverse("campaign:preferences")
    html = page(client.get(url))
    assert 'name="time_zone"' in html and 'name="reminder_hours" value="24, 2"' in html
    # what each campaign mails is chosen on its own page
    assert reverse("campaign:mail_settings", args=[campaign.pk]) in html
    response = client.post(
        url,
        {"email": "france@example.org", "time_zone": "Europe/Athens", "reminder_hours": "1; 8"},
    )
    assert response.status_code == 302
    profile = Profile.objects.get(user=users["player"])
    assert (profile.time_zone, profile.reminder_hours) == ("Europe/Athens", [8, 1])
    assert profile.unconfirmed_email == "france@example.org"  # mailed once its link is followed
    html = page(client.get(url))
    assert "Preferences saved." in html and 'name="reminder_hours" value="8, 1"' in html
    assert client.post(url, {"time_zone": "Europe/Athens", "reminder_hours": ""}).status_code == 302
    assert Profile.objects.get(user=users["player"]).reminder_hours == []  # never reminded


@pytest.mark.parametrize(
    "data",
    [
        {"time_zone": "Mars/Olympus_Mons"},
        {"time_zone": "Europe/Athens", "email": "not an address"},
        {"time_zone": "Europe/Athens", "reminder_hours": "0"},
        {"time_zone": "Europe/Athens", "reminder_hours": "24, two"},
        {"time_zone": "Europe/Athens", "reminder_hours": "169"},  # longer than a week
        {"time_zone": "Europe/Athens", "reminder_hours": "1, 2, 3, 4, 5, 6, 7"},
    ],
)
def test_bad_preferences_are_refused(data, users):
    client = Client()
    client.force_login(users["player"])
    response = client.post(reverse("campaign:preferences"), data)
    assert response.status_code == 422
    profile = Profile.objects.filter(user=users["player"]).first()
    assert profile is None or (profile.time_zone, profile.reminder_hours) == ("", [24, 2])
    users["player"].refresh_from_db()
    assert users["player"].email == ""


def detail_lead(client, campaign) -> str:
    html = page(client.get(reverse("campaign:detail", args=[campaign.pk])))
    return html.split('<p class="lead">', 1)[1].split("</p>", 1)[0]


@pytest.mark.parametrize(
    ("deadline", "shown"),
    [(WINTER_DEADLINE, "14 Jan 2026 11:00 EET"), (SUMMER_DEADLINE, "14 Jul 2026 12:00 EEST")],
)
def test_a_deadline_is_shown_in_the_chosen_time_zone(deadline, shown, campaign, users):
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=deadline)
    client = Client()
    client.force_login(users["player"])
    client.cookies["tz"] = "America/New_York"  # the chosen zone wins over the browser's
    assert (
        client.post(
            reverse("campaign:preferences"),
            {"time_zone": "Europe/Athens", "reminder_hours": "24, 2"},
        ).status_code
        == 302
    )
    assert shown in detail_lead(client, campaign)

    later = Client()  # a new login reads the zone from the profile
    later.force_login(users["player"])
    assert shown in detail_lead(later, campaign)


def test_without_a_chosen_zone_the_browsers_time_zone_is_used(campaign, users):
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=WINTER_DEADLINE)
    client = Client()
    client.force_login(users["player"])
    assert "14 Jan 2026 09:00 UTC" in detail_lead(client, campaign)
    client.cookies["tz"] = "America/New_York"
    assert "14 Jan 2026 04:00 EST" in detail_lead(client, campaign)
    client.cookies["tz"] = "Not/A_Zone"
    response = client.get(reverse("campaign:detail", args=[campaign.pk]))
    assert response.status_code == 200
    assert "14 Jan 2026 09:00 UTC" in detail_lead(client, campaign)


def test_the_gm_enters_a_deadline_in_the_gm_s_own_time_zone(campaign, users):
    gm = Client()
    gm.force_login(users["gm"])
    preferences = {"time_zone": "Europe/Athens", "reminder_hours": "24, 2"}
    assert gm.post(reverse("campaign:preferences"), preferences).status_code == 302
    data = {"phase": campaign.phase_id, "deadline": "2026-01-20T12:00"}
    assert post(gm, campaign, "deadline", data).status_code == 302
    phase = Phase.objects.get(pk=campaign.phase_id)
    assert phase.deadline == datetime(2026, 1, 20, 10, 0, tzinfo=UTC)
    html = page(gm.get(reverse("campaign:gm", args=[campaign.pk])))
    assert "Deadline: 20 Jan 2026 12:00 EET." in " ".join(html.split())
