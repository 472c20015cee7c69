"""Real-browser walks of phases that wait only for a choice (Chromium): the demo's
Empires in Arms campaign moves on by itself and its players' home pages list what needs
them; a Pax Baltica ally's actions that would overspend the side's are refused at save,
with the figures; a forage in which nobody is short of forage resolves as it opens; and
the home pages show "Needs you" first, for the player asked a decision and for the GM.

As in tests/browser/test_whole_campaign.py, the test runs the worker's queue itself
between steps, so that "by itself" happens exactly where the test says.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import expect

from campaign.management.commands.demo import GM_USERNAME, PASSWORD
from campaign.models import Campaign, Order, Seat, SeatRequest
from rules.pax_baltica.models import Block, PbTerritory
from tests.browser.connections import one_connection
from tests.browser.test_main_loop import Tab, log_in
from tests.factories import make_pb_campaign, make_vq_campaign
from tests.services.test_scheduling import resolutions, run_worker
from tests.views.test_pb_views import to_phase as pb_to_phase
from tests.views.test_vq_views import SEEDED_LYON, advance, post_orders, stage
from tests.views.test_vq_views import to_phase as vq_to_phase

WALK = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),  # whitenoise
]
POLL_SECONDS = 1
POLL_WAIT_MS = 6_000
OVERSPENT = (
    "These orders need 2 actions, and your side has 3 this season: Russia has committed 2 "
    "actions in its saved orders, which leaves 1 for you."
)


def tabs_for(browser, live_server, *users: tuple[str, str]) -> dict[str, Tab]:
    """A logged-in tab for each (username, password)."""
    tabs = {}
    for username, password in users:
        tab = Tab(browser, live_server.url, username)
        log_in(tab, username, password)
        tabs[username] = tab
    return tabs


def closed(tabs: dict[str, Tab]) -> dict[str, list[str]]:
    """Close every tab; what went wrong in each (script errors, 4xx/5xx answers)."""
    for tab in tabs.values():
        tab.context.close()
    return {who: tab.problems for who, tab in tabs.items() if tab.problems}


def needs_you(tab: Tab):
    tab.goto("/")
    return tab.page.locator("#needs-you")


def walk(test):
    """A browser walk: Chromium, the live server, a transactional test database."""
    for mark in reversed(WALK):
        test = mark(test)
    return test


@walk
def test_the_demos_empires_in_arms_campaign_moves_by_itself(
    live_server, browser, artifacts, settings
):
    """Its peace step, where no power sponsors a revolt, resolves as the demo starts the
    campaign; France's home page lists the revolt step's orders it owes first."""
    settings.POLL_SECONDS = POLL_SECONDS
    with one_connection(live_server):
        call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
        assert "resolved" in resolutions(run_worker())
        campaign = Campaign.objects.get(ruleset="empires_in_arms", name__startswith="Demo")
        assert campaign.phase.key == "revolt"
        tabs = tabs_for(browser, live_server, ("france", PASSWORD), (GM_USERNAME, PASSWORD))
        france = tabs["france"]
        rows = needs_you(france)
        owed = rows.locator("li[data-need=orders]", has_text="Empires in Arms")
        expect(owed).to_contain_text("Your orders for France are awaited: not ready.")
        france.goto(f"/campaigns/{campaign.pk}/")
        expect(france.page.locator(".lead")).to_contain_text("revolt step")
        expect(france.page.locator("#log")).to_contain_text(
            "Political phase · peace step resolved."
        )
        expect(france.page.locator("#progress")).not_to_contain_text("being resolved")
        france.page.screenshot(path=artifacts / "nobody_waits_demo_france.png", full_page=True)
        problems = closed(tabs)
    assert not problems, problems


@walk
def test_an_ally_cannot_overspend_and_a_forage_without_shortage_resolves_at_once(
    live_server, browser, artifacts, settings
):
    """The Coalition has 3 actions: Russia's draft spends 2; Saxony-Poland's step and siege
    (2 more) are refused at save with the figures, its siege alone (1) is accepted. With
    every territory's forage enough, the forage phase owes nothing and resolves as it
    opens, after the GM closes the battles and sieges."""
    settings.POLL_SECONDS = POLL_SECONDS
    with one_connection(live_server):
        campaign = make_pb_campaign()
        users = {key: seated(campaign, key) for key in ("russia", "saxony")}
        gm = seated(campaign, None)
        pb_to_phase(campaign, "actions")
        Block.objects.filter(campaign=campaign, name="Lubomirski").update(
            location=campaign.areas.get(key="livland"), strength=2
        )
        PbTerritory.objects.filter(area__campaign=campaign).update(forage_points=30)
        campaign.bump_version()  # as every change of the state does (pages keep the World by it)
        tabs = tabs_for(
            browser, live_server, *((u.username, PASSWORD) for u in (*users.values(), gm))
        )
        russia, saxony = tabs[users["russia"].username], tabs[users["saxony"].username]
        for tab in (russia, saxony):
            tab.goto(f"/campaigns/{campaign.pk}/")

        orders = russia.page.locator("#orders")
        orders.get_by_label(re.compile("^Menshikov")).fill("1")
        orders.get_by_label(re.compile("^Besiege Narva")).check()
        with russia.page.expect_response(lambda r: r.url.endswith("/orders/")):
            orders.get_by_role("button", name="Save as draft").click()
        expect(russia.page.locator("#orders-status")).to_contain_text("draft")

        saxony.page.reload()
        orders = saxony.page.locator("#orders")
        expect(orders).to_contain_text("Russia has committed 2 actions in its saved orders")
        orders.get_by_label(re.compile("^August II")).fill("1")
        orders.get_by_label(re.compile("^Besiege Livland")).check()
        with saxony.page.expect_response(lambda r: r.url.endswith("/orders/")):
            orders.get_by_role("button", name="Save and mark ready").click()
        expect(saxony.page.locator("#orders")).to_contain_text(OVERSPENT)
        assert not Order.objects.filter(phase=campaign.phase, power__key="saxony").exists()
        refused = [p for p in saxony.problems if p.startswith("422 POST")]
        assert len(refused) == 1 and refused[0].endswith("/orders/")  # the refusal itself
        saxony.problems.remove(refused[0])
        saxony.page.screenshot(path=artifacts / "nobody_waits_overspent.png", full_page=True)
        orders = saxony.page.locator("#orders")
        orders.get_by_label(re.compile("^August II")).fill("")
        with saxony.page.expect_response(lambda r: r.url.endswith("/orders/")):
            orders.get_by_role("button", name="Save and mark ready").click()
        expect(orders.locator("#orders-status")).to_contain_text("marked ready")

        with russia.page.expect_response(lambda r: r.url.endswith("/orders/")):
            russia.page.locator("#orders").get_by_role("button", name="Save and mark ready").click()
        assert resolutions(run_worker()) == ["resolved"]  # every ally ready: the actions
        campaign.refresh_from_db()
        assert campaign.phase.key == "siege"  # the GM's step

        dashboard = tabs[gm.username]
        dashboard.goto(f"/campaigns/{campaign.pk}/gm/")
        dashboard.page.get_by_role("button", name=re.compile("^Close and resolve")).click()
        expect(dashboard.page.get_by_role("status")).to_contain_text("resolved")
        assert resolutions(run_worker()) == ["resolved"]  # the forage, as it opened
        campaign.refresh_from_db()
        assert (campaign.phase.key, campaign.turn_label) == ("actions", "Summer 1700")
        log = russia.page.locator("#log")
        expect(log).to_contain_text("Forage resolved.", timeout=POLL_WAIT_MS)
        problems = closed(tabs)
    assert not problems, problems


@walk
def test_the_home_pages_list_what_needs_the_player_asked_a_decision_and_the_gm(
    live_server, browser, artifacts, monkeypatch
):
    """A Virgin Queen revolt in Lyon waits for France's decision: France's home page
    lists it first and links to it; the GM's lists the request for a seat waiting for
    an answer; the Protestant's, with nothing to decide, says whose decision it waits for."""
    with one_connection(live_server):
        campaign = make_vq_campaign(auto_resolve=False)
        protestant, france, gm = (seated(campaign, key) for key in ("protestant", "france", None))
        Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True)
        SeatRequest.objects.create(
            campaign=campaign,
            power=campaign.powers.get(key="spain"),
            user=get_user_model().objects.create_user("hopeful"),
        )
        vq_to_phase(campaign, "impulse_protestant")
        cp = {"action": "revolt", "target": "lyon", "cp": "3"}
        assert post_orders(logged_in(protestant), campaign, cp).status_code == 200
        assert advance(logged_in(gm), campaign, SEEDED_LYON, monkeypatch).status_code == 302
        assert stage(campaign) == ("revolt", "displace", "france")
        users = (protestant, france, gm)
        tabs = tabs_for(browser, live_server, *((u.username, PASSWORD) for u in users))

        asked = needs_you(tabs[france.username])
        expect(asked.locator("li[data-need=decision]")).to_contain_text(
            "A decision is asked of you, as France."
        )
        tabs[france.username].page.screenshot(
            path=artifacts / "nobody_waits_home_france.png", full_page=True
        )
        asked.get_by_role("link", name="A decision is asked of you, as France.").click()
        expect(tabs[france.username].page.locator("#decision")).to_be_visible()

        requests = needs_you(tabs[gm.username])
        expect(requests.locator("li[data-need=requests]")).to_contain_text(
            "1 request for a seat waits for your answer."
        )
        other = tabs[protestant.username]
        other.goto("/")
        expect(other.page.locator("#needs-you")).to_have_count(0)
        expect(other.page.locator("main")).to_contain_text("waits for France's decision")
        problems = closed(tabs)
    assert not problems, problems


def seated(campaign, power_key: str | None):
    """A user with PASSWORD in the power's seat (None: the GM's)."""
    name = f"{power_key or 'gm'}-{campaign.pk}"
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    seats = Seat.objects.filter(campaign=campaign)
    found = seats.filter(power__key=power_key) if power_key else seats.filter(role="gm")
    found.update(user=user)
    return user


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
