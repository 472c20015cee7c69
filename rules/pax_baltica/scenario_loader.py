"""The Pax Baltica section of a scenario file (see campaign/play/scenarios.py for the rest)::

    "pax_baltica": {
      "confidence"?: {"<part>": "…"},
      "nations": {"<power>": {"side": "sweden" | "coalition", "rp_level"?: n | null,
                              "deployment"?: ["<territory>"], "fleet_ports"?: ["<port>"]}},
      "territories"?: {"<territory>": {"forage_points"?: n, "port"?: bool,
                                       "transit"?: bool, "in_poland"?: bool,
                                       "garrison"?: n}},
      "blocks"?: [{"nation", "kind": "army" | "regiment" | "fleet", "name",
                   "strength", "max_strength", "rating"?: "C1", "supply_trains"?: n,
                   "location": "<area>" | null,            # null: in the pool
                   "red_dot"?: bool, "places"?: ["<territory>"], "galley"?: bool,
                   "nationality"?: "Polish"}],          # when not the nation's own
      "actions"?: {"sweden": n, "coalition": n}             # each season; Sweden acts first
    }

Land territories are areas of kind "territory", sea zones areas of kind "sea"; a sea
link is an adjacency of kind "sea". Every power needs a nation entry.
"""

from __future__ import annotations

from rules.pax_baltica.edits import RATING
from rules.pax_baltica.models import Block, PbNation, PbSide, PbTerritory
from rules.pax_baltica.state import FLEET, KINDS, SEA, SIDES, TERRITORY

SECTION = "pax_baltica"


def validate(data: dict) -> list[str]:
    """Problems in the section: unknown nations, areas, sides, kinds or impossible blocks."""
    section = data.get(SECTION, {})
    powers = {p["key"] for p in data["powers"]}
    kinds = {a["key"]: a["kind"] for a in data["areas"]}
    problems = []
    for area, kind in kinds.items():
        if kind not in (TERRITORY, SEA):
            problems.append(f"areas: {area!r} is a {kind!r}, not a territory or a sea zone")
    nations = section.get("nations", {})
    for power in powers - set(nations):
        problems.append(f"{SECTION}.nations: {power!r} has no side")
    for power, nation in nations.items():
        if power not in powers:
            problems.append(f"{SECTION}.nations: unknown power {power!r}")
        if nation.get("side") not in SIDES:
            problems.append(f"{SECTION}.nations.{power}: side must be sweden or coalition")
        for key in [*nation.get("deployment", []), *nation.get("fleet_ports", [])]:
            if kinds.get(key) != TERRITORY:
                problems.append(f"{SECTION}.nations.{power}: {key!r} is not a territory")
    ports = {k for k, t in section.get("territories", {}).items() if t.get("port")}
    for power, nation in nations.items():
        for key in set(nation.get("fleet_ports", [])) - ports:
            problems.append(f"{SECTION}.nations.{power}: {key!r} has no port")
    for key in section.get("territories", {}):
        if kinds.get(key) != TERRITORY:
            problems.append(f"{SECTION}.territories: {key!r} is not a territory")
    names = set()
    for block in section.get("blocks", []):
        problems += _block_problems(block, powers, kinds, ports)
        if block.get("name") in names:
            problems.append(f"{SECTION}.blocks: two blocks are named {block.get('name')!r}")
        names.add(block.get("name"))
    for side in section.get("actions", {}):
        if side not in SIDES:
            problems.append(f"{SECTION}.actions: unknown side {side!r}")
    return problems


def _block_problems(block: dict, powers: set, kinds: dict, ports: set) -> list[str]:
    where = f"{SECTION}.blocks.{block.get('name')!r}"
    problems = []
    if block.get("nation") not in powers:
        problems.append(f"{where}: unknown nation {block.get('nation')!r}")
    if block.get("kind") not in KINDS:
        problems.append(f"{where}: kind must be army, regiment or fleet")
    strength, top = block.get("strength"), block.get("max_strength")
    if not (isinstance(top, int) and isinstance(strength, int) and 1 <= strength <= top):
        problems.append(f"{where}: strength must be 1 to max_strength")
    if not RATING.fullmatch(block.get("rating", "C1")):
        problems.append(f"{where}: rating must be like C1")
    location = block.get("location")
    if location is not None:
        kind = kinds.get(location)
        if kind is None:
            problems.append(f"{where}: unknown location {location!r}")
        elif block.get("kind") == FLEET and kind == TERRITORY and location not in ports:
            problems.append(f"{where}: a fleet must be in a port or a sea zone")
        elif block.get("kind") != FLEET and kind == SEA:
            problems.append(f"{where}: an army or regiment cannot start at sea")
    return problems


def load_extras(campaign, data: dict, powers_by_key: dict, areas_by_key: dict) -> None:
    """Create the Pax Baltica state of a new campaign (bulk, a query per table)."""
    section = data.get(SECTION, {})
    nations = section.get("nations", {})
    PbNation.objects.bulk_create(
        [
            PbNation(
                power=power,
                side=nations[key]["side"],
                rp_level=nations[key].get("rp_level"),
                deployment=nations[key].get("deployment", []),
                fleet_ports=nations[key].get("fleet_ports", []),
            )
            for key, power in powers_by_key.items()
        ]
    )
    territories = section.get("territories", {})
    PbTerritory.objects.bulk_create(
        [
            PbTerritory(area=area, **_territory_fields(territories.get(key, {})))
            for key, area in areas_by_key.items()
            if area.kind == TERRITORY
        ]
    )
    actions = section.get("actions", {})
    PbSide.objects.bulk_create(
        [
            PbSide(
                campaign=campaign,
                key=side,
                sort=sort,
                actions=actions.get(side, 0),
                actions_per_season=actions.get(side, 0),
            )
            for sort, side in enumerate(SIDES)
        ]
    )
    Block.objects.bulk_create(
        [
            Block(
                campaign=campaign,
                power=powers_by_key[b["nation"]],
                kind=b["kind"],
                name=b["name"],
                strength=b["strength"],
                max_strength=b["max_strength"],
                rating=b.get("rating", "C1"),
                supply_trains=b.get("supply_trains", 0),
                location=areas_by_key.get(b.get("location")),
                red_dot=b.get("red_dot", False),
                places=b.get("places", []),
                galley=b.get("galley", False),
                nationality=b.get("nationality", ""),
            )
            for b in section.get("blocks", [])
        ]
    )


def _territory_fields(values: dict) -> dict:
    fields = ("forage_points", "port", "transit", "in_poland", "garrison")
    return {name: values[name] for name in fields if name in values}
