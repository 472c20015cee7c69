"""Who may read which powers' orders for the open phase: the one rule that every page,
fragment, export and download follows.

A player reads their own power's orders, an observer none, the GM every power's. A GM
who also plays a power reads only that power's until its orders are marked ready: then
they are sealed (they can no longer change) and the others' are shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def reads_every_order(seat: Any, orders: Mapping[int, Any]) -> bool:
    """Whether ``seat`` may read every power's orders of the open phase, given those
    orders by power id: the GM's seat, and a playing GM's only once theirs are sealed."""
    if not seat.is_gm:
        return False
    return seat.power_id is None or is_sealed(orders.get(seat.power_id))


def readable_orders(seat: Any, orders: Mapping[int, Any]) -> dict[int, Any]:
    """The open phase's orders (by power id) that ``seat`` may read."""
    if reads_every_order(seat, orders):
        return dict(orders)
    return {power_id: o for power_id, o in orders.items() if power_id == seat.power_id}


def is_sealed(order: Any) -> bool:
    """A playing GM's orders are sealed once marked ready."""
    return order is not None and order.ready


def withheld_powers(seat: Any, phase: Any) -> frozenset[int]:
    """The powers whose orders for ``phase`` (the open one, or None) ``seat`` may not
    read: for an export or download, which holds every power's orders (one query)."""
    if phase is None:
        return frozenset()
    orders = {order.power_id: order for order in phase.orders.all()}
    return frozenset(orders.keys() - readable_orders(seat, orders).keys())
