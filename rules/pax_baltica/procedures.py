"""The Pax Baltica siege, forage and replacement procedures GNW-1 to GNW-8 and GNW-10 to
GNW-12, one pure function each.

Each function reads the dataclasses of ``state`` without changing them, rolls what it
needs on ``dice`` and returns a frozen outcome (or plain values) that the phase resolvers
apply. Options are read from an ``options`` mapping (``World.options``); a missing key is
the default, the option's first choice in ``ruleset.OPTIONS``. GNW-9 (line of
communication) is ``supply``'s: the callers pass its answer in as ``has_line``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.dice import Dice
from rules.modifiers import ModifiedRoll, RollReport
from rules.pax_baltica.state import (
    ARMY,
    FLEET,
    FORAGE_DEMAND,
    GARRISON_RATING,
    REGIMENT,
    RP_PER_SURRENDER,
    STEP_COST,
    TERRITORY,
    Block,
    Nation,
    Territory,
    World,
    option,
)

PLACED_GARRISON = 1  # GNW-2: the strength of the marker a captor places


IRREGULAR = {"die": "dice", "army": "armies", "loss": "losses"}


def plural(count: int, noun: str) -> str:
    """ "1 step", "2 steps"; "1 die", "2 dice"."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {IRREGULAR.get(noun, noun + 's')}"


def _nation_name(world: World, key: str | None) -> str:
    nation = world.nations.get(key) if key else None
    return nation.name if nation else (key or "nobody")


def _area_name(world: World, key: str | None) -> str:
    area = world.territories.get(key) if key else None
    return area.name if area else (key or "the pool")


# -- GNW-1 siege ------------------------------------------------------------------------


@dataclass(frozen=True)
class FireReport(RollReport):
    """One unit's fire in a siege round. ``roll.face`` is its first die and ``extra_faces``
    the others, in the order rolled (the log stores ``[roll.face, *extra_faces]``)."""

    @property
    def faces(self) -> tuple[int, ...]:
        return (self.roll.face, *self.extra_faces)

    @property
    def text(self) -> str:
        """ "1 5, hits on 1 → 1 hit: Karl XII 4 → 3"; like every RollReport's text, without
        the purpose ("Garrison of Narva (C1, 2 dice)"), which the log puts before it."""
        faces = " ".join(str(face) for face in self.faces)
        return f"{faces}, {self.comparison} → {self.outcome}"


@dataclass(frozen=True)
class SiegeRound:
    reports: tuple[FireReport, ...]  # one per unit that fired, in firing order
    garrison_hits: int  # hits scored by the garrison on the besiegers
    besieger_hits: int  # hits scored by the besiegers on the garrison
    captured: bool
    strengths: dict[int, int]  # every besieging block's strength after the round
    text: str


