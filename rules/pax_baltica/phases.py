"""The Pax Baltica phase resolvers: each applies one phase's orders to the World.

Pure: no database. Each resolver reads the orders (power key → payload, as the order
forms clean them), calls the procedures, changes the World and writes log lines. A line
that names a block or its strength is for that block's side only (``audience``); the
other side reads the ``redacted`` text, as it would see wooden blocks across a table.
Orders are checked again here: the state may have changed since they were given.
Each resolver answers what happened (``Outcomes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.dice import (
    Dice,
    DrawCheck,
    DrawRoll,
    draw_context,
    drawn_by,
    secret_draw,
    secret_order,
)
from rules.modifiers import ModifiedRoll, RollReport
from rules.pax_baltica import procedures as gnw
from rules.pax_baltica import supply
from rules.pax_baltica.state import (
    ARMY,
    FLEET,
    FORAGE_DEMAND,
    REGIMENT,
    SIDES,
    TERRITORY,
    Block,
    Nation,
    Territory,
    World,
    option,
)
from rules.refusals import Refused, Skipped
from rules.text import Join, Plural, Text

FULL_STRENGTH = 0  # steps_each: buy every step up to full strength
DRAW_RULE = "GNW-10"  # the rule of a pool draw's roll

# What a resolver did, in order: the outcomes of the procedures it applied
# (gnw.Reinforcement, gnw.Recruitment, supply.FleetMove, SiegeDeclaration,
# gnw.BattleFirst, gnw.SiegeRound, gnw.SiegeResult, gnw.ForageCheck) and a Skipped for
# each order it did not carry out.
Outcomes = tuple[Any, ...]


@dataclass(frozen=True)
class SiegeDeclaration:
    """GNW-1: blocks that lay siege to a territory this season."""

    territory: str
    blocks: tuple[int, ...]


def _secret(world: World, nation: str) -> dict[str, Any]:
    """The fields of a log line that only the nation's side may read in full."""
    return {"power": nation, "audience": world.side_powers(world.side_of(nation))}


def _side_name(world: World, nation: str) -> str:
    return SIDES[world.side_of(nation)]


def _where(world: World, area: str | None) -> str:
    return world.territories[area].name if area in world.territories else Text("the pool")


def _own_block(world: World, nation: str, block_id: Any) -> Block | None:
    block = world.blocks.get(block_id)
    return block if block is not None and block.nation == nation else None


def _not_reinforced(block: Block, refusal: Refused) -> Text:
    return Text("%(block)s is not reinforced: %(reason)s", block=block.name, reason=refusal.text)


def _skip(
    world: World, rule: str, nation: str, order: Any, reason: Text, line: Text | None = None
) -> Skipped:
    """Log why the order is not carried out (``line``, else ``reason``) for the nation's
    side only."""
    world.say(rule, reason if line is None else line, **_secret(world, nation))
    return Skipped(nation, order, reason)


def _not_own_block(nation: str, order: Any, block_id: Any) -> Skipped:
    """An order naming a block that is not the nation's (or no longer on record)."""
    return Skipped(
        nation, order, Text("Block #%(value)s is not one of your blocks.", value=block_id)
    )


# -- recruitment (GNW-12, GNW-6, GNW-7, GNW-10, GNW-11) ------------------------------


def resolve_recruitment(world: World, orders: Mapping[str, dict], dice: Dice) -> Outcomes:
    """Each nation spends this year's RP (GNW-6): blocks on the map first (GNW-7), then
    pool draws (GNW-10, GNW-11). Answers each nation's reinforcements (or Skipped) and its
    Recruitment.

    Unspent RP are lost and event RP apply to this phase only (GNW-12), so both are
    cleared at the end; RP levels do not change here.
    """
    done: list[Any] = []
    for nation in world.nations.values():
        rp = gnw.rp_available(nation)
        payload = orders.get(nation.key)
        if payload is None:
            if rp:
                world.say(
                    "GNW-6",
                    Text("%(nation)s's %(rp)s RP are lost.", nation=nation.name, rp=rp),
                    power=nation.key,
                )
            continue
        reinforced = _reinforce_on_map(world, nation, payload.get("reinforce", []), rp)
        on_map = sum(r.rp_cost for r in reinforced if isinstance(r, gnw.Reinforcement))
        if on_map:
            world.say(
                "GNW-7",
                Text(
                    "%(nation)s spends %(spent)s of its %(rp)s RP on blocks on the map.",
                    nation=nation.name,
                    spent=on_map,
                    rp=rp,
                ),
                **_secret(world, nation.key),
            )
        done += reinforced
        done.append(_draw_new_blocks(world, nation, payload, rp - on_map, dice))
    for nation in world.nations.values():
        nation.event_rp = 0
    return tuple(done)


