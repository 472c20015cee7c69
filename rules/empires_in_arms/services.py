"""Empires in Arms phase services: the only code that reads and writes EIA state.

Each service loads the whole World in a fixed number of queries, hands it to a pure
phase resolver (phases.py), then writes back only what changed (bulk updates, creates
and deletes, the same number of queries for 10 areas or 400) with every roll and log
line. They run inside the caller's transaction, after it has locked the campaign.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import replace
from functools import reduce

from django.db import transaction
from django.db.models import Q

from rules.empires_in_arms import phases, state
from rules.empires_in_arms.edits import EDITS
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
from rules.platform import (
    Area,
    Campaign,
    Event,
    LiveRows,
    Loaded,
    Name,
    Phase,
    PhaseContext,
    Power,
    PowerRelation,
    StateRows,
    gm_edits,
    locked_campaign,
    persistence,
    record_input,
    refuse_if_ended,
)
from rules.text import Text


def load_state(campaign: Campaign, rows: StateRows | None = None) -> Loaded:
    """Read every piece of EIA state of the campaign (ten queries, whatever its size),
    with a copy to diff against; ``rows``: from there instead of the database (a
    snapshot: campaign/state/snapshots.py)."""
    world, board = _read(campaign, rows or LiveRows(campaign))
    return Loaded(world, world.copy(), board.power_ids, board.area_ids)


def load_world(campaign: Campaign, rows: StateRows | None = None) -> state.World:
    """The campaign's EIA state, for pages and forms (``rows``: see load_state)."""
    return _read(campaign, rows or LiveRows(campaign))[0]


def _read(campaign: Campaign, rows: StateRows) -> tuple[state.World, persistence.Board]:
    board = persistence.Board.read(rows, "eia")
    powers, areas, pkey, akey = board.powers, board.areas, board.power_key, board.area_key
    world = state.World(
        powers={p.key: _power(p) for p in powers},
        areas={a.key: _area(a, pkey) for a in areas},
        options=campaign.rule_options,
        militia_due={p.key: p.eia.militia_due if hasattr(p, "eia") else 0 for p in powers},
    )
    world.adjacency = board.adjacency(campaign)
    world.national_modifiers = {
        (akey[m.area_id], pkey[m.power_id]): m.value for m in rows.of(NationalModifier)
    }
    world.corps = [
        state.Corps(
            c.pk,
            pkey[c.power_id],
            akey[c.area_id],
            Name(c.name),  # "1st Corps" read as "1-й корпус" (rules.translation.named)
            akey.get(c.minor_id),
            c.fought,
            c.besieged,
            c.besieging,
        )
        for c in rows.of(Corps, order=("pk",))
    ]
    world.revolts = [
        state.Revolt(
            r.pk,
            pkey[r.sponsor_id],
            akey[r.area_id],
            r.number,
            r.months_without_guerrillas,
            r.capital_held_months,
            r.active,
            r.end_reason,
            r.conquest_choice,
        )
        for r in rows.of(Revolt, order=("pk",), active=True)
    ]
    world.guerrillas = [
        state.Guerrilla(
            g.pk,
            akey[g.area_id],
            pkey[g.nationality_id],
            g.factors,
            akey[g.origin_id],
            g.revolt,
            g.besieged,
        )
        for g in rows.of(GuerrillaStack, order=("pk",))
    ]
    world.depots = [
        state.Depot(d.pk, pkey[d.power_id], akey[d.area_id], d.port_city, d.garrison)
        for d in rows.of(Depot, order=("pk",))
    ]
    for relation in rows.of(PowerRelation):
        pair = frozenset((pkey[relation.a_id], pkey[relation.b_id]))
        (world.wars if relation.kind == PowerRelation.Kind.WAR else world.alliances).add(pair)
    world.let_downs = {(pkey[d.power_id], akey[d.area_id]): d.count for d in rows.of(LetDown)}
    return world, board


def _power(p: Power) -> state.Power:
    eia = getattr(p, "eia", None)
    return state.Power(
        p.key,
        p.display_name,
        zone=eia.zone if eia else "Neutral",
        political_points=eia.political_points if eia else 0,
        treasury=eia.treasury if eia else 0,
        pays_bad_roll=eia.pays_bad_roll if eia else True,
    )


def _area(a: Area, pkey: dict[int, str]) -> state.Area:
    eia = getattr(a, "eia", None)
    return state.Area(
        a.key,
        a.display_name,
        a.kind,
        controller=pkey.get(a.controller_id) if a.controller_id is not None else None,
        home_power=pkey.get(a.home_power_id) if a.home_power_id is not None else None,
        ceded=eia.ceded if eia else False,
        manpower=eia.manpower if eia else 0,
        guerrilla_value=eia.guerrilla_value if eia else None,
        islamic=eia.islamic if eia else False,
        capital=a.capital,
        minor_status=eia.minor_status if eia else "",
    )


# -- writing back -------------------------------------------------------------------


