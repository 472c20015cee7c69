"""The Empires in Arms revolt and guerrilla procedures EIA-1..EIA-12, one pure function each.

Each function reads plain values or the dataclasses of ``state`` without changing them,
rolls what it needs on ``dice`` and returns a frozen outcome: the RollReport(s) the log
shows and the values that result. The phase resolvers (``phases``) apply them. An input
the rules do not allow raises ``Refused`` saying why, before any roll. Options
are read from an ``options`` mapping (``World.options``); a missing key is the default,
the option's first choice in ``ruleset.OPTIONS``.

EIA-6 is a constraint, not a procedure: only an anti-guerrilla operation (EIA-4: down,
or up on a bad roll) and aid to a revolt (EIA-5: up) change a revolt number. EIA-2 sets
the first number; no other outcome here carries a revolt number, and the resolvers
assign ``Revolt.number`` from EIA-4 and EIA-5 outcomes only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.dice import Dice
from rules.empires_in_arms.legal import (
    AID_RANGE,
    MAX_ATTEMPTS,
    SUCCESS_NUMBER,
    guerrilla_destinations,
    guerrilla_enemy,
    home_neighbours,
    over_cap,
    revolt_stacks,
    succeeds_now,
    unbesieged_factors,
)
from rules.empires_in_arms.state import (
    ALLIED,
    CLIENT,
    CONQUERED,
    MINOR,
    OTTOMAN,
    PROVINCE,
    SPAIN,
    ZONE_NAMES,
    Area,
    Depot,
    Guerrilla,
    Power,
    Revolt,
    World,
    option,
)
from rules.modifiers import ModifiedRoll, Modifier, RollReport, clamp, difference, quotient
from rules.refusals import Refused
from rules.text import CLAUSES, Join, Plural, Text

REVOLT_SUCCESS = 6  # EIA-1: a modified 6 or more
INITIAL_NUMBER = (2, 5)  # EIA-2 clamp
OTTOMAN_MAXIMUM = 3
DEPOT_SUCCESS = 5  # EIA-11: a modified 5-6
DEPOT_GARRISON = 10
MANY_GUERRILLAS = 10
MONTHS_WITHOUT_GUERRILLAS = 3
MILITIA_PER = 3  # EIA-12


def _national(power: Power, value: int) -> Modifier:
    return Modifier(Text("%(power)s national modifier", power=power.name), value)


def _zone(power: Power, sign: int = 1) -> Modifier:
    # Translators: a modifier: the power's political status zone, e.g. "France Dominant".
    label = Text("%(power)s %(zone)s", power=power.name, zone=ZONE_NAMES[power.zone])
    return Modifier(label, sign * power.status_modifier)


# -- EIA-1 ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RevoltAttempt:
    report: RollReport
    broke_out: bool
    political_points: int  # the sponsor's PP afterwards


def revolt_attempt(
    sponsor: Power,
    area: Area,
    national_modifier: int,
    let_downs: int,
    earlier_targets: Sequence[str],
    dice: Dice,
    options: Mapping[str, Any] | None = None,
) -> RevoltAttempt:
    """EIA-1: one revolt attempt: d6 + NM + PSM − let-downs (minors); 6 or more breaks out.

    ``earlier_targets`` are the areas of the sponsor's attempts earlier in this revolt step
    (the three-attempt limit counts them per step or per target, Decision 7). The attempt
    costs 1 PP whatever the result; an attempt over the limit, or without the PP an option
    asks, is Refused: it rolls nothing and costs nothing.
    """
    _check_attempt(sponsor, area, earlier_targets, options)
    modifiers = revolt_attempt_modifiers(sponsor, area, national_modifier, let_downs)
    purpose = Text("%(power)s incites a revolt in %(area)s", power=sponsor.name, area=area.name)
    roll = ModifiedRoll(dice.d6(purpose), modifiers)
    broke_out = roll.total >= REVOLT_SUCCESS
    report = RollReport(
        "EIA-1",
        purpose,
        roll,
        Text("≥ %(value)s", value=REVOLT_SUCCESS)
        if broke_out
        else Text("< %(value)s", value=REVOLT_SUCCESS),
        Text("the revolt breaks out") if broke_out else Text("no revolt"),
        power=sponsor.key,
        area=area.key,
    )
    return RevoltAttempt(report, broke_out, sponsor.political_points - 1)


def revolt_attempt_modifiers(
    sponsor: Power, area: Area, national_modifier: int, let_downs: int
) -> tuple[Modifier, ...]:
    """EIA-1's modifiers to the die: NM(sponsor, target) + PSM(sponsor) − the earlier
    revolts the sponsor let down there (minors only)."""
    modifiers: tuple[Modifier, ...] = (_national(sponsor, national_modifier), _zone(sponsor))
    if area.kind == MINOR:
        let_down = Plural(
            "let down %(count)s earlier revolt",
            "let down %(count)s earlier revolts",
            count=let_downs,
        )
        modifiers += (Modifier(let_down, -let_downs),)
    return modifiers


def revolt_attempt_needs(sponsor: Power, area: Area, national_modifier: int, let_downs: int) -> int:
    """The least die face with which an EIA-1 attempt breaks out: below 1, any face does;
    above 6, none does."""
    modifiers = revolt_attempt_modifiers(sponsor, area, national_modifier, let_downs)
    return REVOLT_SUCCESS - sum(modifier.value for modifier in modifiers)


def _check_attempt(
    sponsor: Power, area: Area, earlier: Sequence[str], options: Mapping[str, Any] | None
) -> None:
    """EIA-1: Refused with why the sponsor may make no attempt on ``area`` now."""
    name = sponsor.name
    if option(options, "attempt_limit") == "per_target":
        if list(earlier).count(area.key) >= MAX_ATTEMPTS:
            raise Refused(
                Plural(
                    "%(power)s has made its %(count)s attempt on %(area)s this step",
                    "%(power)s has made its %(count)s attempts on %(area)s this step",
                    count=MAX_ATTEMPTS,
                    power=name,
                    area=area.name,
                )
            )
    elif len(earlier) >= MAX_ATTEMPTS:
        raise Refused(
            Plural(
                "%(power)s has made its %(count)s attempt this revolt step",
                "%(power)s has made its %(count)s attempts this revolt step",
                count=MAX_ATTEMPTS,
                power=name,
            )
        )
    minimum = option(options, "attempt_pp_minimum")  # Decision 8: 0 means no minimum
    if minimum and sponsor.political_points < minimum:
        raise Refused(
            Text(
                "%(power)s has %(points)s PP; an attempt needs %(minimum)s",
                power=name,
                points=sponsor.political_points,
                minimum=minimum,
            )
        )


# -- EIA-2 ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RevoltStrength:
    report: RollReport
    number: int


def revolt_strength(
    sponsor: Power,
    controller: Power,
    area: Area,
    sponsor_modifier: int,
    controller_modifier: int,
    controller_corps_present: bool,
    dice: Dice,
) -> RevoltStrength:
    """EIA-2: the new revolt's number: d6 + sponsor's NM and PSM − controller's NM and PSM
    − 1 if the controller has a corps in the area, clamped to 2..5."""
    present = Text("%(power)s corps present", power=controller.name)
    modifiers = (
        _national(sponsor, sponsor_modifier),
        _zone(sponsor),
        _national(controller, -controller_modifier),
        _zone(controller, -1),
        Modifier(present, -1 if controller_corps_present else 0),
    )
    purpose = Text(
        "Strength of the %(power)s revolt in %(area)s", power=sponsor.name, area=area.name
    )
    roll = ModifiedRoll(dice.d6(purpose), modifiers)
    number = clamp(roll.total, *INITIAL_NUMBER)
    comparison, outcome = _strength_outcome(roll.total, number)
    report = RollReport("EIA-2", purpose, roll, comparison, outcome, sponsor.key, area.key)
    return RevoltStrength(report, number)


def _strength_outcome(total: int, number: int) -> tuple[Text | str, Text]:
    """EIA-2: (comparison, outcome) of a strength roll clamped to ``number``."""
    low, high = INITIAL_NUMBER
    if number == total:
        return "", Text("revolt number %(number)s", number=number)
    comparison = (
        Text("> %(value)s", value=high) if number == high else Text("< %(value)s", value=low)
    )
    outcome = Text(
        "revolt number %(number)s (a new revolt's number is %(low)s to %(high)s)",
        number=number,
        low=low,
        high=high,
    )
    return comparison, outcome


# -- EIA-3 and EIA-10: guerrilla factors under a value ------------------------------------


@dataclass(frozen=True)
class GuerrillaCreation:
    report: RollReport
    created: int  # guerrilla factors placed
    uncapped: int  # the factors the die gives, before the cap (created ≤ uncapped)


def revolt_guerrillas(
    revolt: Revolt, area: Area, existing_factors: int, dice: Dice
) -> GuerrillaCreation:
    """EIA-3: one guerrilla factor per point the d6 is under the revolt number, never more
    than the revolting area's 5 × manpower cap (``existing_factors``: every guerrilla
    factor there, Spanish and besieged ones included)."""
    purpose = Text(
        "Revolt guerrillas in %(area)s (revolt number %(number)s)",
        area=area.name,
        number=revolt.number,
    )
    value = revolt.number
    cap = area.guerrilla_cap
    return _guerrillas_under(
        "EIA-3", purpose, revolt.sponsor, area, value, existing_factors, cap, dice
    )


def _guerrillas_under(
    rule: str,
    purpose: Text,
    power: str,
    area: Area,
    value: int,
    existing: int,
    cap: int | None,  # the 5 × manpower cap of an area in revolt; None: no cap
    dice: Dice,
) -> GuerrillaCreation:
    roll = ModifiedRoll(dice.d6(purpose))
    wanted = max(0, value - roll.face)
    created = wanted if cap is None else min(wanted, max(0, cap - existing))
    outcome = _created_text(wanted, created, cap, existing, area)
    if wanted:
        outcome = difference(value, roll.face, outcome)
    comparison = Text("< %(value)s", value=value) if wanted else Text("≥ %(value)s", value=value)
    report = RollReport(rule, purpose, roll, comparison, outcome, power, area.key)
    return GuerrillaCreation(report, created, wanted)


def _created_text(wanted: int, created: int, cap: int | None, existing: int, area: Area) -> Text:
    if not wanted:
        return Text("no guerrilla factors")
    if created == wanted or cap is None:
        return Plural(
            "%(count)s guerrilla factor in %(area)s",
            "%(count)s guerrilla factors in %(area)s",
            count=created,
            area=area.name,
        )
    return Plural(
        "%(count)s guerrilla factor, of which %(created)s fit under the cap of %(cap)s in "
        "%(area)s (%(existing)s already there)",
        "%(count)s guerrilla factors, of which %(created)s fit under the cap of %(cap)s in "
        "%(area)s (%(existing)s already there)",
        count=wanted,
        created=difference(cap, existing, created) if created else created,
        cap=cap,
        area=area.name,
        existing=existing,
    )


# -- EIA-4 ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    report: RollReport
    payment: RollReport | None  # the $d6 die, rolled only if the controller pays
    success: bool
    eliminated: tuple[Guerrilla, ...]
    revolt_number: int | None  # None outside a revolt
    controller_treasury: int | None  # after a payment die; None if none was rolled


def anti_guerrilla_operation(
    power: Power,
    area: Area,
    revolt: Revolt | None,
    eligible_corps: int,
    guerrillas: Sequence[Guerrilla],
    controller: Power | None,
    dice: Dice,
    options: Mapping[str, Any] | None = None,
) -> Operation:
    """EIA-4: d6 (+1 for 2 or more eligible corps, or the Ottoman bonus) higher than the
    guerrilla value eliminates the ``guerrillas`` (the enemy stacks in the area) that are
    not besieged and lowers a revolt number by 1; a modified 6 lowers it by 1 more; a bad
    roll raises it unless the controller pays $d6 (a second die, logged).
    """
    value = guerrilla_value(area, revolt, options)
    purpose = Text(
        "%(power)s anti-guerrilla operation in %(area)s", power=power.name, area=area.name
    )
    roll = ModifiedRoll(
        dice.d6(purpose), _operation_modifiers(power, area, eligible_corps, options)
    )
    success = roll.total > value
    eliminated = _eliminated(guerrillas, options) if success else ()
    parts = [_elimination_text(guerrillas, eliminated) if success else Text("no effect")]
    number, payment, treasury = None, None, None
    if revolt is not None:
        number, changes = _lowered(power, area, revolt.number, roll, success, options)
        if changes:
            parts.append(
                Text(
                    "revolt number %(old)s → %(new)s (%(changes)s)",
                    old=revolt.number,
                    new=number,
                    changes=Join(*changes, sep=", "),
                )
            )
        elif success:
            parts.append(Text("only the controller's operations lower the revolt number"))
        if _bad_roll(roll.total, options):
            text, payment, treasury, number = _bad_roll_rise(controller, number, dice, options)
            parts.append(text)
    named = _value_text(area, revolt, options)
    comparison = Text("> %(value)s", value=named) if success else Text("≤ %(value)s", value=named)
    outcome = Join(*parts, sep=CLAUSES)
    report = RollReport("EIA-4", purpose, roll, comparison, outcome, power.key, area.key)
    return Operation(report, payment, success, eliminated, number, treasury)


def operation_needs(
    power: Power,
    area: Area,
    revolt: Revolt | None,
    eligible_corps: int,
    options: Mapping[str, Any] | None = None,
) -> int:
    """The least die face with which an EIA-4 operation succeeds (its modified roll above
    the guerrilla value): below 1, any face does; above 6, none does."""
    modifiers = _operation_modifiers(power, area, eligible_corps, options)
    return guerrilla_value(area, revolt, options) + 1 - sum(m.value for m in modifiers)


def guerrilla_value(area: Area, revolt: Revolt | None, options: Mapping[str, Any] | None) -> int:
    """EIA-4: the revolt number, or the printed value of a Spanish province (Decision 12)."""
    printed = area.guerrilla_value
    if revolt is None:
        return printed or 0
    if printed is not None and option(options, "spanish_revolt_value") == "printed":
        return printed
    return revolt.number


def _value_text(area: Area, revolt: Revolt | None, options: Mapping[str, Any] | None) -> Text:
    """The guerrilla value an EIA-4 roll must beat, saying where it comes from: "revolt
    number 3", "guerrilla value 5" (a Spanish province's printed value)."""
    value = guerrilla_value(area, revolt, options)
    if revolt is not None and value == revolt.number:
        return Text("revolt number %(number)s", number=value)
    # Translators: the guerrilla value printed on a Spanish province (EIA-4, EIA-10).
    return Text("guerrilla value %(value)s", value=value)


