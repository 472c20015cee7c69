"""Each Empires in Arms power's treasury and political points, and each area's ceded flag
and manpower, move from the campaign app's powers and areas to this app's rows (campaign
0032 then drops the old columns): the live rows, and the states the phase snapshots
keep (opening and resolved-from), so that a rollback to a phase opened before still
restores them. A power or area without a row of this app gets one with the defaults the
scenario loader gives. Undone, the values go back to the powers and areas (the rows
created stay)."""

import json

from django.db import migrations, models

RULESET = "empires_in_arms"
BATCH = 500
SNAPSHOT_BATCH = 50  # each holds two whole states
# (core model, this app's model, the field naming its owner, the moved fields' defaults)
LIVE = (
    ("Power", "EiaPowerStatus", "power", {"treasury": 0, "political_points": 0}),
    ("Area", "EiaArea", "area", {"ceded": False, "manpower": 0}),
)
# (a raw state's core section, its table's section, the owner's column, as in LIVE)
SECTIONS = (
    ("~powers", "eia_powers", "power_id", LIVE[0][3]),
    ("~areas", "eia_areas", "area_id", LIVE[1][3]),
)
# the other fields of a row a raw state gains, as EiaPowerStatus and EiaArea default them
NEW_ROWS = {
    "eia_powers": {"zone": "Neutral", "pays_bad_roll": True, "militia_due": 0},
    "eia_areas": {"guerrilla_value": None, "islamic": False, "minor_status": ""},
}


def to_tables(apps, schema_editor):
    for core, model, owner, fields in LIVE:
        source, target = apps.get_model("campaign", core), apps.get_model(RULESET, model)
        _copy_to_table(source, target, owner, list(fields))
    _rewrite_snapshots(apps, _state_to_tables)


def back_to_core(apps, schema_editor):
    for core, model, owner, fields in LIVE:
        source, target = apps.get_model(RULESET, model), apps.get_model("campaign", core)
        rows = source.objects.filter(**{f"{owner}__campaign__ruleset": RULESET})
        values = rows.values_list(f"{owner}_id", *fields).iterator(chunk_size=BATCH)
        objs = [target(pk=pk, **dict(zip(fields, v, strict=True))) for pk, *v in values]
        target.objects.bulk_update(objs, list(fields), batch_size=BATCH)
    _rewrite_snapshots(apps, _state_to_core)


def _copy_to_table(source, target, owner: str, fields: list[str]) -> None:
    """Each EIA campaign's values into its owners' rows of ``target``, created if missing."""
    rows = source.objects.filter(campaign__ruleset=RULESET).values_list("pk", *fields)
    objs = [
        target(**{f"{owner}_id": pk}, **dict(zip(fields, values, strict=True)))
        for pk, *values in rows.iterator(chunk_size=BATCH)
    ]
    existing = target.objects.filter(**{f"{owner}__campaign__ruleset": RULESET})
    known = set(existing.values_list("pk", flat=True))
    target.objects.bulk_update([o for o in objs if o.pk in known], fields, batch_size=BATCH)
    target.objects.bulk_create([o for o in objs if o.pk not in known], batch_size=BATCH)


def _rewrite_snapshots(apps, move) -> None:
    """Every EIA snapshot's raw states (campaign/state/snapshots.py) rewritten by ``move``."""
    snapshots = apps.get_model("campaign", "PhaseSnapshot").objects
    taken = snapshots.filter(campaign__ruleset=RULESET).only("pk", "state", "before")
    batch = []
    for snapshot in taken.iterator(chunk_size=SNAPSHOT_BATCH):
        snapshot.state = move(snapshot.state)
        if snapshot.before is not None:
            snapshot.before = move(snapshot.before)
        batch.append(snapshot)
        if len(batch) == SNAPSHOT_BATCH:
            snapshots.bulk_update(batch, ["state", "before"])
            batch = []
    snapshots.bulk_update(batch, ["state", "before"])


def _rows(state: dict, key: str) -> list[dict]:
    """A section of a raw state: a JSON array, as text on some SQLite builds, or null."""
    rows = state.get(key)
    return json.loads(rows) if isinstance(rows, str) else list(rows or [])


def _state_to_tables(state: dict) -> dict:
    state = dict(state)
    for core, table, owner, defaults in SECTIONS:
        owners, rows = _rows(state, core), _rows(state, table)
        by_owner = {int(row[owner]): row for row in rows}
        for row in owners:
            moved = {name: row.pop(name) for name in defaults if name in row}
            mine = by_owner.get(int(row["pk"]))
            if mine is None:
                mine = {"pk": row["pk"], owner: row["pk"], **NEW_ROWS[table]}
                rows.append(mine)
            for name, default in defaults.items():
                mine[name] = moved.get(name, mine.get(name, default))
        state[core], state[table] = owners, rows
    return state


def _state_to_core(state: dict) -> dict:
    state = dict(state)
    for core, table, owner, defaults in SECTIONS:
        owners, rows = _rows(state, core), _rows(state, table)
        by_owner = {int(row[owner]): row for row in rows}
        for row in owners:
            mine = by_owner.get(int(row["pk"]), {})
            for name, default in defaults.items():
                row[name] = mine.get(name, row.get(name, default))
        for row in rows:
            for name in defaults:
                row.pop(name, None)
        state[core], state[table] = owners, rows
    return state


class Migration(migrations.Migration):
    dependencies = [
        ("empires_in_arms", "0001_initial"),
        ("campaign", "0031_reach"),
    ]
    run_before = [("campaign", "0032_power_and_area_columns_to_their_ruleset")]

    operations = [
        migrations.AddField(
            model_name="eiapowerstatus",
            name="treasury",
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name="eiapowerstatus",
            name="political_points",
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name="eiaarea",
            name="ceded",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="eiaarea",
            name="manpower",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(to_tables, back_to_core),
    ]
