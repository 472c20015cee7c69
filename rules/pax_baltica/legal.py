"""Which nations have something to order in a phase.

The phases wait only for them (campaign.play.scheduling), and each phase's order form offers
exactly these choices (tests/services/test_owing_agrees.py). A nation has something to
order only where its choice can change the outcome, which reads its own blocks (their
strength, a line of communication): whom a phase waits for tells the other side that a
nation has such a choice, no more: a deliberate trade, since a phase that waited for a
nation with nothing to decide would stall the campaign.
Pure: no Django.
"""

from __future__ import annotations

from itertools import permutations

from rules.pax_baltica import procedures as gnw
from rules.pax_baltica import supply
from rules.pax_baltica.phases import check_siege, forage_checks
from rules.pax_baltica.state import ARMY, FLEET, REGIMENT, TERRITORY, Block, World, option
from rules.refusals import reason_for


def can_reinforce(world: World, block: Block) -> bool:
    """GNW-7: a block on the map below full strength that may gain a step now (a line of
    communication and nothing else in the way: ``procedures.check_reinforcement``)."""
    if block.in_pool or block.strength >= block.max_strength:
        return False
    has_line = supply.line_of_communication(world, block.nation, block.location) is not None
    return reason_for(gnw.check_reinforcement, world, block, 1, has_line) is None


def reinforceable(world: World, nation: str) -> list[Block]:
    """GNW-7/GNW-8: the nation's blocks that may gain a step now, by name."""
    blocks = (b for b in world.blocks.values() if b.nation == nation and can_reinforce(world, b))
    return sorted(blocks, key=lambda b: b.name)


def movable_fleets(world: World, nation: str) -> list[Block]:
    """GNW-13: the nation's fleets on the map (not carried) with somewhere to go."""
    return [
        b
        for b in world.blocks.values()
        if b.nation == nation
        and b.kind == FLEET
        and not b.in_pool
        and b.carried_by is None
        and supply.fleet_destinations(world, b)
    ]


def siege_targets(world: World, nation: str) -> dict[str, list[Block]]:
    """GNW-1: the enemy-held territories the nation may besiege, each with its army and
    regiment blocks there (``phases.check_siege``)."""
    found: dict[str, list[Block]] = {}
    for block in sorted(world.blocks.values(), key=lambda b: b.name):
        on_land = block.location if block.carried_by is None else None
        if block.nation == nation and on_land is not None and block.kind in (ARMY, REGIMENT):
            found.setdefault(on_land, []).append(block)
    territories = world.territories
    return {
        key: blocks
        for key, blocks in found.items()
        if territories[key].kind == TERRITORY
        and reason_for(check_siege, world, nation, territories[key], blocks) is None
    }


def actions_left(world: World, nation: str) -> int:
    """GNW-8: the actions its side has left this season (allies share them)."""
    return world.actions.get(world.side_of(nation), 0)


def rp_to_spend(world: World, nation: str) -> int:
    """GNW-6: the RP the nation may spend this recruitment phase."""
    return gnw.rp_available(world.nations[nation])


def can_recruit(world: World, nation: str) -> bool:
    """Recruitment (GNW-6): RP to spend, and a block that may gain a step or a pool to
    draw from. Whether a nation owes recruitment orders tells the others that it has a
    block below full strength somewhere, which the redacted log of the phase tells them
    soon after anyway."""
    return rp_to_spend(world, nation) > 0 and bool(
        world.pool(nation) or reinforceable(world, nation)
    )


def can_act(world: World, nation: str) -> bool:
    """Actions (GNW-8, GNW-13, GNW-1): its side has actions left and it has a block to
    give a step, a fleet to move or a territory to besiege (the GM carries out land
    moves and battles, which are orders for the GM)."""
    return actions_left(world, nation) > 0 and bool(
        reinforceable(world, nation)
        or movable_fleets(world, nation)
        or siege_targets(world, nation)
    )


def orders_forage_losses(world: World, nation: str) -> bool:
    """Forage (GNW-4, Decision 2): the nation's loss order can change which of its blocks
    lose steps somewhere (``forage_loss_choices``)."""
    return bool(forage_loss_choices(world, nation))


def forage_loss_choices(world: World, nation: str) -> dict[str, list[Block]]:
    """GNW-4, Decision 2: the land territories where the nation's loss order can change
    the forage losses, each with its army and regiment blocks there (two or more), while
    the owner orders them. The order form offers exactly these blocks.

    Its loss order matters where the deficit can reach a block it may choose: after the
    first loss, which falls on the strongest (a tie broken by the order), or in that tie.
    Where its side eats after the other side's blocks (Decision 7, shared), what is left
    for it would tell what the hidden blocks eat: any territory with two of its blocks
    counts there. Reads the nation's own blocks, which its player sees; others learn only
    that it has a choice, as the log of every shortage soon tells them."""
    if option(world.options, "forage_further_losses") != "owner_order":
        return {}
    choices = {}
    for group, check in forage_checks(world):
        own = [b for b in group if b.nation == nation]
        if len(own) < 2:
            continue
        hidden = eats_after_the_enemy(world, nation, check.territory)
        if hidden or _loss_order_matters(group, own, check.deficit):
            choices[check.territory] = own
    return choices


def _loss_order_matters(group: list[Block], own: list[Block], deficit: int) -> bool:
    """Whether two loss orders of the nation's blocks give different forage losses:
    every order of up to five blocks able to lose a step is tried (of more, the orders of
    up to three of them, to keep it quick)."""
    strengths = {b.id: b.strength for b in group if b.strength > 0}
    able = [b.id for b in own if b.strength > 1]
    if not deficit or not able:
        return False
    longest = len(able) if len(able) <= 5 else 3
    seen = set()
    for length in range(longest + 1):
        for order in permutations(able, length):
            seen.add(frozenset(gnw.forage_losses(strengths, deficit, order, True).items()))
            if len(seen) > 1:
                return True
    return False


def eats_after_the_enemy(world: World, nation: str, territory: str) -> bool:
    """Whether, under Decision 7's shared forage, the other side's blocks in the territory
    eat first (it is not the nation's side's): how much they leave tells how much they
    eat, which is hidden."""
    if option(world.options, "forage_both_sides") != "shared":
        return False
    side = world.side_of(nation)
    controller = world.territories[territory].controller
    if controller is not None and world.side_of(controller) == side:
        return False
    return any(world.side_of(b.nation) != side for b in world.blocks_in(territory))


def actions_ordered(payload: dict) -> int:
    """The actions a saved actions order spends (GNW-8, GNW-13, GNW-1): each step's
    actions, 1 a fleet move, 1 a siege."""
    steps = sum(item.get("actions", 0) for item in payload.get("reinforce", []))
    return steps + len(payload.get("fleet_moves", [])) + len(payload.get("sieges", []))
