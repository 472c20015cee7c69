"""Checking a resolved phase's stored rolls against its revealed seed.

Seeded dice derive die n (from 0) of a phase from HMAC-SHA256(seed, "<context>/<n>")
(rules.dice.seeded_face); the seed's SHA-256 was published when the phase opened. Once
the phase is resolved and its seed revealed, verify_phase() recomputes every die of every
stored roll from the seed alone and says, roll by roll, whether the stored faces are the
ones the seed gives; that the seed is the one committed to (its SHA-256 equals the hash
published); and whether the stored rolls cover the phase's dice without a gap or an
overlap. Nothing is ever derived from the published hash: it is only compared.

verify_phase makes no queries: ``phase`` comes with its campaign loaded (or
``dice_mode`` is given) and ``rolls`` are any objects with ``index`` and ``faces``
(RollRecords).

SCRIPT is the standalone check the README prints and bin/verify-dice runs: given the
seed, the context and a count of dice, it prints the seed's SHA-256 and the faces.

Hidden draws (a block from a face-down pool) are ordered by the campaign's secret as well
(rules.dice.secret_draw), so their faces alone do not say what they drew. verify_draws()
reads the phase's draw rolls; once the secret is revealed (the campaign has ended, or
the reader is the GM) it rebuilds the state the phase resolved from (its snapshot) and
has the ruleset recompute each draw from the secret and the faces. DRAW_SCRIPT
(bin/verify-draw) does one draw offline.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext, ngettext

from campaign.models import Event, PhaseSnapshot
from campaign.records.state_rows import SnapshotRows
from campaign.state import history
from rules.dice import DrawCheck, DrawRoll, seed_hash, seeded_face

SCRIPTED = "scripted"

SCRIPT = """\
import hashlib, hmac, sys

seed, context, count = sys.argv[1].encode(), sys.argv[2], int(sys.argv[3])
print("seed SHA-256:", hashlib.sha256(seed).hexdigest())
for n in range(count):  # die n (from 0): "context/n", else "context/n/1", …
    for suffix in ["", *(f"/{retry}" for retry in range(1, 99))]:
        digest = hmac.digest(seed, f"{context}/{n}{suffix}".encode(), "sha256")
        if usable := [byte for byte in digest if byte < 252]:
            break
    print(usable[0] % 6 + 1, end=" " if n < count - 1 else "\\n")
"""


DRAW_SCRIPT = """\
import hashlib, hmac, sys

secret, context, faces, pool = sys.argv[1].encode(), sys.argv[2], sys.argv[3], sys.argv[4:]
print("secret SHA-256:", hashlib.sha256(secret).hexdigest())
order = sorted(pool, key=lambda b: hmac.digest(secret, f"{context}/{b}".encode(), "sha256"))
print("order:", " | ".join(order))
digits = next(k for k in range(1, 99) if 6**k >= len(order))  # dice per try
limit, dice = 6**digits // len(order) * len(order), [int(f) - 1 for f in faces.split()]
for start in range(0, len(dice) - digits + 1, digits):  # a try at or above limit: again
    if (value := int("".join(map(str, dice[start : start + digits])), 6)) < limit:
        print("drawn:", order[value % len(order)])
        break
else:  # every try rolled again, or too few faces for one: no draw to check
    sys.exit(f"no draw: {len(dice)} faces do not complete a draw ({digits} per try)")
"""


@dataclass(frozen=True)
class RollCheck:
    """One stored roll: its dice (``index`` is its first die in the phase), the faces
    stored, the faces the seed gives, and whether they are the same."""

    roll: Any
    index: int
    stored: tuple[int, ...]
    recomputed: tuple[int, ...]

    @property
    def match(self) -> bool:
        return self.stored == self.recomputed

    @property
    def dice(self) -> str:
        """The roll's dice numbers, "3" or "3–5"."""
        return _span(self.index, self.index + len(self.stored))


@dataclass(frozen=True)
class Gap:
    """Dice ``start`` to ``end`` (exclusive) of the phase that no stored roll holds, with
    the faces the seed gives them; or, as an overlap, dice held by more than one roll."""

    start: int
    end: int
    faces: tuple[int, ...] = ()

    @property
    def dice(self) -> str:
        return _span(self.start, self.end)