def _operation_modifiers(
    power: Power, area: Area, eligible_corps: int, options: Mapping[str, Any] | None
) -> tuple[Modifier, ...]:
    two_corps = Modifier(Text("2 or more eligible corps"), 1 if eligible_corps >= 2 else 0)
    if not _ottoman_ground(power, area):
        return (two_corps,)
    label = Plural(
        "Ottoman: %(count)s eligible corps",
        "Ottoman: %(count)s eligible corps",
        count=eligible_corps,
    )
    ottoman = Modifier(label, min(eligible_corps, OTTOMAN_MAXIMUM))
    return (ottoman,) if option(options, "ottoman_bonus") == "replaces" else (two_corps, ottoman)


def _ottoman_ground(power: Power, area: Area) -> bool:
    """Ottoman home nation provinces and the minors the Ottomans hold as conquered minors
    (not their allied or client minors)."""
    if power.key != OTTOMAN:
        return False
    if area.kind == PROVINCE:
        return area.home_power == OTTOMAN
    return area.conquered_by == OTTOMAN


def _eliminated(
    guerrillas: Sequence[Guerrilla], options: Mapping[str, Any] | None
) -> tuple[Guerrilla, ...]:
    besieged_too = option(options, "besieged_guerrillas") == "eliminated"
    return tuple(g for g in guerrillas if besieged_too or not g.besieged)


