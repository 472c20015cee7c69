"""The time zones a person picks from: grouped by region, each named by its place."""

from __future__ import annotations

import zoneinfo

from django.utils.translation import gettext_lazy as _

TIME_ZONES = sorted(zoneinfo.available_timezones())
REGIONS = {
    "Europe": _("Europe"),
    "America": _("America"),
    "Africa": _("Africa"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic"),
    "Australia": _("Australia"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
}
OTHER = _("Other (UTC and older names)")


def place(zone: str) -> str:
    """ "America/Argentina/Buenos_Aires" → "Argentina / Buenos Aires"."""
    return zone.partition("/")[2].replace("_", " ").replace("/", " / ")


def grouped_choices() -> list[tuple]:
    """Every zone, under its region in REGIONS' order, the rest under OTHER."""
    groups: dict[str, list[tuple[str, str]]] = {region: [] for region in REGIONS}
    other = []
    for zone in TIME_ZONES:
        region = zone.partition("/")[0]
        if region in groups and "/" in zone:
            groups[region].append((zone, place(zone)))
        else:
            other.append((zone, zone.replace("_", " ")))
    return [*((REGIONS[r], zones) for r, zones in groups.items() if zones), (OTHER, other)]
