"""manage.py build_map: each shipped scenario's stored map is what a fresh build gives, its
shapes hold their areas' points without overlapping, its labels are readable and apart,
each area's counters in it and a label led away on no other area's land;
bad coordinates are refused, naming each area, and leave the stored map as it was."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path

import pytest
import shapely
from django.core.management import CommandError, call_command
from shapely.geometry import Point, Polygon

from campaign.maps.labels import SIZE, counters_box, text_box
from campaign.maps.projection import Projection
from campaign.maps.stored import map_file
from campaign.play.scenarios import available_scenarios

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {
    "eia-1805": ROOT / "rules" / "empires_in_arms" / "scenarios" / "eia-1805.json",
    "pax-baltica-1700": ROOT / "rules" / "pax_baltica" / "scenarios" / "pax-baltica-1700.json",
    "virgin-queen-1559": ROOT / "rules" / "virgin_queen" / "scenarios" / "virgin-queen-1559.json",
}
COUNTS = {"eia-1805": (106, 0), "pax-baltica-1700": (57, 8), "virgin-queen-1559": (50, 4)}


def shape_of(d: str) -> shapely.Geometry:
    """The area an SVG path of ``M x y L x y … Z`` rings fills (fill-rule evenodd)."""
    shape = Polygon()
    for ring in re.findall(r"M([^Z]*)Z", d):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", ring)]
        shape = shape.symmetric_difference(
            Polygon(list(zip(numbers[::2], numbers[1::2], strict=True)))
        )
    return shape


@pytest.fixture(scope="module", params=list(SCENARIOS))
def built(request):
    """A shipped scenario's data and its stored map."""
    path = SCENARIOS[request.param]
    return (
        json.loads(path.read_text(encoding="utf-8")),
        json.loads(map_file(path).read_text(encoding="utf-8")),
    )


@pytest.mark.long
def test_every_stored_map_is_what_a_fresh_build_gives(capsys):
    call_command("build_map", "--all", "--check")
    stored = [info for info in available_scenarios() if map_file(info.path).is_file()]
    assert set(SCENARIOS) <= {info.key for info in stored}  # the tests' toy's too
    assert capsys.readouterr().out.count("is up to date") == len(stored)


def test_the_map_has_every_area_in_the_stated_format(built):
    scenario, document = built
    sea = {a["key"] for a in scenario["areas"] if a["kind"] == "sea"}
    assert (len(document["areas"]), len(sea)) == COUNTS[document["scenario"]]
    assert set(document["areas"]) == {a["key"] for a in scenario["areas"]}
    assert document["format"] == 1 and document["width"] == 1000
    assert 560 <= document["height"] <= 900 and document["px_per_unit"] == 0.8
    assert document["projection"]["kind"] == "laea"
    assert document["land"].startswith("M")
    for area in document["areas"].values():
        assert set(area) == {"d", "anchor", "label"}
        assert set(area["label"]) == {"x", "y", "size", "text", "leader", "counters"}


def test_every_land_areas_shape_holds_its_point_and_no_two_shapes_overlap(built):
    scenario, document = built
    project = Projection(**{k: v for k, v in document["projection"].items() if k != "kind"})
    shapes = {key: shape_of(area["d"]) for key, area in document["areas"].items()}
    for area in scenario["areas"]:
        assert shapes[area["key"]].area > 0, area["key"]
        if area["kind"] != "sea":
            assert shapes[area["key"]].covers(Point(project(area["lat"], area["lon"])))
    for (a, first), (b, second) in itertools.combinations(shapes.items(), 2):
        assert first.intersection(second).area < 1, (a, b)  # a rounding sliver at most


def test_sea_zones_lie_off_the_land(built):
    scenario, document = built
    land = shape_of(document["land"])
    for area in scenario["areas"]:
        if area["kind"] == "sea":
            shape = shape_of(document["areas"][area["key"]]["d"])
            assert shape.intersection(land).area < 0.01 * shape.area, area["key"]


