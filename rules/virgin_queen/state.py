"""The Virgin Queen state that the conversion, revolt and espionage procedures read.

Plain dataclasses, no Django: the services load them from the database, the procedures
change them, and the services write back what changed. A space's ``zone`` is its
religious struggle zone; a Units record is a stack of one power's units of one kind in
one space; Catholic units are the regulars and naval units of a Catholic power, never
mercenaries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import options
from rules.log import Logbook, LogLine
from rules.text import Text

CATHOLIC, PROTESTANT = "catholic", "protestant"  # religious influence
REGULAR, MERCENARY, NAVAL = "regular", "mercenary", "naval"
CATHOLIC_KINDS = (REGULAR, NAVAL)
MILITARY = "military"
PROTESTANT_POWER = "protestant"
FRANCE_ZONE, NETHERLANDS_ZONE = "france", "netherlands"
REVOLT_CONTROLLER = {FRANCE_ZONE: "france", NETHERLANDS_ZONE: "spain"}
PROTESTANT_NATION = {FRANCE_ZONE: Text("Huguenot"), NETHERLANDS_ZONE: Text("Dutch")}
# The events whose first conversion die is a 6, not rolled (VQ-1 step 1): each card's
# name as an order gives it, and as each reader reads it.
AUTOMATIC_SIX_EVENTS = {
    # Translators: a Virgin Queen event card (as the game's translation names it, if any).
    "Council of Troubles": Text("Council of Troubles"),
    "Index of Prohibited Books": Text("Index of Prohibited Books"),
    "Tridentine Catechism": Text("Tridentine Catechism"),
    "English Recusants": Text("English Recusants"),
}
TURN_TRACK = "turn_track"  # World.capitals: a capital captured earlier this turn
POWER_NAMES = {
    "ottoman": Text("the Ottoman"),
    "spain": Text("Spain"),
    "england": Text("England"),
    "france": Text("France"),
    "hre": Text("the Holy Roman Empire"),
    "protestant": Text("the Protestant"),
}
POWER_SUBJECTS = {  # the powers named by words, beginning a sentence
    "ottoman": Text("The Ottoman"),
    "hre": Text("The Holy Roman Empire"),
    "protestant": Text("The Protestant"),
}
POWER_TITLES = {
    "ottoman": Text("Ottoman"),
    "hre": Text("Holy Roman Empire"),
    "protestant": Text("Protestant"),
}
NOBODY = Text("nobody")
ADJECTIVES = {
    "ottoman": Text("Ottoman"),
    "spain": Text("Spanish"),
    "england": Text("English"),
    "france": Text("French"),
    "hre": Text("Imperial"),
    "protestant": Text("Protestant"),
}
ZONE_NAMES = {  # the religious struggle's zones (a scenario's "struggle_zones")
    FRANCE_ZONE: Text("France"),
    NETHERLANDS_ZONE: Text("the Netherlands"),
    "england": Text("England"),
    "germany": Text("Germany"),
}
# The default choice of each option of ruleset.OPTIONS, whose labels need Django.
DEFAULTS = {"unrest_cancel": "each_six", "displacement": "owner"}


option = options.reader(DEFAULTS)


def power_name(key: str | None) -> str:
    """ "France", "the Protestant"; an unknown key as it is."""
    return POWER_NAMES.get(key or "", key or NOBODY)


def power_subject(key: str | None) -> str:
    """ "France", "The Protestant": a power beginning a sentence."""
    return POWER_SUBJECTS.get(key or "") or _capital(power_name(key))


def power_title(key: str | None) -> str:
    """ "France", "Holy Roman Empire", "Protestant": a power as a heading or a subject."""
    name = power_name(key)
    return POWER_TITLES.get(key or "") or _capital(
        name.removeprefix("the ") if name.startswith("the ") else name
    )


def _capital(name: str) -> str:
    """The name with a capital letter; as it is (a Text stays one) when it has one."""
    return name if name[:1].isupper() else name[:1].upper() + name[1:]


def zone_name(key: str) -> str:
    return ZONE_NAMES.get(key, key.replace("_", " ").title())


@dataclass
class Space:
    key: str
    name: str
    zone: str = ""  # religious struggle zone key
    religion: str = CATHOLIC
    controller: str | None = None
    home_power: str | None = None
    unrest: bool = False
    fortified: bool = False
    key_space: bool = False
    port: bool = False
    protestant_home: bool = False
    besieged: bool = False
    capital_of: str | None = None  # the power whose capital this is (Paris: "france")


@dataclass
class Units:
    """A stack of one power's units of one kind in one space."""

    id: int | None  # None: created by a procedure, not yet stored
    power: str
    kind: str  # REGULAR, MERCENARY or NAVAL
    space: str
    count: int


@dataclass
class Leader:
    id: int | None
    name: str
    power: str
    kind: str  # "military" or "naval"
    space: str | None  # None: off the map
    zone: str = ""  # the struggle zone a Protestant military leader belongs to
    can_enter: bool = False  # may enter play now


@dataclass
class Markers:
    """A power's espionage markers (VQ-3)."""

    informant: int = 0
    assassination_used: int = 0
    cipher_key: int = 0

    @property
    def given(self) -> bool:
        return bool(self.informant or self.assassination_used or self.cipher_key)


@dataclass
class World(Logbook):
    spaces: dict[str, Space]
    adjacency: dict[str, set[str]]  # land or pass links, symmetric
    sea_zones: dict[str, set[str]] = field(default_factory=dict)  # port key -> sea zones
    units: dict[int | str, Units] = field(default_factory=dict)
    leaders: dict[int | str, Leader] = field(default_factory=dict)
    # struggle zone -> the Protestant capital's space key, None, or TURN_TRACK
    capitals: dict[str, str | None] = field(default_factory=dict)
    counter_mix: dict[str, int] = field(default_factory=dict)  # zone -> regulars left
    wars: set[frozenset[str]] = field(default_factory=set)
    turn: int = 1
    markers: dict[str, Markers] = field(default_factory=dict)  # power -> its markers
    catholic_powers: frozenset[str] = frozenset({"spain", "france", "hre"})
    options: dict[str, Any] = field(default_factory=dict)
    log: list[LogLine] = field(default_factory=list)

    def units_in(self, space: str) -> list[tuple[int | str, Units]]:
        """The stacks in a space with their keys, in the units' order."""
        return [(key, u) for key, u in self.units.items() if u.space == space and u.count > 0]

    def leaders_in(self, space: str) -> list[tuple[int | str, Leader]]:
        return [(key, leader) for key, leader in self.leaders.items() if leader.space == space]

    def is_catholic_unit(self, units: Units) -> bool:
        return units.kind in CATHOLIC_KINDS and units.power in self.catholic_powers

    def at_war(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.wars
