"""What the campaign pages show of the Virgin Queen state (the ruleset's presenter).

Pure functions over the services' Loaded (the World and the procedure under way):
religion, unrest and units per space on the map, and the struggle zones and powers.
Everything here is public in Virgin Queen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine import Presenter, Reading
from rules.marks import BESIEGED, AreaMarks, Badge, OrderMark, counted, gm_move_marks
from rules.platform import localized
from rules.virgin_queen import gm_orders
from rules.virgin_queen import procedures as vq
from rules.virgin_queen.state import (
    CATHOLIC,
    PROTESTANT,
    TURN_TRACK,
    World,
    power_name,
    power_subject,
    power_title,
    zone_name,
)

if TYPE_CHECKING:
    from rules.virgin_queen.services import Loaded

# On a drawn map: Protestant influence hatched, unrest cross-hatched in red, Catholic
# (the usual state) plain.
NO_VALUE = "—"
# a space's religion (the value stored) as the map and its table name it
RELIGION_NAMES = {CATHOLIC: gettext_lazy("catholic"), PROTESTANT: gettext_lazy("protestant")}
RELIGION_TITLES = {CATHOLIC: gettext_lazy("Catholic"), PROTESTANT: gettext_lazy("Protestant")}


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
    """Per space: its religion, unrest and units, as badges of kind "catholic" or
    "protestant", "unrest" and "units"; sea zones get nothing."""
    world = loaded.world
    units: dict[str, list[str]] = {}
    counts: Counter = Counter()
    for stack in world.units.values():
        if stack.count:
            counts[stack.space] += stack.count
            units.setdefault(stack.space, []).append(localized(vq.stack_text(stack)))
    leaders: dict[str, list[str]] = {}
    for leader in world.leaders.values():
        if leader.space:
            leaders.setdefault(leader.space, []).append(leader.name)
    marks = {}
    for key, space in world.spaces.items():
        badges = [Badge(space.religion, 0, RELIGION_NAMES.get(space.religion, space.religion))]
        if space.unrest:
            badges.append(Badge("unrest", 0, _("unrest")))
        if space.besieged:
            badges.append(Badge(BESIEGED, 0, _("Besieged")))
        if n := counts[key]:
            badges.append(counted("units", n, ngettext("%(count)s unit", "%(count)s units", n)))
        marks[key] = AreaMarks(
            badges=tuple(badges),
            cells=(
                localized(zone_name(space.zone)) if space.zone else NO_VALUE,
                RELIGION_TITLES.get(space.religion, space.religion.capitalize()),
                _("unrest") if space.unrest else NO_VALUE,
                ", ".join(units.get(key, [])) or NO_VALUE,
                ", ".join(leaders.get(key, [])) or NO_VALUE,
            ),
            remarks=remarks(space),
        )
    return marks


def area_refs(loaded, key: str) -> tuple[frozenset[str], frozenset[int]]:
    """What an order may name the area ``key`` by: its key, and the struggle zone of a
    space."""
    space = loaded.world.spaces.get(key)
    return frozenset({key, space.zone if space else ""} - {""}), frozenset()


def remarks(space) -> tuple[str, ...]:
    words = [
        word
        for word, on in (
            (_("key"), space.key_space),
            (_("fortified"), space.fortified),
            (_("port"), space.port),
            (_("Protestant home"), space.protestant_home),
            (_("besieged"), space.besieged),
        )
        if on
    ]
    if space.capital_of:
        words.append(_("capital of %(power)s") % {"power": localized(power_name(space.capital_of))})
    return tuple(words)


def panels(loaded, viewer: frozenset[str] | None = None) -> dict:
    """The struggle zones (Protestant capitals, counter mix) and the powers."""
    world = loaded.world
    zones = [
        ZoneRow(
            localized(zone_name(zone)),
            {None: _("none"), TURN_TRACK: _("on the turn track")}.get(
                capital, world.spaces[capital].name if capital in world.spaces else str(capital)
            ),
            world.counter_mix.get(zone, 0),
        )
        for zone, capital in sorted(world.capitals.items())
    ]
    powers = [
        PowerRow(
            name=localized(power_title(key)),
            catholic=key in world.catholic_powers,
            markers=_(
                "%(informant)s Informant, %(assassination_used)s Assassination Used, "
                "%(cipher_key)s Cipher Key"
            )
            % {
                "informant": m.informant,
                "assassination_used": m.assassination_used,
                "cipher_key": m.cipher_key,
            }
            if m.given
            else NO_VALUE,
            at_war_with=", ".join(
                sorted(
                    localized(power_name(other))
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


# -- orders on the map --------------------------------------------------------------


def order_marks(
    loaded, orders: Mapping[str, dict], viewer: frozenset[str] | None = None
) -> list[OrderMark]:
    """The orders the reader may read (payloads by power key) as markers and arrows,
    power by power in the World's order (everything is public in Virgin Queen, whoever
    the viewer). Espionage and actions played at the table name no space: none. A space
    or zone no longer on the map draws nothing."""
    world = loaded.world
    marks: list[OrderMark] = []
    for power in world.markers:
        if payload := orders.get(power):
            marks += [
                *conversion_marks(world, power, payload),
                *revolt_marks(world, power, payload),
                *gm_move_marks(
                    power,
                    payload,
                    gm_orders.pieces(loaded, power),
                    gm_orders.places(loaded),
                    localized,
                ),
            ]
    return marks


PLAYED_AT_THE_TABLE = {
    "espionage": gettext_lazy("%(power)s takes an espionage action, played at the table (VQ-3)"),
    "other": gettext_lazy("%(power)s takes another action, played at the table"),
    "pass": gettext_lazy("%(power)s passes"),
}


def order_text(loaded, power: str, payload: Mapping) -> list[str]:
    """The impulse's order ``payload`` of ``power`` as sentences in the active language
    (its lines for the GM aside: rules/gm_orders.py says them)."""
    action = payload.get("action")
    if action == "conversion":
        line = conversion_line(payload.get("zones") or (), payload.get("attempts") or 0, power)
        if event := payload.get("event"):
            line = _("%(line)s, as the event %(event)s (its first die is a 6)") % {
                "line": line,
                "event": event,
            }
        return [line]
    if action == "revolt":
        return [mark.label for mark in revolt_marks(loaded.world, power, payload)]
    if action not in PLAYED_AT_THE_TABLE:
        return []
    said = PLAYED_AT_THE_TABLE[action] % {"power": localized(power_subject(power))}
    note = payload.get("note")
    return [_("%(action)s: “%(note)s”") % {"action": said, "note": note} if note else said]


def conversion_line(zones, attempts: int, power: str) -> str:
    """VQ-1: "France: 3 conversion attempts in France"."""
    return ngettext(
        "%(power)s: %(count)s conversion attempt in %(zones)s",
        "%(power)s: %(count)s conversion attempts in %(zones)s",
        attempts,
    ) % {"power": localized(power_subject(power)), "count": attempts, "zones": zones_named(zones)}


def conversion_marks(world: World, power: str, payload: Mapping) -> list[OrderMark]:
    """VQ-1: a marker on each space of the targeted zones that the attempts may turn
    Catholic now (Protestant, with a Catholic link: conditions a and b; Protestant units
    there only change which die may flip it), by name. Not every space of a zone, nor
    its key spaces: most of those are Catholic already and no conversion touches them."""
    if payload.get("action") != "conversion":
        return []
    zones, attempts = payload.get("zones") or (), payload.get("attempts") or 0
    catholic = {key for key, space in world.spaces.items() if space.religion == CATHOLIC}
    label = conversion_line(zones, attempts, power)
    return [
        OrderMark("conversion", power, key, label=label)
        for key in vq.eligible_spaces(world, zones, catholic, ignore_units=True)
    ]


def zones_named(zones) -> str:
    """ "France", "France and the Netherlands"."""
    names = [localized(zone_name(zone)) for zone in zones]
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def revolt_marks(world: World, power: str, payload: Mapping) -> list[OrderMark]:
    """VQ-2: a marker on the space the Protestant revolts in."""
    target = payload.get("target")
    if payload.get("action") != "revolt" or target not in world.spaces:
        return []
    label = _("Revolt in %(space)s (%(cp)s CP)") % {
        "space": world.spaces[target].name,
        "cp": payload.get("cp"),
    }
    return [OrderMark("revolt", power, target, label=label)]


RELIGIONS = (
    (CATHOLIC, gettext_lazy("Catholic spaces"), "#d4a017"),
    (PROTESTANT, gettext_lazy("Protestant spaces"), "#6a3d9a"),
)


def timeline(state: dict, powers) -> list[Reading]:
    """The spaces of each religion (public: the map shows every space's)."""
    counts = Counter(space["religion"] for space in state.get("vq_spaces", []))
    return [(key, name, color, counts[key]) for key, name, color in RELIGIONS]


PRESENTER: Presenter[Loaded] = Presenter(
    columns=(
        gettext_lazy("Struggle zone"),
        gettext_lazy("Religion"),
        gettext_lazy("Unrest"),
        gettext_lazy("Units"),
        gettext_lazy("Leaders"),
    ),
    map_key=gettext_lazy(
        "On the map: Protestant religious influence is hatched and Catholic plain (on a map "
        "drawn as circles: a purple and a gold dot); unrest is red cross-hatching (a red !); "
        "a grey square = units (all powers)."
    ),
    area_marks=area_marks,
    panels=panels,
    area_refs=area_refs,
    map_patterns={"catholic": "", "protestant": "hatch", "unrest": "cross", BESIEGED: "dots"},
    map_styles=("courier/virgin_queen/map.css",),  # its pieces' styles (static/)
    order_marks=order_marks,
    order_text=order_text,
    timeline=timeline,
    timeline_title=gettext_lazy("Spaces by religion"),
    timeline_caption=gettext_lazy(
        "The number of Catholic and of Protestant spaces, as each turn opened and now."
    ),
)