def test_labels_are_readable_in_the_frame_and_apart_from_each_other_and_the_badges(built):
    scenario, document = built
    names = {a["key"]: a["name"] for a in scenario["areas"]}
    boxes = []
    for key, area in document["areas"].items():
        label = area["label"]
        assert label["size"] >= SIZE
        box = text_box(label["x"], label["y"], label["text"] or names[key], label["size"])
        boxes += [box, counters_box(*label["counters"])]
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= document["width"]
        assert bottom <= document["height"]
    for a, b in itertools.combinations(boxes, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def test_counters_stay_in_their_area_and_names_led_away_on_no_other_area_s_land(built):
    _, document = built
    land = shape_of(document["land"])
    for key, area in document["areas"].items():
        label, shape = area["label"], shape_of(area["d"])
        assert shape.covers(Point(label["counters"])), key
        if label["leader"]:
            centre = Point(label["x"], label["y"])
            assert shape.covers(centre) or not land.covers(centre), key


def test_the_links_are_adjacencies_whose_shapes_share_no_border(built):
    scenario, document = built
    pairs = {tuple(sorted(pair[:2])) for pair in scenario["adjacency"]}
    assert all(tuple(link) in pairs for link in document["links"])
    for a, b in document["links"]:
        first, second = (shape_of(document["areas"][k]["d"]) for k in (a, b))
        assert first.boundary.intersection(second.buffer(0.1)).length < 1


def test_the_map_is_compact(built):
    scenario, _ = built
    path = SCENARIOS[
        next(
            k for k in SCENARIOS if json.loads(SCENARIOS[k].read_text())["name"] == scenario["name"]
        )
    ]
    assert map_file(path).stat().st_size < 150_000


def copied(tmp_path, key: str) -> tuple[Path, dict]:
    """A scenario and its stored map copied into tmp_path, and the scenario's data."""
    source = SCENARIOS[key]
    shutil.copy(source, tmp_path / source.name)
    shutil.copy(map_file(source), tmp_path / map_file(source).name)
    return tmp_path / source.name, json.loads(source.read_text(encoding="utf-8"))


def moved(data: dict, **where: tuple[float, float] | None) -> dict:
    """The scenario with the named areas at new (lat, lon), or without them if None."""
    for area in data["areas"]:
        if area["key"] in where:
            if where[area["key"]] is None:
                del area["lat"], area["lon"]
            else:
                area["lat"], area["lon"] = where[area["key"]]
    return data


@pytest.mark.parametrize(
    "key, where, expected",
    [
        ("virgin-queen-1559", {"paris": None}, [r"area 'paris': 'lat' and 'lon' must be numbers"]),
        (
            "virgin-queen-1559",
            {"rouen": (48.86, 2.35)},
            [r"'rouen' \(Rouen\) is at the same point as 'paris' \(Paris\)"],
        ),
        (
            "virgin-queen-1559",
            {"paris": (2.35, 48.86)},
            [r"'paris' \(Paris\) is outside the map's frame: at lat 2.35, lon 48.86"],
        ),
        (
            "virgin-queen-1559",
            {"paris": (45.0, -5.0), "lyon": (43.0, 6.0)},
            [
                r"'paris' \(Paris\) is a land area but its point is in the sea, \d+ units off",
                r"'lyon' \(Lyon\) is a land area but its point is in the sea",
            ],
        ),
        (
            "eia-1805",
            {"malta": (36.80, 11.99)},  # Pantelleria: an islet at this scale
            [r"'malta' \(Malta\) has no land around its point \(only [\d.]+ units²"],
        ),
        (
            "virgin-queen-1559",
            {"north_sea": (47.0, 3.0)},
            [r"'north_sea' \(North Sea\) is a sea zone but its point is on land"],
        ),
    ],
    ids=["missing", "duplicated", "outside-the-frame", "in-the-sea", "no-land", "sea-on-land"],
)
def test_bad_coordinates_are_refused_naming_each_area_and_the_stored_map_is_kept(
    tmp_path, key, where, expected
):
    path, data = copied(tmp_path, key)
    path.write_text(json.dumps(moved(data, **where)), encoding="utf-8")
    before = map_file(path).read_bytes()
    with pytest.raises(CommandError) as refused:
        call_command("build_map", str(path))
    for pattern in expected:
        assert re.search(pattern, str(refused.value)), str(refused.value)
    assert map_file(path).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([map_file(path).name, path.name])


@pytest.mark.long
def test_a_scenario_file_is_built_beside_itself(tmp_path, capsys):
    path, _ = copied(tmp_path, "virgin-queen-1559")
    map_file(path).unlink()
    call_command("build_map", str(path))
    assert map_file(path).read_bytes() == map_file(SCENARIOS["virgin-queen-1559"]).read_bytes()
    assert "Wrote" in capsys.readouterr().out


@pytest.mark.long
def test_check_fails_when_the_stored_map_differs(tmp_path):
    path, _ = copied(tmp_path, "virgin-queen-1559")
    map_file(path).write_text("{}\n", encoding="utf-8")
    with pytest.raises(CommandError, match="differs from a new build"):
        call_command("build_map", str(path), "--check")
    assert map_file(path).read_text(encoding="utf-8") == "{}\n"


@pytest.mark.parametrize(
    "args, message",
    [((), "Give one scenario"), (("no-such",), "No scenario 'no-such'"), (("x.json",), "No file")],
)
def test_the_command_says_what_it_needs(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("build_map", *args)
