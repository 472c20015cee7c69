"""Which nations have something to order in a phase, from what every player sees.

The phases wait only for them (campaign.scheduling). Each test reads only what the
pages show everyone (RP levels, actions left, how many blocks stand where or wait in a
pool), never a hidden block's kind or strength, so that whom a phase waits for gives
nothing away. Pure: no Django.
"""

from __future__ import annotations

from collections import Counter

from rules.pax_baltica import procedures as gnw
from rules.pax_baltica.state import SEA, World, option


def _on_map(world: World, nation: str) -> list[str]:
    """Where each of the nation's blocks on the map stands (one entry per block)."""
    return [b.location for b in world.blocks.values() if b.nation == nation and not b.in_pool]


def can_recruit(world: World, nation: str) -> bool:
    """Recruitment (GNW-6): RP to spend, and blocks on the map or in the pool."""
    rp = gnw.rp_available(world.nations[nation])
    return rp > 0 and bool(_on_map(world, nation) or world.pool(nation))


def can_act(world: World, nation: str) -> bool:
    """Actions (GNW-8, GNW-13, GNW-1): its side has actions left and it has blocks on
    the map (the GM carries out land moves and battles)."""
    left = world.actions.get(world.side_of(nation), 0)
    return left > 0 and bool(_on_map(world, nation))


def orders_forage_losses(world: World, nation: str) -> bool:
    """Forage (GNW-4, Decision 2): the owner orders the losses after the first, which
    always fall on the strongest block, so only a nation with two blocks or more in one
    land territory, and only while the owner orders them."""
    if option(world.options, "forage_further_losses") != "owner_order":
        return False
    land = Counter(
        where
        for where in _on_map(world, nation)
        if where in world.territories and world.territories[where].kind != SEA
    )
    return any(count > 1 for count in land.values())
