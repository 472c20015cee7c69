"""The Virgin Queen section of a scenario file (see campaign/play/scenarios.py for the rest)::

    "virgin_queen": {
      "confidence"?: {"<part>": "…"},
      "catholic_powers": ["<power>"],          # their regulars and naval units are Catholic
      "struggle_zones": {"<zone>": "<name>"},  # "france" and "netherlands" host revolts
      "spaces": {"<space>": {"zone"?: "<zone>", "religion": "catholic" | "protestant",
                             "unrest"?, "fortified"?, "key"?, "port"?,
                             "protestant_home"?, "besieged"?: bool}},
      "units"?: [{"power", "kind": "regular" | "mercenary" | "naval", "space", "count"}],
      "leaders"?: [{"name", "power", "kind": "military" | "naval",
                    "space": "<space>" | null, "zone"?: "<zone>", "can_enter"?: bool}],
      "capitals"?: {"<zone>": "<space>" | null},    # the Protestant's capital per zone
      "counter_mix"?: {"<zone>": n}                 # Protestant regulars available
    }

Land spaces are areas of kind "space", sea zones areas of kind "sea"; a port's sea zones
are its adjacencies of kind "sea". A space with a "capital" is its home power's capital.
"""

from __future__ import annotations

from rules.virgin_queen.models import VqLeader, VqPower, VqSpace, VqUnits, VqZone
from rules.virgin_queen.state import CATHOLIC, MERCENARY, NAVAL, PROTESTANT, REGULAR

SECTION = "virgin_queen"
SPACE, SEA = "space", "sea"
FLAGS = ("unrest", "fortified", "port", "protestant_home", "besieged")


def validate(data: dict) -> list[str]:
    """Problems in the section: unknown powers, spaces, zones, kinds or religions."""
    section = data.get(SECTION, {})
    powers = {p["key"] for p in data["powers"]}
    kinds = {a["key"]: a["kind"] for a in data["areas"]}
    zones = section.get("struggle_zones", {})
    problems = []
    for key, kind in kinds.items():
        if kind not in (SPACE, SEA):
            problems.append(f"areas: {key!r} is a {kind!r}, not a space or a sea zone")
    for power in section.get("catholic_powers", []):
        if power not in powers:
            problems.append(f"{SECTION}.catholic_powers: unknown power {power!r}")
    spaces = section.get("spaces", {})
    for key in {k for k, kind in kinds.items() if kind == SPACE} - set(spaces):
        problems.append(f"{SECTION}.spaces: {key!r} has no religion")
    for key, space in spaces.items():
        if kinds.get(key) != SPACE:
            problems.append(f"{SECTION}.spaces: {key!r} is not a space")
        if space.get("religion") not in (CATHOLIC, PROTESTANT):
            problems.append(f"{SECTION}.spaces.{key}: religion must be catholic or protestant")
        if space.get("zone", "") and space["zone"] not in zones:
            problems.append(f"{SECTION}.spaces.{key}: unknown zone {space['zone']!r}")
    for stack in section.get("units", []):
        where = f"{SECTION}.units {stack.get('power')}/{stack.get('space')}"
        if stack.get("power") not in powers or kinds.get(stack.get("space")) != SPACE:
            problems.append(f"{where}: unknown power or space")
        if stack.get("kind") not in (REGULAR, MERCENARY, NAVAL):
            problems.append(f"{where}: kind must be regular, mercenary or naval")
        if not isinstance(stack.get("count"), int) or stack["count"] < 1:
            problems.append(f"{where}: count must be a whole number ≥ 1")
    for leader in section.get("leaders", []):
        if leader.get("power") not in powers:
            problems.append(f"{SECTION}.leaders {leader.get('name')!r}: unknown power")
        if leader.get("space") is not None and kinds.get(leader["space"]) != SPACE:
            problems.append(f"{SECTION}.leaders {leader.get('name')!r}: unknown space")
    for zone in {**section.get("capitals", {}), **section.get("counter_mix", {})}:
        if zone not in zones:
            problems.append(f"{SECTION}: unknown zone {zone!r}")
    for zone, space in section.get("capitals", {}).items():
        if space is not None and kinds.get(space) != SPACE:
            problems.append(f"{SECTION}.capitals.{zone}: unknown space {space!r}")
    return problems


def load_extras(campaign, data: dict, powers_by_key: dict, areas_by_key: dict) -> None:
    """Create the Virgin Queen state of a new campaign (bulk, a query per table)."""
    section = data.get(SECTION, {})
    catholic = set(section.get("catholic_powers", []))
    VqPower.objects.bulk_create(
        [VqPower(power=power, catholic=key in catholic) for key, power in powers_by_key.items()]
    )
    spaces = section.get("spaces", {})
    VqSpace.objects.bulk_create(
        [
            VqSpace(
                area=area,
                zone=spaces[key].get("zone", ""),
                religion=spaces[key]["religion"],
                key_space=spaces[key].get("key", False),
                capital_of=area.home_power if area.capital else None,
                **{flag: spaces[key].get(flag, False) for flag in FLAGS},
            )
            for key, area in areas_by_key.items()
            if area.kind == SPACE
        ]
    )
    capitals, mix = section.get("capitals", {}), section.get("counter_mix", {})
    VqZone.objects.bulk_create(
        [
            VqZone(
                campaign=campaign,
                key=zone,
                name=name,
                capital=areas_by_key.get(capitals.get(zone)),
                regulars_available=mix.get(zone, 0),
            )
            for zone, name in section.get("struggle_zones", {}).items()
        ]
    )
    VqUnits.objects.bulk_create(
        [
            VqUnits(
                campaign=campaign,
                power=powers_by_key[u["power"]],
                kind=u["kind"],
                area=areas_by_key[u["space"]],
                count=u["count"],
            )
            for u in section.get("units", [])
        ]
    )
    VqLeader.objects.bulk_create(
        [
            VqLeader(
                campaign=campaign,
                name=leader["name"],
                power=powers_by_key[leader["power"]],
                kind=leader.get("kind", VqLeader.Kind.MILITARY),
                area=areas_by_key.get(leader.get("space")),
                zone=leader.get("zone", ""),
                can_enter=leader.get("can_enter", False),
            )
            for leader in section.get("leaders", [])
        ]
    )
