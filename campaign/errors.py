"""The refusals a campaign's services raise: each carries a message a player or GM can
read, and the transaction it is raised in changes nothing. A service says no by raising
one; a form or a page that asks beforehand why not asks the same check (``reason_for``).
The views answer each with one shape (campaign/views/refusals.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ServiceError(Exception):
    """A refusal whose message a player or GM can read."""


class Conflict(ServiceError):
    """A request that no longer fits the campaign's state (it moved on meanwhile)."""


class PhaseClosed(Conflict):
    """Orders for a phase that is no longer open."""


class CampaignEnded(PhaseClosed):
    """Orders, a decision or a resolution for a campaign that has ended."""


class PhaseAlreadyResolved(Conflict):
    """A resolve request for a phase that another request already resolved."""


class StaleState(Conflict):
    """A GM action sent from a page older than the campaign's state: sent twice, replayed,
    or overtaken by another change."""


class DiceError(ServiceError):
    """GM-entered dice that are missing or malformed."""


def reason_for(check: Callable[..., object], *args: Any, **kwargs: Any) -> str | None:
    """Why ``check`` (a function that raises ServiceError) refuses these arguments; None
    when it does not: the question a form asks before the service is called."""
    try:
        check(*args, **kwargs)
    except ServiceError as refusal:
        return str(refusal)
    return None
