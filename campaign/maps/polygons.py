"""Small shapely helpers shared by the map's build modules."""

from __future__ import annotations

import shapely
from shapely.geometry import Polygon


def valid(geometry: shapely.Geometry) -> shapely.Geometry:
    """The geometry, repaired if it is invalid."""
    return geometry if geometry.is_valid else shapely.make_valid(geometry)


def polygons(geometry: shapely.Geometry) -> list[Polygon]:
    """The polygons of any geometry (empty parts, lines and points left out)."""
    if isinstance(geometry, Polygon):
        return [geometry] if not geometry.is_empty else []
    return [p for part in getattr(geometry, "geoms", []) for p in polygons(part)]