def siege_round(
    territory: Territory,
    besiegers: Sequence[Block],
    dice: Dice,
    options: Mapping[str, Any] | None = None,
) -> SiegeRound:
    """GNW-1: one round of fire between the besiegers and the garrison (a C1 defender with
    as many dice as its strength, which never takes losses).

    Units fire by letter, A first; on equal letters the garrison fires first (Decision 1,
    option ``siege_fire_order``), the besieging blocks strongest first (then by id), the
    order fixed at the start of the round. Each block rolls its current strength in dice
    and hits on its firepower or less. A garrison hit takes one step from the strongest
    besieging block (ties: lowest id), which may be eliminated; hits take effect at once,
    so a block hit before it fires rolls fewer dice, or at the end of the round (Decision
    4, option ``siege_hits``); hits beyond the besiegers' total strength are lost. The
    garrison is captured when the besiegers' hits reach its strength.
    """
    at_once = option(options, "siege_hits") == "at_once"
    defender_first = option(options, "siege_fire_order") == "defender_first"
    strengths = {b.id: b.strength for b in besiegers}
    names = {b.id: b.name for b in besiegers}

    def firing_order(unit: Block | None) -> tuple:
        if unit is None:
            return (GARRISON_RATING[0], 0 if defender_first else 1, 0, 0)
        return (unit.letter, 1 if defender_first else 0, -unit.strength, unit.id)

    reports: list[FireReport] = []
    garrison_hits = besieger_hits = 0
    taken = ""
    for unit in sorted([None, *besiegers], key=firing_order):
        if unit is None:
            count, firepower = territory.garrison, int(GARRISON_RATING[1:])
            purpose = f"Garrison of {territory.name} ({GARRISON_RATING}, {plural(count, 'die')})"
            power = territory.controller
        else:
            count, firepower = strengths[unit.id], unit.firepower
            purpose = f"{unit.name} ({unit.rating}, {plural(count, 'die')})"
            power = unit.nation
        if count <= 0:
            continue
        faces = [dice.d6(purpose) for _ in range(count)]
        hits = sum(1 for face in faces if face <= firepower)
        outcome = plural(hits, "hit")
        if unit is not None:
            besieger_hits += hits
        else:
            garrison_hits = hits
            if at_once and hits:
                taken = _take_hits(strengths, names, hits)
                outcome += f": {taken}"
            elif hits:
                outcome += " (taken at the end of the round)"
        comparison = f"hits on {firepower}" + (" or less" if firepower > 1 else "")
        reports.append(
            FireReport(
                "GNW-1",
                purpose,
                ModifiedRoll(faces[0]),
                comparison,
                outcome,
                power=power,
                area=territory.key,
                extra_faces=tuple(faces[1:]),
            )
        )
    if garrison_hits and not at_once:
        taken = _take_hits(strengths, names, garrison_hits)
    captured = besieger_hits >= territory.garrison
    text = (
        f"Siege of {territory.name}: the garrison scores {plural(garrison_hits, 'hit')}"
        + (f" ({taken})" if taken else "")
        + f"; the besiegers score {plural(besieger_hits, 'hit')} against a garrison of "
        + f"{territory.garrison}: "
        + ("the garrison is captured" if captured else "the garrison holds")
    )
    return SiegeRound(tuple(reports), garrison_hits, besieger_hits, captured, strengths, text)


def _take_hits(strengths: dict[int, int], names: Mapping[int, str], hits: int) -> str:
    """Apply ``hits`` one step at a time to the strongest block (ties: lowest id); what
    each hit block went from and to, and any hits that found no block."""
    before = dict(strengths)
    lost = 0
    for _ in range(hits):
        standing = [i for i in strengths if strengths[i] > 0]
        if not standing:
            lost += 1
            continue
        target = min(standing, key=lambda i: (-strengths[i], i))
        strengths[target] -= 1
    parts = []
    for block_id, strength in strengths.items():
        if strength != before[block_id]:
            gone = " (eliminated)" if strength == 0 else ""
            parts.append(f"{names[block_id]} {before[block_id]} → {strength}{gone}")
    if lost:
        parts.append(f"{plural(lost, 'hit')} lost, no besieger left")
    return ", ".join(parts)


# -- GNW-2 siege result -----------------------------------------------------------------


@dataclass(frozen=True)
class SiegeResult:
    controller: str | None  # the territory's controller afterwards
    garrison: int  # its garrison marker's strength afterwards; 0 = no marker
    surrendered_nation: str | None  # its RP level falls by 4 (GNW-5)
    liberated_nation: str | None  # its RP level is restored by 4 (GNW-5)
    forced_peace: str | None  # a captured capital forces peace on this nation (10.2)
    text: str


