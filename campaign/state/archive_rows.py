"""The rows of an archive: which fields of a model it holds, how each value is written as
JSON, how a row is named by its natural key, and where JSON (an order's payload, a
state row) holds the database ids of pieces (campaign/state/storage.py says where). The
archive (export and import) and the snapshots both write rows this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import models
from django.utils.duration import duration_iso_string

from campaign.models import Campaign, Seat
from campaign.state.storage import Table, piece_paths

# A power's and an area's fields outside the game state (the rest is in ``state``);
# ``absent`` and civil disorder (campaign/play/disorder.py) are the seat's management, which a
# rollback leaves as it is (campaign/play/disorder.py undoes what a withdrawn phase counted).
POWER_IDENTITY = ("key", "name", "color", "sort", "absent", "missed_in_row", "disorder_since")
AREA_IDENTITY = ("key", "name", "kind", "x", "y")
# Never exported: an invitation token opens a seat, a webhook URL holds its channel's token.
SECRET_FIELDS = {Seat: ("invite_token",), Campaign: ("webhook_url",)}
# Never exported either: this site's bookkeeping, its clock's (campaign/notify/reminders.py)
# and the stamp of its kept Worlds' keys (campaign/state/world_cache.py).
SITE_FIELDS = {Campaign: ("reminder_changes", "reminders_checked", "state_stamp")}


def archived_fields(model: type[models.Model], only: Iterable[str] | None = None, skip=()) -> list:
    """The model's archived fields: every concrete field but the automatic id, the
    campaign it belongs to, its secrets and this site's bookkeeping (``only``: these, in
    the model's order)."""
    skip = (*skip, *SECRET_FIELDS.get(model, ()), *SITE_FIELDS.get(model, ()))
    fields = [
        f
        for f in model._meta.concrete_fields
        if not (f.primary_key and not f.is_relation)
        and not (f.is_relation and f.related_model is Campaign)
        and f.name not in skip
    ]
    return [f for f in fields if only is None or f.name in only]


def has_auto_id(model: type[models.Model]) -> bool:
    """Whether its rows have an id of their own (not a power's or an area's)."""
    return not model._meta.pk.is_relation


def auto_times(fields: list) -> list:
    """The fields the database stamps by itself."""
    return [f for f in fields if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]


def encode(fields: list, raw: dict, refs: dict) -> dict:
    row = {}
    for f in fields:
        value = raw[f.attname]
        if value is not None:
            if f.is_relation:
                value = plain(refs[f.related_model][value])
            elif isinstance(f, models.DateTimeField | models.DateField | models.TimeField):
                value = value.isoformat()
            elif isinstance(f, models.DurationField):
                value = duration_iso_string(value)
            elif isinstance(f, models.FloatField):
                value = float(value)
            elif not isinstance(value, str | int | float | bool | list | dict):
                value = str(value)  # a Decimal, a UUID: as text
        row[f.name] = value
    return row


def plain(value: Any) -> Any:
    """A natural key as JSON writes it: a fresh list for a tuple or a list."""
    return [plain(v) for v in value] if isinstance(value, list | tuple) else value


def ref_key(value: Any) -> Any:
    """A natural key as a dict key (lists become tuples; an object, which names nothing,
    becomes None)."""
    if isinstance(value, list):
        return tuple(ref_key(v) for v in value)
    return None if isinstance(value, dict) else value


def map_ids(obj: Any, path: tuple, table: str | Callable, fn: Callable) -> Any:
    """``obj`` with each value at ``path`` replaced by ``fn(value, table)``."""
    step, rest = path[0], path[1:]
    if step is ...:
        if not isinstance(obj, list):
            return obj
        keys: Iterable = range(len(obj))
    elif _has_step(obj, step):
        keys = (step,)
    else:
        return obj
    obj = list(obj) if isinstance(obj, list) else dict(obj)
    for key in keys:
        if rest:
            obj[key] = map_ids(obj[key], rest, table, fn)
        else:
            name = table(obj) if callable(table) else table
            if name:
                obj[key] = fn(obj[key], name)
    return obj


def _has_step(obj: Any, step: Any) -> bool:
    if isinstance(obj, dict):
        return isinstance(step, str) and step in obj
    return isinstance(obj, list) and isinstance(step, int) and step < len(obj)


def translate_rows(rows: list[dict], ruleset: str, table: str, fn: Callable) -> list[dict]:
    """A state table's rows with the piece ids its storage declares mapped by ``fn``."""
    if not piece_paths(ruleset, table):
        return rows
    return [translate(row, ruleset, table, fn) for row in rows]


def translate(obj: Any, ruleset: str, where: str, fn: Callable) -> Any:
    """``obj`` (JSON of ``where``: "orders" or a table's key) with each piece id its
    ruleset's storage declares mapped by ``fn(value, table)``."""
    for path, table in piece_paths(ruleset, where):
        obj = map_ids(obj, path, table, fn)
    return obj


def row_ref(table: Table, row: dict, position: int) -> Any:
    """How JSON names this row: its ``ref`` fields, or its position in its table."""
    if not table.ref:
        return position
    values = [row[name] for name in table.ref]
    return values[0] if len(values) == 1 else values


def to_ref(pieces: dict[str, dict]) -> Callable:
    """A ``translate`` function from database ids to references, given each piece
    table's {id: reference}; an id no longer in play becomes None."""

    def named(value, table: str):
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        return plain(pieces.get(table, {}).get(value))

    return named


def encoded(fields: list, row: dict) -> dict:
    """A decoded row's reference fields as the archive writes them (tuples → lists)."""
    return {f.name: plain(row[f.name]) for f in fields}
