"""View data for the campaign pages, built from loaded state (no queries, no rule logic).

The map rows feed both the SVG and the accessible table; the sequence says where the
campaign is in its turn; readiness says which powers have given orders; the log is
grouped by phase. What belongs to one game (its map badges, extra table columns and
state panels) comes from the ruleset's presenter (``Hooks.presenter``, the
rules.engine.Presenter of its presenters module).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from campaign.maps import labels, marks
from rules.engine import Presenter
from rules.gm_orders import KEY as GM_ORDERS_KEY
from rules.translation import Name, localized, render

NEUTRAL = gettext_lazy("Neutral")
AREA_KINDS = {  # an area's kind as pages name it (the scenario's key otherwise)
    "minor": pgettext_lazy("area kind", "minor country"),
    "province": pgettext_lazy("area kind", "province"),
    "sea": pgettext_lazy("area kind", "sea zone"),
    "space": pgettext_lazy("area kind", "space"),
    "territory": pgettext_lazy("area kind", "territory"),
}
NEUTRAL_COLOR = "#d9d4c7"
SEA_COLOR = "#bcd6e8"  # a sea zone nobody controls
GRID_STEP = 100.0
# A drawn map's counters: their height in map units (16 px where the map is drawn at its
# built scale of 0.8 px a unit), and the scale that gives the badge templates' shapes
# (about 12 units across) that height.
BADGE_SIZE = 20.0
BADGE_SCALE = 1.7
FOCUS_MARGIN = 40.0  # map units around the reader's own areas in the first view
COUNTER_STEP = 16.0  # between two counters' centres, in the badge templates' units
COUNTERS_A_ROW = 4
ORDER_RADIUS = 14.0  # an order marker's, in map units
SMALLEST_LABEL = 10.0  # the font size a translated area name is never drawn below
BEFORE_THE_FIRST_PHASE = gettext_lazy("Before the first phase")


@dataclass(frozen=True)
class MapLabel:
    """Where an area's name is written on a drawn map: the text's centre, its size, the
    words (the name, or the abbreviation the map was built with), for a label set away
    from its area the leader line from the area to it, and where its counters go."""

    x: float
    y: float
    size: float
    text: str
    leader: tuple[float, float, float, float] | None = None
    counters: tuple[float, float] | None = None  # where the map was built to put them

    @property
    def badges_at(self) -> tuple[float, float]:
        """Where the area's counters go (the middle of their first row): where the map
        was built to put them, in the area, even when the name is led away; for a map
        built without that place, just below the name."""
        if self.counters:
            return self.counters
        return (self.x, round(self.y + self.size * 0.625 + BADGE_SIZE / 2, 1))


@dataclass(frozen=True)
class AreaRow:
    key: str
    name: str
    kind: str  # the scenario's key: minor, province, sea, space, territory
    kind_label: str
    controller: str
    color: str
    x: float
    y: float
    badges: tuple = ()  # the ruleset's markers
    cells: tuple[str, ...] = ()  # the ruleset's table columns
    remarks: tuple[str, ...] = ()
    highlight: bool = False  # part of what an answer points at (e.g. a line of communication)
    shape: str = ""  # its outline on a drawn map (SVG path data); "" on the diagram
    label: MapLabel | None = None  # its name on a drawn map
    counters: tuple = ()  # on a drawn map: the badges drawn as counters, in rows
    patterns: tuple[str, ...] = ()  # on a drawn map: the patterns over the area


@dataclass(frozen=True)
class OrderLine:
    """An order drawn on the map: an arrow through ``points`` (x, y each), or a marker
    on the one point; in its power's ``color``."""

    kind: str
    power: str
    color: str
    points: tuple[tuple[float, float], ...]
    label: str
    keys: tuple[str, ...] = ()  # the areas it starts in, passes and points at
    # on a drawn map, a marker's ring round its area's name (x, y, width, height)
    ring: tuple[float, float, float, float] | None = None
    clear: bool = True  # on a drawn map, whether its arrow found a way round every name

    @property
    def arrow(self) -> bool:
        return len(self.points) > 1

    @property
    def svg_points(self) -> str:
        return " ".join(f"{x:g},{y:g}" for x, y in self.points)