def _elimination_text(guerrillas: Sequence[Guerrilla], eliminated: Sequence[Guerrilla]) -> Text:
    gone = sum(g.factors for g in eliminated)
    kept = sum(g.factors for g in guerrillas) - gone
    if gone:
        text = Plural(
            "%(count)s guerrilla factor eliminated",
            "%(count)s guerrilla factors eliminated",
            count=gone,
        )
    else:
        text = Text("no guerrillas to hit")
    if not kept:
        return text
    return Plural(
        "%(result)s, %(count)s besieged survives",
        "%(result)s, %(count)s besieged survive",
        count=kept,
        result=text,
    )


def _lowered(
    power: Power,
    area: Area,
    number: int,
    roll: ModifiedRoll,
    success: bool,
    options: Mapping[str, Any] | None,
) -> tuple[int, list[Text]]:
    if option(options, "operation_lowers") == "controller_only" and power.key != area.controller:
        return number, []
    changes = [Text("−1 for the success")] if success else []
    if (
        roll.total >= 6
        and option(options, "six_extra_reduction")
        and (success or not option(options, "six_extra_needs_success"))
    ):
        changes.append(Text("−1 more for a modified 6"))
    return number - len(changes), changes


def _bad_roll(total: int, options: Mapping[str, Any] | None) -> bool:
    """Decision 2: a modified 1 or less (default), or a modified 6 or more (literal 4.3.5)."""
    return total <= 1 if option(options, "bad_roll") == "modified_1" else total >= 6


