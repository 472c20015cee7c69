"""A small TopoJSON reader: a topology's quantized, delta-encoded arcs decoded into
polygons, each a list of rings of (lon, lat), the first ring the outer one."""

from __future__ import annotations

Point = tuple[float, float]
Ring = list[Point]
Polygon = list[Ring]


def decode_arcs(topology: dict) -> list[list[Point]]:
    """Every arc of the topology as absolute positions (dequantized if it has a transform)."""
    transform = topology.get("transform")
    if transform is None:
        return [[(float(x), float(y)) for x, y, *_ in arc] for arc in topology["arcs"]]
    (sx, sy), (tx, ty) = transform["scale"], transform["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy, *_ in arc:
            x, y = x + dx, y + dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def polygons(topology: dict, name: str) -> list[Polygon]:
    """The polygons of the topology's object ``name`` (Polygon, MultiPolygon, or a
    GeometryCollection of them)."""
    arcs = decode_arcs(topology)
    return [
        [_ring(arcs, indexes) for indexes in rings]
        for rings in _polygon_arcs(topology["objects"][name])
    ]


def _polygon_arcs(geometry: dict) -> list[list[list[int]]]:
    """Each polygon of the geometry as its rings' arc indexes."""
    kind = geometry["type"]
    if kind == "GeometryCollection":
        return [p for child in geometry["geometries"] for p in _polygon_arcs(child)]
    if kind == "Polygon":
        return [geometry["arcs"]]
    if kind == "MultiPolygon":
        return list(geometry["arcs"])
    return []


def _ring(arcs: list[list[Point]], indexes: list[int]) -> Ring:
    """A ring stitched from arcs; index ~i is arc i reversed. Each arc after the first
    starts where the previous one ended, so its first point is dropped."""
    ring: Ring = []
    for index in indexes:
        arc = arcs[index] if index >= 0 else arcs[~index][::-1]
        ring.extend(arc if not ring else arc[1:])
    return ring
