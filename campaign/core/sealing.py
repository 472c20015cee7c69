"""Who may read which powers' orders for the open phase: the one rule that every page,
fragment, export and download follows.

A player reads their own power's orders, an observer none, the GM every power's. A GM
who also plays a power reads only that power's until its orders are marked ready: then
they are sealed (they can no longer change) and the others' are shown. A GM who stops
playing reads every order from then on: the orders they saved for the open phase are
sealed as they stand.

Sealed means sealed, whoever sits where. Once the GM has read the other powers' orders
of the open phase having played a power in it (``gm_has_read``: the GM plays a power
whose orders are sealed, or stopped playing one while the phase was open), until that
phase is resolved:

- orders the GM's account sealed stay as they are, whoever sits in that power's seat
  (``sealed_by_gm``): nobody seated there afterwards replaces them;
- nobody is seated in a power's seat that may still act in the phase (it gives orders in
  it, or the phase is under way and waits for decisions): not by the GM, not by an
  invitation link, not from the lobby (``reseat_refused``). Any account could be the
  GM's second one, so the rule asks who read the orders, never who is seated. The change
  is refused with the reason and nothing changes; emptying a seat, and observer seats,
  stay allowed;
- the GM takes no other power to order it (services._refuse_taking_a_power_mid_phase).

A GM who plays and has not sealed their own orders has read no other power's: players
may be seated meanwhile, and the orders those players give stay sealed from that GM like
everyone's (``readable_orders``). A GM who does not play is the referee: they read every
order and may seat anyone at any time, as before.

A campaign may have several GMs (campaign/people/gm_team.py); at most one of them plays a power
(services.gm_plays), and the rule holds for the whole team: while that power's orders
are not sealed, every GM of the campaign reads only that power's orders of the open
phase (a co-GM could pass the others' on), and once they are, every GM reads every
order. "The GM" above is any GM account: ``gms``, the campaign's GM seats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def played_power_id(seat: Any) -> int | None:
    """The power whose orders ``seat`` reads while the others' are sealed from it: its
    own; for a GM seat that plays none, the one a co-GM plays (``gm_team_power_id``,
    which services.seat_for loads with the seat; a seat loaded without it counts as the
    campaign's only GM)."""
    if seat.power_id is not None or not seat.is_gm:
        return seat.power_id
    return getattr(seat, "gm_team_power_id", None)


def reads_every_order(seat: Any, orders: Mapping[int, Any]) -> bool:
    """Whether ``seat`` may read every power's orders of the open phase, given those
    orders by power id: a GM's seat, while a GM plays a power only once its orders are
    sealed."""
    if not seat.is_gm:
        return False
    played = played_power_id(seat)
    return played is None or is_sealed(orders.get(played))


def readable_orders(seat: Any, orders: Mapping[int, Any]) -> dict[int, Any]:
    """The open phase's orders (by power id) that ``seat`` may read."""
    if reads_every_order(seat, orders):
        return dict(orders)
    played = played_power_id(seat)
    return {power_id: o for power_id, o in orders.items() if power_id == played}


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


def team_power_id(gms: Iterable[Any]) -> int | None:
    """The power a GM of the campaign plays (``gms``: its GM seats), or None."""
    return next((gm.power_id for gm in gms if gm.power_id is not None), None)


def gm_has_read(gms: Iterable[Any], phase: Any, orders: Mapping[int, Any]) -> bool:
    """Whether the campaign's GMs (``gms``: their seats), one of whom plays or played a
    power in ``phase`` (the open one, or None), have read the other powers' orders of
    it: a GM plays a power whose orders are sealed, or one stopped playing while it was
    open."""
    if phase is None:
        return False
    played = team_power_id(gms)
    if played is not None:
        return is_sealed(orders.get(played))
    return bool(phase.gm_stopped_playing)


def sealed_by_gm(order: Any, gms: Iterable[Any]) -> bool:
    """Whether ``order`` was sealed by a GM's account (``gms``: the campaign's GM seats)
    playing its power: it stays as it is until its phase is resolved, whoever sits in
    the seat."""
    accounts = {gm.user_id for gm in gms if gm.user_id is not None}
    return is_sealed(order) and order.submitted_by_id in accounts


def reseat_refused(
    gms: Iterable[Any], phase: Any, orders: Mapping[int, Any], *, acts_in_phase: bool
) -> bool:
    """Whether seating an account as a power is refused now: the GMs have read the open
    phase's orders, one of them having played in it, and the power may still act in
    that phase (``acts_in_phase``: it gives orders in it, or the phase waits for
    decisions)."""
    return acts_in_phase and gm_has_read(gms, phase, orders)
