"""Properties that hold for any dice, options and state: clamps, caps and what may change."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import ScriptedDice, SeededDice
from rules.empires_in_arms.legal import (
    aidable_revolts,
    conquest_choice_revolts,
    depot_attack_areas,
    guerrilla_destinations,
    movable_stacks,
    operation_areas,
    own_revolts,
    revolt_targets,
)
from rules.empires_in_arms.phases import (
    resolve_conquest,
    resolve_economic,
    resolve_land,
    resolve_peace,
    resolve_revolt_step,
)
from rules.empires_in_arms.procedures import (
    aid_revolt,
    anti_guerrilla_operation,
    revolt_attempt,
    revolt_guerrillas,
    revolt_strength,
    spanish_guerrillas,
)
from rules.empires_in_arms.ruleset import OPTIONS
from rules.empires_in_arms.state import (
    MINOR,
    PROVINCE,
    ZONE_MODIFIERS,
    Area,
    Corps,
    Depot,
    Guerrilla,
    Power,
    Revolt,
)
from rules.refusals import Refused

# Counts of their own, above the profile's, as these properties are cheap; the default
# profile (bin/test) runs a quarter of them, CI all of them.
CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
PROPERTY = settings(max_examples=200 if CI else 50, deadline=None)
WHOLE_PHASES = settings(max_examples=100 if CI else 25, deadline=None)  # a random month each
zones = st.sampled_from(sorted(ZONE_MODIFIERS))
faces = st.integers(1, 6)
option_sets = st.fixed_dictionaries(
    {spec.key: st.sampled_from([value for value, _ in spec.choices]) for spec in OPTIONS}
)
REVOLT_SITES = (
    ("palatinate", "great_britain"),
    ("andalusia", "spain"),
    ("hesse", "austria"),
    ("wallachia", "russia"),
)
OPERATORS = ("france", "austria", "turkey", "russia", "prussia")
PHASES = {
    "peace": resolve_peace,
    "revolt": resolve_revolt_step,
    "land": resolve_land,
    "conquest": resolve_conquest,
    "economic": resolve_economic,
}


# -- procedure properties ---------------------------------------------------------------


@PROPERTY
@given(faces, st.integers(-6, 6), st.integers(-6, 6), zones, zones, st.booleans())
def test_eia2_revolt_number_starts_in_2_to_5(face, sponsor_nm, controller_nm, z1, z2, corps):
    sponsor, controller = Power("a", "A", zone=z1), Power("b", "B", zone=z2)
    area = Area("x", "X", MINOR, "b")
    outcome = revolt_strength(
        sponsor, controller, area, sponsor_nm, controller_nm, corps, ScriptedDice([face])
    )
    assert 2 <= outcome.number <= 5


@PROPERTY
@given(
    st.integers(0, 6),
    st.integers(2, 12),
    st.integers(1, 6),
    st.data(),
    st.lists(faces, min_size=1, max_size=30),
)
def test_guerrillas_never_exceed_five_times_manpower(manpower, number, printed, data, rolls):
    area = Area("x", "X", PROVINCE, "b", "spain", manpower=manpower, guerrilla_value=printed)
    total = data.draw(st.integers(0, area.guerrilla_cap))
    revolt = Revolt(1, "a", "x", number)
    for face in rolls:
        total += revolt_guerrillas(revolt, area, total, ScriptedDice([face])).created
        assert total <= area.guerrilla_cap
        total += spanish_guerrillas(area, total, ScriptedDice([face]), in_revolt=True).created
        assert total <= area.guerrilla_cap


def attempt_or_refusal(face, pp, earlier, options):
    """An EIA-1 attempt by a sponsor with ``pp`` PP: its outcome, or None when Refused
    (then no die was rolled)."""
    dice = ScriptedDice([face])
    sponsor = Power("a", "A", political_points=pp)
    try:
        return revolt_attempt(sponsor, Area("x", "X", MINOR, "b"), 1, 0, earlier, dice, options)
    except Refused:
        assert dice.rolls == []
        return None


@PROPERTY
@given(faces, st.integers(-5, 12), st.lists(st.sampled_from(["x", "y"]), max_size=5), option_sets)
def test_eia1_pp_changes_only_by_one_per_attempt(face, pp, earlier, options):
    outcome = attempt_or_refusal(face, pp, earlier, options)
    assert outcome is None or outcome.political_points == pp - 1


@PROPERTY
@given(faces, st.integers(-5, 12), st.lists(st.sampled_from(["x", "y"]), max_size=5), option_sets)
def test_eia1_refused_only_by_the_attempt_limit_or_the_pp_minimum_option(
    face, pp, earlier, options
):
    """Decision 8: by default PP are no bar; only the value-1 option sets a minimum."""
    outcome = attempt_or_refusal(face, pp, earlier, options)
    per_target = options["attempt_limit"] == "per_target"
    made = earlier.count("x") if per_target else len(earlier)
    minimum = options["attempt_pp_minimum"]  # 0: no minimum at all
    below_minimum = minimum > 0 and pp < minimum
    assert (outcome is None) == (made >= 3 or below_minimum)


@PROPERTY
@given(faces, st.integers(0, 12), st.integers(-1, 8))
def test_eia5_treasury_changes_only_by_the_amount(face, treasury, amount):
    """Aid of $1 to $6 the power can afford is spent and may raise the number by 1; any
    other is Refused, rolling nothing."""
    power = Power("a", "A", treasury=treasury)
    revolt, dice = Revolt(1, "a", "x", 3), ScriptedDice([face])
    try:
        outcome = aid_revolt(power, revolt, Area("x", "X", MINOR, "b"), amount, dice)
    except Refused:
        assert dice.rolls == [] and not 1 <= amount <= min(6, treasury)
        return
    assert outcome.treasury == treasury - amount
    assert outcome.revolt_number - revolt.number in (0, 1)


@PROPERTY
@given(faces, faces, st.integers(0, 8), st.integers(0, 4), st.booleans(), option_sets)
def test_eia4_treasury_changes_only_by_the_payment_die(face, pay, treasury, corps, pays, options):
    """A payment die is rolled exactly on a bad roll (Decision 2) when the controller pays
    (Decision 5: standing order, not the "never" option); the treasury drops by the die,
    or as Decision 15 says when it cannot cover it; otherwise nothing is rolled or paid."""
    controller = Power("b", "B", treasury=treasury, pays_bad_roll=pays)
    area, dice = Area("x", "X", MINOR, "b"), ScriptedDice([face, pay])
    outcome = anti_guerrilla_operation(
        controller, area, Revolt(1, "a", "x", 3), corps, [], controller, dice, options
    )
    total = face + (1 if corps >= 2 else 0)
    bad = total <= 1 if options["bad_roll"] == "modified_1" else total >= 6
    due = bad and pays and options["bad_roll_payment"] == "standing_order"
    if not due:
        assert outcome.payment is None and outcome.controller_treasury is None
        assert len(dice.rolls) == 1
    elif pay <= treasury:
        assert outcome.payment.roll.face == pay and len(dice.rolls) == 2
        assert outcome.controller_treasury == treasury - pay
    elif options["unaffordable_payment"] == "pays_all":
        assert outcome.payment.roll.face == pay and outcome.controller_treasury == 0
    else:
        assert outcome.payment.roll.face == pay and outcome.controller_treasury == treasury


@PROPERTY
@given(faces, st.integers(0, 4), option_sets)
def test_eia4_a_bad_roll_under_the_standing_order_rolls_and_pays_the_die(pay, corps, options):
    """Treasury $6 covers any die: it is rolled and paid, and the revolt number stays."""
    options = options | {"bad_roll_payment": "standing_order"}
    face = 1 if options["bad_roll"] == "modified_1" else 6
    corps = min(corps, 1) if options["bad_roll"] == "modified_1" else corps
    controller = Power("b", "B", treasury=6, pays_bad_roll=True)
    dice = ScriptedDice([face, pay])
    area, revolt = Area("x", "X", MINOR, "b"), Revolt(1, "a", "x", 3)
    outcome = anti_guerrilla_operation(
        controller, area, revolt, corps, [], controller, dice, options
    )
    assert dice.unused == 0 and outcome.payment.roll.face == pay
    assert outcome.controller_treasury == 6 - pay


@PROPERTY
@given(faces, st.integers(0, 4), st.booleans(), option_sets)
def test_eia4_never_pays_option_rolls_no_payment_die(face, corps, pays, options):
    options = options | {"bad_roll_payment": "never"}
    controller = Power("b", "B", treasury=6, pays_bad_roll=pays)
    dice = ScriptedDice([face, 3])
    area, revolt = Area("x", "X", MINOR, "b"), Revolt(1, "a", "x", 3)
    outcome = anti_guerrilla_operation(
        controller, area, revolt, corps, [], controller, dice, options
    )
    assert len(dice.rolls) == 1 and outcome.payment is None
    assert outcome.controller_treasury is None and controller.treasury == 6


# -- whole-phase properties -------------------------------------------------------------


def draw_world(data, new_world):
    """A random campaign on the test map: options, revolts, guerrillas, corps, depots, wars."""
    world = new_world(**data.draw(option_sets))
    for power in world.powers.values():
        power.zone = data.draw(zones)
        power.treasury = data.draw(st.integers(0, 12))
        power.pays_bad_roll = data.draw(st.booleans())
    for pair in (("spain", "france"), ("great_britain", "france"), ("spain", "austria")):
        if data.draw(st.booleans()):
            world.wars.add(frozenset(pair))
    for area, sponsor in REVOLT_SITES:
        if data.draw(st.booleans()):
            _draw_revolt(data, world, area, sponsor)
    for key in ("castile", "granada", "andalusia"):
        _draw_stack(data, world, key, "spain", revolt=False)
    areas = st.sampled_from(sorted(world.areas))
    for n, key in enumerate(data.draw(st.lists(areas, max_size=6))):
        power = data.draw(st.sampled_from(OPERATORS))
        fought, besieged = data.draw(st.booleans()), data.draw(st.booleans())
        world.corps.append(Corps(n + 1, power, key, fought=fought, besieged=besieged))
    for n, key in enumerate(data.draw(st.lists(areas, max_size=3))):
        power, garrison = data.draw(st.sampled_from(OPERATORS)), data.draw(st.integers(0, 12))
        world.depots.append(Depot(n + 1, power, key, garrison=garrison))
    return world


def _draw_revolt(data, world, area, sponsor):
    number = data.draw(st.integers(2, 8))
    months = data.draw(st.integers(0, 3))
    held = data.draw(st.integers(0, 1))
    world.revolts.append(Revolt(len(world.revolts) + 1, sponsor, area, number, months, held))
    _draw_stack(data, world, area, sponsor, revolt=True)


def _draw_stack(data, world, area, nationality, revolt):
    room = world.areas[area].guerrilla_cap - world.guerrilla_factors(area)
    factors = data.draw(st.integers(0, room))
    if factors:
        stack = Guerrilla(len(world.guerrillas) + 1, area, nationality, factors, area, revolt)
        stack.besieged = data.draw(st.booleans())
        world.guerrillas.append(stack)


def some(data, items, most=3):
    return data.draw(st.lists(st.sampled_from(list(items)), max_size=most)) if items else []


def draw_orders(data, world, phase):
    """Orders a player could give in this phase (from legal.py), for some powers."""
    orders = {}
    for power in world.powers:
        if phase == "peace":
            payload = {"lapse": some(data, [r.area for r in own_revolts(world, power)])}
        elif phase == "revolt":
            payload = {"targets": some(data, revolt_targets(world, power), most=4)}
        elif phase == "land":
            stacks = movable_stacks(world, power)
            moves = [
                {"stack": g.id, "to": data.draw(st.sampled_from(guerrilla_destinations(world, g)))}
                for g in some(data, stacks, most=2)
            ]
            payload = {
                "moves": moves,
                "operations": some(data, operation_areas(world, power)),
                "depot_attacks": some(data, depot_attack_areas(world, power)),
            }
        elif phase == "conquest":
            revolts = conquest_choice_revolts(world, power)
            choice = st.sampled_from(["client", "conquered"])
            payload = {"choices": {r.area: data.draw(choice) for r in revolts}}
        else:
            revolts = aidable_revolts(world, power)
            payload = {"aid": {r.area: data.draw(st.integers(1, 6)) for r in revolts}}
        orders[power] = payload
    return orders


def resolve(data, world, phase):
    """Resolve one phase with random legal orders and seeded dice; return what it answered
    and its log lines."""
    start = len(world.log)
    dice = SeededDice(data.draw(st.text(max_size=6)), phase)
    outcomes = PHASES[phase](world, draw_orders(data, world, phase), dice)
    return outcomes, world.log[start:]


def run(data, world, phase):
    """Resolve one phase with random legal orders and seeded dice; return its log lines."""
    return resolve(data, world, phase)[1]


@WHOLE_PHASES
@given(st.data())
def test_a_phase_answers_every_roll_it_logs_in_the_same_order(new_world, data):
    world = draw_world(data, new_world)
    for phase in PHASES:
        outcomes, lines = resolve(data, world, phase)
        answered = [report for outcome in outcomes for report in _reports(outcome)]
        assert answered == [line.roll for line in lines if line.roll]


def _reports(outcome) -> list:
    """The rolls an outcome holds: its report, and an operation's payment die."""
    found = [getattr(outcome, "report", None), getattr(outcome, "payment", None)]
    return [report for report in found if report is not None]