@dataclass(frozen=True)
class MapView:
    rows: list[AreaRow]
    lines: list[tuple[float, float, float, float]]
    view_box: str
    scale: float  # markers are drawn in a 10-unit radius, scaled to the map's size
    legend: list[tuple[str, str]]
    columns: tuple[str, ...]
    key: str
    land: str = ""  # a drawn map's coastlines (SVG path data); "" on the diagram
    # the first view: the reader's own areas ("x y width height"), "" for the whole map
    focus: str = ""
    px_per_unit: float = 0.0  # the scale a drawn map was built for: its names' smallest
    orders: tuple[OrderLine, ...] = ()  # the orders the reader may read, on the map

    @property
    def links_path(self) -> str:
        """The links between areas as one SVG path."""
        return "".join(f"M{x1:g} {y1:g}L{x2:g} {y2:g}" for x1, y1, x2, y2 in self.lines)

    @property
    def width(self) -> float:
        return float(self.view_box.split()[2])

    @property
    def height(self) -> float:
        return float(self.view_box.split()[3])

    @property
    def order_radius(self) -> float:
        """An order marker's radius: a counter's size, on the diagram's scale too."""
        return ORDER_RADIUS if self.drawn else round(ORDER_RADIUS * self.scale / BADGE_SCALE, 2)

    @property
    def drawn(self) -> bool:
        """Whether the map is drawn from its built shapes (campaign/maps), not as a
        diagram of circles."""
        return bool(self.land)

    @property
    def highlighted(self) -> bool:
        return any(row.highlight for row in self.rows)


@dataclass(frozen=True)
class Step:
    name: str
    does: str
    rules: tuple[str, ...]
    state: str  # "done", "current" or "next"
    as_before: bool = False  # does what the step before does (e.g. each power's impulse)

    @property
    def explained(self) -> bool:
        """Whether the sequence says what it does: once for a run of like steps, and
        always for the step open now."""
        return not self.as_before or self.state == "current"


@dataclass(frozen=True)
class Readiness:
    power: str
    color: str
    player: str
    status: str  # "ready", "draft" or "none"
    updated_at: Any
    # whether the phase waits for it: "owes"; or why not: "nothing" (nothing to order),
    # "away", "absent", "disorder" (civil disorder), "unseated"
    awaited: str = "owes"
    missed: int = 0  # the deadlines its player has missed in a row


@dataclass(frozen=True)
class DiceNote:
    seeded: bool  # seeded (verifiable) dice; otherwise the GM enters them
    seed_hash: str  # the open phase's seed commitment, "" when no phase is open


@dataclass(frozen=True)
class LogLine:
    event_id: int  # the line's place in the log: what a page has seen ends at one
    rule: str
    linked: bool  # the rule is a procedure of the rules page
    text: str
    kind: str
    actor: str
    created_at: Any


@dataclass(frozen=True)
class LogGroup:
    """The log lines of one phase, in the order they happened."""

    phase: str
    turn: str
    is_open: bool
    lines: list[LogLine]
    seed: str = ""  # revealed once the phase is resolved (seeded dice only)
    seed_hash: str = ""
    phase_id: int | None = None  # None: the lines before the first phase

    @property
    def newest_id(self) -> int:
        """The id of the group's newest line."""
        return max(line.event_id for line in self.lines)


def newest_line_id(groups: list[LogGroup]) -> int:
    """The id of the newest line of ``groups`` (0: none): the log a page shows ends
    there, and a change's answer sends the lines after it."""
    return max((group.newest_id for group in groups), default=0)


def templates_of(ruleset: Any) -> str:
    """The folder of the ruleset's own templates (map badges, state panels), in its
    package's templates/ (an app's): those of a ruleset with a presenter; "" for one
    without. Its map_badges.html draws its badges (``shape``), the patterns of its
    statuses on a drawn map (``patterns``) and its entries of the map's legend
    (``legend``)."""
    return f"campaign/{ruleset.key}" if ruleset.hooks.presenter else ""


