"""A GM edit sent by the dashboard's HTMX form answers in place: the edited row's form
where the edit changed nothing else of its panel, else the whole panel, and out of band
only what the edit changes, with every form's state version renewed; a refusal answers
the whole panel, having changed nothing."""

import re
from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Event
from campaign.play.services import seat_for
from campaign.views.context import load_state
from campaign.views.edit_panels import edit_forms, edited_row
from rules.empires_in_arms.models import EiaPowerStatus
from tests.factories import make_eia_campaign, seat_users, snapshot
from tests.gm_forms import log_seen
from tests.maps import with_map

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def spain_power_edit(campaign, **changes) -> dict:
    data = {
        "power": "spain",
        "zone": "Dominant",
        "political_points": "9",
        "treasury": "15",
        "state_version": str(Campaign.objects.get(pk=campaign.pk).state_version),
    }
    return {**data, **changes}


def post_edit(client, campaign, data, key="power", **headers):
    return client.post(reverse("campaign:edit", args=[campaign.pk, key]), data, **headers)


def spain(campaign) -> EiaPowerStatus:
    return EiaPowerStatus.objects.select_related("power").get(
        power__campaign=campaign, power__key="spain"
    )


def oob_ids(html: str) -> set[str]:
    return set(re.findall(r'<\w+ id="([\w-]+)"[^>]*data-hx-swap-oob="true"', html))