def _reinforce_on_map(
    world: World, nation: Nation, wanted: Sequence[dict], rp: int
) -> list[gnw.Reinforcement | Skipped]:
    """GNW-7 for each block the order names, in order."""
    done: list[gnw.Reinforcement | Skipped] = []
    spent = 0
    for item in wanted:
        outcome = _reinforce_with_rp(world, nation, item, rp - spent)
        if isinstance(outcome, gnw.Reinforcement):
            spent += outcome.rp_cost
        done.append(outcome)
    return done


def _reinforce_with_rp(
    world: World, nation: Nation, item: dict, rp: int
) -> gnw.Reinforcement | Skipped:
    reinforcing = _reinforcing(world, nation.key, item)
    if isinstance(reinforcing, Skipped):
        return reinforcing
    block, has_line = reinforcing
    try:
        done = gnw.reinforce_with_rp(world, block, item["steps"], has_line, rp)
    except Refused as refusal:
        line = _not_reinforced(block, refusal)
        return _skip(world, "GNW-7", nation.key, item, refusal.text, line)
    block.strength = done.strength
    world.say(
        "GNW-7",
        done.text,
        area=block.location,
        redacted=Text(
            "%(nation)s reinforces a block in %(area)s.",
            nation=nation.name,
            area=_where(world, block.location),
        ),
        **_secret(world, nation.key),
    )
    return done


def drawn_outcome(block: str) -> Text:
    """What a draw's roll did, as the log stores it (and the draw check recomputes)."""
    return Text("%(block)s drawn", block=block)


def _draw_new_blocks(
    world: World, nation: Nation, payload: dict, rp: int, dice: Dice
) -> gnw.Recruitment:
    """GNW-10 and GNW-11: draw, pay, place, until the order's draws or the RP run out.

    The pool is face down: which block a draw gives follows from the dice and the
    campaign's secret (rules.dice.secret_draw, by block name), never from the dice alone."""
    steps_each = payload.get("steps_each", FULL_STRENGTH)

    def steps_wanted(block: Block) -> int:
        return block.max_strength if steps_each == FULL_STRENGTH else steps_each

    def place(block: Block) -> str | None:
        return _placement(world, block, payload)

    rolls: list[RollReport | None] = []  # each draw's dice (None: a pool of one, no die)

    def draw(pool: Sequence[Block]) -> Block:
        first = len(dice.rolls)
        purpose = Text(
            "%(nation)s draws from its pool of %(count)s", nation=nation.name, count=len(pool)
        )
        by_name = {block.name: block for block in pool}
        name = secret_draw(
            dice, list(by_name), purpose, secret=world.secret, context=world.dice_context
        )
        block = by_name[name]
        faces = [roll.face for roll in dice.rolls[first:]]
        report = RollReport(
            DRAW_RULE,
            purpose,
            ModifiedRoll(faces[0]) if faces else ModifiedRoll(0),
            Text("one of %(count)s", count=len(pool)),
            drawn_outcome(block.name),
            extra_faces=tuple(faces[1:]),
        )
        rolls.append(report if faces else None)
        return block

    pool = world.pool(nation.key)
    names = {key: area.name for key, area in world.territories.items()}
    outcome = gnw.draw_blocks(
        pool, rp, payload.get("draws", 0), steps_wanted, place, draw, world.options, names
    )
    for drawn, roll in zip(outcome.draws, rolls, strict=True):
        block = world.blocks[drawn.block]
        if not drawn.returned:
            block.location, block.strength = drawn.placed_at, drawn.steps
        redacted = (
            Text(
                "%(nation)s places a new block in %(area)s.",
                nation=nation.name,
                area=_where(world, drawn.placed_at),
            )
            if not drawn.returned
            else Text("%(nation)s draws a block and returns it to the pool.", nation=nation.name)
        )
        world.say(
            "GNW-10",
            drawn.text,
            area=drawn.placed_at,
            roll=roll,
            redacted=redacted,
            **_secret(world, nation.key),
        )
    placed = sum(1 for drawn in outcome.draws if not drawn.returned)
    world.say(
        "GNW-6",
        Text("%(nation)s's pool draws: %(draws)s", nation=nation.name, draws=outcome.text),
        redacted=Plural(
            "%(nation)s places %(count)s new block; its unspent RP are lost.",
            "%(nation)s places %(count)s new blocks; its unspent RP are lost.",
            count=placed,
            nation=nation.name,
        ),
        **_secret(world, nation.key),
    )
    return outcome


