"""Where Empires in Arms keeps its state: its tables (rules/empires_in_arms/models.py) as
the archive and the snapshots read and write them (campaign/state/storage.py).

In an archive's ``state`` (campaign/records/archive.py)::

      "eia_powers": [{power, zone, treasury, political_points, pays_bad_roll, militia_due}],
      "eia_areas": [{area, ceded, manpower, guerrilla_value, islamic, minor_status}],
      "national_modifiers": [{area, power, value}],
      "corps": [{power, area, minor, name, fought, besieged, besieging}],
      "revolts": [{sponsor, area, number, months_without_guerrillas, capital_held_months,
                   active, end_reason, conquest_choice, started_turn, ended_turn}],
      "guerrillas": [{area, origin, nationality, factors, revolt, besieged}],
      "depots": [{power, area, port_city, garrison}],
      "let_downs": [{power, area, count}],

An archive of version 1 held the treasury and political points in ``state.powers`` and
the ceded flag and manpower in ``state.areas``: ``state_of_version_1`` moves them here.
"""

from __future__ import annotations

from typing import TypeGuard

from rules.empires_in_arms.models import (
    Corps,
    Depot,
    EiaArea,
    EiaPowerStatus,
    GuerrillaStack,
    LetDown,
    NationalModifier,
    Revolt,
)
from rules.platform import GM_LINE_PIECE, Storage, Table


def state_of_version_1(state: dict) -> dict:
    """A version 1 archive's state as version 2 holds it: each power's treasury and
    political points in its ``eia_powers`` row, each area's ceded flag and manpower in its
    ``eia_areas`` row (a row added for one that has none). A copy."""
    state = dict(state)
    _move(state, "powers", "eia_powers", "power", ("treasury", "political_points"))
    _move(state, "areas", "eia_areas", "area", ("ceded", "manpower"))
    return state


def _move(state: dict, core: str, table: str, owner: str, fields: tuple[str, ...]) -> None:
    """Move ``fields`` from the rows of ``core`` to their owners' rows of ``table``; a
    section that is not a list of objects is left for the archive's checks to refuse."""
    owners, rows = state.get(core), state.get(table, [])
    if not (_objects(owners) and _objects(rows)):
        return
    rows = [dict(row) for row in rows]
    mine = {row.get(owner): row for row in rows if isinstance(row.get(owner), str)}
    kept = []
    for row in owners:
        moved = {name: row[name] for name in fields if name in row}
        kept.append({name: value for name, value in row.items() if name not in moved})
        key = row.get("key")
        if moved and isinstance(key, str):
            if key not in mine:
                mine[key] = {owner: key}
                rows.append(mine[key])
            mine[key].update(moved)
    state[core] = kept
    if rows or table in state:
        state[table] = rows


def _objects(rows: object) -> TypeGuard[list[dict]]:
    return isinstance(rows, list) and all(isinstance(row, dict) for row in rows)


STORAGE = Storage(
    tables=(
        Table("eia_powers", EiaPowerStatus, "power__campaign"),
        Table("eia_areas", EiaArea, "area__campaign"),
        Table("national_modifiers", NationalModifier, "campaign"),
        Table("corps", Corps, "campaign", noun="corps"),
        Table("revolts", Revolt, "campaign"),
        Table("guerrillas", GuerrillaStack, "campaign", noun="guerrilla stack"),
        Table("depots", Depot, "campaign"),
        Table("let_downs", LetDown, "campaign"),
    ),
    piece_ids={
        "orders": (
            (("moves", ..., "stack"), "guerrillas"),
            (GM_LINE_PIECE, "corps"),
        ),
    },
    state_upgrades={1: state_of_version_1},
)