def siege_result(world: World, territory: Territory, attacker: str) -> SiegeResult:
    """GNW-2: what a captured garrison changes; ``attacker`` is the besieging side's
    leading nation.

    In territory of an enemy nation (or of no nation) the attacker places its own marker
    (strength 1) and takes control; in territory of a nation on its own side the enemy
    marker is only removed and control returns home, except in Poland, where the attacker
    places its marker. A nation's own garrison surrendering lowers its RP level; removing
    the enemy from a surrendered territory of one's side restores it (Decision 6, option
    ``liberation``). A capital taken by the enemy forces peace, for the GM to record.
    """
    holder, home = territory.controller, territory.nation
    if holder is not None and not world.enemies(attacker, holder):
        raise ValueError(
            f"{_nation_name(world, attacker)} cannot besiege its own side's garrison "
            f"of {territory.name}"
        )
    friendly_home = home is not None and not world.enemies(attacker, home)
    places = not friendly_home or territory.in_poland
    controller, garrison = (attacker, PLACED_GARRISON) if places else (home, 0)
    surrendered = home if holder is not None and holder == home else None
    restores = option(world.options, "liberation") == "restores"
    liberated = home if territory.surrendered and friendly_home and restores else None
    forced_peace = home if territory.capital and not friendly_home else None

    name, attacker_name = territory.name, _nation_name(world, attacker)
    whose = f"{_nation_name(world, holder)}'s garrison" if holder else "the garrison"
    if not places:
        parts = [
            f"{attacker_name} removes {whose} from {name}; control returns to "
            f"{_nation_name(world, home)}"
        ]
    else:
        poland = " (in Poland the captor may always place it)" if friendly_home else ""
        parts = [
            f"{attacker_name} captures {whose} of {name} and places its own garrison "
            f"marker{poland}: {attacker_name} controls {name}"
        ]
    parts.append("the besiegers may not regroup")
    if surrendered:
        home_name = _nation_name(world, surrendered)
        parts.append(f"{home_name}'s RP level falls by {RP_PER_SURRENDER} (GNW-5)")
    if liberated:
        home_name = _nation_name(world, liberated)
        parts.append(
            f"{name} is liberated: {home_name}'s RP level is restored by {RP_PER_SURRENDER} (GNW-5)"
        )
    elif territory.surrendered and friendly_home:
        parts.append(f"{name} is liberated; the GM decides any RP restoration")
    if forced_peace:
        home_name = _nation_name(world, forced_peace)
        parts.append(f"{name} is {home_name}'s capital: peace is forced on {home_name} (10.2)")
    text = "; ".join(parts)
    return SiegeResult(controller, garrison, surrendered, liberated, forced_peace, text)


# -- GNW-3 battle before siege ----------------------------------------------------------


@dataclass(frozen=True)
class BattleFirst:
    siege_goes_ahead: bool
    besiegers: tuple[int, ...]  # block ids still besieging after the battle
    retreating: tuple[int, ...]  # block ids that must retreat (the GM moves them)
    text: str


def battle_before_siege(
    besiegers: Sequence[Block],
    fought: Iterable[int],
    besiegers_won: bool,
    options: Mapping[str, Any] | None = None,
) -> BattleFirst:
    """GNW-3: the battle in a besieged territory comes first. If the besieging side won,
    the blocks that did not fight besiege; if it lost, every besieger retreats and there
    is no siege, or (Decision 5, option ``besiegers_lose``) only those that fought retreat.
    Blocks eliminated in the battle (strength 0) neither besiege nor retreat."""
    fought_ids = set(fought)
    standing = [b for b in besiegers if b.strength > 0]
    stayed = tuple(b.id for b in standing if b.id not in fought_ids)
    fighters = tuple(b.id for b in standing if b.id in fought_ids)
    if besiegers_won:
        remaining, retreating = stayed, ()
        why = "the besieging side won the battle"
    elif option(options, "besiegers_lose") == "all_retreat":
        remaining, retreating = (), stayed + fighters
        why = "the besieging side lost the battle: every besieger retreats"
    else:
        remaining, retreating = stayed, fighters
        why = "the besieging side lost the battle: the blocks that fought retreat"
    names = {b.id: b.name for b in standing}
    if remaining:
        listed = ", ".join(names[i] for i in remaining)
        text = f"{why}; the siege goes ahead with {listed}"
    else:
        text = f"{why}; no block is left to besiege: no siege"
    return BattleFirst(bool(remaining), remaining, retreating, text)


