"""Beacons' reads and writes: the World from its tables, a service per phase, the
decisions of the raids under way and the GM's edits, each writing what changed and its
log."""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext

from rules.platform import (
    WAITING,
    Board,
    Campaign,
    LiveRows,
    Loaded,
    ServiceError,
    StateRows,
    gm_edits,
    localized,
    persistence,
)
from rules.refusals import Refused
from tests.toy import phases, procedures, state
from tests.toy.edits import EDITS
from tests.toy.models import Beacon, Lord, Raid


def load_state(campaign: Campaign, rows: StateRows | None = None) -> Loaded:
    """Every beacon, reserve and raid under way of the campaign, with the map and the
    names (``rows``: a snapshot's instead)."""
    rows = rows or LiveRows(campaign)
    board = persistence.Board.read(rows)
    world = state.World(
        lit=_beacons(rows, board),
        adjacency=board.adjacency(campaign),
        names={area.key: area.display_name for area in board.areas},
        powers={power.key: power.display_name for power in board.powers},
        wood=_reserves(rows, board),
        colors={power.key: power.color for power in board.powers},
        raids=_raids(rows, board),
    )
    return Loaded.of(world, board, campaign)


def _beacons(rows: StateRows, board: Board) -> dict[str, str | None]:
    lit = dict.fromkeys(board.area_ids)
    for beacon in rows.of(Beacon):
        lit[board.area_key[beacon.area_id]] = board.power_key.get(beacon.lit_by_id)
    return lit


def _reserves(rows: StateRows, board: Board) -> dict[str, int]:
    wood = dict.fromkeys(board.power_ids, 0)
    return wood | {board.power_key[lord.pk]: lord.wood for lord in rows.of(Lord)}


def _raids(rows: StateRows, board: Board) -> list[state.Raid]:
    return [
        state.Raid(board.power_key[raid.raider_id], board.area_key[raid.area_id], raid.face)
        for raid in rows.of(Raid, order=("position",))
    ]


def load_world(campaign: Campaign, rows: StateRows | None = None) -> state.World:
    return load_state(campaign, rows).world


def persist(loaded: Loaded, campaign: Campaign, phase, actor) -> None:
    """The beacons and reserves that changed, the raids under way, then the log."""
    world, before = loaded.world, loaded.before
    for area, power in world.lit.items():
        if power != before.lit.get(area):
            Beacon.objects.update_or_create(
                campaign=campaign,
                area_id=loaded.area_ids[area],
                defaults={"lit_by_id": loaded.power_ids.get(power)},
            )
    for power, wood in world.wood.items():
        if wood != before.wood.get(power):
            Lord.objects.update_or_create(power_id=loaded.power_ids[power], defaults={"wood": wood})
    if world.raids != before.raids:
        _write_raids(loaded, campaign)
    persistence.write_log(world.log, campaign, phase, actor, loaded.power_ids, loaded.area_ids)


def _write_raids(loaded: Loaded, campaign: Campaign) -> None:
    Raid.objects.filter(campaign=campaign).delete()
    Raid.objects.bulk_create(
        Raid(
            campaign=campaign,
            position=position,
            raider_id=loaded.power_ids[raid.raider],
            area_id=loaded.area_ids[raid.area],
            face=raid.face,
        )
        for position, raid in enumerate(loaded.world.raids)
    )


def _persist_phase(loaded: Loaded, context) -> None:
    persist(loaded, context.campaign, context.phase, context.actor)


resolve_signal = persistence.phase_service(load_state, phases.resolve_signals, _persist_phase)


def resolve_raid(context) -> str | None:
    """The raid phase: gathering, then the raids' rolls; WAITING while a raid that reached
    its beacon waits for its defender's decision."""
    loaded = load_state(context.campaign)
    phases.resolve_raids(loaded.world, context.orders, context.dice)
    _persist_phase(loaded, context)
    context.world = loaded.world
    return WAITING if loaded.world.raids else None


def decide(*, campaign, phase, power_key, answer, actor, as_gm) -> str | None:
    """The defender's answer (or the GM's) to the raid asked (the platform's decision
    service); WAITING while another raid waits for its defender."""
    loaded = load_state(campaign)
    if loaded.world.asked is None:
        raise ServiceError(gettext("Nothing waits for a decision."))
    try:
        procedures.answer_raid(loaded.world, power_key, bool(answer.get("keep")), as_gm=as_gm)
    except Refused as refusal:
        raise ServiceError(localized(refusal.text)) from None
    persist(loaded, campaign, phase, actor)
    return WAITING if loaded.world.raids else None


def default_decision(world: state.World) -> tuple[str, dict] | None:
    """Whom the raid under way waits for, and the answer it gets without a player."""
    return procedures.default_answer(world)


def _no_raid_waits(loaded: Loaded) -> None:
    """The map is not edited while a raid waits for its defender's decision."""
    raid = loaded.world.asked
    if raid is not None:
        lord = loaded.world.powers[loaded.world.defender(raid)]
        raise ServiceError(
            gettext(
                "A raid waits for %(lord)s's decision: it is answered before the map is edited."
            )
            % {"lord": lord}
        )


def _write_edit(loaded: Loaded, campaign: Campaign, actor) -> None:
    persist(loaded, campaign, campaign.phase, actor)


def stored_state(loaded: Loaded) -> state.World:
    """What ``load_world`` reads once an edit is written: the World without its log."""
    return replace(loaded.world, log=[])


gm_edit = gm_edits.edit_service(
    EDITS,
    load_state,
    _write_edit,
    ready=_no_raid_waits,
    stored=stored_state,
    from_page=Loaded.of_page,
)
gm_edit.__doc__ = """Make one GM edit and log it with who made it (and the order for the GM
it carries out, ``carrying_out``); returns the edit's Text."""
