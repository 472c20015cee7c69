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
from campaign.models.history import DecisionRecord, InputRecord, PhaseSnapshot
from campaign.models.lobby import SeatRequest
from campaign.models.pax_baltica import Block, PbNation, PbSide, PbTerritory
from campaign.models.people import Profile
from campaign.models.press import Channel, Message, ReadMarker
from campaign.models.virgin_queen import VqLeader, VqPending, VqPower, VqSpace, VqUnits, VqZone

__all__ = [
    "Adjacency",
    "Area",
    "Block",
    "Campaign",
    "Channel",
    "Corps",
    "DecisionRecord",
    "Depot",
    "EiaArea",
    "EiaPowerStatus",
    "Event",
    "GuerrillaStack",
    "InputRecord",
    "LetDown",
    "Message",
    "NationalModifier",
    "Order",
    "PbNation",
    "PbSide",
    "PbTerritory",
    "Phase",
    "PhaseSnapshot",
    "Power",
    "Profile",
    "PowerRelation",
    "ReadMarker",
    "Revolt",
    "RollRecord",
    "Seat",
    "SeatRequest",
    "VqLeader",
    "VqPending",
    "VqPower",
    "VqSpace",
    "VqUnits",
    "VqZone",
]
