"""A real-browser walk of a Virgin Queen conversion with its choices made on the map.

The GM runs the shipped "virgin-queen-1559" scenario with GM-entered dice. The Ottoman
impulse passes; Spain's player orders two conversion attempts in the Netherlands; the GM
rolls 4 and 5 (two minor conversions). The impulse then waits for Spain: the eligible
spaces are highlighted on Spain's map, the player picks two of them there (a click, then
the keyboard), which fills the decision form, and decides. The log then shows both spaces converted.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaign.models import Seat
from campaign.play.scenarios import create_campaign
from tests.browser.test_main_loop import Tab, log_in

PASSWORD = "walk-password-1"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_a_conversion_chosen_on_the_map(live_server, browser, artifacts):
    User = get_user_model()
    gm_user = User.objects.create_user("vq-gm", password=PASSWORD)
    campaign = create_campaign(
        scenario_key="virgin-queen-1559", name="Browser walk 1559", gm=gm_user, dice_mode="scripted"
    )
    philip = User.objects.create_user("philip", password=PASSWORD)
    Seat.objects.filter(campaign=campaign, power__key="spain").update(user=philip)

    gm, spain = Tab(browser, live_server.url, "gm"), Tab(browser, live_server.url, "spain")
    log_in(gm, "vq-gm", PASSWORD)
    log_in(spain, "philip", PASSWORD)
    dashboard = f"/campaigns/{campaign.pk}/gm/"
    gm.goto(dashboard)
    dice = gm.page.get_by_label("Dice faces, in the order the phase rolls them")
    dice.fill("")
    gm.page.get_by_role("button", name="Close and resolve Ottoman impulse").click()
    expect(gm.page.get_by_role("status")).to_contain_text("Spanish impulse is open")

    page = spain.page
    spain.goto(f"/campaigns/{campaign.pk}/")
    orders = page.locator("#orders")
    orders.locator("select[name=action]").select_option("conversion")
    orders.get_by_label("Netherlands").check()
    orders.get_by_label("Conversion attempts (dice)").select_option("2")
    with page.expect_response(lambda r: r.url.endswith("/orders/")) as response:
        orders.get_by_role("button", name="Save and mark ready").click()
    assert response.value.status == 200

    gm.goto(dashboard)
    gm.page.get_by_label("Dice faces, in the order the phase rolls them").fill("4 5")
    gm.page.get_by_role("button", name="Close and resolve Spanish impulse").click()
    expect(gm.page.locator("#decision h2")).to_have_text("Waiting for Spain")

    spain.goto(f"/campaigns/{campaign.pk}/")
    expect(page.locator("#decision h2")).to_have_text("Your decision")
    choices = page.locator("#map g.area.highlight")
    expect(choices).not_to_have_count(0)
    keys = choices.evaluate_all("(areas) => areas.map((g) => g.dataset.key)")[:2]
    names = []
    for index, key in enumerate(keys):
        area = page.locator(f"#map-{key}")
        names.append(area.locator("title").first.text_content())
        if index == 0:  # a click on the area (dispatched: labels crowd the small map)
            area.dispatch_event("click")
        else:  # the keyboard: the highlighted areas are buttons
            area.focus()
            page.keyboard.press("Enter")
    selects = page.locator("#decision select")
    assert [selects.nth(i).input_value() for i in range(2)] == keys
    page.screenshot(path=artifacts / "virgin_queen_choice.png", full_page=True)
    page.get_by_role("button", name="Decide").click()
    expect(page.locator("#decision")).to_have_count(0)
    for name in names:
        expect(page.locator("#log")).to_contain_text(re.compile(rf"flips {name} to Catholic"))
    expect(page.locator(".lead")).to_contain_text("English impulse is open")

    problems = {tab.who: tab.problems for tab in (gm, spain) if tab.problems}
    for tab in (gm, spain):
        tab.context.close()
    assert not problems, problems
