"""What a ruleset's presenter puts on the map (campaign/presenters.py draws them): for
each area, badges, the cells of its table columns and remarks; and the orders a reader
may read, as arrows and markers. Pure: no Django."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules import gm_orders
from rules.text import Text

if TYPE_CHECKING:
    from rules.engine import Label


@dataclass(frozen=True)
class Badge:
    """A counter on an area: its ``kind`` says how the map draws it (each ruleset's
    presenter lists its kinds: "revolt", "block", "catholic"...)."""

    kind: str
    value: int  # the number it shows (0: none)
    label: str  # what it says, for the area's tooltip
    color: str = ""  # a colour of its own (a Pax Baltica block's nation's)
    dx: float = 0  # where it sits in the row under its area, when several do
    dy: float = 0  # and which row, on a drawn map


def counted(kind: str, count: int, label: str) -> Badge:
    """A badge that counts ``count`` pieces; ``label``: the plural form the catalogs
    chose for ``count`` (ngettext), with ``%(count)s`` where the number goes."""
    return Badge(kind, count, label % {"count": count})


BESIEGED = "besieged"  # the kind of the badge of an area under siege, in every ruleset


@dataclass(frozen=True)
class AreaMarks:
    """One area's badges, its cells under the presenter's columns, and remarks after
    its kind."""

    badges: tuple[Badge, ...]
    cells: tuple[str, ...]
    remarks: tuple[Label, ...]


@dataclass(frozen=True)
class OrderMark:
    """An order drawn on the map: an arrow from ``source`` to ``target`` (area keys), through
    ``via`` (a path's areas between them), or, without a source, a marker on ``target``.
    ``kind`` says how it is drawn; ``power`` is whose order it is; ``label`` says what it
    orders (the map's tooltip and screen readers).

    Kinds: "move" (a unit's move, any ruleset); Empires in Arms "incite", "aid", "lapse",
    "operation", "depot", "conquest"; Pax Baltica "reinforce", "place", "fleet", "siege";
    Virgin Queen "conversion", "revolt"."""

    kind: str
    power: str  # the ordering power's key
    target: str  # an area key
    source: str | None = None
    via: tuple[str, ...] = ()
    label: str = ""


def gm_move_marks(
    power: str,
    payload: Any,
    pieces: Iterable[gm_orders.Piece],
    places: Mapping[str, str],
    localized: Callable[[Text], str],
) -> list[OrderMark]:
    """The "move" lines of ``power``'s orders for the GM (rules/gm_orders.py) as move
    arrows from the piece's area to the line's, labelled as ``describe`` says them; none
    for a piece or an area no longer on the map, or a piece already there."""
    by_id = {piece.id: piece for piece in pieces}
    marks = []
    for line in gm_orders.lines_of(payload):
        piece_id, area = line.get("piece"), line.get("area")
        piece = by_id.get(piece_id) if isinstance(piece_id, int) else None
        if piece is None or not isinstance(area, str):
            continue
        drawn = piece.area in places and area in places
        if line.get("kind") == gm_orders.MOVE and drawn and area != piece.area:
            said = gm_orders.describe(
                {"kind": gm_orders.MOVE, "piece": piece.id, "area": area}, by_id, places
            )
            marks.append(OrderMark("move", power, area, piece.area, label=localized(said)))
    return marks