@dataclass(frozen=True)
class Verification:
    """What the seed says of a phase's stored rolls."""

    context: str
    seed: str
    seed_hash: str  # as published when the phase opened
    verifiable: bool  # seeded dice with a seed (GM-entered dice cannot be recomputed)
    scripted: bool = False  # the campaign's dice are entered by the GM
    checks: list[RollCheck] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    overlaps: list[Gap] = field(default_factory=list)

    @property
    def seed_matches_hash(self) -> bool:
        """The revealed seed is the one committed to when the phase opened."""
        return bool(self.seed) and hashlib.sha256(self.seed.encode()).hexdigest() == (
            self.seed_hash
        )

    @property
    def rolls(self) -> int:
        return len(self.checks)

    @property
    def dice(self) -> int:
        """How many dice the stored rolls hold."""
        return sum(len(check.stored) for check in self.checks)

    @property
    def span(self) -> int:
        """The dice the phase rolled as far as its stored rolls show: the count to give the
        offline script."""
        return max((check.index + len(check.stored) for check in self.checks), default=0)

    @property
    def mismatches(self) -> list[RollCheck]:
        return [check for check in self.checks if not check.match]

    @property
    def all_match(self) -> bool:
        return self.verifiable and not self.mismatches

    @property
    def ok(self) -> bool:
        """Every stored die is the seed's, the seed is the committed one, and the stored
        rolls hold the phase's dice each once, in order."""
        return self.all_match and self.seed_matches_hash and not self.gaps and not self.overlaps

    @property
    def recomputed(self) -> list[int]:
        """Every face of the phase from the seed, die 0 to ``span`` − 1 (what the offline
        script prints)."""
        if not self.verifiable:
            return []
        return [seeded_face(self.seed, self.context, n) for n in range(self.span)]

    @property
    def summary(self) -> str:
        """The verdict, in the active language."""
        if not self.verifiable and not self.scripted:
            return gettext("This phase has no revealed seed: its rolls cannot be verified.")
        if not self.verifiable:
            return gettext(
                "The dice of this campaign are entered by the GM (rolled at the table or on "
                "a dice server of the group's choice): they cannot be verified from a seed."
            )
        sentences = []
        if not self.seed_matches_hash:
            sentences.append(
                gettext(
                    "The seed does not match the hash published when the phase opened: the "
                    "rolls cannot be trusted."
                )
            )
        if not self.checks:
            sentences.append(gettext("No roll of this phase is stored."))
        elif self.mismatches:
            sentences.append(
                ngettext(
                    "The log does not match the seed: %(count)s roll of %(rolls)s differs "
                    "from the faces the seed gives (✗ below).",
                    "The log does not match the seed: %(count)s rolls of %(rolls)s differ "
                    "from the faces the seed gives (✗ below).",
                    len(self.mismatches),
                )
                % {"count": len(self.mismatches), "rolls": self.rolls}
            )
        else:
            rolls = ngettext("%(count)s roll", "%(count)s rolls", self.rolls) % {
                "count": self.rolls
            }
            if self.seed_matches_hash:
                said = ngettext(
                    "Every die matches the seed: %(count)s die in %(rolls)s, and the seed is "
                    "the one whose hash was published when the phase opened.",
                    "Every die matches the seed: %(count)s dice in %(rolls)s, and the seed "
                    "is the one whose hash was published when the phase opened.",
                    self.dice,
                )
            else:
                said = ngettext(
                    "Every die matches the seed: %(count)s die in %(rolls)s.",
                    "Every die matches the seed: %(count)s dice in %(rolls)s.",
                    self.dice,
                )
            sentences.append(said % {"count": self.dice, "rolls": rolls})
        sentences += [
            ngettext(
                "Die %(dice)s of the phase is in no stored roll.",
                "Dice %(dice)s of the phase are in no stored roll.",
                gap.end - gap.start,
            )
            % {"dice": gap.dice}
            for gap in self.gaps
        ]
        sentences += [
            ngettext(
                "Die %(dice)s is stored in more than one roll.",
                "Dice %(dice)s are stored in more than one roll.",
                overlap.end - overlap.start,
            )
            % {"dice": overlap.dice}
            for overlap in self.overlaps
        ]
        return " ".join(sentences)


def verify_phase(phase: Any, rolls: Iterable[Any], *, dice_mode: str | None = None) -> Verification:
    """Recompute every die of ``rolls`` (the phase's stored rolls) from the phase's
    revealed seed, in index order. ``dice_mode``: the campaign's (by default read from
    ``phase.campaign``); GM-entered dice are reported as not verifiable."""
    mode = dice_mode if dice_mode is not None else phase.campaign.dice_mode
    context = phase.dice_context
    seed = phase.seed or ""
    ordered = sorted(rolls, key=lambda roll: (roll.index, getattr(roll, "pk", 0) or 0))
    scripted = mode == SCRIPTED
    verifiable = not scripted and bool(seed)
    checks, gaps, overlaps = [], [], []
    expected = 0
    for roll in ordered:
        stored = _faces(roll.faces)
        end = roll.index + len(stored)
        recomputed = (
            tuple(seeded_face(seed, context, n) for n in range(roll.index, end))
            if verifiable
            else ()
        )
        checks.append(RollCheck(roll, roll.index, stored, recomputed))
        if roll.index > expected:
            faces = (
                tuple(seeded_face(seed, context, n) for n in range(expected, roll.index))
                if verifiable
                else ()
            )
            gaps.append(Gap(expected, roll.index, faces))
        elif roll.index < expected and end > roll.index:
            overlaps.append(Gap(roll.index, min(expected, end)))
        expected = max(expected, end)
    return Verification(
        context=context,
        seed=seed if verifiable else "",
        seed_hash=phase.seed_hash or "",
        verifiable=verifiable,
        scripted=scripted,
        checks=checks,
        gaps=gaps,
        overlaps=overlaps,
    )


