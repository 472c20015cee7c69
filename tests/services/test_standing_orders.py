"""Standing orders (campaign/core/standing.py): Pax Baltica's recruitment plan stands from one
year to the next until the nation gives a new one. Its form is filled in with it and says
so, a nation that gives none has it copied into the phase as its orders (which a replay
reads), and the log says whose standing orders of which year stood."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Event, Order
from tests.factories import make_pb_campaign, seat_users
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db
PLAN = {"reinforce": [], "draws": 1, "steps_each": 0, "places": ["lausitz"], "fleet_places": []}
NEW_PLAN = {**PLAN, "draws": 0, "places": []}


def next_recruitment(campaign, gm) -> None:
    """The GM resolves every phase up to the next year's recruitment."""
    resolve(campaign, gm)
    campaign.refresh_from_db()
    while campaign.phase.key != "recruitment":
        resolve(campaign, gm)
        campaign.refresh_from_db()


@pytest.fixture
def year_later():
    """Saxony-Poland ordered PLAN in Spring 1700's recruitment and Sweden an empty plan;
    the recruitment of Spring 1701 is open."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "saxony", "sweden")
    order(campaign, "saxony", {**PLAN, "for_gm": {"note": "for that spring only"}})
    order(campaign, "sweden", NEW_PLAN)
    next_recruitment(campaign, users["gm"])
    return campaign, users


def test_a_nation_without_new_orders_keeps_its_plan_and_the_log_says_so(year_later):
    campaign, users = year_later
    assert campaign.turn_label == "Spring 1701"
    order(campaign, "sweden", {**NEW_PLAN, "steps_each": 2})
    recruitment = campaign.phase
    resolve(campaign, users["gm"])
    kept = Order.objects.get(phase=recruitment, power__key="saxony")
    assert kept.payload == PLAN and kept.ready and kept.submitted_by is None
    lines = Event.objects.filter(phase=recruitment, power__key="saxony", kind=Event.Kind.ORDER)
    assert [e.text for e in lines] == [
        "Saxony-Poland gave no new orders: its standing orders of Spring 1700 stand."
    ]
    # Sweden gave new orders: its own, not its old ones, and no standing line
    assert Order.objects.get(phase=recruitment, power__key="sweden").payload["steps_each"] == 2
    assert not Event.objects.filter(phase=recruitment, text__contains="Sweden gave no new")


def test_the_form_is_filled_in_with_the_standing_plan_and_says_so(year_later, client):
    campaign, users = year_later
    client.force_login(users["player"])
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "Your standing orders of Spring 1700 are filled in" in html
    assert 'name="draws" value="1"' in html or 'value="1" name="draws"' in html
    order(campaign, "saxony", NEW_PLAN, users["player"])  # a new plan replaces it
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "standing orders of" not in html


def test_a_phase_whose_orders_do_not_stand_copies_none(year_later):
    campaign, users = year_later
    resolve(campaign, users["gm"])  # the recruitment
    campaign.refresh_from_db()
    actions = campaign.phase
    assert actions.key == "actions"
    resolve(campaign, users["gm"])
    assert not Order.objects.filter(phase=actions).exists()
