"""Placing the areas' labels and their counters so that no two overlap, once, when the
map is built.

A label's box is estimated from its text: its characters' widths in a wide bold face
(CHAR_WIDTHS) × size, + 4 units wide, and 1.25 × size high, centred on (x, y). An area's
counters get a box of their own (BADGE: one counter and some air; a longer row is drawn
under the names' halo), in the area: just below its label when that is free and in the
area, else at the free spot in the area nearest its anchor (the pole of inaccessibility
of its shape), so that they never follow a label led away. Every box stays in the frame,
and no box overlaps another.

First every area, the smallest first, holds the free spot in it nearest its anchor for
its counters (a box wholly in the area, unless that is PARTLY farther than one with only
its middle in it). Then the labels are placed greedily, one at a time, the most
constrained first: the areas whose anchors have the most other anchors close by have the
fewest free places near their own, so they choose while there is room, and the areas
with space around them adapt; an inland area, far from the sea a label led away would
need (INLAND), counts as more crowded. Each label takes the
free place of least cost, trying rings of places at growing distances around its anchor,
the full name and then the abbreviation at each (at equal cost the full name wins; the
shorter abbreviation wins when it fits nearer). The cost of a place is its distance from
the anchor, plus SPLIT if its counters cannot go just below it, plus AWAY and LENGTH per
unit of its leader line if its centre is outside the area (it then gets a leader line
from the anchor to the box's nearest edge; its middle and both ends must then be on the
area's ground: at sea or in the area for a land area, at sea for a sea zone, never on
another area's land, where some such place is), plus CROSSING for every other label or
leader line its own would cross, and COVERING for every other area's anchor it would
hide. Nothing is random: the same areas give the same labels.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from campaign.maps.routes import crosses

SIZE = 14  # units: 11.2 px at 0.8 px per unit, the smallest readable size
PADDING, LINE_HEIGHT = 4, 1.25  # of the box: units around the text; × size
# Each character's advance, × size, in a wide bold face (data/char-widths.json); for a
# character not listed, OTHER_WIDTH.
WIDTHS_FILE = Path(__file__).parent / "data" / "char-widths.json"
CHAR_WIDTHS = json.loads(WIDTHS_FILE.read_text(encoding="utf-8"))["widths"]
OTHER_WIDTH = 0.9
BADGE = (24, 20)  # units: the box kept for an area's counters: one counter and some air
STEP = 7  # units between the rings of places tried around an anchor
REACH = 450  # units: the farthest a label's centre may be from its anchor
AWAY, CROSSING, COVERING = 30, 30, 5  # costs, in units of distance
LENGTH = 1.0  # cost of a leader line, per unit of its length (on top of the distance)
SPLIT = 10  # cost of a label at home whose counters are not just below it
SPOT_STEP, SPOT_REACH = 4, 120  # units: the grid of spots tried for counters, how far
INLAND = 50  # units: an area this far from any sea is placed as if twice as crowded
AIR = 0.01  # units between a label and the counters just below it, once rounded
PARTLY = 60  # cost of a spot whose counters' box is not wholly in the area
NEAR = 5  # units: anchors closer than this crowd an area no more than at this distance
GRID = 64  # units: the cell size of the index of what is placed
SMALL_WORDS = {"of", "the", "de", "du", "des", "la", "le", "von", "van", "der", "di"}
VOWELS = set("aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœ")

Box = tuple[float, float, float, float]  # left, top, right, bottom
Line = tuple[float, float, float, float]  # x1, y1, x2, y2


@dataclass(frozen=True)
class Area:
    """What a label is placed for: the area's key and name, and where its label sits
    best (``anchor``)."""

    key: str
    name: str
    anchor: tuple[float, float]


@dataclass(frozen=True)
class Placed:
    """A label's centre, font size, its abbreviation (None: the full name) and its leader
    line (x1, y1 at the anchor, x2, y2 on the box), or None."""

    anchor: tuple[float, float]
    x: float
    y: float
    size: int
    text: str | None
    leader: Line | None
    counters: tuple[float, float] | None = None

    def as_json(self) -> dict:
        leader = list(self.leader) if self.leader else None
        counters = list(self.counters) if self.counters else None
        return {
            "x": self.x, "y": self.y, "size": self.size, "text": self.text, "leader": leader,
            "counters": counters,
        }  # fmt: skip


class NoRoom(ValueError):
    """Some labels found no free place; ``keys`` says which."""

    def __init__(self, keys: list[str]):
        super().__init__("no room for the labels of " + ", ".join(keys))
        self.keys = keys


@dataclass(frozen=True)
class _Choice:
    cost: float
    box: Box
    leader: Line | None
    text: str
    counters: tuple[float, float]


def text_box(x: float, y: float, text: str, size: float = SIZE) -> Box:
    """The estimated box of ``text`` centred on (x, y)."""
    half_width = _half_width(text, size)
    half_height = LINE_HEIGHT * size / 2
    return (x - half_width, y - half_height, x + half_width, y + half_height)


@cache
def _half_width(text: str, size: float) -> float:
    return (size * sum(CHAR_WIDTHS.get(c, OTHER_WIDTH) for c in text) + PADDING) / 2


def badge_box(label: Box) -> Box:
    """The counters' box just below a label's box, centred under it."""
    middle, width, height = (label[0] + label[2]) / 2, BADGE[0], BADGE[1]
    return (middle - width / 2, label[3], middle + width / 2, label[3] + height)


def abbreviation(name: str) -> str | None:
    """A shorter, still readable form of ``name``, or None if there is none.

    A name "A and B" is shortened to A. One word is cut to 5–7 letters, ending on a
    consonant, plus "." (Transylvania: "Trans."). Several words keep the last one (cut
    the same way if it is long) after the others' initials: "Gulf of Finland" becomes
    "G. Finland", "Old Castile" "O. Castile" (the first word is often a qualifier that
    alone would not say which area it is)."""
    head = name.split(" and ")[0]
    words = [w for w in head.split() if w.lower() not in SMALL_WORDS] or head.split()
    *qualifiers, last = words
    initials = [w if w.endswith(".") else w[0] + "." for w in qualifiers]
    short = " ".join([*initials, _cut(last) if len(last) > 7 else last])
    return short if len(short) < len(name) else None


def _cut(word: str) -> str:
    """The word's first 6, 5 or 7 letters, the first of these ending on a consonant, + "."."""
    for length in (6, 5, 7):
        if word[length - 1].lower() not in VOWELS:
            return word[:length] + "."
    return word[:6] + "."


