"""Pax Baltica's corpus adapter (rules/corpus.py): a case runs a phase or a procedure.

``given`` changes the map (``nations``, ``territories``, ``links`` added to the map's,
``actions``, ``season_actions``, ``options``) and lists the ``blocks``: id, nation,
kind, name, strength, max, rating, trains (supply-train symbols), at (a territory or
sea zone; none: in the pool), carried_by, red_dot, places, galley, in_battle,
besieging, nationality. ``phase`` (else the procedure's entry in ``CALLS``) is a phase
(``choices`` are then the nations' orders, as the order forms give them) or a call:

- ``line`` (GNW-9): ``choices`` {nation, from}: the line of communication and why;
- ``draw`` (GNW-10, GNW-11): ``choices`` {nation, rp, draws: the block names in the
  order drawn, steps_each (0: full strength), places: where the player wants them,
  first legal one taken, else the first legal deployment territory};
- ``placement`` (GNW-11): ``choices`` {block, territories}: where the pool block may be
  placed and why not in each territory named.
"""

from __future__ import annotations

from typing import Any

from rules.corpus import lines, merged
from rules.dice import ScriptedDice
from rules.pax_baltica import procedures as gnw
from rules.pax_baltica import supply
from rules.pax_baltica.phases import (
    resolve_actions,
    resolve_forage,
    resolve_recruitment,
    resolve_sieges,
)
from rules.pax_baltica.state import FLEET, Block, Nation, Territory, World
from rules.refusals import reason_for
from rules.text import Text

PHASES = {
    "recruitment": resolve_recruitment,
    "actions": resolve_actions,
    "sieges": resolve_sieges,
    "forage": resolve_forage,
}
CALLS = {
    "GNW-1": "sieges",
    "GNW-2": "sieges",
    "GNW-3": "sieges",
    "GNW-4": "forage",
    "GNW-5": "sieges",
    "GNW-6": "recruitment",
    "GNW-7": "recruitment",
    "GNW-8": "actions",
    "GNW-9": "line",
    "GNW-10": "draw",
    "GNW-11": "draw",
    "GNW-12": "recruitment",
    "GNW-13": "actions",
}
NATION_FIELDS = ("rp_level", "event_rp", "deployment", "fleet_ports", "forced_peace")
BLOCK_FIELDS = {
    "rating": "rating",
    "trains": "supply_trains",
    "at": "location",
    "carried_by": "carried_by",
    "red_dot": "red_dot",
    "places": "places",
    "galley": "galley",
    "in_battle": "in_battle",
    "besieging": "besieging",
    "nationality": "nationality",
}


def build(data: dict[str, Any]) -> World:
    """The World of the merged map and ``given``, its names Texts whose msgid is the
    name, as the log stores a nation's or a territory's (rules.translation.Name): the
    corpus lists its blocks' names for the catalogs too (corpus_words.py)."""
    nations = {
        key: Nation(key, Text(n["name"]), n["side"], **_fields(n, NATION_FIELDS))
        for key, n in data["nations"].items()
    }
    territories = {key: _territory(key, t) for key, t in data["territories"].items()}
    adjacency: dict[str, set[str]] = {}
    for a, b in data.get("links", []):
        adjacency.setdefault(a, set()).add(b)
        adjacency.setdefault(b, set()).add(a)
    blocks = {b["id"]: _block(b) for b in data.get("blocks", [])}
    return World(
        nations=nations,
        territories=territories,
        adjacency=adjacency,
        blocks=blocks,
        actions=dict(data.get("actions", {})),
        season_actions=dict(data.get("season_actions", {})),
        options=dict(data.get("options", {})),
    )


