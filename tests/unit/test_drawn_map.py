"""The map drawn from a scenario's built shapes (campaign.presenters.map_view with
shapes): every area's outline and name from the built map, counters in rows under the
name, statuses as patterns, the first view around the reader's own areas, and the
diagram kept for a campaign whose areas the built map does not all have."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from django.utils import translation

from campaign.maps.stored import built_map
from campaign.presenters import COUNTER_STEP, map_view
from rules.empires_in_arms import presenters as eia
from rules.empires_in_arms.state import Corps
from rules.engine import Presenter
from rules.marks import BESIEGED, AreaMarks, Badge
from rules.pax_baltica import presenters as pb
from rules.virgin_queen import presenters as vq
from tests.unit import pb_world, vq_world

POWERS = [
    SimpleNamespace(pk=1, name="France", color="#77aadd"),
    SimpleNamespace(pk=2, name="Spain", color="#eedd88"),
]
AREAS = [
    {"key": "lyon", "name": "Lyon", "kind": "space", "controller_id": 1, "x": 0, "y": 0},
    {"key": "paris", "name": "Paris", "kind": "space", "controller_id": 1, "x": 5, "y": 5},
    {
        "key": "biscay",
        "name": "Bay of Biscay",
        "kind": "sea",
        "controller_id": None,
        "x": 9,
        "y": 9,
    },
]


def label(x, y, text=None, leader=None, counters=None):
    return SimpleNamespace(x=x, y=y, size=14, text=text, leader=leader, counters=counters)


SHAPES = SimpleNamespace(
    width=1000,
    height=700,
    px_per_unit=0.8,
    land="M0 0L10 0L10 10Z",
    areas={
        "lyon": SimpleNamespace(d="M1 1Z", anchor=(500.0, 400.0), label=label(500, 380)),
        "paris": SimpleNamespace(
            d="M2 2Z",
            anchor=(450.0, 300.0),
            label=label(600, 250, "Par.", (450, 300, 580, 255), counters=(452.0, 296.0)),
        ),
        "biscay": SimpleNamespace(d="M3 3Z", anchor=(200.0, 450.0), label=label(200, 450)),
    },
    links=(("biscay", "lyon"),),
)


def area_marks(world, viewer):
    badges = (
        Badge("protestant", 0, "protestant"),
        *(Badge("units", n, f"{n} units") for n in range(1, 7)),
    )
    return {
        "lyon": AreaMarks(badges, (), ()),
        "paris": AreaMarks((Badge("catholic", 0, "c"),), (), ()),
    }


PRESENTER = Presenter(
    columns=(),
    map_key="",
    area_marks=area_marks,
    panels=lambda world, viewer: {},
    area_refs=lambda world, key: (frozenset(), frozenset()),
    map_patterns={"catholic": "", "protestant": "hatch"},
)


def drawn(**kwargs):
    world = SimpleNamespace(adjacency={})
    return map_view(AREAS, POWERS, world, PRESENTER, shapes=SHAPES, **kwargs)


def test_each_area_is_drawn_from_its_built_shape_and_named_by_its_label():
    view = drawn()
    assert view.drawn and view.land == SHAPES.land and view.view_box == "0 0 1000 700"
    rows = {row.key: row for row in view.rows}
    assert rows["lyon"].shape == "M1 1Z" and rows["lyon"].label.text == "Lyon"
    assert (rows["lyon"].x, rows["lyon"].y) == (500.0, 400.0)
    assert rows["paris"].label.text == "Par." and rows["paris"].label.leader == (450, 300, 580, 255)
    assert rows["biscay"].color == "#bcd6e8"  # a sea zone nobody controls
    assert view.lines == [(200.0, 450.0, 500.0, 400.0)]


@pytest.mark.parametrize(
    "language, text", [("en", "Bessar."), ("el", "Βεσσαρ."), ("ru", "Бессар.")]
)
def test_a_name_too_long_for_its_area_is_the_reader_s_abbreviation(language, text):
    area = {"key": "bessarabia", "name": "Bessarabia", "kind": "province", "controller_id": 1}
    world = SimpleNamespace(adjacency={})
    with translation.override(language):
        view = map_view(
            [{**area, "x": 0, "y": 0}], POWERS, world, PRESENTER, shapes=built_map("eia-1805")
        )
    assert view.drawn and view.rows[0].label.text == text


def test_counters_stay_in_their_area_when_the_name_is_led_away():
    rows = {row.key: row for row in drawn().rows}
    assert rows["paris"].label.badges_at == (452.0, 296.0)  # at the anchor, not at the name
    assert rows["lyon"].label.badges_at == (500, 398.8)  # just below the name: 380 + 8.75 + 10


def test_a_built_map_anchors_every_area_s_counters_in_the_area():
    shapes = built_map("eia-1805")
    holland = shapes.areas["holland"].label
    assert holland.counters is not None and holland.counters != (holland.x, holland.y)
    assert all(area.label.counters for area in shapes.areas.values())


@pytest.mark.parametrize(
    "language, text, size",
    [("en", "Egypt", 14), ("el", "Αίγυπτος", 10)],  # 14 × 5 / 8 = 8.75: no smaller than 10
)
def test_a_translated_name_longer_than_the_english_is_written_smaller(language, text, size):
    """It keeps about the width the map was built to give the English name."""
    area = {"key": "egypt", "name": "Egypt", "kind": "province", "controller_id": 1}
    world = SimpleNamespace(adjacency={})
    with translation.override(language):
        view = map_view(
            [{**area, "x": 0, "y": 0}], POWERS, world, PRESENTER, shapes=built_map("eia-1805")
        )
    assert (view.rows[0].label.text, view.rows[0].label.size) == (text, size)


def test_statuses_are_patterns_and_the_other_badges_counters_in_rows_of_four():
    rows = {row.key: row for row in drawn().rows}
    assert rows["lyon"].patterns == ("hatch",) and rows["paris"].patterns == ()
    counters = rows["lyon"].counters
    assert [b.kind for b in counters] == ["units"] * 6
    assert [(b.dx, b.dy) for b in counters[:4]] == [
        (-1.5 * COUNTER_STEP, 0),
        (-0.5 * COUNTER_STEP, 0),
        (0.5 * COUNTER_STEP, 0),
        (1.5 * COUNTER_STEP, 0),
    ]
    assert [b.dy for b in counters[4:]] == [COUNTER_STEP, COUNTER_STEP]
    assert len(rows["lyon"].badges) == 7  # all of them still name the area for screen readers


def test_the_first_view_frames_the_readers_own_areas_and_the_gm_sees_the_whole_map():
    assert drawn().focus == ""
    x, y, width, height = map(float, drawn(own_power_id=1).focus.split())
    assert x <= 450 and x + width >= 600 and y <= 250 and y + height >= 400
    assert drawn(own_power_id=2).focus == ""  # no areas of its own: the whole map


def test_a_campaign_with_an_area_the_built_map_lacks_keeps_the_diagram():
    areas = [
        *AREAS,
        {"key": "new", "name": "New", "kind": "space", "controller_id": None, "x": 1, "y": 1},
    ]
    view = map_view(areas, POWERS, SimpleNamespace(adjacency={}), PRESENTER, shapes=SHAPES)
    assert not view.drawn and all(row.shape == "" for row in view.rows)


def besieged(marks, key: str) -> bool:
    return any(badge.kind == BESIEGED for badge in marks[key].badges)


def test_a_siege_is_a_badge_in_every_ruleset_and_dotted_on_a_drawn_map(world):
    """Empires in Arms: a besieged corps or guerrilla stack; Pax Baltica: a territory its
    blocks besiege (a declared siege is public); Virgin Queen: a besieged space."""
    area = next(iter(world.areas))
    world.corps.append(Corps(1, "france", area, "I", besieged=True))
    assert besieged(eia.area_marks(world), area)
    assert not besieged(eia.area_marks(world), next(k for k in world.areas if k != area))

    baltic = pb_world.build_world()
    block = next(iter(baltic.blocks.values()))
    assert not besieged(pb.area_marks(baltic, None), block.location)
    block.besieging = True
    assert besieged(pb.area_marks(baltic, frozenset()), block.location)  # seen by either side

    queen = vq_world.build_world()
    key, space = next(iter(queen.spaces.items()))
    queen.spaces[key] = replace(space, besieged=True)
    assert besieged(vq.area_marks(SimpleNamespace(world=queen)), key)

    for presenter in (eia, pb, vq):
        assert presenter.PRESENTER.map_patterns[BESIEGED] == "dots"
