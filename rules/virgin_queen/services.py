"""Virgin Queen services: the only code that reads and writes Virgin Queen state.

An impulse's service starts the action its power ordered; a conversion or a revolt that
needs decisions is stored as the campaign's VqPending and the phase waits (WAITING).
``decide`` applies one answer and either waits again or lets the phase resolve. Each
call loads the whole World in a fixed number of queries and writes back only what
changed, with every roll and log line.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace

from django.utils.translation import gettext

from rules.platform import (
    WAITING,
    Adjacency,
    Area,
    Campaign,
    LiveRows,
    Name,
    Phase,
    PhaseContext,
    Power,
    PowerRelation,
    ServiceError,
    StateRows,
    gm_edits,
    localized,
    persistence,
)
from rules.text import Text
from rules.virgin_queen import phases, state
from rules.virgin_queen import procedures as vq
from rules.virgin_queen.edits import EDITS
from rules.virgin_queen.models import VqLeader, VqPending, VqPower, VqSpace, VqUnits, VqZone

SEA = "sea"
LAND_LINKS = (Adjacency.Kind.LAND, Adjacency.Kind.PASS)
CANCEL = "cancel"  # the GM's answer that ends a procedure stuck after an edit at the table


@dataclass
class Loaded(persistence.Loaded):
    """The World as persistence.Loaded holds it, with the procedure under way (if any)."""

    pending: vq.Pending | None = None

    @property
    def adjacency(self) -> dict[str, set[str]]:
        """Land, pass and port–sea links, for the map's lines."""
        links = {key: set(near) for key, near in self.world.adjacency.items()}
        for port, zones in self.world.sea_zones.items():
            links.setdefault(port, set()).update(zones)
        return links


def load_state(campaign: Campaign, rows: StateRows | None = None) -> Loaded:
    """Read every piece of Virgin Queen state of the campaign (nine queries); ``rows``:
    from there instead of the database (a snapshot: campaign/state/snapshots.py)."""
    rows = rows or LiveRows(campaign)
    board = persistence.Board.read(rows, "virgin_queen")
    powers, areas, pkey, akey = board.powers, board.areas, board.power_key, board.area_key
    kinds = {a.key: a.kind for a in areas}
    zones = rows.of(VqZone)
    world = state.World(
        spaces={a.key: _space(a, pkey) for a in areas if a.kind != SEA},
        adjacency={},
        units={
            u.pk: state.Units(u.pk, pkey[u.power_id], u.kind, akey[u.area_id], u.count)
            for u in rows.of(VqUnits)
        },
        leaders={
            leader.pk: state.Leader(
                leader.pk,
                Name(leader.name),  # read in the reader's language, like the spaces' names
                pkey[leader.power_id],
                leader.kind,
                akey.get(leader.area_id),
                leader.zone,
                leader.can_enter,
            )
            for leader in rows.of(VqLeader)
        },
        capitals={
            z.key: state.TURN_TRACK if z.capital_on_turn_track else akey.get(z.capital_id)
            for z in zones
        },
        counter_mix={z.key: z.regulars_available for z in zones},
        turn=campaign.turn,
        markers={p.key: _markers(p) for p in powers if hasattr(p, "virgin_queen")},
        catholic_powers=frozenset(
            p.key for p in powers if hasattr(p, "virgin_queen") and p.virgin_queen.catholic
        ),
        options=campaign.rule_options,
    )
    for a, b, kind in board.links(campaign):
        if kinds[a] == SEA or kinds[b] == SEA:
            port, zone = (b, a) if kinds[a] == SEA else (a, b)
            if kinds[port] != SEA:
                world.sea_zones.setdefault(port, set()).add(zone)
        elif kind in LAND_LINKS:  # VQ-1 (b) and VQ-2 count land and pass links only
            world.adjacency.setdefault(a, set()).add(b)
            world.adjacency.setdefault(b, set()).add(a)
    world.wars = {
        frozenset((pkey[r.a_id], pkey[r.b_id]))
        for r in rows.of(PowerRelation, kind=PowerRelation.Kind.WAR)
    }
    row = next(iter(rows.of(VqPending, related=("waiting_for",))), None)
    pending = (
        vq.Pending(row.kind, row.stage, row.waiting_for.key, row.data) if row is not None else None
    )
    return Loaded.of(world, board, campaign, pending=pending)


def load_world(campaign: Campaign, rows: StateRows | None = None) -> Loaded:
    """The campaign's Virgin Queen state with the procedure under way, for pages
    (``rows``: see load_state)."""
    return load_state(campaign, rows)


# What a VqSpace row and the World's Space hold under the same names.
SPACE_FIELDS: tuple[str, ...] = ("zone", "religion", "unrest", "fortified", "key_space")
SPACE_FIELDS += ("port", "protestant_home", "besieged")


