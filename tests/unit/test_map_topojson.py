"""campaign/maps/topojson.py: quantized, delta-encoded arcs decoded into rings of (lon, lat)."""

from __future__ import annotations

from campaign.maps.topojson import decode_arcs, polygons

# A 4 × 2 rectangle split into two squares by a shared middle arc, and a triangle; the
# arcs are delta-encoded positions on a grid of 0.5° east by 0.25° north from (10, 40).
TOPOLOGY = {
    "type": "Topology",
    "transform": {"scale": [0.5, 0.25], "translate": [10, 40]},
    "arcs": [
        [[4, 0], [0, 8]],  # 0: the middle, (12, 40) up to (12, 42)
        [[4, 8], [-4, 0], [0, -8], [4, 0]],  # 1: the left square's other sides
        [[4, 0], [4, 0], [0, 8], [-4, 0]],  # 2: the right square's other sides
        [[0, 0], [2, 0], [-2, 2], [0, -2]],  # 3: a triangle
    ],
    "objects": {
        "land": {
            "type": "GeometryCollection",
            "geometries": [
                {"type": "Polygon", "arcs": [[0, 1]]},
                {"type": "MultiPolygon", "arcs": [[[2, ~0]], [[3]]]},
                {"type": "Point", "coordinates": [1, 1]},
            ],
        }
    },
}


def test_arcs_are_summed_from_their_deltas_and_scaled_back_to_degrees():
    assert decode_arcs(TOPOLOGY)[0] == [(12.0, 40.0), (12.0, 42.0)]
    assert decode_arcs(TOPOLOGY)[3] == [(10.0, 40.0), (11.0, 40.0), (10.0, 40.5), (10.0, 40.0)]


def test_an_untransformed_topology_keeps_its_positions():
    topology = {"arcs": [[[1, 2], [3, 4]]], "objects": {}}
    assert decode_arcs(topology) == [[(1.0, 2.0), (3.0, 4.0)]]


def test_rings_are_stitched_from_arcs_a_negative_index_reading_its_arc_backwards():
    left, right, triangle = polygons(TOPOLOGY, "land")
    assert left == [[(12.0, 40.0), (12.0, 42.0), (10.0, 42.0), (10.0, 40.0), (12.0, 40.0)]]
    assert right == [[(12.0, 40.0), (14.0, 40.0), (14.0, 42.0), (12.0, 42.0), (12.0, 40.0)]]
    assert triangle == [[(10.0, 40.0), (11.0, 40.0), (10.0, 40.5), (10.0, 40.0)]]


def test_a_polygon_keeps_its_holes_after_its_outer_ring():
    topology = {
        "arcs": [
            [[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]],
            [[1, 1], [1, 2], [2, 2], [2, 1], [1, 1]],
        ],
        "objects": {"island": {"type": "Polygon", "arcs": [[0], [1]]}},
    }
    [(outer, hole)] = polygons(topology, "island")
    assert outer[0] == outer[-1] == (0.0, 0.0)
    assert hole == [(1.0, 1.0), (1.0, 2.0), (2.0, 2.0), (2.0, 1.0), (1.0, 1.0)]
