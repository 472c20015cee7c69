"""Routing an arrow between the names of a map, so that it crosses none of them.

An arrow goes from beside the name of the area it starts in to beside the name of the
area it points at (never from the middle of a name), through the places it passes
(``via``), and bends round the names in its way. The boxes given are the names' boxes;
each keeps CLEARANCE units free around it (the arrow's casing and a little air), and the
name an arrow points at HEAD more (its head).

Where it starts and ends: places all round the first and last names' boxes (STEP units
apart, at three distances FARTHER apart), and where the straight line between the areas'
anchors leaves them; a start in no other name's box, an end HEAD farther from every box.
Of every start and end, the shortest route that crosses no box wins, bent at the boxes'
corners (A* over the corners within REACH of its ends). When there is none (or no end is
free), or when the way round is more than DETOUR times as long as the straight line, the
straight line between the nearest start and end is drawn: the names are drawn over it,
with their halo, anyway, and ``clear_of`` says so.
Pure: no Django, no geometry library.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence

Box = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]

CLEARANCE = 4.5  # units around a name's box that an arrow's line keeps free
HEAD = 5.0  # units more before the name an arrow points at: its head
STEP = 8.0  # units between the places tried along a name's box
FARTHER = 8.0  # units: the places tried a second time round, farther out
ABOUT = (10, 20, 30)  # units: places about an anchor that has no name over it
REACH = 150  # units round its ends within which an arrow may go round names
DETOUR = 1.6  # a way round longer than this times the straight line is not taken


def route(
    points: Sequence[Point],
    boxes: Iterable[Box],
    start_box: Box | None,
    end_box: Box | None,
    frame: tuple[float, float],
) -> tuple[Point, ...]:
    """The arrow's points, from beside ``start_box`` (the first area's name) through the
    ``points`` between the first and last to beside ``end_box``; ``boxes``: every name's
    box, those two included; ``frame``: the map's width and height, which it stays in.
    Whether it crosses no name: ``clear_of``."""
    obstacles = [grow(box, CLEARANCE) for box in boxes]
    starts = _within(_around(points[0], points[1], start_box, CLEARANCE + 1), frame)
    ends = _within(_around(points[-1], points[-2], end_box, CLEARANCE + HEAD + 1), frame)
    starts = _clear(starts, obstacles)
    ends = [p for p in ends if not any(_holds(grow(box, HEAD), p) for box in obstacles)]
    if not ends:
        return _straight([starts, *([p] for p in points[1:-1]), [points[-1]]])
    stops = [starts, *([_free_point(p, obstacles)] for p in points[1:-1]), ends]
    path: list[Point] = []
    for sources, targets in zip(stops, stops[1:], strict=False):
        leg = shortest(path[-1:] or sources, targets, obstacles, frame)
        if leg is None:
            return _straight(stops)
        path += leg[1:] if path else leg
    straight = _straight(stops)
    if _length(path) > DETOUR * _length(straight):
        return straight  # a long way round reads worse than a name over the arrow
    return tuple(_rounded(p) for p in path)


def shortest(
    sources: Sequence[Point],
    targets: Sequence[Point],
    obstacles: Sequence[Box],
    frame: tuple[float, float],
) -> list[Point] | None:
    """The shortest polyline from one of ``sources`` to one of ``targets`` that crosses
    none of the boxes, bending only at their corners (A* over the corners of the boxes
    near the sources and targets), or None if there is none within REACH of them."""
    region = grow(_bounds_of([*sources, *targets]), REACH)
    near = [box for box in obstacles if _overlap(box, region)]
    corners = [
        c for box in near for c in _corners(grow(box, 1))
        if not any(_holds(other, c) for other in near)
    ]  # fmt: skip
    nodes = _within([*dict.fromkeys([*targets, *corners])], frame)
    ends = set(targets)

    def estimate(p: Point) -> float:
        return min(math.dist(p, t) for t in targets)

    queue = [(estimate(s), 0.0, s, ()) for s in sources]
    heapq.heapify(queue)
    done: set[Point] = set()
    while queue:
        _, walked, here, before = heapq.heappop(queue)
        if here in done:
            continue
        path = (*before, here)
        if here in ends:
            return list(path)
        done.add(here)
        for there in nodes:
            if there not in done and is_free([here, there], near):
                step = walked + math.dist(here, there)
                heapq.heappush(queue, (step + estimate(there), step, there, path))
    return None


def grow(box: Box, by: float) -> Box:
    """The box made ``by`` larger on every side."""
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def crosses(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment a–b passes through the box's interior (Liang–Barsky)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in (
        (-dx, a[0] - box[0]),
        (dx, box[2] - a[0]),
        (-dy, a[1] - box[1]),
        (dy, box[3] - a[1]),
    ):
        if p == 0:
            if q <= 0:
                return False
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
    return high - low > 1e-9


def is_free(points: Sequence[Point], obstacles: Sequence[Box]) -> bool:
    """Whether the polyline crosses none of the boxes."""
    for a, b in zip(points, points[1:], strict=False):
        left, top, right, bottom = _bounds_of([a, b])
        for box in obstacles:
            near = box[0] < right and left < box[2] and box[1] < bottom and top < box[3]
            if near and crosses(a, b, box):
                return False
    return True


def clear_of(points: Sequence[Point], boxes: Iterable[Box], slack: float = 0.0) -> bool:
    """Whether an arrow through ``points`` keeps CLEARANCE from every box (less ``slack``),
    and its end (its head) HEAD more."""
    boxes = list(boxes)
    head = [grow(box, CLEARANCE + HEAD - slack) for box in boxes]
    free = is_free(points, [grow(box, CLEARANCE - slack) for box in boxes])
    return free and not any(_holds(box, points[-1]) for box in head)


def _clear(points: list[Point], obstacles: Sequence[Box]) -> list[Point]:
    """The points in no box (all of them if none is)."""
    return [p for p in points if not any(_holds(box, p) for box in obstacles)] or points


def _around(anchor: Point, toward: Point, box: Box | None, by: float) -> list[Point]:
    """Where an arrow may start or end beside a name's box grown by ``by``: where the line
    from the anchor toward the next point leaves it, and places all round it, at that
    distance, FARTHER and twice that; the anchor and places about it if it has no name or lies
    outside its grown box (another name may cover it)."""
    if box is None or not _holds(grow(box, by), anchor):
        return [anchor, *_about(anchor)]
    places = [p for extra in (0, FARTHER, 2 * FARTHER) for p in _perimeter(grow(box, by + extra))]
    leaving = _leaving(anchor, toward, grow(box, by))
    return [leaving, *places] if leaving else places


def _perimeter(box: Box) -> list[Point]:
    """Points along the box's sides, about STEP units apart, its corners included."""
    left, top, right, bottom = box
    across = max(1, math.ceil((right - left) / STEP))
    down = max(1, math.ceil((bottom - top) / STEP))
    xs = [left + (right - left) * i / across for i in range(across + 1)]
    ys = [top + (bottom - top) * j / down for j in range(1, down)]
    return [
        *((x, y) for x in xs for y in (top, bottom)),
        *((x, y) for y in ys for x in (left, right)),
    ]


