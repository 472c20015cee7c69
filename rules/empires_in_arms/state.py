"""The Empires in Arms state that the revolt and guerrilla procedures read and change.

Plain dataclasses, no Django: phase services load them from the database, the phase
resolvers change them, and the services write back what changed. An Area is one
province or minor country (the political unit the rules speak of).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from rules import options
from rules.log import Logbook, LogLine
from rules.text import Text

ZONE_MODIFIERS = {"Fiasco": -2, "Instability": -1, "Neutral": 0, "Dominant": 1}
ZONE_NAMES = {
    # Translators: a political status zone, as in the modifier "France Fiasco".
    "Fiasco": Text("Fiasco"),
    "Instability": Text("Instability"),
    "Neutral": Text("Neutral"),
    "Dominant": Text("Dominant"),
}
SPAIN = "spain"
OTTOMAN = "turkey"
# The land phase order after France, who announces its own slot (rules page, sequence).
LAND_ORDER = ("russia", "turkey", "austria", "prussia", "great_britain", "spain")
MINOR = "minor"
PROVINCE = "province"
ALLIED, CLIENT, CONQUERED = "allied", "client", "conquered"  # how a power holds a minor
# The default choice of each option of ruleset.OPTIONS, whose labels need Django.
DEFAULTS = {
    "revolt_guerrillas_when": "guerrilla_step",
    "bad_roll": "modified_1",
    "six_extra_reduction": True,
    "ottoman_bonus": "replaces",
    "bad_roll_payment": "standing_order",
    "six_extra_needs_success": True,
    "attempt_limit": "per_step",
    "attempt_pp_minimum": 0,
    "aid_limit": "sponsor_once",
    "operation_lowers": "any_power",
    "operation_without_guerrillas": True,
    "spanish_revolt_value": "revolt_number",
    "depot_garrison_threshold": "at_least",
    "unaffordable_payment": "rises",
    "besieged_guerrillas": "survive",
    "revolt_against_ally": "refused",
    "spanish_removal_ceded": "all",
    "france_slot": 1,
}


option = options.reader(DEFAULTS)


@dataclass
class Power:
    key: str
    name: str
    zone: str = "Neutral"
    political_points: int = 0
    treasury: int = 0
    pays_bad_roll: bool = True  # standing order (Decision 5)

    @property
    def status_modifier(self) -> int:
        """PSM: Fiasco −2, Instability −1, Neutral 0, Dominant +1."""
        return ZONE_MODIFIERS[self.zone]


@dataclass
class Area:
    key: str
    name: str
    kind: str  # MINOR or PROVINCE
    controller: str | None = None  # power key; None for a neutral minor
    home_power: str | None = None  # whose home nation a province belongs to
    ceded: bool = False
    manpower: int = 0
    guerrilla_value: int | None = None  # printed value of a Spanish province
    islamic: bool = False
    capital: str = ""
    minor_status: str = ""  # a controlled minor: ALLIED, CLIENT or CONQUERED

    @property
    def conquered_by(self) -> str | None:
        """The power that holds this minor as a conquered minor (EIA-4's Ottoman bonus)."""
        return self.controller if self.minor_status == CONQUERED else None

    @property
    def guerrilla_cap(self) -> int:
        """EIA-3: at most 5 × manpower guerrilla factors (manpower 0 counts as 1)."""
        return 5 * max(1, self.manpower)


@dataclass
class Corps:
    id: int | None
    power: str  # the major power that controls it
    area: str
    name: str = ""
    minor: str | None = None  # area key of the minor country whose corps it is
    fought: bool = False  # took part in land combat this land combat step
    besieged: bool = False
    besieging: bool = False

    @property
    def eligible(self) -> bool:
        """EIA-4: fought no land combat this step, neither besieged nor besieging."""
        return not (self.fought or self.besieged or self.besieging)


@dataclass
class Revolt:
    id: int | None
    sponsor: str
    area: str
    number: int
    months_without_guerrillas: int = 0
    capital_held_months: int = 0  # months guerrillas have held the capital unbesieged
    active: bool = True
    end_reason: str = ""
    conquest_choice: str = ""  # EIA-8 at war, minor: "client" or "conquered"


@dataclass
class Guerrilla:
    """A stack of guerrilla factors of one nationality in one area."""

    id: int | None
    area: str
    nationality: str  # power key: the sponsor for revolt guerrillas, Spain for Spanish ones
    factors: int
    origin: str  # area of origin (revolt guerrillas never leave it)
    revolt: bool = True  # False for Spanish guerrillas (EIA-10)
    besieged: bool = False


@dataclass
class Depot:
    id: int | None
    power: str
    area: str
    port_city: bool = False
    garrison: int = 0  # factors not in a corps


@dataclass
class World(Logbook):
    """Everything the EIA procedures may read or change, for one campaign."""

    powers: dict[str, Power]
    areas: dict[str, Area]
    adjacency: dict[str, set[str]] = field(default_factory=dict)
    national_modifiers: dict[tuple[str, str], int] = field(default_factory=dict)  # (area, power)
    corps: list[Corps] = field(default_factory=list)
    revolts: list[Revolt] = field(default_factory=list)
    guerrillas: list[Guerrilla] = field(default_factory=list)
    depots: list[Depot] = field(default_factory=list)
    wars: set[frozenset[str]] = field(default_factory=set)
    alliances: set[frozenset[str]] = field(default_factory=set)
    let_downs: dict[tuple[str, str], int] = field(default_factory=dict)  # (power, area)
    options: dict = field(default_factory=dict)
    militia_due: dict[str, int] = field(default_factory=dict)  # EIA-12, per power
    log: list[LogLine] = field(default_factory=list)

    def copy(self) -> World:
        """A copy to change or diff against: the pieces are flat dataclasses, so a
        shallow copy of each is a deep copy of the whole."""
        return World(
            powers={k: copy.copy(p) for k, p in self.powers.items()},
            areas={k: copy.copy(a) for k, a in self.areas.items()},
            adjacency={k: set(v) for k, v in self.adjacency.items()},
            national_modifiers=dict(self.national_modifiers),
            corps=[copy.copy(c) for c in self.corps],
            revolts=[copy.copy(r) for r in self.revolts],
            guerrillas=[copy.copy(g) for g in self.guerrillas],
            depots=[copy.copy(d) for d in self.depots],
            wars=set(self.wars),
            alliances=set(self.alliances),
            let_downs=dict(self.let_downs),
            options=copy.deepcopy(self.options),
            militia_due=dict(self.militia_due),
            log=list(self.log),
        )

    # -- relations -------------------------------------------------------------------
    def at_war(self, a: str | None, b: str | None) -> bool:
        return a is not None and b is not None and frozenset((a, b)) in self.wars

    def allied(self, a: str | None, b: str | None) -> bool:
        return a is not None and b is not None and frozenset((a, b)) in self.alliances

    # -- lookups ---------------------------------------------------------------------
    def active_revolt(self, area: str) -> Revolt | None:
        return next((r for r in self.revolts if r.active and r.area == area), None)

    def guerrilla_factors(self, area: str) -> int:
        return sum(g.factors for g in self.guerrillas if g.area == area)

    def corps_in(self, area: str) -> list[Corps]:
        return [c for c in self.corps if c.area == area]

    def national_modifier(self, power: str, area_key: str) -> int:
        """NM(power, area): the Minor Country Chart; +3 for a former home province that is
        ceded, 0 for the controller of a ceded province."""
        area = self.areas[area_key]
        if area.kind == PROVINCE and area.ceded:
            if area.home_power == power:
                return 3
            if area.controller == power:
                return 0
        return self.national_modifiers.get((area_key, power), 0)

    def land_order(self) -> list[str]:
        """Powers in land-phase order: France in its announced slot, then the rest."""
        slot = int(option(self.options, "france_slot"))
        order = [p for p in LAND_ORDER if p in self.powers]
        if "france" in self.powers:
            order.insert(max(0, min(len(order), slot - 1)), "france")
        return order + [p for p in self.powers if p not in order]
