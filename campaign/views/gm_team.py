"""The GM team (campaign/people/gm_team.py): the dashboard's GMs section (make a user a GM, open
a GM seat, remove one or leave, offer the campaign to a user or withdraw the offer), the
GM seat's invitation link, the handover link mailed to the user offered the campaign, and
a player's request to the site's admins for a new GM.

The dashboard's controls go through campaign.views.gm.perform and answer in place
(``#gms``). A GM who leaves goes to their campaigns' list: the dashboard is no longer
theirs.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.errors import ServiceError
from campaign.people import gm_team
from campaign.people.gm_team_forms import GmUserForm, HandoverAnswerForm
from campaign.play.services import claim_seat
from campaign.selectors.seats import offer_as_now
from campaign.views import gm, refusals
from campaign.views.access import gm_seat, player_seat
from campaign.views.context import load_state, page_context
from campaign.views.seats import INVITE_TOKEN

ANCHOR = "#gms"
JOIN_PAGE = "campaign/gm_join.html"
HANDOVER_PAGE = "campaign/handover.html"


# -- the dashboard's GMs section ---------------------------------------------------------


@login_required
@require_POST
def add(request, campaign_id: int):
    """Make a user (by user name) a GM of the campaign."""
    state = load_state(gm_seat(request.user, campaign_id))

    def act(data: dict) -> str:
        gm_team.add_gm(campaign_id=campaign_id, user=data["username"], actor=request.user)
        return gettext("%(user)s is a GM of the campaign.") % {
            "user": data["username"].get_username()
        }

    return gm.perform(request, state, GmUserForm(request.POST), act, anchor=ANCHOR)


@login_required
@require_POST
def open_seat(request, campaign_id: int):
    """Open a GM seat; its invitation link appears in the GMs section."""
    state = load_state(gm_seat(request.user, campaign_id))
    return gm.perform(
        request,
        state,
        None,
        lambda _: gm_team.open_gm_seat(campaign_id=campaign_id, actor=request.user),
        gettext("GM seat opened: send its invitation link."),
        anchor=ANCHOR,
    )


@login_required
@require_POST
def remove(request, campaign_id: int, seat_id: int):
    """Remove a co-GM, close an open GM seat, or (one's own seat) leave the GMs."""
    state = load_state(gm_seat(request.user, campaign_id))

    def act(_: dict) -> object:
        return gm_team.remove_gm(campaign_id=campaign_id, seat_id=seat_id, actor=request.user)

    if seat_id != state.seat.pk:
        return gm.perform(request, state, None, act, gettext("GM seat removed."), anchor=ANCHOR)
    try:
        gm.act(request, state, None, act)
    except ServiceError as error:
        shown = gm.shown_after(request, state, error)
        if request.htmx:
            return gm.answer_in_place(request, state, shown, ANCHOR, error)
        return gm.refuse(request, error, shown)
    messages.success(
        request,
        gettext("You are no longer a GM of %(campaign)s.") % {"campaign": state.campaign.name},
    )
    if request.htmx:
        return HttpResponseClientRedirect(reverse("campaign:list"))
    return redirect("campaign:list")


@login_required
@require_POST
def offer(request, campaign_id: int):
    """Offer the campaign (one's GM seat) to a user, by user name."""
    state = load_state(gm_seat(request.user, campaign_id))

    def act(data: dict) -> str:
        gm_team.offer_handover(campaign_id=campaign_id, user=data["username"], actor=request.user)
        return gettext(
            "The campaign is offered to %(user)s, who is mailed a link to accept or decline it."
        ) % {"user": data["username"].get_username()}

    return gm.perform(request, state, GmUserForm(request.POST), act, anchor=ANCHOR)


@login_required
@require_POST
def withdraw(request, campaign_id: int):
    """Withdraw the offer of the campaign waiting for an answer."""
    state = load_state(gm_seat(request.user, campaign_id))
    return gm.perform(
        request,
        state,
        None,
        lambda _: gm_team.withdraw_handover(campaign_id=campaign_id, actor=request.user),
        gettext("Offer withdrawn: its link no longer does anything."),
        anchor=ANCHOR,
    )


# -- the links -----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def join(request, campaign_id: int, token: str):
    """Show the GM seat an invitation link offers; POST takes it."""
    valid = INVITE_TOKEN.fullmatch(token)  # never issued otherwise; a NUL byte is an error
    seat = gm_team.offered_seat(campaign_id, token) if valid else None
    if seat is None:
        return render(request, JOIN_PAGE, {}, status=404)
    context = {"seat": seat, "token": token}
    if request.method == "GET":
        return render(request, JOIN_PAGE, context)
    try:
        claim_seat(token=token, user=request.user)
    except ServiceError as error:
        return refusals.refuse(request, error, JOIN_PAGE, context)
    messages.success(
        request,
        gettext("You are a GM of %(campaign)s.") % {"campaign": seat.campaign.name},
    )
    return redirect("campaign:gm", campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def handover(request, token: str):
    """The offer of a campaign, to the user it is made to: GET shows it, POST answers it."""
    valid = INVITE_TOKEN.fullmatch(token)
    offered = gm_team.offer_for(token, request.user) if valid else None
    if offered is None:
        return render(request, HANDOVER_PAGE, {}, status=404)
    form = HandoverAnswerForm(request.POST if request.method == "POST" else None)
    context = {"offer": offered, "token": token, "form": form}
    if request.method == "GET":
        return render(request, HANDOVER_PAGE, context)
    if not form.is_valid():
        return render(request, HANDOVER_PAGE, context, status=422)
    try:
        gm_team.answer_handover(token=token, user=request.user, accept=form.accepts)
    except ServiceError as error:
        context["offer"] = offer_as_now(offered)
        return refusals.refuse(request, error, HANDOVER_PAGE, context)
    names = {"campaign": offered.campaign.name}
    if form.accepts:
        messages.success(request, gettext("You run %(campaign)s now.") % names)
        return redirect("campaign:gm", offered.campaign_id)
    messages.success(request, gettext("You declined %(campaign)s.") % names)
    return redirect("campaign:list")


# -- a player's request -----------------------------------------------------------------


@login_required
@require_POST
def ask_for_new_gm(request, campaign_id: int):
    """A player asks the site's admins for a new GM, while the GMs are quiet."""
    seat = player_seat(request.user, campaign_id)
    try:
        gm_team.ask_for_new_gm(campaign_id=campaign_id, user=request.user)
    except ServiceError as error:
        context = page_context(load_state(seat))
        return refusals.refuse(request, error, "campaign/detail.html", context)
    messages.success(request, gettext("The site's admins are asked for a new GM."))
    return redirect("campaign:detail", campaign_id)