def _bad_roll_rise(
    controller: Power | None, number: int, dice: Dice, options: Mapping[str, Any] | None
) -> tuple[Text, RollReport | None, int | None, int]:
    """(text, payment report, controller's treasury after the payment die, revolt number)."""
    refusal = _no_payment(controller, options)
    if refusal is not None or controller is None:
        text = Text(
            "a bad roll, %(reason)s: revolt number %(old)s → %(new)s",
            reason=refusal,
            old=number,
            new=number + 1,
        )
        return text, None, None, number + 1
    name, treasury = controller.name, controller.treasury
    purpose = Text("%(power)s pays $d6 against the rise", power=name)
    roll = ModifiedRoll(dice.d6(purpose))
    outcome, left, after = _payment(controller, roll.face, number, options)
    funds = Text("treasury $%(treasury)s", treasury=treasury)
    if roll.face <= treasury:
        comparison = Text("≤ %(value)s", value=funds)
    else:
        comparison = Text("> %(value)s", value=funds)
    payment = RollReport("EIA-4", purpose, roll, comparison, outcome, controller.key)
    text = Text("a bad roll: %(power)s pays $d6 or the revolt number rises", power=name)
    return text, payment, left, after


def _payment(
    controller: Power, cost: int, number: int, options: Mapping[str, Any] | None
) -> tuple[Text, int, int]:
    """Decision 15: (outcome, treasury afterwards, revolt number afterwards)."""
    name, treasury = controller.name, controller.treasury
    if cost <= treasury:
        text = Text(
            "%(power)s pays $%(cost)s; revolt number stays %(number)s",
            power=name,
            cost=cost,
            number=number,
        )
        return text, treasury - cost, number
    if option(options, "unaffordable_payment") == "pays_all":
        text = Text(
            "%(power)s pays its whole treasury, $%(treasury)s; revolt number stays %(number)s",
            power=name,
            treasury=treasury,
            number=number,
        )
        return text, 0, number
    text = Text(
        "%(power)s cannot pay $%(cost)s (treasury $%(treasury)s): revolt number %(old)s → %(new)s",
        power=name,
        cost=cost,
        treasury=treasury,
        old=number,
        new=number + 1,
    )
    return text, treasury, number + 1


def _no_payment(controller: Power | None, options: Mapping[str, Any] | None) -> Text | None:
    """Decision 5: why no $d6 is paid against a bad-roll rise; None when the controller pays."""
    if controller is None:
        return Text("no controller to pay")
    if option(options, "bad_roll_payment") == "never":
        return Text("%(power)s never pays (campaign option)", power=controller.name)
    if not controller.pays_bad_roll:
        return Text("%(power)s does not pay (standing order)", power=controller.name)
    return None


# -- EIA-5 ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Aid:
    report: RollReport
    revolt_number: int
    treasury: int  # the aiding power's treasury afterwards


def aid_revolt(power: Power, revolt: Revolt, area: Area, amount: int, dice: Dice) -> Aid:
    """EIA-5: spend $1 to $6 on a revolt; d6 ≤ amount raises its number by 1. The money is
    spent whatever the result; an amount outside that range, or more than the power has, is
    Refused."""
    low, high = AID_RANGE
    if not isinstance(amount, int) or not low <= amount <= high:
        raise Refused(
            Text("aid is $%(low)s to $%(high)s, not %(amount)s", low=low, high=high, amount=amount)
        )
    if amount > power.treasury:
        raise Refused(
            Text(
                "%(power)s cannot afford $%(amount)s (treasury $%(treasury)s)",
                power=power.name,
                amount=amount,
                treasury=power.treasury,
            )
        )
    purpose = Text(
        "%(power)s aids the revolt in %(area)s with $%(amount)s",
        power=power.name,
        area=area.name,
        amount=amount,
    )
    roll = ModifiedRoll(dice.d6(purpose))
    helped = roll.face <= amount
    number = revolt.number + (1 if helped else 0)
    if helped:
        outcome = Text("revolt number %(old)s → %(new)s", old=revolt.number, new=number)
        comparison = Text("≤ $%(amount)s", amount=amount)
    else:
        outcome, comparison = Text("no effect"), Text("> $%(amount)s", amount=amount)
    report = RollReport("EIA-5", purpose, roll, comparison, outcome, power.key, area.key)
    return Aid(report, number, power.treasury - amount)


# -- EIA-7 ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RevoltEnd:
    """Why a revolt ends and, once ``revolt_end`` has read the board, what that does."""

    reason: Text
    let_down: bool = False  # the sponsor let it down (counted for minors)
    to_infantry: bool = False  # its guerrillas become infantry of the (neutral) minor
    infantry: int = 0  # guerrilla factors that become the neutral minor's infantry
    removed: int = 0  # guerrilla factors removed from the map (not becoming infantry)
    let_downs: int = 0  # the sponsor's let-downs in the area with this one; 0: not let down


def voluntary_lapse(area: Area, sponsor: Power) -> RevoltEnd:
    """EIA-7: in a peace step the sponsor lets its revolt lapse, and so lets it down."""
    reason = Text("%(power)s lets it lapse", power=sponsor.name)
    return RevoltEnd(reason, let_down=area.kind == MINOR)


def three_months_ending(revolt: Revolt, area: Area) -> RevoltEnd | None:
    """EIA-7: no guerrilla factors in the area for three months in a row: the revolt ends
    in the fourth month, before any guerrilla roll of that month (in its political phase,
    or at the start of its land phase in a month without one)."""
    months = revolt.months_without_guerrillas
    if months < MONTHS_WITHOUT_GUERRILLAS:
        return None
    return RevoltEnd(
        Plural(
            "no guerrillas in %(area)s for %(count)s month in a row; "
            "it ends in the fourth month, before that month's guerrilla rolls",
            "no guerrillas in %(area)s for %(count)s months in a row; "
            "it ends in the fourth month, before that month's guerrilla rolls",
            count=months,
            area=area.name,
        )
    )


