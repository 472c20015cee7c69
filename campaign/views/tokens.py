"""The personal access tokens of the API in the preferences: make one (shown once), revoke
one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaign.api import tokens
from campaign.errors import ServiceError
from campaign.views import refusals
from campaign.views.access import error_text

SECTION = "#api-tokens"


def _back():
    return redirect(reverse("campaign:preferences") + SECTION)


@login_required
@require_POST
def token_make(request):
    """A new token with the name given: the page it leads to shows it, once."""
    form = tokens.TokenForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, gettext("No token was made. %(errors)s") % {"errors": error_text(form)}
        )
        return _back()
    try:
        row, token = tokens.make_token(user=request.user, name=form.cleaned_data["name"])
    except ServiceError as error:
        return refusals.back(request, error, _back())
    request.session[tokens.SHOWN] = token
    messages.success(request, gettext("Token “%(name)s” made.") % {"name": row.name})
    return _back()


@login_required
@require_POST
def token_revoke(request, token_id: int):
    """Revoke one of the user's tokens: it works no more (another user's: 404)."""
    row = tokens.revoke_token(user=request.user, token_id=token_id)
    messages.success(request, gettext("Token “%(name)s” revoked.") % {"name": row.name})
    return _back()
