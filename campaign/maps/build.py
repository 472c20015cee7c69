"""Building a scenario's map: a shape for every area cut from the coast, where its label
goes, and which adjacencies are drawn as lines, as the document stored beside the
scenario (``<stem>.map.json``; campaign.maps.stored reads it back).

Land areas share the land by a Voronoi diagram of their points, sea zones the sea
(campaign.maps.cells). Labels are placed by campaign.maps.labels.
"""

from __future__ import annotations

import json
import math

import shapely
from shapely.geometry import Point, box
from shapely.ops import polylabel

from campaign.maps import cells, coast, labels
from campaign.maps.paths import path_d
from campaign.maps.polygons import polygons
from campaign.maps.projection import Frame, far_off, fit

FORMAT = 1
PX_PER_UNIT = 0.8  # how the page draws the map on a desktop
SEA = "sea"  # the one kind of area that is not land
COAST_TOLERANCE = 3.0  # units: a land area's point this close to the coast is on it
SAME_POINT = 1.0  # units: two areas closer than this are at the same point
GROUND = 1.5  # units: the disc around a land area's point that is always its own
LAND_AROUND = 4.0  # units: the radius around a land area's point where it needs…
MIN_LAND = 3.0  # …at least this much land (units²)
PRECISION = 0.1  # units: coordinates are rounded to this
SNAP = 0.01  # units: a vertex this close to a neighbour's border is put on it
MIN_BORDER = 1.0  # units: two shapes with less border than this in common are not neighbours


class MapError(ValueError):
    """A scenario whose map cannot be built; ``problems`` name each area and why."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def build_map(scenario_key: str, scenario: dict) -> dict:
    """The map document of a scenario (its data as loaded from its JSON file)."""
    areas = {area["key"]: area for area in scenario["areas"]}
    frame = _frame(areas)
    points = _points(areas, frame)
    land = coast.land_in(frame)
    land = _rounded(_with_coastal_points(land, points, areas))
    shapes = _shapes(land, points, areas, frame)
    placed = _labels(areas, shapes, points, frame, land)
    return {
        "format": FORMAT,
        "scenario": scenario_key,
        "source": coast.SOURCE,
        "projection": frame.projection.as_json(),
        "width": frame.width,
        "height": frame.height,
        "px_per_unit": PX_PER_UNIT,
        "land": path_d(land),
        "areas": {
            key: {
                "d": path_d(shapes[key]),
                "anchor": list(placed[key].anchor),
                "label": placed[key].as_json(),
            }
            for key in areas
        },
        "links": _links(scenario.get("adjacency", []), shapes),
    }


def dumps(document: dict) -> str:
    """The stored text of a map document: compact JSON, keys sorted."""
    return json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def _frame(areas: dict[str, dict]) -> Frame:
    """The frame fitted to the areas' points; MapError for missing or far-off ones."""
    problems = [
        f"{_name(area)} has no coordinates (its 'lat' and 'lon' must be numbers)"
        for area in areas.values()
        if not all(_is_number(area.get(c)) for c in ("lat", "lon"))
    ]
    problems += [
        f"{_name(area)} has coordinates off the globe (lat {area['lat']}, lon {area['lon']})"
        for area in areas.values()
        if not problems and not (-90 <= area["lat"] <= 90 and -180 <= area["lon"] <= 180)
    ]
    if problems:
        raise MapError(problems)
    lat_lon = {key: (area["lat"], area["lon"]) for key, area in areas.items()}
    far = far_off(lat_lon)
    if far:
        raise MapError(
            [
                f"{_name(areas[key])} is outside the map's frame: at lat {areas[key]['lat']}, "
                f"lon {areas[key]['lon']} it is {round(d)}° from the other areas "
                "(latitude and longitude swapped?)"
                for key, d in far.items()
            ]
        )
    return fit(list(lat_lon.values()))


def _points(areas: dict[str, dict], frame: Frame) -> dict[str, Point]:
    """Each area's point in the frame; MapError if two are at the same point."""
    points = {key: Point(frame.projection(a["lat"], a["lon"])) for key, a in areas.items()}
    keys = list(points)
    problems = [
        f"{_name(areas[b])} is at the same point as {_name(areas[a])}"
        for i, a in enumerate(keys)
        for b in keys[i + 1 :]
        if points[a].distance(points[b]) < SAME_POINT
    ]
    if problems:
        raise MapError(problems)
    return points


