"""Orders for the GM: what the rules leave to the GM (land moves, field battles, cards
played at the table), given by a player as lines with the phase's orders.

The rules engine never reads these lines; the GM carries them out by hand on the
dashboard. A ruleset offers its kinds of line through its ``gm_orders`` declaration
(rules/engine.py), whose module gives the power's own pieces with the areas the
adjacency lets each reach (``pieces``), the map's area names (``places``) and, for a
line an edit can carry out, that edit prefilled (``carry_out``). Free text is always
offered. Pure: no Django.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.refusals import Refused
from rules.text import CLAUSES, Join, Text

MOVE, BATTLE, CARD = "move", "battle", "card"
KIND_NAMES = {MOVE: Text("move"), BATTLE: Text("battle"), CARD: Text("card played")}
KEY = "for_gm"  # the reserved key of an order's payload that holds them
MAX_LINES = 50
MAX_LINE_TEXT = 200
MAX_NOTE = 2000
TARGET_SEP = ":"  # a posted target: "<piece id>:<area key>"


@dataclass(frozen=True)
class Piece:
    """A corps, block or unit stack of the power: where it stands, where it may go."""

    id: int
    label: Text  # "corps I", "Karl XII (army)"
    area: str
    reach: tuple[str, ...]  # the areas the adjacency lets it move to


@dataclass(frozen=True)
class Prefill:
    """The GM edit that carries a line out: its key, the item its form edits ("new" for a
    blank form) and the field values the line sets."""

    edit: str
    item: str
    values: dict[str, Any] = field(default_factory=dict)


def check_line(
    number: int,
    line: Mapping[str, Any],
    *,
    kinds: tuple[str, ...],
    pieces: Mapping[int, Piece],
    places: Mapping[str, str],
) -> dict[str, Any]:
    """The line as stored ({kind, piece?, area?, text?}), or Refused saying why."""
    kind, text = line.get("kind", ""), str(line.get("text", "")).strip()
    if kind not in kinds:
        raise Refused(
            Text(
                "Line %(line)s: “%(kind)s” is not a kind of order for the GM in this game.",
                line=number,
                kind=kind,
            )
        )
    if len(text) > MAX_LINE_TEXT:
        raise Refused(
            Text(
                "Line %(line)s: at most %(max)s characters (it has %(count)s).",
                line=number,
                max=MAX_LINE_TEXT,
                count=len(text),
            )
        )
    if kind == CARD:
        if not text:
            raise Refused(Text("Line %(line)s: give the name of the card played.", line=number))
        return {"kind": kind, "text": text}
    piece, area = _target(number, line.get("target", ""), pieces, places)
    _check_reach(number, kind, piece, area, places)
    stored = {"kind": kind, "piece": piece.id, "area": area}
    return {**stored, "text": text} if text else stored


def _target(
    number: int, target: str, pieces: Mapping[int, Piece], places: Mapping[str, str]
) -> tuple[Piece, str]:
    """The piece and area a posted "<piece id>:<area key>" names."""
    if not target:
        raise Refused(Text("Line %(line)s: choose the unit and the area.", line=number))
    piece_id, sep, area = str(target).partition(TARGET_SEP)
    if not sep:
        raise Refused(
            Text(
                "Line %(line)s: “%(value)s” does not name a unit and an area: reload the page.",
                line=number,
                value=target,
            )
        )
    piece = pieces.get(found) if (found := _number(piece_id)) is not None else None
    if piece is None:
        raise Refused(
            Text(
                "Line %(line)s: “%(piece)s” is not one of your units on the map.",
                line=number,
                piece=piece_id,
            )
        )
    if area not in places:
        raise Refused(
            Text("Line %(line)s: there is no area “%(area)s” on this map.", line=number, area=area)
        )
    return piece, area


def _check_reach(
    number: int, kind: str, piece: Piece, area: str, places: Mapping[str, str]
) -> None:
    """A move goes to an adjacent area; a battle is fought where the piece stands or in
    an adjacent area."""
    names = {"line": number, "piece": piece.label, "here": places[piece.area], "to": places[area]}
    if kind == MOVE and area == piece.area:
        raise Refused(Text("Line %(line)s: %(piece)s is already in %(to)s.", **names))
    if area != piece.area and area not in piece.reach:
        raise Refused(
            Text(
                "Line %(line)s: %(piece)s cannot reach %(to)s from %(here)s: the areas are "
                "not adjacent.",
                **names,
            )
        )


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


def check_note(note: str) -> str:
    """The free text as stored, or Refused when it is too long."""
    note = note.strip()
    if len(note) > MAX_NOTE:
        raise Refused(
            Text(
                "Your note to the GM is too long: at most %(max)s characters (it has %(count)s).",
                max=MAX_NOTE,
                count=len(note),
            )
        )
    return note


def check_count(count: int) -> None:
    if count > MAX_LINES:
        raise Refused(
            Text(
                "At most %(max)s lines of orders for the GM (you gave %(count)s).",
                max=MAX_LINES,
                count=count,
            )
        )


# -- reading them back --------------------------------------------------------------


def lines_of(payload: Any) -> list[dict]:
    """The lines an order's payload holds for the GM (none for any other payload)."""
    part = payload.get(KEY) if isinstance(payload, dict) else None
    lines = part.get("lines") if isinstance(part, dict) else None
    return [line for line in lines if isinstance(line, dict)] if isinstance(lines, list) else []


