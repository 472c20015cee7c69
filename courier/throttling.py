"""The user name login throttling (django-axes) records for a failed login."""

from __future__ import annotations

USERNAME_LENGTH = 255  # axes' AccessAttempt.username column


def attempted_username(request, credentials: dict | None) -> str | None:
    """The user name tried (as axes reads it by default), cut to the length axes stores:
    Django's login form does not bound it (AuthenticationForm's max_length only reaches
    the browser), and PostgreSQL refuses a longer value, which made the login a 500."""
    name = (credentials or {}).get("username")
    if name is None:
        name = request.POST.get("username")
    return None if name is None else str(name)[:USERNAME_LENGTH]