@WHOLE_PHASES
@given(st.data())
def test_guerrilla_cap_holds_month_after_month(new_world, data):
    """Neither creation (EIA-3, EIA-10) nor movement (EIA-9) takes an area in revolt over
    its 5 × manpower cap. (Outside a revolt Spanish guerrillas have no cap, so an area may
    be over it when a revolt breaks out; then it gets no more, by creation or by moves.)"""
    world = draw_world(data, new_world)
    for _ in range(data.draw(st.integers(1, 3))):
        for phase in PHASES:
            before = {key: world.guerrilla_factors(key) for key in world.areas}
            run(data, world, phase)
            for key, area in world.areas.items():
                if world.active_revolt(key) is not None:
                    assert world.guerrilla_factors(key) <= max(area.guerrilla_cap, before[key])


@WHOLE_PHASES
@given(st.data())
def test_revolts_without_guerrillas_for_three_months_never_roll_again(new_world, data):
    """EIA-7: they end in the fourth month before any of its guerrilla rolls (a new revolt
    may break out in the same area in that revolt step, and roll for itself)."""
    world = draw_world(data, new_world)
    for phase in ("revolt", "land"):
        due = [r for r in world.revolts if r.active and r.months_without_guerrillas >= 3]
        old = {id(r) for r in world.revolts}
        lines = run(data, world, phase)
        new = {r.area for r in world.revolts if r.active and id(r) not in old}
        assert not any(
            line.roll and line.roll.rule == "EIA-3" and line.area in {r.area for r in due} - new
            for line in lines
        )
        assert not any(r.active for r in due)


