"""The timeline chart as data: series from hand-made states, and the chart's geometry."""

from types import SimpleNamespace

import pytest

from campaign.records import timeline
from campaign.records.timeline import BOTTOM, LEFT, RIGHT, TOP, Series
from rules.empires_in_arms import presenters as eia
from rules.pax_baltica import presenters as pb
from rules.translation import Name
from rules.virgin_queen import presenters as vq


def power(key: str, name: str, color: str) -> SimpleNamespace:
    """A campaign's power as the presenters read it (its name shown as its display_name)."""
    return SimpleNamespace(key=key, name=name, display_name=Name(name), color=color)


FRANCE = power("france", "France", "#2b50aa")
BRITAIN = power("great_britain", "Great Britain", "#c8102e")
SWEDEN = power("sweden", "Sweden", "#1d4f91")
RUSSIA = power("russia", "Russia", "#2e7d32")


def revolt(sponsor: str, number: int, active: bool = True) -> dict:
    return {"sponsor": sponsor, "area": "palatinate", "number": number, "active": active}


def eia_series(*states: dict) -> list[Series]:
    moments = [(f"T{i}", state) for i, state in enumerate(states)]
    return timeline.series(moments, lambda state: eia.timeline(state, [FRANCE, BRITAIN]))


def points(segment: str) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in segment.split()]


# -- series ---------------------------------------------------------------------------


def test_eia_sums_the_active_revolt_numbers_of_each_sponsor():
    first = {"revolts": [revolt("great_britain", 4)]}
    second = {"revolts": [revolt("great_britain", 3), revolt("great_britain", 5)]}
    third = {"revolts": [revolt("great_britain", 2, active=False), revolt("france", 2)]}
    [france, britain] = eia_series(first, second, third)
    assert (britain.name, britain.color, britain.values) == ("Great Britain", "#c8102e", (4, 8, 0))
    assert france.values == (0, 0, 2)


def test_a_power_without_an_active_revolt_throughout_is_left_out():
    assert [s.key for s in eia_series({"revolts": [revolt("great_britain", 4)]})] == [
        "great_britain"
    ]
    assert eia_series({"revolts": []}, {}) == []


def test_pb_reads_each_nations_rp_level_and_none_where_it_has_none():
    def state(sweden: int, russia: int | None) -> dict:
        levels = {"sweden": sweden, "russia": russia}
        return {"pb_nations": [{"power": k, "rp_level": v} for k, v in levels.items()]}

    states = [state(20, None), state(16, 12)]
    moments = list(zip(["Spring 1700", "Summer 1700"], states, strict=True))
    series = timeline.series(moments, lambda state: pb.timeline(state, [SWEDEN, RUSSIA]))
    assert [(s.key, s.values) for s in series] == [("sweden", (20, 16)), ("russia", (None, 12))]


def test_vq_counts_catholic_and_protestant_spaces():
    state = {"vq_spaces": [{"religion": r} for r in ("catholic", "protestant", "catholic")]}
    series = timeline.series([("1559", state)], lambda s: vq.timeline(s, []))
    assert [(str(s.name), s.values) for s in series] == [
        ("Catholic spaces", (2,)),
        ("Protestant spaces", (1,)),
    ]


def test_no_moments_make_no_series():
    assert timeline.series([], lambda state: eia.timeline(state, [FRANCE])) == []


# -- geometry ---------------------------------------------------------------------------


def test_every_point_lies_in_the_plot_area_and_the_scale_is_linear():
    values = (0, 3, 7, 12, 5)
    chart = timeline.chart([f"T{i}" for i in range(5)], [Series("a", "A", "#000", values)])
    [line] = chart.lines
    [segment] = line.segments
    xy = points(segment)
    assert all(LEFT <= x <= RIGHT and TOP <= y <= BOTTOM for x, y in xy)
    assert xy[0] == (LEFT, BOTTOM) and xy[-1][0] == RIGHT
    high = chart.y_ticks[-1]
    assert int(high.label) >= 12 and high.at == TOP
    assert chart.y_ticks[0].label == "0" and chart.y_ticks[0].at == BOTTOM
    per_unit = (BOTTOM - TOP) / int(high.label)
    assert [y for _, y in xy] == pytest.approx([BOTTOM - v * per_unit for v in values], abs=0.1)
    assert [d.value for d in line.dots] == list(values)


def test_an_empty_history_has_no_chart():
    assert timeline.chart([], []) is None
    assert timeline.chart(["Now"], []) is None
    assert timeline.chart(["Now"], [Series("a", "A", "#000", (None,))]) is None


def test_one_point_stands_in_the_middle_with_its_dot():
    chart = timeline.chart(["Now"], [Series("a", "A", "#000", (4,))])
    [line] = chart.lines
    assert line.segments == (f"{(LEFT + RIGHT) / 2},{line.dots[0].y}",)
    assert TOP <= line.dots[0].y < BOTTOM
    assert [(t.label, t.anchor) for t in chart.x_ticks] == [("Now", "middle")]
    assert chart.rows == [("Now", [4])]


def test_a_constant_series_is_a_flat_line_inside_the_box():
    chart = timeline.chart(["a", "b", "c"], [Series("s", "S", "#000", (12, 12, 12))])
    ys = {y for _, y in points(chart.lines[0].segments[0])}
    assert len(ys) == 1 and TOP <= ys.pop() < BOTTOM
    assert [t.label for t in chart.y_ticks] == ["0", "5", "10", "15"]


def test_a_missing_value_breaks_the_line():
    chart = timeline.chart(list("abcd"), [Series("s", "S", "#000", (1, None, 2, 3))])
    [line] = chart.lines
    assert [len(points(s)) for s in line.segments] == [1, 2]
    assert chart.rows[1] == ("b", [None])


def test_the_x_axis_labels_at_most_four_moments_first_and_last_kept_inside():
    labels = [f"T{i}" for i in range(10)]
    chart = timeline.chart(labels, [Series("s", "S", "#000", tuple(range(10)))])
    ticks = chart.x_ticks
    assert [t.label for t in ticks] == ["T0", "T3", "T6", "T9"]
    assert [t.anchor for t in ticks] == ["start", "middle", "middle", "end"]
    assert (ticks[0].at, ticks[-1].at) == (LEFT, RIGHT)


@pytest.mark.parametrize("count", [2, 3, 5, 12, 100])
def test_long_x_labels_are_thinned_out_until_none_overlap(count):
    labels = [f"September {1805 + i}" for i in range(count)]
    ticks = timeline.x_ticks([timeline.x_at(i, count) for i in range(count)], labels)
    assert ticks[0].label == "September 1805" and ticks[0].anchor == "start"
    assert ticks[-1].label == labels[-1] and ticks[-1].anchor == "end"
    assert 2 <= len(ticks) < 4
    width = len(labels[0]) * timeline.LABEL_CHAR_WIDTH
    ends = [t.at + {"start": 0, "middle": width / 2, "end": 0}[t.anchor] for t in ticks]
    starts = [t.at - {"start": 0, "middle": width / 2, "end": width}[t.anchor] for t in ticks]
    assert all(end < start for end, start in zip(ends, starts[1:], strict=False))


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (0, 1, [0, 1]),
        (0, 4, [0, 1, 2, 3, 4]),
        (0, 20, [0, 5, 10, 15, 20]),
        (0, 73, [0, 20, 40, 60, 80]),
        (-3, 4, [-4, -2, 0, 2, 4]),
    ],
)
def test_y_ticks_are_round_and_cover_the_values(low, high, ticks):
    assert timeline.y_ticks(low, high) == ticks
