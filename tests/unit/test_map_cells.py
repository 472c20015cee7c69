"""campaign/maps/cells.py: the land shared among the areas' points, the cells at the
map's edge reaching its frame rather than stopping at a disc round their point, an island
without a point going to the area across the strait."""

from __future__ import annotations

from shapely.geometry import Point, box

from campaign.maps.cells import disc_radius, divide

FRAME = box(0, 0, 400, 400)
# a row of towns along the middle, and one near the right edge far from the others
POINTS = {f"t{i}": Point(60 + 40 * i, 200) for i in range(5)} | {"east": Point(380, 200)}


def test_an_area_at_the_edge_reaches_the_frame_not_a_disc():
    shapes = divide(FRAME, POINTS, claim_unmarked=True)
    east = shapes["east"]
    assert disc_radius(POINTS) == 100  # a disc round it would span 100 to 300
    assert east.bounds[1:] == (0, 400, 400)  # it reaches the frame, top, right and bottom


def test_the_land_along_the_frame_is_all_shared():
    shapes = divide(FRAME, POINTS, claim_unmarked=True)
    shared = shapes["t0"]
    for shape in shapes.values():
        shared = shared.union(shape)
    assert abs(shared.area - FRAME.area) < 1


def test_an_island_without_a_point_goes_to_the_area_across_the_strait_if_near():
    land = box(0, 0, 100, 100).union(box(110, 40, 120, 60)).union(box(380, 0, 390, 10))
    points = {"a": Point(50, 30), "b": Point(50, 70), "c": Point(20, 50)}
    shapes = divide(land, points, claim_unmarked=True)
    claimed = shapes["a"].union(shapes["b"]).union(shapes["c"])
    assert claimed.contains(Point(115, 50))  # near: claimed
    assert not claimed.contains(Point(385, 5))  # far: left bare
