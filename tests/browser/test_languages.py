"""The Greek and Russian interfaces in a real browser (Chromium), on a desktop and a phone.

A player reads their campaign page in the language chosen in their preferences (their
Profile) or in the one their browser asks for (Accept-Language). Each text checked is
compared with Django's own translation of the template's English msgid and must differ
from the English: an untranslated catalog fails. On the phone the page must not scroll
sideways, the map must fit the width and the order buttons must be large enough to tap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from campaign.models import Profile
from campaign.play.services import resolve_open_phase
from tests.browser.phone import reveal
from tests.factories import PASSWORD, make_eia_campaign, make_pb_campaign, seat_users

DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True},
}
BROWSER_LOCALES = {"en": "en-US", "el": "el-GR", "ru": "ru-RU"}
MIN_TAP_HEIGHT = 24


@dataclass(frozen=True)
class Case:
    language: str
    chosen_in: str  # "profile" or "browser"
    device: str

    def __str__(self) -> str:
        return f"{self.language}-{self.chosen_in}-{self.device}"


EIA_CASES = (
    Case("el", "profile", "desktop"),
    Case("el", "browser", "phone"),
    Case("ru", "browser", "desktop"),
    Case("ru", "profile", "phone"),
)
PB_CASES = (Case("el", "browser", "phone"),)


def eia_at_revolt_step():
    """An Empires in Arms campaign at the revolt step, where France's player gives orders,
    and its users (seat_users)."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
    )
    campaign.refresh_from_db()
    return campaign, users


def pb_at_recruitment():
    """A Pax Baltica campaign in its recruitment phase and its users, Sweden's the player."""
    campaign = make_pb_campaign()
    return campaign, seat_users(campaign, player="sweden", other="russia")


def expected_texts(campaign, language: str) -> dict[str, str]:
    """The checked elements (CSS selectors) and their text in ``language``, translated
    from the msgids of templates/base.html, campaign/detail.html and campaign/map.html."""
    spec = campaign.rules.phase(campaign.phase.key)
    timeline = reverse("campaign:timeline", args=[campaign.pk])
    rules = reverse("campaign:rules", args=[campaign.ruleset])
    with translation.override(language):
        return {
            "#orders h2": gettext("Your orders: %(phase)s") % {"phase": spec.name},
            "#map h2": gettext("Map status"),
            "#sequence h2": gettext("Now: %(turn)s") % {"turn": campaign.turn_label},
            "#sequence .here": gettext("you are here"),
            "#log h2": gettext("Campaign log"),
            f"header.site nav a[href='{timeline}']": gettext("Timeline"),
            f"header.site nav a[href='{rules}']": gettext("Rules"),
            "header.site nav form button": gettext("Log out"),
            "#orders button[value='0']": gettext("Save as draft"),
            "#orders button[value='1']": gettext("Save and mark ready"),
        }


def open_as(browser, base_url: str, user, case: Case, url: str):
    """A new browser context for ``case``, logged in as ``user`` through the login form,
    on ``url``. The language comes from the profile (browser in English) or the browser."""
    in_profile = case.chosen_in == "profile"
    Profile.objects.update_or_create(
        user=user, defaults={"language": case.language if in_profile else ""}
    )
    locale = BROWSER_LOCALES["en" if in_profile else case.language]
    context = browser.new_context(base_url=base_url, locale=locale, **DEVICES[case.device])
    page = context.new_page()
    page.goto(f"{reverse('login')}?next={url}")
    page.locator("input[name=username]").fill(user.get_username())
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(re.escape(url) + "$"))
    page.wait_for_function("() => typeof window.htmx !== 'undefined'")
    return context, page


def assert_fits_the_phone(page) -> None:
    """No sideways scrolling, the map within the width, order buttons tall enough to tap."""
    scroll_width, width = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert scroll_width <= width + 1, f"the page scrolls sideways: {scroll_width} > {width}"
    svg = page.locator("#map figure > svg")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box["x"] >= -1 and box["x"] + box["width"] <= width + 1, f"map {box} vs {width}"
    buttons = page.locator("#orders .actions button")
    expect(buttons).to_have_count(2)
    for button in buttons.all():
        expect(button).to_be_visible()
        height = button.bounding_box()["height"]
        assert height >= MIN_TAP_HEIGHT, f"{button.text_content()!r} is {height}px tall"


def untranslated(page, campaign, language: str) -> list[str]:
    """Each checked element whose text is not Django's translation, or is the English."""
    english = expected_texts(campaign, "en")
    problems = []
    for selector, wanted in expected_texts(campaign, language).items():
        shown = " ".join(page.locator(selector).first.text_content().split())
        if shown != wanted:
            problems.append(f"{selector}: shows {shown!r}, the {language} catalog has {wanted!r}")
        if shown == english[selector]:
            problems.append(f"{selector}: still in English ({shown!r})")
    return problems


def check_case(browser, base_url: str, campaign, user, case: Case, screenshot) -> None:
    url = reverse("campaign:detail", args=[campaign.pk])
    context, page = open_as(browser, base_url, user, case, url)
    try:
        page.screenshot(path=screenshot, full_page=True)
        expect(page.locator("html")).to_have_attribute("lang", case.language)
        for selector in expected_texts(campaign, "en"):
            expect(reveal(page, selector)).to_be_visible()  # on a phone, one tap away
        if case.device == "phone":
            assert_fits_the_phone(page)
        problems = untranslated(page, campaign, case.language)
        assert not problems, "\n".join(problems)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
@pytest.mark.parametrize(
    ("build", "cases"),
    [(eia_at_revolt_step, EIA_CASES), (pb_at_recruitment, PB_CASES)],
    ids=["empires_in_arms", "pax_baltica"],
)
def test_the_campaign_page_in_greek_and_russian(
    live_server, browser, artifacts, subtests, build, cases
):
    campaign, users = build()
    for case in cases:
        with subtests.test(str(case)):
            shot = artifacts / f"languages_{campaign.ruleset}_{case}.png"
            check_case(browser, live_server.url, campaign, users["player"], case, shot)
