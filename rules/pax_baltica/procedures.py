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
from rules.modifiers import ModifiedRoll, RollReport, difference, faces_text, product
from rules.pax_baltica.state import (
    ARMY,
    FLEET,
    FORAGE_DEMAND,
    GARRISON_RATING,
    KIND_NAMES,
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
from rules.refusals import Refused, reason_for
from rules.text import CLAUSES, Join, Plural, Text

PLACED_GARRISON = 1  # GNW-2: the strength of the marker a captor places


def dice_count(count: int) -> Text:
    return Plural("%(count)s die", "%(count)s dice", count=count)


def hits_count(count: int) -> Text:
    return Plural("%(count)s hit", "%(count)s hits", count=count)


def steps_count(count: int) -> Text:
    return Plural("%(count)s step", "%(count)s steps", count=count)


def _nation_name(world: World, key: str | None) -> str:
    nation = world.nations.get(key) if key else None
    return nation.name if nation else (key or Text("nobody"))


def _area_name(world: World, key: str | None) -> str:
    area = world.territories.get(key) if key else None
    return area.name if area else (key or Text("the pool"))


# -- GNW-1 siege ------------------------------------------------------------------------


@dataclass(frozen=True)
class FireReport(RollReport):
    """One unit's fire in a siege round. ``roll.face`` is its first die and ``extra_faces``
    the others, in the order rolled (``faces``; the log stores them all)."""

    @property
    def text(self) -> Text:
        """ "dice 1 5, hits on 1 → 1 hit: Karl XII 4 → 3"; like every RollReport's text, without
        the purpose ("Garrison of Narva (C1, 2 dice)"), which the log puts before it."""
        return Text(
            "%(faces)s, %(comparison)s → %(outcome)s",
            faces=faces_text(self.faces),
            comparison=self.comparison,
            outcome=self.outcome,
        )


@dataclass(frozen=True)
class SiegeRound:
    reports: tuple[FireReport, ...]  # one per unit that fired, in firing order
    garrison_hits: int  # hits scored by the garrison on the besiegers
    besieger_hits: int  # hits scored by the besiegers on the garrison
    captured: bool
    strengths: dict[int, int]  # every besieging block's strength after the round
    text: Text


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
    order fixed at the start of the round, or re-sorted by the strengths left each time the
    garrison's hits take effect (Decision 11, option ``siege_block_order``; no different
    when hits wait for the end of the round). Each block rolls its current strength in dice
    and hits on its firepower or less. A garrison hit takes one step from the strongest
    besieging block (ties: lowest id), which may be eliminated; hits take effect at once,
    so a block hit before it fires rolls fewer dice, or at the end of the round (Decision
    4, option ``siege_hits``); hits beyond the besiegers' total strength are lost. The
    garrison is captured when the besiegers' hits reach its strength.
    """
    at_once = option(options, "siege_hits") == "at_once"
    defender_first = option(options, "siege_fire_order") == "defender_first"
    resort = option(options, "siege_block_order") == "as_hits_land"
    strengths = {b.id: b.strength for b in besiegers}
    names = {b.id: b.name for b in besiegers}

    def firing_order(unit: Block | None) -> tuple:
        if unit is None:
            return (GARRISON_RATING[0], 0 if defender_first else 1, 0, 0)
        return (unit.letter, 1 if defender_first else 0, -strengths[unit.id], unit.id)

    reports: list[FireReport] = []
    garrison_hits = besieger_hits = 0
    taken = None
    queue = sorted([None, *besiegers], key=firing_order)
    while queue:
        unit = queue.pop(0)
        if unit is None:
            count, firepower = territory.garrison, int(GARRISON_RATING[1:])
            purpose = Text(
                "Garrison of %(territory)s (%(rating)s, %(dice)s)",
                territory=territory.name,
                rating=GARRISON_RATING,
                dice=dice_count(count),
            )
            power = territory.controller
        else:
            count, firepower = strengths[unit.id], unit.firepower
            purpose = Text(
                "%(block)s (%(rating)s, %(dice)s)",
                block=unit.name,
                rating=unit.rating,
                dice=dice_count(count),
            )
            power = unit.nation
        if count <= 0:
            continue
        faces = [dice.d6(purpose) for _ in range(count)]
        hits = sum(1 for face in faces if face <= firepower)
        outcome = hits_count(hits)
        if unit is not None:
            besieger_hits += hits
        else:
            garrison_hits = hits
            if at_once and hits:
                taken = _take_hits(strengths, names, hits)
                if resort:
                    queue.sort(key=firing_order)
                outcome = Plural(
                    "%(count)s hit: %(taken)s", "%(count)s hits: %(taken)s", count=hits, taken=taken
                )
            elif hits:
                outcome = Plural(
                    "%(count)s hit (taken at the end of the round)",
                    "%(count)s hits (taken at the end of the round)",
                    count=hits,
                )
        reports.append(
            FireReport(
                "GNW-1",
                purpose,
                ModifiedRoll(faces[0]),
                _hits_on(firepower),
                outcome,
                power=power,
                area=territory.key,
                extra_faces=tuple(faces[1:]),
            )
        )
    if garrison_hits and not at_once:
        taken = _take_hits(strengths, names, garrison_hits)
    captured = besieger_hits >= territory.garrison
    text = _siege_text(territory, garrison_hits, taken, besieger_hits, captured)
    return SiegeRound(tuple(reports), garrison_hits, besieger_hits, captured, strengths, text)


def _hits_on(firepower: int) -> Text:
    if firepower > 1:
        return Text("hits on %(firepower)s or less", firepower=firepower)
    return Text("hits on %(firepower)s", firepower=firepower)


def _siege_text(
    territory: Territory, garrison_hits: int, taken: Text | None, besieger_hits: int, captured: bool
) -> Text:
    """The round's summary: both sides' hits and whether the garrison is captured."""
    fields = {
        "territory": territory.name,
        "garrison_hits": hits_count(garrison_hits),
        "besieger_hits": hits_count(besieger_hits),
        "garrison": territory.garrison,
        "result": Text("the garrison is captured") if captured else Text("the garrison holds"),
    }
    if taken:
        return Text(
            "Siege of %(territory)s: the garrison scores %(garrison_hits)s (%(taken)s); the "
            "besiegers score %(besieger_hits)s against a garrison of %(garrison)s: %(result)s",
            taken=taken,
            **fields,
        )
    return Text(
        "Siege of %(territory)s: the garrison scores %(garrison_hits)s; the besiegers score "
        "%(besieger_hits)s against a garrison of %(garrison)s: %(result)s",
        **fields,
    )


def _take_hits(strengths: dict[int, int], names: Mapping[int, str], hits: int) -> Text:
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
    parts = [
        _strength_change(names[i], before[i], strength)
        for i, strength in strengths.items()
        if strength != before[i]
    ]
    if lost:
        parts.append(
            Plural(
                "%(count)s hit lost, no besieger left",
                "%(count)s hits lost, no besieger left",
                count=lost,
            )
        )
    return Join(*parts, sep=", ")


def _strength_change(name: str, before: int, after: int) -> Text:
    """ "Karl XII 4 → 3", "Karl XII 1 → 0 (eliminated)"."""
    if after == 0:
        return Text(
            "%(block)s %(before)s → %(after)s (eliminated)", block=name, before=before, after=after
        )
    return Text("%(block)s %(before)s → %(after)s", block=name, before=before, after=after)


# -- GNW-2 siege result -----------------------------------------------------------------


@dataclass(frozen=True)
class SiegeResult:
    controller: str | None  # the territory's controller afterwards
    garrison: int  # its garrison marker's strength afterwards; 0 = no marker
    surrendered_nation: str | None  # its RP level falls by 4 (GNW-5)
    liberated_nation: str | None  # its RP level is restored by 4 (GNW-5)
    forced_peace: str | None  # a captured capital forces peace on this nation (10.2)
    text: Text


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
        raise Refused(
            Text(
                "%(nation)s cannot besiege its own side's garrison of %(territory)s",
                nation=_nation_name(world, attacker),
                territory=territory.name,
            )
        )
    friendly_home = home is not None and not world.enemies(attacker, home)
    places = not friendly_home or territory.in_poland
    controller, garrison = (attacker, PLACED_GARRISON) if places else (home, 0)
    surrendered = home if holder is not None and holder == home else None
    restores = option(world.options, "liberation") == "restores"
    liberated = home if territory.surrendered and friendly_home and restores else None
    forced_peace = home if territory.capital and not friendly_home else None

    parts = [
        _capture_text(world, territory, attacker, places, friendly_home),
        Text("the besiegers may not regroup"),
    ]
    name, points = territory.name, RP_PER_SURRENDER
    if surrendered:
        parts.append(
            Text(
                "%(nation)s's RP level falls by %(points)s (GNW-5)",
                nation=_nation_name(world, surrendered),
                points=points,
            )
        )
    if liberated:
        parts.append(
            Text(
                "%(territory)s is liberated: %(nation)s's RP level is restored by %(points)s "
                "(GNW-5)",
                territory=name,
                nation=_nation_name(world, liberated),
                points=points,
            )
        )
    elif territory.surrendered and friendly_home:
        parts.append(
            Text("%(territory)s is liberated; the GM decides any RP restoration", territory=name)
        )
    if forced_peace:
        parts.append(
            Text(
                "%(territory)s is %(nation)s's capital: peace is forced on %(nation)s (10.2)",
                territory=name,
                nation=_nation_name(world, forced_peace),
            )
        )
    text = Join(*parts, sep=CLAUSES)
    return SiegeResult(controller, garrison, surrendered, liberated, forced_peace, text)


def _capture_text(
    world: World, territory: Territory, attacker: str, places: bool, friendly_home: bool
) -> Text:
    """GNW-2: who removes or captures the garrison, and who controls the territory now."""
    holder = territory.controller
    fields = {
        "attacker": _nation_name(world, attacker),
        "garrison": Text("%(nation)s's garrison", nation=_nation_name(world, holder))
        if holder
        else Text("the garrison"),
        "territory": territory.name,
    }
    if not places:
        return Text(
            "%(attacker)s removes %(garrison)s from %(territory)s; control returns to %(home)s",
            home=_nation_name(world, territory.nation),
            **fields,
        )
    if friendly_home:
        return Text(
            "%(attacker)s captures %(garrison)s of %(territory)s and places its own garrison "
            "marker (in Poland the captor may always place it): %(attacker)s controls "
            "%(territory)s",
            **fields,
        )
    return Text(
        "%(attacker)s captures %(garrison)s of %(territory)s and places its own garrison "
        "marker: %(attacker)s controls %(territory)s",
        **fields,
    )


# -- GNW-3 battle before siege ----------------------------------------------------------


@dataclass(frozen=True)
class BattleFirst:
    siege_goes_ahead: bool
    besiegers: tuple[int, ...]  # block ids still besieging after the battle
    retreating: tuple[int, ...]  # block ids that must retreat (the GM moves them)
    text: Text


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
    remaining: tuple[int, ...]
    retreating: tuple[int, ...]
    if besiegers_won:
        remaining, retreating = stayed, ()
        why = Text("the besieging side won the battle")
    elif option(options, "besiegers_lose") == "all_retreat":
        remaining, retreating = (), stayed + fighters
        why = Text("the besieging side lost the battle: every besieger retreats")
    else:
        remaining, retreating = stayed, fighters
        why = Text("the besieging side lost the battle: the blocks that fought retreat")
    names = {b.id: b.name for b in standing}
    if remaining:
        listed = Join(*(names[i] for i in remaining), sep=", ")
        text = Text("%(battle)s; the siege goes ahead with %(blocks)s", battle=why, blocks=listed)
    else:
        text = Text("%(battle)s; no block is left to besiege: no siege", battle=why)
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
    text: Text


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
    head = _forage_demand(territory, eaters, demand, fp, trains)
    hit = Join(
        *(_strength_change(b.name, b.strength, strengths[b.id]) for b in eaters if b.id in losses),
        sep=", ",
    )
    short = difference(demand, fp + trains, deficit) if deficit else None
    text = _forage_result(head, short, hit if taken else None, ignored)
    return ForageCheck(territory.key, demand, supply, deficit, losses, ignored, text)


def _forage_demand(
    territory: Territory, eaters: Sequence[Block], demand: int, fp: int, trains: int
) -> Text:
    """ "Kurland: demand 5 FP (2 armies, 1 regiment), supply 3 FP + 1 from supply trains"."""
    armies = sum(1 for b in eaters if b.kind == ARMY)
    regiments = len(eaters) - armies
    present = []
    if armies:
        present.append(Plural("%(count)s army", "%(count)s armies", count=armies))
    if regiments:
        present.append(Plural("%(count)s regiment", "%(count)s regiments", count=regiments))
    fields = {
        "territory": territory.name,
        "demand": demand,
        "blocks": Join(*present, sep=", ") if present else Text("no blocks"),
        "fp": fp,
    }
    if trains:
        return Text(
            "%(territory)s: demand %(demand)s FP (%(blocks)s), supply %(fp)s FP + %(trains)s "
            "from supply trains",
            trains=trains,
            **fields,
        )
    return Text("%(territory)s: demand %(demand)s FP (%(blocks)s), supply %(fp)s FP", **fields)


def _forage_result(head: Text, deficit: Text | None, losses: Text | None, ignored: int) -> Text:
    """The demand sentence ``head``, the ``deficit`` ("5 − 4 = 1": demand − supply; None
    when there is none) and what it cost (``losses``: the steps taken, None when no block
    could lose one)."""
    if deficit is None:
        return Text("%(demand)s: enough", demand=head)
    if losses is None:
        return Text(
            "%(demand)s: %(deficit)s short; no block can lose a step (every block is at "
            "strength 1): the losses are ignored",
            demand=head,
            deficit=deficit,
        )
    if ignored:
        return Plural(
            "%(demand)s: %(deficit)s short; %(losses)s; %(count)s loss ignored (no block above "
            "strength 1)",
            "%(demand)s: %(deficit)s short; %(losses)s; %(count)s losses ignored (no block "
            "above strength 1)",
            count=ignored,
            demand=head,
            deficit=deficit,
            losses=losses,
        )
    return Text(
        "%(demand)s: %(deficit)s short; %(losses)s", demand=head, deficit=deficit, losses=losses
    )


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


def forage_losses(
    strengths: Mapping[int, int], deficit: int, loss_order: Sequence[int], owner_order: bool
) -> dict[int, int]:
    """GNW-4's losses alone: the steps each block (id → strength) loses to ``deficit``
    under ``loss_order`` (see ``forage``)."""
    left = dict(strengths)
    _forage_losses(left, deficit, list(loss_order), owner_order)
    return {i: strengths[i] - left[i] for i in left if left[i] != strengths[i]}


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
            level = after.get(key)
            if level is not None:
                after[key] = level + sign * RP_PER_SURRENDER
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


def check_reinforcement(world: World, block: Block, steps: int, has_line: bool) -> None:
    """GNW-7/8: Refused with why ``block`` may not gain ``steps`` now."""
    name = block.name
    if block.in_pool:
        raise Refused(
            Text(
                "%(block)s is in the pool: pool blocks are drawn (GNW-10), not reinforced",
                block=name,
            )
        )
    if block.carried_by is not None:
        raise Refused(Text("%(block)s is carried by a fleet and cannot be reinforced", block=name))
    if block.in_battle:
        raise Refused(Text("%(block)s is in a battle and cannot be reinforced", block=name))
    area = world.territories.get(block.location) if block.location else None
    if block.kind == FLEET and not (area and area.kind == TERRITORY and area.port):
        raise Refused(Text("%(block)s is at sea: a fleet is reinforced only in a port", block=name))
    if not has_line:
        raise Refused(Text("%(block)s has no line of communication (GNW-9)", block=name))
    if steps < 1:
        raise Refused(
            Plural(
                "%(count)s step is no reinforcement",
                "%(count)s steps is no reinforcement",
                count=steps,
            )
        )
    _check_room(block, steps)


def _check_room(block: Block, steps: int) -> None:
    """GNW-7: Refused when ``steps`` would take ``block`` past its full strength."""
    room = block.max_strength - block.strength
    if steps > room:
        raise Refused(
            Plural(
                "%(block)s is at %(strength)s of %(max)s: it can gain %(count)s step, not "
                "%(steps)s",
                "%(block)s is at %(strength)s of %(max)s: it can gain %(count)s steps, not "
                "%(steps)s",
                count=room,
                block=block.name,
                strength=block.strength,
                max=block.max_strength,
                steps=steps,
            )
        )


@dataclass(frozen=True)
class Reinforcement:
    block: int
    steps: int
    rp_cost: int
    actions: int
    strength: int  # after
    text: Text


def reinforce_with_rp(
    world: World, block: Block, steps: int, has_line: bool, rp_available: int
) -> Reinforcement:
    """GNW-7: ``steps`` steps for RP (army 2, regiment 1, fleet 2 each; double without a
    friendly garrison); Refused with the reason when refused or unaffordable."""
    check_reinforcement(world, block, steps, has_line)
    friendly = friendly_garrison(world, block)
    cost = steps * step_cost(block, friendly)
    if cost > rp_available:
        raise Refused(
            Plural(
                "%(count)s step for %(block)s cost %(cost)s RP; %(left)s RP are left",
                "%(count)s steps for %(block)s cost %(cost)s RP; %(left)s RP are left",
                count=steps,
                block=block.name,
                cost=cost,
                left=rp_available,
            )
        )
    strength = block.strength + steps
    fields = {
        "count": steps,
        "block": block.name,
        "kind": KIND_NAMES[block.kind],
        "area": _area_name(world, block.location),
        "before": block.strength,
        "after": strength,
        "unit": STEP_COST[block.kind],
        "cost": cost,
    }
    text = _bought_with_rp(friendly, fields)
    return Reinforcement(block.id, steps, cost, 0, strength, text)


def _bought_with_rp(friendly: bool, fields: dict[str, Any]) -> Text:
    """GNW-7's log line: the steps gained and their price, doubled without ``friendly``."""
    if friendly:
        return Plural(
            "%(block)s (%(kind)s) in %(area)s gains %(count)s step (%(before)s → %(after)s): "
            "%(count)s step × %(unit)s RP = %(cost)s RP",
            "%(block)s (%(kind)s) in %(area)s gains %(count)s steps (%(before)s → %(after)s): "
            "%(count)s steps × %(unit)s RP = %(cost)s RP",
            **fields,
        )
    return Plural(
        "%(block)s (%(kind)s) in %(area)s gains %(count)s step (%(before)s → %(after)s): "
        "%(count)s step × %(unit)s RP × 2 (no friendly garrison) = %(cost)s RP",
        "%(block)s (%(kind)s) in %(area)s gains %(count)s steps (%(before)s → %(after)s): "
        "%(count)s steps × %(unit)s RP × 2 (no friendly garrison) = %(cost)s RP",
        **fields,
    )


