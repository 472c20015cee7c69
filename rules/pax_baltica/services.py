"""Pax Baltica phase services: the only code that reads and writes Pax Baltica state.

Each service loads the whole World in a fixed number of queries, hands it to a pure
phase resolver (phases.py), then writes back only what changed, with every roll and log
line. They run inside the caller's transaction, after it has locked the campaign.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rules.pax_baltica import phases, state
from rules.pax_baltica.edits import EDITS
from rules.pax_baltica.models import Block, PbNation, PbSide, PbTerritory
from rules.platform import (
    Area,
    Campaign,
    LiveRows,
    Loaded,
    Name,
    Phase,
    PhaseContext,
    Power,
    StateRows,
    gm_edits,
    persistence,
)


def load_state(campaign: Campaign, rows: StateRows | None = None) -> Loaded:
    """Read every piece of Pax Baltica state of the campaign (five queries); ``rows``:
    from there instead of the database (a snapshot: campaign/state/snapshots.py)."""
    rows = rows or LiveRows(campaign)
    board = persistence.Board.read(rows, "pax_baltica")
    pkey, akey = board.power_key, board.area_key
    sides = rows.of(PbSide)
    world = state.World(
        nations={p.key: _nation(p) for p in board.powers if hasattr(p, "pax_baltica")},
        territories={a.key: _territory(a, pkey) for a in board.areas},
        adjacency=board.adjacency(campaign),
        blocks={b.pk: _block(b, pkey, akey) for b in rows.of(Block, order=("pk",))},
        actions={s.key: s.actions for s in sides},
        season_actions={s.key: s.actions_per_season for s in sides},
        options=campaign.rule_options,
    )
    return Loaded.of(world, board, campaign)


def load_world(campaign: Campaign, rows: StateRows | None = None) -> state.World:
    """The campaign's Pax Baltica state, for pages and forms (``rows``: see load_state)."""
    return load_state(campaign, rows).world


def _nation(p: Power) -> state.Nation:
    pb = p.pax_baltica
    return state.Nation(
        p.key,
        p.display_name,
        pb.side,
        pb.rp_level,
        pb.event_rp,
        tuple(pb.deployment),
        tuple(pb.fleet_ports),
        pb.forced_peace,
        p.color,
    )


# What a table's row and the World's dataclass hold under the same names.
TERRITORY_FIELDS = (
    "forage_points",
    "port",
    "transit",
    "in_poland",
    "garrison",
    "surrendered",
    "battle_winner",
)
BLOCK_COLUMNS: tuple[str, ...] = ("kind", "name", "strength", "max_strength", "rating")
BLOCK_COLUMNS += ("supply_trains", "red_dot", "galley", "in_battle", "besieging", "nationality")


def _territory(a: Area, pkey: dict[int, str]) -> state.Territory:
    pb = getattr(a, "pax_baltica", None)
    kind = state.SEA if a.kind == state.SEA else state.TERRITORY
    fields = persistence.shared_fields(pb, TERRITORY_FIELDS) if pb is not None else {}
    return state.Territory(
        a.key,
        a.display_name,
        kind,
        nation=pkey.get(a.home_power_id) if a.home_power_id is not None else None,
        controller=pkey.get(a.controller_id) if a.controller_id is not None else None,
        capital=bool(a.capital),
        **fields,
    )


def _block(b: Block, pkey: dict[int, str], akey: dict[int, str]) -> state.Block:
    return state.Block(
        b.pk,
        pkey[b.power_id],
        b.kind,
        Name(b.name),  # read in the reader's language, like the areas' names
        b.strength,
        b.max_strength,
        b.rating,
        b.supply_trains,
        akey.get(b.location_id) if b.location_id is not None else None,
        b.carried_by_id,
        b.red_dot,
        tuple(b.places),
        b.galley,
        b.in_battle,
        b.besieging,
        Name(b.nationality) if b.nationality else "",
    )


# -- writing back -------------------------------------------------------------------

BLOCK_FIELDS = [
    "strength",
    "max_strength",
    "rating",
    "supply_trains",
    "location",
    "carried_by",
    "red_dot",
    "places",
    "galley",
    "in_battle",
    "besieging",
    "nationality",
]


