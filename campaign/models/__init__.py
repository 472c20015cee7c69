"""Campaign models: the core every ruleset shares (a ruleset's own tables are in its
package, rules/<ruleset>/models.py)."""

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
from campaign.models.history import DecisionRecord, InputRecord, PhaseSnapshot
from campaign.models.lobby import SeatRequest
from campaign.models.maps import CampaignMap
from campaign.models.people import Profile
from campaign.models.press import Channel, Message, ReadMarker

__all__ = [
    "Adjacency",
    "Area",
    "Campaign",
    "CampaignMap",
    "Channel",
    "DecisionRecord",
    "Event",
    "InputRecord",
    "Message",
    "Order",
    "Phase",
    "PhaseSnapshot",
    "Power",
    "Profile",
    "PowerRelation",
    "ReadMarker",
    "RollRecord",
    "Seat",
    "SeatRequest",
]
