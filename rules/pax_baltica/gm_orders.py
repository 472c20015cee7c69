"""Pax Baltica orders for the GM (rules/gm_orders.py): land moves of armies and regiments
and field battles (GNW-3), carried out with the block edit and the battle record. Fleet
moves are orders the actions phase resolves itself (GNW-13). Pure."""

from __future__ import annotations

from rules.gm_orders import BATTLE, MOVE, Piece, Prefill
from rules.pax_baltica.state import ARMY, KIND_NAMES, REGIMENT, TERRITORY, World
from rules.text import Text


def pieces(world: World, power_key: str) -> list[Piece]:
    """The nation's armies and regiments on land (not carried by a fleet)."""
    return [
        Piece(
            block.id,
            Text("%(block)s (%(kind)s)", block=block.name, kind=KIND_NAMES[block.kind]),
            block.location,
            tuple(
                sorted(
                    key
                    for key in world.adjacency.get(block.location, ())
                    if key in world.territories and world.territories[key].kind == TERRITORY
                )
            ),
        )
        for block in sorted(world.blocks.values(), key=lambda b: b.name)
        if block.nation == power_key
        and block.kind in (ARMY, REGIMENT)
        and block.location is not None
        and block.carried_by is None
    ]


def places(world: World) -> dict[str, str]:
    return {key: territory.name for key, territory in world.territories.items()}


def carry_out(world: World, line: dict) -> Prefill | None:
    """A move sets the block's territory; a battle opens the battle record with the block
    among those that fought (the GM adds the others and the winner)."""
    piece = line.get("piece")
    block = world.blocks.get(piece) if isinstance(piece, int) else None
    if block is None:
        return None
    if line.get("kind") == MOVE:
        return Prefill("block", str(block.id), {"location": line["area"]})
    if line.get("kind") == BATTLE:
        return Prefill("battle", "new", {"territory": line["area"], "fought": [block.id]})
    return None
