"""The seed's worked examples (tests/acceptance/cases/pax_baltica.json), one test per case.

The cases are read at run time; this file only maps a case's ``given`` and ``choices`` to
the procedures' arguments and reads back every ``expect`` key. Nations and territories
are named in the cases ("Denmark", "Lausitz"); their keys are the names in lower case.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.dice import ScriptedDice
from rules.pax_baltica.procedures import (
    check_placement,
    draw_blocks,
    forage,
    friendly_garrison,
    reinforce_by_action,
    reinforce_with_rp,
    rp_available,
    rp_levels_after,
    siege_result,
)
from rules.pax_baltica.state import (
    COALITION,
    SWEDEN_SIDE,
    Block,
    Nation,
    Territory,
    World,
)
from rules.refusals import reason_for

CASES_DIR = Path(__file__).resolve().parent / "cases"  # the seeds' worked examples


def load_cases() -> list[dict]:
    path = CASES_DIR / "pax_baltica.json"
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


CASES = load_cases()


def key(name: str) -> str:
    return name.lower().replace(" ", "_")


def side(nation: str) -> str:
    return SWEDEN_SIDE if key(nation) == "sweden" else COALITION


def world_of(
    nations: list[str], territories: list[Territory], blocks: list[Block] = (), adjacent=()
) -> World:
    adjacency: dict[str, set[str]] = {t.key: set() for t in territories}
    for a, b in adjacent:
        adjacency[key(a)].add(key(b))
        adjacency[key(b)].add(key(a))
    return World(
        nations={key(n): Nation(key(n), n, side(n)) for n in nations},
        territories={t.key: t for t in territories},
        adjacency=adjacency,
        blocks={b.id: b for b in blocks},
    )


def block_from(id_: int, given: dict, nation: str | None = None, location: str | None = None):
    return Block(
        id_,
        key(given.get("nation", nation or "")),
        given["kind"],
        given["name"],
        given.get("strength", given["max_strength"]),
        given["max_strength"],
        supply_trains=given.get("supply_trains", 0),
        location=location,
    )


def run_gnw4(case: dict) -> dict:
    given, choices = case["given"], case.get("choices", {})
    territory = Territory(
        key(given["territory"]["name"]),
        given["territory"]["name"],
        forage_points=given["territory"]["forage_points"],
    )
    group = [block_from(i, b, location=territory.key) for i, b in enumerate(given["blocks"], 1)]
    ids = {b.name: b.id for b in group}
    first = choices.get("first_loss_among_strongest")
    check = forage(territory, group, [ids[first]] if first else [], {})
    return {
        "demand": check.demand,
        "supply": check.supply,
        "steps_lost": sum(check.losses.values()),
        "strengths_after": {b.name: b.strength - check.losses.get(b.id, 0) for b in group},
    }


def run_gnw5(case: dict) -> dict:
    """Each surrendered garrison is a siege result (GNW-2) feeding the RP levels."""
    given = case["given"]
    sieges = given["surrendered_garrisons"]
    territories = [
        Territory(
            key(s["territory"]),
            s["territory"],
            nation=key(s["owner_nation"]),
            controller=key(s["owner_nation"]),
            garrison=1,
        )
        for s in sieges
    ]
    world = world_of(list(given["rp_levels"]), territories)
    surrendered = []
    for siege, territory in zip(sieges, territories, strict=True):
        result = siege_result(world, territory, key(siege["captured_by"]))
        if result.surrendered_nation:
            surrendered.append(result.surrendered_nation)
    levels = {key(n): level for n, level in given["rp_levels"].items()}
    after = rp_levels_after(levels, surrendered)
    return {"rp_levels": {n: after[key(n)] for n in given["rp_levels"]}}


def reinforcement_world(given: dict) -> tuple[World, Block]:
    """The block in its territory, under its own garrison or an enemy's (Sweden against
    the Coalition: the other side's nation holds the marker)."""
    nation = given["block"]["nation"]
    enemy = "Russia" if key(nation) == "sweden" else "Sweden"
    holder = nation if given["territory"]["friendly_garrison"] else enemy
    name = given["territory"]["name"]
    territory = Territory(key(name), name, controller=key(holder), garrison=1)
    block = block_from(1, given["block"], location=territory.key)
    world = world_of([nation, enemy], [territory], [block])
    assert friendly_garrison(world, block) == given["territory"]["friendly_garrison"]
    return world, block


