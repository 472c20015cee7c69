"""Beacons' state, pure: which lord's beacon burns in each area, each lord's reserve of
wood (hidden from the other lords), and the raids under way (tests/toy/RULES.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.log import Logbook, LogLine

NEEDS = 4  # TOY-1, TOY-2: a die of 4 or more
MOST_FED = 2  # TOY-1: the wood one fire may be fed
MOST_WOOD = 5  # TOY-3: what a reserve holds at most


@dataclass
class Raid:
    """A raid rolled that reached its beacon (TOY-2): who raids the beacon of which area,
    and the die, which its defender sees before deciding."""

    raider: str
    area: str
    face: int

    @property
    def cost(self) -> int:
        """The wood its defender burns to keep the beacon: the die less 3."""
        return self.face - NEEDS + 1


@dataclass
class World(Logbook):
    """The beacons (area -> its lord, None: unlit), the map, the lords' and areas' names
    as people read them, each lord's colour and reserve, and the raids that reached their
    beacons, in the order they are settled: the first waits for its defender."""

    lit: dict[str, str | None]
    adjacency: dict[str, set[str]]
    names: dict[str, str]
    powers: dict[str, str]
    wood: dict[str, int]
    colors: dict[str, str] = field(default_factory=dict)
    raids: list[Raid] = field(default_factory=list)
    log: list[LogLine] = field(default_factory=list)

    def beacons_of(self, power: str) -> set[str]:
        """The areas where the lord's beacon burns."""
        return {area for area, lord in self.lit.items() if lord == power}

    def next_to_own(self, power: str, area: str) -> bool:
        """Whether ``area`` is next to one of the lord's lit beacons."""
        return bool(self.adjacency.get(area, set()) & self.beacons_of(power))

    @property
    def asked(self) -> Raid | None:
        """The raid that waits for its defender's decision, if any."""
        return self.raids[0] if self.raids else None

    def defender(self, raid: Raid) -> str | None:
        """The lord whose beacon the raid reached."""
        return self.lit.get(raid.area)
