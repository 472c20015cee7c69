"""Pages: campaign list, new campaign, campaign page, rules page, sign-up and joining."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Event, Power, PowerRelation, Seat
from rules.empires_in_arms.models import EiaArea, EiaPowerStatus, Revolt
from tests.factories import make_eia_campaign, seat_users
from tests.maps import with_map

pytestmark = pytest.mark.django_db


def detail(client, campaign) -> str:
    return client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()


def panel(html: str, panel_id: str) -> str:
    return re.search(rf'<section id="{panel_id}".*?</section>', html, re.S).group(0)


def row(html: str, header: str) -> str:
    """The cells of the table row headed ``header``, as "a | b | c"."""
    cells = re.search(rf'<th scope="row">{header}</th>(.*?)</tr>', html, re.S).group(1)
    return " | ".join(
        re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td.*?</td>", cells, re.S)
    )


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
    assert "<dd>The seven major powers in January 1805" in form  # the scenario's description
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
    client = client_as("observer")
    html = with_map(client, detail(client, campaign))
    assert "<svg" in html and 'viewBox="' in html
    assert '<g class="badge revolt"' in html and '<g class="badge guerrilla"' in html
    table_url = reverse("campaign:area_table", args=[campaign.pk])
    assert "Map status as a table" in html and "<tr id=" not in html  # loaded when opened
    assert f'data-hx-get="{table_url}" data-hx-trigger="toggle once"' in html
    assert f'<a href="{table_url}">Show the table</a>' in html  # without JavaScript
    fragment = client.get(table_url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment
    palatinate = re.search(r'<tr id="area-palatinate">(.*?)</tr>', fragment, re.S).group(1)
    assert "France" in palatinate and "4 (Great Britain)" in palatinate and ">3<" in palatinate
    page = client.get(table_url).content.decode()  # without JavaScript: the map's own page
    assert "<html" in page and '<tr id="area-palatinate">' in page and "<svg" in page


@pytest.mark.parametrize("role, status", [("outsider", 404), ("anonymous", 302)])
def test_only_a_seat_reads_the_area_table(campaign, client_as, role, status):
    client = client_as(role) if role != "anonymous" else Client()
    response = client.get(reverse("campaign:area_table", args=[campaign.pk]))
    assert response.status_code == status


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


# -- the state that decides the game ---------------------------------------------------


def test_powers_panel_shows_each_zone_with_its_modifier_pp_treasury_and_bad_roll_order(
    campaign, client_as
):
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="russia").update(
        political_points=3, treasury=7
    )
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="france").update(
        pays_bad_roll=False
    )
    powers = panel(detail(client_as("gm"), campaign), "powers")
    assert row(powers, "France") == "Dominant (+1) | 10 | $20 | lets it rise"
    assert row(powers, "Russia") == "Instability (−1) | 3 | $7 | pays $d6"
    assert row(powers, "Spain") == "Neutral (0) | 10 | $20 | pays $d6"
    assert 'href="/rules/empires_in_arms/#EIA-1">EIA-1</a>' in powers


@pytest.mark.parametrize("role", ["other_player", "observer"])
def test_a_standing_order_is_seen_only_by_its_power_and_the_gm(campaign, client_as, role):
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="france").update(
        pays_bad_roll=False
    )
    assert row(panel(detail(client_as("player"), campaign), "powers"), "France").endswith(
        "lets it rise"
    )
    powers = panel(detail(client_as(role), campaign), "powers")
    assert row(powers, "France") == "Dominant (+1) | 10 | $20 | private"
    assert "lets it rise" not in powers


def test_powers_panel_says_when_no_power_ever_pays_on_a_bad_roll(client):
    campaign = make_eia_campaign(options={"bad_roll_payment": "never"})
    client.force_login(seat_users(campaign)["player"])
    assert "never pays (rule option)" in row(panel(detail(client, campaign), "powers"), "France")


def test_powers_panel_shows_the_militia_owed_to_spain(campaign, client_as):
    assert "militia" not in panel(detail(client_as("player"), campaign), "powers")
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="spain").update(
        militia_due=2
    )
    campaign.bump_version()  # as every change of the state does (pages keep the World by it)
    powers = panel(detail(client_as("player"), campaign), "powers")
    assert "Spain is owed 2 militia factors" in powers
    assert "#EIA-12" in powers


def test_relations_list_wars_and_alliances(campaign, client_as):
    austria, russia = Power.objects.filter(campaign=campaign, key__in=["austria", "russia"])
    PowerRelation.objects.create(campaign=campaign, a=austria, b=russia, kind="alliance")
    relations = panel(detail(client_as("observer"), campaign), "relations")
    assert "France – Great Britain: at war" in relations
    assert "Austria – Russia: allied" in relations
    assert relations.index("at war") < relations.index("allied")


def test_revolts_table_shows_number_guerrillas_months_and_how_the_minor_is_held(
    campaign, client_as
):
    Revolt.objects.filter(campaign=campaign).update(
        months_without_guerrillas=2, capital_held_months=1
    )
    EiaArea.objects.filter(area__campaign=campaign, area__key="palatinate").update(
        minor_status="client"
    )
    revolts = panel(detail(client_as("player"), campaign), "revolts")
    assert row(revolts, "Palatinate") == "France (client state) | Great Britain | 4 | 3 | 2 | 1"
    assert 'href="/rules/empires_in_arms/#EIA-7">EIA-7</a>' in revolts
    assert 'href="/rules/empires_in_arms/#EIA-8">EIA-8</a>' in revolts


def test_revolts_table_says_when_no_revolt_is_under_way(campaign, client_as):
    Revolt.objects.filter(campaign=campaign).update(active=False)
    assert "No revolt is under way." in panel(detail(client_as("player"), campaign), "revolts")


def test_gm_dashboard_shows_the_same_state_panels(campaign, client_as):
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    for panel_id in ("powers", "relations", "revolts", "dice"):
        assert f'<section id="{panel_id}"' in html, panel_id


# -- dice ------------------------------------------------------------------------------


def test_seeded_dice_show_the_open_phases_seed_commitment_never_its_seed(campaign, client_as):
    dice = panel(detail(client_as("player"), campaign), "dice")
    assert "Dice seed commitment (SHA-256)" in dice
    assert campaign.phase.seed_hash in dice
    assert "secret until the phase resolves" in dice
    assert campaign.phase.seed not in detail(client_as("gm"), campaign)


def test_a_resolved_phase_reveals_its_seed_and_the_open_one_does_not(campaign, client_as, users):
    from campaign.play.services import resolve_open_phase
    from rules.dice import seed_hash

    resolved = campaign.phase
    resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=resolved.pk, actor=users["gm"])
    campaign.refresh_from_db()
    resolved.refresh_from_db()
    html = detail(client_as("player"), campaign)
    assert f"Dice seed, revealed: <code>{resolved.seed}</code>" in html
    assert seed_hash(resolved.seed) == resolved.seed_hash and resolved.seed_hash in html
    assert campaign.phase.seed not in html


def test_gm_entered_dice_show_no_seed_commitment(client):
    campaign = make_eia_campaign(dice_mode="scripted")
    client.force_login(seat_users(campaign)["player"])
    html = detail(client, campaign)
    assert "The dice are entered by the GM" in panel(html, "dice")
    assert "seed commitment" not in html
    assert campaign.phase.seed_hash not in html


# -- the log ---------------------------------------------------------------------------


def test_log_groups_lines_by_phase_newest_phase_first_lines_in_order(client):
    campaign = make_eia_campaign(dice_mode="scripted")
    users = seat_users(campaign)
    gm, britain = Client(), Client()
    gm.force_login(users["gm"])
    britain.force_login(users["other_player"])
    advance = reverse("campaign:advance", args=[campaign.pk])
    gm.post(advance, {"phase": campaign.phase_id, "faces": ""})
    campaign.refresh_from_db()
    orders = {"phase": campaign.phase_id, "ready": "1", "targets": ["minor-0"]}
    britain.post(reverse("campaign:orders", args=[campaign.pk]), orders)
    assert gm.post(advance, {"phase": campaign.phase_id, "faces": "6 3"}).status_code == 302
    html = detail(britain, campaign)
    log = html[html.index('<section id="log"') :]
    headings = re.findall(r"<h3>(.*?) <span", log)
    assert headings == [
        "Land phase · guerrilla steps",
        "Political phase · revolt step",
        "Political phase · peace step",
    ]
    attempt = log.index("Great Britain incites a revolt in Minor 000")
    strength = log.index("Strength of the Great Britain revolt in Minor 000")
    resolved = log.index("Political phase · revolt step resolved.")
    assert log.index("Political phase · revolt step is open.") < attempt < strength < resolved


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
    data = {
        "username": "maria",
        "email": "maria@example.org",
        "password1": "a-long-pass-9",
        "password2": "a-long-pass-9",
    }
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
    data = {
        "username": "eve",
        "email": "eve@example.org",
        "password1": "a-long-pass-9",
        "password2": "a-long-pass-9",
    }
    response = client.post(reverse("campaign:signup"), {**data, "next": "https://evil.example/"})
    assert response["Location"] == reverse("campaign:list")


def test_signup_refuses_mismatched_passwords(db):
    data = {"username": "bob", "password1": "a-long-pass-9", "password2": "other-pass-99"}
    response = Client().post(reverse("campaign:signup"), data)
    assert response.status_code == 422
    assert not get_user_model().objects.filter(username="bob").exists()


def test_pages_load_htmx_and_css_from_static_and_send_csrf_with_htmx(campaign, client_as):
    html = detail(client_as("player"), campaign)
    assert "/static/courier/vendor/htmx.min.js" in html and "/static/courier/courier.css" in html
    assert 'data-hx-headers=\'{"X-CSRFToken": "' in html
    # nothing from another host: no script, style sheet or image by an absolute URL (a
    # signed panel URL may hold any letters, "cdn" among them)
    assert not re.findall(r'(?:src|href)="(?:https?:)?//', html)


def test_campaign_page_before_the_first_phase(client):
    campaign = make_eia_campaign(start=False)
    client.force_login(seat_users(campaign)["player"])
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "the campaign has not started yet" in html
    assert "No phase is open yet." in html
    url = reverse("campaign:orders", args=[campaign.pk])
    assert client.post(url, {"phase": "1", "ready": "1"}).status_code == 409


def test_an_unchanged_campaign_page_is_not_sent_again(client_as, campaign):
    """The page's ETag follows the campaign's state version: the browser's copy is reused
    (304) until something changes."""
    client = client_as("player")
    url = reverse("campaign:detail", args=[campaign.pk])
    client.get(url)  # the first visit sets the CSRF cookie, part of the page
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    client.post(
        reverse("campaign:orders", args=[campaign.pk]), {"phase": campaign.phase_id, "ready": "0"}
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200


def test_the_page_polls_and_is_swapped_once_its_phase_is_resolved(client_as, campaign):
    from campaign.play.services import resolve_open_phase

    client = client_as("player")
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert 'data-hx-trigger="every 15s"' in html
    url = reverse("campaign:status", args=[campaign.pk])
    query = f"?phase={campaign.phase_id}&status=open&pace=open"
    assert client.get(url + query, HTTP_HX_REQUEST="true").status_code == 204
    resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None)
    response = client.get(url + query, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Retarget"] == "#campaign-page"
    assert 'id="campaign-page"' in response.content.decode()


def test_every_page_names_the_icon_that_is_served(client):
    html = client.get(reverse("campaign:rules", args=["empires_in_arms"])).content.decode()
    icon = re.search(r'<link rel="icon" href="/static/([^"]+)" type="image/svg\+xml">', html)
    assert icon, "no icon link"
    assert finders.find(icon.group(1)), icon.group(1)


def test_times_are_machine_readable_without_microseconds(campaign, client_as):
    """HTML's <time datetime> takes at most milliseconds: seconds and the UTC offset."""
    html = client_as("player").get(reverse("campaign:detail", args=[campaign.pk])).content
    stamps = re.findall(r'<time datetime="([^"]+)"', html.decode())
    assert stamps
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}", s) for s in stamps), stamps