def persist(loaded: Loaded, phase: Phase | None, actor) -> None:
    """Write what changed in the World, then its log lines and rolls."""
    _persist_nations(loaded)
    _persist_territories(loaded)
    _persist_sides(loaded)
    p, a, campaign = loaded.power_ids, loaded.area_ids, loaded.campaign
    assert campaign is not None  # load_state reads the World with its campaign

    def row(b: state.Block, pk: int | None) -> Block:
        return Block(
            pk=pk,
            campaign=campaign,
            power_id=p[b.nation],
            location_id=a.get(b.location) if b.location is not None else None,
            carried_by_id=b.carried_by,
            places=list(b.places),
            **persistence.shared_fields(b, BLOCK_COLUMNS),
        )

    persistence.sync_rows(
        Block, loaded.before.blocks.values(), loaded.world.blocks.values(), BLOCK_FIELDS, row
    )
    persistence.write_log(loaded.world.log, campaign, phase, actor, p, a)


def _persist_nations(loaded: Loaded) -> None:
    before = loaded.before.nations
    changed = [n for k, n in loaded.world.nations.items() if n != before[k]]
    if changed:
        PbNation.objects.bulk_update(
            [
                PbNation(
                    power_id=loaded.power_ids[n.key],
                    rp_level=n.rp_level,
                    event_rp=n.event_rp,
                    deployment=list(n.deployment),
                    fleet_ports=list(n.fleet_ports),
                    forced_peace=n.forced_peace,
                )
                for n in changed
            ],
            ["rp_level", "event_rp", "deployment", "fleet_ports", "forced_peace"],
        )


def _persist_territories(loaded: Loaded) -> None:
    changed = persistence.changed_items(loaded.before.territories, loaded.world.territories)
    if not changed:
        return
    persistence.write_controllers(loaded, changed)
    a = loaded.area_ids
    land = [t for t in changed if t.kind == state.TERRITORY]
    if land:
        PbTerritory.objects.bulk_update(
            [
                PbTerritory(area_id=a[t.key], **persistence.shared_fields(t, TERRITORY_FIELDS))
                for t in land
            ],
            TERRITORY_FIELDS,
        )


def _persist_sides(loaded: Loaded) -> None:
    """Each side's actions and its place in the acting order (World.actions' order)."""

    def rows(world: state.World) -> dict[str, tuple[int, int, int]]:
        return {
            key: (left, world.season_actions.get(key, 0), sort)
            for sort, (key, left) in enumerate(world.actions.items())
        }

    persistence.upsert_changed(
        PbSide,
        rows(loaded.before),
        rows(loaded.world),
        ["actions", "actions_per_season", "sort"],
        ["campaign", "key"],
        lambda key, v: PbSide(
            campaign=loaded.campaign, key=key, actions=v[0], actions_per_season=v[1], sort=v[2]
        ),
    )


# -- phase services -----------------------------------------------------------------


def stored_world(loaded: Loaded) -> state.World:
    """The World as ``load_world`` reads it once ``persist`` has written it: the blocks
    keyed by the ids of their rows (a new block's too), and the log in the database."""
    blocks = persistence.by_id(loaded.world.blocks.values())
    return replace(loaded.world, blocks={b.id: b for b in blocks}, log=[])


def _phase_service(resolver: Callable[..., phases.Outcomes]) -> Callable[[PhaseContext], None]:
    """Load the World (the one the pages keep, if kept: persistence.loaded_for_change),
    with the campaign's secret and the phase's dice context, which order the pool draws;
    resolve, persist, and leave the World for the next phase."""

    def service(context: PhaseContext) -> None:
        loaded = persistence.loaded_for_change(context.campaign, load_state, Loaded.of_page)
        loaded.world.secret = context.campaign.secret
        loaded.world.dice_context = context.phase.dice_context
        resolver(loaded.world, context.orders, context.dice)
        persist(loaded, context.phase, context.actor)
        context.world = loaded.world

    service.__doc__ = f"Load, resolve with {resolver.__name__}, persist."
    return service


resolve_recruitment = _phase_service(phases.resolve_recruitment)
resolve_actions = _phase_service(phases.resolve_actions)
resolve_sieges = _phase_service(phases.resolve_sieges)
resolve_forage = _phase_service(phases.resolve_forage)


# -- GM edits ---------------------------------------------------------------------


gm_edit = gm_edits.edit_service(
    EDITS,
    load_state,
    lambda loaded, campaign, actor: persist(loaded, campaign.phase, actor),
    stored=stored_world,
    from_page=Loaded.of_page,
)
gm_edit.__doc__ = """Apply one GM edit and log it with who made it (block details for the GM
only) and the order for the GM it carries out (``carrying_out``: rules/gm_orders.py)."""
