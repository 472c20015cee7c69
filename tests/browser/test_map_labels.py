"""The drawn map keeps its names readable under the marks drawn on it, in a real browser.

For a campaign of each shipped scenario, read in English, Greek and Russian at 1400 and
375 px, with orders of every power drawn on it (arrows: the moves each power's pieces
may make, and Empires in Arms incitements; rings: Virgin Queen conversions and revolts,
Pax Baltica sieges), the page's SVG is measured and these rules hold:

- **No label is covered.** A label is the box of a name's text (its
  getBoundingClientRect, shrunk by SLACK px on each side so that boxes that only touch
  do not count) where it shows in the map's frame. A *mark* is an order's arrow or ring
  (the geometry of its casing, sampled every SAMPLE px along its outline, each sample
  widened by half the casing's stroke as the screen shows it, zoom included; an
  arrowhead as a disc of HEAD px at the arrow's end) or a counter (its box). A label is
  *covered* by a mark that overlaps its box and is painted above it (after it in the
  SVG), or painted under it while the label has no halo (a light stroke of 2 px or more
  painted before its fill: ``paint-order: stroke``), and by a map control (zoom buttons)
  whose box overlaps the part of its box that the map's frame shows: controls are HTML,
  drawn over the SVG.
- **Arrows do not cross names.** No sample of an arrow (casing or head) lies in a
  label's box, its own area's included: an arrow starts and ends beside the names and
  bends round the names on its way. Where the names leave no way (the page draws the
  arrow with the class "crowded", straight, under the names' halo) it may cross them,
  but no more than MOST_CROWDED of the arrows may be crowded.
- **Rings do not cross their names.** No sample of a ring lies in the box of the name
  of the area it marks (it goes round it).
- **Counters stay in their area; a name led away sits on no other area's land.** The
  middle of each area's first row of counters (where the page centres it) is inside the
  area's own shape (isPointInFill), even when its name is drawn away from it: the
  counters never follow the name onto another area. The centre of each name is inside
  its own area's shape, or, for a name drawn away from its area with a leader line, at
  sea (off the land: for a land area the sea beside it, for a sea zone its own ground),
  never on another area's land. (A long row, three or four counters, may still reach
  past a small area's border: not checked.)
- **Edge areas are cut by the map's frame, not by a disc.** No area's outline has an arc
  of a circle: ARC consecutive vertices on one circle of ARC_RADIUS units or more (within
  ARC_TOLERANCE units), ARC_CHORD units or more from the first to the last and as far
  apart as the sides of a 64-sided polygon (within 15 %), which is how a cell held within
  a disc round its point ended (campaign/maps/cells.py); a coastline or a border between
  two areas is no such arc.

The counts of covered labels are printed (``-s``) for each case. Screenshots of the Greek
map at both widths are kept in artifacts/browser/ for a person to look at.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.models import Area, Order, Phase
from campaign.play.scenarios import create_campaign
from rules.engine import registry
from rules.gm_orders import KEY as GM_ORDERS_KEY
from rules.gm_orders import MOVE
from tests.browser.test_map import settle
from tests.factories import PASSWORD, seat_users

SCENARIOS = ("eia-1805", "pax-baltica-1700", "virgin-queen-1559")
LANGUAGES = {"en": "en-US", "el": "el-GR", "ru": "ru-RU"}
WIDTHS = (1400, 375)
MOVES_A_POWER = 6  # GM move lines drawn as arrows for each power
SIEGES_A_NATION = 5
INCITED_A_POWER = 4  # Empires in Arms minors each power incites (arrows from its areas)
SHOWN = 12  # problems an assertion names
MOST_CROWDED = 0.1  # the share of arrows that may find no way round the names

# What the page measures (see the module's docstring for the rules).
MEASURE = """() => {
  const SLACK = 1, SAMPLE = 2, HEAD = 7;
  const ARC = 8, ARC_RADIUS = 25, ARC_CHORD = 15, ARC_TOLERANCE = 0.3;
  const svg = document.querySelector('#map-svg');
  const frame = svg.closest('.map-frame').getBoundingClientRect();
  const zoom = svg.getBoundingClientRect().width / svg.clientWidth;  // Panzoom's scale
  const all = [...svg.querySelectorAll('*')];
  const order = new Map(all.map((element, index) => [element, index]));
  const rect = (r) => [r.left, r.top, r.right, r.bottom];
  const screen = (element, x, y) => {
    const p = new DOMPoint(x, y).matrixTransform(element.getScreenCTM());
    return [p.x, p.y];
  };
  const haloed = (text) => {
    const style = getComputedStyle(text);
    const light = (style.stroke.match(/[\\d.]+/g) || [0, 0, 0]).slice(0, 3).every((v) => v > 200);
    return style.paintOrder.startsWith('stroke') && parseFloat(style.strokeWidth) >= 2 && light;
  };
  const inFrame = (b) =>
    b[0] < frame.right && b[2] > frame.left && b[1] < frame.bottom && b[3] > frame.top;
  const labels = [...svg.querySelectorAll('.labels text')].map((text) => {
    const b = rect(text.getBoundingClientRect());
    return {
      key: text.dataset.key, text: text.textContent, index: order.get(text), halo: haloed(text),
      box: [b[0] + SLACK, b[1] + SLACK, b[2] - SLACK, b[3] - SLACK], seen: inFrame(b),
      centre: [Number(text.getAttribute('x')), Number(text.getAttribute('y'))],
      away: !!text.previousElementSibling?.matches('line.leader') &&
        text.previousElementSibling.dataset.key === text.dataset.key,
    };
  });
  const samples = (shape) => {
    const length = shape.getTotalLength();
    const step = SAMPLE / svg.getScreenCTM().a;
    const points = [];
    for (let at = 0; at <= length; at += step) {
      const p = shape.getPointAtLength(at);
      points.push(screen(shape, p.x, p.y));
    }
    return points;
  };
  const marks = [...svg.querySelectorAll('.orders .order')].map((mark) => {
    const casing = mark.querySelector('.casing');
    const half = (parseFloat(getComputedStyle(casing).strokeWidth) * zoom) / 2;
    const arrow = mark.querySelector('[marker-end]') !== null;
    const points = samples(casing).map((p) => [...p, half]);
    if (arrow) points.push([...points[points.length - 1].slice(0, 2), HEAD]);
    return {kind: arrow ? 'arrow' : 'ring', index: order.get(casing), points, key: mark.dataset.key,
            crowded: mark.classList.contains('crowded'),
            title: mark.querySelector('title').textContent};
  });
  const rows = [...svg.querySelectorAll('.counters > g')].map((group) => {
    const [x, y] = group.getAttribute('transform').match(/-?[\\d.]+/g).map(Number);
    return {key: group.dataset.key, centre: [x, y]};
  });
  const counters = [...svg.querySelectorAll('.counters > g')].flatMap((group) =>
    [...group.children].map((counter) => {
      const b = counter.getBoundingClientRect();
      return {key: group.dataset.key, index: order.get(counter), box: rect(b)};
    }));
  const controls = [...document.querySelectorAll('#map .map-tools button')].map(
    (button) => ({name: button.textContent.trim(), box: rect(button.getBoundingClientRect())}));
  const inside = (key, x, y) =>
    svg.querySelector(`#map-${key} path.shape`).isPointInFill(new DOMPoint(x, y));
  const onLand = (x, y) => svg.querySelector('path.land').isPointInFill(new DOMPoint(x, y));
  const named = (key, [x, y], away) => inside(key, x, y) || (away && !onLand(x, y));
  const misplaced = [
    ...labels.filter((l) => !named(l.key, l.centre, l.away)).map((l) => `name ${l.key}`),
    ...rows.filter((r) => !inside(r.key, ...r.centre)).map((r) => `counters of ${r.key}`),
  ];
  const rings = (d) => d.split('M').filter(Boolean).map((ring) => {
    const numbers = ring.match(/-?[\\d.]+/g).map(Number);
    const points = [];
    for (let i = 0; i + 1 < numbers.length; i += 2) points.push([numbers[i], numbers[i + 1]]);
    return points;
  });
  const circle = ([ax, ay], [bx, by], [cx, cy]) => {
    const d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
    if (Math.abs(d) < 1e-9) return null;
    const a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
    const x = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
    const y = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
    return [x, y, Math.hypot(ax - x, ay - y)];
  };
  const arc = (points) => points.some((_, start) => {
    const run = Array.from({length: ARC}, (_, k) => points[(start + k) % points.length]);
    const c = circle(run[0], run[Math.floor(ARC / 2)], run[ARC - 1]);
    const chord = Math.hypot(run[ARC - 1][0] - run[0][0], run[ARC - 1][1] - run[0][1]);
    const step = 2 * (c ? c[2] : 0) * Math.sin(Math.PI / 64);  // a disc's 64 sides
    const even = run.slice(1).every(([x, y], k) =>
      Math.abs(Math.hypot(x - run[k][0], y - run[k][1]) - step) <= 0.15 * step);
    return c && c[2] >= ARC_RADIUS && chord >= ARC_CHORD && even &&
      run.every(([x, y]) => Math.abs(Math.hypot(x - c[0], y - c[1]) - c[2]) <= ARC_TOLERANCE);
  });
  const discs = [...svg.querySelectorAll('g.area path.shape')]
    .filter((shape) => rings(shape.getAttribute('d')).some(
      (ring) => ring.length >= ARC && arc(ring)))
    .map((shape) => shape.closest('g.area').dataset.key);
  return {labels, marks, counters, controls, misplaced, discs, frame: rect(frame)};
}"""


def hits(points: list[list[float]], box: list[float]) -> bool:
    """Whether a sample (x, y, half its stroke's width) reaches into the box."""
    return any(box[0] - r < x < box[2] + r and box[1] - r < y < box[3] + r for x, y, r in points)


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def clipped(box: list[float], frame: list[float]) -> list[float]:
    """The part of a box the map's frame shows (it hides what lies outside it)."""
    return [
        max(box[0], frame[0]),
        max(box[1], frame[1]),
        min(box[2], frame[2]),
        min(box[3], frame[3]),
    ]


def covered(found: dict) -> list[str]:
    """The labels a mark or a control covers (the module's first rule)."""
    problems = []
    for label in (label for label in found["labels"] if label["seen"]):
        box = label["box"]
        for mark in found["marks"]:
            if (mark["index"] > label["index"] or not label["halo"]) and hits(mark["points"], box):
                problems.append(f"{label['key']} under {mark['kind']} “{mark['title']}”")
        for counter in found["counters"]:
            above = counter["index"] > label["index"] or not label["halo"]
            if above and overlaps(counter["box"], box):
                problems.append(f"{label['key']} under a counter of {counter['key']}")
        shown = clipped(box, found["frame"])
        problems += [
            f"{label['key']} under the {control['name']} button"
            for control in found["controls"]
            if overlaps(control["box"], shown)
        ]
    return problems


def crossed(found: dict, kind: str) -> list[str]:
    """The names a mark of ``kind`` runs through, whatever is painted above: for a ring,
    the name of the area it marks; for an arrow, any name, unless the page found no way
    round them (class "crowded")."""
    return [
        f"{label['key']} ({label['text']}) crossed by “{mark['title']}”"
        for mark in found["marks"]
        if mark["kind"] == kind and not mark["crowded"]
        for label in found["labels"]
        if label["seen"]
        and (kind == "arrow" or label["key"] == mark["key"])
        and hits(mark["points"], label["box"])
    ]


def crowded(found: dict) -> list[str]:
    """The arrows that found no way round the names, if more than MOST_CROWDED of all."""
    arrows = [mark for mark in found["marks"] if mark["kind"] == "arrow"]
    found = [f"“{mark['title']}”" for mark in arrows if mark["crowded"]]
    return found if len(found) > MOST_CROWDED * len(arrows) else []


def with_orders(campaign) -> int:
    """Orders for every power in the campaign's open phase that draw arrows and rings on
    the map; how many marks they make at most."""
    ruleset = registry()[campaign.ruleset]
    world = ruleset.load_world(campaign)
    phase = Phase.objects.get(pk=campaign.phase_id)
    module = ruleset.gm_orders.module
    count = 0
    for power in campaign.powers.all():
        pieces = module.pieces(world, power.key) if module else []
        lines = [
            {"kind": MOVE, "piece": piece.id, "area": piece.reach[0]}
            for piece in pieces
            if piece.reach
        ][:MOVES_A_POWER]
        payload = {
            GM_ORDERS_KEY: {"lines": lines, "note": ""},
            **own_orders(campaign, power, world),
        }
        Order.objects.create(campaign=campaign, phase=phase, power=power, payload=payload)
        count += len(lines)
    return count


def incited(world, power: str) -> list[str]:
    """Empires in Arms: the first INCITED_A_POWER minors next to the power's areas, the
    revolts a power incites (EIA-1), drawn as arrows from its areas."""
    own = {key for key, area in world.areas.items() if area.controller == power}
    near = {other for key in own for other in world.adjacency.get(key, ())} - own
    minors = sorted(key for key in near if world.areas[key].kind == "minor")
    return minors[:INCITED_A_POWER]


def own_orders(campaign, power, world) -> dict:
    """The ruleset's own orders of ``power`` that the map draws."""
    areas = Area.objects.filter(campaign=campaign)
    if campaign.ruleset == "empires_in_arms":
        return {"targets": incited(world, power.key)}
    if campaign.ruleset == "virgin_queen":
        if power.key == "protestant":
            return {"action": "revolt", "target": "la_rochelle", "cp": 2}
        zones = ("england", "france", "germany", "netherlands")
        return {"action": "conversion", "zones": list(zones), "attempts": 2}
    blocks = power.blocks.exclude(location=None).order_by("pk")
    if not blocks:
        return {}
    keys = areas.exclude(kind="sea").order_by("key").values_list("key", flat=True)
    start = list(campaign.powers.order_by("pk")).index(power) * SIEGES_A_NATION
    places = keys[start : start + SIEGES_A_NATION]
    return {"sieges": [{"territory": key, "blocks": [blocks[0].pk]} for key in places]}


def open_as(browser, base_url: str, user, width: int, language: str):
    context = browser.new_context(
        base_url=base_url, viewport={"width": width, "height": 900}, locale=LANGUAGES[language]
    )
    page = context.new_page()
    page.goto("/")
    page.locator("input[name=username]").fill(user.get_username())
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("form button[type=submit]").first.click()
    page.wait_for_load_state()
    return context, page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_marks_leave_the_names_readable(
    live_server, browser, artifacts, subtests, django_user_model, scenario
):
    gm = django_user_model.objects.create_user(f"gm-{scenario}", password=PASSWORD)
    campaign = create_campaign(scenario_key=scenario, name=f"Labels {scenario}", gm=gm)
    users = seat_users(campaign, *{
        "eia-1805": ("france", "great_britain"),
        "pax-baltica-1700": ("sweden", "russia"),
        "virgin-queen-1559": ("france", "spain"),
    }[scenario])  # fmt: skip
    assert with_orders(campaign) > 0
    detail = reverse("campaign:detail", args=[campaign.pk])
    for language in LANGUAGES:
        for width in WIDTHS:
            who = f"{scenario} {language} {width} px"
            with subtests.test(who):
                context, page = open_as(browser, live_server.url, users["gm"], width, language)
                try:
                    page.goto(detail)
                    settle(page)
                    if language == "el":
                        shot = artifacts / f"map_labels_{scenario}_{language}_{width}.png"
                        page.locator("#map").screenshot(path=shot)
                    found = page.evaluate(MEASURE)
                    assert any(m["kind"] == "arrow" for m in found["marks"]), who
                    problems = {
                        "covered": covered(found),
                        "crossed by arrows": crossed(found, "arrow"),
                        "crossed by rings": crossed(found, "ring"),
                        "crowded arrows": crowded(found),
                        "out of their area": found["misplaced"],
                        "cut by a disc": found["discs"],
                    }
                    names = {problem.split()[0] for problem in problems["covered"]}
                    print(
                        f"{who}: {len(names)} of {len(found['labels'])} names covered; "
                        + ", ".join(f"{len(v)} {k}" for k, v in problems.items())
                    )
                    failed = {k: v[:SHOWN] for k, v in problems.items() if v}
                    assert not failed, f"{who}: {failed}"
                finally:
                    context.close()