def check_draws(
    world: World, rolls: Sequence[DrawRoll], secret: str, context: str
) -> list[DrawCheck]:
    """The recruitment phase's draw rolls recomputed, in die order (``world``: the state
    it resolved from): each nation's pool then, less the blocks it drew before in the
    phase, in the secret's order for that draw; the block the faces pick; and whether the
    log's outcome names it."""
    pools = {key: [block.name for block in world.pool(key)] for key in world.nations}
    checks = []
    for roll in sorted(rolls, key=lambda roll: roll.index):
        pool = pools.get(roll.power or "", [])
        drawing = draw_context(context, roll.index)
        order = tuple(secret_order(secret, drawing, pool))
        picked = drawn_by(roll.faces, order) or ""
        if picked:
            pool.remove(picked)
        expected = drawn_outcome(picked) if picked else ""
        checks.append(DrawCheck(roll, drawing, order, picked, expected, roll.outcome))
    return checks


def _placement(world: World, block: Block, payload: dict) -> str | None:
    """GNW-11: the first legal place of the player's preferences, else the first legal
    place of the nation's deployment areas (the log names it)."""
    legal = gnw.placement_choices(world, block)
    wanted = payload.get("fleet_places" if block.kind == FLEET else "places", [])
    for key in wanted:
        if key in legal:
            return key
    return legal[0] if legal else None


# -- actions (GNW-8, GNW-13, siege declarations) -------------------------------------


def resolve_actions(world: World, orders: Mapping[str, dict], dice: Dice) -> Outcomes:
    """Each side in acting order spends its actions, its nations in turn: reinforcement
    by action (GNW-8), fleet moves (GNW-13), then siege declarations (GNW-1). An item the
    side's remaining actions cannot pay for is refused and logged. Answers each item's
    Reinforcement, FleetMove or SiegeDeclaration, or its Skipped."""
    done: list[Any] = []
    for side in list(world.actions):
        for nation in world.side_powers(side):
            payload = orders.get(nation)
            if payload:
                done += _spend_actions(world, side, nation, payload)
    return tuple(done)


def _spend_actions(world: World, side: str, nation: str, payload: dict) -> list[Any]:
    acts = (
        (_reinforce_by_action, "reinforce"),
        (_move_fleet, "fleet_moves"),
        (_declare_siege, "sieges"),
    )
    return [act(world, side, nation, item) for act, key in acts for item in payload.get(key, [])]


