"""A power's order form as a mail shows it and an answer by mail fills it in: the same
form as the page's, built from the same World, prefilled from the saved draft, else from
the standing orders, and reading the allies' saved orders where they share a budget."""

from __future__ import annotations

from typing import Any

from campaign.core import standing
from campaign.models import Campaign, Order, Phase, Power
from rules.gm_orders import KEY as GM_LINES


def order_form(campaign: Campaign, phase: Phase, power: Power, world: Any, data=None):
    """The power's order form for the phase (bound to ``data`` when given)."""
    form_class = campaign.rules.hooks.phase(phase.key).order_form
    orders = {order.power_id: order for order in Order.objects.filter(phase=phase)}
    saved = orders.get(power.pk)
    if saved is None:
        saved = standing.last_orders(campaign, phase, [power.pk]).get(power.pk)
    shared = {}
    if form_class.reads_saved_orders:
        keys = dict(Power.objects.filter(campaign=campaign).values_list("pk", "key"))
        shared["saved_orders"] = {
            keys[pk]: order.payload for pk, order in orders.items() if pk != power.pk
        }
    return form_class(
        data,
        world=world,
        power_key=power.key,
        initial_payload=saved.payload if saved else None,
        **shared,
    )


def payload_with_lines_kept(phase: Phase, power: Power, payload: dict) -> dict:
    """An answer by mail gives the orders for the rules; the lines for the GM that the
    power saved on the page stay as they were."""
    saved = Order.objects.filter(phase=phase, power=power).values_list("payload", flat=True)
    kept = (saved.first() or {}).get(GM_LINES)
    return {**payload, GM_LINES: kept} if kept else payload
