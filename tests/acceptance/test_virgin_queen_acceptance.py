"""The seed's worked example (tests/acceptance/cases/virgin_queen.json), one test per case.

The cases are read at run time; this file only builds the case's ``given`` map, drives
the procedure with the case's ``choices`` wherever a prompt asks, and reads back every
``expect`` key. Spaces and powers are named in the case ("La Rochelle", "France"); their
keys are the names in lower case with underscores.

The Lyon case's map holds no French capital, so its mercenaries have one place to go and
its ``displace_to`` choice is never asked. The seed's step 3 offers "the nearest fortified
space under French control or Paris, the French capital": a second test adds Paris to the
case's map, where the revolt waits for France and the case's choice is taken.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.dice import ScriptedDice
from rules.virgin_queen.procedures import decide, prompt, start_revolt
from rules.virgin_queen.state import PROTESTANT_POWER, Space, Units, World

CASES_DIR = Path(__file__).resolve().parent / "cases"  # the seeds' worked examples


def load_cases() -> list[dict]:
    path = CASES_DIR / "virgin_queen.json"
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


CASES = load_cases()


def key(name: str) -> str:
    return name.lower().replace(" ", "_")


def world_of(given: dict) -> World:
    spaces, units = {}, {}
    for entry in given["spaces"]:
        space_key = key(entry["name"])
        spaces[space_key] = Space(
            space_key,
            entry["name"],
            key(entry["zone"]),
            key(entry["religion"]),
            key(entry["controller"]),
            protestant_home=entry.get("protestant_home", False),
            fortified=entry.get("fortified", False),
            capital_of=key(entry["capital_of"]) if entry.get("capital_of") else None,
        )
        for stack in entry["units"]:
            n = len(units) + 1
            units[n] = Units(n, key(stack["owner"]), stack["kind"], space_key, stack["count"])
    adjacency: dict[str, set[str]] = {k: set() for k in spaces}
    for a, b in given["adjacent"]:
        adjacency[key(a)].add(key(b))
        adjacency[key(b)].add(key(a))
    zone = spaces[key(given["target"])].zone
    capital = given.get("protestant_capital_in_zone")
    return World(
        spaces=spaces,
        adjacency=adjacency,
        units=units,
        capitals={zone: key(capital) if capital else None},
        counter_mix={zone: given["huguenot_regulars_available"]},
        wars={frozenset({PROTESTANT_POWER, "france"})}
        if given["protestant_at_war_with_france"]
        else set(),
    )


def answer_for(world: World, asked, choices: dict) -> dict:
    """The case's choice for every question of a prompt; a question it has no choice for
    fails the test (the case must say what the player chose)."""
    answer = {}
    for question in asked.questions:
        if asked.stage == "extra":
            answer[question.name] = [key(name) for name in choices["extra_spaces"]]
        elif asked.stage == "displace":
            unit = world.units[int(question.name.removeprefix("unit:"))]
            label = f"{unit.power.title()} {unit.kind}"
            answer[question.name] = key(choices["displace_to"][label])
        else:
            pytest.fail(f"the case has no choice for {asked.stage}: {question.label}")
    return answer


def play(case: dict, given: dict) -> tuple[World, list]:
    """The case's revolt on ``given``'s map, every prompt answered with the case's
    choices; the world after and the prompts asked."""
    world = world_of(given)
    dice = ScriptedDice(case["dice"])
    pending = start_revolt(world, key(given["target"]), given["cp"], dice).pending
    asked = []
    while pending is not None:
        asked.append(prompt(world, pending))
        pending = decide(
            world, pending, pending.waiting_for, answer_for(world, asked[-1], case["choices"])
        ).pending
    assert dice.unused == 0
    return world, asked


def check(case: dict, world: World, was_protestant: set[str]) -> None:
    """Every ``expect`` key of the case."""
    given, expect = case["given"], case["expect"]
    target = key(given["target"])
    roll = next(line.roll for line in world.log if line.roll is not None)
    assert roll.faces == tuple(case["dice"])
    assert int(roll.outcome.split()[0]) == expect["hits"]
    succeeded = world.spaces[target].controller == PROTESTANT_POWER
    assert succeeded == expect["success"]
    assert any("the revolt succeeds" in line.text for line in world.log) == expect["success"]

    controlled = {k for k, s in world.spaces.items() if s.controller == PROTESTANT_POWER}
    assert controlled - was_protestant == {key(name) for name in expect["protestant_controls"]}
    for name, stacks in expect["units_after"].items():
        there = sorted((u.power, u.kind, u.count) for _, u in world.units_in(key(name)))
        assert there == sorted((key(s["owner"]), s["kind"], s["count"]) for s in stacks)
    assert world.at_war(PROTESTANT_POWER, "france") == expect["protestant_at_war_with_france"]
    zone = world.spaces[target].zone
    assert world.capitals[zone] == key(expect["protestant_capital_in_zone"])


def protestant(given: dict) -> set[str]:
    return {key(s["name"]) for s in given["spaces"] if key(s["controller"]) == PROTESTANT_POWER}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case(case):
    assert case["procedure"] == "VQ-2"
    world, _ = play(case, case["given"])
    check(case, world, protestant(case["given"]))


PARIS = {
    "name": "Paris",
    "zone": "France",
    "controller": "France",
    "religion": "Catholic",
    "fortified": True,
    "capital_of": "France",
    "units": [],  # linked to no space of the case: a capital is a refuge wherever it is
}
DISPLACING = [
    case
    for case in CASES
    if case["choices"].get("displace_to")
    and any(
        s["name"] == case["given"]["target"] and key(s["zone"]) == "france"
        for s in case["given"]["spaces"]
    )
]


@pytest.mark.parametrize("case", DISPLACING, ids=[case["id"] for case in DISPLACING])
def test_case_with_the_french_capital_on_the_map(case):
    given = {**case["given"], "spaces": [*case["given"]["spaces"], PARIS]}
    world, asked = play(case, given)
    displace = [prompt for prompt in asked if prompt.stage == "displace"]
    assert [(p.waiting_for, p.rule) for p in displace] == [("france", "VQ-2")]
    offered = {q.label: [value for value, _ in q.options] for q in displace[0].questions}
    nearest = sorted(key(name) for name in case["choices"]["displace_to"].values())
    assert offered and all(values == sorted({*nearest, "paris"}) for values in offered.values())
    check(case, world, protestant(given))
    assert list(world.units_in("paris")) == []  # France chose the case's space, not Paris
