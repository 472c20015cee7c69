"""Decision 17 (EIA-1, option ``revolt_against_ally``): a revolt attempt in an area held by
the sponsor's ally; Decision 18 (EIA-12, option ``spanish_removal_ceded``): whether the
removal of Spanish guerrillas takes the factors raised the same step in a ceded province.
Both values of each, with scripted dice; no database (the small map of conftest)."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.empires_in_arms.legal import can_incite, revolt_targets
from rules.empires_in_arms.phases import resolve_land, resolve_revolt_step
from rules.empires_in_arms.procedures import (
    RevoltAttempt,
    RevoltEnd,
    RevoltStrength,
    SpanishRemoval,
    spanish_guerrilla_removal,
)
from rules.empires_in_arms.ruleset import OPTIONS
from rules.empires_in_arms.state import Corps, Guerrilla
from rules.refusals import Skipped
from tests.unit.conftest import build_world

ALLOWED = {"revolt_against_ally": "allowed"}
SPARES = {"spanish_removal_ceded": "spares_new_ceded"}


def texts(world, rule=None) -> list[str]:
    return [line.text for line in world.log if rule is None or line.rule == rule]


def spec(key):
    return next(o for o in OPTIONS if o.key == key)


# -- Decision 17: a revolt in an ally's area ---------------------------------------------


def test_decision_17_is_an_option_whose_default_refuses():
    option = spec("revolt_against_ally")
    assert (option.decision, option.default) == ("17", "refused")
    assert [value for value, _ in option.choices] == ["refused", "allowed"]
    assert option.help


def allied_world(**options):
    """Austria allied with Prussia, who holds Hesse (Austria's national modifier +2)."""
    world = build_world(**options)
    world.alliances.add(frozenset(("austria", "prussia")))
    return world


def test_default_an_allys_area_is_no_target_and_the_attempt_is_skipped_unpaid():
    world = allied_world()
    assert "hesse" not in revolt_targets(world, "austria")
    dice = ScriptedDice([6, 6])
    outcomes = resolve_revolt_step(world, {"austria": {"targets": ["hesse"]}}, dice)
    assert [type(o) for o in outcomes] == [Skipped]
    assert world.powers["austria"].political_points == 10
    assert world.revolts == [] and world.let_downs == {}
    assert dice.unused == 2
    assert texts(world) == [
        "Austria: Hesse is not a legal revolt target now; attempt skipped, no PP spent"
    ]


def test_option_an_allys_area_is_a_target_and_a_revolt_there_ends_at_once_let_down():
    world = allied_world(**ALLOWED)
    assert "hesse" in revolt_targets(world, "austria")
    dice = ScriptedDice([4, 1])
    outcomes = resolve_revolt_step(world, {"austria": {"targets": ["hesse"]}}, dice)
    assert [type(o) for o in outcomes] == [RevoltAttempt, RevoltStrength, RevoltEnd]
    ending = outcomes[2]
    assert ending.let_downs == 1 and ending.removed == 0
    (revolt,) = world.revolts
    assert not revolt.active and revolt.number == 3
    assert revolt.end_reason == "Austria and Prussia are allies"
    assert world.let_downs == {("austria", "hesse"): 1}
    assert world.powers["austria"].political_points == 9
    assert dice.unused == 0
    assert texts(world) == [
        "Austria incites a revolt in Hesse: die 4 +2 Austria national modifier = 6 ≥ 6: the "
        "revolt breaks out (Austria PP 10 → 9)",
        "Strength of the Austria revolt in Hesse: die 1 +2 Austria national modifier = 3: "
        "revolt number 3",
        "Austria's revolt in Hesse ends: Austria and Prussia are allies; Austria let it down "
        "(1 in Hesse so far)",
    ]


def test_option_the_let_down_counts_before_the_next_attempt_of_the_step():
    world = allied_world(**ALLOWED)
    dice = ScriptedDice([4, 1, 4])
    resolve_revolt_step(world, {"austria": {"targets": ["hesse", "hesse"]}}, dice)
    assert world.let_downs == {("austria", "hesse"): 1}
    assert [r.active for r in world.revolts] == [False]
    assert world.powers["austria"].political_points == 8
    assert texts(world, "EIA-1")[-1] == (
        "Austria incites a revolt in Hesse: die 4 +2 Austria national modifier -1 let down 1 "
        "earlier revolt = 5 < 6: no revolt (Austria PP 9 → 8)"
    )


def test_option_a_failed_attempt_on_an_ally_costs_its_pp_and_counts_no_let_down():
    world = allied_world(**ALLOWED)
    resolve_revolt_step(world, {"austria": {"targets": ["hesse"]}}, ScriptedDice([3]))
    assert world.powers["austria"].political_points == 9
    assert world.revolts == [] and world.let_downs == {}


def test_option_a_ceded_province_of_an_ally_ends_without_a_let_down():
    """Let-downs count in minors only (EIA-1, EIA-7): Spain allied with France, who holds
    ceded Andalusia, its former home province (+3)."""
    world = build_world(**ALLOWED)
    world.alliances.add(frozenset(("spain", "france")))
    dice = ScriptedDice([3, 2])
    resolve_revolt_step(world, {"spain": {"targets": ["andalusia"]}}, dice)
    (revolt,) = world.revolts
    assert not revolt.active and world.let_downs == {}
    assert texts(world, "EIA-7") == [
        "Spain's revolt in Andalusia ends: Spain and France are allies"
    ]


def test_option_makes_an_ally_only_power_owe_revolt_orders():
    """Prussia's only other targets are taken away: with Palatinate and Wallachia held by
    its allies, only the option leaves it anything to incite."""
    for options, owes in (({}, False), (ALLOWED, True)):
        world = build_world(**options)
        for other in ("france", "turkey"):
            world.alliances.add(frozenset(("prussia", other)))
        world.areas["andalusia"].controller = "prussia"
        assert can_incite(world, "prussia") is owes


# -- Decision 18: the removal and the factors just raised in a ceded province -------------


def test_decision_18_is_an_option_whose_default_removes_them_too():
    option = spec("spanish_removal_ceded")
    assert (option.decision, option.default) == ("18", "all")
    assert [value for value, _ in option.choices] == ["all", "spares_new_ceded"]
    assert option.help


def ceded_world(**options):
    """A French corps in ceded Andalusia (Spain rolls there, but no enemy is inside
    unceded Spain); 4 Spanish factors in Castile and 2 in Andalusia."""
    world = build_world(**options)
    world.corps.append(Corps(1, "france", "andalusia"))
    world.guerrillas += [
        Guerrilla(3, "castile", "spain", 4, "castile", revolt=False),
        Guerrilla(4, "andalusia", "spain", 2, "andalusia", revolt=False),
    ]
    return world


def test_default_the_removal_takes_the_factors_just_raised_in_the_ceded_province():
    world = ceded_world()
    resolve_land(world, {}, ScriptedDice([1]))  # 4 − 1: 3 factors in Andalusia
    assert world.guerrillas == []
    assert world.militia_due["spain"] == 3
    assert texts(world, "EIA-12") == [
        "No enemy in Spain: 9 Spanish guerrilla factors removed; Spain receives 9 ÷ 3 = 3 militia "
        "factors in its next reinforcement phase"
    ]


def test_option_the_factors_just_raised_in_the_ceded_province_stay():
    world = ceded_world(**SPARES)
    outcomes = resolve_land(world, {}, ScriptedDice([1]))
    assert [(g.area, g.factors) for g in world.guerrillas] == [("andalusia", 3)]
    assert world.militia_due["spain"] == 2
    (removal,) = [o for o in outcomes if isinstance(o, SpanishRemoval)]
    assert (removal.factors, removal.militia, removal.kept) == (6, 2, 3)
    assert [g.area for g in removal.removed] == ["castile"]
    assert [(g.area, kept) for g, kept in removal.thinned] == [("andalusia", 3)]
    assert texts(world, "EIA-12") == [
        "No enemy in Spain: 6 Spanish guerrilla factors removed; Spain receives 6 ÷ 3 = 2 militia "
        "factors in its next reinforcement phase; 3 factors raised in this step in a ceded "
        "province stay (Andalusia)"
    ]


def test_option_a_later_step_removes_them_when_no_enemy_is_in_unceded_spain():
    world = ceded_world(**SPARES)
    resolve_land(world, {}, ScriptedDice([1]))
    world.corps.clear()
    resolve_land(world, {}, ScriptedDice([]))
    assert world.guerrillas == []
    assert world.militia_due["spain"] == 3


def test_option_nothing_raised_leaves_the_removal_as_before():
    world = ceded_world(**SPARES)
    resolve_land(world, {}, ScriptedDice([6]))
    assert world.guerrillas == [] and world.militia_due["spain"] == 2


def test_option_a_whole_stack_of_new_factors_stays_untouched_and_the_line_says_so():
    world = build_world(**SPARES)
    new = Guerrilla(5, "andalusia", "spain", 2, "andalusia", revolt=False)
    world.guerrillas.append(new)
    removal = spanish_guerrilla_removal(world, {"andalusia": 2})
    assert removal is not None
    assert (removal.removed, removal.thinned, removal.factors, removal.kept) == ((), (), 0, 2)
    assert removal.text == (
        "No enemy in Spain: 0 Spanish guerrilla factors removed; Spain receives 0 ÷ 3 = 0 militia "
        "factors in its next reinforcement phase; 2 factors raised in this step in a ceded "
        "province stay (Andalusia)"
    )


def test_the_procedure_ignores_what_was_raised_outside_a_ceded_province_and_by_default():
    for options, raised in (({}, {"andalusia": 2}), (SPARES, {"castile": 2})):
        world = build_world(**options)
        world.guerrillas += [
            Guerrilla(5, "andalusia", "spain", 2, "andalusia", revolt=False),
            Guerrilla(6, "castile", "spain", 2, "castile", revolt=False),
        ]
        removal = spanish_guerrilla_removal(world, raised)
        assert removal is not None and (removal.factors, removal.kept) == (4, 0)
        assert len(removal.removed) == 2 and removal.thinned == ()


def test_option_besieged_factors_in_the_ceded_province_are_not_the_new_ones():
    world = build_world(**SPARES)
    besieged = Guerrilla(5, "andalusia", "spain", 3, "andalusia", revolt=False, besieged=True)
    new = Guerrilla(6, "andalusia", "spain", 1, "andalusia", revolt=False)
    world.guerrillas += [besieged, new]
    removal = spanish_guerrilla_removal(world, {"andalusia": 1})
    assert removal is not None
    assert removal.removed == (besieged,) and removal.kept == 1 and removal.factors == 3
