"""Issue 33, dice said in full: every roll line of every ruleset labels its die faces ("die
4", "dice 1 2 5", "dice 3 + 4"), and every number derived from a roll shows its arithmetic
("5 − 1 = 4 guerrilla factors", "6 ÷ 3 = 2 militia factors", "> revolt number 3").

The shared wording is rules/modifiers.py (faces_text, ModifiedRoll.explain, difference,
quotient); the corpus (rules/<ruleset>/corpus/, run by tests/corpus) holds a scripted roll
for every procedure that rolls, so its logs are read here line by line: test_corpus.py
makes sure they are what the engine writes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from rules import corpus
from rules.modifiers import (
    ModifiedRoll,
    Modifier,
    RollReport,
    difference,
    faces_text,
    product,
    quotient,
)
from rules.text import Text
from tests.corpus.logs import adapters, path

# The messages of a roll: the labelled faces are their "roll" (ModifiedRoll.explain) or
# "faces" (the dice pools of GNW-1 and VQ-2) parameter.
ROLL_MESSAGES = {
    "%(roll)s = %(total)s": "roll",
    "%(faces)s, %(comparison)s → %(outcome)s": "faces",
    "%(faces)s, %(comparison)s: %(outcome)s": "faces",
    "%(faces)s: %(outcome)s": "faces",
}
FACES = "die %(faces)s"
# A roll whose face is not labelled: "…: 4 +1 GB national modifier = 5 < 6", "…: 1 5, hits on".
UNLABELLED = re.compile(
    r"(?:^|: )\d(?: [+-]\d+ [^=:]+?)* = -?\d+(?: [<>≤≥]|:)|: [1-6](?: [1-6])*, hits on"
)


def lines(ruleset: str) -> Iterator[tuple[str, str]]:
    """Every log line of the ruleset's corpus as (case id, "RULE text")."""
    for cases in corpus.cases(ruleset).values():
        for case in cases:
            for line in case["log"]:
                yield case["id"], line


def rule_lines(ruleset: str, rule: str) -> list[str]:
    return [line for _, line in lines(ruleset) if line.startswith(f"{rule} ")]


def nodes(message: dict) -> Iterator[dict]:
    """A stored message and every message among its parameters, depth first."""
    yield message
    for value in message["params"].values():
        if isinstance(value, dict) and "id" in value:
            yield from nodes(value)


def first_part(message: dict) -> dict:
    """The first part of a Join ("%(p0)s …"), or the message itself."""
    head = message["params"].get("p0")
    return head if message["id"].startswith("%(p0)s") and isinstance(head, dict) else message


# -- the shared wording ------------------------------------------------------------------


def test_a_face_is_labelled_die_and_several_dice():
    assert faces_text([4]) == "die 4"
    assert faces_text([1, 2, 5]) == "dice 1 2 5"
    assert faces_text([3, 4], summed=True) == "dice 3 + 4"
    label = faces_text([4])
    assert (label.msgid, label.plural) == ("die %(faces)s", "dice %(faces)s")


def test_a_roll_explains_its_labelled_face_and_each_modifier():
    roll = ModifiedRoll(4, (Modifier(Text("GB national modifier"), 1), Modifier("GB", 0)))
    assert roll.explain() == "die 4 +1 GB national modifier = 5"
    report = RollReport("EIA-1", "attempt", roll, "< 6", "no revolt")
    assert report.text == "die 4 +1 GB national modifier = 5 < 6: no revolt"


def test_two_dice_added_show_both_faces():
    roll = ModifiedRoll(3, (Modifier("NM", 1),), more=(4,))
    assert (roll.faces, roll.total) == ((3, 4), 8)
    assert roll.explain() == "dice 3 + 4 +1 NM = 8"
    assert RollReport("X-1", "two dice", roll, "", "done", extra_faces=(6,)).faces == (3, 4, 6)


def test_a_draw_of_several_dice_names_each_face():
    """A draw read die by die (a pool larger than one die's faces) names every face, not
    only the first one's "= N"."""
    report = RollReport("GNW-10", "draw", ModifiedRoll(2), "one of 9", "drawn", extra_faces=(5,))
    assert report.text == "dice 2 5 one of 9: drawn"
    single = RollReport("GNW-10", "draw", ModifiedRoll(2), "one of 4", "drawn")
    assert single.text == "die 2 = 2 one of 4: drawn"