def counters_box(x: float, y: float) -> Box:
    """The counters' box (BADGE) centred on (x, y), the middle of their row."""
    return (x - BADGE[0] / 2, y - BADGE[1] / 2, x + BADGE[0] / 2, y + BADGE[1] / 2)


def place(
    areas: list[Area],
    width: float,
    height: float,
    inside: dict[str, Callable[[float, float], bool]] | None = None,
    ground: dict[str, Callable[[float, float], bool]] | None = None,
) -> dict[str, Placed]:
    """Each area's label, keyed by area; ``inside[key](x, y)`` says whether a point is in
    the area (without it, only the anchor counts as inside, and its counters may go
    anywhere), ``ground[key](x, y)`` whether a label led away from the area may sit there
    (for a land area: at sea or in the area; for a sea zone: at sea; without it,
    anywhere). A label sits in its area or away on a leader on that ground, its counters
    always in the area (_spots); where no such place is free, the label may sit away
    anywhere, and failing that, its counters may stray too. NoRoom if some label fits
    nowhere."""
    inside, ground = inside or {}, ground or {}
    order = _most_constrained_first(areas, inside, ground)
    board = _Board(width, height, [area.anchor for area in areas])
    placed: dict[str, Placed] = {}
    homeless = []
    room = {area.key: len(_spots(area, inside.get(area.key), board, True)) for area in areas}
    # each area first holds a place for its counters in it, the smallest area first
    for area in sorted(order, key=lambda a: room[a.key]):
        board.own = area.key
        spots = _spots(area, inside.get(area.key), board, True)
        if spots:
            board.hold(area.key, counters_box(*spots[0]))
    for area in order:
        board.own = area.key  # its own held place is free to it
        holds = inside.get(area.key)
        away = ground.get(area.key)
        spots = _spots(area, holds, board, True)
        choice = (
            _best(area, holds, away, spots, board)
            or _best(area, holds, None, spots, board)
            or _best(area, holds, None, _spots(area, holds, board, False), board)
        )
        board.release(area.key)
        if choice is None:
            homeless.append(area.key)
            continue
        board.add([choice.box, counters_box(*choice.counters)], choice.leader)
        placed[area.key] = _placed(area, choice)
    if homeless:
        raise NoRoom(homeless)
    return placed


def _most_constrained_first(
    areas: list[Area],
    inside: dict[str, Callable[[float, float], bool]] | None = None,
    ground: dict[str, Callable[[float, float], bool]] | None = None,
) -> list[Area]:
    """The areas by how crowded their anchors are, most first: the sum over the other
    anchors of one over their distance (at least NEAR), so near neighbours count most,
    × (1 + the distance to the nearest ground outside the area, a label led away could
    sit on, / INLAND): an inland area's label led away would have far to go, so it
    chooses before its neighbours by the coast."""

    def crowding(area: Area) -> float:
        return sum(
            1 / max(math.dist(area.anchor, other.anchor), NEAR)
            for other in areas
            if other is not area
        )

    def inland(area: Area) -> float:
        holds, away = (inside or {}).get(area.key), (ground or {}).get(area.key)
        if holds is None or away is None:
            return 0.0
        for radius in range(STEP, REACH + 1, STEP):
            if any(away(*p) and not holds(*p) for p in _ring(*area.anchor, radius)):
                return radius
        return REACH

    return sorted(areas, key=lambda a: (-round(crowding(a) * (1 + inland(a) / INLAND), 9), a.key))


