"""How a page says no. A service refuses by raising a ServiceError (campaign/errors.py),
having changed nothing; every view answers it alike: with its message, as an error
message or a notice (``refuse``), among the errors of the form that was sent
(``into_form``) or, from a section of the preferences, back to it (``back``), and with the
status its class gives (``status_of``)."""

from __future__ import annotations

from django.contrib import messages
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import render

from campaign.errors import Conflict, ServiceError
from campaign.people.account_mail import ConfirmationRefused
from campaign.press.press import PressFlood, PressForbidden

REFUSED = 422
STATUSES = (
    (Conflict, 409),
    (PressForbidden, 403),
    (PressFlood, 429),
    (ConfirmationRefused, 410),
)


def status_of(error: ServiceError) -> int:
    """The HTTP status that says why ``error`` refused: 409 when the campaign moved on
    meanwhile, 403 for press the seat may not write, 429 for press sent too fast, 410 for
    a mailed link that confirms nothing (any more), else 422."""
    return next((status for kind, status in STATUSES if isinstance(error, kind)), REFUSED)


def refuse(request, error: ServiceError, template: str, context: dict) -> HttpResponse:
    """``template`` with ``context``, saying why ``error`` refused, at its status."""
    messages.error(request, str(error))
    return render(request, template, context, status=status_of(error))


def into_form(form: Form, error: ServiceError) -> int:
    """``error``'s reason among the errors of ``form``, to show it again; its status."""
    form.add_error(None, str(error))
    return status_of(error)


def back(request, error: ServiceError, response: HttpResponse) -> HttpResponse:
    """``response``, a redirect back to the page the request was sent from, which says
    why ``error`` refused."""
    messages.error(request, str(error))
    return response
