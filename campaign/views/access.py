"""Who may do what, and the rows a URL names: the user's seat decides, never the
request. A row a URL names is found here (``get_object_or_404``, within what the user
may reach), or the page is a 404; a page that reads it among others anyway (the history
page, the campaign's phases) picks it from those."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.forms import Form
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from campaign.models import Campaign, Phase, PushSubscription, Seat
from campaign.play.services import seat_for
from campaign.selectors import mail


def player_seat(user, campaign_id: int) -> Seat:
    """The user's seat as a power's player; 404 without a seat, 403 without a power."""
    seat = seat_for(user, campaign_id)
    if seat.power_id is None:
        raise PermissionDenied(gettext("Only a power's player gives orders in this campaign."))
    return seat


def gm_seat(user, campaign_id: int) -> Seat:
    """The user's GM seat; 404 without a seat, 403 for players and observers."""
    seat = seat_for(user, campaign_id)
    if not seat.is_gm:
        raise PermissionDenied(gettext("Only the game master of this campaign may do this."))
    return seat


def found(rows, absent: str, **keys):
    """The row of ``rows`` (a model or a queryset) that ``keys`` name; 404 saying
    ``absent`` when there is none."""
    try:
        return get_object_or_404(rows, **keys)
    except Http404:
        raise Http404(absent) from None


def campaign_seat(campaign_id: int, seat_id: int) -> Seat:
    """A seat of the campaign."""
    return found(Seat, "No such seat.", campaign_id=campaign_id, pk=seat_id)


def campaign_phase(campaign_id: int, phase_id: int) -> Phase:
    """A phase of the campaign."""
    return found(Phase, "No such phase in this campaign.", pk=phase_id, campaign_id=campaign_id)


def mailing_campaign(user, campaign_id: int) -> Campaign:
    """A campaign that mails the user: one they hold a seat in or asked a seat of."""
    rows = mail.mailing_campaigns(user)
    return found(rows, "You have no seat in this campaign.", pk=campaign_id)


def active_person(username: str):
    """The active user of that name."""
    if "\x00" in username:  # no user has it, and PostgreSQL refuses it in a query
        raise Http404("No such user.")
    return get_object_or_404(get_user_model(), username=username, is_active=True)


def own_device(user, device_id: int) -> PushSubscription:
    """One of the user's devices that receive notices."""
    return get_object_or_404(PushSubscription, pk=device_id, user=user)


def unsubscribing(user_id: int, campaign_id: int) -> tuple[Any, Campaign]:
    """The user and the campaign a signed unsubscribe link names."""
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    return get_object_or_404(get_user_model(), pk=user_id), campaign


def error_text(form: Form) -> str:
    """A form's errors as one sentence per error, for a message."""
    lines = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        for error in errors:
            lines.append(
                gettext("%(label)s: %(error)s") % {"label": label, "error": error}
                if label
                else str(error)
            )
    return " ".join(lines)