def test_a_derived_number_shows_its_arithmetic():
    assert difference(5, 1, "4 guerrilla factors") == "5 − 1 = 4 guerrilla factors"
    assert quotient(6, 3, 2) == "6 ÷ 3 = 2"
    assert quotient(7, 3, "2 militia factors") == "7 ÷ 3 = 2 militia factors (rounded down)"
    assert product(2, 2, 4) == "2 × 2 = 4"


# -- every roll of the corpus ------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(adapters()))
def test_every_stored_roll_labels_its_faces(ruleset):
    """In logs.json (what the app stores and translates), the faces of every roll message
    are the "die %(faces)s" message: no ruleset prints a bare face."""
    stored = json.loads(path(ruleset).read_text(encoding="utf-8"))
    rolls = 0
    for case, log in stored.items():
        for _, message in log:
            for node in nodes(message):
                key = ROLL_MESSAGES.get(node["id"])
                if key is None:
                    continue
                rolls += 1
                assert first_part(node["params"][key])["id"] == FACES, (case, node)
    assert rolls >= 5, f"the {ruleset} corpus shows no roll to check"


@pytest.mark.parametrize("ruleset", list(adapters()))
def test_no_log_line_prints_a_bare_face(ruleset):
    bare = [(case, line) for case, line in lines(ruleset) if UNLABELLED.search(line)]
    assert not bare


def test_the_readme_example_reads_as_the_log():
    line = (
        "EIA-1 Great Britain incites a revolt in Palatinate: die 4 +1 Great Britain national "
        "modifier +1 Great Britain Dominant = 6 ≥ 6: the revolt breaks out "
        "(Great Britain PP 10 → 9)"
    )
    assert line in rule_lines("empires_in_arms", "EIA-1")


# -- Empires in Arms ---------------------------------------------------------------------

CREATED = re.compile(
    r"die (?P<face>\d) = (?P=face) < (?P<value>\d): (?P=value) − (?P=face) = (?P<count>\d+) "
    r"guerrilla factor"
)


@pytest.mark.parametrize("rule", ["EIA-3", "EIA-10"])
def test_guerrilla_factors_are_the_value_minus_the_die(rule):
    """EIA-3 and EIA-10: "(revolt number 5): die 1 = 1 < 5: 5 − 1 = 4 guerrilla factors"."""
    found = rule_lines("empires_in_arms", rule)
    created = [line for line in found if " < " in line]
    assert created and len(created) < len(found)  # some rolls create factors, some do not
    for line in created:
        match = CREATED.search(line)
        assert match, line
        value, face, count = (int(match[k]) for k in ("value", "face", "count"))
        assert count == value - face, line
        assert f"number {value})" in line or f"value {value})" in line, line  # the threshold's name


def test_factors_over_the_cap_show_what_is_left_under_it():
    capped = [line for line in rule_lines("empires_in_arms", "EIA-3") if "of which" in line]
    assert capped
    for line in capped:
        match = re.search(
            r"of which (?:(?P<cap>\d+) − (?P<there>\d+) = )?(?P<fit>\d+) fit under the cap of "
            r"(?P=cap)?(?P<cap2>\d+)? ?.*\((?P<existing>\d+) already there\)",
            line,
        )
        assert match, line
        if int(match["fit"]):
            assert match["cap"] and int(match["cap"]) - int(match["there"]) == int(match["fit"])


def test_an_operation_names_the_value_it_must_beat():
    """EIA-4: "> revolt number 3", "≤ guerrilla value 4"; the $d6: "≤ treasury $20"."""
    found = rule_lines("empires_in_arms", "EIA-4")
    operations = [line for line in found if "anti-guerrilla operation in" in line]
    payments = [line for line in found if "pays $d6 against the rise:" in line]
    assert operations and payments
    for line in operations:
        assert re.search(r" = -?\d+ (?:>|≤) (?:revolt number|guerrilla value) \d+: ", line), line
    for line in payments:
        assert re.search(r"die (\d) = \1 (?:≤|>) treasury \$\d+: ", line), line


def test_militia_is_the_removed_factors_divided_by_three():
    found = [line for line in rule_lines("empires_in_arms", "EIA-12") if "receives" in line]
    assert found
    for line in found:
        match = re.search(
            r"(\d+) Spanish guerrilla factors? removed; Spain receives (\d+) ÷ 3 = (\d+) ", line
        )
        assert match, line
        removed, divided, militia = (int(n) for n in match.groups())
        assert removed == divided and militia == removed // 3, line
        assert ("(rounded down)" in line) == bool(removed % 3), line


# -- Pax Baltica and Virgin Queen: pools of dice ----------------------------------------

