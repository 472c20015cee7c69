"""The timeline page: who may see it, what it draws for each ruleset, its query bound."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.play.services import resolve_open_phase
from tests.factories import make_eia_campaign, make_pb_campaign, make_vq_campaign, seat_users

pytestmark = pytest.mark.django_db

MAX_QUERIES = 6  # session, user, seat, the snapshots, the live state, the powers
RULESETS = {
    "empires_in_arms": (make_eia_campaign, "france", "great_britain", ["Great Britain"]),
    "pax_baltica": (
        make_pb_campaign,
        "sweden",
        "russia",
        ["Sweden", "Russia", "Saxony-Poland", "Denmark"],
    ),
    "virgin_queen": (
        make_vq_campaign,
        "france",
        "spain",
        ["Catholic spaces", "Protestant spaces"],
    ),
}


def played(ruleset: str, phases: int = 2):
    """The ruleset's test campaign with ``phases`` phases resolved, and its users."""
    make, player, other, _ = RULESETS[ruleset]
    campaign = make()
    users = seat_users(campaign, player=player, other=other)
    resolve(campaign, users["gm"], phases)
    return campaign, users


def resolve(campaign, gm, phases: int) -> None:
    for _ in range(phases):
        campaign.refresh_from_db()
        resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=gm)
    campaign.refresh_from_db()


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page(campaign, user, client: Client | None = None):
    client = client or client_of(user)
    return client.get(reverse("campaign:timeline", args=[campaign.pk]))


def legend(html: str) -> list[str]:
    found = re.search(r'<ul class="legend">(.*?)</ul>', html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", item).strip() for item in re.findall(r"<li>.*?</li>", found)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_chart_draws_a_line_per_series_with_its_legend_and_table(ruleset):
    campaign, users = played(ruleset)
    response = page(campaign, users["player"])
    assert response.status_code == 200
    html = response.content.decode()
    names = RULESETS[ruleset][3]
    assert legend(html) == names
    assert html.count('<polyline class="line"') == len(names)
    assert re.search(r'<svg viewBox="0 0 \d+ \d+" width="100%" role="img"', html)
    assert 'aria-labelledby="timeline-title timeline-desc"' in html
    assert '<title id="timeline-title">' in html and '<desc id="timeline-desc">' in html
    turn = campaign.rules.turn_label(1, campaign.setup)
    assert f'<th scope="row">{turn}</th>' in html
    assert '<th scope="row">Now</th>' in html


def test_eia_values_follow_the_revolt_numbers(campaign, users):
    from rules.empires_in_arms.models import Revolt

    resolve(campaign, users["gm"], 1)
    Revolt.objects.filter(campaign=campaign).update(number=5)
    html = page(campaign, users["gm"]).content.decode()
    rows = re.findall(r'<tr><th scope="row">(.*?)</th><td>(.*?)</td></tr>', html)
    assert rows == [("January 1805", "4"), ("Now", "5")]


@pytest.mark.parametrize(
    ("role", "status"),
    [("gm", 200), ("player", 200), ("other_player", 200), ("observer", 200), ("outsider", 404)],
)
def test_the_timeline_is_for_seated_users_as_the_campaign_page(campaign, users, role, status):
    client = client_of(users[role])
    assert page(campaign, None, client).status_code == status
    assert client.get(reverse("campaign:detail", args=[campaign.pk])).status_code == status


def test_an_anonymous_visitor_is_sent_to_log_in(campaign):
    response = page(campaign, None)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_an_unstarted_campaign_shows_its_one_point_or_nothing(db):
    campaign = make_eia_campaign(start=False)
    users = seat_users(campaign)
    html = page(campaign, users["gm"]).content.decode()
    assert html.count('<polyline class="line"') == 1
    assert re.findall(r'<th scope="row">(.*?)</th>', html) == ["Now"]


def test_a_campaign_without_values_says_there_is_nothing_to_chart(db):
    from rules.empires_in_arms.models import Revolt

    campaign = make_eia_campaign(start=False)
    users = seat_users(campaign)
    Revolt.objects.filter(campaign=campaign).delete()
    html = page(campaign, users["player"]).content.decode()
    assert "Nothing to chart yet." in html and "<svg" not in html


def test_the_campaign_page_links_to_the_timeline(campaign, users):
    client = client_of(users["player"])
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert f'href="{reverse("campaign:timeline", args=[campaign.pk])}"' in html


def test_a_pax_baltica_player_sees_no_hidden_blocks(db):
    campaign, users = played("pax_baltica")
    html = page(campaign, users["player"]).content.decode()  # Sweden's player
    assert "Sheremetev" not in html and "Pyotr I" not in html


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_queries_do_not_grow_with_the_phases(ruleset, django_assert_max_num_queries):
    campaign, users = played(ruleset)
    client = client_of(users["gm"])
    counts = []
    for more in (0, 6):
        resolve(campaign, users["gm"], more)
        with (
            django_assert_max_num_queries(MAX_QUERIES),
            CaptureQueriesContext(connection) as captured,
        ):
            assert page(campaign, None, client).status_code == 200
        counts.append(len(captured))
    assert campaign.turn > 1
    assert counts[0] == counts[1]
