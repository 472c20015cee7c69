"""Inserting many rows in one statement whose rows travel as one JSON document.

A phase's log is hundreds of rows (a roll record and a log line for each die rolled).
Django's ``bulk_create`` sends each column as an array, and psycopg quotes every element
of those arrays in Python, the JSON columns' every quotation mark included: at 400 areas
that was most of the land phase's time. Here the rows are one JSON parameter, encoded by
the standard library's C encoder, and PostgreSQL unpacks it (``jsonb_to_recordset``)
into the table's own column types. The statement goes through Django's cursor, so the
connection's execute wrappers, query logging and transactions see it as any other.

Elsewhere (SQLite, the embedded default) it is ``bulk_create``.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


def insert_rows(
    model: type[Model], rows: Sequence[dict[str, Any]], key: str | None = None
) -> dict[Any, int]:
    """Insert ``rows`` (each a dict of the same fields, by attname: ``campaign_id``) into
    ``model``'s table; with ``key``, the new ids by that field's value (unique among the
    rows)."""
    if not rows:
        return {}
    if connection.vendor != "postgresql":
        created = model.objects.bulk_create([model(**row) for row in rows])
        return {getattr(obj, key): obj.pk for obj in created} if key else {}
    fields = [model._meta.get_field(name) for name in rows[0]]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    types = ", ".join(
        f"{connection.ops.quote_name(f.column)} {f.db_type(connection)}" for f in fields
    )
    sql = (
        f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({columns}) "
        f"SELECT {columns} FROM jsonb_to_recordset(%s::jsonb) AS rows({types})"
    )
    if key:
        sql += f" RETURNING {connection.ops.quote_name(model._meta.get_field(key).column)}, id"
    with connection.cursor() as cursor:
        cursor.execute(sql, [json.dumps(rows, default=_instant)])
        return dict(cursor.fetchall()) if key else {}


def _instant(value: Any) -> str:
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not a column value")