def revolt_ending(world: World, revolt: Revolt) -> RevoltEnd | None:
    """EIA-7: the endings that apply at once: sponsor and controller allied (a let-down),
    area ceded to or held by the sponsor, minor gone neutral (guerrillas become its
    infantry), revolt number 1 or less. None while the revolt goes on."""
    area = world.areas[revolt.area]
    sponsor = world.powers[revolt.sponsor]
    if area.controller is not None and world.allied(revolt.sponsor, area.controller):
        allies = Text(
            "%(power)s and %(other)s are allies",
            power=sponsor.name,
            other=world.powers[area.controller].name,
        )
        return RevoltEnd(allies, let_down=area.kind == MINOR)
    if area.controller == revolt.sponsor:
        return RevoltEnd(Text("%(area)s is now %(power)s's", area=area.name, power=sponsor.name))
    if area.controller is None and area.kind == MINOR:
        return RevoltEnd(Text("%(area)s is neutral", area=area.name), to_infantry=True)
    if revolt.number <= 1:
        return RevoltEnd(Text("put down (revolt number %(number)s)", number=revolt.number))
    return None


def revolt_end(world: World, revolt: Revolt, ending: RevoltEnd) -> RevoltEnd:
    """EIA-7: ``ending`` (from the functions above) with what it does on the board: the
    revolt's guerrilla factors become the neutral minor's infantry (``to_infantry``) or are
    removed, and a let-down is counted where the sponsor let it down."""
    factors = sum(g.factors for g in revolt_stacks(world, revolt))
    infantry = factors if ending.to_infantry else 0
    let_downs = 0
    if ending.let_down:
        let_downs = world.let_downs.get((revolt.sponsor, revolt.area), 0) + 1
    return replace(ending, infantry=infantry, removed=factors - infantry, let_downs=let_downs)


# -- EIA-8 ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RevoltSuccess:
    controller: str
    ceded: bool
    home_power: str | None
    minor_status: str  # a minor: ALLIED, CLIENT or CONQUERED; a province: ""
    infantry: int  # guerrilla factors that become infantry factors (0: all removed)
    infantry_owner: str  # whose infantry: the minor's area key or the sponsor's key
    choice: str  # "client" or "conquered" for a minor taken at war, else ""
    reason: Text
    gm_note: Text | None = None
    removed: int = 0  # guerrilla factors removed from the map (not becoming infantry)
    repatriated: tuple[str, ...] = ()  # at peace: powers whose garrisons the GM repatriates
    withdrawn: tuple[str, ...] = ()  # at peace: powers whose corps the GM moves out


def successful_revolt(world: World, revolt: Revolt, choice: str = "") -> RevoltSuccess | None:
    """EIA-8: guerrillas held the capital unbesieged for a month and the number is 6 or
    more: the sponsor gains the area (at peace: allied minor or home province again; at
    war: conquest, a minor as ``choice`` "client" or "conquered", conquered when no
    choice was given). None otherwise.

    The month the capital was held is the GM's entry (land combat is not automated); the
    revolt's guerrillas must still be there, at least one factor unbesieged."""
    if not succeeds_now(world, revolt):
        return None
    area = world.areas[revolt.area]
    sponsor = world.powers[revolt.sponsor]
    factors = sum(g.factors for g in revolt_stacks(world, revolt))
    if not world.at_war(revolt.sponsor, area.controller):
        return _success_at_peace(world, area, sponsor, factors)
    if area.kind == PROVINCE:
        return _province_conquered(area, sponsor, factors)
    return _minor_conquered(area, sponsor, factors, choice)


def success_blocked(world: World, revolt: Revolt) -> Text | None:
    """EIA-8: a note for the GM when the capital was entered as held and the number is 6
    or more, but no unbesieged guerrilla factor of the revolt is in the area; else None."""
    if revolt.capital_held_months < 1 or revolt.number < SUCCESS_NUMBER:
        return None
    if unbesieged_factors(world, revolt):
        return None
    return Plural(
        "GM: %(power)s's revolt in %(area)s has number %(number)s and the capital held for "
        "%(count)s month, but no unbesieged guerrilla factors of the revolt are in %(area)s: "
        "it does not succeed",
        "GM: %(power)s's revolt in %(area)s has number %(number)s and the capital held for "
        "%(count)s months, but no unbesieged guerrilla factors of the revolt are in %(area)s: "
        "it does not succeed",
        count=revolt.capital_held_months,
        power=world.powers[revolt.sponsor].name,
        area=world.areas[revolt.area].name,
        number=revolt.number,
    )


def becoming_infantry(factors: int, area: Area, owner: str) -> Text:
    """EIA-7 / EIA-8: the guerrilla factors become infantry of ``owner``, Islamic infantry
    where appropriate."""
    if area.islamic:
        return Plural(
            "%(count)s guerrilla factor becomes Islamic infantry of %(owner)s",
            "%(count)s guerrilla factors become Islamic infantry of %(owner)s",
            count=factors,
            owner=owner,
        )
    return Plural(
        "%(count)s guerrilla factor becomes infantry of %(owner)s",
        "%(count)s guerrilla factors become infantry of %(owner)s",
        count=factors,
        owner=owner,
    )