def _with_coastal_points(land, points: dict[str, Point], areas: dict[str, dict]):
    """The land, widened to take in each land area's point (a town on the coast may lie
    just off the simplified coastline), and with a small disc of ground around it;
    MapError for land areas in the sea and sea zones on land."""
    problems, ground = [], []
    for key, point in points.items():
        distance = land.distance(point)
        around = land.intersection(point.buffer(LAND_AROUND)).area
        if areas[key]["kind"] == SEA:
            if distance == 0:
                problems.append(f"{_name(areas[key])} is a sea zone but its point is on land")
        elif distance > COAST_TOLERANCE:
            problems.append(
                f"{_name(areas[key])} is a land area but its point is in the sea, "
                f"{distance:.0f} units off the coast"
            )
        elif around < MIN_LAND:
            problems.append(
                f"{_name(areas[key])} has no land around its point (only {around:.1f} units² "
                f"within {LAND_AROUND:.0f} units)"
            )
        else:
            reach = shapely.shortest_line(point, land) if distance else point
            ground.append(reach.buffer(GROUND, quad_segs=4))
    if problems:
        raise MapError(problems)
    return shapely.union_all([land, *ground])


def _shapes(land, points, areas, frame: Frame) -> dict:
    """Each area's shape, rounded to PRECISION."""
    sea = _sea(land, frame)
    on_land = {key: p for key, p in points.items() if areas[key]["kind"] != SEA}
    at_sea = {key: p for key, p in points.items() if areas[key]["kind"] == SEA}
    shapes = cells.divide(land, on_land, claim_unmarked=True)
    if at_sea:
        shapes |= cells.divide(sea, at_sea, claim_unmarked=False)
    shapes = _with_shared_vertices(shapes)
    return {key: _rounded(shapes[key]) for key in areas}


def _with_shared_vertices(shapes: dict) -> dict:
    """Each shape snapped to its neighbours, so that a border two shapes share has the
    same vertices in both (computed apart, they may differ by a rounding error) and
    rounding moves it alike in both."""
    keys = list(shapes)
    tree = shapely.STRtree([shapes[key] for key in keys])
    snapped = {}
    for key, shape in shapes.items():
        near = [shapes[keys[i]] for i in tree.query(shape.buffer(SNAP)) if keys[i] != key]
        snapped[key] = shapely.snap(shape, shapely.union_all(near), SNAP) if near else shape
    return snapped


def _rounded(shape):
    """The shape with every coordinate rounded to PRECISION: a vertex two shapes share
    moves alike in both (snap-rounding each shape on its own would not)."""
    return shapely.transform(shape, lambda xy: (xy / PRECISION).round() * PRECISION)


def _labels(areas, shapes, points, frame: Frame, land) -> dict[str, labels.Placed]:
    """Each area's label, in its area or led away to the sea (or to its own ground), its
    counters in the area; MapError naming the areas whose label fits nowhere."""
    to_place = [
        labels.Area(key, area["name"], _anchor(shapes[key], points[key]))
        for key, area in areas.items()
    ]
    inside = {key: _contains_test(shape) for key, shape in shapes.items()}
    at_sea = _contains_test(_sea(land, frame))
    ground = {
        key: at_sea if area["kind"] == SEA else _either(inside[key], at_sea)
        for key, area in areas.items()
    }
    try:
        return labels.place(to_place, frame.width, frame.height, inside, ground)
    except labels.NoRoom as exc:
        problems = [f"{_name(areas[key])} has no room for its label" for key in exc.keys]
        raise MapError(problems) from None


def _sea(land, frame: Frame):
    return box(0, 0, frame.width, frame.height).difference(land)


def _own_part(shape, point: Point):
    """The polygon of the shape that holds its point (empty if none does)."""
    return next((p for p in polygons(shape) if p.covers(point)), shapely.Polygon())


def _anchor(shape, point: Point) -> tuple[float, float]:
    """Where a label sits best: the pole of inaccessibility of the part holding the point."""
    part = _own_part(shape, point)
    if part.is_empty:
        return round(point.x, 1), round(point.y, 1)
    pole = polylabel(part, tolerance=0.5)
    return round(pole.x, 1), round(pole.y, 1)


def _either(a, b):
    return lambda x, y: a(x, y) or b(x, y)


def _contains_test(shape):
    shapely.prepare(shape)
    return lambda x, y: bool(shapely.intersects_xy(shape, x, y))


def _links(adjacency: list, shapes: dict) -> list[list[str]]:
    """The adjacencies whose two shapes share (almost) no border: drawn as lines."""
    links = []
    for a, b, *_ in adjacency:
        border = shapes[a].boundary.intersection(shapes[b].buffer(PRECISION)).length
        if border < MIN_BORDER:
            links.append(sorted((a, b)))
    return sorted(links)


def _name(area: dict) -> str:
    return f"{area.get('key')!r} ({area.get('name')})"


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