def reinforce_by_action(world: World, block: Block, actions: int, has_line: bool) -> Reinforcement:
    """GNW-8: one step per action (no RP), under every GNW-7 restriction; without a
    friendly garrison a step takes two actions under Decision 8's ``two_actions`` option.
    Refused with the reason when refused. The caller checks and spends the actions."""
    double = option(world.options, "action_doubling") == "two_actions" and not friendly_garrison(
        world, block
    )
    per_step = 2 if double else 1
    if actions % per_step:
        raise Refused(
            Text(
                "a step for %(block)s takes 2 actions without a friendly garrison; %(actions)s "
                "actions do not buy whole steps",
                block=block.name,
                actions=actions,
            )
        )
    steps = actions // per_step
    check_reinforcement(world, block, steps, has_line)
    strength = block.strength + steps
    fields = {
        "block": block.name,
        "kind": KIND_NAMES[block.kind],
        "area": _area_name(world, block.location),
        "steps": steps_count(steps),
        "actions": Plural("%(count)s action", "%(count)s actions", count=actions),
        "before": block.strength,
        "after": strength,
    }
    if double:
        text = Text(
            "%(block)s (%(kind)s) in %(area)s gains %(steps)s for %(actions)s (2 per step: no "
            "friendly garrison) (%(before)s → %(after)s), no RP",
            **fields,
        )
    else:
        text = Text(
            "%(block)s (%(kind)s) in %(area)s gains %(steps)s for %(actions)s "
            "(%(before)s → %(after)s), no RP",
            **fields,
        )
    return Reinforcement(block.id, steps, 0, actions, strength, text)