def _pay(world: World, side: str, nation: str, cost: int, what: Text) -> None:
    """Spend ``cost`` of the side's actions on the nation's order ``what``; Refused (the
    log line, naming the order and the nation that gave it) when too few are left: the
    side's orders are carried out nation by nation, so a later ally's order is the one
    cut."""
    left = world.actions.get(side, 0)
    if left < cost:
        raise Refused(
            Plural(
                "%(what)s, ordered by %(nation)s: refused, %(side)s has %(count)s action left "
                "and it needs %(cost)s.",
                "%(what)s, ordered by %(nation)s: refused, %(side)s has %(count)s actions left "
                "and it needs %(cost)s.",
                count=left,
                what=what,
                nation=world.nations[nation].name,
                side=SIDES[side],
                cost=cost,
            )
        )
    world.actions[side] -= cost


def _reinforcing(world: World, nation: str, item: dict) -> tuple[Block, bool] | Skipped:
    """The nation's block an order reinforces, and whether it has a line of communication
    (GNW-9); Skipped for a block that is not the nation's."""
    block = _own_block(world, nation, item["block"])
    if block is None:
        return _not_own_block(nation, item, item["block"])
    return block, supply.line_of_communication(world, nation, block.location) is not None


def _reinforce_by_action(
    world: World, side: str, nation: str, item: dict
) -> gnw.Reinforcement | Skipped:
    reinforcing = _reinforcing(world, nation, item)
    if isinstance(reinforcing, Skipped):
        return reinforcing
    block, has_line = reinforcing
    try:
        done = gnw.reinforce_by_action(world, block, item["actions"], has_line)
    except Refused as refusal:
        return _skip(world, "GNW-8", nation, item, refusal.text, _not_reinforced(block, refusal))
    try:
        _pay(world, side, nation, done.actions, Text("Reinforcing %(block)s", block=block.name))
    except Refused as refusal:
        return _skip(world, "GNW-8", nation, item, refusal.text)
    block.strength = done.strength
    world.say(
        "GNW-8",
        done.text,
        area=block.location,
        redacted=Plural(
            "%(side)s spends %(count)s action reinforcing a block in %(area)s.",
            "%(side)s spends %(count)s actions reinforcing a block in %(area)s.",
            count=done.actions,
            side=_side_name(world, nation),
            area=_where(world, block.location),
        ),
        **_secret(world, nation),
    )
    return done


def _move_fleet(world: World, side: str, nation: str, item: dict) -> supply.FleetMove | Skipped:
    fleet = _own_block(world, nation, item["fleet"])
    if fleet is None:
        return _not_own_block(nation, item, item["fleet"])
    try:
        move = supply.move_fleet(world, fleet, item["path"])
    except Refused as refusal:
        line = Text("%(fleet)s does not move: %(reason)s", fleet=fleet.name, reason=refusal.text)
        return _skip(world, "GNW-13", nation, item, refusal.text, line)
    try:
        _pay(world, side, nation, 1, Text("Moving %(fleet)s", fleet=fleet.name))
    except Refused as refusal:
        return _skip(world, "GNW-13", nation, item, refusal.text)
    start = fleet.location
    end = move.path[-1] if move.path else start
    for block in world.blocks.values():
        if block.id == fleet.id or block.carried_by == fleet.id:
            block.location = end
    world.say(
        "GNW-13",
        move.text,
        area=end,
        redacted=Text(
            "A fleet of %(nation)s moves from %(start)s to %(end)s.",
            nation=world.nations[nation].name,
            start=_where(world, start),
            end=_where(world, end),
        ),
        power=nation,
        audience=world.side_powers(side),
    )
    return move


def _declare_siege(world: World, side: str, nation: str, item: dict) -> SiegeDeclaration | Skipped:
    territory = world.territories.get(item["territory"])
    if territory is None:
        key = item["territory"]
        return Skipped(nation, item, Text("There is no territory “%(key)s”.", key=key))
    blocks = [b for b in (_own_block(world, nation, i) for i in item["blocks"]) if b]
    try:
        check_siege(world, nation, territory, blocks)
    except Refused as refusal:
        line = Text(
            "No siege of %(territory)s: %(reason)s", territory=territory.name, reason=refusal.text
        )
        return _skip(world, "GNW-1", nation, item, refusal.text, line)
    what = Text("The siege of %(territory)s", territory=territory.name)
    try:
        _pay(world, side, nation, 1, what)
    except Refused as refusal:
        return _skip(world, "GNW-1", nation, item, refusal.text)
    for block in blocks:
        block.besieging = True
    world.say(
        "GNW-1",
        Plural(
            "%(blocks)s lays siege to %(territory)s (1 action).",
            "%(blocks)s lay siege to %(territory)s (1 action).",
            count=len(blocks),
            blocks=Join(*(b.name for b in blocks), sep=", "),
            territory=territory.name,
        ),
        area=territory.key,
        redacted=Text(
            "%(side)s lays siege to %(territory)s.",
            side=_side_name(world, nation),
            territory=territory.name,
        ),
        **_secret(world, nation),
    )
    return SiegeDeclaration(territory.key, tuple(b.id for b in blocks))


