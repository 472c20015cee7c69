"""The dashboard's other GM controls (the deadline and its clock, the schedule, seats,
lobby, press rules, rule options and orders for the GM) answer in place when sent by its
HTMX forms: their section, saying what was done, and out of band only what they change,
with every form's state version renewed. A refusal answers the same way, having changed
nothing; without HTMX they go back to the whole dashboard."""

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.urls import reverse

from campaign.models import Campaign, Seat
from campaign.play.services import resolve_open_phase
from campaign.views import gm as gm_views
from tests.factories import snapshot
from tests.gm_forms import log_seen

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ALWAYS = {"submissions"}  # who owes orders comes with every answer, and the log's new lines
NEW_LOG_LINES = re.compile(
    r'<ol data-hx-swap-oob="beforeend:#log-lines-(\d+)" data-log-added>(.*?)</ol>', re.S
)


@dataclass(frozen=True)
class Control:
    url: str  # the URL name
    section: str  # the id of the section that answers
    also: frozenset  # the ids of what else it sends, out of band
    data: Callable  # (campaign, users) -> the post
    args: Callable = lambda campaign: []
    changed: Callable = lambda campaign: None  # what the post changed, read back


def spain_seat(campaign) -> Seat:
    return campaign.seats.get(power__key="spain")


def options(campaign, users) -> dict:
    data = {key: str(value) for key, value in campaign.rule_options.items()}
    return {**data, "dice_mode": "scripted"}


CONTROLS = {
    "deadline": Control(
        "deadline",
        "phase",
        frozenset({"gm-lead"}),
        lambda c, u: {"phase": c.phase_id, "deadline": "2999-01-01T10:00"},
        changed=lambda c: c.phase.deadline,
    ),
    "schedule": Control(
        "schedule",
        "schedule",
        frozenset({"gm-lead", "phase"}),
        lambda c, u: {"hours_revolt": "48", "webhook_url": ""},
        changed=lambda c: c.deadline_hours,
    ),
    "seat": Control(
        "seat",
        "seats",
        frozenset({"phase", "orders-given", "lobby"}),
        lambda c, u: {"username": u["outsider"].username},
        args=lambda c: [spain_seat(c).pk],
        changed=lambda c: spain_seat(c).user_id,
    ),
    "absent": Control(
        "absent",
        "seats",
        frozenset({"phase", "orders-given", "lobby"}),
        lambda c, u: {"absent": "on"},
        args=lambda c: [spain_seat(c).power_id],
        changed=lambda c: spain_seat(c).power.absent,
    ),
    "observer": Control(
        "observer",
        "seats",
        frozenset({"phase", "orders-given", "lobby"}),
        lambda c, u: {},
        changed=lambda c: c.seats.filter(role=Seat.Role.OBSERVER).count(),
    ),
    "lobby": Control(
        "lobby_settings",
        "lobby",
        frozenset({"seats", "phase"}),
        lambda c, u: {"lobby_open": "on"},
        changed=lambda c: c.lobby_open,
    ),
    "press rules": Control(
        "press_rules",
        "press-rules",
        frozenset(),
        lambda c, u: {"press": "public"},
        changed=lambda c: c.press,
    ),
    "options": Control(
        "options",
        "options",
        frozenset({"gm-lead", "phase", "sequence", "state-panels"}),
        options,
        changed=lambda c: c.dice_mode,
    ),
    "orders for the GM": Control(
        "gm_orders_reveal",
        "gm-orders",
        frozenset(),
        lambda c, u: {},  # unticked: the log no longer reveals them
        changed=lambda c: c.reveal_gm_orders,
    ),
}


def post(client, campaign, control: Control, data, **headers):
    url = reverse(f"campaign:{control.url}", args=[campaign.pk, *control.args(campaign)])
    return client.post(url, data, **headers)


def oob_ids(html: str) -> set[str]:
    return set(re.findall(r'<\w+ id="([\w-]+)"[^>]*data-hx-swap-oob="true"', html))


def answered(html: str) -> str:
    """The id of the element the answer swaps in where the form was."""
    return re.match(r'\s*<\w+ id="([\w-]+)"', html).group(1)


def fresh(campaign) -> Campaign:
    return Campaign.objects.get(pk=campaign.pk)


