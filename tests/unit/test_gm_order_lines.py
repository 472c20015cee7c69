"""Orders for the GM (rules/gm_orders.py) as a player and the GM read them: each refusal
of a line in full (the line's number, the unit, the areas, the counts it names), the line
as stored, as described on the dashboard and in the log, and the lines a payload holds."""

from __future__ import annotations

import pytest

from rules import gm_orders
from rules.gm_orders import BATTLE, CARD, KEY, MOVE, Piece
from rules.refusals import Refused

PIECES = {
    3: Piece(3, "corps IV", "castile", ("granada", "andalusia")),
    4: Piece(4, "corps I", "granada", ("castile",)),
}
PLACES = {"castile": "Castile", "granada": "Granada", "andalusia": "Andalusia", "bosnia": "Bosnia"}
KINDS = (MOVE, BATTLE, CARD)


def check(line: dict, number: int = 2, kinds=KINDS) -> dict:
    return gm_orders.check_line(number, line, kinds=kinds, pieces=PIECES, places=PLACES)


def refusal(call) -> str:
    with pytest.raises(Refused) as raised:
        call()
    return raised.value.text


# -- checking a line ----------------------------------------------------------------------


def test_a_move_is_stored_with_its_piece_area_and_text():
    assert check({"kind": MOVE, "target": "3:granada"}) == {
        "kind": MOVE,
        "piece": 3,
        "area": "granada",
    }
    assert check({"kind": MOVE, "target": "3:granada", "text": " by night "}) == {
        "kind": MOVE,
        "piece": 3,
        "area": "granada",
        "text": "by night",
    }


def test_a_battle_is_fought_where_the_piece_stands_or_next_to_it():
    assert check({"kind": BATTLE, "target": "3:castile"})["area"] == "castile"
    assert check({"kind": BATTLE, "target": "3:andalusia"})["area"] == "andalusia"


def test_a_card_is_stored_by_its_name():
    assert check({"kind": CARD, "text": " Council of Trent "}) == {
        "kind": CARD,
        "text": "Council of Trent",
    }


@pytest.mark.parametrize(
    "line, message",
    [
        (
            {"kind": "siege", "target": "3:granada"},
            "Line 2: “siege” is not a kind of order for the GM in this game.",
        ),
        (
            {"kind": MOVE, "target": "3:granada", "text": "x" * 201},
            "Line 2: at most 200 characters (it has 201).",
        ),
        ({"kind": CARD, "text": "  "}, "Line 2: give the name of the card played."),
        ({"kind": MOVE, "target": ""}, "Line 2: choose the unit and the area."),
        (
            {"kind": MOVE, "target": "granada"},
            "Line 2: “granada” does not name a unit and an area: reload the page.",
        ),
        (
            {"kind": MOVE, "target": "9:granada"},
            "Line 2: “9” is not one of your units on the map.",
        ),
        (
            {"kind": MOVE, "target": "x3:granada"},
            "Line 2: “x3” is not one of your units on the map.",
        ),
        (
            {"kind": MOVE, "target": "3:atlantis"},
            "Line 2: there is no area “atlantis” on this map.",
        ),
        ({"kind": MOVE, "target": "3:castile"}, "Line 2: corps IV is already in Castile."),
        (
            {"kind": MOVE, "target": "3:bosnia"},
            "Line 2: corps IV cannot reach Bosnia from Castile: the areas are not adjacent.",
        ),
        (
            {"kind": BATTLE, "target": "4:andalusia"},
            "Line 2: corps I cannot reach Andalusia from Granada: the areas are not adjacent.",
        ),
    ],
)
def test_a_line_that_cannot_be_given_is_refused_saying_why(line, message):
    assert refusal(lambda: check(line)) == message


def test_a_line_of_exactly_the_longest_text_is_taken():
    assert check({"kind": CARD, "text": "x" * 200})["text"] == "x" * 200


def test_a_kind_this_game_does_not_offer_is_refused():
    message = "Line 1: “card” is not a kind of order for the GM in this game."
    assert refusal(lambda: check({"kind": CARD, "text": "a card"}, 1, (MOVE,))) == message


