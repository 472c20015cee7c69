"""Each ruleset's order forms and decision prompts in Greek and Russian, on a desktop and a
375-px phone, in a real browser (Chromium), saved as screenshots under
artifacts/browser/languages/ for a person to look at: the full page, and the section
alone (``…_orders.png``, ``…_decision.png``), which a full phone page shrinks past reading.

A player opens their campaign page in each phase of a turn where their power gives orders
(Empires in Arms: France from peace to economic; Pax Baltica: Sweden from recruitment to
forage; Virgin Queen: Spain's impulse) and when a decision waits for them (Virgin Queen:
the spaces a conversion flips). The section's heading, the decision's prompt and every
field's label must be Django's translation of the English, and differ from it; on the
phone the page must not scroll sideways.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from campaign.models import Seat
from campaign.views.context import load_state
from tests.browser.test_languages import Case, open_as
from tests.factories import make_pb_campaign, make_vq_campaign, seat_users
from tests.services.test_eia_phase_services import quarter_campaign, resolve
from tests.views.test_vq_views import start_spain_conversion, to_phase

CASES = tuple(
    Case(language, "browser", device)
    for language in ("el", "ru")
    for device in ("desktop", "phone")
)


@dataclass(frozen=True)
class Screen:
    """A section of the player's campaign page to look at: ``#orders`` or ``#decision``."""

    name: str
    section: str


def expected_texts(seat: Seat, section: str, language: str) -> list[str]:
    """The section's heading, prompt and field labels as the ``language`` catalog has them
    (the forms the page shows, built in that language)."""
    with translation.override(language):
        state = load_state(seat)
        if section == "#decision":
            form = state.decision_form()
            texts = [gettext("Your decision"), form.text]
        else:
            form = state.order_form()
            texts = [gettext("Your orders: %(phase)s") % {"phase": state.spec.name}]
        return [" ".join(str(t).split()) for t in [*texts, *(f.label for f in form)]]


def untranslated(page, seat: Seat, section: str, language: str) -> list[str]:
    """Each expected text the section does not show, or that is still the English."""
    shown = " ".join(page.locator(section).text_content().split())
    english = expected_texts(seat, section, "en")
    problems = []
    for wanted, msgid in zip(expected_texts(seat, section, language), english, strict=True):
        if wanted not in shown:
            problems.append(f"{section} does not show the {language} text {wanted!r}")
        if wanted == msgid:
            problems.append(f"{section}: {msgid!r} is not translated into {language}")
    return problems


def look_at(pages: dict[Case, object], seat: Seat, campaign, screen: Screen, artifacts) -> None:
    """Open the campaign page in every case, save its screenshot and check it."""
    url = reverse("campaign:detail", args=[campaign.pk])
    seat.campaign.refresh_from_db()
    for case, page in pages.items():
        page.goto(url)
        expect(page.locator(screen.section)).to_be_visible()
        expect(page.locator("#map figure > svg")).to_be_visible()
        shot = artifacts / f"{campaign.ruleset}_{screen.name}_{case.language}_{case.device}.png"
        page.screenshot(path=shot, full_page=True)
        page.locator(screen.section).screenshot(
            path=shot.with_stem(f"{shot.stem}_{screen.section[1:]}")
        )
        expect(page.locator("html")).to_have_attribute("lang", case.language)
        problems = untranslated(page, seat, screen.section, case.language)
        assert not problems, f"{shot.name}:\n" + "\n".join(problems)
        if case.device == "phone":
            scroll, width = page.evaluate(
                "() => [document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert scroll <= width + 1, f"{shot.name}: the page scrolls sideways ({scroll}px)"


def order_forms(campaign, seat: Seat, users, monkeypatch) -> Iterator[Screen]:
    """Each phase of the campaign's first turn in which ``seat`` gives orders, open when
    yielded (phases resolve with seeded dice and no orders)."""
    turn = campaign.turn
    while campaign.turn == turn:
        seat.campaign.refresh_from_db()
        if load_state(seat).order_form() is not None:
            yield Screen(campaign.phase.key, "#orders")
        resolve(campaign)
        campaign.refresh_from_db()


def vq_order_form_and_decision(campaign, seat: Seat, users, monkeypatch) -> Iterator[Screen]:
    """Spain's impulse order form, then the spaces its conversion in France flips."""
    to_phase(campaign, "impulse_spain")
    yield Screen("impulse_spain", "#orders")
    start_spain_conversion(campaign, client_as(users), monkeypatch)
    yield Screen("conversion_decision", "#decision")


def client_as(users) -> Callable[[str], Client]:
    """A logged-in client by role: "spain" (the player), "gm"."""
    by_role = {"spain": users["player"], "gm": users["gm"]}

    def make(role: str) -> Client:
        client = Client()
        client.force_login(by_role[role])
        return client

    return make


def player_seat(campaign, power_key: str) -> Seat:
    return campaign.seats.select_related("campaign", "power", "user").get(power__key=power_key)


RULESETS = {  # how to build the campaign, the player's power, another player's, the screens
    "empires_in_arms": (quarter_campaign, "france", "great_britain", order_forms),
    "pax_baltica": (make_pb_campaign, "sweden", "russia", order_forms),
    "virgin_queen": (
        lambda: make_vq_campaign(auto_resolve=False),
        "spain",
        "protestant",
        vq_order_form_and_decision,
    ),
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
@pytest.mark.parametrize("ruleset", RULESETS)
def test_order_forms_and_decisions_in_greek_and_russian(
    live_server, browser, artifacts, monkeypatch, ruleset
):
    build, player, other, screens = RULESETS[ruleset]
    campaign = build()
    users = seat_users(campaign, player, other)
    seat = player_seat(campaign, player)
    folder = artifacts / "languages"
    folder.mkdir(exist_ok=True)
    start = reverse("campaign:list")
    opened = [open_as(browser, live_server.url, users["player"], case, start) for case in CASES]
    pages = {case: page for case, (_, page) in zip(CASES, opened, strict=True)}
    seen = []
    try:
        for screen in screens(campaign, seat, users, monkeypatch):
            look_at(pages, seat, campaign, screen, folder)
            seen.append(screen.name)
    finally:
        for context, _ in opened:
            context.close()
    assert seen, "the player was never given an order form"
