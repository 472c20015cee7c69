"""Login throttling. django-axes locks a user name tried from one address
(settings.AXES_*); here, one client address that fails too many logins whatever the user
names (one password sprayed over many accounts) is refused for a while, without locking
any account: the others log in from their own addresses as before. The failures are
counted in the shared cache (courier/cache.py) by Django's user_login_failed signal, so
that every login form counts (the site's and the admin's)."""

from __future__ import annotations

import hashlib

from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver

from courier.proxy import client_address

USERNAME_LENGTH = 255  # axes' AccessAttempt.username column
# Failed logins one client address may make, whatever the user names; past them its
# logins are refused until it has made none for the window.
CLIENT_FAILURE_LIMIT = 10
CLIENT_FAILURE_WINDOW = 15 * 60  # seconds
# Wrong passwords one account may be sent where a signed-in user confirms an act with it
# (the deletion of his account), before that check refuses for the window.
PASSWORD_CHECK_LIMIT = 5
PASSWORD_CHECK_WINDOW = 15 * 60  # seconds: the refusal's text says 15 minutes


def attempted_username(request, credentials: dict | None) -> str | None:
    """The user name tried (as axes reads it by default), cut to the length axes stores:
    Django's login form does not bound it (AuthenticationForm's max_length only reaches
    the browser), and PostgreSQL refuses a longer value, which made the login a 500."""
    name = (credentials or {}).get("username")
    if name is None:
        name = request.POST.get("username")
    return None if name is None else str(name)[:USERNAME_LENGTH]


def counted(key: str, window: int) -> int:
    """Count one more under ``key`` in the shared cache and return the count, which lives
    until ``window`` seconds have passed without one more."""
    key = "throttle:" + hashlib.sha256(key.encode()).hexdigest()
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:  # expired or evicted meanwhile
        cache.set(key, count := 1, timeout=window)
    else:
        cache.touch(key, timeout=window)  # the database cache's incr forgets the timeout
    return count


def count_of(key: str) -> int:
    """What ``counted(key, …)`` has counted so far, counting nothing."""
    return cache.get("throttle:" + hashlib.sha256(key.encode()).hexdigest(), 0)


def _client_key(request) -> str:
    return f"login-failures:{client_address(request)}"


def client_refused(request) -> bool:
    """Whether the request's client address has failed too many logins lately."""
    return count_of(_client_key(request)) >= CLIENT_FAILURE_LIMIT


@receiver(user_login_failed)
def count_client_failure(sender, credentials=None, request=None, **kwargs) -> None:
    if request is not None:
        counted(_client_key(request), CLIENT_FAILURE_WINDOW)
