"""Pages: campaign list, new campaign, campaign page, rules page, sign-up and joining."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Event, Seat
from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db
MAX_PAGE_QUERIES = 20  # whatever the size of the map


def detail(client, campaign) -> str:
    return client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()


def test_list_shows_my_campaigns_and_my_seat(campaign, client_as):
    html = client_as("player").get(reverse("campaign:list")).content.decode()
    assert campaign.name in html
    assert "France" in html
    assert reverse("campaign:new") in html


def test_list_does_not_show_campaigns_without_a_seat(campaign, client_as):
    html = client_as("outsider").get(reverse("campaign:list")).content.decode()
    assert campaign.name not in html


def test_new_campaign_makes_its_creator_the_gm(client_as):
    client = client_as("outsider")
    form = client.get(reverse("campaign:new")).content.decode()
    assert 'value="eia-1805"' in form
    data = {"name": "Spring 1805", "scenario": "eia-1805", "dice_mode": "seeded"}
    response = client.post(reverse("campaign:new"), data)
    created = Campaign.objects.get(name="Spring 1805")
    assert response["Location"] == reverse("campaign:gm", args=[created.pk])
    assert created.seats.get(role=Seat.Role.GM).user.username.startswith("outsider")
    assert created.phase is not None
    html = client.get(response["Location"]).content.decode()
    assert "sample data" in html


def test_new_campaign_refuses_an_unknown_scenario(client_as):
    data = {"name": "X", "scenario": "atlantis", "dice_mode": "seeded"}
    response = client_as("outsider").post(reverse("campaign:new"), data)
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert not Campaign.objects.filter(name="X").exists()


def test_campaign_page_shows_map_svg_and_table(campaign, client_as):
    html = detail(client_as("observer"), campaign)
    assert "<svg" in html and 'viewBox="' in html
    palatinate = re.search(r'<tr id="area-palatinate">(.*?)</tr>', html, re.S).group(1)
    assert "France" in palatinate and "4 (Great Britain)" in palatinate and ">3<" in palatinate
    assert '<g class="badge revolt"' in html and '<g class="badge guerrilla"' in html
    assert "Map status as a table" in html


def test_campaign_page_says_the_scenario_is_editable_sample_data(campaign, client_as):
    assert "sample data" in detail(client_as("player"), campaign)
    assert "the GM may edit" in detail(client_as("player"), campaign)


def test_campaign_page_shows_the_sequence_with_you_are_here(campaign, client_as):
    html = detail(client_as("player"), campaign)
    current = re.search(r'<li class="step current" aria-current="step">(.*?)</li>', html, re.S)
    assert "Political phase · peace step" in current.group(1)
    assert "you are here" in current.group(1)
    assert "Land phase · conquest step" in html  # later steps say what they will do
    assert "Revolts whose guerrillas held the capital" in html


def test_campaign_page_shows_the_open_phase_and_its_deadline(campaign, client_as):
    html = detail(client_as("player"), campaign)
    assert "<strong>Political phase · peace step</strong> is open" in html
    assert "no deadline" in html


def test_observer_and_gm_get_no_order_form(campaign, client_as):
    assert 'id="orders"' not in detail(client_as("observer"), campaign)
    gm_page = detail(client_as("gm"), campaign)
    assert 'id="orders"' not in gm_page
    assert reverse("campaign:gm", args=[campaign.pk]) in gm_page


def test_every_log_line_links_its_rule(campaign, client_as):
    Event.objects.create(
        campaign=campaign,
        turn=1,
        kind=Event.Kind.ROLL,
        rule="EIA-1",
        text="EIA-1 Great Britain in Palatinate: 4 +1 GB national modifier +1 GB Dominant = 6 "
        "≥ 6: the revolt breaks out",
    )
    html = detail(client_as("player"), campaign)
    assert '<a class="rule" href="/rules/empires_in_arms/#EIA-1">EIA-1</a>' in html
    assert "4 +1 GB national modifier +1 GB Dominant = 6 ≥ 6: the revolt breaks out" in html
    assert "January 1805" in html


def test_log_text_is_escaped(campaign, client_as):
    Event.objects.create(campaign=campaign, turn=1, kind="gm", text="<script>x()</script>")
    html = detail(client_as("player"), campaign)
    assert "<script>x()</script>" not in html
    assert "&lt;script&gt;" in html


@pytest.mark.parametrize("areas", [10, 200])
def test_campaign_page_queries_do_not_grow_with_the_map(
    client, areas, django_assert_max_num_queries
):
    campaign = make_eia_campaign(areas=areas)
    client.force_login(seat_users(campaign)["player"])
    with django_assert_max_num_queries(MAX_PAGE_QUERIES):
        response = client.get(reverse("campaign:detail", args=[campaign.pk]))
    assert response.status_code == 200
    assert response.content.decode().count('<g class="area"') == areas


def test_rules_page_has_an_anchor_per_procedure_phases_and_decisions(client):
    html = client.get(reverse("campaign:rules", args=["empires_in_arms"])).content.decode()
    for number in range(1, 13):
        assert f'id="EIA-{number}"' in html
    assert 'id="decisions"' in html and "Decision 2: Anti-guerrilla bad roll" in html
    assert "Political phase · revolt step" in html
    assert "(default)" in html


def test_rules_page_of_an_unknown_ruleset_is_404(client):
    assert client.get(reverse("campaign:rules", args=["chess"])).status_code == 404


def test_anonymous_is_sent_to_log_in_and_login_links_to_signup(client):
    join = reverse("campaign:list")
    response = client.get(join)
    assert response.status_code == 302
    login = client.get(response["Location"]).content.decode()
    assert reverse("campaign:signup") in login


def test_invited_player_signs_up_then_joins(campaign, users):
    client = Client()
    token = campaign.seats.get(power__key="spain").invite_token
    join = reverse("campaign:join", args=[token])
    signup = reverse("campaign:signup")
    form = client.get(f"{signup}?next={join}").content.decode()
    assert f'name="next" value="{join}"' in form
    data = {"username": "maria", "password1": "a-long-pass-9", "password2": "a-long-pass-9"}
    response = client.post(signup, {**data, "next": join})
    assert response["Location"] == join
    assert "You are invited to play" in client.get(join).content.decode()
    response = client.post(join)
    assert response["Location"] == reverse("campaign:detail", args=[campaign.pk])
    seat = campaign.seats.get(power__key="spain")
    assert seat.user.username == "maria"
    assert Event.objects.filter(campaign=campaign, kind=Event.Kind.SEAT).exists()


def test_signup_ignores_a_next_url_on_another_site(db):
    client = Client()
    data = {"username": "eve", "password1": "a-long-pass-9", "password2": "a-long-pass-9"}
    response = client.post(reverse("campaign:signup"), {**data, "next": "https://evil.example/"})
    assert response["Location"] == reverse("campaign:list")


def test_signup_refuses_mismatched_passwords(db):
    data = {"username": "bob", "password1": "a-long-pass-9", "password2": "other-pass-99"}
    response = Client().post(reverse("campaign:signup"), data)
    assert response.status_code == 422
    assert not get_user_model().objects.filter(username="bob").exists()


def test_pages_load_htmx_and_css_from_static_and_send_csrf_with_htmx(campaign, client_as):
    html = detail(client_as("player"), campaign)
    assert "/static/courier/htmx.min.js" in html and "/static/courier/courier.css" in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    assert "unpkg" not in html and "cdn" not in html.lower()


def test_campaign_page_before_the_first_phase(client):
    campaign = make_eia_campaign(start=False)
    client.force_login(seat_users(campaign)["player"])
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "the campaign has not started yet" in html
    assert "No phase is open yet." in html
    url = reverse("campaign:orders", args=[campaign.pk])
    assert client.post(url, {"phase": "1", "ready": "1"}).status_code == 409
