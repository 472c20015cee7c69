"""The map's projection: spherical Lambert azimuthal equal-area, centred on a scenario's
areas and fitted to a frame 1000 units wide whose height follows the areas' extent.
y grows downwards, as in SVG."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

WIDTH = 1000
MIN_HEIGHT, MAX_HEIGHT = 560, 900
MARGIN = 45  # units kept around the outermost areas' points
OUTLIER_FACTOR = 4.0  # a point this many times farther than the median from the middle…
MIN_REACH = 10.0  # …and farther than this many degrees is off the map


@dataclass(frozen=True)
class Projection:
    """Lambert azimuthal equal-area about (lat0, lon0), scaled by ``scale`` units per
    earth radius; the centre lands at (x0, y0)."""

    lat0: float
    lon0: float
    scale: float = 1.0
    x0: float = 0.0
    y0: float = 0.0

    def unit(self, lat: float, lon: float) -> tuple[float, float]:
        """(lat, lon) on the unit sphere's projection plane, y north."""
        phi, dlam = math.radians(lat), math.radians(lon - self.lon0)
        phi0 = math.radians(self.lat0)
        cos_c = math.sin(phi0) * math.sin(phi) + math.cos(phi0) * math.cos(phi) * math.cos(dlam)
        k = math.sqrt(2 / max(1 + cos_c, 1e-12))
        x = k * math.cos(phi) * math.sin(dlam)
        y = k * (math.cos(phi0) * math.sin(phi) - math.sin(phi0) * math.cos(phi) * math.cos(dlam))
        return x, y

    def __call__(self, lat: float, lon: float) -> tuple[float, float]:
        """(lat, lon) in degrees to (x, y) in frame units."""
        x, y = self.unit(lat, lon)
        return self.x0 + self.scale * x, self.y0 - self.scale * y

    def inverse(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) in frame units back to (lat, lon) in degrees."""
        u, v = (x - self.x0) / self.scale, (self.y0 - y) / self.scale
        rho = math.hypot(u, v)
        if rho < 1e-12:
            return self.lat0, self.lon0
        c = 2 * math.asin(min(rho / 2, 1.0))
        phi0 = math.radians(self.lat0)
        lat = math.asin(math.cos(c) * math.sin(phi0) + v * math.sin(c) * math.cos(phi0) / rho)
        lon = math.atan2(
            u * math.sin(c), rho * math.cos(phi0) * math.cos(c) - v * math.sin(phi0) * math.sin(c)
        )
        return math.degrees(lat), self.lon0 + math.degrees(lon)

    def as_json(self) -> dict:
        return {
            "kind": "laea",
            "lat0": self.lat0,
            "lon0": self.lon0,
            "scale": self.scale,
            "x0": self.x0,
            "y0": self.y0,
        }


@dataclass(frozen=True)
class Frame:
    """The fitted projection and the frame it fills."""

    projection: Projection
    width: int
    height: int


def fit(points: list[tuple[float, float]]) -> Frame:
    """The projection centred on the mean of ``points`` (lat, lon), scaled so that the
    points plus the margin fit 1000 units across and at most MAX_HEIGHT down; the
    frame's height follows the points' extent (at least MIN_HEIGHT), and the middle of
    their extent is the frame's middle."""
    lat0 = round(sum(lat for lat, _ in points) / len(points), 4)
    lon0 = round(sum(lon for _, lon in points) / len(points), 4)
    centred = Projection(lat0, lon0)
    xs, ys = zip(*(centred.unit(lat, lon) for lat, lon in points), strict=True)
    span_x, span_y = max(xs) - min(xs) or 1e-9, max(ys) - min(ys) or 1e-9
    scale = min((WIDTH - 2 * MARGIN) / span_x, (MAX_HEIGHT - 2 * MARGIN) / span_y)
    height = round(min(max(span_y * scale + 2 * MARGIN, MIN_HEIGHT), MAX_HEIGHT))
    x0 = WIDTH / 2 - scale * (max(xs) + min(xs)) / 2
    y0 = height / 2 + scale * (max(ys) + min(ys)) / 2
    projection = Projection(lat0, lon0, round(scale, 4), round(x0, 4), round(y0, 4))
    return Frame(projection, WIDTH, height)


def arc_degrees(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The great-circle distance between two (lat, lon) points, in degrees."""
    (lat1, lon1), (lat2, lon2) = (map(math.radians, p) for p in (a, b))
    cos_arc = math.sin(lat1) * math.sin(lat2) + math.cos(lat1) * math.cos(lat2) * math.cos(
        lon1 - lon2
    )
    return math.degrees(math.acos(max(-1.0, min(1.0, cos_arc))))


def far_off(points: dict[str, tuple[float, float]]) -> dict[str, float]:
    """The points too far from the others to share their map (likely a typing slip, such
    as latitude and longitude swapped), with their distance in degrees from the middle
    (the median latitude and longitude): farther than OUTLIER_FACTOR times the median
    distance and than MIN_REACH."""
    middle = (
        statistics.median(lat for lat, _ in points.values()),
        statistics.median(lon for _, lon in points.values()),
    )
    distances = {key: arc_degrees(middle, point) for key, point in points.items()}
    reach = max(OUTLIER_FACTOR * statistics.median(distances.values()), MIN_REACH)
    return {key: d for key, d in distances.items() if d > reach}
