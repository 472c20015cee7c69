"""Pax Baltica's allies spend one pool of actions (GNW-8): each ally's actions form shows
what the others' saved orders of the phase already spend, refuses orders that would
overspend the side's actions with the figures (nothing saved), and a save answered with
HTMX brings the figures up to date."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from campaign.models import Area, Order, Seat
from rules.pax_baltica.models import Block
from tests.factories import snapshot
from tests.views.test_pb_views import (  # noqa: F401 (fixtures)
    as_role,
    assert_refused,
    detail,
    ids,
    pb,
    pb_users,
    post_orders,
    to_phase,
)

pytestmark = pytest.mark.django_db

COMMITTED = "Russia has committed 2 actions in its saved orders; 1 action is left for you."


@pytest.fixture
def coalition(pb, as_role, ids):  # noqa: F811
    """The actions phase (the Coalition has 3), Saxony-Poland's Lubomirski before Swedish
    Livland, and Russia's orders saved as a draft: a step for Menshikov and the siege of
    Narva, 2 actions."""
    to_phase(pb, "actions")
    livland = Area.objects.get(campaign=pb, key="livland")
    Block.objects.filter(campaign=pb, name="Lubomirski").update(location=livland, strength=2)
    russia = as_role("other_player")
    data = {f"act_{ids['Menshikov']}": "1", "siege_narva": "on"}
    assert post_orders(russia, pb, data, ready="0").status_code == 200
    return saxony_client(pb)


def saxony_client(campaign) -> Client:
    user = get_user_model().objects.create_user(f"saxony-{campaign.pk}")
    Seat.objects.filter(campaign=campaign, power__key="saxony").update(user=user)
    client = Client()
    client.force_login(user)
    return client


def test_an_allys_form_shows_what_the_others_saved_orders_spend(pb, coalition):  # noqa: F811
    html = detail(coalition, pb)
    assert "Your side has 3 actions left this season" in html
    assert COMMITTED in html


def test_orders_overspending_the_sides_actions_with_an_allys_are_refused(pb, coalition, ids):  # noqa: F811
    """Russia 2 actions saved (a draft); Saxony-Poland a step and the siege of Livland,
    2 more: refused with the figures, and nothing is saved; 1 action is accepted."""
    before = snapshot(pb)
    data = {f"act_{ids['August II']}": "1", "siege_livland": "on"}
    response = post_orders(coalition, pb, data)
    assert_refused(
        response,
        422,
        pb,
        before,
        "Your orders were not saved.",
        "These orders need 2 actions, and your side has 3 this season: Russia has committed "
        "2 actions in its saved orders, which leaves 1 for you.",
    )
    assert not Order.objects.filter(phase_id=pb.phase_id, power__key="saxony").exists()
    response = post_orders(coalition, pb, {"siege_livland": "on"})
    assert response.status_code == 200, response.content.decode()[:2000]
    assert Order.objects.get(phase_id=pb.phase_id, power__key="saxony").ready


def test_a_ready_order_counts_and_a_save_refreshes_the_figures(pb, as_role, ids):  # noqa: F811
    to_phase(pb, "actions")
    saxony = saxony_client(pb)
    assert "committed" not in detail(saxony, pb)  # as loaded: Russia has saved nothing
    data = {f"act_{ids['Menshikov']}": "1", "siege_narva": "on"}
    assert post_orders(as_role("other_player"), pb, data).status_code == 200  # ready
    response = post_orders(saxony, pb, {f"act_{ids['August II']}": "1"}, ready="0")
    html = response.content.decode()
    assert response.status_code == 200, html[:2000]
    assert '<div id="orders-budget" data-hx-swap-oob="true">' in html
    assert COMMITTED in html
