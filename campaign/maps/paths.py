"""SVG path data of polygons: ``M x y L x y … Z`` per ring, holes included (drawn with
fill-rule evenodd), coordinates to one decimal."""

from __future__ import annotations

import shapely

from campaign.maps.polygons import polygons


def path_d(geometry: shapely.Geometry) -> str:
    """The path data of every ring of the geometry's polygons."""
    rings = [
        ring for polygon in polygons(geometry) for ring in (polygon.exterior, *polygon.interiors)
    ]
    return "".join(_ring_d(ring.coords) for ring in rings)


def _ring_d(coords) -> str:
    points = []
    for x, y in coords:
        point = (_number(x), _number(y))
        if not points or point != points[-1]:
            points.append(point)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    if len(points) < 3:
        return ""
    (x0, y0), rest = points[0], points[1:]
    return f"M{x0} {y0}L" + " ".join(f"{x} {y}" for x, y in rest) + "Z"


def _number(value: float) -> str:
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text
