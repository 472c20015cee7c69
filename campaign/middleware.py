"""Each user reads times in their own time zone: the one chosen in their preferences
(kept in the session when they log in or save them), else the browser's (a cookie set by
static/courier/timezone.js), else UTC."""

from __future__ import annotations

import zoneinfo

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import timezone

from campaign.models import Profile

COOKIE = SESSION_KEY = "tz"


def remember_time_zone(request, name: str) -> None:
    """Keep the user's chosen zone for their next requests ("" for the browser's)."""
    request.session[SESSION_KEY] = name


@receiver(user_logged_in)
def _on_login(sender, request, user, **kwargs) -> None:
    chosen = Profile.objects.filter(user=user).values_list("time_zone", flat=True).first()
    remember_time_zone(request, chosen or "")


class TimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = request.session.get(SESSION_KEY) or request.COOKIES.get(COOKIE, "")
        try:
            timezone.activate(zoneinfo.ZoneInfo(name)) if name else timezone.deactivate()
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        return self.get_response(request)