# -- GNW-10, GNW-11 new blocks ----------------------------------------------------------


def placement_choices(world: World, block: Block) -> list[str]:
    """GNW-11: where a new block may go: those of its places, in the scenario's order,
    that ``check_placement`` allows."""
    places = _places(world, block)
    return [k for k in places if reason_for(check_placement, world, block, k) is None]


def _places(world: World, block: Block) -> tuple[str, ...]:
    """GNW-11: a red-dot block's own places, a fleet's ports, else its nation's
    deployment territories."""
    nation = world.nations[block.nation]
    if block.red_dot:
        return block.places
    if block.kind == FLEET:
        return nation.fleet_ports
    return nation.deployment


def check_placement(world: World, block: Block, territory_key: str) -> None:
    """GNW-11: Refused with why ``block`` may not be placed in ``territory_key``: not one
    of its places, a fleet's without a port, or a territory holding enemy blocks or an
    enemy garrison."""
    if territory_key not in world.territories:
        raise Refused(Text("there is no territory “%(key)s”", key=territory_key))
    allowed = _places(world, block)
    if territory_key not in allowed:
        listed = Join(*(_area_name(world, k) for k in allowed), sep=", ") or Text("nowhere")
        raise Refused(_placed_only_in(block, world.nations[block.nation], listed))
    if block.kind == FLEET and not world.territories[territory_key].port:
        raise Refused(Text("%(territory)s has no port", territory=_area_name(world, territory_key)))
    _check_no_enemy(world, block, territory_key)


