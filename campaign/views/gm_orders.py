"""The GM and the orders for the GM (campaign/play/gm_orders.py): carrying an order out in one
step, or through the edit form prefilled from it, marking an order carried out by hand,
and whether the log reveals them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.errors import Conflict, ServiceError
from campaign.play import gm_orders
from campaign.play.gm_order_forms import CarryOutForm, RevealForm
from campaign.query_forms import DigestForm
from campaign.views import refusals
from campaign.views.access import gm_seat
from campaign.views.context import load_state
from campaign.views.edit_panels import edit_forms
from campaign.views.gm import GM_PAGE, act, dashboard_context, perform, refuse, shown_after
from rules.forms import row_item


@login_required
@require_http_methods(["GET", "POST"])
def carry_out(request, campaign_id: int, order_id: int, line: int):
    """GET: the dashboard with the edit form that carries out line ``line`` of an order
    open, prefilled from it, for the GM to change before saving; ``?digest=``: the line
    as the GM's page showed it. POST (``digest`` and the state version posted): carry
    it out at once, as the order says (campaign.play.gm_orders.carry_out)."""
    if request.method == "POST":
        return carry_out_now(request, campaign_id, order_id, line)
    state = load_state(gm_seat(request.user, campaign_id))
    try:
        digest = DigestForm(request.GET).values["digest"]
        task = gm_orders.find(state.seat, order_id, line, digest)
        form = gm_orders.prefilled(state, task, edit_forms(state))
    except Conflict as error:
        return refusals.refuse(request, error, GM_PAGE, dashboard_context(request, state))
    opened = (form.edit_key, row_item(form))
    context = dashboard_context(request, state, opened=opened, prefilled=form)
    return render(request, GM_PAGE, context)


def carry_out_now(request, campaign_id: int, order_id: int, line: int):
    """Carry the line out in one step; back to the dashboard saying what the edit did
    (the whole page: the edit may change the map and any panel). An order that does not
    say all its edit needs opens the prefilled form instead, saying so; a refusal shows
    the dashboard with the reason, having changed nothing."""
    state = load_state(gm_seat(request.user, campaign_id))
    digest = DigestForm(request.POST).values["digest"]
    try:
        said = act(
            request,
            state,
            None,
            lambda _: gm_orders.carry_out(
                state,
                order_id=order_id,
                number=line,
                digest=digest,
                edit_forms=edit_forms(state),
                actor=request.user,
            ),
        )
    except gm_orders.NeedsEditing as error:
        messages.error(request, str(error))
        url = reverse("campaign:carry_out", args=[campaign_id, order_id, line])
        return _back(request, f"{url}?{urlencode({'digest': digest})}")
    except ServiceError as error:
        if request.htmx:
            messages.error(request, str(error))
            return HttpResponseClientRedirect(reverse("campaign:gm", args=[campaign_id]))
        return refuse(request, error, shown_after(request, state, error))
    messages.success(request, said)
    return _back(request, reverse("campaign:gm", args=[campaign_id]) + "#gm-orders")


def _back(request, url: str):
    """To ``url``: the whole page, also for an HTMX request."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


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
