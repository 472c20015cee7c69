"""The shapes of the API's answers (pydantic, through django-ninja): what the OpenAPI
document describes and each answer is checked against. Plain pydantic models: the routes
answer with plain values (campaign/api/reading.py), never model instances, so ninja's
Schema, which reads attributes off objects, would only slow a campaign's 400 areas
down."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel


class Error(BaseModel):
    detail: str


class PowerOut(BaseModel):
    key: str
    name: str


class PhaseOut(BaseModel):
    id: int
    key: str
    name: str
    turn: str
    status: Literal["open", "waiting", "resolved"]
    deadline: datetime | None


class CampaignOut(BaseModel):
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


class OrdersDueOut(BaseModel):
    """An open phase that waits for my power's orders."""

    campaign_id: int
    campaign: str
    url: str
    power: PowerOut
    phase: PhaseOut
    deadline: datetime | None
    ready: bool


class ReadinessOut(BaseModel):
    power: str
    player: str
    status: Literal["ready", "draft", "none"]
    awaited: str  # "owes", or why not: "nothing", "away", "absent", "disorder", "unseated"
    updated_at: datetime | None


class BadgeOut(BaseModel):
    kind: str
    value: Any
    label: str


class AreaOut(BaseModel):
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


class LogLineOut(BaseModel):
    id: int
    turn: str
    phase: str | None
    rule: str
    kind: str
    actor: str
    text: str
    created_at: datetime


class LogOut(BaseModel):
    """Log lines oldest first; ``next_after``: the ``after`` of the next page (null: no
    more lines now)."""

    lines: list[LogLineOut]
    next_after: int | None