def _about(point: Point) -> list[Point]:
    """Places round a point, ABOUT units away, in eight directions."""
    return [
        (point[0] + r * math.cos(k * math.pi / 4), point[1] + r * math.sin(k * math.pi / 4))
        for r in ABOUT
        for k in range(8)
    ]


def _leaving(a: Point, b: Point, box: Box) -> Point | None:
    """Where the ray from a (inside the box) toward b leaves the box."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == dy == 0:
        return None
    times = []
    if dx:
        times.append(((box[2] if dx > 0 else box[0]) - a[0]) / dx)
    if dy:
        times.append(((box[3] if dy > 0 else box[1]) - a[1]) / dy)
    t = min(times)
    return (a[0] + t * dx, a[1] + t * dy)


def _free_point(point: Point, obstacles: Sequence[Box]) -> Point:
    """The point, or the nearest corner of the box it lies in."""
    for box in obstacles:
        if _holds(box, point):
            return min(_corners(box), key=lambda c: math.dist(c, point))
    return point


def _corners(box: Box) -> list[Point]:
    return [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]


def _within(points: Iterable[Point], frame: tuple[float, float]) -> list[Point]:
    return [p for p in points if 0 <= p[0] <= frame[0] and 0 <= p[1] <= frame[1]]


def _holds(box: Box, point: Point) -> bool:
    return box[0] < point[0] < box[2] and box[1] < point[1] < box[3]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _bounds_of(points: Sequence[Point]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _straight(stops: list[list[Point]]) -> tuple[Point, ...]:
    """The nearest of the first and last stops, joined through the others."""
    middle = [stop[0] for stop in stops[1:-1]]
    start = min(stops[0], key=lambda p: math.dist(p, (middle or stops[-1])[0]))
    end = min(stops[-1], key=lambda p: math.dist(p, (middle or [start])[-1]))
    return tuple(_rounded(p) for p in (start, *middle, end))


def _length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))


def _rounded(point: Point) -> Point:
    return (round(point[0], 1), round(point[1], 1))
