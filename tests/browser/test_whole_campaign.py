"""A real-browser walk of a political phase of Empires in Arms (Chromium), four users.

France, Spain and Russia are seated (test factory campaign: nobody of them sponsors a
revolt, so the peace step owes nothing and resolves itself). In the revolt step France
and Spain write to each other in their private channel from the campaign page's press
panel; Russia's pages, fragments and downloads never hold a word of it. France gives a
revolt attempt and an order for the GM (corps I to Andalusia); the GM carries it out from
the dashboard with one click and one submit; the step resolves by itself (seeded dice)
when Russia, the last power that owes orders, marks them ready, and the log reveals the
order for the GM, carried out, beside the GM's edit logged against it.

The browser tests have no task worker: the test runs the queue itself between steps
(`manage.py db_worker --batch`, as tests/services/test_scheduling.py does), so that
"resolves by itself" happens exactly where the test says.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaign.core import readiness
from campaign.models import Phase, Seat
from campaign.play.services import start_campaign
from rules.empires_in_arms.models import Corps
from tests.browser.connections import one_connection
from tests.browser.test_main_loop import Tab, log_in
from tests.factories import PASSWORD, make_eia_campaign, seat_users
from tests.services.test_scheduling import resolutions, run_worker

POLL_SECONDS = 1
POLL_WAIT_MS = 6_000
SECRET = "Our secret pact: Spain and France march on Vienna in April"
REPLY = "Agreed, and not one word of it to Saint Petersburg"
MOVE = "move: corps I → Andalusia"
REVOLT_STEP = "Political phase · revolt step"


def build_campaign() -> tuple:
    """The factory campaign, France, Spain and Russia seated, started (peace step open)."""
    campaign = make_eia_campaign(start=False)
    users = seat_users(campaign, "france", "spain")
    russian = get_user_model().objects.create_user(f"russia-{campaign.pk}", password=PASSWORD)
    Seat.objects.filter(campaign=campaign, power__key="russia").update(user=russian)
    start_campaign(campaign, actor=None)
    campaign.refresh_from_db()
    names = {"france": "player", "spain": "other_player", "gm": "gm"}
    return campaign, {key: users[role] for key, role in names.items()} | {"russia": russian}


def open_phase(campaign) -> Phase:
    campaign.refresh_from_db()
    return Phase.objects.get(pk=campaign.phase_id)


def owing(campaign, phase: Phase) -> list[str]:
    """The seated powers whose orders the phase waits for."""
    return sorted(p.key for p in readiness.owing_powers(campaign, phase))


MESSAGE_FIELD = re.compile(r"^Message:?$")  # not a reply box's "Your message to …"


def write_private(tab: Tab, to: str, text: str) -> None:
    """Send ``text`` to the private channel with ``to`` from the campaign page's panel."""
    panel = tab.page.locator("#press-panel")
    compose = panel.locator("details.press-compose-box")
    compose.locator("summary").click()  # "New message"
    compose.get_by_label("To").select_option("private")
    compose.get_by_role("checkbox", name=to, exact=True).check()
    compose.get_by_label(MESSAGE_FIELD).fill(text)
    with tab.page.expect_response(lambda r: "/press/" in r.url and r.request.method == "POST"):
        compose.get_by_role("button", name="Send").click()
    expect(panel.locator(".notice.success")).to_have_text("Message sent.")  # the panel anew
    expect(panel.get_by_label(MESSAGE_FIELD)).to_have_value("")


def give_orders(tab: Tab, target: str, gm_line: str | None = None) -> None:
    """Tick one revolt target (and a corps move for the GM) and save ready, with HTMX."""
    orders = tab.page.locator("#orders")
    expect(orders).to_contain_text(f"Your orders: {REVOLT_STEP}")
    orders.get_by_role("checkbox", name=re.compile(rf"^{target} \(")).check()
    if gm_line:
        row = orders.locator("#gm-orders-part li.gm-line").first
        row.get_by_label("Order").select_option("move")
        row.get_by_label("Unit and area").select_option(gm_line)
    with tab.page.expect_response(lambda r: r.url.endswith("/orders/")) as response:
        orders.get_by_role("button", name="Save and mark ready").click()
    assert response.value.request.headers.get("hx-request") == "true"
    expect(tab.page.locator("#orders .notice")).to_have_text("Orders saved and marked ready.")


