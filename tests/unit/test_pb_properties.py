"""Properties of the Pax Baltica procedures that hold for any dice, options and blocks:
forage never eliminates, RP never carry over, captures never raise a level, sieges never
go below zero. The example counts come from the hypothesis profile (tests/conftest.py)."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from rules.dice import DiceExhausted, ScriptedDice, SeededDice, choose_index
from rules.pax_baltica.procedures import (
    draw_blocks,
    forage,
    reinforce_with_rp,
    rp_levels_after,
    siege_result,
    siege_round,
)
from rules.pax_baltica.ruleset import OPTIONS
from rules.pax_baltica.state import (
    ARMY,
    FLEET,
    KINDS,
    REGIMENT,
    STEP_COST,
    TERRITORY,
    Block,
    Territory,
)
from rules.refusals import Refused
from tests.unit.pb_world import build_world

NATIONS = ("sweden", "russia", "saxony", "denmark")
faces = st.integers(1, 6)
option_sets = st.fixed_dictionaries(
    {spec.key: st.sampled_from([value for value, _ in spec.choices]) for spec in OPTIONS}
)


@st.composite
def blocks(draw, kinds=KINDS, min_size=0, max_size=6, min_strength=1):
    """Blocks with ids 1..n, any kind, nation, rating and strength up to their maximum."""
    count = draw(st.integers(min_size, max_size))
    made = []
    for id_ in range(1, count + 1):
        maximum = draw(st.integers(1, 4))
        made.append(
            Block(
                id_,
                draw(st.sampled_from(NATIONS)),
                draw(st.sampled_from(kinds)),
                f"Block {id_}",
                draw(st.integers(min(min_strength, maximum), maximum)),
                maximum,
                draw(st.sampled_from("ABCD")) + str(draw(st.integers(1, 3))),
                supply_trains=draw(st.integers(0, 2)),
                carried_by=draw(st.sampled_from([None, None, None, 99])),
            )
        )
    return made


# -- GNW-4 forage -----------------------------------------------------------------------


@given(blocks(), st.integers(0, 6), st.data(), option_sets)
def test_forage_never_eliminates_nor_goes_below_one(group, fp, data, options):
    ids = [b.id for b in group]
    order = data.draw(st.lists(st.sampled_from(ids), max_size=8) if ids else st.just([]))
    check = forage(Territory("x", "X", forage_points=fp), group, order, options)
    eaters = [b for b in group if b.kind != FLEET and b.carried_by is None]
    takeable = sum(b.strength - 1 for b in eaters)
    assert check.deficit == max(0, check.demand - fp - _train_bound(eaters))
    assert sum(check.losses.values()) == min(check.deficit, takeable)
    assert check.ignored == check.deficit - sum(check.losses.values())
    for b in eaters:
        assert b.strength - check.losses.get(b.id, 0) >= 1
    assert set(check.losses) <= {b.id for b in eaters}
    if check.losses:  # the first step: one of the strongest blocks
        strongest = max(b.strength for b in eaters)
        assert any(check.losses.get(b.id) for b in eaters if b.strength == strongest)


def _train_bound(eaters):
    total = 0
    for nation in NATIONS:
        trains = sum(b.supply_trains for b in eaters if b.nation == nation and b.kind == ARMY)
        regiments = sum(1 for b in eaters if b.nation == nation and b.kind == REGIMENT)
        total += min(trains, regiments)
    return total


# -- GNW-6, GNW-10, GNW-11: RP never carry over -----------------------------------------


@given(blocks(max_size=8), st.integers(0, 30), st.integers(0, 9), st.data(), option_sets)
def test_rp_are_spent_or_lost_never_kept(pool, rp, max_draws, data, options):
    dice = SeededDice(data.draw(st.text(max_size=8)), "recruitment")
    wanted = {b.id: data.draw(st.integers(1, 5)) for b in pool}
    places = {b.id: data.draw(st.sampled_from([None, "stockholm", "lausitz"])) for b in pool}

    def pick(remaining):
        return remaining[choose_index(dice, len(remaining), "draw")]

    outcome = draw_blocks(
        pool, rp, max_draws, lambda b: wanted[b.id], lambda b: places[b.id], pick, options
    )
    assert outcome.rp_spent + outcome.rp_lost == rp
    assert 0 <= outcome.rp_spent <= rp
    assert outcome.rp_spent == sum(d.rp_spent for d in outcome.draws)
    assert len(outcome.draws) <= max_draws
    assert len({d.block for d in outcome.draws}) == len(outcome.draws)
    for d in outcome.draws:
        block = next(b for b in pool if b.id == d.block)
        unit = STEP_COST[block.kind]
        assert d.first_step_cost == 2 * unit
        if d.rp_spent:
            assert 1 <= d.steps <= min(block.max_strength, wanted[block.id])
            assert d.rp_spent == d.first_step_cost + (d.steps - 1) * unit
        assert d.returned == (d.placed_at is None)


@given(st.sampled_from([1, 2, 5, 8, 3, 4, 6]), st.integers(0, 5), st.booleans(), option_sets)
def test_reinforcing_costs_the_step_price_and_never_passes_full_strength(
    block_id, steps, has_line, options
):
    world = build_world(**options)
    block = world.blocks[block_id]
    try:
        outcome = reinforce_with_rp(world, block, steps, has_line, 99)
    except Refused:
        return
    assert outcome.strength == block.strength + steps <= block.max_strength
    assert outcome.rp_cost in (steps * STEP_COST[block.kind], 2 * steps * STEP_COST[block.kind])


# -- GNW-2 and GNW-5: capturing never raises a level ------------------------------------


LAND = ("stockholm", "livland", "kurland", "velikaya", "lietuva", "akershus", "copenhagen")


@given(
    st.sampled_from(NATIONS),
    st.sampled_from(LAND),
    st.sampled_from((*NATIONS, None)),
    st.integers(0, 4),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    option_sets,
    st.data(),
)
def test_capturing_enemy_territory_never_raises_a_level(
    attacker, key, home, garrison, surrendered, in_poland, capital, options, data
):
    world = build_world(**options)
    enemies = [n for n in NATIONS if world.enemies(attacker, n)]
    territory = world.territories[key]
    territory.nation, territory.controller = home, data.draw(st.sampled_from(enemies))
    territory.garrison, territory.surrendered = garrison, surrendered
    territory.in_poland, territory.capital = in_poland, capital
    assume(home is None or world.enemies(attacker, home))
    result = siege_result(world, territory, attacker)
    levels = {k: n.rp_level for k, n in world.nations.items()}
    after = rp_levels_after(
        levels,
        [result.surrendered_nation] if result.surrendered_nation else [],
        [result.liberated_nation] if result.liberated_nation else [],
    )
    assert after[attacker] == levels[attacker]
    assert all(after[k] <= levels[k] for k in levels)
    assert (result.controller, result.garrison) == (attacker, 1)


# -- GNW-1 siege round ------------------------------------------------------------------


@given(
    st.integers(0, 4),
    blocks(kinds=(ARMY, REGIMENT), min_size=1, max_size=4, min_strength=0),
    st.lists(faces, min_size=40, max_size=40),
    option_sets,
)
def test_siege_strengths_never_negative_and_hits_match_steps(garrison, besiegers, rolls, options):
    territory = Territory("narva", "Narva", TERRITORY, "sweden", "sweden", garrison=garrison)
    dice = ScriptedDice(rolls)
    outcome = siege_round(territory, besiegers, dice, options)
    before = sum(b.strength for b in besiegers)
    after = sum(outcome.strengths.values())
    assert all(0 <= outcome.strengths[b.id] <= b.strength for b in besiegers)
    assert before - after == min(outcome.garrison_hits, before)
    assert outcome.captured == (outcome.besieger_hits >= garrison)
    assert len(dice.rolls) == sum(len(r.faces) for r in outcome.reports)
    fired = sum(len(r.faces) for r in outcome.reports) - (garrison if garrison else 0)
    assert outcome.besieger_hits <= fired
    if options["siege_hits"] == "end_of_round":
        assert fired == before


# -- choose_index -----------------------------------------------------------------------


@given(st.text(max_size=12), st.integers(1, 300))
def test_choose_index_with_seeded_dice_is_in_range(seed, count):
    assert 0 <= choose_index(SeededDice(seed, "pool"), count, "draw") < count


@given(st.lists(faces, max_size=20), st.integers(1, 300))
def test_choose_index_with_any_faces_is_in_range(rolls, count):
    try:
        index = choose_index(ScriptedDice(rolls), count, "draw")
    except DiceExhausted:
        assume(False)
    assert 0 <= index < count
