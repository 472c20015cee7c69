"""Reading a built map: a scenario's (``<stem>.map.json`` beside its JSON file) or any
other document ``manage.py build_map`` (campaign.maps.build) wrote. Plain data for the
page: reading it needs no geometry library, nor Django."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rules.engine import registry

SUFFIX = ".map.json"


@dataclass(frozen=True)
class Label:
    """Where an area's label goes: the centre of its text (drawn with text-anchor middle
    and dominant-baseline central), its font size in map units, the abbreviation shown
    (None: the area's own name) and the leader line from the area's anchor to the label
    (x1, y1, x2, y2), if the label sits away from its area; ``counters``: the middle of
    the row of the area's counters, in the area (None in a map built before they had
    their own place: just below the name)."""

    x: float
    y: float
    size: float
    text: str | None
    leader: tuple[float, float, float, float] | None
    counters: tuple[float, float] | None = None


@dataclass(frozen=True)
class AreaShape:
    """An area's outline (SVG path data, fill-rule evenodd), where its label sits best
    (``anchor``) and its label."""

    key: str
    d: str
    anchor: tuple[float, float]
    label: Label


@dataclass(frozen=True)
class BuiltMap:
    """A scenario's map: its frame (``width`` × ``height`` units, drawn at
    ``px_per_unit`` on a desktop), the land as SVG path data, each area's shape, and the
    adjacencies drawn as lines (their shapes share no border)."""

    width: float
    height: float
    px_per_unit: float
    land: str
    areas: dict[str, AreaShape]
    links: tuple[tuple[str, str], ...]


def map_file(scenario_file: Path) -> Path:
    """Where the built map of a scenario file is stored: beside it."""
    return scenario_file.with_name(scenario_file.stem + SUFFIX)


def built_map(scenario_key: str) -> BuiltMap | None:
    """The built map of the shipped scenario ``scenario_key``, or None if it has none."""
    for ruleset in registry().values():
        path = map_file(ruleset.folder / "scenarios" / f"{scenario_key}.json")
        if path.is_file():
            return _read(path, path.stat().st_mtime_ns)
    return None


@lru_cache(maxsize=16)
def _read(path: Path, _mtime: int) -> BuiltMap:
    """The map stored at ``path`` (cached while the file is unchanged)."""
    return parsed(json.loads(path.read_text(encoding="utf-8")))


def parsed(data: dict) -> BuiltMap:
    """A built map's document (campaign/maps/build.py) as a BuiltMap."""
    return BuiltMap(
        width=data["width"],
        height=data["height"],
        px_per_unit=data["px_per_unit"],
        land=data["land"],
        areas={key: _area(key, area) for key, area in data["areas"].items()},
        links=tuple((a, b) for a, b in data["links"]),
    )


def _area(key: str, data: dict) -> AreaShape:
    label = data["label"]
    leader = tuple(label["leader"]) if label["leader"] else None
    counters = tuple(label["counters"]) if label.get("counters") else None
    return AreaShape(
        key=key,
        d=data["d"],
        anchor=tuple(data["anchor"]),
        label=Label(label["x"], label["y"], label["size"], label["text"], leader, counters),
    )
