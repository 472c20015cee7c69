"""What the campaign pages show of the Empires in Arms state (the ruleset's presenter).

Pure functions over the World returning plain rows: the map's badges and table columns
per area, and the Powers, Relations and Revolts panels. Everything here is public in
Empires in Arms.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.empires_in_arms import gm_orders
from rules.empires_in_arms.state import ALLIED, CLIENT, CONQUERED, MINOR, ZONE_NAMES, Area, World
from rules.engine import Label, Presenter, Reading
from rules.marks import BESIEGED, AreaMarks, Badge, OrderMark, counted, gm_move_marks
from rules.platform import localized

HOLDINGS = {
    ALLIED: gettext_lazy("allied minor"),
    CLIENT: gettext_lazy("client state"),
    CONQUERED: gettext_lazy("conquered minor"),
}
NO_VALUE = "—"
# the orders drawn as a marker on each area they name: payload key → kind, label
AREA_ORDERS = {
    "lapse": ("lapse", gettext_lazy("%(power)s lets its revolt in %(area)s lapse")),
    "operations": ("operation", gettext_lazy("%(power)s anti-guerrilla operation in %(area)s")),
    "depot_attacks": (
        "depot",
        gettext_lazy("%(power)s's guerrillas attack the depots in %(area)s"),
    ),
}
CONQUEST_LABELS = {
    CLIENT: gettext_lazy("If its revolt succeeds, %(power)s makes %(area)s its client state"),
    CONQUERED: gettext_lazy("If its revolt succeeds, %(power)s makes %(area)s a conquered minor"),
}


@dataclass(frozen=True)
class PowerRow:
    key: str
    name: str
    zone: str
    zone_modifier: str  # the political status modifier, signed: "+1", "0", "−2"
    political_points: int
    treasury: int
    bad_roll_order: str  # the standing order on an anti-guerrilla bad roll (EIA-4)


@dataclass(frozen=True)
class RelationRow:
    first: str
    second: str
    kind: str  # "at war" or "allied"


@dataclass(frozen=True)
class RevoltRow:
    area: str
    controller: str
    holding: Label  # how the controller holds it: "allied minor", "ceded province", …
    sponsor: str
    number: int
    guerrilla_factors: int
    months_without_guerrillas: int  # EIA-7: the revolt ends after three
    capital_held_months: int  # EIA-8


def area_marks(world: World, viewer: frozenset[str] | None = None) -> dict[str, AreaMarks]:
    """Per area: revolt number, guerrilla factors and corps as badges (kinds "revolt",
    "guerrilla", "corps") and table cells (everything is public in Empires in Arms,
    whoever the viewer)."""
    names = power_names(world)
    revolts = {revolt.area: revolt for revolt in world.revolts if revolt.active}
    factors = guerrilla_factors(world)
    corps = Counter(unit.area for unit in world.corps)
    sieges = {c.area for c in world.corps if c.besieged} | {
        g.area for g in world.guerrillas if g.besieged
    }
    marks = {}
    for key, area in world.areas.items():
        revolt = revolts.get(key)
        number = f"{revolt.number} ({names[revolt.sponsor]})" if revolt else ""
        badges = []
        if revolt:
            badges.append(
                Badge("revolt", revolt.number, _("revolt %(number)s") % {"number": number})
            )
        if key in sieges:
            badges.append(Badge(BESIEGED, 0, _("Besieged")))
        if n := factors[key]:
            label = ngettext("%(count)s guerrilla factor", "%(count)s guerrilla factors", n)
            badges.append(counted("guerrilla", n, label))
        if n := corps[key]:
            badges.append(counted("corps", n, ngettext("%(count)s corps", "%(count)s corps", n)))
        marks[key] = AreaMarks(
            badges=tuple(badges),
            cells=(
                str(area.manpower),
                NO_VALUE if area.guerrilla_value is None else str(area.guerrilla_value),
                number or NO_VALUE,
                str(factors[key] or NO_VALUE),
                str(corps[key] or NO_VALUE),
            ),
            remarks=remarks(area),
        )
    return marks


def area_refs(world: World, key: str) -> tuple[frozenset[str], frozenset[int]]:
    """What an order may name the area ``key`` by: its key, and the guerrilla stacks in
    it."""
    return frozenset({key}), frozenset(
        g.id for g in world.guerrillas if g.area == key and g.id is not None
    )


def remarks(area: Area) -> tuple[Label, ...]:
    """What the map table says after an area's kind: ceded, or how a minor is held."""
    if area.ceded:
        return (_("ceded"),)
    return (HOLDINGS[area.minor_status],) if area.minor_status else ()


def panels(world: World, viewer: frozenset[str] | None = None) -> dict:
    """The Powers, Relations and Revolts panels, and the militia Spain is owed (public)."""
    names = power_names(world)
    return {
        "powers": power_rows(world),
        "relations": relation_rows(world),
        "revolts": revolt_rows(world),
        "militia_due": [(names[key], n) for key, n in world.militia_due.items() if n],
    }


