"""Which orders concern an area: their payload names the area, or a zone it lies in, or
a piece that stands in it (the ruleset's presenter says which: ``area_refs``)."""

from __future__ import annotations

from typing import Any

from campaign import presenters
from campaign.core import sealing
from campaign.play import gm_orders
from campaign.state.storage import order_piece_fields


def names(
    payload: Any, keys: frozenset[str], ids: frozenset[int], id_fields: frozenset[str], field=""
) -> bool:
    """Whether ``payload`` holds one of ``keys`` (as a value or a field name), or one of
    ``ids`` in one of ``id_fields`` (the fields that hold pieces' ids)."""
    if isinstance(payload, dict):
        return any(k in keys or names(v, keys, ids, id_fields, k) for k, v in payload.items())
    if isinstance(payload, list):
        return any(names(item, keys, ids, id_fields, field) for item in payload)
    if isinstance(payload, bool):
        return False
    if isinstance(payload, int):
        return field in id_fields and payload in ids
    return isinstance(payload, str) and payload in keys


def concerning(state: Any, key: str) -> list[presenters.OrderRow]:
    """The open phase's orders that concern the area ``key`` and that the seat may read
    (campaign/core/sealing.py)."""
    readable = sealing.readable_orders(state.seat, state.orders)
    presenter = state.presenter
    keys, ids = (frozenset({key}), frozenset())
    if presenter is not None:
        keys, ids = presenter.area_refs(state.world, key)
    id_fields = order_piece_fields(state.campaign.ruleset)
    powers = [
        power
        for power in state.powers
        if power.pk in readable and names(readable[power.pk].payload, keys, ids, id_fields)
    ]
    said = presenters.orders_said(presenter, state.world)
    return presenters.order_rows(powers, readable, gm_orders.line_texts(state), said)
