"""Deadline extensions (campaign/play/extensions.py): a power's player takes one from the
campaign page; the GM sets the rules on the dashboard, which shows each power's budget.

Taken, the extension sends the player back to the campaign page, which shows the new
deadline (HTMX: the page is loaded again). Refused, the page (HTMX: the extension's
part) says why, with the deadline as it now is: 409 when the campaign moved on meanwhile
(the deadline moved, the phase closed), else 422; nothing changed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.errors import ServiceError
from campaign.notify import outgoing
from campaign.play import extensions
from campaign.play.extension_forms import ExtensionRulesForm, TakeExtensionForm
from campaign.views import gm, refusals
from campaign.views.access import error_text, gm_seat, player_seat
from campaign.views.context import load_state, page_context

PLAYER_PART = "campaign/extensions.html#player"


@login_required
@require_POST
def take_extension(request, campaign_id: int):
    """The player's power takes one extension of the open phase's deadline."""
    seat = player_seat(request.user, campaign_id)
    form = TakeExtensionForm(request.POST)
    try:
        if not form.is_valid():
            raise ServiceError(error_text(form))
        taken = extensions.take_extension(
            seat=seat,
            phase_id=form.cleaned_data["phase"],
            seen_deadline=form.cleaned_data["seen_deadline"],
            actor=request.user,
        )
    except ServiceError as error:
        return refuse(request, campaign_id, error)
    messages.success(
        request,
        gettext("You extended the deadline by %(hours)s h: it is now %(deadline)s.")
        % {"hours": taken.hours, "deadline": outgoing.moment(taken.phase.deadline)},
    )
    if request.htmx:
        return HttpResponseClientRedirect(reverse("campaign:detail", args=[campaign_id]))
    return redirect("campaign:detail", campaign_id)


def refuse(request, campaign_id: int, error: ServiceError):
    """The reason, with the campaign as it now is, having changed nothing."""
    seat = player_seat(request.user, campaign_id)
    if request.htmx:
        context = {
            "campaign": seat.campaign,
            "extension": extensions.offer(seat),
            "extension_notice": str(error),
        }
        return render(request, PLAYER_PART, context, status=refusals.status_of(error))
    context = page_context(load_state(seat))
    return refusals.refuse(request, error, "campaign/detail.html", context)


@login_required
@require_POST
def extension_rules(request, campaign_id: int):
    """The number of extensions per power and year, their hours, the cap on one phase."""
    state = load_state(gm_seat(request.user, campaign_id))
    return gm.perform(
        request,
        state,
        ExtensionRulesForm.for_campaign(state.campaign, request.POST),
        lambda data: extensions.set_extension_rules(
            campaign_id=campaign_id, actor=request.user, **data
        ),
        gettext("Extension rules saved."),
        anchor="#extensions",
    )