# -- GNW-4 forage -----------------------------------------------------------------------


@dataclass(frozen=True)
class ForageCheck:
    territory: str
    demand: int
    supply: int  # usable supply: FP plus usable supply-train points, at most the demand
    deficit: int
    losses: dict[int, int]  # block id → steps lost
    ignored: int  # losses that could not be taken (every block at strength 1)
    text: str


def forage(
    territory: Territory,
    group: Sequence[Block],
    loss_order: Sequence[int] = (),
    options: Mapping[str, Any] | None = None,
    forage_points: int | None = None,
) -> ForageCheck:
    """GNW-4: one side's army and regiment blocks in a territory (fleets and carried blocks
    are left out) against its FP, or ``forage_points`` when given (Decision 7: the caller
    shares the FP). Demand: army 2, regiment 1. Each nation's supply trains feed only its
    own regiments there. Each missing point costs a step: first the strongest block (ties:
    the first of them in ``loss_order``, else the lowest id); then by default the next
    block in ``loss_order`` above strength 1, cycling, else the strongest (Decision 2,
    option ``forage_further_losses``). Never below strength 1: the rest is ignored."""
    eaters = [
        b for b in group if b.kind in (ARMY, REGIMENT) and b.carried_by is None and b.strength > 0
    ]
    demand = sum(FORAGE_DEMAND[b.kind] for b in eaters)
    fp = territory.forage_points if forage_points is None else forage_points
    trains = _usable_trains(eaters)
    supply = min(demand, fp + trains)
    deficit = demand - supply
    strengths = {b.id: b.strength for b in eaters}
    owner_order = option(options, "forage_further_losses") == "owner_order"
    taken = _forage_losses(strengths, deficit, list(loss_order), owner_order)
    losses = {b.id: b.strength - strengths[b.id] for b in eaters if strengths[b.id] != b.strength}
    ignored = deficit - taken

    armies = sum(1 for b in eaters if b.kind == ARMY)
    regiments = len(eaters) - armies
    counted = ", ".join(
        plural(n, noun) for n, noun in ((armies, "army"), (regiments, "regiment")) if n
    )
    text = f"{territory.name}: demand {demand} FP ({counted or 'no blocks'}), supply {fp} FP"
    if trains:
        text += f" + {trains} from supply trains"
    if not deficit:
        text += ": enough"
    else:
        hit = ", ".join(
            f"{b.name} {b.strength} → {strengths[b.id]}" for b in eaters if b.id in losses
        )
        text += f": {deficit} short; " + (hit or "no block can lose a step")
        if ignored and taken:
            text += f"; {plural(ignored, 'loss')} ignored (no block above strength 1)"
        elif ignored:
            text += " (every block is at strength 1): the losses are ignored"
    return ForageCheck(territory.key, demand, supply, deficit, losses, ignored, text)


def _usable_trains(blocks: Sequence[Block]) -> int:
    """Each nationality's supply-train points, up to its regiments' demand (7.2: a Saxon
    army's train does not feed a Polish regiment, though one nation pays for both)."""
    total = 0
    for nationality in {b.nationality_key for b in blocks}:
        own = [b for b in blocks if b.nationality_key == nationality]
        trains = sum(b.supply_trains for b in own if b.kind == ARMY)
        fed = sum(FORAGE_DEMAND[b.kind] for b in own if b.kind == REGIMENT)
        total += min(trains, fed)
    return total