def note_of(payload: Any) -> str:
    part = payload.get(KEY) if isinstance(payload, dict) else None
    note = part.get("note") if isinstance(part, dict) else ""
    return note if isinstance(note, str) else ""


def without_lines(payload: dict) -> dict:
    """The payload the phase's resolver reads: without the lines for the GM."""
    return {key: value for key, value in payload.items() if key != KEY}


def digest(line: Mapping[str, Any]) -> str:
    """A short fingerprint of what a line says (not whether it was carried out): a link
    to carry it out is refused once the player has changed it."""
    said = {key: value for key, value in line.items() if key != "done"}
    return hashlib.sha256(json.dumps(said, sort_keys=True).encode()).hexdigest()[:16]


def keep_done(before: Any, after: dict) -> dict:
    """``after`` (a power's new orders) with the lines the GM already carried out still
    marked so, where the player gave them again unchanged."""
    done = {digest(line) for line in lines_of(before) if line.get("done")}
    lines = lines_of(after)
    if not done or not lines:
        return after
    kept = [{**line, "done": True} if digest(line) in done else line for line in lines]
    return {**after, KEY: {**after[KEY], "lines": kept}}


def describe(line: Mapping[str, Any], pieces: Mapping[int, Piece], places: Mapping[str, str]):
    """A line as the GM, the player and the log read it, e.g. "move: corps I → Bavaria"."""
    kind = line.get("kind")
    text = str(line.get("text", ""))
    if kind == CARD:
        return Text("card played: %(card)s", card=text)
    piece = pieces.get(found) if isinstance(found := line.get("piece"), int) else None
    label = piece.label if piece is not None else Text("unit #%(id)s", id=found)
    area = places.get(key, key) if isinstance(key := line.get("area"), str) else key
    if kind == BATTLE:
        said = Text("battle: %(piece)s attacks in %(area)s", piece=label, area=area)
    else:
        said = Text("move: %(piece)s → %(area)s", piece=label, area=area)
    return Text("%(line)s (%(text)s)", line=said, text=text) if text else said


def numbered(number: int, described: Text, done: bool) -> Text:
    if done:
        return Text("%(number)s. %(line)s (carried out)", number=number, line=described)
    return Text("%(number)s. %(line)s", number=number, line=described)


def revealed(power: str, lines: list[Text], note: str) -> Text:
    """The log line that shows a power's orders for the GM once the phase is over."""
    parts = list(lines) + ([Text("note: %(note)s", note=note)] if note else [])
    return Text(
        "%(power)s's orders for the GM: %(lines)s.", power=power, lines=Join(*parts, sep=CLAUSES)
    )


def carrying_out(power: str, number: int) -> Text:
    return Text("carrying out %(power)s's order %(number)s", power=power, number=number)


# The msgids of edit_line's two sentences: a log line with one of them is a GM edit of the
# state (what a rollback undoes), not a setting, a seat or a deadline.
EDIT_LINE_MSGIDS = ("GM %(user)s: %(change)s.", "GM %(user)s, %(order)s: %(change)s.")


def edit_line(user: str, change: Any, carrying: Text | None = None) -> Text:
    """The log line of a GM edit, with the order it carries out if any."""
    if carrying is None:
        return Text("GM %(user)s: %(change)s.", user=user, change=change)
    return Text("GM %(user)s, %(order)s: %(change)s.", user=user, order=carrying, change=change)
