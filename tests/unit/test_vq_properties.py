"""Properties of the Virgin Queen procedures for any map state, dice, options and legal
or illegal answers: conversions never flip more spaces than dice, unrest goes only to
converted spaces, an accepted step-5 answer flips as many spaces as the dice can (and
no answer doing so is refused), revolts never flip more spaces than CP, a refused answer
changes nothing, and answering from the prompt's options always ends the procedure. The
example counts come from the hypothesis profile (tests/conftest.py)."""

from __future__ import annotations

import copy
import functools
import json

from hypothesis import event, given
from hypothesis import strategies as st

from rules.dice import ScriptedDice
from rules.refusals import reason_for
from rules.virgin_queen.procedures import (
    KEEP,
    Pending,
    Refused,
    check_revolt,
    decide,
    prompt,
    start_conversion,
    start_revolt,
)
from rules.virgin_queen.ruleset import OPTIONS
from rules.virgin_queen.state import (
    CATHOLIC,
    MERCENARY,
    NAVAL,
    PROTESTANT,
    PROTESTANT_POWER,
    REGULAR,
    REVOLT_CONTROLLER,
    TURN_TRACK,
    Space,
    Units,
)
from tests.unit.vq_world import build_world

MAX_DECISIONS = 12
option_sets = st.fixed_dictionaries(
    {spec.key: st.sampled_from([value for value, _ in spec.choices]) for spec in OPTIONS}
)


def any_world(draw):
    """The test map with random religion, unrest, control, sieges, units and counter mix."""
    world = build_world(**draw(option_sets))
    keys = sorted(world.spaces)
    for space in world.spaces.values():
        if space.zone in REVOLT_CONTROLLER and space.capital_of is None:
            space.religion = draw(st.sampled_from([CATHOLIC, PROTESTANT]))
            space.unrest = draw(st.booleans())
            space.controller = draw(
                st.sampled_from([REVOLT_CONTROLLER[space.zone], PROTESTANT_POWER])
            )
            space.besieged = draw(st.sampled_from([False, False, False, True]))
            space.fortified = draw(st.booleans())
    for n in range(draw(st.integers(0, 6))):
        world.units[100 + n] = Units(
            100 + n,
            draw(st.sampled_from(["france", "spain", PROTESTANT_POWER, "england"])),
            draw(st.sampled_from([REGULAR, MERCENARY, NAVAL])),
            draw(st.sampled_from(keys)),
            draw(st.integers(1, 3)),
        )
    world.counter_mix = {zone: draw(st.integers(0, 3)) for zone in REVOLT_CONTROLLER}
    world.capitals["netherlands"] = draw(st.sampled_from([None, "amsterdam", TURN_TRACK]))
    world.leaders[4].can_enter = draw(st.booleans())
    return world


def any_answer(draw, asked):
    """Any answer built from the prompt's options, legal or not."""
    answer = {}
    for question in asked.questions:
        values = [value for value, _ in question.options]
        if question.many:
            answer[question.name] = draw(st.lists(st.sampled_from(values), unique=True))
        else:
            answer[question.name] = draw(st.sampled_from([*values, ""]))
    return answer


def most_flips(questions) -> tuple[int, dict[str, str]]:
    """Step 5's oracle, independent of the engine's matching: the most dice that can each
    flip a different space of their options (every assignment tried, memoised), and one
    answer that does."""
    options = [[value for value, _ in question.options] for question in questions]

    @functools.cache
    def best(i: int, used: frozenset) -> tuple[int, tuple[str, ...]]:
        if i == len(options):
            return 0, ()
        count, rest = best(i + 1, used)
        found = (count, ("", *rest))
        for value in options[i]:
            if value not in used:
                count, rest = best(i + 1, used | {value})
                if count + 1 > found[0]:
                    found = (count + 1, (value, *rest))
        return found

    count, values = best(0, frozenset())
    return count, {question.name: value for question, value in zip(questions, values, strict=True)}


def greedy_answer(draw, asked):
    """The dice in any order, each taking a space no die before it took, most often the one
    the most other dice could flip (blank when none is left): every die's choice looks fine
    alone, but fewer spaces may flip than the dice can."""
    offered = [value for q in asked.questions for value, _ in q.options]
    answer, taken = {}, set()
    for question in draw(st.permutations(asked.questions)):
        left = sorted(
            (value for value, _ in question.options if value not in taken),
            key=lambda value: -offered.count(value),
        )
        pick = draw(st.sampled_from([0, 0, 0, len(left) - 1])) if left else None
        answer[question.name] = left[pick] if left else ""
        taken.add(answer[question.name])
    return answer


def plain_answer(asked, pending):
    """A legal answer: keep every 6, flip as many spaces as the dice can, take the hits
    from the first stacks, the first nearest space, no extra space, capital or leader."""
    if asked.stage == "flips":
        return most_flips(asked.questions)[1]
    answer, hits = {}, pending.data.get("hits", 0)
    for question in asked.questions:
        values = [value for value, _ in question.options]
        if question.many:
            answer[question.name] = values[: question.min]
        elif asked.stage == "hits":
            taken = min(int(values[-1]), hits)
            answer[question.name], hits = str(taken), hits - taken
        elif asked.stage in ("capital", "leader"):
            answer[question.name] = ""
        elif asked.stage == "sixes":
            answer[question.name] = KEEP
        else:
            answer[question.name] = values[0]
    return answer


