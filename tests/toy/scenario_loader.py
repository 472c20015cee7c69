"""The Beacons section of a scenario: ``"toy": {"lit": {"<area>": "<power>"}}``."""

from __future__ import annotations

from tests.toy.models import Beacon


def validate(data: dict) -> list[str]:
    areas = {a["key"] for a in data["areas"]}
    powers = {p["key"] for p in data["powers"]}
    lit = data.get("toy", {}).get("lit", {})
    return [
        f"toy.lit: {area!r} or {power!r} is unknown"
        for area, power in lit.items()
        if area not in areas or power not in powers
    ]


def load_extras(campaign, data: dict, powers_by_key: dict, areas_by_key: dict) -> None:
    lit = data.get("toy", {}).get("lit", {})
    Beacon.objects.bulk_create(
        Beacon(campaign=campaign, area=area, lit_by=powers_by_key.get(lit.get(key)))
        for key, area in areas_by_key.items()
    )
