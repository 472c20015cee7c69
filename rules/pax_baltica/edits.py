"""What the GM edits by hand: land moves, battles, and every value a campaign may need
to correct. Each edit changes the World and returns a Change: the sentence the log
shows, and, for an edit of a block, who may read it (the block's side) and what the
other side reads. A reference to something that does not exist, or a value the rules
cannot hold, raises EditError and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from rules.log import Change
from rules.pax_baltica.state import (
    FLEET,
    KIND_NAMES,
    KINDS,
    SEA,
    SIDES,
    TERRITORY,
    Block,
    World,
)
from rules.refusals import EditError, whole
from rules.text import Plural, Text

STRENGTH_RANGE = (0, 6)  # a block's steps; 0 only for a block in the pool
MAX_STRENGTH_RANGE = (1, 6)
TRAINS_RANGE = (0, 4)
RP_RANGE = (0, 99)
EVENT_RP_RANGE = (-99, 99)
GARRISON_RANGE = (0, 9)
FORAGE_RANGE = (0, 9)
ACTIONS_RANGE = (0, 20)
RATING = re.compile(r"[A-D][1-6]")


def _nation(world: World, key: str | None) -> str:
    if key not in world.nations:
        raise EditError(Text("There is no nation “%(key)s”.", key=key))
    return key


def _area(world: World, key: str | None, kind: str | None = None) -> str:
    area = world.territories.get(key) if key is not None else None
    if area is None or (kind is not None and area.kind != kind):
        if kind == SEA:
            raise EditError(Text("There is no sea zone “%(key)s”.", key=key))
        raise EditError(Text("There is no territory “%(key)s”.", key=key))
    return area.key


def _block(world: World, block_id: int | None) -> Block:
    block = world.blocks.get(block_id) if block_id is not None else None
    if block is None:
        raise EditError(Text("There is no block #%(id)s.", id=block_id))
    return block


def _where(world: World, key: str | None) -> str:
    return world.territories[key].name if key else Text("the pool")


def _secret(world: World, block: Block, text: Text, redacted: Text) -> Change:
    side = world.side_of(block.nation)
    return Change(text, world.side_powers(side), redacted)


def _check_location(world: World, kind: str, location: str | None, carried_by: int | None):
    if location is None:
        return
    _area(world, location)
    area = world.territories[location]
    if kind == FLEET and area.kind == TERRITORY and not area.port:
        raise EditError(
            Text(
                "A fleet can only be in a sea zone or a port; %(territory)s has no port.",
                territory=area.name,
            )
        )
    if kind != FLEET and area.kind == SEA and carried_by is None:
        raise EditError(Text("An army or regiment at sea must be carried by a fleet."))


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
    whole(max_strength, MAX_STRENGTH_RANGE, Text("The maximum strength"))
    whole(strength, (0 if location is None else 1, max_strength), Text("The strength"))
    whole(supply_trains, TRAINS_RANGE, Text("Supply trains"))
    if not RATING.fullmatch(rating or ""):
        raise EditError(Text("The rating is a letter A–D and a number 1–6, like C1."))
    if carried_by is not None:
        fleet = _block(world, carried_by)
        if fleet.kind != FLEET or fleet.nation != target.nation or fleet.location != location:
            raise EditError(Text("A block is carried by a fleet of its nation in the same place."))
        if target.kind == FLEET:
            raise EditError(Text("A fleet is not carried."))
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
    return _block_change(world, target, before)


def _block_change(world: World, block: Block, before: str | None) -> Change:
    """The edited block's values for its side; for the other side, only that a block of
    its nation moved (from where to where) or was corrected."""
    nation = world.nations[block.nation].name
    fields = {
        "strength": block.strength,
        "max": block.max_strength,
        "rating": block.rating,
    }
    if block.in_battle:
        values = Plural(
            "strength %(strength)s/%(max)s, %(rating)s, %(count)s supply train, in a battle",
            "strength %(strength)s/%(max)s, %(rating)s, %(count)s supply trains, in a battle",
            count=block.supply_trains,
            **fields,
        )
    else:
        values = Plural(
            "strength %(strength)s/%(max)s, %(rating)s, %(count)s supply train",
            "strength %(strength)s/%(max)s, %(rating)s, %(count)s supply trains",
            count=block.supply_trains,
            **fields,
        )
    if before == block.location:
        text = Text(
            "%(block)s (%(nation)s): %(values)s", block=block.name, nation=nation, values=values
        )
        return _secret(world, block, text, Text("corrects a block of %(nation)s", nation=nation))
    route = {"start": _where(world, before), "end": _where(world, block.location)}
    text = Text(
        "%(block)s (%(nation)s) from %(start)s to %(end)s: %(values)s",
        block=block.name,
        nation=nation,
        values=values,
        **route,
    )
    redacted = Text("a block of %(nation)s moves from %(start)s to %(end)s", nation=nation, **route)
    return _secret(world, block, text, redacted)


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
        raise EditError(
            Text("A block is an army, a regiment or a fleet, not “%(kind)s”.", kind=kind)
        )
    name = (name or "").strip()
    if not name or any(b.name == name for b in world.blocks.values()):
        raise EditError(Text("Give the block a name no other block has (“%(name)s”).", name=name))
    whole(max_strength, MAX_STRENGTH_RANGE, Text("The maximum strength"))
    whole(strength, (1, max_strength), Text("The strength"))
    whole(supply_trains, TRAINS_RANGE, Text("Supply trains"))
    if not RATING.fullmatch(rating or ""):
        raise EditError(Text("The rating is a letter A–D and a number 1–6, like C1."))
    _check_location(world, kind, location, None)
    # no id until persist stores it and stored_world keys it by its id: the phases, which
    # read only stored blocks, take a block's id for an int
    new_id = cast(int, None)
    block = Block(
        new_id, nation, kind, name, strength, max_strength, rating, supply_trains, location
    )
    world.blocks[f"new:{name}"] = block
    where, nation_name = _where(world, location), world.nations[nation].name
    text = Text(
        "adds %(block)s (%(nation)s %(kind)s, %(strength)s/%(max)s, %(rating)s) in %(area)s",
        block=name,
        nation=nation_name,
        kind=KIND_NAMES[kind],
        strength=strength,
        max=max_strength,
        rating=rating,
        area=where,
    )
    redacted = Text("adds a block of %(nation)s in %(area)s", nation=nation_name, area=where)
    return _secret(world, block, text, redacted)


def record_battle(world: World, *, territory: str, winner: str, fought: list[int]) -> Change:
    """GNW-3: a battle in a territory this season: who won and which blocks fought."""
    area = world.territories[_area(world, territory, TERRITORY)]
    if winner not in SIDES:
        raise EditError(Text("Choose the side that won."))
    blocks = [_block(world, i) for i in fought]
    for block in blocks:
        if block.location != territory:
            raise EditError(
                Text("%(block)s is not in %(territory)s.", block=block.name, territory=area.name)
            )
        block.in_battle = True
    area.battle_winner = winner
    return Change(
        Plural(
            "battle in %(territory)s: %(side)s won (%(count)s block fought)",
            "battle in %(territory)s: %(side)s won (%(count)s blocks fought)",
            count=len(blocks),
            territory=area.name,
            side=SIDES[winner],
        )
    )


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
        whole(rp_level, RP_RANGE, Text("The RP level"))
    whole(event_rp, EVENT_RP_RANGE, Text("Event RP"))
    for key in deployment:
        _area(world, key, TERRITORY)
    for key in fleet_ports:
        if not world.territories[_area(world, key, TERRITORY)].port:
            raise EditError(
                Text("%(territory)s has no port.", territory=world.territories[key].name)
            )
    target.rp_level, target.event_rp, target.forced_peace = rp_level, event_rp, forced_peace
    target.deployment, target.fleet_ports = tuple(deployment), tuple(fleet_ports)
    fields = {
        "nation": target.name,
        "level": Text("none") if rp_level is None else rp_level,
        "event_rp": f"{event_rp:+d}",
    }
    if forced_peace:
        return Change(
            Text(
                "%(nation)s: RP level %(level)s, event RP %(event_rp)s for the next recruitment, "
                "peace forced",
                **fields,
            )
        )
    return Change(
        Text(
            "%(nation)s: RP level %(level)s, event RP %(event_rp)s for the next recruitment",
            **fields,
        )
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
    whole(garrison, GARRISON_RANGE, Text("The garrison"))
    whole(forage_points, FORAGE_RANGE, Text("Forage points"))
    area.controller, area.garrison, area.forage_points = controller, garrison, forage_points
    area.port, area.transit, area.in_poland, area.surrendered = (
        port,
        transit,
        in_poland,
        surrendered,
    )
    return Change(
        Text(
            "%(territory)s: held by %(nation)s, garrison %(garrison)s, FP %(fp)s",
            territory=area.name,
            nation=world.nations[controller].name if controller else Text("nobody"),
            garrison=garrison,
            fp=forage_points,
        )
    )


def edit_side(
    world: World, *, side: str, actions: int, actions_per_season: int, first: bool = False
) -> Change:
    """A side's actions left this season, the actions each season brings, and whether it
    acts first (the season's action roll decides; the seed's 8.4 has the Coalition first)."""
    if side not in SIDES:
        raise EditError(Text("There is no side “%(side)s”.", side=side))
    whole(actions, ACTIONS_RANGE, Text("Actions"))
    whole(actions_per_season, ACTIONS_RANGE, Text("Actions per season"))
    world.actions[side], world.season_actions[side] = actions, actions_per_season
    if first:
        world.actions = {side: actions, **{k: v for k, v in world.actions.items() if k != side}}
    fields = {"side": SIDES[side], "per_season": actions_per_season}
    if first:
        return Change(
            Plural(
                "%(side)s: %(count)s action left this season, %(per_season)s each season and "
                "acts first",
                "%(side)s: %(count)s actions left this season, %(per_season)s each season and "
                "acts first",
                count=actions,
                **fields,
            )
        )
    return Change(
        Plural(
            "%(side)s: %(count)s action left this season, %(per_season)s each season",
            "%(side)s: %(count)s actions left this season, %(per_season)s each season",
            count=actions,
            **fields,
        )
    )


EDITS: dict[str, Callable[..., Change]] = {
    "block": edit_block,
    "block_add": add_block,
    "battle": record_battle,
    "nation": edit_nation,
    "territory": edit_territory,
    "side": edit_side,
}
