"""Web Push: the devices each user subscribed, and the notices sent to them."""

from __future__ import annotations

from campaign.models import PushSubscription


def account_context(user) -> dict:
    """What the preferences page shows of the user's devices."""
    return {"push_devices": list(PushSubscription.objects.filter(user=user).order_by("pk"))}
