"""How long ago, or how long until, in the reader's language: Django's ``timesince`` and
``timeuntil`` with their words taken from Courier's catalogs, since Django's own Greek
catalog leaves them untranslated (a Greek page read "0 minutes")."""

from __future__ import annotations

from django import template
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import ngettext_lazy

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


def span(measure, value) -> str:
    """``measure`` (Django's timesince or timeuntil) of ``value`` in Courier's words."""
    try:
        return measure(value, time_strings=TIME_STRINGS) if value else ""
    except (ValueError, TypeError, AttributeError):
        return ""
