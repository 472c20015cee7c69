"""Dice: one protocol, a seeded (verifiable) and a scripted (GM-entered) implementation.

Seeded dice derive face number n of a phase from HMAC-SHA256(seed, "<context>/<n>"),
where the context names the campaign, turn and phase. The seed is secret while the
phase is open (only its SHA-256 is published) and revealed afterwards, so anyone can
recompute every roll. Faces are drawn without modulo bias: the first byte of the
digest below 252 (a multiple of 6) gives ``byte % 6 + 1``; otherwise the next byte is
tried, then the digest of "<context>/<n>/<retry>".

A hidden draw (secret_draw) is picked by the dice within an order that only the
campaign's secret gives, so that its revealed faces do not tell what it drew.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rules.text import Plural

FACE = re.compile(r"[1-6]")
FACE_SEPARATORS = re.compile(r"[\s,;]+")


class Dice(Protocol):
    """Anything that rolls six-sided dice and remembers what it rolled."""

    rolls: list[DieRoll]

    def d6(self, purpose: str) -> int: ...


@dataclass(frozen=True)
class DieRoll:
    """One die face as it was rolled, with what it was rolled for."""

    index: int
    purpose: str
    face: int


class DiceExhausted(Exception):
    """Scripted dice were asked for more faces than were entered; its argument is a Text
    naming the roll."""


def new_seed() -> str:
    """A fresh secret phase seed (hex)."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """The SHA-256 published while the phase is open."""
    return hashlib.sha256(seed.encode()).hexdigest()


def seeded_face(seed: str, context: str, index: int) -> int:
    """Face ``index`` (0-based) of the phase identified by ``context``."""
    retry = 0
    while True:
        message = f"{context}/{index}" if retry == 0 else f"{context}/{index}/{retry}"
        digest = hmac.new(seed.encode(), message.encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:
                return byte % 6 + 1
        retry += 1


@dataclass
class SeededDice:
    """Fair, reproducible dice from a secret seed and the phase's context."""

    seed: str
    context: str
    rolls: list[DieRoll] = field(default_factory=list)

    def d6(self, purpose: str) -> int:
        face = seeded_face(self.seed, self.context, len(self.rolls))
        self.rolls.append(DieRoll(len(self.rolls), purpose, face))
        return face


@dataclass
class ScriptedDice:
    """Faces given in advance: GM-entered dice, and every test."""

    faces: list[int]
    rolls: list[DieRoll] = field(default_factory=list)

    def __post_init__(self) -> None:
        bad = [f for f in self.faces if not 1 <= f <= 6]
        if bad:
            raise ValueError(f"a die face is 1 to 6, not {bad[0]}")
        self.faces = list(self.faces)

    def d6(self, purpose: str) -> int:
        if len(self.rolls) >= len(self.faces):
            raise DiceExhausted(
                Plural(
                    "%(count)s face was entered; roll %(roll)s (%(purpose)s) needs another",
                    "%(count)s faces were entered; roll %(roll)s (%(purpose)s) needs another",
                    count=len(self.faces),
                    roll=len(self.rolls) + 1,
                    purpose=purpose,
                )
            )
        face = self.faces[len(self.rolls)]
        self.rolls.append(DieRoll(len(self.rolls), purpose, face))
        return face

    @property
    def unused(self) -> int:
        return len(self.faces) - len(self.rolls)


def parse_faces(text: str) -> list[int]:
    """GM-entered faces ("4 5, 3") as a list; ValueError naming the first bad token.

    Only the ASCII digits 1 to 6 are faces: "²", "٣" or a thousand-digit number are
    refused before any conversion.
    """
    faces = []
    for token in FACE_SEPARATORS.split(text.strip()):
        if not token:
            continue
        if not FACE.fullmatch(token):
            shown = token if len(token) <= 12 else f"{token[:12]}…"
            raise ValueError(f"“{shown}” is not a die face (1 to 6)")
        faces.append(int(token))
    return faces


def choose_index(dice: Dice, count: int, purpose: str) -> int:
    """A uniform index in ``range(count)`` from d6 rolls only (a random pick from a pool).

    k dice read as base-6 digits give a value in [0, 6^k), with 6^k ≥ count; a value at or
    above the largest multiple of ``count`` below 6^k is rejected and k dice are rolled
    again, so no index is favoured. A count of 1 rolls nothing.
    """
    if count < 1:
        raise ValueError(f"cannot choose among {count} items")
    digits, span = 0, 1
    while span < count:
        digits, span = digits + 1, span * 6
    limit = span // count * count
    while True:
        value = 0
        for _ in range(digits):
            value = value * 6 + dice.d6(purpose) - 1
        if value < limit:
            return value % count


# -- hidden draws ------------------------------------------------------------------------
#
# A draw whose result some player may not see (a block from a face-down pool) cannot be
# read off the dice alone: every face is recomputable from the phase seed revealed after
# the phase. So the items are first put in an order only the campaign's secret gives
# (its SHA-256 is published when the campaign starts, the secret itself when it ends),
# and the dice pick within that order. The order is new for every draw: nothing learned
# of one draw says anything of another.


def draw_context(context: str, first_die: int) -> str:
    """The context of a draw: the phase's dice context, "draw" and the index (in the
    phase) of the draw's first die, e.g. "12/5/0/recruitment/draw/3"."""
    return f"{context}/draw/{first_die}"


def secret_order(secret: str, context: str, keys: Iterable[str]) -> list[str]:
    """``keys`` sorted by HMAC-SHA256(secret, "<context>/<key>") (UTF-8, digests compared
    as bytes): a permutation nobody can foresee without the secret, and a different one
    for every context."""
    key = secret.encode()

    def digest(item: str) -> bytes:
        return hmac.digest(key, f"{context}/{item}".encode(), "sha256")

    return sorted(keys, key=digest)


def secret_draw(dice: Dice, keys: Sequence[str], purpose: str, *, secret: str, context: str) -> str:
    """One of ``keys`` at random, hidden from whoever lacks ``secret``: choose_index picks
    within secret_order(secret, draw_context(context, n), keys), n being the index of the
    draw's first die in the phase. An empty secret (a bare test world) keeps ``keys``'
    own order."""
    first_die = len(dice.rolls)
    order = secret_order(secret, draw_context(context, first_die), keys) if secret else keys
    return order[choose_index(dice, len(order), purpose)]


def drawn_by(faces: Sequence[int], order: Sequence[str]) -> str | None:
    """The item of ``order`` that these faces (all of one draw's dice, rejected groups
    included) pick as choose_index does; None when they are not exactly one draw's dice."""
    try:
        dice = ScriptedDice(list(faces))
        index = choose_index(dice, len(order), "")
    except (DiceExhausted, TypeError, ValueError):  # not faces, too few, or no pool
        return None
    return None if dice.unused else order[index]


@dataclass(frozen=True)
class DrawRoll:
    """A stored draw as a check reads it: its first die, faces, drawing power, outcome."""

    index: int
    faces: tuple[int, ...]
    power: str | None
    outcome: str


@dataclass(frozen=True)
class DrawCheck:
    """A draw recomputed from the secret: its context (draw_context), the pool in the
    secret order, the item the faces pick in it, the outcome the log should read and the
    one it reads."""

    roll: DrawRoll
    context: str
    order: tuple[str, ...]
    picked: str  # "" when the faces pick nothing
    expected: str
    stored: str

    @property
    def match(self) -> bool:
        return bool(self.picked) and self.expected == self.stored
