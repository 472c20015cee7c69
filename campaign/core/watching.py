"""Whose hidden state a seat sees (the presenters' viewer, Ruleset.viewer): the one
answer every page, fragment, mail and download of the campaign's state asks.

A power's player sees what their power's rules let them see (their side's hidden
pieces, say); the GM sees everything. An observer (a watcher who took a seat from the lobby,
or an observer seat the GM opened) of a game with hidden information sees what the GM
chose (Campaign.watchers_see): by default no power's hidden state while the campaign goes
on, and all of it once it has ended; or what one power's player sees (one side). So a
player's second account, watching, never sees the other side unless the GM says so. A
replaced player keeps an observer's seat that sees no power's hidden state until the end,
whatever watchers see. A game without hidden information hides nothing from anyone.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from campaign.models import Seat

NOTHING_HIDDEN = frozenset()  # the viewer that sees no power's hidden state


def seat_viewer(seat: Seat, rules: Any, world: Any, at: Any = None) -> frozenset[str] | None:
    """Whose hidden state ``seat`` sees in ``world`` (None: all of it); ``at``: the moment
    ``world`` stood as it is, for a past state (a history page)."""
    if seat.power_id is not None:
        return rules.viewer(world, seat.power.key)
    if seat.role != Seat.Role.OBSERVER:
        return None
    if seat.former_power_id is not None:
        return former_viewer(seat, rules, world, at)
    return watcher_viewer(seat.campaign, rules, world)


def former_viewer(seat: Seat, rules: Any, world: Any, at: Any) -> frozenset[str] | None:
    """Whose hidden state a replaced player sees: what their power's player saw in a past
    state from before they left; otherwise no power's while the campaign goes on (their
    power's plans are their successor's now), and all of it once it has ended."""
    if not rules.has_secrets or seat.campaign.ended_at is not None:
        return None
    if at is not None and world is not None and at <= seat.left_at:
        return rules.viewer(world, seat.former_power.key)
    return NOTHING_HIDDEN


def watcher_viewer(campaign: Any, rules: Any, world: Any) -> frozenset[str] | None:
    """Whose hidden state an observer of ``campaign`` sees in ``world``."""
    if not rules.has_secrets or campaign.ended_at is not None:
        return None
    if campaign.watchers_see and world is not None:
        return rules.viewer(world, campaign.watchers_see)
    return NOTHING_HIDDEN


def choices(campaign: Any, powers: Any) -> list[tuple[str, str]]:
    """What the GM may let watchers of a hidden-information game see: nothing hidden
    until the end, or what one power's player sees (``powers``: the campaign's)."""
    return [("", _("no power's hidden information until the campaign ends"))] + [
        (power.key, _("what %(power)s's player sees") % {"power": power.display_name})
        for power in powers
    ]


def description(campaign: Any, rules: Any, powers: Any) -> str:
    """What a watcher of ``campaign`` sees, in a sentence ("" for a game that hides
    nothing)."""
    if not rules.has_secrets:
        return ""
    if campaign.ended_at is not None:
        return _("The campaign has ended: watchers see everything.")
    names = {power.key: power.display_name for power in powers}
    if campaign.watchers_see in names:
        return _("Watchers see what %(power)s's player sees.") % {
            "power": names[campaign.watchers_see]
        }
    return _("Watchers see no power's hidden information until the campaign ends.")