def _faces(value: Any) -> tuple[int, ...]:
    """Stored faces as a tuple; anything that is not a list of faces (a tampered row)
    keeps its items as they are, so it fails to match rather than breaking the check."""
    if isinstance(value, list | tuple):
        return tuple(value)
    return (value,) if value is not None else ()


def _span(start: int, end: int) -> str:
    return str(start) if end - start <= 1 else f"{start}–{end - 1}"


@dataclass(frozen=True)
class DrawVerification:
    """What the campaign's secret says of a phase's hidden draws: nothing until it is
    revealed (``secret`` empty); then each draw recomputed (``checks``), unless the state
    the phase resolved from was not kept (``snapshot`` False)."""

    count: int  # the phase's draw rolls
    published: str  # the secret's SHA-256 as the log published it at the start ("": none)
    secret: str = ""
    snapshot: bool = True
    checks: list[DrawCheck] = field(default_factory=list)

    @property
    def revealed(self) -> bool:
        return bool(self.secret)

    @property
    def secret_hash(self) -> str:
        """The revealed secret's SHA-256."""
        return seed_hash(self.secret) if self.secret else ""

    @property
    def secret_matches_hash(self) -> bool:
        return self.revealed and self.secret_hash == self.published

    @property
    def mismatches(self) -> list[DrawCheck]:
        return [check for check in self.checks if not check.match]

    @property
    def ok(self) -> bool:
        """The secret is the committed one and every draw drew what it and the dice pick."""
        checked = self.snapshot and len(self.checks) == self.count
        return self.secret_matches_hash and checked and not self.mismatches

    @property
    def rows(self) -> list[tuple[DrawCheck, str]]:
        """Each draw with the DRAW_SCRIPT command that recomputes it offline."""
        return [(check, self.command(check)) for check in self.checks]

    def command(self, check: DrawCheck) -> str:
        faces = " ".join(str(face) for face in check.roll.faces)
        words = [self.secret, check.context, faces, *check.order]
        return "python3 bin/verify-draw " + " ".join(shlex.quote(word) for word in words)


def verify_draws(campaign: Any, phase: Any, rolls: Iterable[Any], *, reveal: bool):
    """The phase's hidden draws (None: it has none), recomputed from the campaign's secret
    when ``reveal`` (the campaign has ended, or the reader is the GM). ``rolls``: the
    phase's RollRecords with their power; reads the phase's snapshot when revealing."""
    rules = campaign.rules
    draws = [roll for roll in rolls if rules.draw_rule and roll.rule == rules.draw_rule]
    if not draws:
        return None
    found = DrawVerification(len(draws), published_secret_hash(campaign))
    if not reveal:
        return found
    world = _world_before(campaign, phase)
    if world is None:
        return replace(found, secret=campaign.secret, snapshot=False)
    checks = rules.draw_checks(
        world, [_draw_roll(roll) for roll in draws], campaign.secret, phase.dice_context
    )
    return replace(found, secret=campaign.secret, checks=checks)


def published_secret_hash(campaign: Any) -> str:
    """The SHA-256 of the campaign's secret as its log last published it: when the
    campaign started (services._publish_secret_hash), or when it was imported with a new
    secret (campaign/records/archive.py); "" for a campaign started without it."""
    message = (
        Event.objects.filter(campaign=campaign, message__params__has_key="secret_hash")
        .order_by("-pk")
        .values_list("message", flat=True)
        .first()
    )
    return message["params"]["secret_hash"] if message else ""


def _world_before(campaign: Any, phase: Any) -> Any:
    """The World the phase resolved from, from its snapshot (None: none was kept)."""
    snapshot = PhaseSnapshot.objects.filter(phase=phase).first()
    if snapshot is None:
        return None
    then = history.at_turn(campaign, phase.turn)
    if snapshot.options is not None:
        then.options = snapshot.options
    rows = SnapshotRows(campaign, history.resolved_from(snapshot, campaign.ruleset))
    return campaign.rules.load_world(then, rows)


def _draw_roll(roll: Any) -> DrawRoll:
    return DrawRoll(
        roll.index,
        _faces(roll.faces),
        roll.power.key if roll.power_id else None,
        roll.outcome,
    )
