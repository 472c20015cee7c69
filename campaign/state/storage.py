"""What each ruleset keeps in the database, as its ``storage`` module declares it.

A ruleset's state lives in the tables of its own app (rules/<ruleset>/models.py, the app
labelled with the ruleset's key). Its storage (``Hooks.storage``) lists them
with what the archive, the snapshots and the area panels need to know and cannot read
from the models: the lookup from a row to its campaign, the fields that name a row,
where JSON (an order's payload, a state row) holds the database id of a piece, and how
the state of an archive of an earlier version reads now.
``state_tables()`` is every ruleset's tables after the core ones, read when first asked
(a ruleset's hooks are attached once the apps are ready); nothing here names a ruleset.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from django.db import models

from campaign.models import PowerRelation
from rules.engine import registry
from rules.gm_orders import KEY as GM_ORDERS_KEY

# A path into JSON: dict keys and list indexes; ``...``: every element of a list.
Path = tuple
# Where a piece's id is: a path, and the state table the id is of (or a function of the
# list or object holding the id that says which table, or None for none).
PiecePath = tuple[Path, str | Callable]

# An order for the GM naming a piece (rules/gm_orders.py): the same in every ruleset.
GM_LINE_PIECE: Path = (GM_ORDERS_KEY, "lines", ..., "piece")


@dataclass(frozen=True)
class Table:
    """A state table: its key in the archive, model, and the lookup to its campaign.

    ``ref``: the fields that name one of its rows inside a payload (empty: its position
    in the list); ``names``: the field another row's relation to this table is written
    as, instead of a database id (a block's name); ``noun``: what an archive's problems
    call a row (default: the model's verbose name); ``ruleset``: filled in from the
    registry."""

    key: str
    model: type[models.Model]
    scope: str
    ref: tuple[str, ...] = ()
    names: str = ""
    noun: str = ""
    ruleset: str | None = None

    @property
    def row_noun(self) -> str:
        return self.noun or str(self.model._meta.verbose_name)


@dataclass(frozen=True)
class Storage:
    """A ruleset's tables, and where JSON holds its pieces' ids: ``piece_ids`` maps
    ``"orders"`` (an order's payload) or a table's key (each of its rows) to the paths."""

    tables: tuple[Table, ...] = ()
    piece_ids: Mapping[str, tuple[PiecePath, ...]] = field(default_factory=dict)
    # JSON lists and slugs that hold keys: (model, field) → the model whose keys they are
    key_fields: Mapping[tuple[type[models.Model], str], type[models.Model]] = field(
        default_factory=dict
    )
    # an archive version → how the ``state`` of an archive of that version reads in the
    # next one (campaign/records/archive.py, from the file's version up); none: it reads the same
    state_upgrades: Mapping[int, Callable[[dict], dict]] = field(default_factory=dict)


CORE_TABLES = (Table("relations", PowerRelation, "campaign"),)
NO_STORAGE = Storage()


@functools.cache
def storage_of(ruleset: str) -> Storage:
    """The ruleset's storage declaration (none for a ruleset without tables of its own)."""
    return registry()[ruleset].hooks.storage or NO_STORAGE


@functools.cache
def state_tables() -> tuple[Table, ...]:
    """Every state table: the core ones, then each ruleset's, marked with its ruleset."""
    tables = list(CORE_TABLES)
    for key in registry():
        tables += [replace(t, ruleset=key) for t in storage_of(key).tables]
    return tuple(tables)


@functools.cache
def table_of(key: str) -> Table | None:
    """The state table with this archive key, if there is one."""
    return next((t for t in state_tables() if t.key == key), None)


@functools.cache
def scopes() -> dict[type[models.Model], str]:
    """Each state table's model → the lookup from its rows to their campaign."""
    return {t.model: t.scope for t in state_tables()}


@functools.cache
def named_tables() -> tuple[Table, ...]:
    """The tables whose rows others name by a field (``Table.names``) rather than by id."""
    return tuple(t for t in state_tables() if t.names)


@functools.cache
def key_fields() -> dict:
    """Every ruleset's JSON fields that hold keys: (model, field) → what they name."""
    merged: dict = {}
    for key in registry():
        merged.update(storage_of(key).key_fields)
    return merged


def piece_paths(ruleset: str, where: str) -> tuple[PiecePath, ...]:
    """Where the JSON of ``where`` ("orders" or a table's key) holds piece ids."""
    return tuple(storage_of(ruleset).piece_ids.get(where, ()))


def order_piece_fields(ruleset: str) -> frozenset[str]:
    """The payload fields whose numbers are ids of pieces on the map (orders for the GM
    aside): the last key of each of the ruleset's order paths."""
    return frozenset(
        next(step for step in reversed(path) if isinstance(step, str))
        for path, _ in piece_paths(ruleset, "orders")
        if path != GM_LINE_PIECE
    )
