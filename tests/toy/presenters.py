"""What the campaign pages show of the Beacons state (the ruleset's presenter).

Pure functions over the World. The beacons and the raids are public; a lord's reserve of
wood is its own: ``viewer`` (Ruleset.viewer) is the set of lords whose reserves the
reader sees (``sees``: a lord's player sees its own), or None for the GM and watchers
who see everything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine import Presenter, Reading
from rules.marks import AreaMarks, Badge, OrderMark
from tests.toy.phases import GATHERING, RAIDING
from tests.toy.state import World

if TYPE_CHECKING:
    from rules.platform import Power

RAIDED = "raided"  # the badge kind of a beacon a raid waits on
NO_VALUE = "—"


def sees(world: World, power_key: str) -> frozenset[str]:
    """A lord's player sees its own reserve."""
    return frozenset({power_key})


def reads_reserve(lord: str, viewer: frozenset[str] | None) -> bool:
    return viewer is None or lord in viewer


def beacon_label(world: World, area: str) -> str:
    lord = world.lit.get(area)
    if lord is None:
        return _("unlit")
    return _("lit by %(lord)s") % {"lord": world.powers[lord]}


def raid_label(world: World, area: str) -> str:
    """The raid under way on the area's beacon, or ""."""
    for raid in world.raids:
        if raid.area == area:
            return _("raided by %(lord)s (die %(face)s)") % {
                "lord": world.powers[raid.raider],
                "face": raid.face,
            }
    return ""


def area_marks(world: World, viewer: frozenset[str] | None) -> dict[str, AreaMarks]:
    """Per area: its beacon (a flame of kind "beacon" in its lord's colour) and the raid
    that waits on it (kind "raided"); the reserves are in no area."""
    marks = {}
    for area, lord in world.lit.items():
        badges = []
        if lord is not None:
            badges.append(Badge("beacon", 0, beacon_label(world, area), world.colors.get(lord, "")))
        raided = raid_label(world, area)
        if raided:
            badges.append(Badge(RAIDED, 0, raided))
        marks[area] = AreaMarks(
            badges=tuple(badges),
            cells=(beacon_label(world, area), raided or NO_VALUE),
            remarks=(),
        )
    return marks


def area_refs(world: World, key: str) -> tuple[frozenset[str], frozenset[int]]:
    """What an order may name the area ``key`` by: its key alone."""
    return frozenset({key}), frozenset()


@dataclass(frozen=True)
class LordRow:
    key: str
    name: str
    color: str
    beacons: int
    reserve: str  # "3 wood" for a reader who sees it, else ""


def panels(world: World, viewer: frozenset[str] | None) -> dict:
    """The Lords panel (their beacons, and the reserves the viewer sees) and the raids
    under way."""
    lords = [
        LordRow(
            key=key,
            name=name,
            color=world.colors.get(key, ""),
            beacons=len(world.beacons_of(key)),
            reserve=wood_text(world.wood.get(key, 0)) if reads_reserve(key, viewer) else "",
        )
        for key, name in world.powers.items()
    ]
    raids = [
        _("%(raider)s on the beacon of %(lord)s in %(area)s (die %(face)s)")
        % {
            "raider": world.powers[raid.raider],
            "lord": world.powers.get(world.lit.get(raid.area), NO_VALUE),
            "area": world.names[raid.area],
            "face": raid.face,
        }
        for raid in world.raids
    ]
    return {"lords": lords, "raids": raids}


def wood_text(count: int) -> str:
    return ngettext("%(count)s wood", "%(count)s wood", count) % {"count": count}


# -- orders on the map --------------------------------------------------------------


def order_marks(
    world: World, orders: Mapping[str, dict], viewer: frozenset[str] | None
) -> list[OrderMark]:
    """A marker on the area a lord lights (TOY-1), an arrow from its nearest own beacon to
    the beacon it raids (TOY-2); the wood fed is its lord's secret and drawn nowhere."""
    marks = []
    for power in world.powers:
        payload = orders.get(power) or {}
        area = payload.get("area")
        if area not in world.lit:
            continue
        if payload.get("action") == RAIDING:
            marks += raid_marks(world, power, area)
        elif "action" not in payload:
            label = _("%(lord)s lights %(area)s") % {
                "lord": world.powers[power],
                "area": world.names[area],
            }
            marks.append(OrderMark("light", power, area, label=label))
    return marks


def raid_marks(world: World, power: str, area: str) -> list[OrderMark]:
    """TOY-2: an arrow from the raider's beacon next to the target, if it has one."""
    sources = sorted(world.adjacency.get(area, set()) & world.beacons_of(power))
    if not sources:
        return []
    label = _("%(lord)s raids %(area)s") % {"lord": world.powers[power], "area": world.names[area]}
    return [OrderMark("raid", power, area, sources[0], label=label)]


def order_text(world: World, power: str, payload: Mapping) -> list[str]:
    """A lord's order as sentences in the active language, for those who may read it (the
    GM's list of the orders given, an area's panel): it names the wood fed."""
    area = payload.get("area")
    names = {"lord": world.powers.get(power, power), "area": world.names.get(area, area)}
    if payload.get("action") == GATHERING:
        return [_("%(lord)s gathers wood (TOY-3)") % names]
    if payload.get("action") == RAIDING:
        return [_("%(lord)s raids the beacon in %(area)s (TOY-2)") % names]
    if not area:
        return []
    feed = payload.get("feed", 0)
    if feed:
        return [
            _("%(lord)s lights %(area)s, feeding %(count)s wood (TOY-1)") % {**names, "count": feed}
        ]
    return [_("%(lord)s lights %(area)s (TOY-1)") % names]


def timeline(state: dict[str, Any], powers: Sequence[Power]) -> list[Reading]:
    """Per lord, its beacons lit (public: every seat sees the map)."""
    lit = [row.get("lit_by") for row in state.get("beacons", [])]
    return [(p.key, p.display_name, p.color, lit.count(p.key)) for p in powers]


PRESENTER: Presenter[World] = Presenter(
    columns=(gettext_lazy("Beacon"), gettext_lazy("Raid")),
    map_key=gettext_lazy(
        "On the map: a flame in its lord's colour is a lit beacon; a beacon a raid has "
        "reached and that waits for its lord's decision is striped."
    ),
    area_marks=area_marks,
    panels=panels,
    area_refs=area_refs,
    map_patterns={RAIDED: "stripes"},  # a drawn map stripes the area
    map_styles=("courier/toy/map.css",),  # its pieces' styles (static/)
    order_marks=order_marks,
    order_text=order_text,
    timeline=timeline,
    timeline_title=gettext_lazy("Beacons lit"),
    timeline_caption=gettext_lazy(
        "One line per lord: its beacons lit, as each night opened and now."
    ),
)
