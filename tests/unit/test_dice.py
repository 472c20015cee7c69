"""rules/dice.py and rules/modifiers.py: fair verifiable dice, rolls that explain themselves."""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections import Counter

import pytest

from rules.dice import (
    DiceExhausted,
    DieRoll,
    ScriptedDice,
    SeededDice,
    choose_index,
    new_seed,
    parse_faces,
    seed_hash,
    seeded_face,
)
from rules.modifiers import ModifiedRoll, Modifier, RollReport, clamp


def test_scripted_dice_give_the_entered_faces_in_order_and_remember_why():
    dice = ScriptedDice([4, 5])
    assert dice.d6("revolt attempt") == 4
    assert dice.d6("revolt strength") == 5
    assert dice.rolls == [DieRoll(0, "revolt attempt", 4), DieRoll(1, "revolt strength", 5)]
    assert dice.unused == 0


def test_scripted_dice_exhausted_names_the_roll_that_needs_another_face():
    dice = ScriptedDice([3])
    dice.d6("first")
    with pytest.raises(
        DiceExhausted, match=r"^1 face was entered; roll 2 \(second\) needs another$"
    ):
        dice.d6("second")


@pytest.mark.parametrize("face", [0, 7, -1])
def test_scripted_dice_refuse_a_face_that_is_not_1_to_6(face):
    with pytest.raises(ValueError, match="a die face is 1 to 6"):
        ScriptedDice([3, face])


def test_scripted_dice_do_not_share_the_callers_list():
    faces = [2, 3]
    dice = ScriptedDice(faces)
    faces.append(9)
    assert dice.unused == 2


def test_seeded_dice_are_reproducible_from_seed_and_context():
    first = SeededDice("secret", "campaign 1/turn 3/land")
    second = SeededDice("secret", "campaign 1/turn 3/land")
    faces = [first.d6("x") for _ in range(30)]
    assert faces == [second.d6("y") for _ in range(30)]
    assert all(1 <= f <= 6 for f in faces)
    assert [r.index for r in first.rolls] == list(range(30))


def test_seeded_dice_differ_between_phases_and_seeds():
    def faces(seed: str, context: str) -> list[int]:
        dice = SeededDice(seed, context)
        return [dice.d6("x") for _ in range(40)]

    assert faces("secret", "turn 3/land") != faces("secret", "turn 4/land")
    assert faces("secret", "turn 3/land") != faces("other", "turn 3/land")


def test_seeded_face_is_the_first_unbiased_byte_of_the_hmac_mod_6_plus_1():
    digest = hmac.new(b"seed", b"ctx/0", hashlib.sha256).digest()
    byte = next(b for b in digest if b < 252)
    assert seeded_face("seed", "ctx", 0) == byte % 6 + 1


def test_seeded_faces_are_roughly_uniform():
    counts = Counter(seeded_face("uniform", "ctx", n) for n in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values())


def test_published_seed_hash_is_sha256_of_the_seed():
    seed = new_seed()
    assert len(seed) == 64 and int(seed, 16) >= 0
    assert seed_hash(seed) == hashlib.sha256(seed.encode()).hexdigest()
    assert new_seed() != seed


def test_parse_faces_accepts_spaces_and_commas():
    assert parse_faces("4 5, 3") == [4, 5, 3]
    assert parse_faces("") == []


@pytest.mark.parametrize(
    "text, token",
    [
        ("4 7", "7"),
        ("x", "x"),
        ("2,0", "0"),
        ("²", "²"),
        ("3 ٣", "٣"),
        ("9" * 5000, "9" * 12 + "…"),
    ],
)
def test_parse_faces_names_the_bad_token(text, token):
    with pytest.raises(ValueError, match=f"“{token}” is not a die face"):
        parse_faces(text)


