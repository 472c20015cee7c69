"""The refusals a campaign's services raise: each carries a message a player or GM can
read, and the transaction it is raised in changes nothing."""

from __future__ import annotations


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