def fetched(tab: Tab, url: str, *, htmx: bool = True) -> tuple[int, str]:
    """A GET with the tab's cookies, as HTMX asks for a fragment (or as a download)."""
    response = tab.context.request.get(url, headers={"HX-Request": "true"} if htmx else {})
    return response.status, response.text()


def press_urls(campaign) -> list[str]:
    base = f"/campaigns/{campaign.pk}/press/"
    channel = f"{base}france+spain/"
    return [
        f"{base}?part=panel",
        f"{base}?part=channels",
        f"{base}?part=messages",
        f"{channel}?part=messages",
        channel,
    ]


def assert_nothing_leaks_to(russia: Tab, spain: Tab, campaign, history: str) -> None:
    """Russia reads neither message anywhere; Spain, through the same URLs, reads them."""
    pages = [f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/press/", history]
    for url in pages:
        russia.goto(url)
        content = russia.page.content()
        assert SECRET not in content and REPLY not in content, url
    for url in press_urls(campaign) + [history]:
        status, body = fetched(russia, url)
        assert SECRET not in body and REPLY not in body, url
        if url.startswith(f"/campaigns/{campaign.pk}/press/france+spain/"):
            assert status == 404, (url, status)
    status, body = fetched(russia, f"/campaigns/{campaign.pk}/gm/export/", htmx=False)
    assert status == 403 and SECRET not in body
    for url in (press_urls(campaign)[3], history):
        status, body = fetched(spain, url)
        assert status == 200 and SECRET in body and REPLY in body, url


def carry_out_the_move(gm: Tab, campaign) -> None:
    """The dashboard lists France's line; "Edit it first" opens the corps edit prefilled
    ("Carry it out" makes it in one step: tests/views/test_carry_out_now.py)."""
    page = gm.page
    gm.goto(f"/campaigns/{campaign.pk}/gm/")
    listing = page.locator("#gm-orders")
    expect(listing).to_contain_text("France orders")
    line = listing.locator("li", has_text=MOVE)
    line.get_by_role("link", name="Edit it first").click()
    form = page.locator("#edit-corps form.edit-row", has=page.locator(".carrying"))
    expect(form.locator(".carrying")).to_have_text("Carrying out France's order 1.")
    expect(form.get_by_label("Area")).to_have_value("andalusia")
    page.evaluate("() => { window.__noFullReload = true; }")
    form.get_by_role("button").click()
    expect(page.get_by_role("status")).to_be_visible()
    expect(page.locator("#gm-orders li", has_text=MOVE)).to_contain_text("carried out")
    the_edit_joins_the_log_once(gm)


def the_edit_joins_the_log_once(gm: Tab) -> None:
    """The edit's line follows the open phase's lines on the GM's page, without a reload;
    an answer that carries it again (two forms sent at once) does not add it twice."""
    lines = gm.page.locator("#log ol.log-lines").first.locator("li")
    expect(lines.last).to_contain_text("Andalusia")
    shown = lines.count()
    gm.page.evaluate(
        """() => {
            const lines = document.querySelector("#log ol.log-lines");
            const again = `<ol data-hx-swap-oob="beforeend:#${lines.id}" data-log-added>`
                + lines.lastElementChild.outerHTML + "</ol>";
            htmx.swap("#log", again, {swapStyle: "none"});
        }"""
    )
    assert lines.count() == shown
    assert gm.page.evaluate("() => window.__noFullReload === true"), "the page reloaded"


def revolt_step_still_open(campaign) -> None:
    """The worker has nothing to resolve while Russia owes orders."""
    assert resolutions(run_worker()) == []
    assert open_phase(campaign).key == "revolt"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_three_players_and_the_gm_play_a_revolt_step(live_server, browser, artifacts, settings):
    settings.POLL_SECONDS = POLL_SECONDS
    with one_connection(live_server):
        campaign, users = build_campaign()
        peace = open_phase(campaign)
        assert peace.key == "peace" and owing(campaign, peace) == []
        assert resolutions(run_worker()) == ["resolved"]  # so it resolves by itself
        revolt = open_phase(campaign)
        assert owing(campaign, revolt) == ["france", "russia", "spain"]
        tabs = {who: Tab(browser, live_server.url, who) for who in users}
        try:
            for who, tab in tabs.items():
                log_in(tab, users[who].username, PASSWORD)
                tab.goto(f"/campaigns/{campaign.pk}/")
            play(campaign, revolt, users, tabs)
            for who, tab in tabs.items():
                tab.page.screenshot(path=artifacts / f"whole_campaign_{who}.png", full_page=True)
        finally:
            for tab in tabs.values():
                tab.context.close()
    problems = {tab.who: tab.problems for tab in tabs.values() if tab.problems}
    assert not problems, problems


def play(campaign, revolt: Phase, users: dict, tabs: dict[str, Tab]) -> None:
    france, spain, russia, gm = (tabs[who] for who in ("france", "spain", "russia", "gm"))
    for tab in (france, spain):
        tab.page.evaluate("() => { window.__noFullReload = true; }")

    # 1. Press: France writes to Spain alone; Spain's panel announces it without a reload
    # and Spain answers from its panel; France's open channel page shows the answer.
    write_private(france, "Spain", SECRET)
    channel = spain.page.locator("#press-panel .press-glance", has_text="France, Spain")
    expect(channel).to_contain_text("1 unread", timeout=POLL_WAIT_MS)
    expect(channel.locator(".press-line.new")).to_contain_text(SECRET)  # read at a glance
    france_press = france.context.new_page()  # a second tab of France's
    france_press.on("response", france._response)
    france_press.goto(f"/campaigns/{campaign.pk}/press/france+spain/")
    expect(france_press.locator("#press-messages")).to_contain_text(SECRET)
    write_private(spain, "France", REPLY)
    expect(france_press.locator("#press-messages")).to_contain_text(REPLY, timeout=POLL_WAIT_MS)
    france_press.close()

    # 2. Orders: France with a corps move for the GM, Spain; the GM carries the move out.
    corps_i = Corps.objects.get(campaign=campaign, name="I")
    give_orders(france, "Minor 001", gm_line=f"{corps_i.pk}:andalusia")
    expect(france.page.locator("#gm-orders-saved")).to_contain_text(MOVE)
    give_orders(spain, "Minor 000")
    revolt_step_still_open(campaign)
    carry_out_the_move(gm, campaign)
    corps_i.refresh_from_db()
    assert corps_i.area.key == "andalusia"
    revolt_step_still_open(campaign)

    # 3. Russia, the last power that owes orders (the others have no player), marks them
    # ready: the step resolves with seeded dice, and so does every phase after it that
    # waits for nobody; the open pages follow by themselves.
    give_orders(russia, "Minor 002")
    expect(russia.page.locator("#log")).not_to_contain_text("orders for the GM")
    # the revolt step, then the phases after it in which nobody has anything to decide
    ran = resolutions(run_worker())
    assert ran[0] == "resolved" and set(ran) == {"resolved"}
    assert open_phase(campaign).pk != revolt.pk
    log = france.page.locator("#log")
    expect(log).to_contain_text(
        f"France's orders for the GM: 1. {MOVE} (carried out).", timeout=POLL_WAIT_MS
    )
    expect(log).to_contain_text(
        f"GM {users['gm'].username}, carrying out France's order 1: France corps I in Andalusia"
    )
    expect(log).to_contain_text("France incites a revolt in Minor 001")
    for tab in (france, spain):
        assert tab.page.evaluate("() => window.__noFullReload === true"), f"{tab.who} reloaded"

    history = f"/campaigns/{campaign.pk}/history/{revolt.pk}/"
    assert_nothing_leaks_to(russia, spain, campaign, history)
    status, body = fetched(gm, f"/campaigns/{campaign.pk}/gm/export/", htmx=False)
    assert status == 200 and SECRET not in body  # the GM does not read private press here
