"""The platform's Django side as a game sees it: every name of campaign/ and of the
Django modules of rules/ that a game (rules/<key>/) may use, on one screen.

A game imports this module, the pure kit of rules/ (dice, text, log, modifiers,
refusals, options, marks, gm_orders, corpus, engine, declension) and itself, nothing
else of the platform: tests/unit/test_import_contracts.py holds every registered game
to it. It lives in rules/, beside the kit a game is written with, so that the platform
(campaign/) stays a package no game names, and a module added there is out of the
games' reach until it is listed here.

A game's ``apps.py`` and ``ruleset.py`` load before Django has loaded the models (the
app registry imports the first, bench/mutate.py the second without Django), so the
names that need the models come from their modules at their first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from campaign.errors import ServiceError as ServiceError
from rules.apps import RulesetConfig as RulesetConfig
from rules.forms import BaseDecisionForm as BaseDecisionForm
from rules.forms import BaseEditForm as BaseEditForm
from rules.forms import BaseOrderForm as BaseOrderForm
from rules.forms import BaseStandingForm as BaseStandingForm
from rules.forms import Row as Row
from rules.forms import RowEditForm as RowEditForm
from rules.forms import WholeNumberField as WholeNumberField
from rules.forms import flag as flag
from rules.forms import id_field as id_field
from rules.forms import number_field as number_field
from rules.forms import row_key as row_key
from rules.translation import Name as Name
from rules.translation import Term as Term
from rules.translation import localized as localized

if TYPE_CHECKING:
    from campaign.core.changes import locked_campaign as locked_campaign
    from campaign.core.changes import refuse_if_ended as refuse_if_ended
    from campaign.models import Adjacency as Adjacency
    from campaign.models import Area as Area
    from campaign.models import Campaign as Campaign
    from campaign.models import Event as Event
    from campaign.models import Phase as Phase
    from campaign.models import Power as Power
    from campaign.models import PowerRelation as PowerRelation
    from campaign.models import Seat as Seat
    from campaign.play import gm_edits as gm_edits
    from campaign.play.lifecycle import WAITING as WAITING
    from campaign.play.services import PhaseContext as PhaseContext
    from campaign.records.state_rows import LiveRows as LiveRows
    from campaign.records.state_rows import StateRows as StateRows
    from campaign.state import persistence as persistence
    from campaign.state.history import record_input as record_input
    from campaign.state.persistence import Board as Board
    from campaign.state.persistence import Loaded as Loaded
    from campaign.state.storage import GM_LINE_PIECE as GM_LINE_PIECE
    from campaign.state.storage import Storage as Storage
    from campaign.state.storage import Table as Table

# The names above that need the models, by the module each comes from.
ONCE_LOADED = {
    "campaign.core.changes": ("locked_campaign", "refuse_if_ended"),
    "campaign.models": (
        "Adjacency",
        "Area",
        "Campaign",
        "Event",
        "Phase",
        "Power",
        "PowerRelation",
        "Seat",
    ),
    "campaign.play.lifecycle": ("WAITING",),
    "campaign.play.services": ("PhaseContext",),
    "campaign.records.state_rows": ("LiveRows", "StateRows"),
    "campaign.state.history": ("record_input",),
    "campaign.state.persistence": ("Board", "Loaded"),
    "campaign.state.storage": ("GM_LINE_PIECE", "Storage", "Table"),
}
# The platform's modules a game uses whole, by their names here.
MODULES_ONCE_LOADED = {
    "gm_edits": "campaign.play.gm_edits",
    "persistence": "campaign.state.persistence",
}
_SOURCES = {name: module for module, names in ONCE_LOADED.items() for name in names}


def __getattr__(name: str) -> object:
    """A name that needs the models, imported from its module at its first use."""
    if name in MODULES_ONCE_LOADED:
        value: object = import_module(MODULES_ONCE_LOADED[name])
    elif name in _SOURCES:
        value = getattr(import_module(_SOURCES[name]), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