def drive(world, pending, draw) -> int:
    """Answer every prompt until the procedure ends; how many decisions it took."""
    decisions = 0
    while pending is not None:
        decisions += 1
        assert decisions <= MAX_DECISIONS
        stored = json.loads(json.dumps(pending.data))
        assert stored == pending.data
        pending = Pending(pending.kind, pending.stage, pending.waiting_for, stored)
        asked = prompt(world, pending)
        assert asked.questions and asked.waiting_for == pending.waiting_for
        assert set(asked.highlight) <= set(world.spaces)
        event(f"{asked.kind}: {asked.stage}")
        before = copy.deepcopy(world)
        try:
            pending = decide(world, pending, pending.waiting_for, any_answer(draw, asked)).pending
        except Refused:
            event("an answer refused")
            assert world == before
            pending = decide(
                world, pending, pending.waiting_for, plain_answer(asked, pending)
            ).pending
    return decisions


def catholic(world):
    return {key for key, space in world.spaces.items() if space.religion == CATHOLIC}


def unrest(world):
    return {key for key, space in world.spaces.items() if space.unrest}


def protestant_controlled(world):
    return {key for key, s in world.spaces.items() if s.controller == PROTESTANT_POWER}


@given(st.data())
def test_conversions_never_flip_more_spaces_than_dice_nor_place_stray_unrest(data):
    draw = data.draw
    world = any_world(draw)
    power = draw(st.sampled_from(["france", "spain"]))
    zones = draw(st.sampled_from([["france"], ["netherlands"], ["france", "netherlands"]]))
    event = draw(st.sampled_from(["", "Council of Troubles"]))
    faces = draw(st.lists(st.integers(1, 6), min_size=0 if event else 1, max_size=7))
    was_catholic, was_in_unrest = catholic(world), unrest(world)
    pending = start_conversion(
        world, power, zones, len(faces) + bool(event), event, ScriptedDice(faces)
    ).pending
    drive(world, pending, draw)
    converted = catholic(world) - was_catholic
    all_faces = [6] * bool(event) + faces
    assert was_catholic <= catholic(world)
    assert len(converted) <= sum(face >= 4 for face in all_faces)
    assert all(world.spaces[key].zone in zones for key in converted)
    new_unrest = unrest(world) - was_in_unrest
    assert new_unrest <= converted and len(new_unrest) <= all_faces.count(1)
    assert "conversion is over" in world.log[-1].text


def contested_world(draw):
    """Spain converting around Catholic Brussels: 1 to 5 Protestant spaces next to it,
    some holding Protestant units (a kept 6 may flip those, a 4 or 5 may not), so that
    the dice compete for the few spaces."""
    world = build_world(**draw(option_sets))
    world.units = {}
    for key in ("antwerp", "amsterdam", "utrecht"):
        del world.spaces[key]
        world.adjacency.pop(key)
        world.sea_zones.pop(key, None)
    world.adjacency["brussels"] = {"paris"}
    for n in range(draw(st.integers(1, 5))):
        key = f"town_{n}"
        world.spaces[key] = Space(key, f"Town {n}", "netherlands", PROTESTANT, "spain")
        world.adjacency[key] = {"brussels"}
        world.adjacency["brussels"].add(key)
        if draw(st.booleans()):
            world.units[n] = Units(n, PROTESTANT_POWER, REGULAR, key, 1)
    return world


def step_five_case(draw):
    """A map, the converting power and its zones: any map, or a contested one."""
    if draw(st.booleans()):
        return contested_world(draw), "spain", ["netherlands"]
    world = any_world(draw)
    power = draw(st.sampled_from(["france", "spain"]))
    zones = draw(st.sampled_from([["france"], ["netherlands"], ["france", "netherlands"]]))
    return world, power, zones


