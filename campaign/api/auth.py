"""Who an API request is: the bearer of a personal access token, looked up by its digest
(an active user's only), and how often each token may ask."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone, translation
from ninja.security import HttpBearer
from ninja.throttling import BaseThrottle

from campaign.models import Profile
from campaign.models.reach import AccessToken, token_digest
from courier.throttling import counted

WINDOW = 60  # seconds: API_RATE_LIMIT is a minute's
TOUCH_EVERY = timedelta(minutes=1)  # a token's last use is written at most this often


class TokenBearer(HttpBearer):
    """``Authorization: Bearer <token>``: the token's row, its user loaded (request.auth);
    None (401) for a token unknown, revoked or of an inactive user. The answer is in the
    language the user chose in their preferences, else the one the client asks for."""

    def authenticate(self, request, token: str) -> AccessToken | None:
        found = (
            AccessToken.objects.select_related("user", "user__profile")
            .filter(digest=token_digest(token), user__is_active=True)
            .first()
        )
        if found is not None:
            touch(found)
            speak_chosen_language(request, found.user)
        return found


def speak_chosen_language(request, user) -> None:
    """The user's chosen language for this request (campaign.middleware's, by the token)."""
    try:
        code = user.profile.language
    except Profile.DoesNotExist:
        return
    if code and translation.check_for_language(code):
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()


def touch(token: AccessToken) -> None:
    """Note that the token is used now, once a minute at most."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_EVERY:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


class TokenThrottle(BaseThrottle):
    """settings.API_RATE_LIMIT requests a minute per user, whichever of his tokens they
    carry (courier/throttling.py): more tokens give no more room. Past them, 429 until his
    tokens have made none for a minute."""

    def allow_request(self, request) -> bool:
        return counted(f"api:{request.auth.user_id}", WINDOW) <= settings.API_RATE_LIMIT

    def wait(self) -> int:
        return WINDOW
