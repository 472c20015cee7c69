"""The seed's worked examples (tests/acceptance/cases/empires_in_arms.json), one test per case.

The cases are read at run time; this file only maps a case's ``given`` keys to the
procedures' arguments and reads back every ``expect`` key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.dice import ScriptedDice
from rules.empires_in_arms.procedures import revolt_attempt, revolt_strength
from rules.empires_in_arms.state import MINOR, PROVINCE, Area, Power, World

CASES_DIR = Path(__file__).resolve().parent / "cases"  # the seeds' worked examples


def load_cases() -> list[dict]:
    path = CASES_DIR / "empires_in_arms.json"
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


CASES = load_cases()


def key(name: str) -> str:
    return name.lower().replace(" ", "_")


def parties(world: World, given: dict) -> tuple[Power, Power, Area]:
    """The sponsor, the controller and the target of the case."""
    powers = world.powers
    area = world.areas[key(given.get("target", "the target"))]
    return powers[key(given["sponsor"])], powers[key(given["controller"])], area


def world_for(given: dict) -> World:
    """The powers and the target area the case speaks of, with the chart values it gives."""
    sponsor, controller = key(given["sponsor"]), key(given["controller"])
    powers = {
        sponsor: Power(
            sponsor,
            given["sponsor"],
            zone=given.get("sponsor_political_zone", "Neutral"),
            political_points=given.get("sponsor_political_points", 0),
        ),
        controller: Power(
            controller, given["controller"], zone=given.get("controller_political_zone", "Neutral")
        ),
    }
    ceded = given.get("target_kind") == "ceded_province"
    former_home = given.get("target_former_home_nation_of_sponsor", False)
    name = given.get("target", "the target")
    target = Area(
        key(name),
        name,
        PROVINCE if ceded else MINOR,
        controller=controller,
        home_power=sponsor if former_home else None,
        ceded=ceded,
    )
    chart = {}
    if "sponsor_national_modifier" in given:
        chart[(target.key, sponsor)] = given["sponsor_national_modifier"]
    if "controller_national_modifier" in given:
        chart[(target.key, controller)] = given["controller_national_modifier"]
    return World(powers=powers, areas={target.key: target}, national_modifiers=chart)


def run_eia1(world: World, given: dict, dice: ScriptedDice) -> dict:
    sponsor, _, area = parties(world, given)
    earlier = [area.key] * given.get("attempts_already_made_this_step", 0)
    let_downs = given.get("let_down_revolts_by_sponsor_in_target", 0)
    nm = world.national_modifier(sponsor.key, area.key)
    outcome = revolt_attempt(sponsor, area, nm, let_downs, earlier, dice, {})
    return {
        "modified_roll": outcome.report.roll.total if outcome.report else None,
        "revolt_breaks_out": outcome.broke_out,
        "sponsor_political_points": outcome.political_points,
    }


def run_eia2(world: World, given: dict, dice: ScriptedDice) -> dict:
    sponsor, controller, area = parties(world, given)
    outcome = revolt_strength(
        sponsor,
        controller,
        area,
        world.national_modifier(sponsor.key, area.key),
        world.national_modifier(controller.key, area.key),
        given.get("controller_corps_in_target", False),
        dice,
    )
    return {"modified_roll": outcome.report.roll.total, "revolt_number": outcome.number}


ADAPTERS = {"EIA-1": run_eia1, "EIA-2": run_eia2}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_worked_example(case):
    given = case["given"]
    dice = ScriptedDice(case["dice"])
    observed = ADAPTERS[case["procedure"]](world_for(given), given, dice)
    for name, expected in case["expect"].items():
        assert name in observed, f"{case['id']}: the adapter does not read “{name}”"
        assert observed[name] == expected, f"{case['id']}: {name}"
    assert dice.unused == 0, f"{case['id']}: {dice.unused} die face(s) left unrolled"
