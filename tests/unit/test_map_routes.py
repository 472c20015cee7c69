"""campaign/maps/routes.py and marks.py: arrows that start and end beside the names and
bend round the names in their way, rings round a name, never across it."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from campaign.maps.marks import RING_PAD, name_box, placed, ring_round
from campaign.maps.routes import (
    CLEARANCE,
    DETOUR,
    HEAD,
    crosses,
    grow,
    is_free,
    route,
    shortest,
)

FRAME = (400.0, 300.0)
# A wall of names between two areas, with a gap at its top.
WALL = [(180.0, y, 200.0, y + 18.0) for y in range(60, 300, 20)]


def box_at(x: float, y: float, width: float = 40.0, height: float = 18.0):
    return (x - width / 2, y - height / 2, x + width / 2, y + height / 2)


def holds(box, point) -> bool:
    return box[0] < point[0] < box[2] and box[1] < point[1] < box[3]


def test_a_free_line_is_straight_and_starts_and_ends_beside_the_names():
    start, end = box_at(50, 150), box_at(350, 150)
    points = route([(50, 150), (350, 150)], [start, end], start, end, FRAME)
    assert len(points) == 2
    assert not holds(grow(start, CLEARANCE), points[0])
    assert not holds(grow(end, CLEARANCE + HEAD), points[-1])
    assert is_free(points, [start, end])


def test_an_arrow_bends_round_the_names_in_its_way():
    start, end = box_at(50, 150), box_at(350, 150)
    boxes = [start, end, *WALL]
    points = route([(50, 150), (350, 150)], boxes, start, end, FRAME)
    assert len(points) > 2
    assert is_free(points, [grow(box, CLEARANCE - 0.01) for box in boxes])
    assert min(y for _, y in points) < 60  # through the gap at the top


def test_with_no_way_round_the_arrow_is_drawn_straight_between_the_names():
    start, end = box_at(50, 150), box_at(350, 150)
    wall = [(180.0, -10.0, 200.0, 310.0)]
    points = route([(50, 150), (350, 150)], [start, end, *wall], start, end, FRAME)
    assert len(points) == 2
    assert points[0][0] > 50 and points[-1][0] < 350


def test_a_long_way_round_is_not_taken():
    """Two names close together behind a long wall whose only gap is far away: the arrow
    goes straight (under the wall's names, which are drawn over it with their halo)."""
    start, end = box_at(150, 250), box_at(250, 250)
    wall = [(190.0, 20.0, 210.0, 310.0)]  # the gap: above y = 20
    points = route([(150, 250), (250, 250)], [start, end, *wall], start, end, FRAME)
    assert len(points) == 2 and DETOUR > 1


def test_an_arrow_through_places_passes_them():
    start, end = box_at(50, 50), box_at(350, 50)
    points = route([(50, 50), (200, 250), (350, 50)], [start, end], start, end, FRAME)
    assert (200, 250) in points


def test_an_anchor_under_another_name_gives_a_start_beside_that_name():
    other = box_at(50, 150)
    points = route([(50, 150), (350, 150)], [other], None, None, FRAME)
    assert not holds(grow(other, CLEARANCE), points[0])


def test_shortest_finds_nothing_through_a_closed_wall():
    assert shortest([(10, 10)], [(390, 10)], [(100, -5, 120, 305)], FRAME) is None


def test_crosses_is_true_through_a_box_and_false_beside_or_touching_it():
    box = (0, 0, 10, 10)
    assert crosses((-5, 5), (15, 5), box)
    assert not crosses((-5, 12), (15, 12), box)
    assert not crosses((-5, 10), (15, 10), box)  # along its edge


@given(
    st.lists(st.tuples(st.floats(20, 380), st.floats(20, 280)), min_size=0, max_size=12),
    st.tuples(st.floats(20, 380), st.floats(20, 280)),
    st.tuples(st.floats(20, 380), st.floats(20, 280)),
)
def test_a_route_crosses_no_name_or_is_the_straight_line_drawn_when_there_is_none(centres, a, b):
    start, end = box_at(*a), box_at(*b)
    others = [box_at(x, y, 30, 14) for x, y in centres]
    points = route([a, b], [start, end, *others], start, end, FRAME)
    assert all(0 <= x <= FRAME[0] and 0 <= y <= FRAME[1] for x, y in points)
    free = is_free(points, [grow(box, CLEARANCE - 0.2) for box in [start, end, *others]])
    assert free or len(points) == 2


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    size: float
    text: str


@dataclass(frozen=True)
class Row:
    key: str
    label: Label


@dataclass(frozen=True)
class Line:
    points: tuple
    keys: tuple
    ring: tuple | None = None
    clear: bool = True

    @property
    def arrow(self) -> bool:
        return len(self.points) > 1


def test_a_marker_gets_a_ring_round_its_area_s_name():
    rows = [Row("paris", Label(100, 100, 14, "Paris")), Row("lyon", Label(300, 200, 14, "Lyon"))]
    (ring,) = placed([Line(((100, 100),), ("paris",))], rows, FRAME)
    x, y, width, height = ring.ring
    box = name_box(rows[0].label)
    assert (x, y) == (round(box[0] - RING_PAD, 1), round(box[1] - RING_PAD, 1))
    assert x + width >= box[2] + RING_PAD - 0.1 and y + height >= box[3] + RING_PAD - 0.1


def test_an_arrow_between_two_names_starts_and_ends_beside_them():
    rows = [Row("paris", Label(100, 100, 14, "Paris")), Row("lyon", Label(300, 200, 14, "Lyon"))]
    (arrow,) = placed([Line(((100, 100), (300, 200)), ("paris", "lyon"))], rows, FRAME)
    boxes = [name_box(row.label) for row in rows]
    assert is_free(arrow.points, boxes) and arrow.clear
    assert arrow.ring is None


def test_an_arrow_with_no_way_round_the_names_is_not_clear():
    rows = [Row(f"a{i}", Label(x, y, 14, "Wall")) for i, (x, y) in enumerate(
        (x, y) for x in range(40, 400, 38) for y in range(10, 300, 18)
    )]  # fmt: skip
    (arrow,) = placed([Line(((40, 10), (382, 280)), ("a0", rows[-1].key))], rows, FRAME)
    assert not arrow.clear


@given(st.floats(0, 500), st.floats(0, 500), st.sampled_from(["Paris", "Αθήνα", "Москва"]))
def test_a_ring_holds_its_name_s_box(x, y, text):
    box = name_box(Label(x, y, 14, text))
    left, top, width, height = ring_round(box)
    assert left < box[0] and top < box[1]
    assert left + width > box[2] and top + height > box[3]
