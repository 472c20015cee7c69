"""Dice as a player checks them: a seeded face is the first digest byte under 252 (the
bytes 252 to 255 are skipped so that no face is favoured), read mod 6 + 1; a GM-entered
face that is not a die face is named, the first of them, and a long one cut short."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice, parse_faces, seeded_face


def test_a_first_byte_of_251_is_a_face():
    # HMAC-SHA256("seed", "ctx/72") begins 251, 61: 251 % 6 + 1
    assert seeded_face("seed", "ctx", 72) == 6


def test_a_first_byte_of_252_is_skipped():
    # HMAC-SHA256("seed", "ctx/586") begins 252, 191: 191 % 6 + 1
    assert seeded_face("seed", "ctx", 586) == 6


def test_scripted_dice_name_the_first_face_that_is_not_one():
    with pytest.raises(ValueError, match="a die face is 1 to 6, not 7"):
        ScriptedDice([7, 0])


@pytest.mark.parametrize(
    "token, shown",
    [("9" * 12, "9" * 12), ("9" * 13, "9" * 12 + "…"), ("9" * 11, "9" * 11)],
)
def test_a_bad_token_is_named_whole_up_to_twelve_characters(token, shown):
    with pytest.raises(ValueError) as raised:
        parse_faces(f"4 {token}")
    assert str(raised.value) == f"“{shown}” is not a die face (1 to 6)"
