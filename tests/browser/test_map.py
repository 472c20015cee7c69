"""The drawn map in a real browser (Chromium), for a campaign of each shipped scenario.

At the first view on a desktop (1400 px) no two names overlap, every name is at least 11
px and every counter at least 16 px, every name keeps a contrast of 4.5:1 or more
against the area it is written on, and axe finds no serious or critical violation.
Zooming in makes the names larger; the screenshots (1400 and 375 px, before and after
zooming) are kept in artifacts/browser/ for a person to look at."""

from __future__ import annotations

import contextlib

import pytest
from django.urls import reverse
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from campaign.play.scenarios import create_campaign
from tests.browser.conftest import CHROMIUM_ARGS  # noqa: F401  (the browser fixture's flags)
from tests.browser.test_accessibility import blocking_violations
from tests.factories import PASSWORD, seat_users

SCENARIOS = {
    "eia-1805": ("france", "great_britain"),
    "pax-baltica-1700": ("sweden", "russia"),
    "virgin-queen-1559": ("france", "spain"),
}
WIDTHS = (1400, 375)

# What the page measures: each name's box, its size in px and the colours of its text and
# of what lies under its middle; each counter's box.
MEASURE = """() => {
  const svg = document.querySelector('#map-svg');
  const scale = svg.getScreenCTM().a;
  const rgb = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const under = (x, y) => document.elementsFromPoint(x, y).find(
    (e) => e.matches('path.shape, path.land, rect.sea'));
  const labels = [...svg.querySelectorAll('.labels text')].map((text) => {
    const box = text.getBoundingClientRect();
    const ground = under(box.x + box.width / 2, box.y + box.height / 2);
    return {
      key: text.dataset.key, box: [box.left, box.top, box.right, box.bottom],
      px: Number(text.getAttribute('font-size')) * scale,
      ink: rgb(getComputedStyle(text).fill),
      ground: ground ? rgb(getComputedStyle(ground).fill) : null,
      seen: box.right > 0 && box.left < innerWidth,
    };
  });
  const counters = [...svg.querySelectorAll('.counters .badge')].map((badge) => {
    const box = badge.getBoundingClientRect();
    return [box.width, box.height];
  });
  return {labels, counters, scale};
}"""


def luminance(rgb: list[float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(v) for v in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(a: list[float], b: list[float]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def overlaps(a: list[float], b: list[float]) -> bool:
    slack = 0.5  # px: boxes that only touch
    return (
        a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack
    )


def open_map(browser, base_url: str, user, width: int):
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    page.goto("/")
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return context, page, problems


def settle(page) -> None:
    """The map's first view is set once its zoom and pan have run, each in an animation
    frame asked for before the three this waits for."""
    page.wait_for_function("() => document.querySelector('#map-svg')?.dataset.zoomable")
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() =>"
        " requestAnimationFrame(() => requestAnimationFrame(done))))"
    )


def scale_once_past(page, scale: float) -> float:
    """The map's scale once it has passed `scale`, or after five seconds: Panzoom animates
    each step, and a busy machine may take seconds over it."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "(scale) => document.querySelector('#map-svg').getScreenCTM().a > scale",
            arg=scale,
            timeout=5_000,
        )
    return page.evaluate(MEASURE)["scale"]


def check_first_view(page, who: str) -> None:
    found = page.evaluate(MEASURE)
    labels = [label for label in found["labels"] if label["seen"]]
    assert labels, who
    small = [f"{label['key']}: {label['px']:.1f} px" for label in labels if label["px"] < 11]
    assert not small, f"{who}: names under 11 px: {small}"
    clashes = [
        (a["key"], b["key"])
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
        if overlaps(a["box"], b["box"])
    ]
    assert not clashes, f"{who}: names that overlap: {clashes}"
    faint = [
        f"{label['key']}: {contrast(label['ink'], label['ground']):.2f}"
        for label in labels
        if label["ground"] and contrast(label["ink"], label["ground"]) < 4.5
    ]
    assert not faint, f"{who}: names under 4.5:1 against their ground: {faint}"
    tiny = [size for size in found["counters"] if min(size) < 16]
    assert not tiny, f"{who}: counters under 16 px: {tiny}"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_drawn_map_reads_at_its_first_view_and_zooms(
    live_server, browser, artifacts, subtests, django_user_model, scenario
):
    player, other = SCENARIOS[scenario]
    gm = django_user_model.objects.create_user(f"gm-{scenario}", password=PASSWORD)
    campaign = create_campaign(scenario_key=scenario, name=f"Map {scenario}", gm=gm)
    users = seat_users(campaign, player=player, other=other)
    detail = reverse("campaign:detail", args=[campaign.pk])
    for role in ("gm", "player"):
        for width in WIDTHS:
            with subtests.test(f"{role} at {width} px"):
                context, page, problems = open_map(browser, live_server.url, users[role], width)
                try:
                    page.goto(detail)
                    settle(page)
                    if width == 1400:
                        check_first_view(page, f"{scenario} {role}")
                        assert not blocking_violations(page), f"{scenario} {role}"
                    shot = artifacts / f"map_{scenario}_{role}_{width}"
                    page.locator("#map").screenshot(path=f"{shot}_first.png")
                    before = page.evaluate(MEASURE)["scale"]
                    page.get_by_role("button", name="Zoom in").click()
                    page.get_by_role("button", name="Zoom in").click()
                    assert scale_once_past(page, before * 1.5) > before * 1.5
                    page.locator("#map").screenshot(path=f"{shot}_zoomed.png")
                    assert not problems, problems
                finally:
                    context.close()