def _spots(
    area: Area, inside: Callable[[float, float], bool] | None, board: _Board, own: bool
) -> list[tuple[float, float]]:
    """Where the area's counters may go whatever its label does: free places for their
    box (the middle of their row) within SPOT_REACH of the anchor, on a grid of
    SPOT_STEP, in the area if ``own`` (without ``inside``: anywhere), nearest first, a
    box that only has its middle in the area counted PARTLY farther."""
    x0, y0 = area.anchor
    found = []
    steps = int(SPOT_REACH // SPOT_STEP)
    for i in range(-steps, steps + 1):
        for j in range(-steps, steps + 1):
            x, y = x0 + i * SPOT_STEP, y0 + j * SPOT_STEP
            distance = math.hypot(x - x0, y - y0)
            if distance > SPOT_REACH or not board.free([counters_box(x, y)]):
                continue
            whole = True
            if own and inside is not None:
                if not inside(x, y):
                    continue
                whole = all(inside(*corner) for corner in _corners(counters_box(x, y)))
            found.append((distance + (not whole) * PARTLY, round(x, 1), round(y, 1)))
    return [(x, y) for _, x, y in sorted(found)]


def _best(
    area: Area,
    inside: Callable[[float, float], bool] | None,
    ground: Callable[[float, float], bool] | None,
    spots: list[tuple[float, float]],
    board: _Board,
) -> _Choice | None:
    """The free place of least cost for the area's label and its counters, or None: at
    home (its centre in the area; without ``inside``, on the anchor) with its counters
    just below it in the area or else at the nearest free spot (``spots``), or away on a
    leader, with ``ground`` only where its middle and both ends are on that ground, its
    counters at the nearest spot."""
    texts = [area.name, *filter(None, [abbreviation(area.name)])]
    holds = inside or (lambda x, y: True)
    best = None
    for radius in range(0, REACH + 1, STEP):
        if best is not None and radius >= best.cost:
            break
        for text in texts:
            for x, y in _ring(*area.anchor, radius):
                box = text_box(x, y, text)
                if not board.free([box]):
                    continue
                home = (x, y) == area.anchor if inside is None else inside(x, y)
                if not (home or ground is None or all(ground(*p) for p in _ends(box))):
                    continue
                leader = None if home else _leader(area.anchor, box)
                led = 0.0 if leader is None else AWAY + LENGTH * math.dist(leader[:2], leader[2:])
                # the counters and the penalty only add: a place already as dear as the
                # best is not weighed further
                if best is not None and radius + led >= best.cost:
                    continue
                counters, extra = _counters(box, home, holds, spots, board)
                if counters is None or (best is not None and radius + extra + led >= best.cost):
                    continue
                cost = radius + extra + board.penalty(box, leader, area.anchor) + led
                if best is None or cost < best.cost:
                    best = _Choice(cost, box, leader, text, counters)
    return best


def _counters(
    box: Box,
    home: bool,
    inside: Callable[[float, float], bool],
    spots: list[tuple[float, float]],
    board: _Board,
) -> tuple[tuple[float, float] | None, float]:
    """Where the counters of a label with that box go, and the extra cost: for a label at
    home, just below it if that is free and in the area; else the first spot its box
    leaves free, at SPLIT more (a label at home) or nothing more (a label away)."""
    across, down = _middle(badge_box(box))
    middle = (round(across, 2), round(down + AIR, 2))  # stored as it is checked
    if home and inside(*middle) and board.free([counters_box(*middle)]):
        return middle, 0.0
    for spot in spots:
        if not _overlap(counters_box(*spot), box):
            return spot, SPLIT if home else 0.0
    return None, 0.0


def _ends(box: Box) -> list[tuple[float, float]]:
    """The middle of a label's text and its two ends (the box less its padding)."""
    middle = _middle(box)
    inset = PADDING / 2 + 1
    return [middle, (box[0] + inset, middle[1]), (box[2] - inset, middle[1])]


def _corners(box: Box) -> list[tuple[float, float]]:
    return [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]


def _middle(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _ring(x: float, y: float, radius: float) -> Iterator[tuple[float, float]]:
    """Places on a circle around (x, y) (the centre alone for radius 0): right and left
    first, then alternately above and below, going round."""
    if radius == 0:
        yield x, y
        return
    count = max(8, round(2 * math.pi * radius / STEP))
    for index in range(count):
        turn = (index + 1) // 2 * (1 if index % 2 else -1)  # 0, 1, -1, 2, -2, …
        angle = 2 * math.pi * turn / count
        yield round(x + radius * math.cos(angle), 1), round(y + radius * math.sin(angle), 1)


def _leader(anchor: tuple[float, float], box: Box) -> Line:
    """From the anchor to the nearest point of the box's edge."""
    x, y = anchor
    return (x, y, round(min(max(x, box[0]), box[2]), 1), round(min(max(y, box[1]), box[3]), 1))


def _placed(area: Area, choice: _Choice) -> Placed:
    box = choice.box
    x, y = round((box[0] + box[2]) / 2, 1), round((box[1] + box[3]) / 2, 1)
    text = None if choice.text == area.name else choice.text
    return Placed(area.anchor, x, y, SIZE, text, choice.leader, choice.counters)


class _Board:
    """The frame, the anchors, and the boxes and leader lines placed so far, indexed on
    a grid."""

    def __init__(self, width: float, height: float, anchors: list[tuple[float, float]]):
        self.width, self.height = width, height
        self.boxes: dict[tuple[int, int], list[Box]] = {}
        self.held: dict[tuple[int, int], list[tuple[str, Box]]] = {}  # counters' places
        self.released: set[str] = set()
        self.own: str | None = None  # the area being placed: its held place is free
        self.leaders: list[Line] = []
        self.anchors: dict[tuple[int, int], list[tuple[float, float]]] = {}
        for x, y in anchors:
            self.anchors.setdefault((int(x // GRID), int(y // GRID)), []).append((x, y))

    def free(self, boxes: list[Box]) -> bool:
        """Whether the boxes are in the frame and overlap nothing placed (nor held)."""
        for b in boxes:
            if b[0] < 0 or b[1] < 0 or b[2] > self.width or b[3] > self.height:
                return False
            for cell in _cells(b):
                if any(_overlap(b, other) for other in self.boxes.get(cell, ())):
                    return False
                if any(
                    _overlap(b, other) for key, other in self.held.get(cell, ())
                    if key != self.own and key not in self.released
                ):  # fmt: skip
                    return False
        return True

    def penalty(self, box: Box, leader: Line | None, own_anchor: tuple[float, float]) -> float:
        """CROSSING for each leader the label's box crosses or box its leader crosses,
        COVERING for each other anchor the label's box hides."""
        boxes = (box,)
        crossings = sum(_crosses(line, b) for line in self.leaders for b in boxes)
        if leader:
            crossings += sum(_crosses(leader, b) for b in self._boxes_near(_bounds(leader)))
            crossings += sum(_intersect(leader, line) for line in self.leaders)
        covered = sum(
            _holds(b, anchor) for b in boxes for anchor in self._anchors_near(b)
            if anchor != own_anchor
        )  # fmt: skip
        return CROSSING * crossings + COVERING * covered

    def add(self, boxes: list[Box], leader: Line | None) -> None:
        for b in boxes:
            for cell in _cells(b):
                self.boxes.setdefault(cell, []).append(b)
        if leader:
            self.leaders.append(leader)

    def hold(self, key: str, box: Box) -> None:
        """Keep the box free for the area's counters, until it is released."""
        for cell in _cells(box):
            self.held.setdefault(cell, []).append((key, box))

    def release(self, key: str) -> None:
        self.released.add(key)

    def _boxes_near(self, box: Box) -> set[Box]:
        placed = {b for cell in _cells(box) for b in self.boxes.get(cell, ())}
        held = {
            b for cell in _cells(box) for key, b in self.held.get(cell, ())
            if key != self.own and key not in self.released
        }  # fmt: skip
        return placed | held

    def _anchors_near(self, box: Box) -> set[tuple[float, float]]:
        return {a for cell in _cells(box) for a in self.anchors.get(cell, ())}


def _bounds(line: Line) -> Box:
    x1, y1, x2, y2 = line
    return (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))


def _cells(box: Box) -> Iterator[tuple[int, int]]:
    for i in range(int(box[0] // GRID), int(box[2] // GRID) + 1):
        for j in range(int(box[1] // GRID), int(box[3] // GRID) + 1):
            yield i, j


def _intersect(a: Line, b: Line) -> bool:
    """Whether two segments cross (touching ends do not count)."""

    def side(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    p1, p2, q1, q2 = a[:2], a[2:], b[:2], b[2:]
    return side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0


def _holds(box: Box, point: tuple[float, float]) -> bool:
    return box[0] < point[0] < box[2] and box[1] < point[1] < box[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(line: tuple[float, float, float, float], box: Box) -> bool:
    """Whether the segment passes through the box's interior."""
    return crosses(line[:2], line[2:], box)