def styles_of(ruleset: Any) -> tuple[str, ...]:
    """The style sheets of the ruleset's pieces on the map (its presenter's
    ``map_styles``), as static paths; none for a ruleset without a presenter."""
    presenter = ruleset.hooks.presenter
    return presenter.map_styles if presenter else ()


def map_view(
    areas: list[dict],
    powers: list[Any],
    world: Any,
    presenter: Presenter[object] | None,
    viewer: frozenset[str] | None = None,
    highlight: set[str] = frozenset(),
    shapes: Any = None,
    own_power_id: int | None = None,
    orders: Mapping[str, dict] | None = None,
) -> MapView:
    """Rows per area (sorted by name), the lines to draw and an SVG viewBox.

    ``areas`` are the campaign's areas (key, name, kind, controller_id, x, y); the
    ruleset's presenter adds each area's badges, cells and remarks. With ``shapes`` (the
    scenario's built map, campaign.maps.stored.BuiltMap) that has every area, the map is
    drawn from them, its first view framing the areas of ``own_power_id``; otherwise it
    is a diagram of the areas' points, joined by the World's ``adjacency``. ``orders``:
    the payloads, by power key, of the orders the reader may read, drawn on it.
    """
    areas = sorted(areas, key=lambda area: area["name"])
    by_pk = {p.pk: p for p in powers}
    marks = presenter.area_marks(world, viewer) if presenter else {}
    drawn = shapes is not None and all(area["key"] in shapes.areas for area in areas)
    if drawn:
        points = {key: shape.anchor for key, shape in shapes.areas.items()}
    else:
        positions = {area["key"]: (area["x"], area["y"]) for area in areas}
        points = layout([area["key"] for area in areas], positions)
    rows = [
        area_row(area, by_pk, marks.get(area["key"]), points[area["key"]], area["key"] in highlight)
        for area in areas
    ]
    common = {
        "legend": [(Name(p.name), p.color) for p in powers],
        "columns": presenter.columns if presenter else (),
        "key": presenter.map_key if presenter else "",
        "orders": order_lines(presenter, world, orders, viewer, points, powers),
    }
    if drawn:
        return drawn_map(rows, areas, presenter, shapes, own_power_id, common)
    corners = list(points.values())
    return MapView(
        rows=rows,
        lines=adjacency_lines(world.adjacency, points),
        view_box=view_box(corners),
        scale=marker_scale(corners),
        **common,
    )


def map_label(place: Any, english: str, name: str | None = None) -> MapLabel:
    """An area's name (``english``: the scenario's, or the abbreviation its built map
    gives; ``name``: the scenario's) where the map was built to write it, in the
    reader's language: an abbreviation the catalogs do not hold is made from the
    translated name (labels.abbreviation); a word longer than the English the map made
    room for is written smaller, so that it keeps about the English word's width."""
    shown = str(Name(english))
    if name and english != name and shown == english and str(Name(name)) != name:
        shown = labels.abbreviation(str(Name(name))) or str(Name(name))
    size = place.size
    if len(shown) > len(english):
        size = max(round(size * len(english) / len(shown), 1), min(size, SMALLEST_LABEL))
    counters = getattr(place, "counters", None)
    return MapLabel(place.x, place.y, size, shown, place.leader, counters)


def drawn_map(
    rows: list[AreaRow],
    areas: list[dict],
    presenter: Presenter[object] | None,
    shapes: Any,
    own_power_id: int | None,
    common: dict,
) -> MapView:
    """The map drawn from its built shapes (see map_view): each row gets its outline, its
    name's place and its marks as a drawn map shows them; the orders are placed among
    the names (campaign.maps.marks)."""
    drawn_rows = []
    for row in rows:
        shape = shapes.areas[row.key]
        name = str.__str__(row.name)
        label = map_label(shape.label, shape.label.text or name, name)
        drawn_rows.append(replace(row, shape=shape.d, label=label, **drawn_marks(row, presenter)))
    own = [
        row
        for row, area in zip(drawn_rows, areas, strict=True)
        if area["controller_id"] == own_power_id
    ]
    anchors = {key: shape.anchor for key, shape in shapes.areas.items()}
    orders = marks.placed(common["orders"], drawn_rows, (shapes.width, shapes.height))
    return MapView(
        rows=drawn_rows,
        lines=[(*anchors[a], *anchors[b]) for a, b in shapes.links],
        view_box=f"0 0 {shapes.width:g} {shapes.height:g}",
        scale=BADGE_SCALE,
        land=shapes.land,
        px_per_unit=shapes.px_per_unit,
        focus=focus_box(own, shapes.width, shapes.height) if own_power_id else "",
        **{**common, "orders": orders},
    )


