"""The lobby (campaign/people/lobby.py): campaigns looking for players, where a user asks for a
free seat or starts watching; and the GM's lobby settings and answers to requests."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from campaign.errors import ServiceError
from campaign.models import Seat
from campaign.people import lobby
from campaign.people.forms import AnswerForm, LobbyForm
from campaign.play import reliability
from campaign.play.forms import PlayerRulesForm
from campaign.query_forms import LobbyQueryForm
from campaign.views import gm, refusals
from campaign.views.access import gm_seat
from campaign.views.context import load_state

LOBBY_PAGE = "campaign/lobby.html"


@require_GET
def lobby_page(request):
    """The campaigns in the lobby; anyone may read it, a logged-in user may ask."""
    return render(request, LOBBY_PAGE, lobby_context(request))


def lobby_context(request) -> dict:
    """A page of the campaigns in the lobby (``?page=``: a number that is no page of it
    gives the first), and the reader's record when logged in."""
    page, listings = lobby.page(request.user, LobbyQueryForm(request.GET).values["page"])
    context = {"page": page, "listings": listings, "next": reverse("campaign:lobby")}
    if request.user.is_authenticated:
        context["my_record"] = reliability.of(request.user)
    return context


@login_required
@require_POST
def ask(request, campaign_id: int, power_id: int):
    """Ask for a free power's seat (or take it, where the GM lets the lobby seat players)."""
    try:
        given = lobby.ask_for_seat(campaign_id=campaign_id, power_id=power_id, user=request.user)
    except ServiceError as error:
        return refuse(request, error)
    if isinstance(given, Seat):
        messages.success(
            request,
            gettext("You play %(power)s in %(campaign)s.")
            % {"power": given.power.display_name, "campaign": given.campaign.name},
        )
        return redirect("campaign:detail", campaign_id)
    messages.success(
        request,
        gettext("You asked to play %(power)s: the GM will answer, and you will be mailed.")
        % {"power": given.power.display_name},
    )
    return redirect("campaign:lobby")


@login_required
@require_POST
def watch(request, campaign_id: int):
    """Take an observer seat of one's own."""
    try:
        seat = lobby.watch(campaign_id=campaign_id, user=request.user)
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, gettext("You watch %(campaign)s.") % {"campaign": seat.campaign.name})
    return redirect("campaign:detail", campaign_id)


def refuse(request, error: ServiceError):
    """The lobby with the reason, having changed nothing (refusals.status_of: 409 when
    the seat was taken meanwhile)."""
    return refusals.refuse(request, error, LOBBY_PAGE, lobby_context(request))


# -- the GM's side ---------------------------------------------------------------------


@login_required
@require_POST
def lobby_settings(request, campaign_id: int):
    """List the free seats in the lobby or not, how they are taken, and who may watch."""
    state = load_state(gm_seat(request.user, campaign_id))
    return gm.perform(
        request,
        state,
        LobbyForm.for_campaign(state.campaign, state.powers, request.POST),
        lambda data: lobby.set_lobby(campaign_id=campaign_id, actor=request.user, **data),
        gettext("Lobby settings saved."),
        anchor="#lobby",
    )


@login_required
@require_POST
def player_rules(request, campaign_id: int):
    """What becomes of a power whose player misses deadlines, and who may ask for a seat."""
    state = load_state(gm_seat(request.user, campaign_id))
    return gm.perform(
        request,
        state,
        PlayerRulesForm(request.POST),
        lambda data: lobby.set_player_rules(campaign_id=campaign_id, actor=request.user, **data),
        gettext("Players' rules saved."),
        anchor="#lobby",
    )


@login_required
@require_POST
def answer_request(request, campaign_id: int, request_id: int):
    """Accept or refuse a request for a seat."""
    state = load_state(gm_seat(request.user, campaign_id))
    form = AnswerForm(request.POST)

    def act(data: dict) -> str:
        asked = lobby.answer_request(
            campaign_id=campaign_id, request_id=request_id, accept=form.accepts, actor=request.user
        )
        names = {"user": asked.user.get_username(), "power": asked.power.display_name}
        if form.accepts:
            return gettext("%(user)s plays %(power)s.") % names
        return gettext("You refused %(user)s's request for %(power)s.") % names

    return gm.perform(request, state, form, act, anchor="#lobby")
