"""A game's pieces on the map are its own: the style sheets its presenter names
(``map_styles``, in its folder's static/) are linked by the pages of its campaigns that draw
the map, and embedded in a downloaded map, and no other game's are; the patterns of its
statuses and their legend entries (a siege's dots) come from its own templates, so that a
map of a game without sieges has none."""

from __future__ import annotations

import io
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse

from campaign.maps.stored import built_map
from campaign.play.scenarios import available_scenarios, create_campaign
from campaign.presenters import styles_of
from rules.engine import registry, ruleset_for
from rules.marks import BESIEGED
from tests.maps import with_map

pytestmark = pytest.mark.django_db
SCENARIOS = {info.ruleset: info.key for info in available_scenarios()}
CORE = {"courier/courier.css", "courier/map.css"}
SIEGE = "Under siege (dotted)"


def every_games_styles() -> set[str]:
    return {sheet for ruleset in registry().values() for sheet in styles_of(ruleset)}


def has_sieges(ruleset: str) -> bool:
    presenter = ruleset_for(ruleset).hooks.presenter
    return presenter is not None and BESIEGED in presenter.map_patterns


@pytest.fixture
def gm_client(client):
    """The client of a GM of a campaign of each ruleset: ``gm_client(ruleset)`` -> (client,
    campaign)."""

    def make(ruleset: str):
        gm = get_user_model().objects.create_user(f"styles-gm-{ruleset}")
        campaign = create_campaign(scenario_key=SCENARIOS[ruleset], name="Styles", gm=gm)
        client.force_login(gm)
        return client, campaign

    return make


def stylesheets(response) -> set[str]:
    assert response.status_code == 200
    html = response.content.decode()
    return set(re.findall(r'<link rel="stylesheet" href="/static/([^"]+)"', html))


def test_the_shipped_games_name_their_pieces_styles_and_each_is_found():
    named = [styles_of(r) for r in registry().values() if r.hooks.presenter]
    assert named and all(named)
    for sheet in every_games_styles():
        assert finders.find(sheet), sheet


@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_a_page_that_draws_the_map_links_its_games_styles_and_no_others(gm_client, ruleset):
    client, campaign = gm_client(ruleset)
    own = set(styles_of(campaign.rules))
    for name in ("campaign:detail", "campaign:gm", "campaign:area_table"):
        linked = stylesheets(client.get(reverse(name, args=[campaign.pk])))
        assert linked == CORE | own, name
    press = stylesheets(client.get(reverse("campaign:press", args=[campaign.pk])))
    assert press == CORE


@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_a_downloaded_map_embeds_its_games_styles_and_no_others(gm_client, ruleset):
    client, campaign = gm_client(ruleset)
    response = client.get(reverse("campaign:map_svg", args=[campaign.pk]))
    style = ElementTree.fromstring(response.content).find("{http://www.w3.org/2000/svg}style")
    own = set(styles_of(campaign.rules))
    for sheet in every_games_styles():
        text = Path(finders.find(sheet)).read_text(encoding="utf-8")
        assert (text in style.text) == (sheet in own), sheet


@pytest.mark.parametrize("ruleset", list(SCENARIOS))
def test_a_drawn_map_has_the_siege_legend_where_its_game_has_sieges(gm_client, ruleset):
    client, campaign = gm_client(ruleset)
    if built_map(campaign.scenario) is None:  # a game shipped without a map: its own
        call_command("build_map", campaign=campaign.pk, stdout=io.StringIO())
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    html = with_map(client, html)
    assert '<figure class="drawn"' in html
    assert (SIEGE in html) == has_sieges(ruleset)
    assert ('id="pattern-dots"' in html) == has_sieges(ruleset)
