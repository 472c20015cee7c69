"""A campaign's timeline chart as data: series over the turns, and the geometry the SVG
of templates/campaign/timeline.html is drawn from.

Pure functions. ``series`` reads each moment's state through the ruleset presenter's
``timeline`` (one reading per series: key, name, colour, value); ``chart`` lays the
series out in a fixed box of SVG user units: the y scale from 0 (or the lowest value)
to a round top, axis ticks, and the points of each series' polylines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

Reading = tuple[str, str, str, int | None]  # series key, name, colour, value (None: none)

WIDTH, HEIGHT = 360, 216
LEFT, RIGHT, TOP, BOTTOM = 36, 350, 10, 190  # the plot area inside the view box
MAX_X_LABELS = 4
LABEL_CHAR_WIDTH = 7.2  # user units per character of a 12-unit x-axis label, a wide average
LABEL_GAP = 8
MAX_Y_STEPS = 5


@dataclass(frozen=True)
class Series:
    """One line of the chart: a value per moment, None where the moment has none."""

    key: str
    name: str
    color: str
    values: tuple[int | None, ...]


@dataclass(frozen=True)
class Tick:
    at: float  # x for the x axis, y for the y axis
    label: str
    anchor: str = "middle"  # the label's text-anchor


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str  # the moment's label
    value: int


@dataclass(frozen=True)
class Line:
    series: Series
    segments: tuple[str, ...]  # a polyline's ``points`` per run of values without a gap
    dots: tuple[Dot, ...]


@dataclass(frozen=True)
class Chart:
    labels: tuple[str, ...]
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = RIGHT
    top: int = TOP
    bottom: int = BOTTOM

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def rows(self) -> list[tuple[str, list[int | None]]]:
        """The data table: per moment, its label and each series' value."""
        return [
            (label, [line.series.values[i] for line in self.lines])
            for i, label in enumerate(self.labels)
        ]


def series(
    moments: Sequence[tuple[str, dict]], read: Callable[[dict], Sequence[Reading]]
) -> list[Series]:
    """The series of the moments' (label, state), in the order ``read`` first names them;
    a series whose value is never above zero is left out."""
    legend: dict[str, tuple[str, str]] = {}
    values: dict[str, dict[int, int | None]] = {}
    for i, (_, state) in enumerate(moments):
        for key, name, color, value in read(state):
            legend.setdefault(key, (name, color))
            values.setdefault(key, {})[i] = value
    return [
        Series(key, name, color, tuple(values[key].get(i) for i in range(len(moments))))
        for key, (name, color) in legend.items()
        if any(values[key].values())
    ]


def chart(labels: Sequence[str], lines: Sequence[Series]) -> Chart | None:
    """The geometry of the series over the moments ``labels``; None: nothing to draw."""
    found = [v for s in lines for v in s.values if v is not None]
    if not labels or not found:
        return None
    ticks = y_ticks(min(0, *found), max(found))
    low, high = ticks[0], ticks[-1]

    def y(value: int) -> float:
        return round(BOTTOM - (value - low) * (BOTTOM - TOP) / (high - low), 1)

    xs = [x_at(i, len(labels)) for i in range(len(labels))]
    return Chart(
        labels=tuple(labels),
        lines=tuple(_line(s, xs, y, labels) for s in lines),
        x_ticks=x_ticks(xs, labels),
        y_ticks=tuple(Tick(y(v), str(v), "end") for v in ticks),
    )


def _line(s: Series, xs: list[float], y: Callable[[int], float], labels: Sequence[str]) -> Line:
    dots = [
        Dot(xs[i], y(v), labels[i], v) if v is not None else None for i, v in enumerate(s.values)
    ]
    return Line(s, tuple(_segments(dots)), tuple(d for d in dots if d is not None))


def _segments(dots: list[Dot | None]) -> Iterator[str]:
    run: list[str] = []
    for dot in [*dots, None]:
        if dot is not None:
            run.append(f"{dot.x},{dot.y}")
        elif run:
            yield " ".join(run)
            run = []


def x_at(index: int, count: int) -> float:
    """The x of the moment ``index`` of ``count``, spread across the plot area."""
    if count == 1:
        return (LEFT + RIGHT) / 2
    return round(LEFT + index * (RIGHT - LEFT) / (count - 1), 1)


def x_ticks(xs: Sequence[float], labels: Sequence[str]) -> tuple[Tick, ...]:
    """The x-axis labels: the first and the last moment's, kept inside the box, and as
    many evenly between (up to MAX_X_LABELS in all) as fit without overlapping."""
    count = len(labels)
    if count == 1:
        return (Tick(xs[0], labels[0]),)
    for shown in range(min(count, MAX_X_LABELS), 1, -1):
        indices = sorted({round(k * (count - 1) / (shown - 1)) for k in range(shown)})
        ticks = [_x_tick(i, xs[i], labels[i], count) for i in indices]
        if all(_extent(a)[1] + LABEL_GAP <= _extent(b)[0] for a, b in pairwise(ticks)):
            return tuple(ticks)
    return (ticks[0],)


def _x_tick(index: int, x: float, label: str, count: int) -> Tick:
    if index == 0:
        return Tick(x, label, "start")
    if index == count - 1:
        return Tick(x, label, "end")
    return Tick(x, label)


def _extent(tick: Tick) -> tuple[float, float]:
    """Where a label's text reaches along the x axis, roughly."""
    width = len(tick.label) * LABEL_CHAR_WIDTH
    start = {"start": tick.at, "end": tick.at - width}.get(tick.anchor, tick.at - width / 2)
    return start, start + width


def y_ticks(low: int, high: int) -> list[int]:
    """Round values from ``low`` to ``high`` or just past, at most MAX_Y_STEPS steps of
    1, 2 or 5 × 10ⁿ apart."""
    span = max(high - low, 1)
    step = next(s for s in _steps() if s * MAX_Y_STEPS >= span)
    first, last = math.floor(low / step), math.ceil(high / step)
    return [k * step for k in range(first, max(last, first + 1) + 1)]


def _steps() -> Iterator[int]:
    power = 1
    while True:
        yield from (power, 2 * power, 5 * power)
        power *= 10
