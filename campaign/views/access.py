"""Who may do what: the user's seat decides, never the request."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.forms import Form
from django.utils.translation import gettext

from campaign.models import Seat
from campaign.services import seat_for


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
