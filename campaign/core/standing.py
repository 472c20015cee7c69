"""Standing orders: in a phase whose orders are standing instructions (PhaseSpec.standing,
e.g. a recruitment plan followed draw by draw), a power's last orders of that phase stand
in the later phases of the same kind until it gives new ones. Its order form is filled in
with them, and a power that gives none by the resolution has them copied into the phase
as its orders (so that the phase's saved orders are all that it resolved with, as a replay
reads them), which the log says."""

from __future__ import annotations

from campaign.models import Campaign, Order, Phase
from rules.gm_orders import without_lines


def last_orders(campaign: Campaign, phase: Phase, power_ids=None) -> dict[int, Order]:
    """Each power's (of ``power_ids``, else every power's) latest orders in an earlier
    phase of the same kind as ``phase``, if the phase's orders stand (one query; none
    otherwise), by power id."""
    if not campaign.rules.phase(phase.key).standing:
        return {}
    earlier = Order.objects.filter(
        campaign=campaign, phase__key=phase.key, phase__status=Phase.Status.RESOLVED
    ).exclude(phase=phase)
    if power_ids is not None:
        earlier = earlier.filter(power_id__in=power_ids)
    found: dict[int, Order] = {}
    latest_first = earlier.select_related("phase", "power").order_by(
        "-phase__turn", "-phase__position"
    )
    for order in latest_first:
        found.setdefault(order.power_id, order)
    return found


def standing_payload(order: Order) -> dict:
    """What of an earlier order stands: its orders for the rules, not its lines for the
    GM (which were for that phase)."""
    return without_lines(order.payload)


def carry_over(campaign: Campaign, phase: Phase, given: set[int]) -> list[Order]:
    """The powers that gave no orders in ``phase`` (``given``: the ids of those that did)
    and have standing ones: their standing orders saved as their orders of this phase,
    ready, submitted by nobody. Returns the new orders (their ``origin``: the order they
    come from)."""
    standing = last_orders(campaign, phase)
    created = []
    for power_id, origin in standing.items():
        if power_id in given:
            continue
        order = Order.objects.create(
            campaign=campaign,
            phase=phase,
            power=origin.power,
            payload=standing_payload(origin),
            ready=True,
        )
        order.origin = origin
        created.append(order)
    return created
