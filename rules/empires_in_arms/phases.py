"""The Empires in Arms phase resolvers: the procedures applied to the whole World, in order.

Each resolver takes the World, the orders given ({power key: payload}) and the phase's
dice. It re-checks every order against the current state (the GM may have edited it
since the order was given), skips with a log line what is no longer legal or what the
procedure refuses, changes the World in place and logs every roll as the GM would write
it. It answers what happened (``Outcomes``): the outcomes of the procedures it applied,
in order, with a ``Skipped`` for each order it did not carry out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.dice import Dice
from rules.empires_in_arms.legal import (
    aidable_revolts,
    can_attack_depots,
    can_operate,
    depot_attack_forces,
    eligible_corps,
    operation_targets,
    own_revolts,
    revolt_targets,
)
from rules.empires_in_arms.procedures import (
    MONTHS_WITHOUT_GUERRILLAS,
    DepotAttack,
    GuerrillaCreation,
    RevoltEnd,
    RevoltStrength,
    RevoltSuccess,
    aid_revolt,
    anti_guerrilla_operation,
    becoming_infantry,
    depot_attack,
    guerrilla_move,
    revolt_attempt,
    revolt_end,
    revolt_ending,
    revolt_guerrillas,
    revolt_stacks,
    revolt_strength,
    spanish_guerrilla_areas,
    spanish_guerrilla_removal,
    spanish_guerrillas,
    success_blocked,
    successful_revolt,
    three_months_ending,
    voluntary_lapse,
)
from rules.empires_in_arms.state import CLIENT, CONQUERED, SPAIN, Guerrilla, Revolt, World, option
from rules.modifiers import RollReport
from rules.refusals import Refused, Skipped
from rules.text import CLAUSES, Join, Plural, Text

Orders = Mapping[str, Mapping[str, Any]]
Outcomes = tuple[Any, ...]  # the procedures' outcomes and the Skipped orders, in order


# -- peace step -------------------------------------------------------------------------


def resolve_peace(world: World, orders: Orders, dice: Dice) -> Outcomes:
    """EIA-7 in the peace step: voluntary lapses, in land-phase order. (The three-month
    ending comes at the start of the revolt step, ``resolve_revolt_step``.)"""
    outcomes: list[Any] = []
    for power in world.land_order():
        for key in _order(orders, power, "lapse"):
            outcomes += _lapse(world, power, key)
    return (*outcomes, *immediate_checks(world))


def _lapse(world: World, power: str, key: str) -> Outcomes:
    revolt = world.active_revolt(key)
    if revolt is None or revolt.sponsor != power:
        text = Text(
            "%(power)s has no revolt in %(area)s to let lapse: order skipped",
            power=world.powers[power].name,
            area=_name(world, key),
        )
        return _skip(world, "EIA-7", Skipped(power, key, text), area=key)
    ending = voluntary_lapse(world.areas[key], world.powers[power])
    return (_end_revolt(world, revolt, ending),)


# -- revolt step ------------------------------------------------------------------------


def resolve_revolt_step(world: World, orders: Orders, dice: Dice) -> Outcomes:
    """First the political phase's end check (EIA-7: revolts three months without
    guerrillas end in the political phase of the fourth month), so that their areas may
    be targeted again; then EIA-1 and EIA-2, each power's revolt attempts, in land-phase
    order; then EIA-3 for every active revolt if revolt guerrillas appear at the end of
    the political phase."""
    outcomes: list[Any] = [*three_month_endings(world)]
    for power in world.land_order():
        earlier: list[str] = []
        for key in _order(orders, power, "targets"):
            outcomes += _attempt(world, power, key, earlier, dice)
    if option(world.options, "revolt_guerrillas_when") == "political_end":
        outcomes += [_revolt_guerrillas(world, revolt, dice) for revolt in _active(world)]
    return (*outcomes, *immediate_checks(world))


def _attempt(world: World, power_key: str, key: str, earlier: list[str], dice: Dice) -> Outcomes:
    """EIA-1, and EIA-2 when the revolt breaks out; then, at once, EIA-7's ending where
    the sponsor and the controller are allies (Decision 17's option lets a power target
    its ally's area: the revolt is let down as soon as it breaks out)."""
    power = world.powers[power_key]
    if key not in revolt_targets(world, power_key):
        text = Text(
            "%(power)s: %(area)s is not a legal revolt target now; attempt skipped, no PP spent",
            power=power.name,
            area=_name(world, key),
        )
        return _skip(world, "EIA-1", Skipped(power_key, key, text), area=key)
    area = world.areas[key]
    let_downs = world.let_downs.get((power_key, key), 0)
    nm = world.national_modifier(power_key, key)
    try:
        attempt = revolt_attempt(power, area, nm, let_downs, earlier, dice, world.options)
    except Refused as refusal:
        text = Text("%(reason)s: attempt refused", reason=refusal.text)
        return _skip(world, "EIA-1", Skipped(power_key, key, refusal.text), text, area=key)
    earlier.append(key)
    spent = Text(
        "%(power)s PP %(old)s → %(new)s",
        power=power.name,
        old=power.political_points,
        new=attempt.political_points,
    )
    _say_roll(world, attempt.report, spent)
    power.political_points = attempt.political_points
    if not attempt.broke_out:
        return (attempt,)
    strength = _break_out(world, power_key, key, nm, dice)
    return (attempt, strength, *_end_if_over(world, world.revolts[-1]))


def _break_out(world: World, power_key: str, key: str, nm: int, dice: Dice) -> RevoltStrength:
    """EIA-2: the new revolt and its number."""
    power, area = world.powers[power_key], world.areas[key]
    assert area.controller is not None  # a revolt target has one (legal.revolt_targets)
    controller = world.powers[area.controller]
    present = any(c.power == controller.key for c in world.corps_in(key))
    controller_nm = world.national_modifier(controller.key, key)
    strength = revolt_strength(power, controller, area, nm, controller_nm, present, dice)
    _say_roll(world, strength.report)
    world.revolts.append(Revolt(None, power_key, key, strength.number))
    return strength


# -- land phase: the guerrilla steps ----------------------------------------------------


def resolve_land(world: World, orders: Orders, dice: Dice) -> Outcomes:
    """Each power's guerrilla step, in land-phase order: guerrilla moves (EIA-9), revolt
    guerrillas of its revolts (EIA-3), Spanish guerrillas (EIA-10, Spain), operations
    (EIA-4), depot attacks (EIA-11), Spanish guerrilla removal (EIA-12, Spain).

    First, revolts three months without guerrillas end (EIA-7: in the fourth month, which
    may have no political phase); last, the corps' land combat marks are cleared."""
    outcomes: list[Any] = [*three_month_endings(world)]
    for power in world.land_order():
        outcomes += _guerrilla_step(world, power, orders, dice)
    _clear_fought(world)
    return (*outcomes, *immediate_checks(world))


def _guerrilla_step(world: World, power: str, orders: Orders, dice: Dice) -> Outcomes:
    """One power's guerrilla step, in the order ``resolve_land`` gives."""
    outcomes: list[Any] = []
    moved: list[Guerrilla] = []
    for move in _order(orders, power, "moves"):
        outcomes += _move(world, power, move, moved)
    _merge(world, moved)
    if option(world.options, "revolt_guerrillas_when") == "guerrilla_step":
        outcomes += [
            _revolt_guerrillas(world, revolt, dice) for revolt in own_revolts(world, power)
        ]
    raised: dict[str, int] = {}
    if power == SPAIN:
        outcomes += _spanish_guerrillas(world, dice, raised)
    for key in _order(orders, power, "operations"):
        outcomes += operate(world, power, key, dice)
    for key in _order(orders, power, "depot_attacks"):
        outcomes += attack_depots(world, power, key, dice)
    if power == SPAIN:
        outcomes += spanish_removal(world, raised)
    return tuple(outcomes)


def _clear_fought(world: World) -> None:
    """EIA-4: "fought" means fought in this month's land combat step; it ends here."""
    fought = [c for c in world.corps if c.fought]
    for corps in fought:
        corps.fought = False
    if fought:
        text = Plural(
            "Land phase over: %(count)s corps no longer marked as having fought in this "
            "month's land combat step",
            "Land phase over: %(count)s corps no longer marked as having fought in this "
            "month's land combat step",
            count=len(fought),
        )
        world.say("EIA-4", text)


def _move(world: World, power: str, move: Mapping[str, Any], moved: list[Guerrilla]) -> Outcomes:
    """EIA-9: one stack moves one adjacent area; a stack moves once per step. Stacks are
    merged only after all the power's moves (``_merge``), so that factors that joined a
    stack never move on with it."""
    stack_id = move.get("stack")
    stack = next(
        (g for g in world.guerrillas if g.id == stack_id and g.nationality == power),
        None,
    )
    already = any(g.id == stack_id for g in moved)
    if stack_id is None or stack is None or already:
        names = {"power": world.powers[power].name, "stack": stack_id}
        if already:
            text = Text(
                "%(power)s: guerrilla stack %(stack)s has already moved this step; move skipped",
                **names,
            )
        else:
            text = Text(
                "%(power)s: guerrilla stack %(stack)s is not one of its stacks; move skipped",
                **names,
            )
        return _skip(world, "EIA-9", Skipped(power, move, text))
    try:
        outcome = guerrilla_move(world, stack, move.get("to", ""))
    except Refused as refusal:
        return _skip(world, "EIA-9", Skipped(power, move, refusal.text), area=stack.area)
    world.say("EIA-9", outcome.text, power=power, area=stack.area)
    stack.area = outcome.destination
    moved.append(stack)
    return (outcome,)


def _merge(world: World, moved: Sequence[Guerrilla]) -> None:
    """After a power's moves, each stack that moved joins a like stack (same nationality,
    origin, kind) where it ended."""
    for stack in moved:
        other = _like_stack(world, stack.area, stack.nationality, stack.origin, stack.revolt, stack)
        if other is not None:
            other.factors += stack.factors
            _remove(world, [stack])


def _like_stack(
    world: World,
    area: str,
    nationality: str,
    origin: str,
    revolt: bool,
    besides: Guerrilla | None = None,
) -> Guerrilla | None:
    return next(
        (
            g
            for g in world.guerrillas
            if g is not besides
            and (g.area, g.nationality, g.origin, g.revolt) == (area, nationality, origin, revolt)
            and not g.besieged
        ),
        None,
    )


def _add_guerrillas(world: World, area: str, nationality: str, factors: int, revolt: bool) -> None:
    if factors <= 0:
        return
    stack = _like_stack(world, area, nationality, area, revolt)
    if stack is not None:
        stack.factors += factors
    else:
        world.guerrillas.append(Guerrilla(None, area, nationality, factors, area, revolt))


def _revolt_guerrillas(world: World, revolt: Revolt, dice: Dice) -> GuerrillaCreation:
    area = world.areas[revolt.area]
    creation = revolt_guerrillas(revolt, area, world.guerrilla_factors(area.key), dice)
    _say_roll(world, creation.report)
    _add_guerrillas(world, area.key, revolt.sponsor, creation.created, revolt=True)
    return creation


def _spanish_guerrillas(world: World, dice: Dice, raised: dict[str, int]) -> Outcomes:
    """EIA-10 in Spain's step; ``raised`` gets the factors placed, by area (EIA-12 under
    Decision 18's option spares those in a ceded province)."""
    creations = []
    for key in spanish_guerrilla_areas(world):
        in_revolt = world.active_revolt(key) is not None
        existing = world.guerrilla_factors(key)
        creation = spanish_guerrillas(world.areas[key], existing, dice, in_revolt=in_revolt)
        _say_roll(world, creation.report)
        _add_guerrillas(world, key, SPAIN, creation.created, revolt=False)
        raised[key] = creation.created
        creations.append(creation)
    return tuple(creations)


def operate(world: World, power_key: str, key: str, dice: Dice) -> Outcomes:
    """EIA-4: the power's anti-guerrilla operation in an area and the revolt ending it
    brings (EIA-7), or a skipped order when none is possible there now (the log says
    why)."""
    power = world.powers[power_key]
    if not can_operate(world, power_key, key):
        text = Text(
            "%(power)s: no anti-guerrilla operation possible in %(area)s now; order skipped",
            power=power.name,
            area=_name(world, key),
        )
        return _skip(world, "EIA-4", Skipped(power_key, key, text), area=key)
    area, revolt = world.areas[key], world.active_revolt(key)
    targets = operation_targets(world, power_key, key)
    controller = world.powers.get(area.controller) if area.controller else None
    corps = len(eligible_corps(world, power_key, key))
    operation = anti_guerrilla_operation(
        power, area, revolt, corps, targets, controller, dice, world.options
    )
    _say_roll(world, operation.report)
    if operation.payment is not None:
        _say_roll(world, operation.payment)
    _remove(world, operation.eliminated)
    if controller is not None and operation.controller_treasury is not None:
        controller.treasury = operation.controller_treasury
    if revolt is not None and operation.revolt_number is not None:
        revolt.number = operation.revolt_number
        return (operation, *_end_if_over(world, revolt))
    return (operation,)


def attack_depots(world: World, power_key: str, key: str, dice: Dice) -> Outcomes:
    """EIA-11: guerrillas attack the power's depots in an area, or a skipped order when
    they cannot (the log says why)."""
    power = world.powers[power_key]
    if not can_attack_depots(world, power_key, key):
        text = Text(
            "%(power)s: no guerrilla depot attack possible in %(area)s now; order skipped",
            power=power.name,
            area=_name(world, key),
        )
        return _skip(world, "EIA-11", Skipped(power_key, key, text), area=key)
    forces = depot_attack_forces(world, power_key, key)
    attack = depot_attack(power, world.areas[key], *forces, dice, world.options)
    _say_roll(world, attack.report)
    world.depots = [d for d in world.depots if not any(d is x for x in attack.destroyed)]
    _retreat_garrisons(world, attack)
    return (attack,)


def _retreat_garrisons(world: World, attack: DepotAttack) -> None:
    """EIA-11: what the GM does with the garrisons of the depots destroyed."""
    for depot in attack.destroyed:
        if depot.garrison:
            text = Plural(
                "GM: %(power)s's depot garrison of %(count)s factor in %(area)s retreats into "
                "a city (up to its capacity) or joins a corps there; the rest are eliminated",
                "GM: %(power)s's depot garrison of %(count)s factors in %(area)s retreats into "
                "a city (up to its capacity) or joins a corps there; the rest are eliminated",
                count=depot.garrison,
                power=world.powers[depot.power].name,
                area=world.areas[depot.area].name,
            )
            world.say("EIA-11", text, power=depot.power, area=depot.area)


def spanish_removal(world: World, raised: Mapping[str, int] | None = None) -> Outcomes:
    """EIA-12: Spanish guerrillas removed at the end of Spain's step, and the militia
    they give Spain (nothing while an enemy is in Spain or none are left); ``raised``:
    the factors EIA-10 raised in this step, by area (Decision 18)."""
    removal = spanish_guerrilla_removal(world, raised)
    if removal is None:
        return ()
    _remove(world, removal.removed)
    for stack, kept in removal.thinned:
        stack.factors = kept
    world.militia_due[SPAIN] = world.militia_due.get(SPAIN, 0) + removal.militia
    world.say("EIA-12", removal.text, power=SPAIN)
    return (removal,)


# -- conquest step ----------------------------------------------------------------------


def resolve_conquest(world: World, orders: Orders, dice: Dice) -> Outcomes:
    """EIA-8 for every active revolt (the sponsor's client / conquered choice from its
    orders, else the answer it gave before and is kept; with none, "conquered", as the log
    says); then each surviving revolt counts a month with or without guerrillas (EIA-7)."""
    outcomes: list[Any] = []
    for revolt in _active(world):
        _keep_choice(revolt, orders)
        outcomes += _conquest(world, revolt, orders)
    for revolt in _active(world):
        _count_month(world, revolt)
    return (*outcomes, *immediate_checks(world))


def _keep_choice(revolt: Revolt, orders: Orders) -> None:
    """EIA-8: a client / conquered choice the sponsor ordered is its standing answer for
    the revolt, kept on the revolt until it orders another."""
    choices = (orders.get(revolt.sponsor) or {}).get("choices") or {}
    if choices.get(revolt.area) in (CLIENT, CONQUERED):
        revolt.conquest_choice = choices[revolt.area]


def _conquest(world: World, revolt: Revolt, orders: Orders) -> Outcomes:
    """EIA-8: the revolt succeeds, or the GM is told why it does not, or nothing yet."""
    success = successful_revolt(world, revolt, revolt.conquest_choice)
    if success is not None:
        _succeed(world, revolt, success)
        return (success,)
    if (note := success_blocked(world, revolt)) is not None:
        world.say("EIA-8", note, power=revolt.sponsor, area=revolt.area)
    return ()


def _succeed(world: World, revolt: Revolt, success: RevoltSuccess) -> None:
    area = world.areas[revolt.area]
    area.controller, area.ceded, area.home_power = (
        success.controller,
        success.ceded,
        success.home_power,
    )
    area.minor_status = success.minor_status
    _remove(world, revolt_stacks(world, revolt))
    revolt.active = False
    revolt.end_reason = Text("successful: %(reason)s", reason=success.reason)
    revolt.conquest_choice = success.choice
    text = Text(
        "%(power)s's revolt in %(area)s succeeds: %(reason)s",
        power=world.powers[revolt.sponsor].name,
        area=area.name,
        reason=success.reason,
    )
    world.say("EIA-8", text, power=revolt.sponsor, area=area.key)
    if success.gm_note is not None:
        world.say("EIA-8", success.gm_note, power=revolt.sponsor, area=area.key)


def _count_month(world: World, revolt: Revolt) -> None:
    if world.guerrilla_factors(revolt.area):
        revolt.months_without_guerrillas = 0
        return
    revolt.months_without_guerrillas += 1
    count, area = revolt.months_without_guerrillas, world.areas[revolt.area].name
    if revolt.months_without_guerrillas >= MONTHS_WITHOUT_GUERRILLAS:
        text = Plural(
            "No guerrillas in %(area)s this month (%(count)s in a row): the revolt ends next "
            "month, before its guerrilla rolls",
            "No guerrillas in %(area)s this month (%(count)s in a row): the revolt ends next "
            "month, before its guerrilla rolls",
            count=count,
            area=area,
        )
    else:
        text = Plural(
            "No guerrillas in %(area)s this month (%(count)s in a row)",
            "No guerrillas in %(area)s this month (%(count)s in a row)",
            count=count,
            area=area,
        )
    world.say("EIA-7", text, power=revolt.sponsor, area=revolt.area)


# -- economic phase ---------------------------------------------------------------------


def resolve_economic(world: World, orders: Orders, dice: Dice) -> Outcomes:
    """EIA-5: each power's aid to revolts, $1 to $6 each, in land-phase order."""
    outcomes: list[Any] = []
    for power in world.land_order():
        for key, amount in dict(_order(orders, power, "aid")).items():
            outcomes += aid(world, power, key, amount, dice)
    return (*outcomes, *immediate_checks(world))


def aid(world: World, power_key: str, key: str, amount: int, dice: Dice) -> Outcomes:
    """EIA-5: the power's aid to the revolt in an area, or a skipped order when it may
    not aid it now or the amount is refused (the log says why). A skipped order names
    (area, amount)."""
    power = world.powers[power_key]
    revolt = world.active_revolt(key)
    if revolt is None or not any(revolt is r for r in aidable_revolts(world, power_key)):
        text = Text(
            "%(power)s may not aid a revolt in %(area)s now; order skipped",
            power=power.name,
            area=_name(world, key),
        )
        return _skip(world, "EIA-5", Skipped(power_key, (key, amount), text), area=key)
    try:
        given = aid_revolt(power, revolt, world.areas[key], amount, dice)
    except Refused as refusal:
        text = Text("%(reason)s; aid skipped", reason=refusal.text)
        skipped = Skipped(power_key, (key, amount), refusal.text)
        return _skip(world, "EIA-5", skipped, text, area=key)
    treasury = Text("treasury $%(old)s → $%(new)s", old=power.treasury, new=given.treasury)
    _say_roll(world, given.report, treasury)
    power.treasury = given.treasury
    revolt.number = given.revolt_number
    return (given,)


# -- EIA-7: ending revolts --------------------------------------------------------------


def three_month_endings(world: World) -> Outcomes:
    """EIA-7: revolts with no guerrillas for three months in a row end in the fourth
    month, before any guerrilla roll of it: at the start of its revolt step if it has a
    political phase, else at the start of its land phase. Running it again changes
    nothing."""
    endings = []
    for revolt in _active(world):
        ending = three_months_ending(revolt, world.areas[revolt.area])
        if ending is not None:
            endings.append(_end_revolt(world, revolt, ending))
    return tuple(endings)


def immediate_checks(world: World) -> Outcomes:
    """EIA-7 endings that apply at once after any change of state: sponsor and controller
    allied, area ceded to the sponsor, minor gone neutral, revolt number 1 or less."""
    return tuple(ending for revolt in _active(world) for ending in _end_if_over(world, revolt))


def _end_if_over(world: World, revolt: Revolt) -> Outcomes:
    ending = revolt_ending(world, revolt)
    if ending is None:
        return ()
    return (_end_revolt(world, revolt, ending),)


def _end_revolt(world: World, revolt: Revolt, ending: RevoltEnd) -> RevoltEnd:
    """EIA-7: end the revolt and remove its guerrillas (or make them the neutral minor's
    infantry); count a let-down where the sponsor let it down. Answers the ending with
    what it did (``revolt_end``)."""
    ending = revolt_end(world, revolt, ending)
    _remove(world, revolt_stacks(world, revolt))
    revolt.active = False
    revolt.end_reason = ending.reason
    if ending.let_downs:
        world.let_downs[(revolt.sponsor, revolt.area)] = ending.let_downs
    world.say("EIA-7", _ending_text(world, revolt, ending), power=revolt.sponsor, area=revolt.area)
    return ending


def _ending_text(world: World, revolt: Revolt, ending: RevoltEnd) -> Text:
    """ "X's revolt in Y ends: why; X let it down (n in Y so far); what became of its
    guerrilla factors", each part only where it applies."""
    area = world.areas[revolt.area]
    names = {"power": world.powers[revolt.sponsor].name, "area": area.name}
    parts = [Text("%(power)s's revolt in %(area)s ends: %(reason)s", reason=ending.reason, **names)]
    if ending.let_downs:
        parts.append(
            Plural(
                "%(power)s let it down (%(count)s in %(area)s so far)",
                "%(power)s let it down (%(count)s in %(area)s so far)",
                count=ending.let_downs,
                **names,
            )
        )
    if ending.infantry:
        parts.append(becoming_infantry(ending.infantry, area, area.name))
    if ending.removed:
        parts.append(
            Plural(
                "%(count)s guerrilla factor removed",
                "%(count)s guerrilla factors removed",
                count=ending.removed,
            )
        )
    return Join(*parts, sep=CLAUSES)


# -- helpers ----------------------------------------------------------------------------


def _order(orders: Orders, power: str, key: str) -> Any:
    return (orders.get(power) or {}).get(key) or ()


def _active(world: World) -> list[Revolt]:
    return [r for r in world.revolts if r.active]


def _name(world: World, key: str) -> str:
    return world.areas[key].name if key in world.areas else key


def _remove(world: World, stacks: Sequence[Guerrilla]) -> None:
    world.guerrillas = [g for g in world.guerrillas if not any(g is s for s in stacks)]


def _skip(
    world: World, rule: str, skipped: Skipped, line: Text | None = None, area: str | None = None
) -> Outcomes:
    """Log an order not carried out (``line``, else the reason it was skipped) and
    answer its Skipped."""
    world.say(rule, line or skipped.reason, power=skipped.power, area=area)
    return (skipped,)


def _say_roll(world: World, report: RollReport, change: Text | None = None) -> None:
    """A roll's log line: its purpose and explanation, and what it cost (``change``)."""
    names = {"purpose": report.purpose, "roll": report.text}
    if change is None:
        text = Text("%(purpose)s: %(roll)s", **names)
    else:
        text = Text("%(purpose)s: %(roll)s (%(change)s)", change=change, **names)
    world.say(report.rule, text, power=report.power, area=report.area, roll=report)
