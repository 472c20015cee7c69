"""The map as a file (campaign/views/maps.py): a standalone SVG of the map as the page
draws it for the reader, now or once a past phase had resolved with its orders drawn;
nothing for a phase still open or for a user without a seat."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.play.scenarios import create_campaign
from rules.empires_in_arms.legal import revolt_targets
from rules.empires_in_arms.services import load_world as eia_world
from tests.factories import seat_users
from tests.maps import with_map
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def eia():
    """The Empires in Arms scenario's campaign (a built map), and a user for each role."""
    gm = get_user_model().objects.create_user("map-gm")
    campaign = create_campaign(scenario_key="eia-1805", name="Map 1805", gm=gm)
    return campaign, seat_users(campaign)


def svg_of(response) -> ElementTree.Element:
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response["Content-Disposition"].startswith('attachment; filename="map-1805-')
    return ElementTree.fromstring(response.content)


def test_a_player_downloads_the_drawn_map_as_a_standalone_svg_file(client, eia):
    campaign, users = eia
    client.force_login(users["player"])
    root = svg_of(client.get(reverse("campaign:map_svg", args=[campaign.pk])))
    assert root.tag == f"{SVG}svg" and root.get("class") == "map drawn"
    assert (root.get("width"), root.get("height")) == ("1000", "760")
    assert ".map path.land" in root.find(f"{SVG}style").text  # its own style sheet
    shapes = root.findall(f".//{SVG}path[@class='shape province']")
    shapes += root.findall(f".//{SVG}path[@class='shape minor']")
    assert len(shapes) == campaign.areas.count()


def test_the_map_after_a_resolved_phase_draws_the_orders_it_resolved(client, eia):
    campaign, users = eia
    resolve(campaign)  # the peace step
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    target = revolt_targets(eia_world(campaign), "great_britain")[0]
    order(campaign, "great_britain", {"targets": [target]})
    revolt = resolve(campaign).campaign.phases.get(key="revolt", turn=1)
    client.force_login(users["player"])  # France reads Great Britain's orders once resolved
    root = svg_of(client.get(reverse("campaign:phase_map_svg", args=[campaign.pk, revolt.pk])))
    incite = root.find(f".//{SVG}g[@class='order incite']")
    assert incite is not None and "incites a revolt" in incite.find(f"{SVG}title").text
    assert incite.find(f"{SVG}polyline[@class='stroke']").get("marker-end") == "url(#arrow-head)"


def test_the_open_phase_has_no_map_file_of_its_own_and_an_outsider_none_at_all(client, eia):
    campaign, users = eia
    client.force_login(users["player"])
    open_phase = reverse("campaign:phase_map_svg", args=[campaign.pk, campaign.phase_id])
    assert client.get(open_phase).status_code == 404
    client.force_login(users["outsider"])
    assert client.get(reverse("campaign:map_svg", args=[campaign.pk])).status_code == 404


def test_the_campaign_page_offers_the_map_as_svg_and_png(client, eia):
    campaign, users = eia
    client.force_login(users["player"])
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    html = with_map(client, html)
    url = reverse("campaign:map_svg", args=[campaign.pk])
    assert f'href="{url}" download' in html and f'data-png="{url}"' in html
