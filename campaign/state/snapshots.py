"""The game state as one JSON value the database builds, compared, and served back as rows
to a ruleset's loader.

``state_expression(campaign)`` is an SQL expression (``JSONObject`` of one subquery per
state table, each a JSON array of ``JSONObject`` rows: PostgreSQL and SQLite alike) whose
value is the campaign's raw state: every state row with its database id, field by field.
It is selected (``read_state``), inserted (a phase's opening snapshot) or written by an
update (the state a phase resolves from) in a single query, whatever the size of the map,
so that the phase services keep their query bounds. ``decode`` turns a raw state into
what ``archive.state_of(campaign, ids=True)`` gives (the form ``restore_state`` takes).

``comparable`` and ``first_difference`` compare two states without their database ids
(a replay creates pieces under new ids), saying where they first differ.

The rows a ruleset's loader reads, live or from a snapshot, are campaign/records/state_rows.py's.
"""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core import checks
from django.db import connection, models
from django.db.models import Aggregate, F, Q, Subquery, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce, JSONObject

from campaign.models import Area, Campaign, Phase, Power
from campaign.state import archive_rows
from campaign.state.storage import Table, state_tables

POWER_FIELDS = archive_rows.archived_fields(Power, skip=archive_rows.POWER_IDENTITY[1:])
AREA_FIELDS = archive_rows.archived_fields(Area, skip=archive_rows.AREA_IDENTITY[1:])


@functools.cache
def table_fields(model: type[models.Model]) -> tuple:
    """The fields of a state table's rows that a snapshot keeps."""
    return archive_rows.archived_fields(model)


PHASES, POWERS, AREAS = "~phases", "~powers", "~areas"
DECODED = (
    models.BooleanField,
    models.IntegerField,
    models.FloatField,
    models.JSONField,
    models.DateTimeField,
    models.CharField,
    models.TextField,
)


@checks.register()
def unreadable_fields(app_configs=None, **kwargs) -> list[checks.Error]:
    """A system check: every state field is of a kind ``decode`` reads back (a new kind
    must be added there)."""
    User = get_user_model()
    return [
        checks.Error(f"campaign/state/snapshots.py cannot read {model.__name__}.{f.name}")
        for model in (Power, Area, *(t.model for t in state_tables()))
        for f in archive_rows.archived_fields(model)
        if (f.is_relation and f.related_model is User)
        or not (f.is_relation or isinstance(f, DECODED))
    ]


class JSONRows(Aggregate):
    """The JSON array of a group's values (PostgreSQL JSONB_AGG, SQLite JSON_GROUP_ARRAY)."""

    function = "JSON_GROUP_ARRAY"
    output_field = models.JSONField()

    def as_postgresql(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="JSONB_AGG", **extra_context)


def _rows(queryset, group: str, fields: list) -> Subquery:
    """A JSON array of the rows, each an object of ``pk`` and the fields' columns."""
    columns = {"pk": F("pk"), **{f.attname: F(f.attname) for f in fields}}
    return Subquery(
        queryset.order_by()
        .values(group)
        .annotate(rows=JSONRows(JSONObject(**columns)))
        .values("rows")
    )


def state_expression(campaign: Campaign) -> RawSQL:
    """The campaign's raw state as one SQL JSON value (see the module docstring).

    The SQL depends only on the ruleset and the database: it is compiled once for each
    (a few hundred expressions, tens of milliseconds) and then given the campaign's id.
    """
    sql, params = _compiled_state(campaign.ruleset, connection.vendor)
    campaign_id = campaign.pk
    return RawSQL(
        sql,
        [campaign_id if p == _ANY_CAMPAIGN else p for p in params],
        output_field=models.JSONField(),
    )


_ANY_CAMPAIGN = -7_770_777  # the campaign id the cached SQL is compiled with


@functools.cache
def _compiled_state(ruleset: str, vendor: str) -> tuple[str, tuple]:
    query = Campaign.objects.all().query
    compiler = query.get_compiler(connection=connection)
    expression = _state_json(Campaign(pk=_ANY_CAMPAIGN, ruleset=ruleset))
    sql, params = compiler.compile(expression.resolve_expression(query))
    assert _ANY_CAMPAIGN in params, "the campaign id must be a parameter"
    return sql, tuple(params)


def _state_json(campaign: Campaign) -> JSONObject:
    sections = {
        POWERS: _rows(Power.objects.filter(campaign=campaign), "campaign", POWER_FIELDS),
        AREAS: _rows(Area.objects.filter(campaign=campaign), "campaign", AREA_FIELDS),
        PHASES: _rows(
            Phase.objects.filter(_phases_named(campaign)),
            "campaign",
            archive_rows.archived_fields(Phase, ("turn", "position")),
        ),
    }
    for t in state_tables():
        if t.ruleset in (None, campaign.ruleset):  # no other ruleset's table has its rows
            queryset = t.model.objects.filter(**{t.scope: campaign})
            sections[t.key] = _rows(queryset, t.scope, table_fields(t.model))
    return JSONObject(**sections)


def _phases_named(campaign: Campaign) -> Q:
    """The phases the campaign's state rows name (a decision under way names its phase)."""
    named = Q(pk__isnull=True)  # none
    for t in state_tables():
        if t.ruleset in (None, campaign.ruleset):
            for f in table_fields(t.model):
                if f.is_relation and f.related_model is Phase:
                    rows = t.model.objects.filter(**{t.scope: campaign})
                    named |= Q(pk__in=rows.values(f.attname))
    return named


def newest(model, campaign: Campaign) -> Coalesce:
    """The id of the campaign's newest log line (Event) or roll (RollRecord), 0 if none."""
    last = model.objects.filter(campaign_id=campaign.pk).order_by("-pk").values("pk")[:1]
    return Coalesce(Subquery(last), Value(0))


