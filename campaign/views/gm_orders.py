"""The GM and the orders for the GM (campaign/gm_orders.py): the edit form prefilled from
an order, marking an order carried out by hand, and whether the log reveals them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from campaign import gm_orders
from campaign.errors import Conflict
from campaign.gm_order_forms import CarryOutForm, RevealForm
from campaign.views.access import gm_seat
from campaign.views.context import load_state
from campaign.views.edit_panels import edit_forms
from campaign.views.gm import GM_PAGE, dashboard_context, perform
from rules.forms import row_item


@login_required
@require_GET
def carry_out(request, campaign_id: int, order_id: int, line: int):
    """The dashboard with the edit form that carries out line ``line`` of an order open,
    prefilled from it; ``?digest=``: the line as the GM's page showed it."""
    state = load_state(gm_seat(request.user, campaign_id))
    try:
        task = gm_orders.find(state.seat, order_id, line, request.GET.get("digest", ""))
        form = gm_orders.prefilled(state, task, edit_forms(state))
    except Conflict as error:
        messages.error(request, str(error))
        return render(request, GM_PAGE, dashboard_context(request, state), status=409)
    opened = (form.edit_key, row_item(form))
    context = dashboard_context(request, state, opened=opened, prefilled=form)
    return render(request, GM_PAGE, context)


@login_required
@require_POST
def done(request, campaign_id: int):
    """The GM carried out an order for the GM by hand (no edit does it)."""
    state = load_state(gm_seat(request.user, campaign_id))
    return perform(
        request,
        state,
        CarryOutForm(request.POST),
        lambda data: gm_orders.mark_done(
            seat=state.seat,
            order_id=data["carry_order"],
            number=data["carry_line"],
            digest=data["carry_digest"],
            actor=request.user,
        ),
        anchor="#gm-orders",
    )


@login_required
@require_POST
def reveal(request, campaign_id: int):
    """Whether the log shows the orders for the GM once each phase is over."""
    state = load_state(gm_seat(request.user, campaign_id))
    return perform(
        request,
        state,
        RevealForm(request.POST),
        lambda data: gm_orders.set_reveal(
            campaign_id=campaign_id, reveal=data["reveal"], actor=request.user
        ),
        anchor="#gm-orders",
    )