def test_a_note_and_the_number_of_lines_have_their_limits():
    assert gm_orders.check_note("  see me  ") == "see me"
    assert gm_orders.check_note("x" * 2000) == "x" * 2000
    assert refusal(lambda: gm_orders.check_note("x" * 2001)) == (
        "Your note to the GM is too long: at most 2000 characters (it has 2001)."
    )
    gm_orders.check_count(50)
    assert refusal(lambda: gm_orders.check_count(51)) == (
        "At most 50 lines of orders for the GM (you gave 51)."
    )


# -- reading them back --------------------------------------------------------------------


def test_a_payloads_lines_and_note_and_what_the_resolver_reads():
    payload = {"moves": [1], KEY: {"lines": [{"kind": CARD}, "junk"], "note": "hi"}}
    assert gm_orders.lines_of(payload) == [{"kind": CARD}]
    assert gm_orders.note_of(payload) == "hi"
    assert gm_orders.without_lines(payload) == {"moves": [1]}
    assert gm_orders.lines_of({KEY: {"lines": "junk"}}) == []
    assert gm_orders.lines_of([]) == []
    assert gm_orders.note_of({KEY: {"note": 3}}) == ""
    assert gm_orders.note_of({KEY: "junk"}) == ""


def test_lines_carried_out_stay_so_when_given_again_unchanged():
    line = {"kind": MOVE, "piece": 3, "area": "granada"}
    before = {KEY: {"lines": [{**line, "done": True}, {"kind": CARD, "text": "a"}]}}
    after = {KEY: {"lines": [line, {"kind": CARD, "text": "b"}], "note": "n"}}
    assert gm_orders.keep_done(before, after) == {
        KEY: {"lines": [{**line, "done": True}, {"kind": CARD, "text": "b"}], "note": "n"}
    }
    assert gm_orders.digest({**line, "done": True}) == gm_orders.digest(line)
    assert gm_orders.digest(line) != gm_orders.digest({**line, "area": "castile"})
    assert gm_orders.keep_done({}, after) is after


def test_a_lines_fingerprint_is_fixed_whatever_the_order_of_its_fields():
    """The fingerprint in a "carry it out" link a mail already holds stays valid: 16 hex
    digits of the line's JSON with sorted keys."""
    line = {"kind": MOVE, "piece": 3, "area": "granada"}
    assert gm_orders.digest(line) == "f688c4568b831d3d"
    assert gm_orders.digest({"area": "granada", "piece": 3, "kind": MOVE}) == "f688c4568b831d3d"


def test_a_line_is_described_with_its_unit_area_and_text():
    describe = gm_orders.describe
    move = {"kind": MOVE, "piece": 3, "area": "granada"}
    assert describe(move, PIECES, PLACES) == "move: corps IV → Granada"
    assert describe({**move, "text": "quickly"}, PIECES, PLACES) == (
        "move: corps IV → Granada (quickly)"
    )
    battle = {"kind": BATTLE, "piece": 9, "area": "bosnia"}
    assert describe(battle, PIECES, PLACES) == "battle: unit #9 attacks in Bosnia"
    assert describe({"kind": CARD, "text": "Trent"}, PIECES, PLACES) == "card played: Trent"


def test_the_log_numbers_the_lines_and_reveals_them_with_the_note():
    first = gm_orders.numbered(1, gm_orders.describe({"kind": CARD, "text": "A"}, {}, {}), False)
    second = gm_orders.numbered(2, gm_orders.describe({"kind": CARD, "text": "B"}, {}, {}), True)
    assert (first, second) == ("1. card played: A", "2. card played: B (carried out)")
    assert gm_orders.revealed("France", [first, second], "thanks") == (
        "France's orders for the GM: 1. card played: A; 2. card played: B (carried out); "
        "note: thanks."
    )
    assert gm_orders.revealed("France", [first], "") == (
        "France's orders for the GM: 1. card played: A."
    )
    carrying = gm_orders.carrying_out("France", 2)
    assert carrying == "carrying out France's order 2"
    assert gm_orders.edit_line("ann", "a change", carrying) == (
        "GM ann, carrying out France's order 2: a change."
    )
    assert gm_orders.edit_line("ann", "a change") == "GM ann: a change."
