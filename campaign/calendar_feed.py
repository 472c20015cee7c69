"""Each user's secret iCalendar feed of the deadlines of his campaigns."""

from __future__ import annotations


def account_context(user) -> dict:
    """What the preferences page shows of the user's calendar feed."""
    return {}
