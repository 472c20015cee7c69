"""Which orders concern an area: their payload names the area or the struggle zone it
lies in, or a block or guerrilla stack that stands in it."""

from __future__ import annotations

from typing import Any

from campaign import gm_orders, presenters, sealing

ID_FIELDS = frozenset({"block", "blocks", "fleet", "stack", "loss_order"})


def area_refs(ruleset: str, world: Any, key: str) -> tuple[frozenset[str], frozenset[int]]:
    """The keys (the area's, its zone's) and the ids (of what stands in it) an order may
    name the area by."""
    if ruleset == "pax_baltica":
        return frozenset({key}), frozenset(
            block.id for block in world.blocks.values() if block.location == key
        )
    if ruleset == "empires_in_arms":
        return frozenset({key}), frozenset(g.id for g in world.guerrillas if g.area == key)
    if ruleset == "virgin_queen" and key in world.world.spaces:
        return frozenset({key, world.world.spaces[key].zone} - {""}), frozenset()
    return frozenset({key}), frozenset()


def names(payload: Any, keys: frozenset[str], ids: frozenset[int], field: str = "") -> bool:
    """Whether ``payload`` holds one of ``keys`` (as a value or a field name), or one of
    ``ids`` in a field of ID_FIELDS."""
    if isinstance(payload, dict):
        return any(k in keys or names(v, keys, ids, k) for k, v in payload.items())
    if isinstance(payload, list):
        return any(names(item, keys, ids, field) for item in payload)
    if isinstance(payload, bool):
        return False
    if isinstance(payload, int):
        return field in ID_FIELDS and payload in ids
    return isinstance(payload, str) and payload in keys


def concerning(state: Any, key: str) -> list[presenters.OrderRow]:
    """The open phase's orders that concern the area ``key`` and that the seat may read
    (campaign/sealing.py)."""
    readable = sealing.readable_orders(state.seat, state.orders)
    keys, ids = area_refs(state.campaign.ruleset, state.world, key)
    powers = [
        power
        for power in state.powers
        if power.pk in readable and names(readable[power.pk].payload, keys, ids)
    ]
    return presenters.order_rows(powers, readable, gm_orders.line_texts(state))
