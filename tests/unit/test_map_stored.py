"""campaign/maps/stored.py: a scenario's built map read back as plain data, with no
geometry library; and the map modules the page or the build rely on stay that light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from campaign.maps.stored import AreaShape, BuiltMap, Label, built_map, map_file

ROOT = Path(__file__).resolve().parents[2]


def test_a_shipped_scenarios_map_is_read_with_every_area():
    built = built_map("pax-baltica-1700")
    assert isinstance(built, BuiltMap)
    assert (built.width, built.px_per_unit) == (1000, 0.8)
    assert len(built.areas) == 57 and built.land.startswith("M")
    narva = built.areas["narva"]
    assert isinstance(narva, AreaShape) and narva.key == "narva" and narva.d.startswith("M")
    assert isinstance(narva.label, Label) and narva.label.size >= 14
    assert len(narva.anchor) == 2
    assert all(len(link) == 2 for link in built.links)


def test_labels_keep_their_abbreviation_and_leader():
    path = ROOT / "rules" / "empires_in_arms" / "scenarios" / "eia-1805.map.json"
    stored = json.loads(path.read_text(encoding="utf-8"))["areas"]
    built = built_map("eia-1805")
    for key, area in stored.items():
        label = built.areas[key].label
        assert label.text == area["label"]["text"]
        assert label.leader == (tuple(area["label"]["leader"]) if area["label"]["leader"] else None)


def test_a_scenario_without_a_built_map_has_none():
    assert built_map("no-such-scenario") is None


def test_the_map_is_stored_beside_its_scenario():
    assert map_file(Path("rules/x/scenarios/eia-1805.json")) == Path(
        "rules/x/scenarios/eia-1805.map.json"
    )


def test_the_map_is_read_once_while_its_file_is_unchanged():
    assert built_map("virgin-queen-1559") is built_map("virgin-queen-1559")


@pytest.mark.parametrize(
    "module",
    [
        "campaign.maps.topojson",
        "campaign.maps.projection",
        "campaign.maps.labels",
        "campaign.maps.stored",
    ],
)
def test_the_pure_map_modules_load_no_geometry_library(module):
    code = f"import sys, {module}; print(sorted({{'shapely', 'numpy'}} & set(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert run.stdout.strip() == "[]"
