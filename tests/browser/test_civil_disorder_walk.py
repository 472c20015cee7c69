"""A real-browser walk of a Pax Baltica campaign that loses a player and goes on
(Chromium): Sweden's player misses two deadlines, Sweden falls into civil disorder and
its player's page says so; a new user finds the seat in the lobby as "replacement
wanted", asks for it, the GM accepts on the dashboard, the new player gives Sweden's
orders, and the history names both players. Then Russia's player takes an extension of
the deadline with one click, and every page shows the new deadline.

The deadlines pass on the server's side (the clock's tick and the worker, as
tests/browser/test_nobody_waits.py runs them); everything the people do, they do in
their own browser.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from campaign.core import readiness
from campaign.jobs import tasks
from campaign.models import Campaign, Phase, Power
from campaign.play import services
from tests.browser.connections import one_connection
from tests.browser.test_nobody_waits import PASSWORD, closed, seated, tabs_for, walk
from tests.factories import make_pb_campaign
from tests.services.test_scheduling import resolutions, run_worker
from tests.views.test_pb_views import to_phase


def owing(campaign) -> set[str]:
    campaign.refresh_from_db()
    phase = Phase.objects.get(pk=campaign.phase_id)
    return {power.key for power in readiness.owing_powers(campaign, phase)}


def seat_player(campaign, key: str, gm):
    """A user with PASSWORD whom the GM seats as the power's player."""
    name = {"sweden": "karl", "russia": "pyotr"}[key]
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    services.assign_seat(seat=campaign.seats.get(power__key=key), user=user, actor=gm)
    return user


def miss_a_deadline(campaign, russia) -> None:
    """Russia gives its orders for the next actions; Sweden gives none, and the deadline
    passes: the clock's tick and the worker resolve the phase."""
    to_phase(campaign, "actions")
    assert "sweden" in owing(campaign)
    seat = campaign.seats.select_related("power", "user").get(power__key="russia")
    services.submit_orders(
        seat=seat, phase_id=campaign.phase_id, payload={}, ready=True, actor=russia
    )
    Phase.objects.filter(pk=campaign.phase_id).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )
    assert tasks.tick.call() == 1
    assert resolutions(run_worker()) == ["resolved"]


@walk
def test_a_campaign_replaces_a_missing_player_and_a_player_takes_an_extension(
    live_server, browser, artifacts
):
    with one_connection(live_server):
        campaign = make_pb_campaign()
        gm = seated(campaign, None)
        karl, pyotr = (seat_player(campaign, key, gm) for key in ("sweden", "russia"))
        gustav = get_user_model().objects.create_user("gustav", password=PASSWORD)
        for _ in range(2):
            miss_a_deadline(campaign, pyotr)
        sweden = Power.objects.get(campaign=campaign, key="sweden")
        assert sweden.in_disorder and sweden.missed_in_row == 2
        to_phase(campaign, "actions")
        users = (karl, pyotr, gm, gustav)
        tabs = tabs_for(browser, live_server, *((u.username, PASSWORD) for u in users))
        page_of = {user: tabs[user.username] for user in users}
        url = f"/campaigns/{campaign.pk}/"

        # The missing player is told; the power is marked on the pages.
        page_of[karl].goto(url)
        expect(page_of[karl].page.locator(".notice.warning")).to_contain_text(
            "Sweden is in civil disorder"
        )
        expect(page_of[karl].page.locator("#submissions")).to_contain_text(
            "civil disorder: default orders"
        )
        expect(page_of[karl].page.locator("#log")).to_contain_text(
            "Sweden falls into civil disorder after 2 missed deadlines"
        )

        # A new user takes the seat from the lobby; the GM accepts.
        lobby = page_of[gustav]
        lobby.goto("/lobby/")
        wanted = lobby.page.locator("table.wanted")
        expect(wanted).to_contain_text("Replacement wanted: the GM answers each request")
        lobby.page.get_by_role("button", name="Ask to take over Sweden").click()
        expect(lobby.page.locator(".messages")).to_contain_text("You asked to play Sweden")
        lobby.page.screenshot(path=artifacts / "disorder_lobby.png", full_page=True)

        dashboard = page_of[gm]
        dashboard.goto(f"{url}gm/")
        requests = dashboard.page.locator("#lobby .requests")
        expect(requests).to_contain_text("gustav asks to play Sweden")
        expect(requests).to_contain_text("no record yet")
        requests.get_by_role("button", name="Accept").click()
        expect(dashboard.page.locator("#lobby")).to_contain_text("gustav plays Sweden.")

        # The new player gives Sweden's orders; the history names both players.
        player = page_of[gustav]
        player.goto(url)
        expect(player.page.locator(".lead")).to_contain_text("you are Sweden")
        orders = player.page.locator("#orders")
        with player.page.expect_response(lambda r: r.url.endswith("/orders/")):
            orders.get_by_role("button", name="Save and mark ready").click()
        expect(orders.locator("#orders-status")).to_contain_text("marked ready")
        resolved = Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED).last()
        player.goto(f"{url}history/{resolved.pk}/")
        played = player.page.locator("#players")
        expect(played).to_contain_text(
            re.compile(r"Sweden: karl\s+Spring 1700 to Autumn 1700, replaced after civil disorder")
        )
        expect(played).to_contain_text(re.compile(r"Sweden: gustav\s+from Autumn 1700"))
        player.page.screenshot(path=artifacts / "disorder_history.png", full_page=True)

        # Russia's player extends the deadline; every page shows the new one.
        phase = Phase.objects.get(pk=Campaign.objects.get(pk=campaign.pk).phase_id)
        deadline = timezone.now() + timedelta(hours=6)
        Phase.objects.filter(pk=phase.pk).update(deadline=deadline)
        russia = page_of[pyotr]
        russia.goto(url)
        extend = russia.page.get_by_role("button", name=re.compile("^Extend the deadline by 24 h"))
        with russia.page.expect_response(lambda r: r.url.endswith("/extend/")):
            extend.click()
        phase.refresh_from_db()
        assert phase.deadline == deadline + timedelta(hours=24)
        shown = timezone.localtime(phase.deadline).strftime("%-d %b %Y %H:%M")
        for user in users[1:]:
            tab = page_of[user]
            tab.goto(f"{url}gm/" if user == gm else url)
            expect(tab.page.locator(".lead")).to_contain_text(shown)
        expect(page_of[gustav].page.locator("#log")).to_contain_text(
            "Russia takes an extension of 24 h"
        )
        page_of[gustav].page.screenshot(path=artifacts / "disorder_extension.png", full_page=True)
        problems = closed(tabs)
    assert not problems, problems