def power_rows(world: World) -> list[PowerRow]:
    """Each power's political status (EIA-1), PP, treasury and bad-roll standing order."""
    never_pays = world.options.get("bad_roll_payment") == "never"
    return [
        PowerRow(
            key=power.key,
            name=power.name,
            zone=localized(ZONE_NAMES.get(power.zone, power.zone)),
            zone_modifier=signed(power.status_modifier),
            political_points=power.political_points,
            treasury=power.treasury,
            bad_roll_order=bad_roll_order(power.pays_bad_roll, never_pays=never_pays),
        )
        for power in world.powers.values()
    ]


def bad_roll_order(pays: bool, *, never_pays: bool) -> str:
    """EIA-4: whether the power pays $d6 to stop a bad-roll rise (Decision 5)."""
    if never_pays:
        return _("never pays (rule option)")
    return _("pays $d6") if pays else _("lets it rise")


def relation_rows(world: World) -> list[RelationRow]:
    """Wars, then alliances, each pair in name order."""
    names = power_names(world)
    rows = []
    for pairs, kind in ((world.wars, _("at war")), (world.alliances, _("allied"))):
        named = sorted(sorted(names[key] for key in pair) for pair in pairs)
        rows += [RelationRow(first, second, kind) for first, second in named]
    return rows


def revolt_rows(world: World) -> list[RevoltRow]:
    """The revolts under way, by area name."""
    names = power_names(world)
    factors = guerrilla_factors(world)
    rows = []
    for revolt in world.revolts:
        if not revolt.active:
            continue
        area = world.areas[revolt.area]
        rows.append(
            RevoltRow(
                area=area.name,
                controller=names[area.controller] if area.controller in names else _("Neutral"),
                holding=holding(area),
                sponsor=names[revolt.sponsor],
                number=revolt.number,
                guerrilla_factors=factors[revolt.area],
                months_without_guerrillas=revolt.months_without_guerrillas,
                capital_held_months=revolt.capital_held_months,
            )
        )
    return sorted(rows, key=lambda row: row.area)


def holding(area: Area) -> Label:
    """How its controller holds an area: a minor's status, or a ceded province."""
    if area.kind == MINOR:
        return HOLDINGS.get(area.minor_status, "")
    return _("ceded province") if area.ceded else ""


def power_names(world: World) -> dict[str, str]:
    return {key: power.name for key, power in world.powers.items()}


def guerrilla_factors(world: World) -> Counter:
    factors: Counter = Counter()
    for stack in world.guerrillas:
        factors[stack.area] += stack.factors
    return factors


def signed(value: int) -> str:
    """+1, 0, −2."""
    return f"{value:+d}".replace("-", "−") if value else "0"


# -- orders on the map --------------------------------------------------------------


def order_marks(
    world: World, orders: Mapping[str, dict], viewer: frozenset[str] | None = None
) -> list[OrderMark]:
    """The orders the reader may read (payloads by power key) as arrows and markers,
    power by power in the World's order (everything is public in Empires in Arms,
    whoever the viewer). An area, stack or corps no longer on the map draws nothing."""
    marks: list[OrderMark] = []
    for power in world.powers:
        if payload := orders.get(power):
            marks += power_order_marks(world, power, payload)
    return marks


def power_order_marks(world: World, power: str, payload: Mapping) -> list[OrderMark]:
    """Whatever phase the payload is for: revolt attempts (EIA-1), lapses (EIA-7),
    guerrilla moves (EIA-9), operations (EIA-4), depot attacks (EIA-11), conquest
    choices (EIA-8), aid (EIA-5), and the corps moves among its lines for the GM."""
    return [
        *incitement_marks(world, power, payload.get("targets")),
        *phase_order_marks(world, power, payload),
        *gm_move_marks(
            power, payload, gm_orders.pieces(world, power), gm_orders.places(world), localized
        ),
    ]


def phase_order_marks(world: World, power: str, payload: Mapping) -> list[OrderMark]:
    """The marks of the phase's own orders other than revolt attempts: lapses, operations,
    depot attacks, guerrilla moves, conquest choices and aid."""
    markers = [
        OrderMark(kind, power, key, label=str(label) % named(world, power, key))
        for field, (kind, label) in AREA_ORDERS.items()
        for key in on_map(world, payload.get(field))
    ]
    return [
        *markers,
        *guerrilla_move_marks(world, power, payload.get("moves") or ()),
        *conquest_marks(world, power, payload.get("choices") or {}),
        *aid_marks(world, power, payload.get("aid") or {}),
    ]


def order_text(world: World, power: str, payload: Mapping) -> list[str]:
    """The order ``payload`` of ``power``, whatever its phase, as sentences in the active
    language (its lines for the GM aside: rules/gm_orders.py says them)."""
    marks = phase_order_marks(world, power, payload)
    return [*attempt_lines(world, power, payload.get("targets")), *(m.label for m in marks)]


