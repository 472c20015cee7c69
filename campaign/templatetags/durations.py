"""How long ago, or how long until, in the reader's language: Django's ``timesince`` and
``timeuntil`` with their words taken from Courier's catalogs, since Django's own Greek
catalog leaves them untranslated (a Greek page read "0 minutes"); under a minute, "less
than a minute" (never "0 minutes"), which reads in each of their sentences ("Saved less
than a minute ago", "in less than a minute")."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext, ngettext_lazy

register = template.Library()

TIME_STRINGS = {
    "year": ngettext_lazy("%(num)d year", "%(num)d years", "num"),
    "month": ngettext_lazy("%(num)d month", "%(num)d months", "num"),
    "week": ngettext_lazy("%(num)d week", "%(num)d weeks", "num"),
    "day": ngettext_lazy("%(num)d day", "%(num)d days", "num"),
    "hour": ngettext_lazy("%(num)d hour", "%(num)d hours", "num"),
    "minute": ngettext_lazy("%(num)d minute", "%(num)d minutes", "num"),
}


@register.filter
def since(value) -> str:
    """How long ago ``value`` was ("3 hours, 5 minutes"); "" for no time."""
    return span(timesince, value)


@register.filter
def until(value) -> str:
    """How long until ``value`` ("2 days, 4 hours"); "" for no time."""
    return span(timeuntil, value)


MINUTE = timedelta(minutes=1)


def span(measure, value) -> str:
    """``measure`` (Django's timesince or timeuntil) of ``value`` in Courier's words."""
    try:
        if not value:
            return ""
        if _within_a_minute(value):
            return gettext("less than a minute")
        return measure(value, time_strings=TIME_STRINGS)
    except (ValueError, TypeError, AttributeError):
        return ""


def _within_a_minute(value) -> bool:
    """``value`` (a datetime, or a date: never) is less than a minute from now, either
    way; as Django's timesince says "0 minutes" then, so also for a moment slightly
    ahead of the clock."""
    if not isinstance(value, datetime):
        return False
    now = timezone.now() if timezone.is_aware(value) else datetime.now()
    return abs(now - value) < MINUTE
