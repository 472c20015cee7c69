"""Every GM action carries the campaign's state version its page showed: a form sent twice,
replayed or overtaken by another change is refused (409) and changes nothing."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Phase
from tests.factories import make_eia_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import order, quarter_campaign, resolve

pytestmark = [pytest.mark.django_db, pytest.mark.raw_gm_posts]  # each sends its own version

STALE = "The campaign changed after this page was loaded"


def two_phases_resolved() -> tuple[Campaign, dict]:
    """March 1805: the peace and revolt steps resolved with no orders, the land phase open
    (so two rollbacks in a row would both be allowed)."""
    campaign = quarter_campaign()
    users = seat_users(campaign)
    resolve(campaign, users["gm"])
    resolve(campaign, users["gm"])
    campaign.refresh_from_db()
    return campaign, users


def gm_client(users) -> Client:
    client = Client()
    client.force_login(users["gm"])
    return client


def version(campaign: Campaign) -> int:
    campaign.refresh_from_db()
    return campaign.state_version


def rollback(client: Client, campaign: Campaign, state_version: int):
    url = reverse("campaign:rollback", args=[campaign.pk])
    return client.post(url, {"confirm": "on", "state_version": state_version})


def test_a_rollback_sent_twice_undoes_one_phase():
    campaign, users = two_phases_resolved()
    gm, shown = gm_client(users), version(campaign)
    assert rollback(gm, campaign, shown).status_code == 302
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    before = snapshot(campaign)
    response = rollback(gm, campaign, shown)
    assert response.status_code == 409 and STALE in response.content.decode()
    assert snapshot(campaign) == before


@pytest.mark.django_db(transaction=True)
def test_two_rollbacks_at_once_undo_one_phase(on_postgresql):
    campaign, users = two_phases_resolved()
    shown = version(campaign)
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def post() -> None:
        try:
            client = gm_client(users)
            barrier.wait(timeout=30)
            statuses.append(rollback(client, campaign, shown).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(statuses) == [302, 409]
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    assert Phase.objects.filter(campaign=campaign, key="peace").get().status == "resolved"


def gm_actions(campaign: Campaign) -> dict[str, tuple[str, dict]]:
    """Each GM action with data it accepts on the March 1805 land phase."""
    spain = campaign.powers.get(key="spain")
    seat = campaign.seats.get(power=spain)
    url = lambda name, *args: reverse(f"campaign:{name}", args=[campaign.pk, *args])  # noqa: E731
    return {
        "advance": (url("advance"), {"phase": campaign.phase_id}),
        "edit": (
            url("edit", "power"),
            {"power": "spain", "zone": "Fiasco", "political_points": "3", "treasury": "9"},
        ),
        "seat": (url("seat", seat.pk), {"username": ""}),
        "deadline": (url("deadline"), {"phase": campaign.phase_id, "deadline": "2999-01-01T20:00"}),
        "clock": (url("clock"), {"phase": campaign.phase_id, "action": "extend", "hours": "24"}),
        "plays": (url("plays"), {"power": "spain"}),
        "schedule": (url("schedule"), {"auto_resolve": "on", "webhook_url": ""}),
        "absent": (url("absent", spain.pk), {"absent": "on"}),
        "observer": (url("observer"), {}),
        "rollback": (url("rollback"), {"confirm": "on"}),
    }


GM_ACTIONS = ["advance", "edit", "seat", "deadline", "clock", "plays", "schedule"]
GM_ACTIONS += ["absent", "observer", "rollback"]


@pytest.mark.parametrize("action", GM_ACTIONS)
def test_every_gm_action_sent_twice_acts_once(action):
    campaign, users = two_phases_resolved()
    gm, shown = gm_client(users), version(campaign)
    url, data = gm_actions(campaign)[action]
    assert gm.post(url, {**data, "state_version": shown}).status_code == 302
    before = snapshot(campaign)
    response = gm.post(url, {**data, "state_version": shown})
    assert response.status_code == 409 and STALE in response.content.decode()
    assert snapshot(campaign) == before
    current = re.search(r'name="state_version" value="(\d+)"', response.content.decode())
    assert int(current.group(1)) == version(campaign), "the refusal shows the current page"


@pytest.mark.parametrize("sent", [None, "", "x", "-1", "0", "99999999999999999999"])
def test_a_gm_action_without_a_valid_state_version_is_refused(sent):
    campaign, users = two_phases_resolved()
    url, data = gm_actions(campaign)["observer"]
    before = snapshot(campaign)
    response = gm_client(users).post(url, data if sent is None else {**data, "state_version": sent})
    assert response.status_code == 422
    assert "This form is out of date" in response.content.decode()
    assert snapshot(campaign) == before


def test_starting_a_campaign_twice_is_refused_as_stale():
    campaign = make_eia_campaign(start=False)
    users = seat_users(campaign)
    gm, shown = gm_client(users), version(campaign)
    url = reverse("campaign:start", args=[campaign.pk])
    assert gm.post(url, {"state_version": shown}).status_code == 302
    assert gm.post(url, {"state_version": shown}).status_code == 409


def test_a_players_orders_leave_the_gms_forms_current():
    campaign = quarter_campaign()
    users = seat_users(campaign)
    resolve(campaign, users["gm"])  # peace: the revolt step takes orders
    shown = version(campaign)
    order(campaign, "great_britain", {"targets": ["minor-0"]}, users["other_player"])
    assert version(campaign) == shown
    url, data = gm_actions(campaign)["observer"]
    assert gm_client(users).post(url, {**data, "state_version": shown}).status_code == 302


def test_every_gm_form_of_the_dashboard_carries_the_state_version():
    campaign, users = two_phases_resolved()
    html = gm_client(users).get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    forms = re.findall(r'<form method="post".*?</form>', html, flags=re.S)
    gm_forms = [form for form in forms if "/gm/" in form.split(">", 1)[0]]
    assert len(gm_forms) >= 10
    expected = f'name="state_version" value="{version(campaign)}"'
    assert all(expected in form for form in gm_forms)