def _forage_losses(
    strengths: dict[int, int], deficit: int, order: list[int], owner_order: bool
) -> int:
    """Take up to ``deficit`` steps from ``strengths`` (changed in place); the steps taken."""
    order = [i for i in order if i in strengths]
    cursor, taken = 0, 0
    for loss in range(deficit):
        if all(strength <= 1 for strength in strengths.values()):
            break
        chosen = None
        if loss and owner_order:
            for step in range(len(order)):
                index = (cursor + step) % len(order)
                if strengths[order[index]] > 1:
                    chosen, cursor = order[index], index + 1
                    break
        if chosen is None:
            top = max(strengths.values())
            tied = [i for i in strengths if strengths[i] == top]
            chosen = next((i for i in order if i in tied), min(tied))
            if not loss and chosen in order:
                cursor = order.index(chosen) + 1
        strengths[chosen] -= 1
        taken += 1
    return taken


# -- GNW-5 RP level ---------------------------------------------------------------------


def rp_levels_after(
    levels: Mapping[str, int | None],
    surrendered: Sequence[str] = (),
    liberated: Sequence[str] = (),
) -> dict[str, int | None]:
    """GNW-5: each surrendered territory lowers its nation's RP level by 4, each liberated
    one restores 4 (one entry per territory). A nation without a level (None) or not in
    ``levels`` is unaffected; capturing never raises the captor's level."""
    after = dict(levels)
    for keys, sign in ((surrendered, -1), (liberated, 1)):
        for key in keys:
            if after.get(key) is not None:
                after[key] += sign * RP_PER_SURRENDER
    return after


# -- GNW-6, GNW-7, GNW-8, GNW-12 replacements -------------------------------------------


def rp_available(nation: Nation) -> int:
    """GNW-6 and GNW-12: RP for this recruitment phase: the RP level plus this year's event
    RP, never below 0. Event RP do not change the level."""
    return max(0, (nation.rp_level or 0) + nation.event_rp)


def friendly_garrison(world: World, block: Block) -> bool:
    """GNW-7: the block stands in a territory with a garrison marker of its own side."""
    area = world.territories.get(block.location) if block.location else None
    return bool(
        area is not None
        and area.garrison > 0
        and area.controller is not None
        and not world.enemies(block.nation, area.controller)
    )


def step_cost(block: Block, friendly: bool) -> int:
    """GNW-6/7: RP per step: army 2, regiment 1, fleet 2; doubled without a friendly
    garrison."""
    return STEP_COST[block.kind] * (1 if friendly else 2)


def reinforce_refusal(world: World, block: Block, steps: int, has_line: bool) -> str:
    """GNW-7/8: why ``block`` may not gain ``steps`` now; "" when it may."""
    if block.in_pool:
        return f"{block.name} is in the pool: pool blocks are drawn (GNW-10), not reinforced"
    if block.carried_by is not None:
        return f"{block.name} is carried by a fleet and cannot be reinforced"
    if block.in_battle:
        return f"{block.name} is in a battle and cannot be reinforced"
    area = world.territories.get(block.location)
    if block.kind == FLEET and not (area and area.kind == TERRITORY and area.port):
        return f"{block.name} is at sea: a fleet is reinforced only in a port"
    if not has_line:
        return f"{block.name} has no line of communication (GNW-9)"
    if steps < 1:
        return f"{plural(steps, 'step')} is no reinforcement"
    room = block.max_strength - block.strength
    if steps > room:
        return (
            f"{block.name} is at {block.strength} of {block.max_strength}: "
            f"it can gain {plural(room, 'step')}, not {steps}"
        )
    return ""


@dataclass(frozen=True)
class Reinforcement:
    block: int
    steps: int
    rp_cost: int
    actions: int
    strength: int  # after
    text: str


