"""A player's away periods: marked on the campaign page, refused by the GM.

While its player is away a power owes no orders: the phases do not wait for it and it
gets its default orders and answers (campaign/play/scheduling.py). A refused period ends at
once and the player's page says so.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaign.errors import ServiceError
from campaign.play import scheduling
from campaign.play.envelope_forms import ActionForm
from campaign.play.forms import AwayForm
from campaign.views import gm, refusals
from campaign.views.access import campaign_seat, gm_seat, player_seat
from campaign.views.context import away_panel, load_state, page_context

BACK = "back"  # the posted action that ends the player's period


@login_required
@require_POST
def mark_away(request, campaign_id: int):
    """Mark the player away for a period, or (``action`` BACK) end the period."""
    seat = player_seat(request.user, campaign_id)
    form = AwayForm(request.POST)
    try:
        if ActionForm(request.POST, actions=(BACK,)).values["action"] == BACK:
            scheduling.end_away(seat_id=seat.pk, actor=request.user)
            messages.success(request, gettext("Welcome back: your power owes orders again."))
            return redirect("campaign:detail", campaign_id)
        if form.is_valid():
            scheduling.set_away(
                seat_id=seat.pk,
                start=form.cleaned_data["start"],
                end=form.cleaned_data["end"],
                actor=request.user,
            )
            messages.success(request, gettext("Away period saved."))
            return redirect("campaign:detail", campaign_id)
    except ServiceError as error:
        return refuse(request, campaign_id, form, refusals.into_form(form, error))
    return refuse(request, campaign_id, form)


def refuse(request, campaign_id: int, form: AwayForm, status: int = refusals.REFUSED):
    """The campaign page with the form's errors, having changed nothing."""
    seat = player_seat(request.user, campaign_id)
    messages.error(request, gettext("Your away period was not saved."))
    context = {**page_context(load_state(seat)), "away": away_panel(seat, form)}
    return render(request, "campaign/detail.html", context, status=status)


@login_required
@require_POST
def refuse_away(request, campaign_id: int, seat_id: int):
    """The GM refuses a player's away period, which ends it."""
    state = load_state(gm_seat(request.user, campaign_id))
    campaign_seat(campaign_id, seat_id)
    return gm.perform(
        request,
        state,
        None,
        lambda _: scheduling.refuse_away(
            campaign_id=campaign_id, seat_id=seat_id, actor=request.user
        ),
        gettext("Away period refused: the power owes orders again."),
        anchor="#seats",
    )
