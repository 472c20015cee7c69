"""A player's orders for the open phase, and the standing order.

With HTMX an orders response swaps only the orders panel and, out of band, the
submissions panel (a standing-order response only its own panel); without HTMX the
whole campaign page is rendered, or on success redirected to. Refusals carry a status:
422 for a form error, 409 for a phase that has closed, 400 for a malformed request, and
a service's refusal its own (campaign/views/refusals.py).
"""

from __future__ import annotations

from contextlib import nullcontext

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap

from campaign import presenters
from campaign.core.changes import locked_campaign
from campaign.errors import PhaseClosed, ServiceError
from campaign.play import gm_orders
from campaign.play.envelope_forms import OrderEnvelopeForm
from campaign.play.services import decide, seat_for, submit_orders
from campaign.views.access import player_seat
from campaign.views.context import (
    CampaignState,
    load_state,
    orders_context,
    page_context,
    with_order,
    with_saved_orders,
)
from campaign.views.refusals import status_of

ERROR = "error"
SUCCESS = "success"
ORDERS_PARTIAL = "campaign/detail.html#order_update"
ORDER_SAVED_PARTIAL = "campaign/detail.html#order_saved"
DECISION_PARTIAL = "campaign/detail.html#decision"
STANDING_PARTIAL = "campaign/detail.html#standing"


@login_required
@require_POST
def orders(request, campaign_id: int):
    """Save the seat's orders for the open phase, as a draft or ready."""
    state = load_state(player_seat(request.user, campaign_id))
    envelope = OrderEnvelopeForm(request.POST)
    if not envelope.is_valid():
        return refuse(request, state, gettext("The form is incomplete: reload the page."), 400)
    phase_id = envelope.cleaned_data["phase"]
    if not state.takes_orders or phase_id != str(state.phase.pk):
        return refuse(request, state, closed_reason(state, phase_id), 409)
    shared = shares_a_budget(state)
    with transaction.atomic() if shared else nullcontext():
        if shared:  # allies saving at once take turns, each reading what the other saved
            locked_campaign(campaign_id)
            state = with_saved_orders(state)
        form = state.order_form(envelope.order_data())
        gm_form = state.gm_form(request.POST)
        if not all([form.is_valid(), gm_form.is_valid()]):
            notice = gettext("Your orders were not saved.")
            return refuse(request, state, notice, 422, order_form=form, gm_form=gm_form)
        ready = envelope.cleaned_data["ready"]
        try:
            order = submit_orders(
                seat=state.seat,
                phase_id=state.phase.pk,
                payload={**form.payload(), **gm_form.payload()},
                ready=ready,
                actor=request.user,
            )
        except PhaseClosed as error:  # resolved meanwhile: show the phase that is open now
            state = load_state(player_seat(request.user, campaign_id))
            return refuse(request, state, str(error), status_of(error))
        except ServiceError as error:
            status = status_of(error)
            return refuse(request, state, str(error), status, order_form=form, gm_form=gm_form)
    notice = (
        gettext("Orders saved and marked ready.") if ready else gettext("Orders saved as a draft.")
    )
    return saved(request, with_order(state, order), notice, form)


def shares_a_budget(state: CampaignState) -> bool:
    """The open phase's order form reads the other powers' saved orders, whose budget its
    orders share (BaseOrderForm.reads_saved_orders): they are read under the campaign's
    lock, so that two allies saving at once cannot both spend what is left."""
    return state.rules.hooks.phase(state.spec.key).order_form.reads_saved_orders


@login_required
@require_POST
def standing_order(request, campaign_id: int):
    """The seat's standing order (EIA-4: pay $d6 on a bad roll)."""
    state = load_state(player_seat(request.user, campaign_id))
    form = state.standing_form(request.POST)
    if form is None:
        raise Http404("This game has no standing orders.")
    if not form.is_valid():
        reason = gettext("Your standing order was not changed.")
        return refuse(request, state, reason, 422, STANDING_PARTIAL, standing_form=form)
    try:
        form.save(seat=state.seat, actor=request.user)
    except ServiceError as error:
        status = status_of(error)
        return refuse(request, state, str(error), status, STANDING_PARTIAL, standing_form=form)
    return done(request, load_state(state.seat), gettext("Standing order saved."), STANDING_PARTIAL)


