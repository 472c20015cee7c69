"""What happened to one power in the last resolved phase: its own log lines, rolls first."""

from __future__ import annotations

from typing import Any

from campaign import presenters
from campaign.models import Event


def concerns(event: Any, power: Any) -> bool:
    """The line is about ``power``: its power, or an audience that names it."""
    return event.power_id == power.pk or power.key in (event.audience or ())


def for_power(
    events: list[Any], power: Any, ruleset: Any, setup: dict, viewer: frozenset[str] | None
) -> presenters.LogGroup | None:
    """The lines of ``events`` (one phase's, oldest first, each with its phase and actor
    loaded) that concern ``power``, as ``viewer`` may read them (presenters.visible_text),
    rolls first; None without events."""
    if not events:
        return None
    lines = [
        (event, text)
        for event in events
        if concerns(event, power) and (text := presenters.visible_text(event, viewer))
    ]
    lines.sort(key=lambda line: line[0].kind != Event.Kind.ROLL)
    return presenters.log_group(events[0].phase, lines, ruleset, setup, seeded=False)
