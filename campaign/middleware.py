"""Each user reads the site in their own language and time zone; in development, the
mail links to the address the site is served on (ServedOriginMiddleware).

Language: the one chosen in their preferences, else the language switcher's cookie or
the browser's Accept-Language (LocaleMiddleware). Time zone: the one chosen in their
preferences, else the browser's (a cookie set by static/courier/timezone.js), else UTC.
Both choices are kept in the session when the user logs in or saves them. What the browser
that logs in says is kept on the profile, for the mail of a user who chose neither
(Profile.reading_of)."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import DisallowedHost
from django.dispatch import receiver
from django.utils import timezone, translation

from campaign import time_zones
from campaign.models import Profile
from campaign.notify import outgoing

COOKIE = SESSION_KEY = "tz"
LANGUAGE_SESSION_KEY = "language"


def remember_time_zone(request, name: str) -> None:
    """Keep the user's chosen zone for their next requests ("" for the browser's)."""
    request.session[SESSION_KEY] = name


def remember_language(request, code: str) -> None:
    """Keep the user's chosen language for their next requests ("" for the browser's)."""
    request.session[LANGUAGE_SESSION_KEY] = code


@receiver(user_logged_in)
def _on_login(sender, request, user, **kwargs) -> None:
    chosen = Profile.objects.filter(user=user).values_list("time_zone", "language").first()
    time_zone, language = chosen or ("", "")
    remember_time_zone(request, time_zone)
    remember_language(request, language)
    _remember_browser(request, user)


def _remember_browser(request, user) -> None:
    """Keep on the profile the language and time zone the browser that logs in reads the
    site in: the mail of a user who chose neither is written in them."""
    language = getattr(request, "LANGUAGE_CODE", "")[:8]
    zone = request.COOKIES.get(COOKIE, "")
    zone = zone if zone in time_zones.TIME_ZONES else ""
    if language or zone:
        Profile.objects.update_or_create(
            user=user, defaults={"browser_language": language, "browser_time_zone": zone}
        )


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


class LanguageMiddleware:
    """The signed-in user's chosen language, over LocaleMiddleware's guess."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        code = request.session.get(LANGUAGE_SESSION_KEY)
        if code and translation.check_for_language(code):
            translation.activate(code)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


class ServedOriginMiddleware:
    """In development (settings.SITE_URL_FROM_REQUESTS: DEBUG with COURIER_SITE_URL
    unset), the mail a request sends links to the address that request was served on
    (its scheme, host and port: campaign.notify.outgoing.served_at), wherever the demo runs
    (``bin/demo 8080``). No setting changes: each request has its own. A deployment sets
    COURIER_SITE_URL and does not install this."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not settings.SITE_URL_FROM_REQUESTS:
            return self.get_response(request)
        try:
            origin = f"{request.scheme}://{request.get_host()}"
        except DisallowedHost:  # answered 400 further on; nothing to learn from it
            return self.get_response(request)
        with outgoing.served_at(origin):
            return self.get_response(request)