@given(st.data())
def test_an_accepted_step_five_answer_flips_exactly_as_many_spaces_as_the_dice_can(data):
    """Decision 5: a die is wasted only when no assignment of dice to eligible spaces could
    use it. Any answer from the prompt's options is accepted exactly when it flips distinct
    spaces, as many as a maximum matching of dice to spaces (``most_flips``)."""
    draw = data.draw
    world, power, zones = step_five_case(draw)
    faces = draw(st.lists(st.sampled_from([1, 4, 5, 6, 6]), min_size=1, max_size=6))
    pending = start_conversion(world, power, zones, len(faces), "", ScriptedDice(faces)).pending
    if pending is not None and pending.stage == "sixes":  # keep every 6 for step 5
        asked = prompt(world, pending)
        pending = decide(world, pending, power, {q.name: KEEP for q in asked.questions}).pending
    if pending is None or pending.stage != "flips":
        event("no choice to make in step 5")
        return
    asked = prompt(world, pending)
    most, best = most_flips(asked.questions)
    how = draw(st.sampled_from(["best", "greedy", "greedy", "any"]))
    if how == "best":
        answer = best
    elif how == "greedy":
        answer = greedy_answer(draw, asked)
    else:
        answer = any_answer(draw, asked)
    chosen = [value for value in answer.values() if value]
    legal = len(set(chosen)) == len(chosen) == most
    greedy = len(set(chosen)) == len(chosen) and all(  # each blank die finds its spaces taken
        set(value for value, _ in q.options) <= set(chosen)
        for q in asked.questions
        if not answer.get(q.name)
    )
    event(
        "step 5: a legal answer"
        if legal
        else "step 5: a die wasted that another assignment would use"
        if greedy
        else "step 5: a blank die with a space left, or a space twice"
    )
    before, was_catholic = copy.deepcopy(world), catholic(world)
    try:
        decide(world, pending, power, answer)
    except Refused:
        assert world == before
        assert not legal, f"{answer} flips {most} spaces and was refused"
    else:
        assert legal, f"{answer} was accepted but the dice can flip {most} spaces"
        assert catholic(world) - was_catholic == set(chosen)


@given(st.data())
def test_revolts_never_flip_more_spaces_than_cp_nor_overdraw_the_counter_mix(data):
    draw = data.draw
    world = any_world(draw)
    legal = [key for key in sorted(world.spaces) if not reason_for(check_revolt, world, key, 2)]
    target = draw(st.sampled_from(legal or sorted(world.spaces)))
    if not draw(st.integers(0, 4)):  # now and then any space
        target = draw(st.sampled_from(sorted(world.spaces)))
    cp = draw(st.one_of(st.integers(2, 5), st.integers(0, 7)))
    around = sorted({target, *world.adjacency[target]})
    defender = REVOLT_CONTROLLER.get(world.spaces[target].zone, "france")
    for n in range(draw(st.integers(0, 4))):  # pieces in and around the target
        world.units[200 + n] = Units(
            200 + n,
            draw(st.sampled_from([defender, defender, "france", "spain", PROTESTANT_POWER])),
            draw(st.sampled_from([REGULAR, MERCENARY, NAVAL])),
            draw(st.sampled_from(around)),
            draw(st.integers(1, 3)),
        )
    refusal = reason_for(check_revolt, world, target, cp)
    before = copy.deepcopy(world)
    faces = draw(st.lists(st.integers(1, 6), min_size=7, max_size=7))
    if refusal:
        try:
            start_revolt(world, target, cp, ScriptedDice(faces))
        except Refused as error:
            assert str(error).startswith(refusal)
        else:
            raise AssertionError("an illegal revolt started")
        assert world == before
        return
    was_protestant = protestant_controlled(world)
    mix = dict(world.counter_mix)
    drive(world, start_revolt(world, target, cp, ScriptedDice(faces)).pending, draw)
    flipped = protestant_controlled(world) - was_protestant
    assert len(flipped) <= cp
    assert not flipped or target in flipped
    zone = world.spaces[target].zone
    placed = mix[zone] - world.counter_mix[zone]
    assert 0 <= placed <= cp // 2 and world.counter_mix[zone] >= 0
    assert placed == 0 or target in flipped
    assert all(units.count > 0 for units in world.units.values())
    for key in flipped:  # nobody but the Protestant keeps a piece in a space it took
        assert all(u.power == PROTESTANT_POWER for _, u in world.units_in(key))
        assert all(lead.power == PROTESTANT_POWER for _, lead in world.leaders_in(key))


@given(st.data())
def test_displaced_pieces_reach_a_nearest_legal_space_and_none_are_lost(data):
    """Dijon has no French Catholic unit: the revolt succeeds and every French and Spanish
    piece there goes to Paris or Lyon (France's choice) or to Brussels (Spain's)."""
    draw = data.draw
    world = build_world(**draw(option_sets))
    for n in range(draw(st.integers(1, 4))):
        power = draw(st.sampled_from(["france", "spain"]))
        kinds = [MERCENARY] if power == "france" else [REGULAR, MERCENARY, NAVAL]
        world.units[300 + n] = Units(300 + n, power, draw(st.sampled_from(kinds)), "dijon", 1)
    world.leaders[2].space = draw(st.sampled_from(["dijon", "lyon"]))

    def totals():
        counts: dict[tuple[str, str], int] = {}
        for units in world.units.values():
            counts[units.power, units.kind] = counts.get((units.power, units.kind), 0) + units.count
        return counts

    before = totals()
    drive(
        world, start_revolt(world, "dijon", draw(st.integers(2, 5)), ScriptedDice([])).pending, draw
    )
    after = totals()
    after[PROTESTANT_POWER, REGULAR] -= 6 - world.counter_mix["france"]
    assert after == before
    assert all(units.power == PROTESTANT_POWER for _, units in world.units_in("dijon"))
    moved = [units for key, units in world.units.items() if isinstance(key, int) and key >= 300]
    assert all(
        u.space in ({"lyon", "paris"} if u.power == "france" else {"brussels"}) for u in moved
    )
    assert world.leaders[2].space in ("lyon", "paris")
