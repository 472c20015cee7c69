"""Virgin Queen orders for the GM (rules/gm_orders.py): unit moves (a land stack to an
adjacent space, a naval stack to a port on one of its sea zones), battles and cards
played at the table; a move is carried out with the units move edit. ``world``: the
services' Loaded (the World and the procedure under way). Pure."""

from __future__ import annotations

from rules.gm_orders import MOVE, Piece, Prefill
from rules.text import Plural
from rules.virgin_queen.edits import KINDS
from rules.virgin_queen.state import NAVAL, World


def pieces(loaded, power_key: str) -> list[Piece]:
    """The power's unit stacks on the map."""
    world = loaded.world
    return [
        Piece(
            units.id,
            Plural(
                "%(count)s %(kind)s unit in %(space)s",
                "%(count)s %(kind)s units in %(space)s",
                count=units.count,
                kind=KINDS[units.kind],
                space=world.spaces[units.space].name,
            ),
            units.space,
            reach(world, units.space, units.kind),
        )
        for units in sorted(world.units.values(), key=lambda u: (u.space, u.kind))
        if units.id is not None and units.power == power_key and units.count > 0
    ]


def reach(world: World, space: str, kind: str) -> tuple[str, ...]:
    """Adjacent spaces by land or pass; for naval units, the ports on their sea zones."""
    if kind != NAVAL:
        return tuple(sorted(world.adjacency.get(space, ())))
    zones = world.sea_zones.get(space, set())
    return tuple(sorted(p for p, z in world.sea_zones.items() if z & zones and p != space))


def places(loaded) -> dict[str, str]:
    return {key: space.name for key, space in loaded.world.spaces.items()}


def carry_out(loaded, line: dict) -> Prefill | None:
    """A move: the whole stack to its new space."""
    units = loaded.world.units.get(line.get("piece"))
    if units is None or line.get("kind") != MOVE:
        return None
    return Prefill(
        "units_move", "new", {"stack": units.id, "to": line["area"], "count": units.count}
    )
