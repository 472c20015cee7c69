"""A real-browser walk of a Pax Baltica recruitment phase with a pool draw (Chromium).

The GM runs the shipped "pax-baltica-1700" scenario with GM-entered dice. The
Saxony-Poland player asks why a block can (or cannot) be reinforced, then orders one
pool draw bought to full strength and placed in Lausitz, through the HTMX form. The GM
resolves with one die: the draw among four pool blocks takes one d6 (faces 1–4 pick a
block, 5–6 are rolled again), so a 1 draws the first block of the pool in the order the
campaign's secret gives that draw. Saxony-Poland's
player reads the block's name in the log; Sweden's player reads only that a block was
placed, and sees it on the map as a blank Saxon block.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaign.models import Seat
from campaign.play.scenarios import create_campaign
from rules.dice import draw_context, secret_order
from rules.pax_baltica.services import load_world
from tests.browser.test_main_loop import Tab, log_in

PASSWORD = "walk-password-1"
CAMPAIGN_NAME = "Browser walk 1700"


def seat(campaign, power: str, username: str):
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    Seat.objects.filter(campaign=campaign, power__key=power).update(user=user)
    return user


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_a_recruitment_phase_with_a_pool_draw(live_server, browser, artifacts):
    gm_user = get_user_model().objects.create_user("pb-gm", password=PASSWORD)
    campaign = create_campaign(
        scenario_key="pax-baltica-1700", name=CAMPAIGN_NAME, gm=gm_user, dice_mode="scripted"
    )
    seat(campaign, "saxony", "august")
    seat(campaign, "sweden", "karl")
    world = load_world(campaign)
    pool = {block.name: block.kind for block in world.pool("saxony")}
    context = draw_context(campaign.phase.dice_context, 0)  # the phase's first die
    first_in_pool = secret_order(campaign.secret, context, pool)[0]
    drawn_kind = pool[first_in_pool]  # an army or a regiment, as the secret falls
    swedish_names = [b.name for b in world.blocks.values() if b.nation == "sweden"]

    gm, saxony, sweden = (Tab(browser, live_server.url, who) for who in ("gm", "saxony", "sweden"))
    for tab, user in ((gm, "pb-gm"), (saxony, "august"), (sweden, "karl")):
        log_in(tab, user, PASSWORD)
        tab.goto(f"/campaigns/{campaign.pk}/")
    page = saxony.page
    expect(page.locator(".lead")).to_contain_text("Recruitment phase is open")

    # "Why?" shows August II's line of communication and highlights it on the map.
    row = page.locator("#blocks tr", has_text="August II")
    row.get_by_role("link", name="Why?").click()
    expect(page.locator("#question")).to_contain_text("Line of communication: August II")
    expect(page.locator("#map g.area.highlight")).not_to_have_count(0)

    # One draw, to full strength, placed in Lausitz: saved ready through HTMX.
    orders = page.locator("#orders")
    orders.get_by_label("Blocks to draw from the pool").fill("1")
    orders.get_by_label("Steps to buy for each drawn block").select_option("0")
    orders.get_by_label("Place new blocks in (choice 1)").select_option(label="Lausitz")
    with page.expect_response(lambda r: r.url.endswith("/orders/")) as response:
        orders.get_by_role("button", name="Save and mark ready").click()
    assert response.value.status == 200
    expect(page.locator("#orders .notice")).to_have_text("Orders saved and marked ready.")

    # The GM enters the one die the draw needs and resolves.
    gm.goto(f"/campaigns/{campaign.pk}/gm/")
    gm.page.get_by_label("Dice faces, in the order the phase rolls them").fill("1")
    gm.page.get_by_role("button", name="Close and resolve Recruitment phase").click()
    expect(gm.page.get_by_role("status")).to_contain_text("Recruitment phase resolved")

    page.reload()
    drawn = page.locator("#log li", has_text=f"{first_in_pool} ({drawn_kind}) drawn")
    expect(drawn).to_contain_text("placed in Lausitz")
    expect(drawn.locator(".rule")).to_have_text("GNW-10")
    expect(page.locator("#blocks")).to_contain_text(first_in_pool)
    page.screenshot(path=artifacts / "pax_baltica_saxony.png", full_page=True)

    other = sweden.page
    other.reload()
    expect(other.locator("#log")).to_contain_text("Saxony-Poland places a new block in Lausitz.")
    body = other.content()
    assert first_in_pool not in body and "August II" not in body
    assert all(name in body for name in swedish_names)
    lausitz = other.locator('#map [data-key="lausitz"]')  # its area's or its counters' group
    expect(lausitz.locator(".badge.hidden-block")).not_to_have_count(0)
    expect(lausitz.locator(".badge.hidden-block text")).to_have_count(0)
    other.screenshot(path=artifacts / "pax_baltica_sweden.png", full_page=True)

    problems = {tab.who: tab.problems for tab in (gm, saxony, sweden) if tab.problems}
    for tab in (gm, saxony, sweden):
        tab.context.close()
    assert not problems, problems