def _space(a: Area, pkey: dict[int, str]) -> state.Space:
    vq_space = getattr(a, "virgin_queen", None)
    fields = {}
    if vq_space is not None:
        fields = persistence.shared_fields(vq_space, SPACE_FIELDS)
        fields["capital_of"] = pkey.get(vq_space.capital_of_id)
    return state.Space(
        a.key,
        a.display_name,
        controller=pkey.get(a.controller_id) if a.controller_id is not None else None,
        home_power=pkey.get(a.home_power_id) if a.home_power_id is not None else None,
        **fields,
    )


def _markers(p: Power) -> state.Markers:
    row = p.virgin_queen
    return state.Markers(row.informant, row.assassination_used, row.cipher_key)


# -- writing back -------------------------------------------------------------------


def persist(loaded: Loaded, phase: Phase | None, actor) -> None:
    """Write what changed in the World, then its log lines and rolls."""
    _persist_spaces(loaded)
    _persist_powers(loaded)
    _persist_zones(loaded)
    _persist_wars(loaded)
    p, a, campaign = loaded.power_ids, loaded.area_ids, loaded.campaign
    assert campaign is not None  # load_state reads the World with its campaign
    persistence.sync_rows(
        VqUnits,
        loaded.before.units.values(),
        [u for u in loaded.world.units.values() if u.count > 0],
        ["area", "count"],
        lambda u, pk: VqUnits(
            pk=pk,
            campaign=campaign,
            power_id=p[u.power],
            kind=u.kind,
            area_id=a[u.space],
            count=u.count,
        ),
    )
    persistence.sync_rows(
        VqLeader,
        loaded.before.leaders.values(),
        loaded.world.leaders.values(),
        ["area", "can_enter"],
        lambda leader, pk: VqLeader(
            pk=pk,
            campaign=campaign,
            name=leader.name,
            power_id=p[leader.power],
            kind=leader.kind,
            area_id=a.get(leader.space),
            zone=leader.zone,
            can_enter=leader.can_enter,
        ),
    )
    persistence.write_log(loaded.world.log, campaign, phase, actor, p, a)


def _persist_spaces(loaded: Loaded) -> None:
    changed = persistence.changed_items(loaded.before.spaces, loaded.world.spaces)
    if not changed:
        return
    persistence.write_controllers(loaded, changed)
    p, a = loaded.power_ids, loaded.area_ids
    VqSpace.objects.bulk_update(
        [
            VqSpace(
                area_id=a[s.key],
                capital_of_id=p.get(s.capital_of),
                **persistence.shared_fields(s, SPACE_FIELDS),
            )
            for s in changed
        ],
        [*SPACE_FIELDS, "capital_of"],
    )


def _persist_powers(loaded: Loaded) -> None:
    before, catholic = loaded.before.markers, loaded.world.catholic_powers
    changed = {
        k: m
        for k, m in loaded.world.markers.items()
        if m != before.get(k) or (k in catholic) != (k in loaded.before.catholic_powers)
    }
    if changed:
        VqPower.objects.bulk_update(
            [
                VqPower(
                    power_id=loaded.power_ids[k],
                    catholic=k in loaded.world.catholic_powers,
                    informant=m.informant,
                    assassination_used=m.assassination_used,
                    cipher_key=m.cipher_key,
                )
                for k, m in changed.items()
            ],
            ["catholic", "informant", "assassination_used", "cipher_key"],
        )


def _persist_zones(loaded: Loaded) -> None:
    world, before = loaded.world, loaded.before
    if world.capitals == before.capitals and world.counter_mix == before.counter_mix:
        return
    persistence.upsert_changed(
        VqZone,
        {k: (before.capitals.get(k), before.counter_mix.get(k, 0)) for k in before.capitals},
        {k: (world.capitals.get(k), world.counter_mix.get(k, 0)) for k in world.capitals},
        ["capital", "capital_on_turn_track", "regulars_available"],
        ["campaign", "key"],
        lambda key, v: VqZone(
            campaign=loaded.campaign,
            key=key,
            name=state.zone_name(key),
            capital_id=loaded.area_ids.get(v[0]),
            capital_on_turn_track=v[0] == state.TURN_TRACK,
            regulars_available=v[1],
        ),
    )


def _persist_wars(loaded: Loaded) -> None:
    new = loaded.world.wars - loaded.before.wars
    gone = loaded.before.wars - loaded.world.wars
    p = loaded.power_ids
    for pair in gone:
        x, y = sorted(p[k] for k in pair)
        PowerRelation.objects.filter(campaign=loaded.campaign, a_id=x, b_id=y).delete()
    if new:
        rows = [sorted(p[k] for k in pair) for pair in new]
        PowerRelation.objects.bulk_create(
            [PowerRelation(campaign=loaded.campaign, a_id=x, b_id=y, kind="war") for x, y in rows],
            update_conflicts=True,
            unique_fields=["a", "b"],
            update_fields=["kind"],
        )


