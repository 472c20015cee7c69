"""campaign/maps/labels.py: labels that never overlap (nor their counters' boxes) and never
leave the frame, shortened or led away from their area only when crowded; the counters
stay in their area even when the label is led away."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.maps.labels import (
    BADGE,
    CHAR_WIDTHS,
    OTHER_WIDTH,
    PADDING,
    SIZE,
    Area,
    NoRoom,
    abbreviation,
    badge_box,
    counters_box,
    place,
    text_box,
)

NAMES = [
    "Paris",
    "Transylvania",
    "Gulf of Finland",
    "Old Castile",
    "Berg",
    "Kattegat and the Sound",
]


def boxes_of(areas: list[Area], labels: dict) -> list[tuple]:
    """Each label's box and its counters' box."""
    names = {area.key: area.name for area in areas}
    found = []
    for key, label in labels.items():
        box = text_box(label.x, label.y, label.text or names[key], label.size)
        found += [box, counters_box(*label.counters)]
    return found


def overlap(a, b) -> bool:
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=1000),
            st.floats(min_value=0, max_value=600),
            st.sampled_from(NAMES),
        ),
        min_size=1,
        max_size=14,
    )
)
def test_labels_never_overlap_and_never_leave_the_frame(drawn):
    areas = [
        Area(f"a{i}", name, (round(x, 1), round(y, 1))) for i, (x, y, name) in enumerate(drawn)
    ]
    labels = place(areas, 1000, 600)
    assert set(labels) == {area.key for area in areas}
    boxes = boxes_of(areas, labels)
    for box in boxes:
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= 1000 and box[3] <= 600
    for a, b in itertools.combinations(boxes, 2):
        assert not overlap(a, b)
    for area in areas:
        label = labels[area.key]
        assert label.size >= 14
        assert label.text in (None, abbreviation(area.name))
        assert (label.leader is None) == ((label.x, label.y) == area.anchor)


def test_a_label_sits_on_its_anchor_when_there_is_room():
    [label] = place([Area("paris", "Paris", (500, 300))], 1000, 600).values()
    assert (label.x, label.y, label.size, label.text, label.leader) == (500, 300, SIZE, None, None)


def test_a_name_too_long_for_the_frame_is_abbreviated():
    [label] = place([Area("transylvania", "Transylvania", (40, 30))], 80, 60).values()
    assert label.text == "Trans."


def test_a_crowded_label_moves_away_on_a_leader_from_its_anchor_to_its_box():
    areas = [Area("berg", "Berg", (500, 300)), Area("hesse", "Hesse", (505, 302))]
    labels = place(areas, 1000, 600)
    assert labels["berg"].leader is None  # as crowded as Hesse, Berg came first by its key
    moved = labels["hesse"]
    x1, y1, x2, y2 = moved.leader
    box = text_box(moved.x, moved.y, "Hesse")
    assert (x1, y1) == (505, 302)
    rounding = 0.05 + 1e-9  # the stored leader's ends are rounded to 0.1 unit
    assert box[0] - rounding <= x2 <= box[2] + rounding
    assert box[1] - rounding <= y2 <= box[3] + rounding
    on_edge = [abs(x2 - box[0]), abs(x2 - box[2]), abs(y2 - box[1]), abs(y2 - box[3])]
    assert min(on_edge) <= rounding


def test_inside_an_area_the_label_may_move_from_its_anchor_without_a_leader():
    areas = [Area("berg", "Berg", (500, 300)), Area("hesse", "Hesse", (505, 302))]
    in_hesse = {"hesse": lambda x, y: 440 <= x <= 560 and 240 <= y <= 360}
    moved = place(areas, 1000, 600, inside=in_hesse)["hesse"]
    assert moved.leader is None and (moved.x, moved.y) != (505, 302)


def test_a_label_led_away_sits_at_sea_and_leaves_its_counters_in_its_area():
    # Holland at the frame's left edge, too narrow for its name (x 0–30), another area's
    # land east of it (x 30–60), the sea beyond: the name goes out to sea on a leader,
    # never onto the neighbour's land, and the counters stay in Holland
    in_holland = {"holland": lambda x, y: 0 <= x <= 30 and 280 <= y <= 320}
    at_sea_or_home = {"holland": lambda x, y: x >= 60 or in_holland["holland"](x, y)}
    label = place(
        [Area("holland", "Holland", (15, 300))],
        1000,
        600,
        inside=in_holland,
        ground=at_sea_or_home,
    )["holland"]
    box = text_box(label.x, label.y, label.text or "Holland")
    assert label.leader is not None and label.leader[:2] == (15, 300)
    assert box[0] >= 60 - PADDING  # its text starts at sea, not on the neighbour's land
    assert label.leader[2] - label.leader[0] <= 60  # a short leader: just across the neighbour
    assert in_holland["holland"](*label.counters)
    assert not overlap(box, counters_box(*label.counters))


def test_counters_are_anchored_in_their_area_when_a_neighbour_takes_the_room():
    # Berg, placed first (by its key), sits on its anchor beside Hesse's: Hesse's label
    # is led away, but its counters keep a free place in Hesse, off Berg's label
    areas = [Area("berg", "Berg", (500, 300)), Area("hesse", "Hesse", (505, 302))]
    in_hesse = {"hesse": lambda x, y: 480 <= x <= 560 and 290 <= y <= 360}
    labels = place(areas, 1000, 600, inside=in_hesse)
    hesse = labels["hesse"]
    assert in_hesse["hesse"](*hesse.counters)
    boxes = boxes_of(areas, labels)
    assert not any(overlap(a, b) for a, b in itertools.combinations(boxes, 2))


def test_a_label_at_home_keeps_its_counters_in_its_area():
    # a strip too low for the name and its counters side by side: the name moves up in
    # it, so that the counters just below it are in the area too
    in_holland = {"holland": lambda x, y: 490 <= x <= 520 and 285 <= y <= 315}
    areas = [Area("holland", "Holland", (500, 300))]
    label = place(areas, 1000, 600, inside=in_holland)["holland"]
    assert label.leader is None and in_holland["holland"](label.x, label.y)
    assert in_holland["holland"](*label.counters)


def test_a_label_with_no_place_on_its_ground_is_still_placed():
    nowhere = {"paris": lambda x, y: False}
    [label] = place([Area("paris", "Paris", (500, 300))], 1000, 600, ground=nowhere).values()
    assert label.leader is None or label.leader


def centre_of(box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def test_crowded_labels_use_their_abbreviations_and_leaders():
    areas = [
        Area(f"a{i}", name, (120 + 6 * i, 70 + 4 * (i % 3)))
        for i, name in enumerate(["Transylvania", "Gulf of Finland", "Mecklenburg", "Old Castile"])
    ]
    labels = place(areas, 240, 140)
    assert any(label.text for label in labels.values())
    assert any(label.leader for label in labels.values())
    boxes = boxes_of(areas, labels)
    assert not any(overlap(a, b) for a, b in itertools.combinations(boxes, 2))


def test_labels_that_fit_nowhere_are_named():
    areas = [Area(f"a{i}", "Transylvania", (50, 30)) for i in range(6)]
    with pytest.raises(NoRoom) as raised:
        place(areas, 120, 70)
    assert raised.value.keys


def test_the_same_areas_give_the_same_labels():
    areas = [Area(f"a{i}", name, (300 + 9 * i, 200 + 5 * i)) for i, name in enumerate(NAMES)]
    assert place(areas, 1000, 600) == place(list(reversed(areas)), 1000, 600)


def test_the_badge_is_kept_just_below_the_label_centred():
    box = text_box(100, 50, "Paris")
    assert badge_box(box) == (100 - BADGE[0] / 2, box[3], 100 + BADGE[0] / 2, box[3] + BADGE[1])


def test_a_box_is_as_wide_as_its_characters_in_a_wide_bold_face():
    left, top, right, bottom = text_box(100, 50, "Paris", 14)
    assert right - left == pytest.approx(14 * sum(CHAR_WIDTHS[c] for c in "Paris") + 4)
    assert text_box(0, 0, "WWW")[2] > text_box(0, 0, "iii")[2]  # not by the count alone
    assert text_box(0, 0, "ツ")[2] == pytest.approx((14 * OTHER_WIDTH + 4) / 2)
    assert bottom - top == pytest.approx(1.25 * 14)
    assert (left + right) / 2 == 100 and (top + bottom) / 2 == 50


@pytest.mark.parametrize(
    "name, short",
    [
        ("Transylvania", "Trans."),
        ("Mecklenburg", "Meckl."),
        ("Estremadura", "Estrem."),
        ("Gulf of Finland", "G. Finland"),
        ("Old Castile", "O. Castile"),
        ("Kattegat and the Sound", "Katteg."),
        ("Military Border", "M. Border"),
        ("Västergötland", "Väster."),
        ("Paris", None),  # already short
        ("St. Quentin", None),
    ],
)
def test_abbreviations_stay_readable(name, short):
    assert abbreviation(name) == short
