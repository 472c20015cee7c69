"""The coast in a map's frame: Natural Earth's 1:50m land less its lakes, projected,
clipped to the frame and simplified once, so that every area cut from it shares the
same coastline."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import Polygon, box, shape

from campaign.maps import topojson
from campaign.maps.polygons import polygons, valid
from campaign.maps.projection import Frame

DATA = Path(__file__).parent / "data"
SOURCE = "Natural Earth 1:50m land (world-atlas 2.0.2), public domain"
WINDOW_MARGIN = 5.0  # degrees of land and lakes read beyond the frame's corners
SEGMENT = 0.25  # degrees: long edges are split before projecting, so they bend as they should
SIMPLIFY = 0.6  # units
SPECK = 1.0  # units²: smaller islands and lakes are left out


@cache
def _land_lonlat() -> tuple[Polygon, ...]:
    topology = json.loads((DATA / "land-50m.json").read_text(encoding="utf-8"))
    return tuple(
        valid(Polygon(rings[0], rings[1:])) for rings in topojson.polygons(topology, "land")
    )


@cache
def _lakes_lonlat() -> shapely.Geometry:
    feature = json.loads((DATA / "lakes-50m.geojson").read_text(encoding="utf-8"))
    return valid(shape(feature["geometry"]))


def land_in(frame: Frame) -> shapely.Geometry:
    """The land in ``frame`` (lakes cut out), in frame units, simplified; specks dropped."""
    window = _window(frame)
    land = shapely.union_all([_project(p, window, frame) for p in _land_lonlat()])
    land = land.difference(_project(_lakes_lonlat(), window, frame))
    land = land.intersection(box(0, 0, frame.width, frame.height))
    land = shapely.simplify(land, SIMPLIFY, preserve_topology=True)
    return shapely.union_all([_without_specks(part) for part in polygons(land)])


def _window(frame: Frame) -> Polygon:
    """The longitudes and latitudes the frame shows, with a margin."""
    inverse = frame.projection.inverse
    edge = [(x, y) for x in range(0, frame.width + 1, 25) for y in (0, frame.height)]
    edge += [(x, y) for y in range(0, frame.height + 1, 25) for x in (0, frame.width)]
    lats, lons = zip(*(inverse(x, y) for x, y in edge), strict=True)
    margin = WINDOW_MARGIN
    return box(min(lons) - margin, min(lats) - margin, max(lons) + margin, max(lats) + margin)


def _project(geometry: shapely.Geometry, window: Polygon, frame: Frame) -> shapely.Geometry:
    """The part of a lon/lat geometry inside ``window``, in frame units."""
    if not geometry.intersects(window):
        return Polygon()
    part = shapely.segmentize(geometry.intersection(window), SEGMENT)
    project = frame.projection

    def to_frame(lon_lat: np.ndarray) -> np.ndarray:
        return np.array([project(lat, lon) for lon, lat in lon_lat]).reshape(-1, 2)

    return valid(shapely.transform(part, to_frame))


def _without_specks(polygon: Polygon) -> Polygon:
    """The polygon less its holes under SPECK; empty if it is itself a speck."""
    if polygon.area < SPECK:
        return Polygon()
    holes = [ring for ring in polygon.interiors if Polygon(ring).area >= SPECK]
    return Polygon(polygon.exterior, holes)
