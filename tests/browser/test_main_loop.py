"""One real-browser walk of the main loop (Chromium, through the live server).

The GM creates a campaign of the shipped "eia-1805" scenario with GM-entered dice, two
players join by their invitation links (signing up on the way), give their revolt-step
orders through the HTMX form, the GM resolves the step with the dice faces typed in, and
both players' pages update themselves: each sees what happened to its power, the
explained rolls in the log and the new revolt on the map.

With GM-entered dice the outcome is exact. The revolt step rolls one die per attempt, in
land-phase order (France in slot 1, then Russia, Turkey, Austria, Prussia, Great Britain,
Spain), and one EIA-2 strength die right after each attempt that succeeds:

  1  France incites a revolt in Malta: 1 +1 France Dominant = 2 < 6: no revolt
  6  Great Britain incites a revolt in Palatinate: 6 +1 NM +1 Dominant = 8 ≥ 6: breaks out
  4  Strength: 4 +1 GB NM +1 GB Dominant −1 France Dominant −1 French corps present = 4
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.connections import one_connection

GM_NAME, GM_PASSWORD = "gamemaster", "gm-walk-password-1"
PLAYER_PASSWORD = "player-walk-password-1"
CAMPAIGN_NAME = "Browser walk 1805"
TIMEOUT_MS = 15_000
REVOLT_FACES = "1 6 4"  # France → Malta fails, GB → Palatinate breaks out, strength 4
POLL_SECONDS = 1  # how often the players' pages poll here (15 s by default)
POLL_WAIT_MS = 5_000


class Tab:
    """One browser context (one user's cookies) and its page, recording what went wrong:
    uncaught script errors and failed responses (a 4xx/5xx page or asset)."""

    def __init__(self, browser, base_url: str, who: str):
        self.who = who
        self.context = browser.new_context(
            base_url=base_url,
            viewport={"width": 1280, "height": 900},
            permissions=["clipboard-read", "clipboard-write"],
        )
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.confirmations: list[str] = []  # what each confirm() asked, accepted
        self.page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        self.page.on("response", self._response)
        self.page.on("dialog", self._dialog)

    def _dialog(self, dialog) -> None:
        self.confirmations.append(dialog.message)
        dialog.accept()

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"{response.status} {response.request.method} {response.url}")

    def goto(self, url: str) -> None:
        self.page.goto(url)
        self.htmx_loaded()

    def htmx_loaded(self) -> None:
        """The vendored htmx.min.js was served (static files) and ran."""
        self.page.wait_for_function("() => typeof window.htmx !== 'undefined'")


def log_in(tab: Tab, username: str, password: str) -> None:
    page = tab.page
    page.goto("/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def join_by_invitation(tab: Tab, invite: str, username: str, power: str) -> None:
    """Open the invitation link (it says what it is for), sign up from it, take the seat."""
    page = tab.page
    tab.goto(invite)
    expect(page.get_by_text(f"You are invited to play {power}")).to_be_visible()
    page.get_by_role("main").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    expect(page.get_by_text(f"You are invited to play {power}")).to_be_visible()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Mail address").fill(f"{username}@example.org")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PLAYER_PASSWORD)
    page.get_by_label("Password confirmation").fill(PLAYER_PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    # Signed up and logged in, back on the invitation.
    expect(page.get_by_text(f"You are invited to play {power}")).to_be_visible()
    page.get_by_role("button", name="Take this seat").click()
    expect(page.get_by_role("heading", level=1, name=CAMPAIGN_NAME)).to_be_visible()
    expect(page.locator(".lead")).to_contain_text(f"you are {power}")
    tab.htmx_loaded()


def give_revolt_orders(tab: Tab, power: str, target: str) -> None:
    """Tick one revolt target in the HTMX orders form and save it ready, without a reload."""
    page = tab.page
    orders = page.locator("#orders")
    expect(orders).to_contain_text("Your orders: Political phase · revolt step")
    page.evaluate("() => { window.__noFullReload = true; }")
    orders.get_by_role("checkbox", name=re.compile(rf"^{target} \(")).check()
    with page.expect_response(lambda r: r.url.endswith("/orders/")) as response:
        orders.get_by_role("button", name="Save and mark ready").click()
    assert response.value.status == 200
    assert response.value.request.headers.get("hx-request") == "true"
    expect(page.locator("#orders .notice")).to_have_text("Orders saved and marked ready.")
    expect(page.locator("#orders")).to_contain_text("marked ready")
    expect(
        page.locator("#orders").get_by_role("checkbox", name=re.compile(rf"^{target} \("))
    ).to_be_checked()
    # The submissions panel was swapped out of band: this power is now "ready".
    expect(page.locator("#submissions tr", has_text=power)).to_contain_text("ready")
    assert page.evaluate("() => window.__noFullReload === true"), "the page fully reloaded"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_gm_and_two_players_play_a_revolt_step(live_server, browser, artifacts, settings):
    settings.POLL_SECONDS = POLL_SECONDS
    with one_connection(live_server):
        get_user_model().objects.create_user(GM_NAME, password=GM_PASSWORD)
        gm = Tab(browser, live_server.url, "gm")
        britain = Tab(browser, live_server.url, "great_britain")
        france = Tab(browser, live_server.url, "france")
        tabs = (gm, britain, france)
        for tab in tabs:
            tab.context.set_default_timeout(TIMEOUT_MS)

        # 1. The GM logs in, creates the campaign with GM-entered dice, reads two invitations.
        page = gm.page
        log_in(gm, GM_NAME, GM_PASSWORD)
        expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
        gm.htmx_loaded()
        page.get_by_role("link", name="Start a new campaign as its GM").click()
        page.get_by_label("Campaign name").fill(CAMPAIGN_NAME)
        page.get_by_label("Scenario").select_option("eia-1805")
        page.get_by_label("Dice").select_option(label="GM-entered dice")
        page.get_by_role("button", name="Create the campaign").click()
        expect(page.get_by_role("heading", name=f"GM dashboard: {CAMPAIGN_NAME}")).to_be_visible()
        expect(page.locator(".lead")).to_contain_text("January 1805")
        expect(page.locator(".lead")).to_contain_text("Political phase · peace step is open")
        expect(page.locator(".lead")).to_contain_text("dice: GM-entered dice")
        dashboard_url = page.url
        invites = {
            power: page.get_by_label(f"Invitation link for {power}").input_value()
            for power in ("Great Britain", "France")
        }
        assert all("/join/" in link for link in invites.values()), invites
        copy = page.locator("#seats tr", has_text="Great Britain").locator("button.copy")
        expect(copy).to_have_text("Copy")
        copy.click()
        expect(copy).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == invites["Great Britain"]

        # 2. Each player opens their invitation, signs up, takes the seat.
        join_by_invitation(britain, invites["Great Britain"], "albion", "Great Britain")
        join_by_invitation(france, invites["France"], "marianne", "France")

        # 3a. The GM starts the campaign (it waits for the GM's word, the new-campaign form's
        # default), then resolves the peace step: no orders, no dice.
        gm.goto(dashboard_url)
        expect(page.locator("#seats tr", has_text="Great Britain")).to_contain_text("taken")
        page.locator("#phase").get_by_role("button", name="Start the campaign").click()
        expect(page.locator("#phase")).to_contain_text("The campaign has started.")
        gm.goto(dashboard_url)
        page.get_by_label("Dice faces, in the order the phase rolls them").fill("")
        page.get_by_role("button", name="Close and resolve Political phase · peace step").click()
        expect(page.get_by_role("status")).to_contain_text(
            "Political phase · peace step resolved; Political phase · revolt step is open."
        )
        assert gm.confirmations == [
            "Close Political phase · peace step now and resolve it? Powers that have not "
            "marked their orders ready are resolved with what they saved, and the dice are "
            "rolled."
        ]

        # 3b. Both players give their revolt-step orders through the HTMX form.
        for tab in (britain, france):
            tab.page.reload()
            tab.htmx_loaded()
        give_revolt_orders(britain, "Great Britain", "Palatinate")
        give_revolt_orders(france, "France", "Malta")

        # 4. The GM sees both ready, types the dice faces and resolves the revolt step.
        gm.goto(dashboard_url)
        for power in ("Great Britain", "France"):
            expect(page.locator("#submissions tr", has_text=power)).to_contain_text("ready")
        page.get_by_label("Dice faces, in the order the phase rolls them").fill(REVOLT_FACES)
        page.get_by_role("button", name="Close and resolve Political phase · revolt step").click()
        expect(page.get_by_role("status")).to_contain_text(
            "Political phase · revolt step resolved; Land phase · guerrilla steps is open."
        )

        # 5. Both players' pages update themselves (their poll finds the phase resolved and
        # swaps the page in place, no reload): what happened to them first, the explained
        # rolls in the log, and the revolt on the map.
        for tab, mine, theirs in (
            (britain, "Great Britain incites a revolt in Palatinate", "France incites"),
            (france, "France incites a revolt in Malta", "Great Britain incites"),
        ):
            p = tab.page
            expect(p.locator(".lead")).to_contain_text(
                "Land phase · guerrilla steps is open", timeout=POLL_WAIT_MS
            )
            assert p.evaluate("() => window.__noFullReload === true"), "the page fully reloaded"
            summary = p.locator("#summary")
            expect(summary.get_by_role("heading")).to_have_text(
                "What happened to you in Political phase · revolt step (January 1805)"
            )
            expect(summary.locator("li").first).to_contain_text(mine)
            expect(summary.locator(".rule").first).to_have_text("EIA-1")
            expect(summary).not_to_contain_text(theirs)
            progress = p.locator("#progress")
            expect(progress).to_have_attribute("data-hx-get", re.compile("status=open"))
            attempt = p.locator("#log li", has_text="Great Britain incites a revolt in Palatinate")
            expect(attempt).to_have_count(1)
            expect(attempt.locator(".rule")).to_have_text("EIA-1")
            expect(attempt).to_contain_text(
                "6 +1 Great Britain national modifier +1 Great Britain Dominant = 8 ≥ 6: "
                "the revolt breaks out (Great Britain PP 12 → 11)"
            )
            strength = p.locator(
                "#log li", has_text="Strength of the Great Britain revolt in Palatinate"
            )
            expect(strength.locator(".rule")).to_have_text("EIA-2")
            expect(strength).to_contain_text("= 4: revolt number 4")
            failed = p.locator("#log li", has_text="France incites a revolt in Malta")
            expect(failed).to_contain_text("1 +1 France Dominant = 2 < 6: no revolt")
            # The map: a revolt badge on Palatinate (its area's or its counters' group),
            # and the same in the table, which loads when it is opened.
            palatinate = p.locator('#map [data-key="palatinate"] .badge.revolt')
            expect(palatinate).to_have_text("4")
            p.locator("#map details.map-table summary").click()
            expect(p.locator("#area-palatinate")).to_contain_text("4 (Great Britain)")
            expect(p.locator("#area-malta")).not_to_contain_text("(France)")
            p.locator("#area-palatinate").scroll_into_view_if_needed()
            p.screenshot(path=artifacts / f"main_loop_{tab.who}.png", full_page=True)

        problems = {tab.who: tab.problems for tab in tabs if tab.problems}
        for tab in tabs:
            tab.context.close()
        assert not problems, problems
