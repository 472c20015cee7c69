"""Placing the areas' labels so that no two overlap, once, when the map is built.

A label's box is estimated from its text: its characters' widths in a wide bold face
(CHAR_WIDTHS) × size, + 4 units wide, and 1.25 × size high, centred on (x, y); below it
the page draws the area's counters, so a badge box of BADGE units is kept free under
every label too. Every box stays in the frame, and no box or badge overlaps another.

The labels are placed greedily, one at a time, the most constrained first: the areas
whose anchors have the most other anchors close by have the fewest free places near
their own, so they choose while there is room, and the areas with space around them
adapt. Each label takes the free place of least cost, trying rings of places at growing
distances around its anchor, the full name and then the abbreviation at each (at equal
cost the full name wins; the shorter abbreviation wins when it fits nearer). The cost of
a place is its distance from the anchor, plus AWAY if its centre is outside the area (it
then gets a leader line from the anchor to the box's nearest edge); the middle of the row
of counters under it, and a label away, must lie on the area's ground (on land for a
land area, at sea for a sea zone) where some place is, plus CROSSING for every other
label or leader line its own would cross, and COVERING for every other area's anchor its
boxes would hide. Nothing is random: the same areas give the same
labels.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

SIZE = 14  # units: 11.2 px at 0.8 px per unit, the smallest readable size
PADDING, LINE_HEIGHT = 4, 1.25  # of the box: units around the text; × size
# Each character's advance, × size, in a wide bold face (data/char-widths.json); for a
# character not listed, OTHER_WIDTH.
WIDTHS_FILE = Path(__file__).parent / "data" / "char-widths.json"
CHAR_WIDTHS = json.loads(WIDTHS_FILE.read_text(encoding="utf-8"))["widths"]
OTHER_WIDTH = 0.9
BADGE = (40, 20)  # units: the counters' box under each label
STEP = 7  # units between the rings of places tried around an anchor
REACH = 450  # units: the farthest a label's centre may be from its anchor
AWAY, CROSSING, COVERING = 30, 30, 5  # costs, in units of distance
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

    def as_json(self) -> dict:
        leader = list(self.leader) if self.leader else None
        return {"x": self.x, "y": self.y, "size": self.size, "text": self.text, "leader": leader}


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


def text_box(x: float, y: float, text: str, size: float = SIZE) -> Box:
    """The estimated box of ``text`` centred on (x, y)."""
    half_width = (size * sum(CHAR_WIDTHS.get(c, OTHER_WIDTH) for c in text) + PADDING) / 2
    half_height = LINE_HEIGHT * size / 2
    return (x - half_width, y - half_height, x + half_width, y + half_height)


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


def place(
    areas: list[Area],
    width: float,
    height: float,
    inside: dict[str, Callable[[float, float], bool]] | None = None,
    ground: dict[str, Callable[[float, float], bool]] | None = None,
) -> dict[str, Placed]:
    """Each area's label, keyed by area; ``inside[key](x, y)`` says whether a point is in
    the area (without it, only the anchor counts as inside), ``ground[key](x, y)``
    whether it is on the area's ground (on land for a land area, at sea for a sea zone;
    without it, anywhere). A label sits in its area, with its counters (_counters) on the
    area's ground, or away on a leader, on its area's ground with its counters; where no
    such place is free, the same but for its counters (they may then stray), else in its
    area or away anywhere. NoRoom if some label fits nowhere."""
    board = _Board(width, height, [area.anchor for area in areas])
    placed: dict[str, Placed] = {}
    homeless = []
    for area in _most_constrained_first(areas):
        holds = (inside or {}).get(area.key)
        on_ground = (ground or {}).get(area.key) or (lambda x, y: True)
        choice = (
            _best(area, _at_home(area, holds, on_ground), _on(on_ground, True), board)
            or _best(area, _at_home(area, holds, None), _on(on_ground, False), board)
            or _best(area, _at_home(area, holds, None), None, board)
        )
        if choice is None:
            homeless.append(area.key)
            continue
        board.add(choice.box, choice.leader)
        placed[area.key] = _placed(area, choice)
    if homeless:
        raise NoRoom(homeless)
    return placed


def _most_constrained_first(areas: list[Area]) -> list[Area]:
    """The areas by how crowded their anchors are, most first: the sum over the other
    anchors of one over their distance (at least NEAR), so near neighbours count most."""

    def crowding(area: Area) -> float:
        return sum(
            1 / max(math.dist(area.anchor, other.anchor), NEAR)
            for other in areas
            if other is not area
        )

    return sorted(areas, key=lambda a: (-crowding(a), a.key))


def _at_home(
    area: Area,
    inside: Callable[[float, float], bool] | None,
    ground: Callable[[float, float], bool] | None,
) -> Callable:
    """Whether a label centred on (x, y) with that box is at home in its area: its centre
    in it, and with ``ground``, its counters (_counters) on the area's ground (in it, or
    in a neighbour); without ``inside``, its centre on the anchor."""
    if inside is None:
        return lambda x, y, box: (x, y) == area.anchor
    if ground is None:
        return lambda x, y, box: inside(x, y)
    return lambda x, y, box: inside(x, y) and all(ground(*p) for p in _counters(box))


def _best(
    area: Area,
    at_home: Callable[[float, float, Box], bool],
    ground: Callable[[Box], bool] | None,
    board: _Board,
) -> _Choice | None:
    """The free place of least cost for the area's label, or None; with ``ground``, only
    places in the area or on its ground."""
    texts = [area.name, *filter(None, [abbreviation(area.name)])]
    best = None
    for radius in range(0, REACH + 1, STEP):
        if best is not None and radius >= best.cost:
            break
        for text in texts:
            for x, y in _ring(*area.anchor, radius):
                box = text_box(x, y, text)
                if not board.free(box):
                    continue
                home = at_home(x, y, box)
                if not (home or ground is None or ground(box)):
                    continue
                leader = None if home else _leader(area.anchor, box)
                cost = radius + board.penalty(box, leader, area.anchor)
                cost += (leader is not None) * AWAY
                if best is None or cost < best.cost:
                    best = _Choice(cost, box, leader, text)
    return best


def _on(ground: Callable[[float, float], bool], counters: bool) -> Callable[[Box], bool]:
    """Whether a label's box has its centre on the ground, and its counters (_counters)
    too if ``counters``."""
    if not counters:
        return lambda box: ground(*_middle(box))
    return lambda box: ground(*_middle(box)) and all(ground(*p) for p in _counters(box))


def _counters(box: Box) -> list[tuple[float, float]]:
    """Where the counters under a label's box go: the middle of their row, its badge's."""
    left, top, right, bottom = badge_box(box)
    across, middle = (left + right) / 2, (top + bottom) / 2
    return [(across, middle)]


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
    return Placed(area.anchor, x, y, SIZE, text, choice.leader)


class _Board:
    """The frame, the anchors, and the boxes and leader lines placed so far, indexed on
    a grid."""

    def __init__(self, width: float, height: float, anchors: list[tuple[float, float]]):
        self.width, self.height = width, height
        self.boxes: dict[tuple[int, int], list[Box]] = {}
        self.leaders: list[Line] = []
        self.anchors: dict[tuple[int, int], list[tuple[float, float]]] = {}
        for x, y in anchors:
            self.anchors.setdefault((int(x // GRID), int(y // GRID)), []).append((x, y))

    def free(self, box: Box) -> bool:
        """Whether a label's box and its badge are in the frame and overlap nothing."""
        return all(
            b[0] >= 0 and b[1] >= 0 and b[2] <= self.width and b[3] <= self.height
            and not any(_overlap(b, other) for other in self._boxes_near(b))
            for b in (box, badge_box(box))
        )  # fmt: skip

    def penalty(self, box: Box, leader: Line | None, own_anchor: tuple[float, float]) -> float:
        """CROSSING for each leader the boxes cross or box the leader crosses, COVERING
        for each other anchor the boxes hide."""
        boxes = (box, badge_box(box))
        crossings = sum(_crosses(line, b) for line in self.leaders for b in boxes)
        if leader:
            crossings += sum(_crosses(leader, b) for b in self._boxes_near(_bounds(leader)))
            crossings += sum(_intersect(leader, line) for line in self.leaders)
        covered = sum(
            _holds(b, anchor) for b in boxes for anchor in self._anchors_near(b)
            if anchor != own_anchor
        )  # fmt: skip
        return CROSSING * crossings + COVERING * covered

    def add(self, box: Box, leader: Line | None) -> None:
        for b in (box, badge_box(box)):
            for cell in _cells(b):
                self.boxes.setdefault(cell, []).append(b)
        if leader:
            self.leaders.append(leader)

    def _boxes_near(self, box: Box) -> set[Box]:
        return {b for cell in _cells(box) for b in self.boxes.get(cell, ())}

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
    """Whether the segment passes through the box's interior (Liang–Barsky clipping)."""
    x1, y1, x2, y2 = line
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1 - box[0]), (dx, box[2] - x1), (-dy, y1 - box[1]), (dy, box[3] - y1)):
        if p == 0:
            if q <= 0:
                return False
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
    return high - low > 1e-9