def drawn_marks(row: AreaRow, presenter: Presenter[object] | None) -> dict:
    """An area's badges as a drawn map shows them: statuses as patterns (the presenter's
    ``map_patterns``), the others as counters in rows of COUNTERS_A_ROW under its name."""
    patterns = presenter.map_patterns if presenter else {}
    counters = [b for b in row.badges if b.kind not in patterns]
    width = min(len(counters), COUNTERS_A_ROW)
    placed = tuple(
        replace(
            badge,
            dx=COUNTER_STEP * (i % COUNTERS_A_ROW - (width - 1) / 2),
            dy=COUNTER_STEP * (i // COUNTERS_A_ROW),
        )
        for i, badge in enumerate(counters)
    )
    drawn = tuple(dict.fromkeys(patterns[b.kind] for b in row.badges if patterns.get(b.kind)))
    return {"counters": placed, "patterns": drawn}


def order_lines(
    presenter: Presenter[object] | None,
    world: Any,
    orders: Mapping[str, dict] | None,
    viewer: frozenset[str] | None,
    points: Mapping[str, tuple[float, float]],
    powers: list[Any],
) -> tuple[OrderLine, ...]:
    """The orders as the presenter marks them (``order_marks``), placed at the areas'
    ``points``; none for a ruleset without a presenter."""
    if not orders or presenter is None:
        return ()
    colors = {power.key: power.color for power in powers}
    lines = []
    for mark in presenter.order_marks(world, orders, viewer):
        keys = [*([mark.source] if mark.source else []), *mark.via, mark.target]
        if all(key in points for key in keys):
            color = colors.get(mark.power, NEUTRAL_COLOR)
            at = tuple(points[key] for key in keys)
            lines.append(OrderLine(mark.kind, mark.power, color, at, mark.label, tuple(keys)))
    return tuple(lines)


def focus_box(rows: list[AreaRow], width: float, height: float) -> str:
    """The box ("x y width height") around these areas' anchors and names, within the
    map; "" for no area."""
    if not rows:
        return ""
    xs = [v for row in rows for v in (row.x, row.label.x)]
    ys = [v for row in rows for v in (row.y, row.label.y)]
    left, top = max(0.0, min(xs) - FOCUS_MARGIN), max(0.0, min(ys) - FOCUS_MARGIN)
    right, bottom = min(width, max(xs) + FOCUS_MARGIN), min(height, max(ys) + FOCUS_MARGIN)
    return f"{left:g} {top:g} {right - left:g} {bottom - top:g}"


def area_row(
    area: dict, by_pk: dict, mark: Any, point: tuple = (0.0, 0.0), highlight: bool = False
) -> AreaRow:
    """One area's row: its controller (or neutral) and the ruleset's ``mark`` for it."""
    controller = by_pk.get(area["controller_id"])
    return AreaRow(
        key=area["key"],
        name=Name(area["name"]),
        kind=area["kind"],
        kind_label=AREA_KINDS.get(area["kind"], area["kind"]),
        controller=Name(controller.name) if controller else NEUTRAL,
        color=controller.color if controller else uncontrolled_color(area["kind"]),
        x=point[0],
        y=point[1],
        badges=mark.badges if mark else (),
        cells=mark.cells if mark else (),
        remarks=mark.remarks if mark else (),
        highlight=highlight,
    )


def uncontrolled_color(kind: str) -> str:
    return SEA_COLOR if kind == "sea" else NEUTRAL_COLOR


def layout(keys: list[str], positions: dict[str, tuple[float, float]]) -> dict[str, tuple]:
    """The scenario's coordinates, or a grid when the scenario gives none."""
    points = {key: positions.get(key, (0.0, 0.0)) for key in keys}
    if len(set(points.values())) > 1 or len(keys) <= 1:
        return points
    columns = max(1, round(len(keys) ** 0.5))
    return {
        key: ((i % columns) * GRID_STEP, (i // columns) * GRID_STEP) for i, key in enumerate(keys)
    }


def adjacency_lines(adjacency: dict[str, set[str]], points: dict[str, tuple]) -> list[tuple]:
    """Each adjacent pair once, as x1, y1, x2, y2."""
    lines = []
    for a, neighbours in adjacency.items():
        for b in neighbours:
            if a < b and a in points and b in points:
                lines.append((*points[a], *points[b]))
    return lines


def view_box(points: list[tuple]) -> str:
    xs, ys = zip(*points, strict=True) if points else ((0.0,), (0.0,))
    pad = marker_scale(points) * 30
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    return f"{min(xs) - pad:g} {min(ys) - pad:g} {width + 2 * pad:g} {height + 2 * pad:g}"


def marker_scale(points: list[tuple]) -> float:
    """Markers of radius 1/60 of the map's span."""
    if not points:
        return 1.0
    xs, ys = zip(*points, strict=True)
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    return round(span / 600, 3) if span else 1.0


def sequence(ruleset: Any, campaign: Any, phase: Any) -> list[Step]:
    """The phases of the current turn, marking the open one "you are here"."""
    specs = ruleset.turn_phases(campaign.turn, campaign.setup)
    here = phase.position if phase is not None else -1
    return [
        Step(
            spec.name,
            spec.does,
            spec.rules,
            step_state(position, here),
            as_before=position > 0 and (spec.does, spec.rules) == (before.does, before.rules),
        )
        for position, (before, spec) in enumerate(zip([None, *specs], specs, strict=False))
    ]


def step_state(position: int, here: int) -> str:
    if position == here:
        return "current"
    return "done" if position < here else "next"


def readiness(
    powers: list[Any], orders: dict[int, Any], spec: Any = None, phase: Any = None
) -> list[Readiness]:
    """Per power that gives orders in the phase (``spec``: every power when it is None or
    takes them from all): its player (``power.player``: the user name of its seat's
    user, or None), order status, and whether the open ``phase`` waits for it."""
    rows = []
    for power in powers:
        if spec is not None and spec.orders_from not in ("all", "none", power.key):
            continue
        order = orders.get(power.pk)
        status = "none" if order is None else "ready" if order.ready else "draft"
        rows.append(
            Readiness(
                power=Name(power.name),
                color=power.color,
                player=power.player or "",
                status=status,
                updated_at=order.updated_at if order else None,
                awaited=awaited(power, spec, phase),
                missed=power.missed_in_row,
            )
        )
    return rows


def awaited(power: Any, spec: Any, phase: Any) -> str:
    """Whether the phase waits for the power's orders ("owes"), or why not."""
    if not power.player:
        return "unseated"
    if power.in_disorder:
        return "disorder"
    if power.absent:
        return "absent"
    if getattr(power, "away", False):
        return "away"
    if phase is not None and spec is not None and not phase.waits_for(spec, power.key):
        return "nothing"
    return "owes"


@dataclass(frozen=True)
class OrderRow:
    power: str
    status: str  # "ready", "draft" or "none"
    lines: tuple[str, ...]  # the payload, one "field: value" line each


def order_rows(
    powers: list[Any],
    orders: dict[int, Any],
    for_gm: Callable[[Any], tuple] = lambda o: (),
    said: Callable[[str, dict], list[str]] | None = None,
) -> list[OrderRow]:
    """What each power ordered for the open phase, for the GM to read; ``for_gm``: the
    texts of an order's lines for the GM (campaign/play/gm_orders.py), kept apart in its
    payload; ``said(power_key, payload)``: the order as sentences (``orders_said``)."""
    said = said or plain_order_lines
    rows = []
    for power in powers:
        order = orders.get(power.pk)
        if order is None:
            rows.append(OrderRow(Name(power.name), "none", ()))
            continue
        lines = tuple(said(power.key, order.payload)) + for_gm(order)
        rows.append(
            OrderRow(
                Name(power.name), "ready" if order.ready else "draft", lines or (_("nothing"),)
            )
        )
    return rows


def orders_said(
    presenter: Presenter[object] | None, world: object
) -> Callable[[str, dict], list[str]] | None:
    """How the ruleset's presenter says a power's order as sentences in the reader's
    language (its ``order_text(world, power_key, payload)``); None for a ruleset whose
    presenter does not."""
    order_text = presenter.order_text if presenter else None
    if order_text is None:
        return None
    return lambda power_key, payload: order_text(world, power_key, payload)


def plain_order_lines(power_key: str, payload: dict) -> list[str]:
    """An order's fields and values, for a ruleset whose presenter does not say them."""
    return [
        f"{name.replace('_', ' ')}: {_order_value(value)}"
        for name, value in payload.items()
        if value not in (None, "", [], {}) and name != GM_ORDERS_KEY
    ]


def _order_value(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k} {_order_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_order_value(item) for item in value)
    return str(value)


def dice_note(seeded: bool, phase: Any) -> DiceNote:
    """How the dice are rolled, and the open phase's seed commitment (never its seed)."""
    return DiceNote(seeded=seeded, seed_hash=phase.seed_hash if seeded and phase else "")


def log_groups(
    events: list[Any],
    ruleset: Any,
    setup: dict,
    seeded: bool,
    viewer: frozenset[str] | None = None,
) -> list[LogGroup]:
    """Log lines grouped by phase, newest phase first; within a phase, oldest line first.
    With seeded dice, each resolved phase reveals its seed (never the open phase). A line
    whose audience ``viewer`` is not in reads its redacted text, or is left out.

    ``events`` come newest first, each with its phase (or None) and actor loaded.
    """
    by_phase: dict[Any, list[Any]] = {}
    for event in events:
        text = visible_text(event, viewer)
        if text:
            by_phase.setdefault(event.phase, []).append((event, text))
    newest_first = sorted(  # lines of no phase (before the first) last
        by_phase, key=lambda phase: (phase.turn, phase.position) if phase else (0, 0), reverse=True
    )
    return [
        log_group(phase, by_phase[phase][::-1], ruleset, setup, seeded) for phase in newest_first
    ]


def visible_text(event: Any, viewer: frozenset[str] | None) -> str:
    """The event's text for ``viewer`` in the active language: in full, redacted, or ""
    (not shown)."""
    if reads_in_full(event, viewer):
        return render(event.message, event.text) if event.message else event.text
    if event.redacted_message:
        return render(event.redacted_message, event.redacted)
    return event.redacted


def reads_in_full(event: Any, viewer: frozenset[str] | None) -> bool:
    """Whether ``viewer`` reads the event's full text (not its redacted one)."""
    return viewer is None or not event.audience or bool(viewer & set(event.audience))


def log_group(
    phase: Any, events: list[tuple[Any, str]], ruleset: Any, setup: dict, seeded: bool
) -> LogGroup:
    revealed = seeded and phase is not None and phase.status == "resolved"
    return LogGroup(
        phase=ruleset.phase(phase.key).name if phase else BEFORE_THE_FIRST_PHASE,
        turn=localized(ruleset.turn_label(phase.turn if phase else events[0][0].turn, setup)),
        is_open=bool(phase and phase.is_open),
        lines=[
            LogLine(
                event_id=event.pk,
                rule=event.rule,
                linked=event.rule in ruleset.procedures,
                text=text,
                kind=event.get_kind_display(),
                actor=event.actor_label,
                created_at=event.created_at,
            )
            for event, text in events
        ],
        seed=phase.seed if revealed else "",
        seed_hash=phase.seed_hash if revealed else "",
        phase_id=phase.pk if phase else None,
    )


def away_period(seat: Any) -> dict | None:
    """A player's away period as the pages show it: ``start``, ``end``, ``now`` (under
    way) and ``refused`` (by the GM); None without one still to come or under way."""
    now = timezone.now()
    if seat.away_from is None or seat.away_until <= now:
        return None
    return {
        "start": seat.away_from,
        "end": seat.away_until,
        "now": seat.away_at(now),
        "refused": seat.away_refused,
    }