@WHOLE_PHASES
@given(st.data())
def test_corps_fought_marks_are_cleared_after_the_land_phase(new_world, data):
    world = draw_world(data, new_world)
    run(data, world, "land")
    assert not any(c.fought for c in world.corps)


@WHOLE_PHASES
@given(st.data())
def test_pp_changes_only_by_one_per_attempt(new_world, data):
    world = draw_world(data, new_world)
    before = {k: p.political_points for k, p in world.powers.items()}
    lines = run(data, world, "revolt")
    for key, power in world.powers.items():
        rolls = [line for line in lines if line.roll and line.roll.rule == "EIA-1"]
        attempts = sum(1 for line in rolls if line.power == key)
        assert power.political_points == before[key] - attempts


@WHOLE_PHASES
@given(st.data())
def test_treasury_changes_only_by_aid_and_bad_roll_payments(new_world, data):
    world = draw_world(data, new_world)
    before = {k: p.treasury for k, p in world.powers.items()}
    spent = dict.fromkeys(world.powers, 0)
    for phase in PHASES:
        for line in run(data, world, phase):
            if line.power in spent:
                spent[line.power] += _spent(line, world.options)
    for key, power in world.powers.items():
        assert power.treasury == before[key] - spent[key]


def _spent(line, options) -> int:
    """Money a roll line says was spent: an aid amount, or a $d6 bad-roll payment."""
    report = line.roll
    if report is None:
        return 0
    if report.rule == "EIA-5":
        return int(report.comparison.split("$")[1])
    if report.rule == "EIA-4" and report.purpose.endswith("pays $d6 against the rise"):
        treasury = int(report.comparison.split("$")[1])
        if report.roll.face <= treasury:
            return report.roll.face
        return treasury if options["unaffordable_payment"] == "pays_all" else 0
    return 0


@WHOLE_PHASES
@given(st.data())
def test_eia6_only_operations_and_aid_change_a_revolt_number(new_world, data):
    world = draw_world(data, new_world)
    for phase in PHASES:
        numbers = {id(r): r.number for r in world.revolts}
        lines = run(data, world, phase)
        changers = {
            line.area for line in lines if line.roll and line.roll.rule in ("EIA-4", "EIA-5")
        }
        for revolt in world.revolts:
            if id(revolt) in numbers and revolt.number != numbers[id(revolt)]:
                assert revolt.area in changers
