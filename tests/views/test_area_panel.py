"""The area panel: an area's details and the orders that concern it, for every role, as
the side panel HTMX loads and as a page; hidden blocks stay hidden there too."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.play.area_orders import names
from campaign.state.storage import order_piece_fields
from rules.engine import ruleset_for
from rules.pax_baltica import presenters as pb_presenters
from rules.virgin_queen import presenters as vq_presenters
from tests.factories import make_eia_campaign, make_pb_campaign, make_vq_campaign, seat_users
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
MAX_QUERIES = 20


def area_url(campaign, key: str) -> str:
    return reverse("campaign:area", args=[campaign.pk, key])


@pytest.mark.parametrize("role", ["player", "other_player", "observer", "gm"])
def test_a_seat_sees_the_panel_and_the_page(campaign, client_as, role):
    client = client_as(role)
    panel = client.get(area_url(campaign, "palatinate"), **HTMX)
    page = client.get(area_url(campaign, "palatinate"))
    assert panel.status_code == page.status_code == 200
    fragment, html = panel.content.decode(), page.content.decode()
    assert "<html" not in fragment and "data-close-area" in fragment
    assert "<html" in html and 'class="button close"' in html
    for text in (fragment, html):
        assert 'id="area-panel-title">Palatinate</h2>' in text
        assert "France" in text and "4 (Great Britain)" in text and "Old Castile" not in text


def test_the_panel_links_its_neighbours(campaign, client_as):
    html = client_as("player").get(area_url(campaign, "andalusia"), **HTMX).content.decode()
    assert f'data-hx-get="{area_url(campaign, "old-castile")}" data-hx-target="#area-panel"' in html


@pytest.mark.parametrize("htmx", [False, True])
def test_an_outsider_gets_404_and_an_anonymous_user_the_login_page(campaign, client_as, htmx):
    extra = HTMX if htmx else {}
    assert client_as("outsider").get(area_url(campaign, "palatinate"), **extra).status_code == 404
    response = client_as("anonymous").get(area_url(campaign, "palatinate"), **extra)
    # with htmx the whole page goes to the login page (campaign/people/login_redirect.py)
    target = response["HX-Redirect"] if htmx else response["Location"]
    assert response.status_code == (200 if htmx else 302) and target.startswith(reverse("login"))


@pytest.mark.parametrize("key", ["atlantis", "PALATINATE", "kurland", "palatinate "])
def test_a_key_the_campaign_has_not_is_404(campaign, client_as, key):
    make_pb_campaign()  # "kurland" is another campaign's
    assert client_as("gm").get(area_url(campaign, key), **HTMX).status_code == 404


def test_the_panel_takes_no_post(campaign, client_as):
    assert client_as("player").post(area_url(campaign, "palatinate")).status_code == 405


@pytest.mark.parametrize(
    "role, hidden, shown",
    [
        ("player", {"Pyotr I", "Sheremetev", "Woronjetski"}, {"a block of Russia"}),
        ("other_player", set(), {"Pyotr I", "Sheremetev", "Woronjetski"}),
        ("gm", set(), {"Pyotr I", "Sheremetev", "Woronjetski"}),
        # an observer sees no side's blocks unless the GM chose one (campaign/core/watching.py)
        ("observer", {"Pyotr I", "Sheremetev", "Woronjetski"}, {"a block of Russia"}),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_the_other_sides_blocks_stay_blank_in_the_panel(role, hidden, shown, htmx):
    pb = make_pb_campaign()
    users = seat_users(pb, "sweden", "russia")
    client = Client()
    client.force_login(users[role])
    html = client.get(area_url(pb, "kurland"), **(HTMX if htmx else {})).content.decode()
    assert all(name in html for name in shown)
    assert not any(name in html for name in hidden)


def test_a_swedish_player_sees_its_own_blocks_in_full():
    pb = make_pb_campaign()
    users = seat_users(pb, "sweden", "russia")
    client = Client()
    client.force_login(users["player"])
    assert "Karl XII" in client.get(area_url(pb, "lietuva"), **HTMX).content.decode()
    client.force_login(users["other_player"])
    assert "Karl XII" not in client.get(area_url(pb, "lietuva"), **HTMX).content.decode()


@pytest.fixture
def revolt_orders(campaign, users):
    """The revolt step open, France attempting a revolt in Minor 001 (held by Austria)."""
    resolve(campaign)
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    order(campaign, "france", {"targets": ["minor-1"]})
    return campaign


@pytest.mark.parametrize(
    "role, sees",
    [("player", True), ("gm", True), ("other_player", False), ("observer", False)],
)
def test_the_orders_that_concern_the_area_for_whoever_may_read_them(
    revolt_orders, client_as, role, sees
):
    html = client_as(role).get(area_url(revolt_orders, "minor-1"), **HTMX).content.decode()
    assert ("France makes 1 revolt attempt in Minor 001 (1 PP)" in html) is sees
    assert "Orders for" in html


def test_an_order_about_another_area_is_not_listed(revolt_orders, client_as):
    html = client_as("gm").get(area_url(revolt_orders, "palatinate"), **HTMX).content.decode()
    assert "revolt attempt in Minor 001" not in html
    assert "No order of this phase concerns this area." in html


def test_an_order_names_an_area_by_a_block_that_stands_in_it():
    pb = make_pb_campaign()
    world = ruleset_for("pax_baltica").load_world(pb)
    karl = next(b for b in world.blocks.values() if b.name == "Karl XII")
    keys, ids = pb_presenters.area_refs(world, "lietuva")
    fields = order_piece_fields("pax_baltica")
    assert names({"reinforce": [{"block": karl.id, "steps": 1}]}, keys, ids, fields)
    elsewhere = max(ids) + 1  # no piece of the area has it (999 may be one's, the ids run on)
    assert not names({"reinforce": [{"block": elsewhere, "steps": karl.id}]}, keys, ids, fields)
    assert names({"places": ["lietuva"]}, keys, ids, fields)


def test_an_order_names_a_space_by_its_struggle_zone():
    vq = make_vq_campaign()
    loaded = ruleset_for("virgin_queen").load_world(vq)
    space = next(s for s in loaded.world.spaces.values() if s.zone)
    keys, ids = vq_presenters.area_refs(loaded, space.key)
    assert keys == {space.key, space.zone} and not ids
    assert names({"zone": space.zone}, keys, ids, order_piece_fields("virgin_queen"))


def panel_queries(areas: int, role: str, htmx: bool) -> int:
    campaign = make_eia_campaign(areas=areas)
    users = seat_users(campaign)
    client = Client()
    client.force_login(users[role])
    with CaptureQueriesContext(connection) as captured:
        response = client.get(area_url(campaign, "palatinate"), **(HTMX if htmx else {}))
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("role", ["player", "gm"])
@pytest.mark.parametrize("htmx", [False, True])
def test_the_panel_costs_the_same_few_queries_for_any_map(role, htmx):
    small = panel_queries(10, role, htmx)
    large = panel_queries(200, role, htmx)
    assert small == large <= MAX_QUERIES
