"""Dividing a region (the land, or the sea) among areas' points.

Each piece of the region (a landmass, a body of water) is shared by a Voronoi diagram of
the points on it, so that an island's area does not take the facing coast and a coast
does not take an island that has its own area. A cell takes all of its piece's part that
is nearer its point than any other, to the map's frame: an area at the edge is cut by the
frame, never rounded by a disc. A piece with no point on it goes whole to the nearest
point if it lies within a disc round that point (DISC_FACTOR; a small island to the area
across the strait) when ``claim_unmarked`` is set, and stays unassigned otherwise (a lake
is not a sea zone). A part of a cell cut off from its point on the same piece (the far
shore of a bay) is handed to the area it shares the longest border with, or left out if
it touches none.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.ops import voronoi_diagram

from campaign.maps.polygons import polygons

DISC_FACTOR = 2.5  # a point's reach for an island without a point: this many times the
# median nearest-neighbour distance
DISC_SEGMENTS = 16  # per quarter circle
MIN_SHARED_BORDER = 1.0  # units: shorter contact does not make a cut-off part a neighbour's
TOUCHING = 0.01  # units: shapes this close touch


def disc_radius(points: dict[str, Point]) -> float:
    """DISC_FACTOR times the median distance from a point to its nearest neighbour (of two
    points or more)."""
    nearest = [min(p.distance(q) for q in points.values() if q is not p) for p in points.values()]
    return DISC_FACTOR * statistics.median(nearest)


def divide(
    region: shapely.Geometry, points: dict[str, Point], *, claim_unmarked: bool
) -> dict[str, shapely.Geometry]:
    """Each point's share of ``region`` (empty when it has none), keyed as ``points``."""
    envelope = box(*region.union(MultiPoint(list(points.values()))).bounds).buffer(1)
    radius = disc_radius(points) if len(points) > 1 else envelope.length
    reach = {key: point.buffer(radius, quad_segs=DISC_SEGMENTS) for key, point in points.items()}
    shares: dict[str, list[Polygon]] = defaultdict(list)
    cut_off: list[Polygon] = []
    for piece in polygons(region):
        on_piece = {key: p for key, p in points.items() if piece.covers(p)}
        if not on_piece:
            nearest = min(points, key=lambda key: (points[key].distance(piece), key))
            if claim_unmarked and reach[nearest].covers(piece):
                shares[nearest].append(piece)
            continue
        for key, cell in voronoi_cells(on_piece, envelope).items():
            for part in polygons(piece.intersection(cell)):
                (shares[key] if part.covers(points[key]) else cut_off).append(part)
    shapes = {key: shapely.union_all(shares[key]) for key in points}
    _hand_over(cut_off, shapes)
    return shapes


def voronoi_cells(points: dict[str, Point], envelope: Polygon) -> dict[str, Polygon]:
    """Each point's Voronoi cell, within ``envelope``."""
    if len(points) == 1:
        return {key: envelope for key in points}
    diagram = voronoi_diagram(MultiPoint(list(points.values())), envelope=envelope)
    cells = list(diagram.geoms)
    return {
        key: next(cell for cell in cells if cell.covers(point)).intersection(envelope)
        for key, point in points.items()
    }


def _hand_over(cut_off: list[Polygon], shapes: dict[str, shapely.Geometry]) -> None:
    """Give each cut-off part to the shape it shares the longest border with, until none
    is left that touches a shape."""
    pending = sorted(cut_off, key=lambda part: (-part.area, part.bounds))
    while pending:
        left = []
        for part in pending:
            border, key = max((_shared_border(part, shape), key) for key, shape in shapes.items())
            if border >= MIN_SHARED_BORDER:
                shapes[key] = shapely.union_all([shapes[key], part])
            else:
                left.append(part)
        if len(left) == len(pending):
            return
        pending = left


def _shared_border(part: Polygon, shape: shapely.Geometry) -> float:
    if shape.is_empty or part.distance(shape) > TOUCHING:
        return 0.0
    return shape.boundary.intersection(part.buffer(TOUCHING)).length
