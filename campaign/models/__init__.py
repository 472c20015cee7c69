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
from campaign.models.extensions import Extension
from campaign.models.gm_team import Handover, NewGmRequest
from campaign.models.heartbeat import Heartbeat
from campaign.models.history import DecisionRecord, InputRecord, PhaseSnapshot
from campaign.models.lobby import SeatRequest
from campaign.models.mail import (
    MailChoice,
    MailKind,
    PressMail,
    ReceivedMail,
    RefusalAnswered,
    ReminderSent,
)
from campaign.models.maps import CampaignMap
from campaign.models.notes import Note
from campaign.models.people import Profile
from campaign.models.players import Reliability, Tenure, Turnout
from campaign.models.press import Channel, Message, ReadMarker
from campaign.models.reach import AccessToken, CalendarFeed, PushSubscription

__all__ = [
    "AccessToken",
    "Adjacency",
    "Area",
    "CalendarFeed",
    "Campaign",
    "CampaignMap",
    "Channel",
    "DecisionRecord",
    "Event",
    "Extension",
    "Handover",
    "Heartbeat",
    "InputRecord",
    "MailChoice",
    "MailKind",
    "Message",
    "NewGmRequest",
    "Note",
    "Order",
    "Phase",
    "PhaseSnapshot",
    "Power",
    "PowerRelation",
    "PressMail",
    "Profile",
    "ReadMarker",
    "PushSubscription",
    "ReceivedMail",
    "RefusalAnswered",
    "Reliability",
    "ReminderSent",
    "RollRecord",
    "Seat",
    "SeatRequest",
    "Tenure",
    "Turnout",
]
