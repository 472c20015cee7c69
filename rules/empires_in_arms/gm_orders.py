"""Empires in Arms orders for the GM (rules/gm_orders.py): corps moves and field battles,
carried out with the corps edit (where the corps goes, and that it fought). Pure."""

from __future__ import annotations

from rules.empires_in_arms.state import World
from rules.gm_orders import BATTLE, MOVE, Piece, Prefill
from rules.text import Text


def pieces(world: World, power_key: str) -> list[Piece]:
    """The corps the power controls (its own and its minors')."""
    return [
        Piece(
            corps.id,
            Text("corps %(name)s", name=corps.name or f"#{corps.id}"),
            corps.area,
            tuple(sorted(world.adjacency.get(corps.area, ()))),
        )
        for corps in world.corps
        if corps.id is not None and corps.power == power_key
    ]


def places(world: World) -> dict[str, str]:
    return {key: area.name for key, area in world.areas.items()}


def carry_out(world: World, line: dict) -> Prefill | None:
    """A move puts the corps in its new area; a battle puts it where it fought, marked as
    having fought this step (EIA-4)."""
    corps = next((c for c in world.corps if c.id is not None and c.id == line.get("piece")), None)
    if corps is None or line.get("kind") not in (MOVE, BATTLE):
        return None
    values = {"area": line["area"], "fought": corps.fought or line["kind"] == BATTLE}
    values |= {"besieged": corps.besieged, "besieging": corps.besieging}
    return Prefill("corps", str(corps.id), values)