def reinforce_with_rp(
    world: World, block: Block, steps: int, has_line: bool, rp_available: int
) -> Reinforcement:
    """GNW-7: ``steps`` steps for RP (army 2, regiment 1, fleet 2 each; double without a
    friendly garrison); ValueError with the reason when refused or unaffordable."""
    refusal = reinforce_refusal(world, block, steps, has_line)
    if refusal:
        raise ValueError(refusal)
    friendly = friendly_garrison(world, block)
    cost = steps * step_cost(block, friendly)
    where = _area_name(world, block.location)
    if cost > rp_available:
        raise ValueError(
            f"{plural(steps, 'step')} for {block.name} cost {cost} RP; {rp_available} RP are left"
        )
    strength = block.strength + steps
    each = f"{plural(steps, 'step')} × {STEP_COST[block.kind]} RP"
    price = f"{each} = {cost} RP" if friendly else f"{each} × 2 (no friendly garrison) = {cost} RP"
    text = (
        f"{block.name} ({block.kind}) in {where} gains {plural(steps, 'step')} "
        f"({block.strength} → {strength}): {price}"
    )
    return Reinforcement(block.id, steps, cost, 0, strength, text)


def reinforce_by_action(world: World, block: Block, actions: int, has_line: bool) -> Reinforcement:
    """GNW-8: one step per action (no RP), under every GNW-7 restriction; without a
    friendly garrison a step takes two actions under Decision 8's ``two_actions`` option.
    ValueError with the reason when refused. The caller checks and spends the actions."""
    double = option(world.options, "action_doubling") == "two_actions" and not friendly_garrison(
        world, block
    )
    per_step = 2 if double else 1
    if actions % per_step:
        raise ValueError(
            f"a step for {block.name} takes 2 actions without a friendly garrison; "
            f"{actions} actions do not buy whole steps"
        )
    steps = actions // per_step
    refusal = reinforce_refusal(world, block, steps, has_line)
    if refusal:
        raise ValueError(refusal)
    strength = block.strength + steps
    doubled = " (2 per step: no friendly garrison)" if double else ""
    text = (
        f"{block.name} ({block.kind}) in {_area_name(world, block.location)} gains "
        f"{plural(steps, 'step')} for {plural(actions, 'action')}{doubled} "
        f"({block.strength} → {strength}), no RP"
    )
    return Reinforcement(block.id, steps, 0, actions, strength, text)


# -- GNW-10, GNW-11 new blocks ----------------------------------------------------------


def placement_choices(world: World, block: Block) -> list[str]:
    """GNW-11: where a new block may go, in the scenario's order: a red-dot block's own
    places, a fleet's allowed ports, else its nation's deployment territories; never a
    territory holding enemy blocks or an enemy garrison."""
    nation = world.nations[block.nation]
    if block.red_dot:
        allowed = block.places
    elif block.kind == FLEET:
        allowed = tuple(
            k for k in nation.fleet_ports if k in world.territories and world.territories[k].port
        )
    else:
        allowed = nation.deployment
    return [k for k in allowed if k in world.territories and not _enemy_there(world, block, k)]


def _enemy_there(world: World, block: Block, key: str) -> str:
    """Why ``key`` is closed to a new block of ``block``'s nation, or ""."""
    area = world.territories[key]
    if any(world.enemies(block.nation, b.nation) for b in world.blocks_in(key)):
        return f"{area.name} holds enemy blocks"
    if area.garrison > 0 and world.enemies(block.nation, area.controller):
        return f"{area.name} holds {_nation_name(world, area.controller)}'s garrison"
    return ""


def placement_refusal(world: World, block: Block, territory_key: str) -> str:
    """GNW-11: why ``block`` may not be placed in ``territory_key``; "" when it may."""
    if territory_key not in world.territories:
        return f"there is no territory “{territory_key}”"
    nation = world.nations[block.nation]
    if block.red_dot:
        allowed, what = block.places, f"{block.name} (red dot) is placed"
    elif block.kind == FLEET:
        allowed, what = nation.fleet_ports, f"new {nation.name} fleets are placed"
    else:
        allowed, what = nation.deployment, f"new {nation.name} blocks are placed"
    if territory_key not in allowed:
        listed = ", ".join(_area_name(world, k) for k in allowed) or "nowhere"
        return f"{what} only in {listed}"
    if block.kind == FLEET and not world.territories[territory_key].port:
        return f"{_area_name(world, territory_key)} has no port"
    return _enemy_there(world, block, territory_key)


