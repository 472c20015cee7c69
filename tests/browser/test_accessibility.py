"""axe-core in a real browser (Chromium) on the pages players and GMs use most.

For a campaign of each ruleset: the campaign page as a player and as the GM, and the GM
dashboard. Any violation axe rates "serious" or "critical" fails the test.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse

from tests.browser.test_languages import eia_at_revolt_step, pb_at_recruitment
from tests.browser.test_main_loop import Tab, log_in
from tests.factories import PASSWORD, make_vq_campaign, seat_users

BLOCKING = {"serious", "critical"}


def vq_at_first_impulse():
    """A Virgin Queen campaign at the Ottoman impulse and its users, the Ottoman the player."""
    campaign = make_vq_campaign()
    return campaign, seat_users(campaign, player="ottoman", other="spain")


RULESETS = {
    "empires_in_arms": eia_at_revolt_step,
    "pax_baltica": pb_at_recruitment,
    "virgin_queen": vq_at_first_impulse,
}


def blocking_violations(page) -> list[str]:
    """axe's serious and critical violations on the page, one line each, with the nodes."""
    results = Axe().run(page).response
    return [
        f"{v['id']} ({v['impact']}): {v['help']}; nodes: "
        + ", ".join(" ".join(map(str, node["target"])) for node in v["nodes"])
        for v in results["violations"]
        if v["impact"] in BLOCKING
    ]


def check(tab: Tab, url: str) -> None:
    """axe on ``url`` with every collapsed section (<details>) opened, once the panels the
    page loads itself (the press) are in: a request in flight dims its buttons."""
    tab.goto(url)
    tab.page.wait_for_function("() => !document.querySelector('.htmx-request')")
    tab.page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    violations = blocking_violations(tab.page)
    assert not violations, f"{url} as {tab.who}:\n" + "\n".join(violations)
    assert not tab.problems, tab.problems


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_serious_accessibility_violations(live_server, browser, subtests, ruleset):
    campaign, users = RULESETS[ruleset]()
    detail = reverse("campaign:detail", args=[campaign.pk])
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    pages = (("player", detail), ("gm", detail), ("gm", dashboard))
    tabs = {role: Tab(browser, live_server.url, role) for role in ("player", "gm")}
    for role, tab in tabs.items():
        log_in(tab, users[role].get_username(), PASSWORD)
    try:
        for role, url in pages:
            with subtests.test(f"{role} {url}"):
                check(tabs[role], url)
    finally:
        for tab in tabs.values():
            tab.context.close()