def check_siege(
    world: World,
    nation: str,
    territory: Territory,
    blocks: Sequence[Block],
    *,
    declared: bool = False,
) -> None:
    """GNW-1: Refused with why these blocks may not besiege this territory; ``declared``:
    checked again when the siege comes (the GM may have moved things meanwhile)."""
    name = territory.name
    if territory.kind != TERRITORY:
        raise Refused(Text("only a land territory can be besieged"))
    if not world.enemies(nation, territory.controller):
        raise Refused(Text("%(territory)s is not held by the enemy", territory=name))
    if territory.garrison == 0:
        raise Refused(Text("%(territory)s has no garrison to besiege", territory=name))
    if not blocks:
        raise Refused(Text("no blocks were named"))
    for block in blocks:
        _check_besieger(territory, block, declared)


def _check_besieger(territory: Territory, block: Block, declared: bool) -> None:
    if block.location != territory.key or block.carried_by is not None:
        raise Refused(
            Text("%(block)s is not in %(territory)s", block=block.name, territory=territory.name)
        )
    if block.kind == FLEET:
        raise Refused(Text("%(block)s is a fleet", block=block.name))
    if block.besieging and not declared:
        raise Refused(Text("%(block)s already besieges", block=block.name))


# -- battles and sieges (GNW-3, GNW-1, GNW-2, GNW-5) ----------------------------------


def resolve_sieges(world: World, orders: Mapping[str, dict], dice: Dice) -> Outcomes:
    """Every territory with besieging blocks: the battle first (GNW-3), one round of
    siege fire (GNW-1), the result (GNW-2) and the RP levels it changes (GNW-5). Answers
    each territory's BattleFirst, SiegeRound and SiegeResult as they came, or a Skipped
    for a siege no longer allowed."""
    done: list[Any] = []
    for key in sorted({b.location for b in world.blocks.values() if b.besieging and b.location}):
        done += _resolve_siege(world, world.territories[key], dice)
    for block in world.blocks.values():
        block.besieging = False
    return tuple(done)


def _resolve_siege(world: World, territory: Territory, dice: Dice) -> list[Any]:
    besiegers = sorted(
        (b for b in world.blocks_in(territory.key) if b.besieging),
        key=lambda b: (-b.strength, b.id),
    )
    nation = besiegers[0].nation
    try:
        check_siege(world, nation, territory, besiegers, declared=True)
    except Refused as refusal:
        world.say(
            "GNW-1",
            Text(
                "No siege of %(territory)s: %(reason)s.",
                territory=territory.name,
                reason=refusal.text,
            ),
            area=territory.key,
        )
        declared = {"territory": territory.key, "blocks": [b.id for b in besiegers]}
        return [Skipped(nation, declared, refusal.text)]
    done: list[Any] = []
    battle = _battle_first(world, territory, besiegers)
    if battle is not None:
        done.append(battle)
        besiegers = [b for b in besiegers if b.id in battle.besiegers]
    if besiegers:
        done += _siege(world, territory, besiegers, dice)
    return done