@dataclass(frozen=True)
class Draw:
    block: int
    name: str
    kind: str
    first_step_cost: int
    steps: int  # steps bought (0 when returned unpaid)
    rp_spent: int
    placed_at: str | None
    returned: bool  # back to the pool
    text: str


@dataclass(frozen=True)
class Recruitment:
    draws: tuple[Draw, ...]
    rp_spent: int  # every RP paid, for unplaceable blocks too
    rp_lost: int  # rp − rp_spent: unspent RP never carry over
    text: str


def draw_blocks(
    pool: Sequence[Block],
    rp: int,
    max_draws: int,
    steps_wanted: Callable[[Block], int],
    place: Callable[[Block], str | None],
    draw: Callable[[Sequence[Block]], Block],
    options: Mapping[str, Any] | None = None,
    area_names: Mapping[str, str] | None = None,
) -> Recruitment:
    """GNW-10/11: draw up to ``max_draws`` blocks from ``pool`` one at a time with ``rp``.

    ``draw`` picks the next block from the remaining pool (at random, or as the GM
    entered it). The first step costs double (army and fleet 4, regiment 2); further steps,
    ``steps_wanted(block) − 1`` of them as far as full strength and the RP allow, cost the
    normal price. A block that cannot be paid for returns to the pool and spending ends
    (Decision 3, option ``unaffordable_draw``: or it is set aside and drawing goes on).
    A paid block is placed at ``place(block)`` before the next draw; None returns it to the
    pool with its RP lost, and spending goes on (Decision 9, option ``unplaceable_block``).
    Drawing stops when fewer RP are left than any block's first step. ``area_names``
    gives the texts the territories' names.
    """
    names = area_names or {}
    cheapest = 2 * min(STEP_COST.values())
    remaining = list(pool)
    draws: list[Draw] = []
    left = rp
    while len(draws) < max_draws and remaining and left >= cheapest:
        block = draw(remaining)
        remaining = [b for b in remaining if b.id != block.id]
        unit = STEP_COST[block.kind]
        first = 2 * unit
        drawn = f"{block.name} ({block.kind}) drawn"
        if left < first:
            ends = option(options, "unaffordable_draw") == "ends"
            then = "spending ends" if ends else "it is not drawn again this phase"
            text = (
                f"{drawn}: {left} RP cannot pay the first step ({first} RP); "
                f"it returns to the pool and {then}"
            )
            draws.append(Draw(block.id, block.name, block.kind, first, 0, 0, None, True, text))
            if ends:
                break
            continue
        extra = max(0, min(steps_wanted(block) - 1, block.max_strength - 1, (left - first) // unit))
        cost = first + extra * unit
        left -= cost
        steps = 1 + extra
        bought = f"{drawn}: {first} RP for the first step"
        if extra:
            bought += f" + {extra * unit} RP for {extra} more"
        bought += f" = strength {steps}"
        where = place(block)
        if where is None:
            ends = option(options, "unplaceable_block") == "ends"
            then = "; spending ends" if ends else ""
            text = (
                f"{bought}, but it has no legal place: it returns to the pool and the "
                f"{cost} RP paid are lost{then}"
            )
            draws.append(
                Draw(block.id, block.name, block.kind, first, steps, cost, None, True, text)
            )
            if ends:
                break
            continue
        text = f"{bought}, placed in {names.get(where, where)}"
        draws.append(Draw(block.id, block.name, block.kind, first, steps, cost, where, False, text))
    spent = rp - left
    placed = sum(1 for d in draws if not d.returned)
    text = f"{rp} RP: {spent} spent, {plural(placed, 'block')} placed"
    text += f"; {left} RP unspent and lost" if left else ""
    return Recruitment(tuple(draws), spent, left, text)
