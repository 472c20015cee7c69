"""What the campaign pages show of the Virgin Queen state (the ruleset's presenter).

Pure functions over the services' Loaded (the World and the procedure under way):
religion, unrest and units per space on the map, and the struggle zones and powers.
Everything here is public in Virgin Queen.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rules.virgin_queen.state import PROTESTANT, TURN_TRACK, power_name, power_title, zone_name

COLUMNS = ("Struggle zone", "Religion", "Unrest", "Units", "Leaders")
MAP_KEY = (
    "On the map: a gold dot = Catholic, a purple dot = Protestant religious influence; "
    "a red ! = unrest; a grey square = units (all powers)."
)
NO_VALUE = "—"


@dataclass(frozen=True)
class Badge:
    kind: str  # "catholic", "protestant", "unrest" or "units": how the map draws it
    value: int
    label: str


@dataclass(frozen=True)
class AreaMarks:
    badges: tuple[Badge, ...]
    cells: tuple[str, ...]
    remarks: tuple[str, ...]


@dataclass(frozen=True)
class ZoneRow:
    name: str
    capital: str
    regulars: int


@dataclass(frozen=True)
class PowerRow:
    name: str
    catholic: bool
    markers: str
    at_war_with: str


def area_marks(loaded, viewer: frozenset[str] | None = None) -> dict[str, AreaMarks]:
    """Per space: its religion, unrest and units; sea zones get nothing."""
    world = loaded.world
    units: dict[str, list[str]] = {}
    counts: Counter = Counter()
    for stack in world.units.values():
        if stack.count:
            counts[stack.space] += stack.count
            units.setdefault(stack.space, []).append(
                f"{stack.count} {power_name(stack.power)} {stack.kind}"
            )
    leaders: dict[str, list[str]] = {}
    for leader in world.leaders.values():
        if leader.space:
            leaders.setdefault(leader.space, []).append(leader.name)
    marks = {}
    for key, space in world.spaces.items():
        badges = [Badge(space.religion, 0, space.religion)]
        if space.unrest:
            badges.append(Badge("unrest", 0, "unrest"))
        if counts[key]:
            badges.append(Badge("units", counts[key], f"{counts[key]} units"))
        marks[key] = AreaMarks(
            badges=tuple(badges),
            cells=(
                zone_name(space.zone) if space.zone else NO_VALUE,
                space.religion.capitalize(),
                "unrest" if space.unrest else NO_VALUE,
                ", ".join(units.get(key, [])) or NO_VALUE,
                ", ".join(leaders.get(key, [])) or NO_VALUE,
            ),
            remarks=remarks(space),
        )
    return marks


def remarks(space) -> tuple[str, ...]:
    words = [
        word
        for word, on in (
            ("key", space.key_space),
            ("fortified", space.fortified),
            ("port", space.port),
            ("Protestant home", space.protestant_home),
            ("besieged", space.besieged),
        )
        if on
    ]
    if space.capital_of:
        words.append(f"capital of {power_name(space.capital_of)}")
    return tuple(words)


def panels(loaded, viewer: frozenset[str] | None = None) -> dict:
    """The struggle zones (Protestant capitals, counter mix) and the powers."""
    world = loaded.world
    zones = [
        ZoneRow(
            zone_name(zone),
            {None: "none", TURN_TRACK: "on the turn track"}.get(
                capital, world.spaces[capital].name if capital in world.spaces else str(capital)
            ),
            world.counter_mix.get(zone, 0),
        )
        for zone, capital in sorted(world.capitals.items())
    ]
    powers = [
        PowerRow(
            name=power_title(key),
            catholic=key in world.catholic_powers,
            markers=f"{m.informant} Informant, {m.assassination_used} Assassination Used, "
            f"{m.cipher_key} Cipher Key"
            if m.given
            else NO_VALUE,
            at_war_with=", ".join(
                sorted(
                    power_name(other)
                    for pair in world.wars
                    if key in pair
                    for other in pair - {key}
                )
            )
            or NO_VALUE,
        )
        for key, m in world.markers.items()
    ]
    protestant = sum(1 for s in world.spaces.values() if s.religion == PROTESTANT)
    return {
        "zones": zones,
        "powers": powers,
        "religion": (len(world.spaces) - protestant, protestant),
    }
