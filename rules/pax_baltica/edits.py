"""What the GM edits by hand: land moves, battles, and every value a campaign may need
to correct. Each edit changes the World and returns a Change: the sentence the log
shows, and, for an edit of a block, who may read it (the block's side) and what the
other side reads. A reference to something that does not exist, or a value the rules
cannot hold, raises EditError and changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.pax_baltica.state import (
    FLEET,
    KINDS,
    SEA,
    SIDES,
    TERRITORY,
    Block,
    World,
)

STRENGTH_RANGE = (0, 6)  # a block's steps; 0 only for a block in the pool
MAX_STRENGTH_RANGE = (1, 6)
TRAINS_RANGE = (0, 4)
RP_RANGE = (0, 99)
EVENT_RP_RANGE = (-99, 99)
GARRISON_RANGE = (0, 9)
FORAGE_RANGE = (0, 9)
ACTIONS_RANGE = (0, 20)
RATING = re.compile(r"[A-D][1-6]")


class EditError(ValueError):
    """A GM edit that names something unknown or an impossible value."""


@dataclass(frozen=True)
class Change:
    text: str
    audience: tuple[str, ...] = ()  # empty: everyone reads the text
    redacted: str = ""  # what the rest read


def _whole(value: object, bounds: tuple[int, int], what: str) -> int:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EditError(f"{what} must be a whole number from {low} to {high}.")
    return value


def _nation(world: World, key: str | None) -> str:
    if key not in world.nations:
        raise EditError(f"There is no nation “{key}”.")
    return key


def _area(world: World, key: str | None, kind: str | None = None) -> str:
    area = world.territories.get(key)
    if area is None or (kind is not None and area.kind != kind):
        raise EditError(f"There is no {'sea zone' if kind == SEA else 'territory'} “{key}”.")
    return key


def _block(world: World, block_id: int | None) -> Block:
    block = world.blocks.get(block_id)
    if block is None:
        raise EditError(f"There is no block #{block_id}.")
    return block


def _where(world: World, key: str | None) -> str:
    return world.territories[key].name if key else "the pool"


def _secret(world: World, block: Block, text: str, redacted: str) -> Change:
    side = world.side_of(block.nation)
    return Change(text, world.side_powers(side), redacted)


def _check_location(world: World, kind: str, location: str | None, carried_by: int | None):
    if location is None:
        return
    _area(world, location)
    area = world.territories[location]
    if kind == FLEET and area.kind == TERRITORY and not area.port:
        raise EditError(f"A fleet can only be in a sea zone or a port; {area.name} has no port.")
    if kind != FLEET and area.kind == SEA and carried_by is None:
        raise EditError("An army or regiment at sea must be carried by a fleet.")


def edit_block(
    world: World,
    *,
    block: int,
    location: str | None,
    strength: int,
    max_strength: int,
    rating: str,
    supply_trains: int,
    carried_by: int | None,
    in_battle: bool,
) -> Change:
    """Move a block (a land move the GM enters, or back to the pool with no location),
    correct its values, have it carried by a fleet in the same place."""
    target = _block(world, block)
    _whole(max_strength, MAX_STRENGTH_RANGE, "The maximum strength")
    _whole(strength, (0 if location is None else 1, max_strength), "The strength")
    _whole(supply_trains, TRAINS_RANGE, "Supply trains")
    if not RATING.fullmatch(rating or ""):
        raise EditError("The rating is a letter A–D and a number 1–6, like C1.")
    if carried_by is not None:
        fleet = _block(world, carried_by)
        if fleet.kind != FLEET or fleet.nation != target.nation or fleet.location != location:
            raise EditError("A block is carried by a fleet of its nation in the same place.")
        if target.kind == FLEET:
            raise EditError("A fleet is not carried.")
    _check_location(world, target.kind, location, carried_by)
    before = target.location
    target.location, target.strength, target.max_strength = location, strength, max_strength
    target.rating, target.supply_trains = rating, supply_trains
    target.carried_by, target.in_battle = carried_by, in_battle and location is not None
    if before != location:
        target.besieging = False  # a declared siege stays where it was declared
        for cargo in world.blocks.values():
            if cargo.carried_by == target.id and target.id is not None:
                cargo.location = location
                cargo.carried_by = target.id if location is not None else None
    nation = world.nations[target.nation].name
    moved = (
        f" from {_where(world, before)} to {_where(world, location)}" if before != location else ""
    )
    return _secret(
        world,
        target,
        f"{target.name} ({nation}){moved}: strength {strength}/{max_strength}, {rating}, "
        f"{supply_trains} supply train(s)" + (", in a battle" if target.in_battle else ""),
        f"a {nation} block moves{moved}" if moved else f"corrects a {nation} block",
    )


def add_block(
    world: World,
    *,
    nation: str,
    kind: str,
    name: str,
    location: str | None,
    strength: int,
    max_strength: int,
    rating: str,
    supply_trains: int,
) -> Change:
    """A new block, on the map or in the pool."""
    _nation(world, nation)
    if kind not in KINDS:
        raise EditError(f"A block is an army, a regiment or a fleet, not “{kind}”.")
    name = (name or "").strip()
    if not name or any(b.name == name for b in world.blocks.values()):
        raise EditError(f"Give the block a name no other block has (“{name}”).")
    _whole(max_strength, MAX_STRENGTH_RANGE, "The maximum strength")
    _whole(strength, (1, max_strength), "The strength")
    _whole(supply_trains, TRAINS_RANGE, "Supply trains")
    if not RATING.fullmatch(rating or ""):
        raise EditError("The rating is a letter A–D and a number 1–6, like C1.")
    _check_location(world, kind, location, None)
    block = Block(None, nation, kind, name, strength, max_strength, rating, supply_trains, location)
    world.blocks[f"new:{name}"] = block
    where = _where(world, location)
    return _secret(
        world,
        block,
        f"adds {name} ({world.nations[nation].name} {kind}, {strength}/{max_strength}, {rating}) "
        f"in {where}",
        f"adds a {world.nations[nation].name} block in {where}",
    )


def record_battle(world: World, *, territory: str, winner: str, fought: list[int]) -> Change:
    """GNW-3: a battle in a territory this season: who won and which blocks fought."""
    area = world.territories[_area(world, territory, TERRITORY)]
    if winner not in SIDES:
        raise EditError("Choose the side that won.")
    blocks = [_block(world, i) for i in fought]
    for block in blocks:
        if block.location != territory:
            raise EditError(f"{block.name} is not in {area.name}.")
        block.in_battle = True
    area.battle_winner = winner
    return Change(f"battle in {area.name}: {SIDES[winner]} won ({len(blocks)} block(s) fought)")


def edit_nation(
    world: World,
    *,
    nation: str,
    rp_level: int | None,
    event_rp: int,
    forced_peace: bool,
    deployment: list[str],
    fleet_ports: list[str],
) -> Change:
    """A nation's RP level, event RP for the next recruitment, forced peace, and where
    its new blocks may be placed."""
    target = world.nations[_nation(world, nation)]
    if rp_level is not None:
        _whole(rp_level, RP_RANGE, "The RP level")
    _whole(event_rp, EVENT_RP_RANGE, "Event RP")
    for key in deployment:
        _area(world, key, TERRITORY)
    for key in fleet_ports:
        if not world.territories[_area(world, key, TERRITORY)].port:
            raise EditError(f"{world.territories[key].name} has no port.")
    target.rp_level, target.event_rp, target.forced_peace = rp_level, event_rp, forced_peace
    target.deployment, target.fleet_ports = tuple(deployment), tuple(fleet_ports)
    level = "none" if rp_level is None else rp_level
    return Change(
        f"{target.name}: RP level {level}, event RP {event_rp:+d} for the next recruitment"
        + (", peace forced" if forced_peace else "")
    )


def edit_territory(
    world: World,
    *,
    territory: str,
    controller: str | None,
    garrison: int,
    forage_points: int,
    port: bool,
    transit: bool,
    in_poland: bool,
    surrendered: bool,
) -> Change:
    """A territory's control and garrison marker, forage points and map features."""
    area = world.territories[_area(world, territory, TERRITORY)]
    if controller is not None:
        _nation(world, controller)
    _whole(garrison, GARRISON_RANGE, "The garrison")
    _whole(forage_points, FORAGE_RANGE, "Forage points")
    area.controller, area.garrison, area.forage_points = controller, garrison, forage_points
    area.port, area.transit, area.in_poland, area.surrendered = (
        port,
        transit,
        in_poland,
        surrendered,
    )
    held = world.nations[controller].name if controller else "nobody"
    return Change(f"{area.name}: held by {held}, garrison {garrison}, FP {forage_points}")


def edit_side(
    world: World, *, side: str, actions: int, actions_per_season: int, first: bool = False
) -> Change:
    """A side's actions left this season, the actions each season brings, and whether it
    acts first (the season's action roll decides; the seed's 8.4 has the Coalition first)."""
    if side not in SIDES:
        raise EditError(f"There is no side “{side}”.")
    _whole(actions, ACTIONS_RANGE, "Actions")
    _whole(actions_per_season, ACTIONS_RANGE, "Actions per season")
    world.actions[side], world.season_actions[side] = actions, actions_per_season
    if first:
        world.actions = {side: actions, **{k: v for k, v in world.actions.items() if k != side}}
    order = " and acts first" if first else ""
    return Change(
        f"{SIDES[side]}: {actions} action(s) left this season, {actions_per_season} each "
        f"season{order}"
    )


EDITS = {
    "block": edit_block,
    "block_add": add_block,
    "battle": record_battle,
    "nation": edit_nation,
    "territory": edit_territory,
    "side": edit_side,
}
