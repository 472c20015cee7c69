"""Personal access tokens of the API: made and revoked in the preferences, stored hashed."""

from __future__ import annotations


def account_context(user) -> dict:
    """What the preferences page shows of the user's tokens."""
    return {}
