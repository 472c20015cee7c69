"""The shapes of the API's answers (pydantic, through django-ninja): what the OpenAPI
document describes and each answer is checked against."""

from datetime import datetime
from typing import Any, Literal

from ninja import Schema


class Error(Schema):
    detail: str


class PowerOut(Schema):
    key: str
    name: str


class PhaseOut(Schema):
    id: int
    key: str
    name: str
    turn: str
    status: Literal["open", "waiting", "resolved"]
    deadline: datetime | None


class CampaignOut(Schema):
    """One of my campaigns: my seat in it and where its open phase stands for me."""

    id: int
    name: str
    ruleset: str
    url: str
    role: Literal["gm", "player", "observer"]
    power: PowerOut | None
    phase: PhaseOut | None
    ended: bool
    orders_due: bool  # the open phase waits for my power's orders
    orders_ready: bool  # and I have marked them ready


class OrdersDueOut(Schema):
    """An open phase that waits for my power's orders."""

    campaign_id: int
    campaign: str
    url: str
    power: PowerOut
    phase: PhaseOut
    deadline: datetime | None
    ready: bool


class ReadinessOut(Schema):
    power: str
    player: str
    status: Literal["ready", "draft", "none"]
    awaited: str  # "owes", or why not: "nothing", "away", "absent", "disorder", "unseated"
    updated_at: datetime | None


class BadgeOut(Schema):
    kind: str
    value: Any
    label: str


class AreaOut(Schema):
    key: str
    name: str
    kind: str
    controller: str
    badges: list[BadgeOut]
    cells: list[str]
    remarks: list[str]


class StateOut(CampaignOut):
    """A campaign as I see it on its page: the open phase's readiness, the map's areas,
    the orders of the open phase I may read (by power key) and the ruleset's panels."""

    columns: list[str]
    readiness: list[ReadinessOut]
    areas: list[AreaOut]
    orders: dict[str, dict[str, Any]]
    panels: dict[str, Any]


class LogLineOut(Schema):
    id: int
    turn: str
    phase: str | None
    rule: str
    kind: str
    actor: str
    text: str
    created_at: datetime


class LogOut(Schema):
    """Log lines oldest first; ``next_after``: the ``after`` of the next page (null: no
    more lines now)."""

    lines: list[LogLineOut]
    next_after: int | None