FIRE = re.compile(
    r"\((?P<rating>[A-C]\d), (?P<dice>\d+) dic?e\): (?:dice|die) (?P<faces>[1-6](?: [1-6])*), "
    r"hits on (?P<on>\d)(?: or less)? → (?P<hits>\d+) hits?"
)


def test_gnw1_each_unit_shows_its_dice_and_the_hits_they_read():
    found = rule_lines("pax_baltica", "GNW-1")
    fire = [line for line in found if "hits on" in line]
    assert fire
    for line in fire:
        match = FIRE.search(line)
        assert match, line
        faces = [int(face) for face in match["faces"].split()]
        assert len(faces) == int(match["dice"]) and match["rating"].endswith(match["on"]), line
        assert int(match["hits"]) == sum(face <= int(match["on"]) for face in faces), line


VQ1_RESULTS = {  # the table of VQ-1, by the results' words (singular and plural)
    "major conversion": {6},
    "minor conversion": {4, 5},
    "unrest marker": {1},
    "miss": {2, 3},
}
VQ1_RESULTS |= {f"{what}es" if what == "miss" else f"{what}s": f for what, f in VQ1_RESULTS.items()}


def test_vq1_each_result_shows_the_faces_it_was_read_from():
    """VQ-1: "rolled dice 4 2 1 … : 1 minor conversion (4), 1 unrest marker (1), 1 miss (2)"."""
    found = [line for line in rule_lines("virgin_queen", "VQ-1") if " rolled " in line]
    assert found
    for line in found:
        rolled = re.search(r" rolled (?:dice|die) ([1-6](?: [1-6])*) for ", line)
        assert rolled, line
        tally = line.rsplit("): ", 1)[1]
        read = []
        for count, what, faces in re.findall(r"(\d+) ([a-z ]+) \(([1-6 ]+)\)", tally):
            shown = [int(face) for face in faces.split()]
            assert len(shown) == int(count), line
            assert set(shown) <= VQ1_RESULTS[what], line
            read += shown
        assert sorted(read) == sorted(int(face) for face in rolled[1].split()), line


def test_vq1_a_die_named_by_its_place_shows_its_face():
    named = re.compile(r"\bdie \d+ (\([1-6]\) )?(?:flips|is wasted)")
    steps = [line for line in rule_lines("virgin_queen", "VQ-1") if named.search(line)]
    assert steps
    for line in steps:
        assert all(named.findall(line)), line


def test_vq2_the_revolt_dice_are_labelled_and_counted():
    found = [line for line in rule_lines("virgin_queen", "VQ-2") if "hits on 5–6" in line]
    assert found
    for line in found:
        match = re.search(r": (?:dice|die) ([1-6](?: [1-6])*), hits on 5–6: (\d+) hits?", line)
        assert match, line
        faces = [int(face) for face in match[1].split()]
        assert int(match[2]) == sum(face >= 5 for face in faces), line


def test_gnw_derived_rp_and_fp_show_their_arithmetic():
    """GNW-4's shortfall (demand − supply), GNW-6's RP left (RP − spent), GNW-10's costs
    (the first step at double cost, each further step at its cost)."""
    short = [line for line in rule_lines("pax_baltica", "GNW-4") if " short" in line]
    left = [line for line in rule_lines("pax_baltica", "GNW-6") if "unspent" in line]
    drawn = [line for line in rule_lines("pax_baltica", "GNW-10") if " drawn: " in line]
    assert short and left and drawn
    for line in short:
        match = re.search(r"demand (\d+) FP .*: \1 − (\d+) = (\d+) short", line)
        assert match and int(match[1]) - int(match[2]) == int(match[3]), line
    for line in left:
        match = re.search(r"(\d+) RP: (\d+) spent, .*; \1 − \2 = (\d+) RP unspent", line)
        assert match and int(match[1]) - int(match[2]) == int(match[3]), line
    for line in drawn:
        if "cannot pay" in line:
            continue
        first = re.search(r"drawn: ([12]) × 2 = (\d+) RP for the first step", line)
        assert first and 2 * int(first[1]) == int(first[2]), line
        more = re.search(r"\+ (\d+) × ([12]) = (\d+) RP for \1 more", line)
        assert more or " + " not in line, line


def test_vq2_the_regulars_wanted_are_half_the_full_cp():
    found = [line for line in rule_lines("virgin_queen", "VQ-2") if "full CP" in line]
    assert found
    for line in found:
        match = re.search(r"1 per 2 full CP, (\d+) CP → (\d+);", line)
        assert match and int(match[1]) // 2 == int(match[2]), line
