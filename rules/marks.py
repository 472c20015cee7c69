"""What a ruleset's presenter puts on the map for each area (campaign/presenters.py
draws them): badges, the cells of its table columns, and remarks. Pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Badge:
    """A counter on an area: its ``kind`` says how the map draws it (each ruleset's
    presenter lists its kinds: "revolt", "block", "catholic"...)."""

    kind: str
    value: int  # the number it shows (0: none)
    label: str  # what it says, for the area's tooltip
    color: str = ""  # a colour of its own (a Pax Baltica block's nation's)
    dx: float = 0  # where it sits in the row under its area, when several do


def counted(kind: str, count: int, label: str) -> Badge:
    """A badge that counts ``count`` pieces; ``label``: the plural form the catalogs
    chose for ``count`` (ngettext), with ``%(count)s`` where the number goes."""
    return Badge(kind, count, label % {"count": count})


@dataclass(frozen=True)
class AreaMarks:
    """One area's badges, its cells under the presenter's COLUMNS, and remarks after
    its kind."""

    badges: tuple[Badge, ...]
    cells: tuple[str, ...]
    remarks: tuple[str, ...]