def _battle_first(
    world: World, territory: Territory, besiegers: list[Block]
) -> gnw.BattleFirst | None:
    """GNW-3 when a battle was fought here this season; None when none was."""
    side = world.side_of(besiegers[0].nation)
    fought = [b.id for b in besiegers if b.in_battle]
    if not fought and not territory.battle_winner:
        return None
    outcome = gnw.battle_before_siege(
        besiegers, fought, territory.battle_winner == side, world.options
    )
    if outcome.siege_goes_ahead:
        redacted = Text(
            "%(territory)s: the battle comes before the siege; the siege goes ahead.",
            territory=territory.name,
        )
    else:
        redacted = Text(
            "%(territory)s: the battle comes before the siege; there is no siege.",
            territory=territory.name,
        )
    world.say(
        "GNW-3",
        Text("%(territory)s: %(outcome)s", territory=territory.name, outcome=outcome.text),
        area=territory.key,
        redacted=redacted,
        **_secret(world, besiegers[0].nation),
    )
    return outcome


def _siege(world: World, territory: Territory, besiegers: list[Block], dice: Dice) -> list[Any]:
    """GNW-1 and GNW-2: the round of fire, its losses and the capture; their outcomes."""
    attacker = besiegers[0].nation
    fight = gnw.siege_round(territory, besiegers, dice, world.options)
    for report in fight.reports:
        garrison = report.power is None or world.enemies(attacker, report.power)
        world.say(
            "GNW-1",
            Text("%(purpose)s: %(roll)s", purpose=report.purpose, roll=report.text),
            area=territory.key,
            roll=report,
            redacted=_fire_seen(territory, report, fight.garrison_hits)
            if garrison
            else Text("The besiegers of %(territory)s fire.", territory=territory.name),
            **_secret(world, attacker),
        )
    for block in besiegers:
        _siege_losses(world, territory, block, fight.strengths[block.id], attacker)
    if fight.captured:
        return [fight, _captured(world, territory, attacker)]
    world.say(
        "GNW-2",
        Plural(
            "The siege of %(territory)s fails (%(count)s hit against a garrison of "
            "%(garrison)s); the besiegers may not retreat.",
            "The siege of %(territory)s fails (%(count)s hits against a garrison of "
            "%(garrison)s); the besiegers may not retreat.",
            count=fight.besieger_hits,
            territory=territory.name,
            garrison=territory.garrison,
        ),
        area=territory.key,
    )
    return [fight]


def _fire_seen(territory: Territory, report: gnw.FireReport, hits: int) -> Text:
    """The garrison's fire as the other side reads it: its dice and hits, no block named."""
    return Plural(
        "%(purpose)s: %(faces)s → %(count)s hit on the besiegers",
        "%(purpose)s: %(faces)s → %(count)s hits on the besiegers",
        count=hits,
        purpose=report.purpose,
        faces=" ".join(str(face) for face in report.faces),
    )


def _siege_losses(
    world: World, territory: Territory, block: Block, strength: int, attacker: str
) -> None:
    """Apply a besieging block's strength after the round and log what it lost."""
    lost = block.strength - strength
    block.strength = strength
    if lost and block.strength:
        world.say(
            "GNW-1",
            Plural(
                "%(block)s loses %(count)s step before %(territory)s (%(strength)s/%(max)s).",
                "%(block)s loses %(count)s steps before %(territory)s (%(strength)s/%(max)s).",
                count=lost,
                block=block.name,
                territory=territory.name,
                strength=block.strength,
                max=block.max_strength,
            ),
            **_secret(world, attacker),
        )
    if block.strength == 0:
        block.location, block.carried_by = None, None
        world.say(
            "GNW-1",
            Text(
                "%(block)s is eliminated in the siege of %(territory)s and returns to the pool.",
                block=block.name,
                territory=territory.name,
            ),
            redacted=Text(
                "A %(side)s block is eliminated before %(territory)s.",
                side=_side_name(world, attacker),
                territory=territory.name,
            ),
            **_secret(world, attacker),
        )


