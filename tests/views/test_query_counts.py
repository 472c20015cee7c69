"""Every page costs a fixed number of queries, the same for a 10-area and a 200-area map."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db
MAX_PAGE_QUERIES = 20
# the GM dashboard of a campaign that resolves by itself also reads whether the worker and
# the clock run (campaign/jobs/heartbeat.py), for its warning: one query
MAX_DASHBOARD_QUERIES = MAX_PAGE_QUERIES + 1
MAX_SUBMIT_QUERIES = 25  # a submission also locks, writes the order and its log line (and
# looks for the line of the same save just before, to fold them: campaign.play.services._log_save);
# it writes the order row it read under the lock, and its answer shows that row as saved


def resolved_phase(campaign) -> int:
    """Resolve the open phase (seeded dice, no orders): a phase with a history page."""
    from campaign.play.services import resolve_open_phase

    phase_id = campaign.phase_id
    resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=phase_id, actor=None)
    return phase_id


PAGES = {
    "list": ("player", "get", lambda c: reverse("campaign:list")),
    "new": ("gm", "get", lambda c: reverse("campaign:new")),
    "detail as player": ("player", "get", lambda c: reverse("campaign:detail", args=[c.pk])),
    "detail as observer": ("observer", "get", lambda c: reverse("campaign:detail", args=[c.pk])),
    "detail as gm": ("gm", "get", lambda c: reverse("campaign:detail", args=[c.pk])),
    "gm dashboard": ("gm", "get", lambda c: reverse("campaign:gm", args=[c.pk])),
    "rules": (None, "get", lambda c: reverse("campaign:rules", args=["empires_in_arms"])),
    "join": (
        "outsider",
        "get",
        lambda c: reverse("campaign:join", args=[c.seats.get(power__key="spain").invite_token]),
    ),
    "orders (htmx)": ("player", "post", lambda c: reverse("campaign:orders", args=[c.pk])),
    "history as player": (
        "player",
        "get",
        lambda c: reverse("campaign:history", args=[c.pk, resolved_phase(c)]),
    ),
}


def page_queries(areas: int, page: str, django_assert_max_num_queries) -> int:
    campaign = make_eia_campaign(areas=areas)
    users = seat_users(campaign)
    role, method, url_of = PAGES[page]
    client = Client()
    if role:
        client.force_login(users[role])
    url = url_of(campaign)
    bound = MAX_PAGE_QUERIES if method == "get" else MAX_SUBMIT_QUERIES
    if page == "gm dashboard":
        bound = MAX_DASHBOARD_QUERIES
    with (
        django_assert_max_num_queries(bound),
        CaptureQueriesContext(connection) as captured,
    ):
        if method == "get":
            response = client.get(url)
        else:
            data = {"phase": campaign.phase_id, "ready": "1"}
            response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()[:500]
    return len(captured)


@pytest.mark.parametrize("page", PAGES)
def test_page_queries_do_not_grow_with_the_map(page, django_assert_max_num_queries):
    small = page_queries(10, page, django_assert_max_num_queries)
    large = page_queries(200, page, django_assert_max_num_queries)
    assert small == large
