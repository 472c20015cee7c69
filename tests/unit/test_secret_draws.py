"""Hidden draws ordered by the campaign's secret (rules/dice.py secret_draw): the order is a
permutation fixed by the secret and new for every draw; what the other side sees (the
revealed seeds and faces, the scenario file) guesses a Swedish pool draw no better than
chance, while the secret reproduces every draw exactly; and the pure layer loads no
Django."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import math
from dataclasses import replace
from pathlib import Path

from rules.dice import (
    DrawRoll,
    ScriptedDice,
    SeededDice,
    choose_index,
    draw_context,
    drawn_by,
    secret_draw,
    secret_order,
)
from rules.pax_baltica import phases
from rules.pax_baltica.state import Block
from tests.unit.pb_world import build_world

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "rules" / "pax_baltica" / "scenarios" / "pax-baltica-1700.json"
SECRET = "5e" * 32
NAMES = [f"Block {n}" for n in range(12)]
TRIALS = 300  # campaigns, one Swedish draw each: 300 draws, each with its own seed
FIRST_POOL_ID = 100


def hex64(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# -- the ordering ---------------------------------------------------------------------------


def test_secret_order_is_a_deterministic_permutation_of_the_keys():
    order = secret_order(SECRET, "7/1/0/recruitment/draw/0", NAMES)
    assert order == secret_order(SECRET, "7/1/0/recruitment/draw/0", reversed(NAMES))
    assert sorted(order) == sorted(NAMES) and len(order) == len(NAMES)
    assert order != NAMES


def test_secret_order_differs_for_every_context_and_every_secret():
    contexts = [draw_context("7/1/0/recruitment", n) for n in range(20)]
    orders = {tuple(secret_order(SECRET, context, NAMES)) for context in contexts}
    assert len(orders) == 20
    secrets = {tuple(secret_order(hex64(str(n)), contexts[0], NAMES)) for n in range(20)}
    assert len(secrets) == 20


def test_secret_order_is_hmac_sha256_of_the_context_and_key_smallest_first():
    def digest(name: str) -> bytes:
        return hmac.digest(SECRET.encode(), f"ctx/draw/3/{name}".encode(), "sha256")

    assert secret_order(SECRET, "ctx/draw/3", NAMES) == sorted(NAMES, key=digest)
    assert draw_context("ctx", 3) == "ctx/draw/3"


def test_a_secret_draw_picks_with_choose_index_within_the_secret_order():
    for faces in ([1], [4], [6, 2], [6, 6, 5]):
        dice, plain = ScriptedDice(list(faces)), ScriptedDice(list(faces))
        picked = secret_draw(dice, NAMES[:5], "draw", secret=SECRET, context="ctx")
        order = secret_order(SECRET, "ctx/draw/0", NAMES[:5])
        assert picked == order[choose_index(plain, 5, "draw")]
        assert drawn_by(faces, order) == picked


def test_the_draw_context_counts_the_dice_rolled_before_it_in_the_phase():
    dice = ScriptedDice([2, 3])
    dice.d6("an earlier roll")
    picked = secret_draw(dice, NAMES[:5], "draw", secret=SECRET, context="ctx")
    assert picked == secret_order(SECRET, "ctx/draw/1", NAMES[:5])[2]


def test_drawn_by_says_none_for_faces_that_are_not_one_draw():
    order = NAMES[:5]
    assert drawn_by([6, 2], order) == order[1]  # 6 is rejected (5 faces per try), 2 picks
    assert drawn_by([6], order) is None  # rejected, and no die follows
    assert drawn_by([2, 3], order) is None  # a die too many
    assert drawn_by([7], order) is None and drawn_by(["2"], order) is None
    assert drawn_by([1], []) is None


def test_gm_entered_dice_draw_through_the_secret_too():
    """The same entered face draws different blocks under different secrets."""
    drawn = {
        secret_draw(ScriptedDice([1]), NAMES[:5], "draw", secret=hex64(str(n)), context="c")
        for n in range(40)
    }
    assert len(drawn) == 5


# -- the probe's inference, replayed ------------------------------------------------------


def swedish_pool() -> list[dict]:
    """Sweden's pool in the shipped scenario, in the file's order."""
    blocks = json.loads(SCENARIO.read_text())["pax_baltica"]["blocks"]
    return [b for b in blocks if b["nation"] == "sweden" and b.get("location") is None]


def world_with_the_scenario_pool(secret: str, context: str):
    """The test map, Sweden's pool replaced by the scenario's (ids in the file's order, as
    the loader creates them), with the campaign's secret and the phase's context."""
    world = build_world()
    world.blocks = {k: b for k, b in world.blocks.items() if b.nation != "sweden" or b.location}
    for n, spec in enumerate(swedish_pool()):
        block = Block(
            FIRST_POOL_ID + n,
            "sweden",
            spec["kind"],
            spec["name"],
            spec["strength"],
            spec["max_strength"],
            spec.get("rating", "C1"),
            spec.get("supply_trains", 0),
            None,
        )
        world.blocks[block.id] = block
    world.secret, world.dice_context = secret, context
    return world


def swedish_draw(trial: int):
    """One recruitment with its own seed and secret: Sweden draws one block. Returns what
    the other side sees (the revealed seed's faces), the block drawn, and the draw roll."""
    seed, secret = hex64(f"seed {trial}"), hex64(f"secret {trial}")
    context = f"{trial}/1/0/recruitment"
    world = world_with_the_scenario_pool(secret, context)
    orders = {"sweden": {"draws": 1, "steps_each": 1, "places": ["stockholm", "livland"]}}
    phases.resolve_recruitment(world, orders, SeededDice(seed, context))
    (line,) = [line for line in world.log if line.roll and line.roll.rule == phases.DRAW_RULE]
    report = line.roll
    faces = [report.roll.face, *report.extra_faces]
    return world, faces, report.outcome.params["block"], secret, context


def binomial_tail(hits: int, n: int, p: float) -> float:
    """P(X ≥ hits) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(hits, n + 1))


def test_the_other_side_guesses_a_swedish_draw_no_better_than_chance():
    """The probe: choose_index applied to the faces over the pool in block-id order (and
    in the scenario file's order) named the block drawn. Now it is right about one time
    in five (the pool's size), as a blind guess is, over 300 draws with different seeds;
    while the secret, once revealed, reproduces every draw."""
    file_order = [b["name"] for b in swedish_pool()]
    size = len(file_order)
    assert size >= 2
    by_id = by_file = 0
    for trial in range(TRIALS):
        world, faces, drawn, secret, context = swedish_draw(trial)
        pool = sorted(
            (b for b in world.blocks.values() if b.nation == "sweden"), key=lambda b: b.id
        )
        pool_by_id = [b.name for b in pool if b.name in file_order]
        assert sorted(pool_by_id) == sorted(file_order)
        by_id += drawn_by(faces, pool_by_id) == drawn
        by_file += drawn_by(faces, file_order) == drawn
        # the secret reproduces the draw: the pool in its order, picked by the faces
        assert drawn_by(faces, secret_order(secret, draw_context(context, 0), file_order)) == drawn
    chance = 1 / size
    for hits in (by_id, by_file):
        assert binomial_tail(hits, TRIALS, chance) > 1e-4, (hits, TRIALS, chance)
        assert hits < TRIALS * 0.4  # the probe's guess was right every time


def test_check_draws_recomputes_each_draw_from_the_state_before_the_phase():
    """Two Saxon draws in one phase: the second from the pool less the first."""
    secret, context = hex64("check"), "3/1/0/recruitment"
    world = build_world()
    for n in range(4):
        world.blocks[50 + n] = Block(50 + n, "saxony", "regiment", f"Saxon {n}", 1, 3)
    before = copy.deepcopy(world)
    world.secret, world.dice_context = secret, context
    orders = {"saxony": {"draws": 3, "steps_each": 1, "places": ["lausitz"]}}
    phases.resolve_recruitment(world, orders, SeededDice(hex64("seed"), context))
    draws = [line.roll for line in world.log if line.roll and line.roll.rule == phases.DRAW_RULE]
    assert len(draws) == 3
    rolls, index = [], 0
    for report in draws:
        faces = (report.roll.face, *report.extra_faces)
        rolls.append(DrawRoll(index, faces, "saxony", str(report.outcome)))
        index += len(faces)
    checks = phases.check_draws(before, rolls, secret, context)
    assert [check.match for check in checks] == [True, True, True]
    assert [len(check.order) for check in checks] == [6, 5, 4]
    assert [check.picked for check in checks] == [r.outcome.params["block"] for r in draws]
    tampered = [*rolls[:2], replace(rolls[2], outcome="Lubomirski drawn")]
    assert [c.match for c in phases.check_draws(before, tampered, secret, context)] == [
        True,
        True,
        False,
    ]
    assert not any(c.match for c in phases.check_draws(before, rolls, hex64("wrong"), context))