def persist(loaded: Loaded, campaign: Campaign, phase: Phase | None, actor) -> None:
    """Write what changed in the World, then its log lines and rolls."""
    world, before = loaded.world, loaded.before
    _persist_powers(loaded)
    _persist_areas(loaded)
    p, a = loaded.power_ids, loaded.area_ids
    persistence.sync_rows(
        Corps,
        before.corps,
        world.corps,
        ["area", "fought", "besieged", "besieging"],
        lambda c, pk: Corps(
            pk=pk,
            campaign=campaign,
            power_id=p[c.power],
            area_id=a[c.area],
            minor_id=a.get(c.minor),
            name=c.name,
            fought=c.fought,
            besieged=c.besieged,
            besieging=c.besieging,
        ),
    )
    persistence.sync_rows(
        GuerrillaStack,
        before.guerrillas,
        [g for g in world.guerrillas if g.factors > 0],
        ["area", "factors", "besieged"],
        lambda g, pk: GuerrillaStack(
            pk=pk,
            campaign=campaign,
            area_id=a[g.area],
            origin_id=a[g.origin],
            nationality_id=p[g.nationality],
            factors=g.factors,
            revolt=g.revolt,
            besieged=g.besieged,
        ),
    )
    persistence.sync_rows(
        Depot,
        before.depots,
        world.depots,
        ["garrison"],
        lambda d, pk: Depot(
            pk=pk,
            campaign=campaign,
            power_id=p[d.power],
            area_id=a[d.area],
            port_city=d.port_city,
            garrison=d.garrison,
        ),
    )
    _persist_revolts(loaded, campaign)
    _persist_relations(loaded, campaign)
    _persist_cells(loaded, campaign)
    persistence.write_log(
        loaded.world.log, campaign, phase, actor, loaded.power_ids, loaded.area_ids
    )


def _persist_areas(loaded: Loaded) -> None:
    changed = [
        (loaded.area_ids[k], a)
        for k, a in loaded.world.areas.items()
        if a != loaded.before.areas[k]
    ]
    if not changed:
        return
    p = loaded.power_ids
    Area.objects.bulk_update(
        [
            Area(
                pk=pk,
                controller_id=p.get(a.controller),
                home_power_id=p.get(a.home_power),
            )
            for pk, a in changed
        ],
        ["controller", "home_power"],
    )
    EiaArea.objects.bulk_create(  # an area without its row (the admin deleted it) gets one
        [
            EiaArea(
                area_id=pk,
                ceded=a.ceded,
                manpower=a.manpower,
                guerrilla_value=a.guerrilla_value,
                islamic=a.islamic,
                minor_status=a.minor_status,
            )
            for pk, a in changed
        ],
        update_conflicts=True,
        unique_fields=["area"],
        update_fields=["ceded", "manpower", "guerrilla_value", "islamic", "minor_status"],
    )


def _persist_powers(loaded: Loaded) -> None:
    changed = [
        (loaded.power_ids[k], p)
        for k, p in loaded.world.powers.items()
        if p != loaded.before.powers[k]
        or loaded.world.militia_due.get(k, 0) != loaded.before.militia_due.get(k, 0)
    ]
    if not changed:
        return
    EiaPowerStatus.objects.bulk_create(  # a power without its row gets one
        [
            EiaPowerStatus(
                power_id=pk,
                zone=p.zone,
                treasury=p.treasury,
                political_points=p.political_points,
                pays_bad_roll=p.pays_bad_roll,
                militia_due=loaded.world.militia_due.get(p.key, 0),
            )
            for pk, p in changed
        ],
        update_conflicts=True,
        unique_fields=["power"],
        update_fields=["zone", "treasury", "political_points", "pays_bad_roll", "militia_due"],
    )


# What a Revolt row and the World's Revolt hold under the same names.
REVOLT_COLUMNS: tuple[str, ...] = ("number", "months_without_guerrillas", "capital_held_months")
REVOLT_COLUMNS += ("active", "end_reason", "conquest_choice")


def _persist_revolts(loaded: Loaded, campaign: Campaign) -> None:
    p, a = loaded.power_ids, loaded.area_ids

    def row(r: state.Revolt, pk: int | None) -> Revolt:
        return Revolt(
            pk=pk,
            campaign=campaign,
            sponsor_id=p[r.sponsor],
            area_id=a[r.area],
            **persistence.shared_fields(r, REVOLT_COLUMNS),
            started_turn=campaign.turn,
            ended_turn=None if r.active else campaign.turn,
        )

    # Ended revolts are written before new ones, so a new revolt in the same area
    # never meets the one-active-revolt-per-area constraint.
    fields = [
        "number",
        "months_without_guerrillas",
        "capital_held_months",
        "active",
        "end_reason",
        "conquest_choice",
        "ended_turn",
    ]
    old = {r.id: r for r in loaded.before.revolts}
    changed = [row(r, r.id) for r in loaded.world.revolts if r.id is not None and r != old[r.id]]
    persistence.update_rows(Revolt, changed, fields)
    created = [r for r in loaded.world.revolts if r.id is None]
    persistence.create_rows(Revolt, created, lambda r: row(r, None))