def read_state(campaign: Campaign) -> dict:
    """The campaign's state as ``archive.state_of(campaign, ids=True)`` gives it: one query."""
    raw = (
        Campaign.objects.filter(pk=campaign.pk)
        .annotate(raw_state=state_expression(campaign))
        .values_list("raw_state", flat=True)
        .get()
    )
    return decode(raw, campaign.ruleset)


def decode(raw: dict, ruleset: str) -> dict:
    """A raw state (``state_expression``'s value) as ``archive.state_of(ids=True)`` gives it."""
    tables = {key: sorted(_json(rows) or [], key=lambda r: r["pk"]) for key, rows in raw.items()}
    data = {t.key: [_raw(t.model, r) for r in tables.get(t.key, [])] for t in state_tables()}
    powers = [_raw(Power, r, POWER_FIELDS) for r in tables.get(POWERS, [])]
    areas = [_raw(Area, r, AREA_FIELDS) for r in tables.get(AREAS, [])]
    refs: dict = {
        Power: {r["pk"]: r["key"] for r in powers},
        Area: {r["pk"]: r["key"] for r in areas},
        Phase: {r["pk"]: (r["turn"], r["position"]) for r in tables.get(PHASES, [])},
        get_user_model(): {},
    }
    refs |= {
        t.model: {r["pk"]: r[t.names] for r in data[t.key]}
        for t in (t for t in state_tables() if t.names)
    }
    state: dict = {
        "powers": [archive_rows.encode(POWER_FIELDS, r, refs) for r in powers],
        "areas": [archive_rows.encode(AREA_FIELDS, r, refs) for r in areas],
    }
    for t in state_tables():
        rows = data[t.key]
        if not rows and t.ruleset not in (None, ruleset):
            continue
        fields = table_fields(t.model)
        encoded = [archive_rows.encode(fields, r, refs) for r in rows]
        if archive_rows.has_auto_id(t.model):
            encoded = [{"id": r["pk"], **row} for r, row in zip(rows, encoded, strict=True)]
        state[t.key] = encoded
    state["ids"] = True
    return state


def _json(value: Any) -> Any:
    """A JSON value inside a JSON object: nested by PostgreSQL; on SQLite, the text of a
    JSON column or of a subquery's JSON."""
    return json.loads(value) if isinstance(value, str) and connection.vendor == "sqlite" else value


def _raw(model, row: dict, fields: list | None = None) -> dict:
    """A row as the ORM's ``values()`` gives it (attnames, Python values), plus ``pk``."""
    out = {"pk": row["pk"]}
    for f in fields if fields is not None else table_fields(model):
        value = row.get(f.attname)
        if value is not None:
            if f.is_relation:
                value = int(value)
            elif isinstance(f, models.BooleanField):
                value = bool(value)
            elif isinstance(f, models.IntegerField):
                value = int(value)
            elif isinstance(f, models.FloatField):
                value = float(value)
            elif isinstance(f, models.JSONField):
                value = _json(value)
            elif isinstance(f, models.DateTimeField):
                value = datetime.fromisoformat(value)
                value = value if value.tzinfo else value.replace(tzinfo=UTC)
        out[f.attname] = value
    return out


# -- comparing states ---------------------------------------------------------------------


def _auto_times(table: Table) -> set[str]:
    """The fields of a table's rows that the database stamps by itself."""
    return {f.name for f in archive_rows.auto_times(table_fields(table.model))}


def comparable(state: dict, ruleset: str) -> dict:
    """The state without database ids: each piece a pending decision names by its id is
    named by its natural key instead (as in an export), and the times the database stamps
    by itself (a pending decision's ``since``) are left out."""
    tables = {t.key: t for t in state_tables()}
    pieces: dict[str, dict] = {}
    out: dict = {}
    for key, rows in state.items():
        if key == "ids":
            continue
        table = tables.get(key)
        if table is not None:
            fields = archive_rows.archived_fields(table.model)
            pieces[key] = {
                row["id"]: archive_rows.row_ref(table, archive_rows.encoded(fields, row), i)
                for i, row in enumerate(rows)
                if "id" in row
            }
        skip = {"id", *(_auto_times(table) if table is not None else ())}
        out[key] = [{k: v for k, v in row.items() if k not in skip} for row in rows]
    if state.get("ids"):
        to_ref = archive_rows.to_ref(pieces)
        for key, rows in out.items():
            out[key] = archive_rows.translate_rows(rows, ruleset, key, to_ref)
    return out


def first_difference(expected: dict, actual: dict) -> str | None:
    """Where two comparable states first differ, in words; None when they are equal."""
    for key in sorted(set(expected) | set(actual)):
        want, got = expected.get(key, []), actual.get(key, [])
        if want == got:
            continue
        for i, (a, b) in enumerate(zip(want, got, strict=False)):
            if a != b:
                name = _row_name(key, a, i)
                for field in sorted(set(a) | set(b)):
                    if a.get(field) != b.get(field):
                        return (
                            f"{key} {name}: {field} is {b.get(field)!r}, expected {a.get(field)!r}"
                        )
        if len(want) != len(got):
            extra = got[len(want) :] or want[len(got) :]
            which = "extra" if len(got) > len(want) else "missing"
            name = _row_name(key, extra[0], min(len(want), len(got)))
            return f"{key}: {len(got)} rows, expected {len(want)} ({which}: {name})"
    return None


def _row_name(key: str, row: dict, index: int) -> str:
    for field in ("key", "name", "area", "power"):
        if isinstance(row.get(field), str):
            return f"{row[field]!r}"
    return f"#{index}"