def _captured(world: World, territory: Territory, attacker: str) -> gnw.SiegeResult:
    result = gnw.siege_result(world, territory, attacker)
    territory.controller, territory.garrison = result.controller, result.garrison
    levels = {key: n.rp_level for key, n in world.nations.items()}
    after = gnw.rp_levels_after(
        levels,
        [result.surrendered_nation] if result.surrendered_nation else [],
        [result.liberated_nation] if result.liberated_nation else [],
    )
    if result.surrendered_nation:
        territory.surrendered = True
    if result.liberated_nation:
        territory.surrendered = False
    world.say("GNW-2", result.text, area=territory.key, power=attacker)
    for key, level in after.items():
        if level is not None and level != levels[key]:
            nation = world.nations[key]
            world.say(
                "GNW-5",
                Text(
                    "%(nation)s's RP level: %(before)s → %(after)s (%(territory)s).",
                    nation=nation.name,
                    before=levels[key],
                    after=max(0, level),
                    territory=territory.name,
                ),
                power=key,
            )
            nation.rp_level = max(0, level)
    if result.forced_peace:
        world.nations[result.forced_peace].forced_peace = True
        world.say(
            "GNW-2",
            Text(
                "%(territory)s was %(nation)s's capital: peace is forced on it (10.2); the GM "
                "applies the peace terms.",
                territory=territory.name,
                nation=world.nations[result.forced_peace].name,
            ),
            area=territory.key,
            power=result.forced_peace,
        )
    return result


# -- forage (GNW-4) and the end of the season ----------------------------------------


def resolve_forage(world: World, orders: Mapping[str, dict], dice: Dice) -> Outcomes:
    """Every land territory with army or regiment blocks forages (GNW-4), one group per
    side; then the season ends: battle and siege marks are cleared, actions renewed.
    Answers every group's ForageCheck."""
    loss_order = [i for payload in orders.values() for i in payload.get("loss_order", [])]
    checks = forage_checks(world, loss_order)
    for group, check in checks:
        _forage(world, world.territories[check.territory], group, check)
    _end_season(world)
    return tuple(check for _, check in checks)


def forage_checks(
    world: World, loss_order: Sequence[int] = ()
) -> list[tuple[list[Block], gnw.ForageCheck]]:
    """GNW-4 as the forage phase resolves it, without changing ``world``: each side's group
    in each territory and its check, the FP shared between the sides under Decision 7's
    option (the controller's side eating first)."""
    checks = []
    for territory in world.territories.values():
        fp_left = territory.forage_points
        for group in _forage_groups(world, territory):
            fp = territory.forage_points
            if option(world.options, "forage_both_sides") == "shared":
                fp = fp_left
                fp_left = max(0, fp_left - sum(FORAGE_DEMAND[b.kind] for b in group))
            check = gnw.forage(territory, group, loss_order, world.options, forage_points=fp)
            checks.append((group, check))
    return checks


def _forage_groups(world: World, territory: Territory) -> list[list[Block]]:
    """The sides' groups of army and regiment blocks here, the controller's side first
    (then by side key, so that a territory nobody controls forages in a fixed order)."""
    blocks = [
        b
        for b in world.blocks_in(territory.key)
        if b.kind in (ARMY, REGIMENT) and b.carried_by is None
    ]
    sides = sorted(
        {world.side_of(b.nation) for b in blocks},
        key=lambda s: (
            territory.controller is None or world.side_of(territory.controller) != s,
            s,
        ),
    )
    return [[b for b in blocks if world.side_of(b.nation) == s] for s in sides]


def _forage(world: World, territory: Territory, group: list[Block], check: gnw.ForageCheck) -> None:
    for block in group:
        block.strength -= check.losses.get(block.id, 0)
    if check.deficit:
        nation = group[0].nation
        world.say(
            "GNW-4",
            check.text,
            area=territory.key,
            redacted=Text(
                "%(side)s blocks in %(territory)s go short of forage.",
                side=_side_name(world, nation),
                territory=territory.name,
            ),
            **_secret(world, nation),
        )


def _end_season(world: World) -> None:
    for block in world.blocks.values():
        block.in_battle = False
    for territory in world.territories.values():
        territory.battle_winner = ""
    world.actions.update(world.season_actions)