def run_gnw7(case: dict) -> dict:
    given = case["given"]
    world, block = reinforcement_world(given)
    outcome = reinforce_with_rp(
        world,
        block,
        given["steps_wanted"],
        given["has_line_of_communication"],
        given["rp_available"],
    )
    return {
        "rp_cost": outcome.rp_cost,
        "strength_after": outcome.strength,
        "rp_left": given["rp_available"] - outcome.rp_cost,
    }


def run_gnw8(case: dict) -> dict:
    given = case["given"]
    world, block = reinforcement_world(given)
    outcome = reinforce_by_action(
        world, block, given["actions_spent"], given["has_line_of_communication"]
    )
    return {"strength_after": outcome.strength, "rp_cost": outcome.rp_cost}


def run_gnw10(case: dict) -> dict:
    """The blocks come out in the case's draw order; each is placed where the player
    chose, if GNW-11 allows it there."""
    given, choices = case["given"], case.get("choices", {})
    nation = given["nation"]
    placements = choices.get("placement", {})
    territories = [Territory(key(t), t, nation=key(nation)) for t in set(placements.values())]
    pool = [block_from(i, b, nation) for i, b in enumerate(given["draw_order"], 1)]
    world = world_of([nation], territories, pool)
    world.nations[key(nation)].deployment = tuple(t.key for t in territories)
    bought = choices.get("steps_bought", {})

    def place(block: Block) -> str | None:
        chosen = placements.get(block.name)
        if chosen is None or reason_for(check_placement, world, block, key(chosen)):
            return None
        return key(chosen)

    outcome = draw_blocks(
        pool,
        given["rp_available"],
        len(pool),
        lambda b: bought.get(b.name, 1),
        place,
        lambda remaining: remaining[0],
        {},
        {t.key: t.name for t in territories},
    )
    return {
        "placed": {
            d.name: {"strength": d.steps, "territory": world.territories[d.placed_at].name}
            for d in outcome.draws
            if not d.returned
        },
        "returned_to_pool": [d.name for d in outcome.draws if d.returned],
        "rp_spent": outcome.rp_spent,
        "rp_lost": outcome.rp_lost,
    }


def run_gnw12(case: dict) -> dict:
    given = case["given"]
    nation = Nation(
        key(given["nation"]),
        given["nation"],
        side(given["nation"]),
        given["rp_level"],
        event_rp=given["event_rp_next_recruitment"],
    )
    return {
        "rp_available_next_recruitment": rp_available(nation),
        "rp_level_after": nation.rp_level,
    }


def run_gnw9(case: dict) -> dict:
    """Lines of communication are ``supply``'s (GNW-9); the case asks
    "Nation@Territory": whether a block of that nation there has one."""
    from rules.pax_baltica.supply import line_of_communication

    given = case["given"]
    territories = [
        Territory(
            key(t["name"]),
            t["name"],
            nation=key(t["nation"]),
            controller=key(t["controlled_by"]),
            garrison=1,
        )
        for t in given["territories"]
    ]
    expected = case["expect"]["line_of_communication"]
    asking = next(iter(expected)).split("@")[0]  # the enemy blocks are this nation's enemy's
    enemy = "Russia" if side(asking) == SWEDEN_SIDE else "Sweden"
    nations = sorted({t["nation"] for t in given["territories"]} | {asking, enemy})
    enemy_blocks = [
        Block(i, key(enemy), "army", f"Enemy {i}", 4, 4, location=key(where))
        for i, where in enumerate(given["enemy_blocks_in"], 1)
    ]
    world = world_of(nations, territories, enemy_blocks, given["adjacent"])
    found = {}
    for question in expected:
        nation, area = question.split("@")
        found[question] = line_of_communication(world, key(nation), key(area)) is not None
    return {"line_of_communication": found}


ADAPTERS = {
    "GNW-4": run_gnw4,
    "GNW-5": run_gnw5,
    "GNW-7": run_gnw7,
    "GNW-8": run_gnw8,
    "GNW-9": run_gnw9,
    "GNW-10": run_gnw10,
    "GNW-12": run_gnw12,
}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_worked_example(case):
    dice = ScriptedDice(case["dice"])
    observed = ADAPTERS[case["procedure"]](case)
    for name, expected in case["expect"].items():
        assert name in observed, f"{case['id']}: the adapter does not read “{name}”"
        assert observed[name] == expected, f"{case['id']}: {name}"
    assert dice.unused == 0, f"{case['id']}: {dice.unused} die face(s) left unrolled"
