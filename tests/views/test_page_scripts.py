"""Each page loads the scripts it uses (templates/campaign/scripts.html): every page
htmx, the time zone, confirmations, folded parts and the service worker; a page with a
map the map's; a player's campaign page no GM script; the GM's dashboard his."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

EVERY_PAGE = {"vendor/htmx.min.js", "timezone.js", "confirm.js", "open-wide.js", "install.js"}
MAP = {"map-choice.js", "vendor/panzoom.min.js", "map-zoom.js", "map-download.js"}
GM = {"log-lines.js", "copy.js"}


def scripts(response) -> set[str]:
    assert response.status_code == 200
    found = re.findall(r'<script src="/static/courier/([^"]+)"', response.content.decode())
    assert len(found) == len(set(found)), f"a script loaded twice: {found}"
    return set(found)


@pytest.mark.parametrize("role", ["player", "other_player", "observer"])
def test_a_campaign_page_loads_no_gm_script(campaign, client_as, role):
    loaded = scripts(client_as(role).get(reverse("campaign:detail", args=[campaign.pk])))
    assert loaded == EVERY_PAGE | MAP | {"gm-orders.js", "press.js"}
    assert not loaded & GM


def test_the_gm_loads_his_scripts_on_the_dashboard_and_the_campaign_page(campaign, client_as):
    gm = client_as("gm")
    dashboard = scripts(gm.get(reverse("campaign:gm", args=[campaign.pk])))
    assert dashboard == EVERY_PAGE | MAP | GM | {"gm-orders.js", "press.js"}
    assert scripts(gm.get(reverse("campaign:detail", args=[campaign.pk]))) >= GM


def test_pages_without_a_map_load_only_what_they_use(campaign, client_as):
    player = client_as("player")
    assert scripts(player.get(reverse("campaign:list"))) == EVERY_PAGE
    press = scripts(player.get(reverse("campaign:press", args=[campaign.pk])))
    assert press == EVERY_PAGE | {"press.js"}
    preferences = scripts(player.get(reverse("campaign:preferences")))
    assert preferences == EVERY_PAGE | {"select-search.js", "copy.js"}
