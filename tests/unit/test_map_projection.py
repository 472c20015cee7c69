"""campaign/maps/projection.py: Lambert azimuthal equal-area, fitted to a 1000-unit frame."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.maps.projection import (
    MARGIN,
    MAX_HEIGHT,
    MIN_HEIGHT,
    WIDTH,
    Projection,
    arc_degrees,
    far_off,
    fit,
)

EUROPE = [(48.86, 2.35), (52.52, 13.4), (41.9, 12.5), (59.33, 18.07), (40.42, -3.7)]


def test_the_centre_lands_at_the_origin_and_the_points_middle_at_the_frames_middle():
    frame = fit(EUROPE)
    projection = frame.projection
    assert projection(projection.lat0, projection.lon0) == pytest.approx(
        (projection.x0, projection.y0)
    )
    xs, ys = zip(*(projection(lat, lon) for lat, lon in EUROPE), strict=True)
    assert (min(xs) + max(xs)) / 2 == pytest.approx(frame.width / 2, abs=0.01)
    assert (min(ys) + max(ys)) / 2 == pytest.approx(frame.height / 2, abs=0.01)


def test_the_centre_is_the_points_mean():
    projection = fit(EUROPE).projection
    assert projection.lat0 == pytest.approx(sum(p[0] for p in EUROPE) / 5, abs=1e-4)
    assert projection.lon0 == pytest.approx(sum(p[1] for p in EUROPE) / 5, abs=1e-4)


def test_east_is_to_the_right_and_north_is_up():
    projection = Projection(50, 10, scale=1000, x0=500, y0=400)
    x, y = projection(50, 10)
    east, north = projection(50, 11), projection(51, 10)
    assert east[0] > x and east[1] == pytest.approx(y, abs=5)
    assert north[1] < y and north[0] == pytest.approx(x)


def test_the_points_and_their_margin_fill_the_width():
    wide = [*EUROPE, (55.75, 37.62), (38.72, -9.14)]
    frame = fit(wide)
    xs = [frame.projection(lat, lon)[0] for lat, lon in wide]
    assert frame.width == WIDTH
    assert min(xs) == pytest.approx(MARGIN, abs=0.01)
    assert max(xs) == pytest.approx(WIDTH - MARGIN, abs=0.01)


@pytest.mark.parametrize(
    "points, height",
    [
        ([(45, 0), (45.5, 20)], MIN_HEIGHT),  # a wide strip: the least height
        ([(40, 10), (60, 11)], MAX_HEIGHT),  # a tall one: the most, narrower than the frame
    ],
)
def test_the_height_follows_the_extent_within_its_bounds(points, height):
    frame = fit(points)
    assert frame.height == height
    for lat, lon in points:
        x, y = frame.projection(lat, lon)
        assert MARGIN - 0.01 <= x <= WIDTH - MARGIN + 0.01
        assert MARGIN - 0.01 <= y <= height - MARGIN + 0.01


@given(
    st.floats(min_value=30, max_value=65),
    st.floats(min_value=-10, max_value=40),
    st.floats(min_value=-20, max_value=20),
    st.floats(min_value=-20, max_value=20),
)
def test_inverse_undoes_the_projection(lat0, lon0, dlat, dlon):
    projection = Projection(lat0, lon0, scale=1234.5, x0=480, y0=390)
    lat, lon = lat0 + dlat / 2, lon0 + dlon
    assert projection.inverse(*projection(lat, lon)) == pytest.approx((lat, lon), abs=1e-7)


def test_areas_equal_on_the_globe_stay_equal_on_the_map():
    projection = Projection(50, 10, scale=1000)

    def cell_area(lat, lon):  # of a 0.1° cell, by the shoelace formula
        corners = [(lat, lon), (lat, lon + 0.1), (lat + 0.1, lon + 0.1), (lat + 0.1, lon)]
        xy = [projection(*corner) for corner in corners]
        return (
            abs(
                sum(
                    x0 * y1 - x1 * y0
                    for (x0, y0), (x1, y1) in zip(xy, xy[1:] + xy[:1], strict=True)
                )
            )
            / 2
        )

    assert cell_area(50, 30) == pytest.approx(cell_area(50, 10), rel=0.001)
    assert cell_area(65, 25) == pytest.approx(
        cell_area(50, 10) * math.cos(math.radians(65.05)) / math.cos(math.radians(50.05)), rel=0.001
    )


def test_a_point_far_from_all_the_others_is_off_the_map():
    points = {f"p{i}": (45 + i % 5, 5 + i) for i in range(12)}
    assert far_off(points) == {}
    points["swapped"] = (2.35, 48.86)
    assert list(far_off(points)) == ["swapped"]
    assert far_off(points)["swapped"] == pytest.approx(
        arc_degrees((47, 10.5), (2.35, 48.86)), abs=3
    )


def test_arc_degrees_is_the_great_circle_distance():
    assert arc_degrees((0, 0), (0, 90)) == pytest.approx(90)
    assert arc_degrees((50, 10), (50, 10)) == 0
    assert arc_degrees((48.86, 2.35), (51.51, -0.13)) * math.pi / 180 * 6371 == pytest.approx(
        344, abs=2
    )
