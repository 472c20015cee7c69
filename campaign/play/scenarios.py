"""Scenarios: the JSON files a campaign starts from, and the service that creates one.

A scenario is sample data the GM may edit. Shipped scenarios are
``<ruleset package>/scenarios/<key>.json``; the key is the file's stem (``<key>.map.json``
beside it is its built map: campaign.maps). Every ruleset's
scenarios share this top-level shape (``?`` marks optional keys, which take the model
defaults)::

    {
      "ruleset": "<ruleset key>",             # a key of the ruleset registry
      "name": "…", "description"?: "…",
      "notes"?: ["…"],                         # what is sourced, what is a stand-in
      "confidence"?: {"<section>": "…"},       # per section: sourced, approximation, sample
      "sources"?: {"<source key>": "<where>"},
      "setup"?: {…},                           # Campaign.setup: the ruleset's constants
      "powers": [{"key", "name", "color"?, "sort"?}],
      "areas": [{"key", "name", "kind", "lat", "lon", "home_power"?, "controller"?,
                 "capital"?, "note"?}],
      "adjacency"?: [["<area>", "<area>", "<kind>"?]],   # land (default), pass, strait, sea
      "relations"?: [["<power>", "<power>", "war" | "alliance"]],
      "<ruleset key>"?: {…}                    # the ruleset's own section
    }

An area's controller defaults to its home power; ``"controller": null`` is a neutral
area. Latitude and longitude are projected onto the map's 1000 × 700 SVG box. Each
adjacency and relation is stored once per pair.

A ruleset reads its own section in its package's ``scenario_loader``, which may
define ``validate(data) -> list[str]`` (the problems in its section) and
``load_extras(campaign, data, powers_by_key, areas_by_key)`` (creates its state); a
power or an area may carry more keys, which its ruleset reads there.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from campaign.errors import ServiceError
from campaign.models import Adjacency, Area, Campaign, Power, PowerRelation, Seat
from campaign.play.services import start_campaign
from rules.engine import registry
from rules.translation import Name

MAP_WIDTH, MAP_HEIGHT, MAP_MARGIN = 1000, 700, 30
POWER_FIELDS = ("key", "name", "color", "sort")
AREA_FIELDS = ("key", "name", "kind", "capital")
SLUG = re.compile(r"[-a-zA-Z0-9_]+")


class ScenarioError(ServiceError):
    """A scenario that cannot be loaded; the message says what is wrong and where."""


@dataclass(frozen=True)
class ScenarioInfo:
    key: str
    name: str
    ruleset: str
    description: str
    path: Path


def _shipped_paths() -> dict[str, Path]:
    """Each installed ruleset's scenarios (its package's scenarios/*.json, less the built
    maps *.map.json) by key."""
    paths = [
        p
        for r in registry().values()
        for p in (r.folder / "scenarios").glob("*.json")
        if not p.name.endswith(".map.json")
    ]
    return {path.stem: path for path in sorted(paths)}


def available_scenarios() -> list[ScenarioInfo]:
    """Every shipped scenario, checked, by ruleset then key."""
    infos = []
    for key, path in _shipped_paths().items():
        data = load_scenario_file(path)
        infos.append(
            ScenarioInfo(
                key,
                Name(data["name"]),
                data["ruleset"],
                Name(data.get("description", "")),
                path,
            )
        )
    return infos


def scenario_name(key: str) -> str:
    """The name of the scenario ``key`` as people read it, or the key itself for a
    scenario that is not shipped (a file the GM loaded)."""
    return _shipped_names().get(key, key)


@cache
def _shipped_names() -> dict[str, str]:
    """The shipped scenarios' names by key (the files do not change while the site runs)."""
    return {info.key: info.name for info in available_scenarios()}


def shipped_scenario(key: str) -> dict:
    """The checked data of the shipped scenario ``key``."""
    paths = _shipped_paths()
    if key not in paths:
        raise ScenarioError(f"No scenario {key!r}; shipped: {', '.join(paths) or 'none'}.")
    return load_scenario_file(paths[key])


def load_scenario_file(path: str | Path) -> dict:
    """Read and check a scenario file; ScenarioError lists every problem found."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot be read ({exc.strerror}).") from exc
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path.name}: not valid JSON ({exc}).") from exc
    problems = scenario_problems(data)
    if problems:
        raise ScenarioError(f"{path.name}: " + "; ".join(problems) + ".")
    return data


def scenario_problems(data: object) -> list[str]:
    """What is wrong with scenario data: missing or unknown keys, dangling references,
    duplicates. Empty when the scenario can be loaded."""
    if not isinstance(data, dict):
        return ["the top level must be a JSON object"]
    problems = []
    if data.get("ruleset") not in registry():
        problems.append(f"unknown ruleset {data.get('ruleset')!r}")
    if not isinstance(data.get("name"), str):
        problems.append("'name' must be a string")
    if not isinstance(data.get("setup", {}), dict):
        problems.append("'setup' must be an object")
    powers = _keyed(data, "powers", Power, ("key", "name"), problems)
    areas = _keyed(data, "areas", Area, ("key", "name", "kind"), problems)
    for key, power in powers.items():
        _check_int(power, "sort", f"power {key!r}", problems, minimum=0)
    for key, area in areas.items():
        for field in ("home_power", "controller"):
            if area.get(field) is not None and area[field] not in powers:
                problems.append(f"area {key!r}: unknown {field} {area[field]!r}")
        if not all(_is_number(area.get(c)) for c in ("lat", "lon")):
            problems.append(f"area {key!r}: 'lat' and 'lon' must be numbers")
    _check_pairs(data, "adjacency", areas, "area", Adjacency.Kind.values, "land", problems)
    _check_pairs(data, "relations", powers, "power", PowerRelation.Kind.values, None, problems)
    hooks = registry()[data["ruleset"]].hooks.scenario if not problems else None
    if hooks is not None:
        try:
            problems += hooks.validate(data)
        except (AttributeError, TypeError, ValueError) as exc:
            problems.append(f"the {data['ruleset']!r} section is malformed ({exc})")
    return problems


def _keyed(data: dict, section: str, model, required: tuple[str, ...], problems: list) -> dict:
    """The section's entries by key; problems for missing fields, bad or duplicate keys."""
    items = data.get(section)
    if not isinstance(items, list) or not items:
        problems.append(f"'{section}' must be a non-empty list")
        return {}
    longest = model._meta.get_field("key").max_length
    by_key = {}
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not all(isinstance(item.get(f), str) for f in required):
            problems.append(f"{section}[{index}] needs the text fields {', '.join(required)}")
        elif not SLUG.fullmatch(item["key"]) or len(item["key"]) > longest:
            problems.append(
                f"{section}: key {item['key']!r} must be at most {longest} letters, digits, "
                "'_' or '-'"
            )
        elif item["key"] in by_key:
            problems.append(f"{section}: duplicate key {item['key']!r}")
        else:
            by_key[item["key"]] = item
    return by_key


def _check_pairs(
    data: dict,
    section: str,
    known: dict,
    noun: str,
    kinds: list[str],
    default_kind: str | None,
    problems: list,
) -> None:
    """Pairs ``[x, y, kind]`` must name two different known entries, once per pair."""
    seen = set()
    for index, entry in enumerate(data.get(section, [])):
        parts = (
            list(entry) + [default_kind] if isinstance(entry, list) and len(entry) == 2 else entry
        )
        if not (isinstance(parts, list) and len(parts) == 3 and parts[2] in kinds):
            problems.append(
                f"{section}[{index}] {entry!r}: expected [{noun}, {noun}, kind] with kind "
                f"one of {', '.join(kinds)}"
            )
            continue
        a, b, _ = parts
        unknown = [x for x in (a, b) if x not in known]
        pair = frozenset((a, b))
        if unknown:
            problems.append(f"{section}[{index}] {entry!r}: unknown {noun} {unknown[0]!r}")
        elif a == b:
            problems.append(f"{section}[{index}] {entry!r}: links {a!r} to itself")
        elif pair in seen:
            problems.append(f"{section}: {a!r} and {b!r} are listed twice")
        seen.add(pair)


def _is_number(value: object, kind: type | tuple = (int, float)) -> bool:
    return isinstance(value, kind) and not isinstance(value, bool)


def _check_int(item: dict, field: str, where: str, problems: list, minimum: int | None) -> None:
    """A problem unless ``item``'s ``field`` (0 when absent) is a whole number ≥ ``minimum``."""
    value = item.get(field, 0)
    if not _is_number(value, int) or (minimum is not None and value < minimum):
        floor = f" of at least {minimum}" if minimum is not None else ""
        problems.append(f"{where}: {field!r} must be a whole number{floor}")


@dataclass(frozen=True)
class Projection:
    """Latitude/longitude to an area's x, y (Area.x, Area.y) and back: equirectangular at
    the middle latitude of a scenario's ``coordinates``, north up, scaled to fit the box
    with a margin and centred."""

    west: float
    north: float
    squeeze: float
    scale: float
    left: float
    top: float

    @classmethod
    def of(cls, coordinates: dict[str, tuple[float, float]]) -> Projection:
        lats = [lat for lat, _ in coordinates.values()]
        lons = [lon for _, lon in coordinates.values()]
        squeeze = math.cos(math.radians((min(lats) + max(lats)) / 2))
        width = (max(lons) - min(lons)) * squeeze or 1
        height = (max(lats) - min(lats)) or 1
        scale = min((MAP_WIDTH - 2 * MAP_MARGIN) / width, (MAP_HEIGHT - 2 * MAP_MARGIN) / height)
        left, top = (MAP_WIDTH - width * scale) / 2, (MAP_HEIGHT - height * scale) / 2
        return cls(min(lons), max(lats), squeeze, scale, left, top)

    def point(self, lat: float, lon: float) -> tuple[float, float]:
        return (
            round(self.left + (lon - self.west) * self.squeeze * self.scale, 1),
            round(self.top + (self.north - lat) * self.scale, 1),
        )

    def coordinates(self, x: float, y: float) -> tuple[float, float]:
        """The latitude and longitude of a point of the box (a GM-moved area's)."""
        lon = self.west + (x - self.left) / (self.squeeze * self.scale)
        return (round(self.north - (y - self.top) / self.scale, 4), round(lon, 4))


def project(coordinates: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Latitude/longitude to x, y on the SVG map (Projection)."""
    projection = Projection.of(coordinates)
    return {key: projection.point(lat, lon) for key, (lat, lon) in coordinates.items()}


@transaction.atomic
def create_campaign(
    *,
    scenario_key: str,
    name: str,
    gm,
    options: dict | None = None,
    dice_mode: str = Campaign.DiceMode.SEEDED,
    data: dict | None = None,
    deadline_hours: dict | None = None,
    start_when: str | None = None,
) -> Campaign:
    """Create a campaign from a scenario, seat ``gm`` as its GM, open one player seat per
    power and open the first phase, all in one transaction and a fixed number of queries.

    ``data`` is a scenario already loaded with load_scenario_file (a file that is not
    shipped); by default the shipped scenario ``scenario_key`` is loaded.
    ``deadline_hours``: the default deadline of each phase kind (scheduling.pace_hours).
    ``start_when`` (Campaign.StartWhen): the campaign waits to start until the GM says so
    or every seat is taken, and meanwhile no phase resolves by itself nor has a deadline
    (campaign/play/lifecycle.py); None: it starts as it is created (a script's campaign).
    """
    if start_when is not None and start_when not in Campaign.StartWhen.values:
        raise ServiceError(
            gettext("There is no such way to start a campaign: %(given)s.") % {"given": start_when}
        )
    if data is None:
        data = shipped_scenario(scenario_key)
    campaign = Campaign.objects.create(
        name=name,
        ruleset=data["ruleset"],
        scenario=scenario_key,
        setup=data.get("setup", {}),
        options=options or {},
        dice_mode=dice_mode,
        created_by=gm,
        deadline_hours=deadline_hours or {},
        start_when=start_when or Campaign.StartWhen.GM,
        started_at=None if start_when is not None else timezone.now(),
    )
    powers = Power.objects.bulk_create(
        [Power(campaign=campaign, **_pick(p, POWER_FIELDS)) for p in data["powers"]]
    )
    powers_by_key = {p.key: p for p in powers}
    xy = project({a["key"]: (a["lat"], a["lon"]) for a in data["areas"]})
    areas = Area.objects.bulk_create(
        [
            Area(
                campaign=campaign,
                **_pick(a, AREA_FIELDS),
                home_power=powers_by_key.get(a.get("home_power")),
                controller=powers_by_key.get(a.get("controller", a.get("home_power"))),
                x=xy[a["key"]][0],
                y=xy[a["key"]][1],
            )
            for a in data["areas"]
        ]
    )
    areas_by_key = {a.key: a for a in areas}
    Adjacency.objects.bulk_create(
        [
            Adjacency(
                campaign=campaign,
                a=areas_by_key[a],
                b=areas_by_key[b],
                kind=kind[0] if kind else Adjacency.Kind.LAND,
            )
            for a, b, *kind in data.get("adjacency", [])
        ]
    )
    relations = []
    for x, y, kind in data.get("relations", []):
        a, b = sorted((powers_by_key[x], powers_by_key[y]), key=lambda p: p.pk)
        relations.append(PowerRelation(campaign=campaign, a=a, b=b, kind=kind))
    PowerRelation.objects.bulk_create(relations)
    Seat.objects.bulk_create(
        ([Seat(campaign=campaign, role=Seat.Role.GM, user=gm)] if gm is not None else [])
        + [Seat(campaign=campaign, role=Seat.Role.PLAYER, power=p) for p in powers]
    )
    hooks = campaign.rules.hooks.scenario
    if hooks is not None:
        hooks.load(campaign, data, powers_by_key, areas_by_key)
    start_campaign(campaign, actor=gm)
    campaign.refresh_from_db()
    return campaign


def _pick(item: dict, fields: tuple[str, ...]) -> dict:
    return {field: item[field] for field in fields if field in item}
