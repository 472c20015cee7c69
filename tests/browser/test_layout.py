"""Every page reads at a glance, on a phone too (Chromium at 320, 375 and 1400 px).

For a campaign of each ruleset, in English, Greek and Russian: the campaign page of a
player and of the GM, and the GM dashboard. On each:

- nothing scrolls sideways (the document is no wider than the window);
- every target (link, button, field, summary, section tab) is at least 24 × 24 px, the
  size WCAG 2.2 asks (2.5.8). Two kinds of element are not counted, as that criterion
  allows: an area of the drawn map (each area is also a row of the area table, a target
  of full size), and a check box or radio button whose label, which also toggles it, is
  24 px or more on each side;
- no select box is wider than the element that holds it;
- on a phone, what the reader must do (the player's orders, the decision a power owes,
  the GM's open phase) and the map start within the first two screens.

Screenshots of the first two screens of each page are kept in the test artifacts, and at
375 px each section of each page in full.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from campaign.models import Profile
from tests.browser.test_accessibility import RULESETS
from tests.factories import PASSWORD

MIN_TARGET = 24
LANGUAGES = ("en", "el", "ru")


@dataclass(frozen=True)
class Device:
    name: str
    width: int
    height: int
    phone: bool

    def context_options(self) -> dict:
        options = {"viewport": {"width": self.width, "height": self.height}}
        if self.phone:
            options |= {"is_mobile": True, "has_touch": True}
        return options


DEVICES = (
    Device("phone-320", 320, 640, phone=True),
    Device("phone-375", 375, 812, phone=True),
    Device("wide-1400", 1400, 900, phone=False),
)
SHOWN_WHOLE = DEVICES[1]  # the device whose every section is kept as a full-page screenshot

# The browser's own measurements, in one call per page.
MEASURE = """([minTarget, actSelector]) => {
  const visible = (el) => {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return style.visibility !== 'hidden' && box.width > 0 && box.height > 0
      && !el.closest('[hidden], [aria-hidden="true"]');
  };
  const describe = (el) => {
    const text = (el.getAttribute('aria-label') || el.textContent || el.name || '').trim();
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${text.slice(0, 40)}"`;
  };
  const labelled = (el) => {
    const labels = [...(el.labels || [])].filter(visible);
    return labels.some((label) => {
      const box = label.getBoundingClientRect();
      return box.width >= minTarget && box.height >= minTarget;
    });
  };
  const small = [];
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  for (const el of document.querySelectorAll(selector)) {
    if (!visible(el) || el.closest('svg')) continue;
    if (['checkbox', 'radio'].includes(el.type) && labelled(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width < minTarget - 0.5 || box.height < minTarget - 0.5) {
      small.push(`${describe(el)} ${box.width.toFixed(0)}×${box.height.toFixed(0)}`);
    }
  }
  const wideSelects = [];
  for (const select of document.querySelectorAll('select')) {
    if (!visible(select)) continue;
    const holder = select.parentElement;
    const style = getComputedStyle(holder);
    const inner = holder.getBoundingClientRect().right - parseFloat(style.paddingRight)
      - parseFloat(style.borderRightWidth);
    const right = select.getBoundingClientRect().right;
    const out = (right - inner).toFixed(0);
    if (right > inner + 1) wideSelects.push(`${describe(select)} ends ${out} px out`);
  }
  const top = (selector) => {
    const el = [...document.querySelectorAll(selector)].find(visible);
    return el ? el.getBoundingClientRect().top + window.scrollY : null;
  };
  return {
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    height: window.innerHeight,
    small, wideSelects,
    act: top(actSelector),
    map: top('#map'),
  };
}"""


# Open every collapsed part, and answer once each of those that load their content when
# opened (data-hx-trigger "toggle once": the GM's edit panels, the map's table) has it.
OPEN_EVERY_PART = """() => new Promise((done) => {
  const closed = [...document.querySelectorAll('details')].filter((d) => !d.open);
  const lazy = closed.filter((d) => d.dataset.hxTrigger === 'toggle once');
  let waiting = lazy.length;
  lazy.forEach((d) => d.addEventListener('htmx:afterSettle', () => {
    if (--waiting === 0) done();
  }, {once: true}));
  closed.forEach((d) => { d.open = true; });
  if (!waiting) done();
})"""


def log_in(browser, base_url: str, user, device: Device):
    """A browser context on ``device`` signed in as ``user`` (language from the browser's
    Accept-Language: the profile names none)."""
    Profile.objects.update_or_create(user=user, defaults={"language": ""})
    context = browser.new_context(base_url=base_url, **device.context_options())
    page = context.new_page()
    page.goto(reverse("login"))
    page.locator("input[name=username]").fill(user.get_username())
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    return context, page


def problems_on(page, device: Device, act: str, shot: Path) -> list[str]:
    """What the page breaks of the rules in this module's docstring; ``act`` selects what
    the reader must do. The page as it opens, then each of its sections (on a phone) with
    every collapsed part opened and loaded (the GM's edit panels, the map's table)."""
    seen = page.evaluate(MEASURE, [MIN_TARGET, act])
    problems = sized_wrong(seen, "")
    for number, section in enumerate(sections_opened(page)):
        problems += sized_wrong(page.evaluate(MEASURE, [MIN_TARGET, act]), f"[{section}] ")
        if device == SHOWN_WHOLE:  # one width's sections in full: enough to look at
            page.screenshot(path=shot.with_stem(f"{shot.stem}_section-{number}"), full_page=True)
    if device.phone:
        two_screens = 2 * seen["height"]
        for part in ("act", "map"):
            if seen[part] is None:
                problems.append(f"no {part} part on the page")
            elif seen[part] > two_screens:
                problems.append(f"the {part} part starts at {seen[part]:.0f} px, past two screens")
    return problems


def sized_wrong(seen: dict, where: str) -> list[str]:
    """Sideways scrolling, small targets and select boxes wider than their holder."""
    problems = []
    if seen["scrollWidth"] > seen["width"] + 1:
        problems.append(f"{where}scrolls sideways: {seen['scrollWidth']} px in {seen['width']}")
    problems += [f"{where}target under {MIN_TARGET} px: {small}" for small in seen["small"]]
    problems += [f"{where}select wider than its box: {wide}" for wide in seen["wideSelects"]]
    return problems


def sections_opened(page):
    """Show each section of the page in turn (all at once on a wide screen, where the
    tabs are hidden), its collapsed parts opened and their content loaded; yields each."""
    tabs = page.locator(".section-tabs label")
    names = [tab.text_content() for tab in tabs.all() if tab.is_visible()] or ["all"]
    for number, name in enumerate(names):
        if name != "all":
            tabs.nth(number).click()
        page.evaluate(OPEN_EVERY_PART)
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        yield name


def pages_of(campaign, users) -> list[tuple[str, object, str, str]]:
    """Each page checked: its name, its reader, its address, and what the reader must do
    there (the player's orders; who owes orders, for the GM on the campaign page; the
    open phase on the dashboard; a decision owed comes first on each)."""
    detail = reverse("campaign:detail", args=[campaign.pk])
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    return [
        ("player", users["player"], detail, "#decision, #orders"),
        ("gm", users["gm"], detail, "#decision, #submissions"),
        ("gm-dashboard", users["gm"], dashboard, "#decision, #phase"),
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
@pytest.mark.parametrize("ruleset", RULESETS)
def test_pages_read_at_a_glance(live_server, browser, artifacts, subtests, ruleset):
    campaign, users = RULESETS[ruleset]()
    for device in DEVICES:
        contexts = {}
        try:
            for name, user, url, act in pages_of(campaign, users):
                if user.pk not in contexts:
                    contexts[user.pk] = log_in(browser, live_server.url, user, device)
                context, page = contexts[user.pk]
                for language in LANGUAGES:
                    with subtests.test(f"{name} {device.name} {language}"):
                        context.set_extra_http_headers({"Accept-Language": language})
                        page.goto(url)
                        expect(page.locator("html")).to_have_attribute("lang", language)
                        page.wait_for_function("() => !document.querySelector('.htmx-request')")
                        shot = artifacts / f"layout_{ruleset}_{name}_{device.name}_{language}.png"
                        clip = {"x": 0, "y": 0, "width": device.width, "height": 2 * device.height}
                        page.screenshot(path=shot, clip=clip, full_page=True)
                        problems = problems_on(page, device, act, shot)
                        assert not problems, "\n".join(problems)
        finally:
            for context, _page in contexts.values():
                context.close()


def other_pages(campaign, users) -> list[tuple[str, object, str]]:
    """The pages around a campaign, each with its reader and its address."""
    done = campaign.phases.exclude(pk=campaign.phase_id).order_by("pk").first()
    at = {"campaign_id": campaign.pk}
    return [
        ("home", users["player"], reverse("campaign:list")),
        ("lobby", users["player"], reverse("campaign:lobby")),
        ("preferences", users["player"], reverse("campaign:preferences")),
        ("press", users["player"], reverse("campaign:press", kwargs=at)),
        ("timeline", users["player"], reverse("campaign:timeline", kwargs=at)),
        ("notes", users["player"], reverse("campaign:notes", kwargs=at)),
        ("mail", users["player"], reverse("campaign:mail_settings", kwargs=at)),
        (
            "history",
            users["player"],
            reverse("campaign:history", kwargs={**at, "phase_id": done.pk}),
        ),
        ("rules", users["player"], reverse("campaign:rules", args=[campaign.ruleset])),
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_the_other_pages_fit_a_phone(live_server, browser, artifacts, subtests):
    """The pages around an Empires in Arms campaign at 320 px, in English and Russian (the
    longer words): no sideways scrolling, no small target, no select wider than its box."""
    campaign, users = RULESETS["empires_in_arms"]()
    device = DEVICES[0]
    context, page = log_in(browser, live_server.url, users["player"], device)
    try:
        for name, _user, url in other_pages(campaign, users):
            for language in ("en", "ru"):
                with subtests.test(f"{name} {language}"):
                    context.set_extra_http_headers({"Accept-Language": language})
                    page.goto(url)
                    page.wait_for_function("() => !document.querySelector('.htmx-request')")
                    shot = artifacts / f"layout_page_{name}_{device.name}_{language}.png"
                    page.screenshot(path=shot, full_page=False)
                    problems = []
                    for _section in sections_opened(page):
                        problems += sized_wrong(page.evaluate(MEASURE, [MIN_TARGET, "main"]), "")
                    assert not problems, "\n".join(problems)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_a_phone_keeps_its_section_when_htmx_swaps_the_page(live_server, browser):
    """The section a reader chose stays chosen when the campaign page is swapped whole (as
    when the phase moves on) and when a part of it is swapped."""
    campaign, users = RULESETS["empires_in_arms"]()
    context, page = log_in(browser, live_server.url, users["player"], DEVICES[1])
    try:
        page.goto(reverse("campaign:detail", args=[campaign.pk]))
        page.locator("label[for=show-log]").click()
        expect(page.locator("#log")).to_be_visible()
        page.evaluate(
            """() => htmx.ajax('GET', location.pathname,
                 {target: '#campaign-page', select: '#campaign-page', swap: 'outerHTML'})"""
        )
        page.wait_for_load_state("networkidle")
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        expect(page.locator("#show-log")).to_be_checked()
        expect(page.locator("#log")).to_be_visible()
        expect(page.locator("#map")).to_be_hidden()
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
def test_a_link_to_a_part_of_another_section_shows_it(live_server, browser):
    """On a phone, an address that names a part of a section the tabs hide (a redirect
    to the dashboard's #seats, "Edit it first" to an edit panel) shows that part."""
    campaign, users = RULESETS["empires_in_arms"]()
    context, page = log_in(browser, live_server.url, users["gm"], DEVICES[1])
    try:
        dashboard = reverse("campaign:gm", args=[campaign.pk])
        page.goto(dashboard)
        expect(page.locator("#seats")).to_be_hidden()
        for part in ("seats", "schedule", "edits"):
            page.goto(f"{dashboard}#{part}")
            expect(page.locator(f"#{part}")).to_be_visible()
    finally:
        context.close()
