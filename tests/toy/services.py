"""Beacons' reads and writes: the World from its table, the phase service, the writes."""

from __future__ import annotations

import copy

from campaign import persistence
from campaign.models import Adjacency, Campaign
from campaign.snapshots import LiveRows, StateRows
from tests.toy import procedures
from tests.toy.models import Beacon


def load_state(campaign: Campaign, rows: StateRows | None = None) -> persistence.Loaded:
    """Every beacon of the campaign and the adjacency (``rows``: a snapshot's instead)."""
    rows = rows or LiveRows(campaign)
    powers = {p.pk: p.key for p in rows.powers()}
    areas = {a.pk: a.key for a in rows.areas()}
    world = procedures.World(lit={key: None for key in areas.values()}, adjacency={})
    for beacon in rows.of(Beacon):
        world.lit[areas[beacon.area_id]] = powers.get(beacon.lit_by_id)
    for a_id, b_id in Adjacency.objects.filter(campaign=campaign).values_list("a_id", "b_id"):
        world.adjacency.setdefault(areas[a_id], set()).add(areas[b_id])
        world.adjacency.setdefault(areas[b_id], set()).add(areas[a_id])
    power_ids = {key: pk for pk, key in powers.items()}
    area_ids = {key: pk for pk, key in areas.items()}
    return persistence.Loaded(world, copy.deepcopy(world), power_ids, area_ids, campaign)


def load_world(campaign: Campaign, rows: StateRows | None = None) -> procedures.World:
    return load_state(campaign, rows).world


def persist(loaded: persistence.Loaded, context) -> None:
    """The beacons lit, then the log."""
    world, before = loaded.world, loaded.before
    for area, power in world.lit.items():
        if power != before.lit.get(area):
            Beacon.objects.update_or_create(
                campaign=context.campaign,
                area_id=loaded.area_ids[area],
                defaults={"lit_by_id": loaded.power_ids.get(power)},
            )
    persistence.write_log(
        world.log,
        context.campaign,
        context.phase,
        context.actor,
        loaded.power_ids,
        loaded.area_ids,
    )


resolve_signal = persistence.phase_service(load_state, procedures.resolve_signals, persist)