def _fields(given: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return _tuples({name: given[name] for name in names if name in given})


def _tuples(fields: dict[str, Any]) -> dict[str, Any]:
    """Lists as tuples; an RP level "none" as None (a nation without one)."""
    out = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    if out.get("rp_level") == "none":
        out["rp_level"] = None
    return out


def _territory(key: str, given: dict[str, Any]) -> Territory:
    fields = {**given, "name": Text(given["name"])}
    for name in ("nation", "controller"):
        if name in fields:
            fields[name] = fields[name] or None
    return Territory(key, **fields)


def _block(given: dict[str, Any]) -> Block:
    fields = {BLOCK_FIELDS[k]: v for k, v in given.items() if k in BLOCK_FIELDS}
    fields = _tuples(fields)
    return Block(
        given["id"],
        given["nation"],
        given["kind"],
        Text(given["name"]),
        given.get("strength", given["max"]),
        given["max"],
        **fields,
    )


def outcome(world: World) -> dict[str, Any]:
    return {
        "blocks": {
            b.name: {
                "strength": b.strength,
                "at": b.location or "pool",
                "besieging": b.besieging,
                "in_battle": b.in_battle,
            }
            for b in world.blocks.values()
        },
        "territories": {
            key: {
                "controller": t.controller or "",
                "garrison": t.garrison,
                "surrendered": t.surrendered,
            }
            for key, t in world.territories.items()
        },
        "nations": {
            key: {
                "rp_level": "none" if n.rp_level is None else n.rp_level,
                "event_rp": n.event_rp,
                "forced_peace": n.forced_peace,
            }
            for key, n in world.nations.items()
        },
        "actions": dict(world.actions),
    }


def _destinations(world: World) -> dict[str, list[str]]:
    """Where each fleet on the map could end an action, before the phase (GNW-13): "area
    zones" by zones, then area."""
    fleets = [b for b in world.blocks.values() if b.kind == FLEET and not b.in_pool]
    found = {f.name: supply.fleet_destinations(world, f) for f in fleets}
    return {
        name: [f"{area} {zones}" for zones, area in sorted((z, a) for a, z in ends.items())]
        for name, ends in found.items()
    }


def _line(world: World, choices: dict[str, Any]) -> tuple[dict[str, Any], list[tuple]]:
    nation, start = choices["nation"], choices["from"]
    path = supply.line_of_communication(world, nation, start)
    explanation = supply.line_explanation(world, nation, start)
    return {"line": path or [], "explanation": str(explanation)}, [("GNW-9", explanation)]


def _draw(world: World, choices: dict[str, Any]) -> tuple[dict[str, Any], list[tuple]]:
    names = list(choices.get("draws", []))
    steps_each = choices.get("steps_each", 0)
    wanted = choices.get("places", [])

    def draw(pool):
        name = names.pop(0)
        return next(b for b in pool if b.name == name)

    def place(block):
        legal = gnw.placement_choices(world, block)
        return next((key for key in wanted if key in legal), legal[0] if legal else None)

    recruitment = gnw.draw_blocks(
        world.pool(choices["nation"]),
        choices["rp"],
        choices.get("max_draws", len(names)),
        lambda block: steps_each or block.max_strength,
        place,
        draw,
        world.options,
        {key: t.name for key, t in world.territories.items()},
    )
    drawn = {d.name: {"steps": d.steps, "at": d.placed_at or "pool"} for d in recruitment.draws}
    result = {"spent": recruitment.rp_spent, "lost": recruitment.rp_lost, "drawn": drawn}
    log = [("GNW-10", d.text) for d in recruitment.draws] + [("GNW-6", recruitment.text)]
    return result, log


def _placement(world: World, choices: dict[str, Any]) -> tuple[dict[str, Any], list[tuple]]:
    block = next(b for b in world.blocks.values() if b.name == choices["block"])
    refusals = {k: reason_for(gnw.check_placement, world, block, k) for k in choices["territories"]}
    shown = {k: str(text or "") for k, text in refusals.items()}
    result = {"places": gnw.placement_choices(world, block), "refusals": shown}
    return result, [("GNW-11", text) for text in refusals.values() if text]


CALLED = {"line": _line, "draw": _draw, "placement": _placement}


def run(case: dict[str, Any], board: dict[str, Any]) -> tuple[dict[str, Any], list[tuple]]:
    given = case.get("given", {})
    world = build(merged(board, {**given, "links": board["links"] + given.get("links", [])}))
    call = case.get("phase") or CALLS[case["procedure"]]
    if call in CALLED:
        result, log = CALLED[call](world, case.get("choices", {}))
        return {**outcome(world), **result}, log
    dice = ScriptedDice(case.get("dice", []))
    destinations = _destinations(world)
    PHASES[call](world, case.get("choices", {}), dice)
    result = {"destinations": destinations, "dice_left": dice.unused}
    return {**outcome(world), **result}, lines(world.log)