def _check_no_enemy(world: World, block: Block, key: str) -> None:
    """Refused when ``key`` holds enemy blocks or an enemy garrison."""
    area = world.territories[key]
    if any(world.enemies(block.nation, b.nation) for b in world.blocks_in(key)):
        raise Refused(Text("%(territory)s holds enemy blocks", territory=area.name))
    if area.garrison > 0 and world.enemies(block.nation, area.controller):
        raise Refused(
            Text(
                "%(territory)s holds %(nation)s's garrison",
                territory=area.name,
                nation=_nation_name(world, area.controller),
            )
        )


def _placed_only_in(block: Block, nation: Nation, listed: str) -> Text:
    if block.red_dot:
        return Text(
            "%(block)s (red dot) is placed only in %(places)s", block=block.name, places=listed
        )
    if block.kind == FLEET:
        return Text(
            "new %(nation)s fleets are placed only in %(places)s", nation=nation.name, places=listed
        )
    return Text(
        "new %(nation)s blocks are placed only in %(places)s", nation=nation.name, places=listed
    )


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
    text: Text


@dataclass(frozen=True)
class Recruitment:
    draws: tuple[Draw, ...]
    rp_spent: int  # every RP paid, for unplaceable blocks too
    rp_lost: int  # rp − rp_spent: unspent RP never carry over
    text: Text


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
        if left < first:
            ends = option(options, "unaffordable_draw") == "ends"
            text = _unaffordable(block, left, first, ends)
            draws.append(Draw(block.id, block.name, block.kind, first, 0, 0, None, True, text))
            if ends:
                break
            continue
        extra = max(0, min(steps_wanted(block) - 1, block.max_strength - 1, (left - first) // unit))
        cost = first + extra * unit
        left -= cost
        steps = 1 + extra
        bought = _bought(block, first, extra, unit)
        where = place(block)
        if where is None:
            ends = option(options, "unplaceable_block") == "ends"
            text = _unplaceable(bought, cost, ends)
            draws.append(
                Draw(block.id, block.name, block.kind, first, steps, cost, None, True, text)
            )
            if ends:
                break
            continue
        text = Text("%(draw)s, placed in %(area)s", draw=bought, area=names.get(where, where))
        draws.append(Draw(block.id, block.name, block.kind, first, steps, cost, where, False, text))
    spent = rp - left
    placed = sum(1 for d in draws if not d.returned)
    return Recruitment(tuple(draws), spent, left, _spending(rp, spent, placed, left))


def _unaffordable(block: Block, left: int, first: int, ends: bool) -> Text:
    """GNW-10: a drawn block the RP left cannot pay for (Decision 3: ``ends``)."""
    fields = {"block": block.name, "kind": KIND_NAMES[block.kind], "left": left, "first": first}
    if ends:
        return Text(
            "%(block)s (%(kind)s) drawn: %(left)s RP cannot pay the first step (%(first)s RP); "
            "it returns to the pool and spending ends",
            **fields,
        )
    return Text(
        "%(block)s (%(kind)s) drawn: %(left)s RP cannot pay the first step (%(first)s RP); "
        "it returns to the pool and it is not drawn again this phase",
        **fields,
    )


def _bought(block: Block, first: int, extra: int, unit: int) -> Text:
    """GNW-10: what a paid block cost and the strength it has."""
    fields = {
        "block": block.name,
        "kind": KIND_NAMES[block.kind],
        "first": product(unit, 2, first),  # the first step costs double
        "strength": 1 + extra,
    }
    if extra:
        return Text(
            "%(block)s (%(kind)s) drawn: %(first)s RP for the first step + %(extra_rp)s RP for "
            "%(extra)s more = strength %(strength)s",
            extra_rp=product(extra, unit, extra * unit),
            extra=extra,
            **fields,
        )
    return Text(
        "%(block)s (%(kind)s) drawn: %(first)s RP for the first step = strength %(strength)s",
        **fields,
    )


def _unplaceable(bought: Text, cost: int, ends: bool) -> Text:
    """GNW-11: a paid block with no legal place (Decision 9: ``ends``)."""
    if ends:
        return Text(
            "%(draw)s, but it has no legal place: it returns to the pool and the %(cost)s RP "
            "paid are lost; spending ends",
            draw=bought,
            cost=cost,
        )
    return Text(
        "%(draw)s, but it has no legal place: it returns to the pool and the %(cost)s RP paid "
        "are lost",
        draw=bought,
        cost=cost,
    )


def _spending(rp: int, spent: int, placed: int, left: int) -> Text:
    """GNW-6: the RP spent, the blocks placed and the RP lost."""
    if left:
        return Plural(
            "%(rp)s RP: %(spent)s spent, %(count)s block placed; %(left)s RP unspent and lost",
            "%(rp)s RP: %(spent)s spent, %(count)s blocks placed; %(left)s RP unspent and lost",
            count=placed,
            rp=rp,
            spent=spent,
            left=difference(rp, spent, left),
        )
    return Plural(
        "%(rp)s RP: %(spent)s spent, %(count)s block placed",
        "%(rp)s RP: %(spent)s spent, %(count)s blocks placed",
        count=placed,
        rp=rp,
        spent=spent,
    )