def _persist_relations(loaded: Loaded, campaign: Campaign) -> None:
    def rows(world: state.World) -> set[tuple[int, int, str]]:
        out: set[tuple[int, int, str]] = set()
        for kind, pairs in (
            (PowerRelation.Kind.WAR, world.wars),
            (PowerRelation.Kind.ALLIANCE, world.alliances),
        ):
            for pair in pairs:
                x, y = sorted(loaded.power_ids[k] for k in pair)
                out.add((x, y, kind))
        return out

    old, new = rows(loaded.before), rows(loaded.world)
    if old == new:
        return
    gone = [Q(a_id=x, b_id=y) for x, y, _ in old - new]
    if gone:
        PowerRelation.objects.filter(reduce(operator.or_, gone), campaign=campaign).delete()
    PowerRelation.objects.bulk_create(
        [PowerRelation(campaign=campaign, a_id=x, b_id=y, kind=k) for x, y, k in new - old]
    )


def _persist_cells(loaded: Loaded, campaign: Campaign) -> None:
    """Let-downs per (power, minor) and the Minor Country Chart per (minor, power)."""
    p, a = loaded.power_ids, loaded.area_ids
    persistence.upsert_changed(
        LetDown,
        loaded.before.let_downs,
        loaded.world.let_downs,
        ["count"],
        ["power", "area"],
        lambda key, n: LetDown(campaign=campaign, power_id=p[key[0]], area_id=a[key[1]], count=n),
    )
    persistence.upsert_changed(
        NationalModifier,
        loaded.before.national_modifiers,
        loaded.world.national_modifiers,
        ["value"],
        ["area", "power"],
        lambda key, v: NationalModifier(
            campaign=campaign, area_id=a[key[0]], power_id=p[key[1]], value=v
        ),
    )


def stored_world(loaded: Loaded) -> state.World:
    """The World as ``load_world`` reads it once ``persist`` has written it: the stacks
    left with no factors and the revolts that ended are no longer rows, each list in the
    order of its ids, and the log is in the database."""
    world = loaded.world
    return replace(
        world,
        corps=persistence.by_id(world.corps),
        guerrillas=persistence.by_id(g for g in world.guerrillas if g.factors > 0),
        revolts=persistence.by_id(r for r in world.revolts if r.active),
        depots=persistence.by_id(world.depots),
        log=[],
    )


# -- phase services -----------------------------------------------------------------


def loaded_from_page(world: state.World, campaign: Campaign) -> Loaded:
    """The World the pages keep (campaign/state/world_cache.py) as load_state gives it."""
    return Loaded.of_page(world, campaign, world.copy())


def _phase_service(resolver: Callable[..., phases.Outcomes]) -> Callable[[PhaseContext], None]:
    def write(loaded: Loaded, context: PhaseContext) -> None:
        persist(loaded, context.campaign, context.phase, context.actor)

    return persistence.phase_service(load_state, resolver, write, from_page=loaded_from_page)


resolve_peace = _phase_service(phases.resolve_peace)
resolve_revolt_step = _phase_service(phases.resolve_revolt_step)
resolve_land = _phase_service(phases.resolve_land)
resolve_conquest = _phase_service(phases.resolve_conquest)
resolve_economic = _phase_service(phases.resolve_economic)


# -- GM edits and standing orders ---------------------------------------------------


gm_edit = gm_edits.edit_service(
    EDITS,
    load_state,
    lambda loaded, campaign, actor: persist(loaded, campaign, campaign.phase, actor),
    settle=phases.immediate_checks,
    stored=stored_world,
    from_page=loaded_from_page,
)
gm_edit.__doc__ = """Apply one GM edit, run the immediate EIA-7 endings, log it with who made
it (and the order for the GM it carries out, ``carrying_out``: rules/gm_orders.py)."""


def set_standing_order(*, seat, pays_bad_roll: bool, actor) -> None:
    """A player's standing order: pay $d6 to stop a bad-roll rise (Decision 5). The log
    says that it changed, not what it says: other powers learn it only when it is used.
    It is kept with the open phase, as the input a replay makes again; the GM's open forms
    become stale, since the power edit shows the standing order."""
    with transaction.atomic():
        campaign = locked_campaign(seat.campaign_id)
        refuse_if_ended(campaign)
        EiaPowerStatus.objects.filter(power_id=seat.power_id).update(pays_bad_roll=pays_bad_roll)
        values = {"pays_bad_roll": pays_bad_roll}
        change = {"table": "eia_powers", "row": {"power": seat.power.key}, "values": values}
        record_input(campaign, seat, "standing_order", [change], actor)
        text = Text(
            "%(power)s set its standing order for bad anti-guerrilla rolls "
            "(seen by its player and the GM).",
            power=seat.power.display_name,
        )
        Event.objects.create(
            campaign=campaign,
            phase_id=campaign.phase_id,
            turn=campaign.turn,
            kind=Event.Kind.ORDER,
            rule="EIA-4",
            actor=actor,
            power_id=seat.power_id,
            text=text,
            message=text.message(),
        )
        campaign.bump_version()
