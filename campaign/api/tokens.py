"""Personal access tokens of the API: made and revoked in the preferences, stored hashed.

A token is shown once, on the page its making leads to (the session holds it until that
page reads it); Courier keeps only its digest (reach.token_digest) and its first
characters, which the preferences list to tell the tokens apart."""

from __future__ import annotations

import secrets

from django import forms
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import Http404
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.errors import ServiceError
from campaign.models.reach import AccessToken, token_digest

TOKENS_LIMIT = 10  # the tokens a user may hold at once
PREFIX = "courier_"
PREFIX_LENGTH = 12  # the characters of a token the preferences list
SHOWN = "api_token_made"  # the session's key of the token just made, until it is shown


class TokenForm(forms.Form):
    """The name of a new token: what its owner will know it by."""

    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=AccessToken._meta.get_field("name").max_length,
        help_text=gettext_lazy("What uses it, e.g. “my Discord bot”."),
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give the token a name."))
        return name


def new_token() -> str:
    """A random token of 256 bits, which says whose it is at a glance ("courier_…")."""
    return PREFIX + secrets.token_urlsafe(32)


@transaction.atomic
def make_token(*, user, name: str) -> tuple[AccessToken, str]:
    """A new token of ``user``'s: its row (the digest only) and the token itself, which
    nothing keeps. Refused past TOKENS_LIMIT tokens."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one at a time
    if AccessToken.objects.filter(user=user).count() >= TOKENS_LIMIT:
        raise ServiceError(
            _("You hold %(count)s tokens, the most allowed: revoke one you no longer use first.")
            % {"count": TOKENS_LIMIT}
        )
    token = new_token()
    row = AccessToken.objects.create(
        user=user, name=name, digest=token_digest(token), prefix=token[:PREFIX_LENGTH]
    )
    return row, token


def revoke_token(*, user, token_id: int) -> AccessToken:
    """Delete one of ``user``'s tokens: it works no more. Another's, or none: 404."""
    row = AccessToken.objects.filter(user=user, pk=token_id).first()
    if row is None:
        raise Http404("No such token.")
    row.delete()
    return row


def account_context(user) -> dict:
    """What the preferences page shows of the user's tokens."""
    return {
        "api_tokens": AccessToken.objects.filter(user=user).order_by("-created_at", "-pk"),
        "api_token_form": TokenForm(),
        "api_tokens_limit": TOKENS_LIMIT,
    }


def token_made(request) -> dict:
    """A context processor: the token just made (``api_token_made``), taken from the
    session only when a template reads it, so that it is shown once."""
    session = getattr(request, "session", None)
    if session is None:
        return {}
    return {"api_token_made": SimpleLazyObject(lambda: session.pop(SHOWN, ""))}