def _save_pending(loaded: Loaded, phase: Phase, pending: vq.Pending | None) -> str | None:
    """Store the procedure under way (WAITING), or clear it (None: the phase may end)."""
    if pending is None:
        VqPending.objects.filter(campaign=loaded.campaign).delete()
        return None
    VqPending.objects.update_or_create(
        campaign=loaded.campaign,
        defaults={
            "phase": phase,
            "kind": pending.kind,
            "stage": pending.stage,
            "waiting_for_id": loaded.power_ids[pending.waiting_for],
            "data": pending.data,
        },
    )
    return WAITING


# -- the impulse and its decisions --------------------------------------------------


def resolve_impulse(context: PhaseContext) -> str | None:
    """Start the action the impulse's power ordered; WAITING when it needs decisions."""
    loaded = load_state(context.campaign)
    power = context.campaign.rules.phase(context.phase.key).orders_from
    order, defaulted = context.orders.get(power), power in context.defaulted
    impulse = phases.start_action(loaded.world, power, order, context.dice, defaulted=defaulted)
    persist(loaded, context.phase, context.actor)
    return _save_pending(loaded, context.phase, impulse.pending)


def decide(*, campaign, phase, power_key, answer, actor, as_gm) -> str | None:
    """Apply an answer to the procedure under way (the platform's decision service)."""
    loaded = load_state(campaign)
    if loaded.pending is None:
        raise ServiceError(gettext("Nothing waits for a decision."))
    if as_gm and answer.get(CANCEL):
        loaded.world.say("", _cancelled(loaded.pending.kind))
        persist(loaded, phase, actor)
        return _save_pending(loaded, phase, None)
    try:
        progress = vq.decide(loaded.world, loaded.pending, power_key, answer, as_gm=as_gm)
    except vq.Refused as refusal:
        raise ServiceError(localized(refusal.text)) from None
    persist(loaded, phase, actor)
    return _save_pending(loaded, phase, progress.pending)


def default_decision(loaded: Loaded) -> tuple[str, dict] | None:
    """The power the procedure under way waits for, and the answer it gives when its
    player is not there (procedures.default_answer); None when nothing waits."""
    if loaded.pending is None:
        return None
    return loaded.pending.waiting_for, vq.default_answer(loaded.world, loaded.pending)


def _cancelled(kind: str) -> Text:
    if kind == "conversion":
        return Text("The GM cancels the conversion: the impulse ends as it stands.")
    return Text("The GM cancels the revolt: the impulse ends as it stands.")


def turn_started(campaign: Campaign, turn: int, actor) -> None:
    """A new turn: a Protestant capital captured last turn leaves the turn track (step 7
    only bars a capital captured earlier in the same turn); at the start of turn 3 every
    power receives its espionage markers (VQ-3)."""
    loaded = load_state(campaign)
    world = loaded.world
    for zone, capital in world.capitals.items():
        if capital == state.TURN_TRACK:
            world.capitals[zone] = None
            world.say(
                "VQ-2",
                Text(
                    "Turn %(turn)s: the Protestant's capital for %(zone)s leaves the turn track; "
                    "a new one may be placed after a revolt (step 7).",
                    turn=turn,
                    zone=state.zone_name(zone),
                ),
            )
    vq.espionage_markers(world)
    persist(loaded, campaign.phase, actor)


# -- GM edits -----------------------------------------------------------------------


def _no_decision_waits(loaded: Loaded) -> None:
    """The map is not edited while a conversion or a revolt waits for a decision."""
    if loaded.pending is not None:
        raise ServiceError(_edit_waits(loaded.pending))


def stored_state(loaded: Loaded) -> Loaded:
    """What ``load_world`` reads once ``persist`` has written ``loaded``: the stacks left
    with no units are no longer rows, new stacks and leaders are keyed by the ids of
    their rows, and the log is in the database."""
    world = loaded.world
    units = {u.id: u for u in world.units.values() if u.count > 0}
    leaders = {leader.id: leader for leader in world.leaders.values()}
    world = replace(world, units=units, leaders=leaders, log=[])
    return replace(loaded, world=world, before=copy.deepcopy(world))


gm_edit = gm_edits.edit_service(
    EDITS,
    load_state,
    lambda loaded, campaign, actor: persist(loaded, campaign.phase, actor),
    ready=_no_decision_waits,
    stored=stored_state,
    from_page=lambda loaded, campaign: replace(loaded, campaign=campaign),  # pages read it
)
gm_edit.__doc__ = """Apply one GM edit and log it with who made it (and the order for the GM
it carries out, ``carrying_out``: rules/gm_orders.py); returns the edit's Text."""


def _edit_waits(pending: vq.Pending) -> str:
    """Why the map cannot be edited now, in the active language."""
    power = localized(state.power_title(pending.waiting_for))
    if pending.kind == "conversion":
        text = gettext(
            "A conversion waits for %(power)s's decision: answer it (or cancel it) on the "
            "dashboard before editing the map."
        )
    else:
        text = gettext(
            "A revolt waits for %(power)s's decision: answer it (or cancel it) on the "
            "dashboard before editing the map."
        )
    return text % {"power": power}