def _success_at_peace(world: World, area: Area, sponsor: Power, factors: int) -> RevoltSuccess:
    repatriated, withdrawn = _repatriation(world, area, sponsor)
    note = _repatriation_note(world, area, repatriated, withdrawn)
    peace: dict[str, Any] = {"gm_note": note, "repatriated": repatriated, "withdrawn": withdrawn}
    names = {"area": area.name, "power": sponsor.name}
    if area.kind == MINOR:
        infantry = becoming_infantry(factors, area, area.name)
        text = Text(
            "%(area)s becomes an allied minor of %(power)s; %(infantry)s",
            infantry=infantry,
            **names,
        )
        return RevoltSuccess(
            sponsor.key, False, area.home_power, ALLIED, factors, area.key, "", text, **peace
        )
    infantry = becoming_infantry(factors, area, sponsor.name)
    if area.home_power == sponsor.key:
        text = Text(
            "%(area)s becomes a home province of %(power)s again; %(infantry)s",
            infantry=infantry,
            **names,
        )
        return RevoltSuccess(
            sponsor.key, False, sponsor.key, "", factors, sponsor.key, "", text, **peace
        )
    return _another_powers_province(area, sponsor, factors, infantry, peace)


def _another_powers_province(
    area: Area, sponsor: Power, factors: int, infantry: Text, peace: dict[str, Any]
) -> RevoltSuccess:
    """The rules speak only of a former province reverting: the sponsor becomes the
    controller, and the GM is asked to check."""
    names = {"area": area.name, "power": sponsor.name}
    text = Text("%(power)s takes control of %(area)s; %(infantry)s", infantry=infantry, **names)
    check = Text(
        "GM: check %(area)s: the rules speak only of a former province of the sponsor "
        "reverting, and %(area)s never was %(power)s's; %(power)s is made its "
        "controller, its home nation and cession are left as they were",
        **names,
    )
    peace = {**peace, "gm_note": Join(peace["gm_note"], check, sep=CLAUSES)}
    home, ceded = area.home_power, area.ceded
    return RevoltSuccess(sponsor.key, ceded, home, "", factors, sponsor.key, "", text, **peace)


