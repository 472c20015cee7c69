"""Campaign models: the core every ruleset shares, then one module per ruleset's state."""

from campaign.models.core import (
    Adjacency,
    Area,
    Campaign,
    Event,
    Order,
    Phase,
    Power,
    PowerRelation,
    RollRecord,
    Seat,
)
from campaign.models.empires_in_arms import (
    Corps,
    Depot,
    EiaArea,
    EiaPowerStatus,
    GuerrillaStack,
    LetDown,
    NationalModifier,
    Revolt,
)

__all__ = [
    "Adjacency",
    "Area",
    "Campaign",
    "Corps",
    "Depot",
    "EiaArea",
    "EiaPowerStatus",
    "Event",
    "GuerrillaStack",
    "LetDown",
    "NationalModifier",
    "Order",
    "Phase",
    "Power",
    "PowerRelation",
    "Revolt",
    "RollRecord",
    "Seat",
]