@pytest.mark.raw_gm_posts
def test_an_edit_answers_with_its_row_and_what_it_changed(campaign, client_as):
    gm, before = client_as("gm"), Campaign.objects.get(pk=campaign.pk).state_version
    data = {**spain_power_edit(campaign), "log_seen": log_seen(gm, campaign)}
    response = post_edit(gm, campaign, data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert spain(campaign).zone == "Dominant" and spain(campaign).political_points == 9
    # the row's form takes the place of the one sent; the other powers' rows stand
    assert response["HX-Retarget"] == "#id_PowerForm_spain_edit-row"
    assert response["HX-Reswap"] == "outerHTML"
    assert html.lstrip().startswith('<form id="id_PowerForm_spain_edit-row"')
    assert 'id="id_PowerForm_spain_zone"' in html and 'value="Dominant" selected' in html
    assert "id_PowerForm_france" not in html
    notice = r'<div id="edit-power-notice" data-hx-swap-oob="true"><p class="notice success"'
    assert re.search(notice + r' role="status">[^<]*Spain[^<]*</p></div>', html)
    assert oob_ids(html) == {
        "edit-power-notice",
        "state-panels",
        "submissions",
        "gm-orders",
        "rollback",
    }
    # the log's new line follows the open phase's lines on the page, not the whole log
    phase = Campaign.objects.get(pk=campaign.pk).phase_id
    added = html.split(f'<ol data-hx-swap-oob="beforeend:#log-lines-{phase}" data-log-added>', 1)[1]
    added = added.split("</ol>")[0]
    assert added.count("<li") == 1 and "Spain" in added and 'id="log"' not in html
    renewed = Campaign.objects.get(pk=campaign.pk).state_version
    assert renewed != before
    assert (
        f'<input type="hidden" name="state_version" value="{renewed}" '
        'data-hx-swap-oob="outerHTML:input[name=state_version]">'
    ) in html
    assert 'id="seats"' not in html and 'id="options"' not in html  # not the whole dashboard


@pytest.mark.raw_gm_posts
def test_an_edit_in_place_renews_what_the_rollback_says_it_undoes(campaign, client_as, advance_to):
    advance_to(campaign, "revolt")
    html = post_edit(client_as("gm"), campaign, spain_power_edit(campaign), **HTMX).content.decode()
    rollback = re.search(r'<div id="rollback" data-hx-swap-oob="true">(.*?)</div>', html, re.S)
    assert "It also undoes the GM's edit of the state made since" in rollback.group(1)
    assert re.search(r'<ul class="undone"><li>GM gm-\d+: Spain: [^<]*</li></ul>', rollback.group(1))


@pytest.mark.raw_gm_posts
def test_an_edit_before_the_campaign_starts_sends_no_rollback_it_has_no_place_for():
    unstarted = make_eia_campaign(start=False)
    gm = Client()
    gm.force_login(seat_users(unstarted)["gm"])
    response = post_edit(gm, unstarted, spain_power_edit(unstarted), **HTMX)
    assert response.status_code == 200, response.content.decode()[:500]
    assert 'id="rollback"' not in response.content.decode()


@pytest.mark.raw_gm_posts
def test_an_edit_that_changes_the_map_redraws_it(campaign, client_as):
    data = {
        "area": "palatinate",
        "controller": "spain",
        "state_version": str(Campaign.objects.get(pk=campaign.pk).state_version),
    }
    gm = client_as("gm")
    response = post_edit(
        gm, campaign, {**data, "log_seen": log_seen(gm, campaign)}, key="area", **HTMX
    )
    assert response.status_code == 200
    assert oob_ids(response.content.decode()) == {
        "map",
        "state-panels",
        "submissions",
        "gm-orders",
        "rollback",
    }
    html = with_map(gm, response.content.decode())  # the map panel, loaded as it comes
    spain_colour = re.search(
        r'<li><span class="swatch" style="background: (#\w+)"></span>Spain', html
    )
    assert re.search(rf'id="map-palatinate"[^>]*>(?:(?!</g>).)*{spain_colour.group(1)}', html, re.S)


@pytest.mark.raw_gm_posts
def test_a_stale_edit_answers_the_current_panel_and_changes_nothing(campaign, client_as):
    client = client_as("gm")
    stale = spain_power_edit(campaign, political_points="3")
    post_edit(client, campaign, spain_power_edit(campaign), **HTMX)  # another edit first
    before = snapshot(campaign)
    response = post_edit(client, campaign, stale, **HTMX)
    html = response.content.decode()
    assert response.status_code == 409 and "<html" not in html
    assert snapshot(campaign) == before
    assert "HX-Retarget" not in response and 'id="id_PowerForm_france_zone"' in html  # all rows
    assert '<p class="notice error" role="status">The campaign changed after' in html
    assert "map" in oob_ids(html)  # the page was out of date: its map comes again too
    assert re.search(r'id="id_PowerForm_spain_political_points" [^>]*value="9"', html) or re.search(
        r'value="9"[^>]*id="id_PowerForm_spain_political_points"', html
    )
    current = Campaign.objects.get(pk=campaign.pk).state_version
    assert f'name="state_version" value="{current}" data-hx-swap-oob' in html


@pytest.mark.raw_gm_posts
def test_a_refused_edit_keeps_the_input_and_says_why(campaign, client_as):
    before = snapshot(campaign)
    data = spain_power_edit(campaign, political_points="99999")
    response = post_edit(client_as("gm"), campaign, data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422 and snapshot(campaign) == before
    assert "enter a whole number from" in html
    assert 'value="99999"' in html
    assert "HX-Retarget" not in response and 'id="id_PowerForm_france_zone"' in html


def test_an_edit_that_changed_another_row_answers_the_whole_panel(campaign, users):
    before = load_state(seat_for(users["gm"], campaign.pk))
    form = edit_forms(before)["power"].instance(before.world, "spain")
    world = before.world.copy()
    world.powers["spain"] = replace(world.powers["spain"], treasury=77)
    assert edited_row(before, replace(before, world=world), "power", form)["form"] is not None
    world.powers["france"] = replace(world.powers["france"], treasury=78)
    assert edited_row(before, replace(before, world=world), "power", form) is None


@pytest.mark.raw_gm_posts
@pytest.mark.parametrize("power", ["%s", "%(x)s", "atlantis", ""])
def test_a_row_no_one_has_is_refused_in_place(campaign, client_as, power):
    before = snapshot(campaign)
    data = spain_power_edit(campaign, power=power)
    response = post_edit(client_as("gm"), campaign, data, **HTMX)
    assert response.status_code == 422 and snapshot(campaign) == before


@pytest.mark.raw_gm_posts
def test_without_htmx_an_edit_goes_back_to_the_dashboard(campaign, client_as):
    response = post_edit(client_as("gm"), campaign, spain_power_edit(campaign))
    assert response.status_code == 302
    assert response.url == reverse("campaign:gm", args=[campaign.pk]) + "#edit-power"


@pytest.mark.raw_gm_posts
@pytest.mark.parametrize("role, status", [("player", 403), ("observer", 403), ("outsider", 404)])
def test_only_the_gm_edits_in_place(campaign, client_as, role, status):
    before = snapshot(campaign)
    response = post_edit(client_as(role), campaign, spain_power_edit(campaign), **HTMX)
    assert response.status_code == status and snapshot(campaign) == before


@pytest.mark.raw_gm_posts
def test_the_log_is_sent_whole_when_the_page_has_no_line_of_the_phase_yet(campaign, client_as):
    phase = Campaign.objects.get(pk=campaign.pk).phase_id
    Event.objects.filter(campaign=campaign, phase_id=phase).delete()
    gm = client_as("gm")
    data = {**spain_power_edit(campaign), "log_seen": log_seen(gm, campaign)}
    response = post_edit(gm, campaign, data, **HTMX)
    html = response.content.decode()
    assert "log" in oob_ids(html) and "beforeend:#log-lines" not in html
