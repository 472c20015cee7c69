"""View data for the campaign pages, built from loaded state (no queries, no rule logic).

The map rows feed both the SVG and the accessible table; the sequence says where the
campaign is in its turn; readiness says which powers have given orders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NEUTRAL_COLOR = "#d9d4c7"
GRID_STEP = 100.0


@dataclass(frozen=True)
class AreaRow:
    key: str
    name: str
    kind: str
    controller: str
    color: str
    ceded: bool
    revolt_number: int | None
    revolt_sponsor: str
    guerrilla_factors: int
    corps_count: int
    x: float
    y: float


@dataclass(frozen=True)
class MapView:
    rows: list[AreaRow]
    lines: list[tuple[float, float, float, float]]
    view_box: str
    scale: float  # markers are drawn in a 10-unit radius, scaled to the map's size
    legend: list[tuple[str, str]]


@dataclass(frozen=True)
class Step:
    name: str
    does: str
    rules: tuple[str, ...]
    state: str  # "done", "current" or "next"


@dataclass(frozen=True)
class Readiness:
    power: str
    color: str
    player: str
    status: str  # "ready", "draft" or "none"
    updated_at: Any


@dataclass(frozen=True)
class LogLine:
    rule: str
    linked: bool  # the rule is a procedure of the rules page
    text: str
    kind: str
    actor: str
    turn: str
    created_at: Any


def map_view(world: Any, powers: list[Any], positions: dict[str, tuple[float, float]]) -> MapView:
    """Rows per area (sorted by name), adjacency lines and an SVG viewBox."""
    names = {p.key: p.name for p in powers}
    colors = {p.key: p.color for p in powers}
    revolts = {r.area: r for r in world.revolts if r.active}
    factors: dict[str, int] = {}
    for stack in world.guerrillas:
        factors[stack.area] = factors.get(stack.area, 0) + stack.factors
    corps: dict[str, int] = {}
    for unit in world.corps:
        corps[unit.area] = corps.get(unit.area, 0) + 1
    areas = sorted(world.areas.values(), key=lambda area: area.name)
    points = layout([area.key for area in areas], positions)
    corners = list(points.values())
    rows = [
        AreaRow(
            key=area.key,
            name=area.name,
            kind=area.kind,
            controller=names.get(area.controller, "Neutral") if area.controller else "Neutral",
            color=colors.get(area.controller, NEUTRAL_COLOR),
            ceded=area.ceded,
            revolt_number=revolts[area.key].number if area.key in revolts else None,
            revolt_sponsor=names.get(revolts[area.key].sponsor, "") if area.key in revolts else "",
            guerrilla_factors=factors.get(area.key, 0),
            corps_count=corps.get(area.key, 0),
            x=points[area.key][0],
            y=points[area.key][1],
        )
        for area in areas
    ]
    return MapView(
        rows=rows,
        lines=adjacency_lines(world.adjacency, points),
        view_box=view_box(corners),
        scale=marker_scale(corners),
        legend=[(p.name, p.color) for p in powers],
    )


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
        Step(spec.name, spec.does, spec.rules, step_state(position, here))
        for position, spec in enumerate(specs)
    ]


def step_state(position: int, here: int) -> str:
    if position == here:
        return "current"
    return "done" if position < here else "next"


def readiness(powers: list[Any], orders: dict[int, Any]) -> list[Readiness]:
    """Per power: its player (powers come with their seats prefetched) and order status."""
    rows = []
    for power in powers:
        seat = next((s for s in power.seats.all() if s.user_id), None)
        order = orders.get(power.pk)
        status = "none" if order is None else "ready" if order.ready else "draft"
        rows.append(
            Readiness(
                power=power.name,
                color=power.color,
                player=seat.user.get_username() if seat else "",
                status=status,
                updated_at=order.updated_at if order else None,
            )
        )
    return rows


def log_lines(events: list[Any], ruleset: Any, setup: dict) -> list[LogLine]:
    """Log lines, newest first, each naming its rule, its turn and who acted."""
    return [
        LogLine(
            rule=event.rule,
            linked=event.rule in ruleset.procedures,
            text=event.text,
            kind=event.get_kind_display(),
            actor=event.actor.get_username() if event.actor_id else "",
            turn=ruleset.turn_label(event.turn, setup),
            created_at=event.created_at,
        )
        for event in events
    ]
