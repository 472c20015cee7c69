"""campaign/state/json_rows.py stores exactly what bulk_create stores, on either database."""

from __future__ import annotations

import pytest
from django.utils import timezone

from campaign.models import Event, RollRecord
from campaign.state.json_rows import insert_rows
from rules.text import Text
from tests.factories import make_toy_campaign

pytestmark = pytest.mark.django_db

AWKWARD = 'Quotes " and \\ backslash, ⟦Ελλάδα⟧, Россия, 100% {x}, \ttab\nline'


def event_rows(campaign, roll_ids=(None, None)) -> list[dict]:
    text = Text("%(power)s rolls %(face)s", power=AWKWARD, face=6)
    at = timezone.now()  # as write_log stamps its lines (bulk_create stamps its own)
    common = {"campaign_id": campaign.pk, "phase_id": campaign.phase_id, "turn": 3}
    return [
        {
            **common,
            "kind": Event.Kind.ROLL,
            "rule": "EIA-4",
            "text": text,
            "message": text.message(),
            "audience": ["france", AWKWARD],
            "redacted": "",
            "redacted_message": None,
            "actor_id": None,
            "power_id": None,
            "roll_id": roll_ids[0],
            "created_at": at,
        },
        {
            **common,
            "kind": Event.Kind.RULE,
            "rule": "",
            "text": AWKWARD,
            "message": None,
            "audience": [],
            "redacted": AWKWARD,
            "redacted_message": {"id": "%(x)s", "params": {"x": [1, None, True]}},
            "actor_id": None,
            "power_id": None,
            "roll_id": roll_ids[1],
            "created_at": at,
        },
    ]


def roll_rows(campaign, first_index: int) -> list[dict]:
    return [
        {
            "campaign_id": campaign.pk,
            "phase_id": campaign.phase_id,
            "index": first_index + n,
            "rule": "EIA-4",
            "purpose": Text("%(x)s", x=AWKWARD),
            "power_id": None,
            "area_id": None,
            "faces": [6, 1],
            "modifiers": [[Text("national modifier"), 1], [AWKWARD, -2]],
            "total": 5 - n,
            "outcome": "hit",
            "explanation": AWKWARD,
            "purpose_message": None,
            "explanation_message": Text("%(x)s", x=AWKWARD).message(),
        }
        for n in range(2)
    ]


def stored(model, ids) -> list[dict]:
    fields = [f.attname for f in model._meta.concrete_fields if f.attname not in ("id", "roll_id")]
    return list(model.objects.filter(pk__in=ids).order_by("pk").values(*fields))


def without_time(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "created_at"}


def test_inserted_rows_read_back_as_bulk_create_stores_them():
    campaign = make_toy_campaign()
    ids = insert_rows(RollRecord, roll_rows(campaign, 0), key="index")
    made = RollRecord.objects.bulk_create([RollRecord(**r) for r in roll_rows(campaign, 10)])
    assert sorted(ids) == [0, 1]
    by_json = stored(RollRecord, ids.values())
    by_orm = stored(RollRecord, [r.pk for r in made])
    assert [{**r, "index": 0} for r in by_json] == [{**r, "index": 0} for r in by_orm]

    before, started = set(Event.objects.values_list("pk", flat=True)), timezone.now()
    assert insert_rows(Event, event_rows(campaign, (ids[0], None))) == {}
    inserted = set(Event.objects.values_list("pk", flat=True)) - before
    orm = Event.objects.bulk_create([Event(**row) for row in event_rows(campaign)])
    # bulk_create stamps created_at itself (auto_now_add): compare the rest
    drop = {"created_at"}
    by_json = [{k: v for k, v in r.items() if k not in drop} for r in stored(Event, inserted)]
    by_orm = [
        {k: v for k, v in r.items() if k not in drop} for r in stored(Event, [e.pk for e in orm])
    ]
    assert by_json == by_orm
    assert started <= Event.objects.get(roll_id=ids[0]).created_at <= timezone.now()


def test_no_rows_is_no_statement(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert insert_rows(Event, []) == {}