def attempt_lines(world: World, power: str, targets) -> list[str]:
    """EIA-1: the revolt attempts in each area, with what they cost."""
    counts = Counter(key for key in targets or () if key in world.areas)
    return [
        ngettext(
            "%(power)s makes %(count)s revolt attempt in %(area)s (%(count)s PP)",
            "%(power)s makes %(count)s revolt attempts in %(area)s (%(count)s PP)",
            count,
        )
        % {**named(world, power, key), "count": count}
        for key, count in counts.items()
    ]


def incitement_marks(world: World, power: str, targets) -> list[OrderMark]:
    """EIA-1: an arrow from the sponsor to each area it incites to revolt (once, however
    many attempts it makes there)."""
    return [
        OrderMark(
            "incite",
            power,
            key,
            sponsor_area(world, power, key),
            label=_("%(power)s incites a revolt in %(area)s") % named(world, power, key),
        )
        for key in on_map(world, targets)
    ]


def guerrilla_move_marks(world: World, power: str, moves) -> list[OrderMark]:
    """EIA-9: an arrow for each of the power's guerrilla stacks that moves."""
    stacks = {g.id: g for g in world.guerrillas if g.nationality == power and g.id is not None}
    marks = []
    for move in moves:
        stack, to = stacks.get(move.get("stack")), move.get("to")
        if stack is None or stack.area == to or {stack.area, to} - world.areas.keys():
            continue
        label = ngettext(
            "%(count)s guerrilla factor of %(power)s moves from %(here)s to %(there)s",
            "%(count)s guerrilla factors of %(power)s move from %(here)s to %(there)s",
            stack.factors,
        ) % {
            "count": stack.factors,
            "power": world.powers[power].name,
            "here": world.areas[stack.area].name,
            "there": world.areas[to].name,
        }
        marks.append(OrderMark("move", power, to, stack.area, label=label))
    return marks


def conquest_marks(world: World, power: str, choices: Mapping) -> list[OrderMark]:
    """EIA-8: a marker on each revolt whose success the sponsor has chosen to make a
    client state or a conquered minor."""
    return [
        OrderMark(
            "conquest", power, key, label=str(CONQUEST_LABELS[choice]) % named(world, power, key)
        )
        for key, choice in choices.items()
        if key in world.areas and choice in CONQUEST_LABELS
    ]


def aid_marks(world: World, power: str, aid: Mapping) -> list[OrderMark]:
    """EIA-5: an arrow from the sponsor to each revolt it aids."""
    return [
        OrderMark(
            "aid",
            power,
            key,
            sponsor_area(world, power, key),
            label=_("%(power)s aids the revolt in %(area)s with $%(amount)s")
            % {**named(world, power, key), "amount": amount},
        )
        for key, amount in aid.items()
        if key in world.areas
    ]


def sponsor_area(world: World, power: str, target: str) -> str | None:
    """Where the arrow of a power's order on ``target`` starts: the area it controls
    nearest to ``target`` (fewest adjacency steps, then key order), so that the arrow
    comes in from its side of the map; None (a marker only) when no area it controls is
    linked to ``target``."""
    seen, ring = {target}, [target]
    while ring:
        ring = sorted({near for key in ring for near in world.adjacency.get(key, ())} - seen)
        seen.update(ring)
        held = [key for key in ring if key in world.areas and world.areas[key].controller == power]
        if held:
            return held[0]
    return None


def on_map(world: World, keys: Iterable[str] | None) -> list[str]:
    """The keys of areas still on the map, each once, in order."""
    return [key for key in dict.fromkeys(keys or ()) if key in world.areas]


def named(world: World, power: str, key: str) -> dict[str, str]:
    return {"power": world.powers[power].name, "area": world.areas[key].name}


def timeline(state: dict, powers) -> list[Reading]:
    """Per power, the sum of its active revolts' numbers (public, as the map shows them)."""
    totals: Counter = Counter()
    for revolt in state.get("revolts", []):
        if revolt["active"]:
            totals[revolt["sponsor"]] += revolt["number"]
    return [(p.key, p.display_name, p.color, totals[p.key]) for p in powers]


PRESENTER: Presenter[World] = Presenter(
    columns=(
        gettext_lazy("Manpower"),
        gettext_lazy("Guerrilla value"),
        gettext_lazy("Revolt number (sponsor)"),
        gettext_lazy("Guerrilla factors"),
        gettext_lazy("Corps"),
    ),
    map_key=gettext_lazy(
        "On the map: red circle = revolt number, brown square = guerrilla factors, "
        "grey square = corps."
    ),
    area_marks=area_marks,
    panels=panels,
    area_refs=area_refs,
    map_patterns={BESIEGED: "dots"},  # a drawn map dots an area where a siege goes on
    map_styles=("courier/empires_in_arms/map.css",),  # its pieces' styles (static/)
    order_marks=order_marks,
    order_text=order_text,
    timeline=timeline,
    timeline_title=gettext_lazy("Revolt numbers by sponsor"),
    timeline_caption=gettext_lazy(
        "One line per power: the sum of the revolt numbers of the active revolts it sponsors "
        "(0: none), as each month opened and now. Powers with no active revolt throughout "
        "are left out."
    ),
)