@login_required
@require_POST
def decision(request, campaign_id: int):
    """Answer the decision the open phase waits for: the power it waits for, or the GM
    on its behalf. The page is then reloaded (the answer may change the whole map)."""
    state = load_state(seat_for(request.user, campaign_id))
    envelope = OrderEnvelopeForm(request.POST)
    form = state.decision_form(envelope.order_data())
    if form is None or str(state.phase.pk) != envelope.values["phase"]:
        reason = gettext("That decision is no longer asked.")
        return refuse(request, state, reason, 409, DECISION_PARTIAL)
    if not form.answerable:
        reason = gettext("The decision is %(power)s's to make.") % {"power": form.waiting_for}
        return refuse(request, state, reason, 403, DECISION_PARTIAL, decision_form=form)
    if not form.is_valid():
        reason = gettext("Your decision was not accepted.")
        return refuse(request, state, reason, 422, DECISION_PARTIAL, decision_form=form)
    try:
        decide(
            seat=state.seat,
            phase_id=state.phase.pk,
            answer=form.answer(),
            actor=request.user,
            version=envelope.values["version"],
        )
    except PhaseClosed as error:
        return refuse(request, state, str(error), status_of(error), DECISION_PARTIAL)
    except ServiceError as error:
        reason = gettext("Your decision was not accepted: %(error)s") % {"error": error}
        status = status_of(error)
        return refuse(request, state, reason, status, DECISION_PARTIAL, decision_form=form)
    page = "campaign:gm" if state.seat.is_gm else "campaign:detail"
    messages.success(request, gettext("Decision made."))
    if request.htmx:
        return HttpResponseClientRedirect(reverse(page, args=[campaign_id]))
    return redirect(page, campaign_id)


def closed_reason(state: CampaignState, phase_id: str) -> str:
    """Why the orders were not saved: the phase moved on, or is not this power's."""
    spec, phase = state.spec, state.phase
    others = (
        spec is not None
        and phase_id == str(phase.pk)
        and phase.status == phase.Status.OPEN
        and spec.takes_orders
        and not spec.takes_orders_from(state.seat.power.key)
    )
    if others:
        power = state.seat.power.display_name
        return gettext("%(phase)s is not %(power)s's to order: your orders were not saved.") % {
            "phase": spec.name,
            "power": power,
        }
    return gettext("This phase is closed: your orders were not saved.")


def saved(request, state: CampaignState, notice: str, form):
    """Orders saved. With HTMX only the notice, the order's status, the budget (what the
    allies' saved orders spend of a shared one may have changed since the page was
    loaded), the lines saved for the GM and the submissions panel change: the form stays
    as the player left it, which is what was saved. ``form``: the order form that took
    the orders, whose budget is the saved one's (it read the allies' saved orders under
    the lock its save held)."""
    if not request.htmx:
        return done(request, state, notice)
    context = {
        "campaign": state.campaign,
        "spec": state.spec,
        "order": state.my_order,
        "order_form": form,
        "readiness": presenters.readiness(state.powers, state.orders, state.spec, state.phase),
        "my_gm_orders": gm_orders.own(state),
        "notice": notice,
        "notice_level": SUCCESS,
    }
    return reswap(render(request, ORDER_SAVED_PARTIAL, context), "none")


def done(request, state: CampaignState, notice: str, partial: str = ORDERS_PARTIAL):
    if request.htmx:
        context = {**orders_context(state), "notice": notice, "notice_level": SUCCESS}
        return render(request, partial, context)
    messages.success(request, notice)
    return redirect("campaign:detail", state.campaign.pk)


def refuse(request, state, notice: str, status: int, partial: str = ORDERS_PARTIAL, **forms):
    """Show why nothing was saved, with the bound form's errors if any."""
    if request.htmx:
        context = {**orders_context(state, **forms), "notice": notice, "notice_level": ERROR}
        return render(request, partial, context, status=status)
    messages.error(request, notice)
    return render(request, "campaign/detail.html", page_context(state, **forms), status=status)
