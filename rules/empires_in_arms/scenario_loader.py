"""What an Empires in Arms scenario file holds beyond the core (see campaign/play/scenarios.py
for the rest): each power's ``"treasury"?`` and ``"political_points"?`` (whole numbers,
0 by default), each area's ``"ceded"?`` (false by default) and ``"manpower"?`` (a whole
number ≥ 0, 0 by default), and its own section::

    "empires_in_arms": {
      "confidence"?: {"<part>": "…"},                  # sourced or sample, per part
      "zones"?: {"<power>": "Fiasco" | "Instability" | "Neutral" | "Dominant"},
      "guerrilla_values"?: {"<province>": n},          # printed Spanish guerrilla values
      "islamic"?: ["<minor>", …],
      "minor_status"?: {"<minor>": "allied" | "client" | "conquered"},  # controlled minors
      "national_modifiers"?: {
        "chart": {"<minor>": {"<power>": nm}},          # the Minor Country Chart
        "sourced"?: [["<minor>", "<power>"], …]         # cells taken from a source
      },
      "corps"?: [{"power": "<power>", "area": "<area>", "name"?: "…"}]
    }

A power without a zone starts Neutral; a missing chart cell counts as 0.
"""

from __future__ import annotations

from rules.empires_in_arms.models import Corps, EiaArea, EiaPowerStatus, NationalModifier
from rules.empires_in_arms.state import ALLIED, CLIENT, CONQUERED, MINOR, ZONE_MODIFIERS

SECTION = "empires_in_arms"
# the keys of a power and of an area in the file that its row holds under the same names
POWER_FIELDS = ("treasury", "political_points")
AREA_FIELDS = ("ceded", "manpower")


def validate(data: dict) -> list[str]:
    """Problems in the powers' and areas' numbers and in the section: unknown powers,
    areas or zones, chart cells off the chart."""
    section = data.get(SECTION, {})
    powers = {p["key"] for p in data["powers"]}
    kinds = {a["key"]: a["kind"] for a in data["areas"]}
    problems = number_problems(data)

    def check(where: str, power: str | None = None, area: str | None = None) -> None:
        if power is not None and power not in powers:
            problems.append(f"{SECTION}.{where}: unknown power {power!r}")
        if area is not None and area not in kinds:
            problems.append(f"{SECTION}.{where}: unknown area {area!r}")

    for power, zone in section.get("zones", {}).items():
        check("zones", power=power)
        if zone not in ZONE_MODIFIERS:
            problems.append(
                f"{SECTION}.zones: {zone!r} for {power!r} is not one of {', '.join(ZONE_MODIFIERS)}"
            )
    for area, value in section.get("guerrilla_values", {}).items():
        check("guerrilla_values", area=area)
        if not isinstance(value, int) or value < 0:
            problems.append(f"{SECTION}.guerrilla_values: {area!r} needs a whole number ≥ 0")
    for area in section.get("islamic", []):
        check("islamic", area=area)
    controlled = {a["key"] for a in data["areas"] if a.get("controller", a.get("home_power"))}
    for area, status in section.get("minor_status", {}).items():
        check("minor_status", area=area)
        if status not in (ALLIED, CLIENT, CONQUERED):
            problems.append(f"{SECTION}.minor_status: {status!r} for {area!r} is not a status")
        elif kinds.get(area) != MINOR or area not in controlled:
            problems.append(f"{SECTION}.minor_status: {area!r} is not a controlled minor")
    chart = section.get("national_modifiers", {}).get("chart", {})
    for minor, row in chart.items():
        if kinds.get(minor) != MINOR:
            problems.append(f"{SECTION}.national_modifiers: {minor!r} is not a minor country")
        for power, value in row.items():
            check(f"national_modifiers.{minor}", power=power)
            if not isinstance(value, int):
                problems.append(f"{SECTION}.national_modifiers: NM({power}, {minor}) not a number")
    for minor, power in section.get("national_modifiers", {}).get("sourced", []):
        if power not in chart.get(minor, {}):
            problems.append(f"{SECTION}.national_modifiers: sourced cell {minor}/{power} missing")
    for corps in section.get("corps", []):
        check("corps", power=corps.get("power"), area=corps.get("area"))
    return problems


def number_problems(data: dict) -> list[str]:
    """Each power's treasury and political points must be whole numbers, each area's
    manpower a whole number ≥ 0 (absent: 0)."""
    problems = []
    for power in data["powers"]:
        for field in POWER_FIELDS:
            if not _whole(power.get(field, 0)):
                problems.append(f"power {power['key']!r}: {field!r} must be a whole number")
    for area in data["areas"]:
        manpower = area.get("manpower", 0)
        if not _whole(manpower) or manpower < 0:
            problems.append(
                f"area {area['key']!r}: 'manpower' must be a whole number of at least 0"
            )
    return problems


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_extras(campaign, data: dict, powers_by_key: dict, areas_by_key: dict) -> None:
    """Create the EIA state of a new campaign: each power's political status, treasury and
    political points, each area's EIA fields, the Minor Country Chart and the starting
    corps (bulk, a query each)."""
    section = data.get(SECTION, {})
    power_data = {p["key"]: p for p in data["powers"]}
    area_data = {a["key"]: a for a in data["areas"]}
    zones = section.get("zones", {})
    values = section.get("guerrilla_values", {})
    islamic = set(section.get("islamic", []))
    statuses = section.get("minor_status", {})
    chart = section.get("national_modifiers", {}).get("chart", {})
    EiaPowerStatus.objects.bulk_create(
        [
            EiaPowerStatus(
                power=power,
                zone=zones.get(key, EiaPowerStatus.Zone.NEUTRAL),
                **_picked(power_data[key], POWER_FIELDS),
            )
            for key, power in powers_by_key.items()
        ]
    )
    EiaArea.objects.bulk_create(
        [
            EiaArea(
                area=area,
                **_picked(area_data[key], AREA_FIELDS),
                guerrilla_value=values.get(key),
                islamic=key in islamic,
                minor_status=statuses.get(key, ""),
            )
            for key, area in areas_by_key.items()
        ]
    )
    NationalModifier.objects.bulk_create(
        [
            NationalModifier(
                campaign=campaign,
                area=areas_by_key[minor],
                power=powers_by_key[power],
                value=value,
            )
            for minor, row in chart.items()
            for power, value in row.items()
        ]
    )
    Corps.objects.bulk_create(
        [
            Corps(
                campaign=campaign,
                power=powers_by_key[c["power"]],
                area=areas_by_key[c["area"]],
                name=c.get("name", ""),
            )
            for c in section.get("corps", [])
        ]
    )


def _picked(item: dict, fields: tuple[str, ...]) -> dict:
    return {field: item[field] for field in fields if field in item}
