"""Beacons' reads and writes: the World from its table, the phase service, the writes."""

from __future__ import annotations

from campaign import persistence
from campaign.models import Campaign
from campaign.state_rows import LiveRows, StateRows
from tests.toy import procedures
from tests.toy.models import Beacon


def load_state(campaign: Campaign, rows: StateRows | None = None) -> persistence.Loaded:
    """Every beacon of the campaign, the adjacency and the areas' names (``rows``: a
    snapshot's instead)."""
    rows = rows or LiveRows(campaign)
    board = persistence.Board.read(rows)
    lit = dict.fromkeys(board.area_ids)
    for beacon in rows.of(Beacon):
        lit[board.area_key[beacon.area_id]] = board.power_key.get(beacon.lit_by_id)
    names = {area.key: area.display_name for area in board.areas}
    world = procedures.World(lit=lit, adjacency=board.adjacency(campaign), names=names)
    return persistence.Loaded.of(world, board, campaign)


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
