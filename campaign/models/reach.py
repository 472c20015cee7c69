"""Where Courier reaches a user besides mail: the devices his browser subscribed to Web
Push (campaign/notify/push.py), his secret calendar feed (campaign/people/calendar_feed.py) and the
personal access tokens of the API (campaign/api/)."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One browser's Web Push subscription: the push service's endpoint and the keys the
    payload is encrypted with (RFC 8291). Removed by its owner, or when the push service
    answers 404 or 410 (the browser dropped it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    device = models.CharField(_("device"), max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.device or self.endpoint[:40]}"


def new_secret() -> str:
    """A random secret of 256 bits, as URL-safe text."""
    return secrets.token_urlsafe(32)


class CalendarFeed(models.Model):
    """A user's secret calendar address; rotating the secret makes the old address 404."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    secret = models.CharField(max_length=64, unique=True, default=new_secret)
    rotated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user}'s calendar"


def token_digest(token: str) -> str:
    """How a personal access token is stored: its SHA-256 (a random token of 256 bits needs
    no slow hash)."""
    return hashlib.sha256(token.encode()).hexdigest()


class AccessToken(models.Model):
    """A personal access token of the API, stored hashed: shown once when made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=12, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.name} ({self.prefix}…)"