def _repatriation(
    world: World, area: Area, sponsor: Power
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """EIA-8 at peace: (the powers whose garrisons the GM repatriates from ``area``, those
    whose corps there the GM moves out), the sponsor's never, each by name."""
    garrisons = {area.controller} | {d.power for d in world.depots if d.area == area.key}
    corps = {c.power for c in world.corps_in(area.key)}
    return _others(world, garrisons, sponsor), _others(world, corps, sponsor)


def _repatriation_note(
    world: World, area: Area, repatriated: Sequence[str], withdrawn: Sequence[str]
) -> Text:
    powers, movers = _names(world, repatriated), _names(world, withdrawn)
    if not withdrawn:
        return Text(
            "GM: repatriate garrisons of %(powers)s from %(area)s", powers=powers, area=area.name
        )
    return Text(
        "GM: repatriate garrisons of %(powers)s from %(area)s; "
        "move corps of %(movers)s to nearest friendly territory",
        powers=powers,
        area=area.name,
        movers=movers,
    )


def _others(world: World, keys: Iterable[str | None], sponsor: Power) -> tuple[str, ...]:
    """The keys of the powers among ``keys`` other than the sponsor, by name."""
    found = [k for k in keys if k is not None and k in world.powers and k != sponsor.key]
    return tuple(sorted(found, key=lambda k: world.powers[k].name))


def _names(world: World, keys: Sequence[str]) -> Text:
    """The powers' names, each in the reader's language ("" for none)."""
    return Join(*(world.powers[k].name for k in keys), sep=", ")


def _province_conquered(area: Area, sponsor: Power, factors: int) -> RevoltSuccess:
    names = {"area": area.name, "power": sponsor.name}
    if area.home_power != sponsor.key:
        text = Plural(
            "%(power)s conquers %(area)s; %(count)s guerrilla factor removed",
            "%(power)s conquers %(area)s; %(count)s guerrilla factors removed",
            count=factors,
            **names,
        )
        home = area.home_power
        return RevoltSuccess(sponsor.key, area.ceded, home, "", 0, "", "", text, removed=factors)
    text = Plural(
        "%(power)s conquers %(area)s, its former home province; "
        "%(count)s guerrilla factor becomes regular infantry",
        "%(power)s conquers %(area)s, its former home province; "
        "%(count)s guerrilla factors become regular infantry",
        count=factors,
        **names,
    )
    return RevoltSuccess(sponsor.key, False, sponsor.key, "", factors, sponsor.key, "", text)


def _minor_conquered(area: Area, sponsor: Power, factors: int, choice: str) -> RevoltSuccess:
    if choice == CLIENT:
        text = _client_state(area, sponsor, factors)
        home = area.home_power
        return RevoltSuccess(sponsor.key, False, home, CLIENT, factors, area.key, CLIENT, text)
    names: dict[str, Any] = {"count": factors, "area": area.name, "power": sponsor.name}
    if choice == CONQUERED:
        text = Plural(
            "%(area)s becomes a conquered minor of %(power)s; %(count)s guerrilla factor removed",
            "%(area)s becomes a conquered minor of %(power)s; %(count)s guerrilla factors removed",
            **names,
        )
    else:
        text = Plural(
            "%(area)s becomes a conquered minor of %(power)s (%(power)s gave no choice: "
            "conquered by default); %(count)s guerrilla factor removed",
            "%(area)s becomes a conquered minor of %(power)s (%(power)s gave no choice: "
            "conquered by default); %(count)s guerrilla factors removed",
            **names,
        )
    home = area.home_power
    return RevoltSuccess(
        sponsor.key, False, home, CONQUERED, 0, "", CONQUERED, text, removed=factors
    )


def _client_state(area: Area, sponsor: Power, factors: int) -> Text:
    names: dict[str, Any] = {"count": factors, "area": area.name, "power": sponsor.name}
    if area.islamic:
        return Plural(
            "%(area)s becomes a client state of %(power)s with %(count)s Islamic infantry factor",
            "%(area)s becomes a client state of %(power)s with %(count)s Islamic infantry factors",
            **names,
        )
    return Plural(
        "%(area)s becomes a client state of %(power)s with %(count)s infantry factor",
        "%(area)s becomes a client state of %(power)s with %(count)s infantry factors",
        **names,
    )


# -- EIA-9 ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GuerrillaMove:
    stack: int | None  # the stack's id
    destination: str
    text: Text


def guerrilla_move(world: World, stack: Guerrilla, destination: str) -> GuerrillaMove:
    """EIA-9: a guerrilla stack moves at most one adjacent area per land movement step;
    revolt guerrillas never leave their area of origin, besieged ones stay, Spanish ones
    keep within the former Spanish provinces (EIA-10). Any other move is Refused: the
    stack stays, and the reason says why."""
    there = world.areas[destination].name if destination in world.areas else destination
    names: dict[str, Any] = {
        "count": stack.factors,
        "power": world.powers[stack.nationality].name,
        "here": world.areas[stack.area].name,
    }
    if destination in guerrilla_destinations(world, stack):
        text = Plural(
            "%(count)s guerrilla factor of %(power)s moves from %(here)s to %(there)s",
            "%(count)s guerrilla factors of %(power)s move from %(here)s to %(there)s",
            there=there,
            **names,
        )
        return GuerrillaMove(stack.id, destination, text)
    raise Refused(
        Plural(
            "%(count)s guerrilla factor of %(power)s stays in %(here)s: %(reason)s",
            "%(count)s guerrilla factors of %(power)s stay in %(here)s: %(reason)s",
            reason=_why_not(world, stack, destination, there),
            **names,
        )
    )


def _why_not(world: World, stack: Guerrilla, destination: str, there: str) -> Text:
    """EIA-9 / EIA-10: why a stack may not move to ``destination``."""
    if stack.revolt:
        return Text("revolt guerrillas never leave %(area)s", area=world.areas[stack.origin].name)
    if stack.besieged:
        return Text("they are besieged")
    if destination in home_neighbours(world, stack) and over_cap(world, destination, stack.factors):
        return Plural(
            "%(there)s is in revolt and holds %(count)s guerrilla factor; "
            "%(more)s more would pass its cap of %(cap)s",
            "%(there)s is in revolt and holds %(count)s guerrilla factors; "
            "%(more)s more would pass its cap of %(cap)s",
            count=world.guerrilla_factors(destination),
            there=there,
            more=stack.factors,
            cap=world.areas[destination].guerrilla_cap,
        )
    return Text("%(there)s is not an adjacent area they may enter", there=there)


# -- EIA-10 -----------------------------------------------------------------------------


def spanish_guerrilla_areas(world: World) -> list[str]:
    """EIA-10: the Spanish provinces where Spain rolls in its guerrilla step: unceded ones
    holding an unbesieged corps or garrison of a power at war with Spain, ceded former
    Spanish ones holding one of their controller or of a power at war with Spain."""
    due = [key for key, area in world.areas.items() if _spanish_roll_due(world, area)]
    return sorted(due, key=lambda key: world.areas[key].name)


def _spanish_roll_due(world: World, area: Area) -> bool:
    if area.kind != PROVINCE or area.home_power != SPAIN or area.guerrilla_value is None:
        return False
    occupiers = {c.power for c in world.corps_in(area.key) if not c.besieged}
    occupiers |= {d.power for d in world.depots if d.area == area.key and d.garrison > 0}
    return any(guerrilla_enemy(world, SPAIN, False, area.key, power) for power in occupiers)


def spanish_guerrillas(
    area: Area, existing_factors: int, dice: Dice, *, in_revolt: bool
) -> GuerrillaCreation:
    """EIA-10: one Spanish guerrilla factor per point the d6 is under the province's printed
    guerrilla value. The 5 × manpower cap (EIA-3, seed 4.3.3.1) binds only in a province
    in revolt. A lost field combat's factor is entered by the GM, since land combat is
    not automated."""
    value = area.guerrilla_value or 0
    purpose = Text(
        "Spanish guerrillas in %(area)s (guerrilla value %(value)s)", area=area.name, value=value
    )
    cap = area.guerrilla_cap if in_revolt else None
    return _guerrillas_under("EIA-10", purpose, SPAIN, area, value, existing_factors, cap, dice)


# -- EIA-11 -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DepotAttack:
    report: RollReport
    destroyed: tuple[Depot, ...]


def depot_attack(
    power: Power,
    area: Area,
    guerrilla_factors: int,
    enemy_corps: int,
    depots: Sequence[Depot],
    dice: Dice,
    options: Mapping[str, Any] | None = None,
) -> DepotAttack:
    """EIA-11: ``power``'s guerrillas (more than six) attack the enemy ``depots`` in
    ``area`` (port-city depots are immune): d6 −1 per enemy corps, −1 for a depot garrison
    of 10 factors (Decision 13), +1 for 10 or more guerrilla factors; 5–6 destroys them."""
    targets = _depot_targets(depots)
    modifiers = depot_attack_modifiers(guerrilla_factors, enemy_corps, depots, options)
    purpose = Text(
        "%(power)s's guerrillas attack the depots in %(area)s", power=power.name, area=area.name
    )
    roll = ModifiedRoll(dice.d6(purpose), modifiers)
    hit = roll.total >= DEPOT_SUCCESS
    destroyed = targets if hit else ()
    if hit:
        outcome = Plural(
            "%(count)s depot destroyed", "%(count)s depots destroyed", count=len(destroyed)
        )
        comparison = Text("≥ %(value)s", value=DEPOT_SUCCESS)
    else:
        outcome, comparison = Text("no effect"), Text("< %(value)s", value=DEPOT_SUCCESS)
    report = RollReport("EIA-11", purpose, roll, comparison, outcome, power.key, area.key)
    return DepotAttack(report, destroyed)


def depot_attack_needs(
    guerrilla_factors: int,
    enemy_corps: int,
    depots: Sequence[Depot],
    options: Mapping[str, Any] | None = None,
) -> int:
    """The least die face with which an EIA-11 attack destroys the depots: below 1, any
    face does; above 6, none does."""
    modifiers = depot_attack_modifiers(guerrilla_factors, enemy_corps, depots, options)
    return DEPOT_SUCCESS - sum(m.value for m in modifiers)


def depot_attack_modifiers(
    guerrilla_factors: int,
    enemy_corps: int,
    depots: Sequence[Depot],
    options: Mapping[str, Any] | None = None,
) -> tuple[Modifier, ...]:
    """EIA-11: what is added to the die of an attack on these depots (see depot_attack)."""
    garrisoned = any(_big_garrison(d.garrison, options) for d in _depot_targets(depots))
    return _depot_modifiers(enemy_corps, garrisoned, guerrilla_factors)


def _depot_targets(depots: Sequence[Depot]) -> tuple[Depot, ...]:
    """The depots an attack can destroy: those outside a port city."""
    return tuple(d for d in depots if not d.port_city)


def _depot_modifiers(enemy_corps: int, garrisoned: bool, factors: int) -> tuple[Modifier, ...]:
    corps = Plural("%(count)s enemy corps", "%(count)s enemy corps", count=enemy_corps)
    garrison = Plural(
        "depot garrison of %(count)s factor",
        "depot garrison of %(count)s factors",
        count=DEPOT_GARRISON,
    )
    many = Plural(
        "%(count)s or more guerrilla factor",
        "%(count)s or more guerrilla factors",
        count=MANY_GUERRILLAS,
    )
    return (
        Modifier(corps, -enemy_corps),
        Modifier(garrison, -1 if garrisoned else 0),
        Modifier(many, 1 if factors >= MANY_GUERRILLAS else 0),
    )


def _big_garrison(garrison: int, options: Mapping[str, Any] | None) -> bool:
    if option(options, "depot_garrison_threshold") == "exactly":
        return garrison == DEPOT_GARRISON
    return garrison >= DEPOT_GARRISON


# -- EIA-12 -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SpanishRemoval:
    removed: tuple[Guerrilla, ...]  # the stacks removed whole
    factors: int  # the factors removed
    militia: int
    text: Text
    # Decision 18's option: the factors raised in this step in a ceded province, which stay
    kept: int = 0
    # the stacks that keep only those, with the factors each keeps
    thinned: tuple[tuple[Guerrilla, int], ...] = ()


def spanish_guerrilla_removal(
    world: World, raised: Mapping[str, int] | None = None
) -> SpanishRemoval | None:
    """EIA-12: with no enemy factor inside any unceded Spanish home province, every Spanish
    guerrilla factor is removed and Spain gets 1 militia factor per 3 (rounded down) in its
    next reinforcement phase. None when an enemy is there or there is nothing to remove.

    ``raised``: the factors Spain's roll raised in this step, by area (EIA-10). They are
    removed with the others (Decision 18), or, under its option ``spanish_removal_ceded``,
    those raised in a ceded province stay (taken from its unbesieged stack of that origin)
    and give no militia."""
    stacks = tuple(g for g in world.guerrillas if g.nationality == SPAIN and not g.revolt)
    total = sum(g.factors for g in stacks)
    if not total or _enemy_in_spain(world):
        return None
    spared = _spared_ceded(world, stacks, raised or {})
    kept = sum(spared.get(id(g), 0) for g in stacks)
    removed = tuple(g for g in stacks if spared.get(id(g), 0) == 0)
    thinned = tuple((g, spared[id(g)]) for g in stacks if 0 < spared.get(id(g), 0) < g.factors)
    factors = total - kept
    militia = factors // MILITIA_PER
    text = Plural(
        "No enemy in Spain: %(count)s Spanish guerrilla factor removed; "
        "Spain receives %(militia)s in its next reinforcement phase",
        "No enemy in Spain: %(count)s Spanish guerrilla factors removed; "
        "Spain receives %(militia)s in its next reinforcement phase",
        count=factors,
        militia=quotient(
            factors,
            MILITIA_PER,
            Plural("%(count)s militia factor", "%(count)s militia factors", count=militia),
        ),
    )
    if kept:
        areas = sorted(
            {g.area for g in stacks if spared.get(id(g))}, key=lambda key: world.areas[key].name
        )
        stay = Plural(
            "%(count)s factor raised in this step in a ceded province stays (%(areas)s)",
            "%(count)s factors raised in this step in a ceded province stay (%(areas)s)",
            count=kept,
            areas=Join(*(world.areas[key].name for key in areas), sep=", "),
        )
        text = Join(text, stay, sep=CLAUSES)
    return SpanishRemoval(removed, factors, militia, text, kept, thinned)


def _spared_ceded(
    world: World, stacks: Sequence[Guerrilla], raised: Mapping[str, int]
) -> dict[int, int]:
    """Decision 18's option: the factors each stack (by ``id()``) keeps: those raised in
    this step in a ceded province, from the unbesieged stack that province's roll adds to.
    Empty under the default."""
    if option(world.options, "spanish_removal_ceded") != "spares_new_ceded":
        return {}
    spared: dict[int, int] = {}
    for key, count in raised.items():
        if count <= 0 or not world.areas[key].ceded:
            continue
        for stack in stacks:
            if (stack.area, stack.origin, stack.besieged) == (key, key, False) and count > 0:
                spared[id(stack)] = min(count, stack.factors)
                count -= spared[id(stack)]
    return spared


def _enemy_in_spain(world: World) -> bool:
    spain = {
        key
        for key, area in world.areas.items()
        if area.kind == PROVINCE and area.home_power == SPAIN and not area.ceded
    }
    forces = [(c.area, c.power) for c in world.corps]
    forces += [(d.area, d.power) for d in world.depots if d.garrison > 0]
    return any(
        area in spain and guerrilla_enemy(world, SPAIN, False, area, power)
        for area, power in forces
    )