@pytest.mark.parametrize("control", CONTROLS.values(), ids=CONTROLS.keys())
def test_a_control_answers_with_its_section_and_what_it_changed(
    campaign, users, client_as, control
):
    gm, before = client_as("gm"), fresh(campaign)
    unchanged = control.changed(before)
    data = {**control.data(before, users), "log_seen": log_seen(gm, campaign)}
    response = post(gm, campaign, control, data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200, html[:2000]
    assert "<html" not in html and 'id="edits"' not in html  # never the whole dashboard
    assert answered(html) == control.section
    assert html.count('<p class="notice success" role="status">') == 1
    assert oob_ids(html) == control.also | ALWAYS
    after = fresh(campaign)
    newest = after.events.latest("pk").pk
    assert NEW_LOG_LINES.search(html).group(1) == str(after.phase_id)
    assert f'id="log-seen" name="log_seen" value="{newest}" data-hx-swap-oob="true"' in html
    assert control.changed(after) != unchanged
    assert (
        f'<input type="hidden" name="state_version" value="{after.state_version}" '
        'data-hx-swap-oob="outerHTML:input[name=state_version]">'
    ) in html


@pytest.mark.raw_gm_posts
@pytest.mark.parametrize("control", CONTROLS.values(), ids=CONTROLS.keys())
def test_a_stale_control_answers_the_current_section_and_changes_nothing(
    campaign, users, client_as, control
):
    gm = client_as("gm")
    stale = fresh(campaign).state_version
    observer = CONTROLS["observer"]  # another change first
    post(gm, campaign, observer, {"state_version": stale}, **HTMX)
    before = snapshot(campaign)
    data = {**control.data(fresh(campaign), users), "state_version": stale}
    response = post(gm, campaign, control, data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 409 and snapshot(campaign) == before
    assert answered(html) == control.section
    assert '<p class="notice error" role="status">The campaign changed after' in html
    assert f'name="state_version" value="{fresh(campaign).state_version}" data-hx-swap-oob' in html


def test_the_deadline_form_shows_the_deadline_saved_in_every_language(campaign, client_as):
    gm = client_as("gm")
    deadline = CONTROLS["deadline"]
    for language in ("en", "el", "ru"):
        data = {"phase": campaign.phase_id, "deadline": "2999-01-01T10:00"}
        response = post(gm, campaign, deadline, data, HTTP_ACCEPT_LANGUAGE=language, **HTMX)
        assert 'type="datetime-local" name="deadline" value="2999-01-01T10:00"' in (
            response.content.decode()
        )


def test_a_refused_control_says_why_in_its_section_and_changes_nothing(campaign, client_as):
    before = snapshot(campaign)
    data = {"phase": campaign.phase_id, "deadline": "tomorrow"}
    response = post(client_as("gm"), campaign, CONTROLS["deadline"], data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422 and snapshot(campaign) == before
    assert answered(html) == "phase" and '<p class="notice error" role="status">' in html


def test_the_clock_answers_in_the_phase_section(campaign, client_as):
    gm = client_as("gm")
    deadline = CONTROLS["deadline"]
    post(gm, campaign, deadline, deadline.data(campaign, {}), **HTMX)
    set_at = fresh(campaign).phase.deadline
    data = {"phase": campaign.phase_id, "action": "extend", "hours": "24"}
    response = gm.post(reverse("campaign:clock", args=[campaign.pk]), data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and answered(html) == "phase"
    assert "Deadline extended." in html
    assert '<details class="clock open-wide" open>' in html  # what was done stays in view
    assert (fresh(campaign).phase.deadline - set_at).total_seconds() == 24 * 3600


def test_a_control_after_which_the_phase_moved_on_reloads_the_dashboard(
    campaign, users, client_as, monkeypatch
):
    def options_and_a_resolution(**_):
        resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
        )

    monkeypatch.setattr(gm_views, "set_options", options_and_a_resolution)
    control = CONTROLS["options"]
    response = post(client_as("gm"), campaign, control, options(campaign, users), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("campaign:gm", args=[campaign.pk])


@pytest.mark.parametrize("control", CONTROLS.values(), ids=CONTROLS.keys())
def test_without_htmx_a_control_goes_back_to_the_dashboard(campaign, users, client_as, control):
    response = post(client_as("gm"), campaign, control, control.data(campaign, users))
    assert response.status_code == 302
    assert response.url == reverse("campaign:gm", args=[campaign.pk]) + f"#{control.section}"


@pytest.mark.parametrize("role, status", [("player", 403), ("observer", 403), ("outsider", 404)])
def test_only_the_gm_s_controls_answer(campaign, users, client_as, role, status):
    before = snapshot(campaign)
    for control in CONTROLS.values():
        response = post(client_as(role), campaign, control, control.data(campaign, users), **HTMX)
        assert response.status_code == status and snapshot(campaign) == before


def test_ending_the_campaign_from_htmx_reloads_the_dashboard(campaign, client_as):
    url = reverse("campaign:end", args=[campaign.pk])
    response = client_as("gm").post(url, {"confirm": "on"}, **HTMX)
    assert fresh(campaign).ended_at is not None
    assert response["HX-Redirect"] == reverse("campaign:gm", args=[campaign.pk])


def test_a_line_logged_after_the_page_was_drawn_comes_with_the_next_change(campaign, client_as):
    gm = client_as("gm")
    seen = log_seen(gm, campaign)
    # a player's draft is logged without changing the state the GM's forms carry
    drafted = {"phase": campaign.phase_id, "ready": "0", "lapse": ["palatinate"]}
    client_as("other_player").post(reverse("campaign:orders", args=[campaign.pk]), drafted)
    assert fresh(campaign).state_version == campaign.state_version
    deadline = CONTROLS["deadline"]
    data = {**deadline.data(campaign, {}), "log_seen": seen}
    html = post(gm, campaign, deadline, data, **HTMX).content.decode()
    added = NEW_LOG_LINES.search(html).group(2)
    assert added.count("<li") == 2
    assert "saved its orders as a draft" in added and "deadline" in added


@pytest.mark.parametrize("seen", ["", "abc", "²", "1" * 40, "-1", "0"])
def test_a_page_that_does_not_say_where_its_log_ends_gets_the_whole_log(campaign, client_as, seen):
    deadline = CONTROLS["deadline"]
    data = {**deadline.data(campaign, {}), "log_seen": seen}
    html = post(client_as("gm"), campaign, deadline, data, **HTMX).content.decode()
    assert "log" in oob_ids(html) and not NEW_LOG_LINES.search(html)
    assert f'id="log-seen" name="log_seen" value="{fresh(campaign).events.latest("pk").pk}"' in html


def test_the_gm_taking_a_power_reloads_the_dashboard(campaign, users, client_as):
    """What the page may show changes with it (the GM's orders, the map of a side)."""
    url = reverse("campaign:plays", args=[campaign.pk])
    response = client_as("gm").post(url, {"power": "spain"}, **HTMX)
    assert response["HX-Redirect"] == reverse("campaign:gm", args=[campaign.pk])
    assert campaign.seats.get(role=Seat.Role.GM).power.key == "spain"
