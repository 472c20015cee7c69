"""Deadline extensions through the pages: a power's player takes one with one click on
the campaign page (with HTMX or not) and every page then shows the new deadline; a click
from a page that showed an older deadline, or bad input, is refused with the reason and
changes nothing; only the power's player may click; the GM sets the rules and sees each
power's budget on the dashboard; the lobby's words for a campaign's rules."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, Extension, Phase
from tests.factories import make_eia_campaign, seat_users, snapshot
from tests.gm_forms import log_seen

pytestmark = pytest.mark.django_db
START = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)  # the users' zone is UTC
DUE = START + timedelta(hours=48)
BUTTON = "Extend the deadline by 24 h (2 of 2 left this year)"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def frozen(time_machine, campaign):
    """The clock at START; the open phase (the peace step) due two days later."""
    time_machine.move_to(START, tick=False)
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=DUE)


def text(response) -> str:
    return " ".join(unescape(response.content.decode()).split())


def detail(client, campaign) -> str:
    return text(client.get(reverse("campaign:detail", args=[campaign.pk])))


def dashboard(client, campaign) -> str:
    return text(client.get(reverse("campaign:gm", args=[campaign.pk])))


def extend(client, campaign, seen=DUE, **extra):
    data = {"phase": campaign.phase_id, "seen_deadline": seen.isoformat()}
    return client.post(reverse("campaign:take_extension", args=[campaign.pk]), data, **extra)


def set_rules(client, campaign, data: dict, **extra):
    return client.post(reverse("campaign:extension_rules", args=[campaign.pk]), data, **extra)


def unchanged(campaign, call) -> object:
    """The response of ``call``, which changed nothing."""
    before, taken = snapshot(campaign), Extension.objects.count()
    response = call()
    assert snapshot(campaign) == before
    assert Extension.objects.count() == taken
    return response


# -- the player's click ------------------------------------------------------------------


def test_the_player_extends_and_every_page_shows_the_new_deadline(campaign, client_as):
    player = client_as("player")
    page = detail(player, campaign)
    assert "is open until 14 Jan 2026 09:00 UTC" in page
    assert BUTTON in page
    assert f'name="seen_deadline" value="{DUE.isoformat()}"' in page
    response = extend(player, campaign)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:detail", args=[campaign.pk])
    page = detail(player, campaign)
    assert "You extended the deadline by 24 h: it is now Jan. 15, 2026, 09:00 (UTC)." in page
    assert "Extend the deadline by 24 h (1 of 2 left this year)" in page
    for role in ("player", "other_player", "observer", "gm"):
        assert "is open until 15 Jan 2026 09:00 UTC" in detail(client_as(role), campaign)
    gm_page = dashboard(client_as("gm"), campaign)
    assert "Deadline: 15 Jan 2026 09:00 UTC." in gm_page
    assert "France takes an extension of 24 h: the deadline is now 15 January 2026" in gm_page


def test_with_htmx_the_page_is_loaded_again(campaign, client_as):
    response = extend(client_as("player"), campaign, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("campaign:detail", args=[campaign.pk])
    assert Extension.objects.get().power.key == "france"


def test_only_a_power_s_player_sees_the_button(campaign, client_as):
    assert BUTTON in detail(client_as("other_player"), campaign)
    for role in ("observer", "gm"):
        assert "Extend the deadline" not in detail(client_as(role), campaign)
    Campaign.objects.filter(pk=campaign.pk).update(extensions_per_year=0)
    assert "Extend the deadline" not in detail(client_as("player"), campaign)


def test_a_page_older_than_the_deadline_is_refused_with_the_new_one(campaign, client_as):
    player = client_as("player")
    assert extend(player, campaign).status_code == 302
    response = unchanged(campaign, lambda: extend(player, campaign))  # the double click
    assert response.status_code == 409
    page = text(response)
    assert "The deadline has moved meanwhile: it is now Jan. 15, 2026, 09:00 (UTC)." in page
    assert "is open until 15 Jan 2026 09:00 UTC" in page
    response = unchanged(campaign, lambda: extend(player, campaign, **HTMX))
    assert response.status_code == 409
    part = text(response)
    assert part.startswith('<div id="extension"')
    assert "The deadline has moved meanwhile" in part
    new = (DUE + timedelta(hours=24)).isoformat()
    assert f'name="seen_deadline" value="{new}"' in part  # the fresh button, to click again
    assert "(1 of 2 left this year)" in part


def test_a_refusal_says_why(campaign, client_as):
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=START - timedelta(minutes=1))
    response = unchanged(
        campaign, lambda: extend(client_as("player"), campaign, START - timedelta(minutes=1))
    )
    assert response.status_code == 422
    assert "The deadline has passed: it can no longer be extended." in text(response)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"phase": "x1", "seen_deadline": DUE.isoformat()},
        {"phase": "1", "seen_deadline": "2024-02-30T25:61"},
        {"seen_deadline": DUE.isoformat()},
        {"phase": str(2**70), "seen_deadline": DUE.isoformat()},
        {"phase": "1", "seen_deadline": "x" * 5000},
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_input_changes_nothing(campaign, client_as, data, htmx):
    url = reverse("campaign:take_extension", args=[campaign.pk])
    extra = HTMX if htmx else {}
    response = unchanged(campaign, lambda: client_as("player").post(url, data, **extra))
    assert response.status_code == 422


@pytest.mark.parametrize(
    ("role", "status"),
    [("observer", 403), ("gm", 403), ("outsider", 404), ("stranger", 404)],
)
def test_nobody_but_the_power_s_player_extends(campaign, client_as, role, status):
    if role == "stranger":  # a player of another campaign
        client = Client()
        client.force_login(seat_users(make_eia_campaign())["player"])
    else:
        client = client_as(role)
    assert unchanged(campaign, lambda: extend(client, campaign)).status_code == status
    assert unchanged(campaign, lambda: extend(client, campaign, **HTMX)).status_code == status


def test_anonymous_is_sent_to_log_in(campaign, client_as):
    response = unchanged(campaign, lambda: extend(client_as("anonymous"), campaign))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    url = reverse("campaign:take_extension", args=[campaign.pk])
    assert client_as("player").get(url).status_code == 405


# -- the GM's rules and budgets ----------------------------------------------------------


def test_the_gm_sees_each_power_s_budget(campaign, client_as):
    extend(client_as("player"), campaign)
    page = dashboard(client_as("gm"), campaign)
    table = page.split('id="extensions"')[1].split("</table>")[0]
    assert "<tr><td>France</td><td>1</td><td>1</td></tr>" in table
    assert "<tr><td>Great Britain</td><td>0</td><td>2</td></tr>" in table
    assert 'name="extensions_per_year" value="2"' in page


def test_the_budgets_cost_one_query_however_many_were_taken(campaign, client_as):
    gm = client_as("gm")

    def extension_queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert gm.get(reverse("campaign:gm", args=[campaign.pk])).status_code == 200
        return sum("campaign_extension" in query["sql"] for query in captured)

    assert extension_queries() == 1
    extend(client_as("player"), campaign)
    extend(client_as("other_player"), campaign, DUE + timedelta(hours=24))
    assert Extension.objects.count() == 2
    assert extension_queries() == 1
    Campaign.objects.filter(pk=campaign.pk).update(extensions_per_year=0)
    assert extension_queries() == 0  # no budgets to show


def test_the_gm_sets_the_rules(campaign, client_as):
    gm = client_as("gm")
    data = {"extensions_per_year": "3", "extension_hours": "12", "extension_cap_hours": "36"}
    response = set_rules(gm, campaign, data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.extensions_per_year, campaign.extension_hours) == (3, 12)
    assert campaign.extension_cap_hours == 36
    page = detail(client_as("player"), campaign)
    assert "Extend the deadline by 12 h (3 of 3 left this year)" in page


def test_the_gm_sets_the_rules_in_place(campaign, client_as):
    gm = client_as("gm")
    data = {"extensions_per_year": "0", "extension_hours": "24", "extension_cap_hours": "48"}
    response = set_rules(gm, campaign, {**data, "log_seen": log_seen(gm, campaign)}, **HTMX)
    assert response.status_code == 200
    part = text(response)
    assert part.startswith('<section id="extensions"')
    assert "Extension rules saved." in part
    assert "The GM sets the deadline extensions: the players take no extensions." in part
    assert Campaign.objects.get(pk=campaign.pk).extensions_per_year == 0
    html = response.content.decode()  # out of band: who owes orders and the new log line
    swapped = re.findall(r'<\w+ id="([\w-]+)"[^>]*data-hx-swap-oob="true"', html)
    assert set(swapped) == {"submissions"}
    version = Campaign.objects.get(pk=campaign.pk).state_version
    assert f'name="state_version" value="{version}" data-hx-swap-oob=' in html


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (
            {"extensions_per_year": "2", "extension_hours": "24", "extension_cap_hours": "12"},
            "cannot be fewer than one extension's (24).",
        ),
        (
            {"extensions_per_year": "21", "extension_hours": "24", "extension_cap_hours": "48"},
            "less than or equal to 20",
        ),
        (
            {"extensions_per_year": "2", "extension_hours": "0", "extension_cap_hours": "48"},
            "greater than or equal to 1",
        ),
        ({"extensions_per_year": "-1"}, "This field is required."),
        (
            {"extensions_per_year": "x", "extension_hours": "9" * 5000, "extension_cap_hours": ""},
            "Enter a whole number.",
        ),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_rules_out_of_range_change_nothing(campaign, client_as, data, said, htmx):
    extra = HTMX if htmx else {}
    response = unchanged(campaign, lambda: set_rules(client_as("gm"), campaign, data, **extra))
    assert response.status_code == 422
    assert said in text(response)


@pytest.mark.parametrize(
    ("role", "status"), [("player", 403), ("observer", 403), ("outsider", 404)]
)
def test_only_the_gm_sets_the_rules(campaign, client_as, role, status):
    data = {"extensions_per_year": "9", "extension_hours": "24", "extension_cap_hours": "48"}
    response = unchanged(campaign, lambda: set_rules(client_as(role), campaign, data))
    assert response.status_code == status


# -- the lobby's words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ((2, 24, 48), "2 extensions of 24 h per power and year, at most 48 h per phase"),
        ((1, 12, 12), "1 extension of 12 h per power and year, at most 12 h per phase"),
        ((0, 24, 48), "no extensions"),
    ],
)
def test_the_lobby_says_a_campaign_s_extensions(campaign, rules, said):
    per_year, hours, cap = rules
    campaign.extensions_per_year, campaign.extension_hours = per_year, hours
    campaign.extension_cap_hours = cap
    terms = render_to_string("campaign/extensions.html#lobby_terms", {"campaign": campaign})
    assert " ".join(terms.split()) == said
