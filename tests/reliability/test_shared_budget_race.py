"""Two allies saving at once cannot both spend what is left of their side's actions, on
PostgreSQL with real transactions, 10 times.

The Coalition has 3 actions. Russia and Saxony-Poland, each in a thread with its own
connection and behind a barrier, post orders of 2 actions each through the view: each
alone fits, both together would spend 4. The view reads the allies' saved orders under
the campaign's lock (campaign/views/orders.py ``shares_a_budget``), so every time
exactly one is saved and the other is refused with the figures.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaign.models import Order, Seat
from rules.pax_baltica.models import Block, PbSide
from tests.factories import make_pb_campaign
from tests.views.test_pb_views import to_phase

RACES = 10
TIMEOUT = 30  # seconds: a thread still waiting then is a deadlock
HTMX = {"HTTP_HX_REQUEST": "true"}


def player(campaign, power_key: str) -> Client:
    user = get_user_model().objects.create_user(f"{power_key}-{campaign.pk}")
    Seat.objects.filter(campaign=campaign, power__key=power_key).update(user=user)
    client = Client()
    client.force_login(user)
    return client


def race(campaign, posts: dict[Client, dict]) -> list[int]:
    """Each client posts its orders at once; the status each got."""
    barrier = threading.Barrier(len(posts))
    statuses: list[int] = []
    url = reverse("campaign:orders", args=[campaign.pk])

    def post(client: Client, data: dict) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            statuses.append(client.post(url, data, **HTMX).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=item) for item in posts.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    return statuses


@pytest.mark.django_db(transaction=True)
def test_two_allies_saving_at_once_never_overspend_their_sides_actions(on_postgresql):
    campaign = make_pb_campaign()
    to_phase(campaign, "actions")
    ids = dict(Block.objects.filter(campaign=campaign).values_list("name", "pk"))
    russia, saxony = player(campaign, "russia"), player(campaign, "saxony")
    phase = campaign.phase_id
    orders = {
        russia: {"phase": phase, "ready": "1", f"act_{ids['Menshikov']}": "1", "siege_narva": "on"},
        saxony: {"phase": phase, "ready": "1", f"act_{ids['August II']}": "2"},
    }
    outcomes = []
    for _ in range(RACES):
        Order.objects.filter(phase_id=phase).delete()
        PbSide.objects.filter(campaign=campaign, key="coalition").update(actions=3)
        outcomes.append(sorted(race(campaign, orders)))
        assert Order.objects.filter(phase_id=phase).count() == 1
    assert outcomes == [[200, 422]] * RACES