def test_modified_roll_explains_like_the_gm():
    roll = ModifiedRoll(4, (Modifier("GB national modifier", 1), Modifier("GB Dominant", 1)))
    assert roll.total == 6
    assert roll.explain() == "die 4 +1 GB national modifier +1 GB Dominant = 6"


def test_zero_modifiers_are_kept_but_not_printed():
    zero = Modifier("France corps present", 0)
    roll = ModifiedRoll(5, (Modifier("France Dominant", -1), zero))
    assert roll.modifiers[-1] == zero
    assert roll.applied == (Modifier("France Dominant", -1),)
    assert roll.explain() == "die 5 -1 France Dominant = 4"


def test_a_bare_roll_explains_itself():
    assert ModifiedRoll(3).explain() == "die 3 = 3"


def test_roll_report_text_with_and_without_comparison():
    roll = ModifiedRoll(4, (Modifier("GB national modifier", 1), Modifier("GB Dominant", 1)))
    report = RollReport("EIA-1", "revolt attempt", roll, "≥ 6", "the revolt breaks out")
    assert (
        report.text == "die 4 +1 GB national modifier +1 GB Dominant = 6 ≥ 6: the revolt breaks out"
    )
    assert RollReport("EIA-2", "x", ModifiedRoll(4), "", "revolt number 4").text == (
        "die 4 = 4: revolt number 4"
    )


@pytest.mark.parametrize("value, expected", [(1, 2), (2, 2), (4, 4), (5, 5), (9, 5)])
def test_clamp(value, expected):
    assert clamp(value, 2, 5) == expected


# -- choose_index: a uniform pick from d6 rolls only --------------------------------------


def test_choose_index_of_one_rolls_nothing():
    dice = ScriptedDice([])
    assert choose_index(dice, 1, "draw from the Swedish pool") == 0
    assert dice.rolls == []


@pytest.mark.parametrize("count", [0, -3])
def test_choose_index_refuses_an_empty_choice(count):
    with pytest.raises(ValueError, match=f"cannot choose among {count} items"):
        choose_index(ScriptedDice([3]), count, "draw")


def test_choose_index_of_six_is_the_face_less_one():
    picks = [choose_index(ScriptedDice([face]), 6, "draw") for face in range(1, 7)]
    assert picks == list(range(6))


def test_choose_index_rejects_the_faces_above_the_last_whole_multiple():
    """Among 4, faces 5 and 6 would favour indexes 0 and 1: they are rolled again."""
    dice = ScriptedDice([5, 6, 3])
    assert choose_index(dice, 4, "draw from the Danish pool") == 2
    assert [r.face for r in dice.rolls] == [5, 6, 3]
    assert {r.purpose for r in dice.rolls} == {"draw from the Danish pool"}


def test_choose_index_reads_two_dice_as_base_six_digits():
    """Among 7: 6² = 36, 35 values are used (5 per index), a double six is rolled again."""
    assert choose_index(ScriptedDice([2, 3]), 7, "draw") == (1 * 6 + 2) % 7
    dice = ScriptedDice([6, 6, 1, 1])
    assert choose_index(dice, 7, "draw") == 0
    assert dice.unused == 0


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 11, 13, 35, 36, 37])
def test_choose_index_is_uniform_over_every_accepted_roll(count):
    """Every sequence of faces of one attempt: each index is reached equally often."""
    digits = 1 if count <= 6 else 2 if count <= 36 else 3
    hits = Counter()
    for faces in itertools.product(range(1, 7), repeat=digits):
        value = 0
        for face in faces:
            value = value * 6 + face - 1
        if value < 6**digits // count * count:
            hits[choose_index(ScriptedDice(list(faces)), count, "draw")] += 1
    assert sorted(hits) == list(range(count))
    assert len(set(hits.values())) == 1


def test_choose_index_with_seeded_dice_stays_in_range():
    dice = SeededDice("secret", "campaign 1/turn 1/recruitment")
    picks = [choose_index(dice, 5, "draw") for _ in range(200)]
    assert set(picks) == set(range(5))
