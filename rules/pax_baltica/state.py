"""The Pax Baltica state that the siege, forage, replacement and fleet procedures read.

Plain dataclasses, no Django: the phase services load them from the database, the phase
resolvers change them, and the services write back what changed. A nation is a Courier
power (Saxony-Poland is one nation: one RP level and one pool, as in the seed's 8.6
example); a side is Sweden's or the Coalition's. An Area is a land territory or a sea
zone; fleets stand in a sea zone (at sea) or in a port territory (in port).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import options
from rules.log import Logbook, LogLine
from rules.text import Text

ARMY, REGIMENT, FLEET = "army", "regiment", "fleet"
KINDS = (ARMY, REGIMENT, FLEET)
# how a log line or a label names a block's kind, in each reader's language
KIND_NAMES = {ARMY: Text("army"), REGIMENT: Text("regiment"), FLEET: Text("fleet")}
TERRITORY, SEA = "territory", "sea"
SWEDEN_SIDE, COALITION = "sweden", "coalition"
SIDES = {SWEDEN_SIDE: Text("Sweden"), COALITION: Text("Coalition")}  # as the log names them
STEP_COST = {ARMY: 2, REGIMENT: 1, FLEET: 2}  # GNW-6
FORAGE_DEMAND = {ARMY: 2, REGIMENT: 1, FLEET: 0}  # GNW-4
RP_PER_SURRENDER = 4  # GNW-5
FLEET_REACH, GALLEY_REACH = 6, 3  # GNW-13
GARRISON_RATING = "C1"  # GNW-1
# The first (default) choice of each option of ruleset.OPTIONS, whose labels need Django.
DEFAULTS = {
    "siege_fire_order": "defender_first",
    "forage_further_losses": "owner_order",
    "unaffordable_draw": "ends",
    "siege_hits": "at_once",
    "besiegers_lose": "all_retreat",
    "liberation": "restores",
    "forage_both_sides": "full_each",
    "action_doubling": "one_action",
    "unplaceable_block": "continue",
    "siege_block_order": "round_start",
}


option = options.reader(DEFAULTS)


@dataclass
class Nation:
    key: str  # the power key
    name: str
    side: str  # SWEDEN_SIDE or COALITION
    rp_level: int | None = None  # None: the nation has no RP level of its own
    event_rp: int = 0  # GNW-12: for the next recruitment phase only
    deployment: tuple[str, ...] = ()  # territory keys where new blocks may be placed
    fleet_ports: tuple[str, ...] = ()  # ports where new fleets may be placed
    forced_peace: bool = False  # its capital was captured (GNW-2, rule 10.2)
    color: str = "#888888"  # how its blocks are drawn


@dataclass
class Territory:
    """A land territory or a sea zone (``kind``)."""

    key: str
    name: str
    kind: str = TERRITORY  # TERRITORY or SEA
    nation: str | None = None  # whose nation's territory it is (home)
    controller: str | None = None  # the nation whose garrison marker is here, else home
    forage_points: int = 0
    port: bool = False
    transit: bool = False  # 1.5: a line of communication may be traced through
    in_poland: bool = False  # GNW-2's exception
    capital: bool = False
    garrison: int = 0  # strength of the controller's garrison marker; 0 = no marker
    surrendered: bool = False  # its garrison surrendered: its nation's RP level is −4
    battle_winner: str = ""  # the side that won a battle here this season (GNW-3)


@dataclass
class Block:
    id: int
    nation: str
    kind: str  # ARMY, REGIMENT or FLEET
    name: str
    strength: int
    max_strength: int
    rating: str = "C1"  # letter (firing order) and number (hits on ≤ number)
    supply_trains: int = 0
    location: str | None = None  # area key; None while in the pool
    carried_by: int | None = None  # id of the fleet carrying it
    red_dot: bool = False
    places: tuple[str, ...] = ()  # a red-dot block's own placement territories
    galley: bool = False  # the Russian galley fleet: 3 zones per action
    in_battle: bool = False  # fought (or is fighting) a battle this season
    besieging: bool = False  # declared a siege this season
    nationality: str = ""  # when not its nation's own, e.g. "Polish" in Saxony-Poland's pool

    @property
    def nationality_key(self) -> str:
        """Whose supply trains feed it (7.2): its nationality, else its nation."""
        return self.nationality or self.nation

    @property
    def in_pool(self) -> bool:
        return self.location is None

    @property
    def at(self) -> str:
        """Its area, for a block on the map (LookupError for one in the pool)."""
        if self.location is None:
            raise LookupError(f"{self.name} is in the pool")
        return self.location

    @property
    def letter(self) -> str:
        return self.rating[:1].upper()

    @property
    def firepower(self) -> int:
        return int(self.rating[1:] or 1)


@dataclass
class World(Logbook):
    nations: dict[str, Nation]
    territories: dict[str, Territory]  # land territories and sea zones
    adjacency: dict[str, set[str]]  # symmetric; land–land, port–sea and sea–sea links
    blocks: dict[int | str, Block]  # by id; "new:<name>": added by a GM edit, not yet stored
    actions: dict[str, int] = field(default_factory=dict)  # side → actions left, in acting order
    season_actions: dict[str, int] = field(default_factory=dict)  # side → actions a season brings
    options: dict[str, Any] = field(default_factory=dict)
    log: list[LogLine] = field(default_factory=list)
    # What orders the pool draws (rules.dice.secret_draw): the campaign's secret and the
    # resolving phase's dice context; no secret (a bare test world): the pool's own order.
    secret: str = ""
    dice_context: str = ""

    def side_of(self, nation: str) -> str:
        return self.nations[nation].side

    def enemies(self, nation_a: str, nation_b: str | None) -> bool:
        return nation_b is not None and self.side_of(nation_a) != self.side_of(nation_b)

    def blocks_in(self, area: str) -> list[Block]:
        return [b for b in self.blocks.values() if b.location == area]

    def pool(self, nation: str) -> list[Block]:
        return sorted(
            (b for b in self.blocks.values() if b.nation == nation and b.in_pool),
            key=lambda b: b.id,
        )

    def side_powers(self, side: str) -> tuple[str, ...]:
        """The nations of a side: the audience of a log line about its blocks."""
        return tuple(key for key, nation in self.nations.items() if nation.side == side)
