"""The Beacons section of a scenario: ``"toy": {"lit": {"<area>": "<power>"},
"wood": {"<power>": <0 to 5>}}``: the beacons lit at the start and each lord's reserve
(none given: empty)."""

from __future__ import annotations

from tests.toy.models import Beacon, Lord
from tests.toy.state import MOST_WOOD


def validate(data: dict) -> list[str]:
    areas = {a["key"] for a in data["areas"]}
    powers = {p["key"] for p in data["powers"]}
    section = data.get("toy", {})
    problems = [
        f"toy.lit: {area!r} or {power!r} is unknown"
        for area, power in section.get("lit", {}).items()
        if area not in areas or power not in powers
    ]
    return problems + [
        f"toy.wood: {power!r} is unknown or {wood!r} is not a whole number from 0 to {MOST_WOOD}"
        for power, wood in section.get("wood", {}).items()
        if power not in powers or not _reserve(wood)
    ]


def _reserve(wood) -> bool:
    return isinstance(wood, int) and not isinstance(wood, bool) and 0 <= wood <= MOST_WOOD


def load_extras(campaign, data: dict, powers_by_key: dict, areas_by_key: dict) -> None:
    section = data.get("toy", {})
    lit, wood = section.get("lit", {}), section.get("wood", {})
    Beacon.objects.bulk_create(
        Beacon(campaign=campaign, area=area, lit_by=powers_by_key.get(lit.get(key)))
        for key, area in areas_by_key.items()
    )
    Lord.objects.bulk_create(
        Lord(power=power, wood=wood.get(key, 0)) for key, power in powers_by_key.items()
    )
