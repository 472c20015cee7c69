"""Empires in Arms' corpus adapter (rules/corpus.py): each case runs a phase resolver.

``given`` changes the map (``powers``, ``areas``, ``national_modifiers``,
``let_downs``, ``adjacency``, ``options``) and places pieces: ``corps`` (power, area,
minor, fought, besieged, besieging), ``revolts`` (sponsor, area, number,
months_without_guerrillas, capital_held_months), ``guerrillas`` (area, nationality,
factors, origin, kind "revolt" or "spanish", besieged), ``depots`` (power, area,
port_city, garrison), ``wars`` and ``alliances`` (pairs of powers). Pieces are numbered
from 1 in the order given: a move names its stack by that number. ``choices`` are the
powers' orders for the phase, as the order forms give them. ``phase`` (else the
procedure's in ``CALLS``) says which resolver runs; ``edit`` applies the GM's entry of
what the rules leave to the table (a lost field combat, the months a capital was held),
``choices`` naming the edit and its fields.

Besides the World afterwards, the outcome holds ``outcomes``: what the resolver answered
(rules/empires_in_arms/phases.py), numbered from 1 in order, each its ``kind`` (the
outcome's class: RevoltEnd, RevoltSuccess, …) and its plain fields (numbers, words,
keys, lists of them): ``outcomes.1.infantry = 3``.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from rules.corpus import lines, merged
from rules.dice import ScriptedDice
from rules.empires_in_arms.edits import EDITS, EditError
from rules.empires_in_arms.phases import (
    immediate_checks,
    resolve_conquest,
    resolve_economic,
    resolve_land,
    resolve_peace,
    resolve_revolt_step,
)
from rules.empires_in_arms.state import Area, Corps, Depot, Guerrilla, Power, Revolt, World
from rules.log import GM
from rules.text import Text


def gm_edit(world: World, choices: dict[str, Any], dice: ScriptedDice) -> None:
    """A GM edit (``choices``: ``edit``, its name in edits.EDITS, and its fields) as the
    service applies it: its sentence, or the refusal, then the immediate EIA-7 endings.
    A blank field is none."""
    fields: dict[str, Any] = {key: None if value == "" else value for key, value in choices.items()}
    try:
        world.say(GM, EDITS[fields.pop("edit")](world, **fields))
    except EditError as error:
        world.say(GM, error.args[0])
    immediate_checks(world)


PHASES = {
    "peace": resolve_peace,
    "revolt": resolve_revolt_step,
    "land": resolve_land,
    "conquest": resolve_conquest,
    "economic": resolve_economic,
    "checks": lambda world, orders, dice: immediate_checks(world),
    "edit": gm_edit,
}
CALLS = {
    "EIA-1": "revolt",
    "EIA-2": "revolt",
    "EIA-3": "land",
    "EIA-4": "land",
    "EIA-5": "economic",
    "EIA-6": "land",
    "EIA-7": "peace",
    "EIA-8": "conquest",
    "EIA-9": "land",
    "EIA-10": "land",
    "EIA-11": "land",
    "EIA-12": "land",
}
POWER_FIELDS = ("zone", "political_points", "treasury", "pays_bad_roll")
AREA_FIELDS = ("controller", "home_power", "ceded", "manpower", "guerrilla_value", "islamic")


def build(data: dict[str, Any]) -> World:
    """The World of the merged map and ``given``, its powers' and areas' names Texts
    whose msgid is the name, as the log stores the app's (rules.translation.Name)."""
    powers = {
        key: Power(key, Text(p["name"]), **{f: p[f] for f in POWER_FIELDS if f in p})
        for key, p in data["powers"].items()
    }
    areas = {key: _area(key, a) for key, a in data["areas"].items()}
    return World(
        powers=powers,
        areas=areas,
        adjacency={key: set(others) for key, others in data.get("adjacency", {}).items()},
        national_modifiers={
            (area, power): value
            for area, row in data.get("national_modifiers", {}).items()
            for power, value in row.items()
        },
        corps=[Corps(n, **c) for n, c in enumerate(data.get("corps", []), 1)],
        revolts=[Revolt(n, **r) for n, r in enumerate(data.get("revolts", []), 1)],
        guerrillas=[_stack(n, g) for n, g in enumerate(data.get("guerrillas", []), 1)],
        depots=[Depot(n, **d) for n, d in enumerate(data.get("depots", []), 1)],
        wars={frozenset(pair) for pair in data.get("wars", [])},
        alliances={frozenset(pair) for pair in data.get("alliances", [])},
        let_downs={
            (power, area): count
            for power, row in data.get("let_downs", {}).items()
            for area, count in row.items()
        },
        options=dict(data.get("options", {})),
        militia_due=dict(data.get("militia_due", {})),
    )


def _area(key: str, given: dict[str, Any]) -> Area:
    """An area; a blank controller or home power is none (a neutral minor)."""
    fields = {f: given[f] for f in (*AREA_FIELDS, "capital", "minor_status") if f in given}
    for name in ("controller", "home_power"):
        if name in fields:
            fields[name] = fields[name] or None
    return Area(key, Text(given["name"]), given["kind"], **fields)


def _stack(number: int, given: dict[str, Any]) -> Guerrilla:
    g = dict(given)
    spanish = g.pop("kind", "revolt") == "spanish"
    g.setdefault("origin", g["area"])
    return Guerrilla(number, revolt=not spanish, **g)


def outcome(world: World) -> dict[str, Any]:
    """What a case may expect, keyed as the given is."""
    latest = {r.area: r for r in world.revolts}
    return {
        "powers": {
            k: {"zone": p.zone, "political_points": p.political_points, "treasury": p.treasury}
            for k, p in world.powers.items()
        },
        "areas": {
            k: {
                "controller": a.controller or "",
                "ceded": a.ceded,
                "home_power": a.home_power or "",
                "minor_status": a.minor_status,
            }
            for k, a in world.areas.items()
        },
        "revolts": {
            area: {
                "sponsor": r.sponsor,
                "number": r.number,
                "active": r.active,
                "months_without_guerrillas": r.months_without_guerrillas,
                "end_reason": str(r.end_reason),
            }
            for area, r in latest.items()
        },
        "active_revolts": sorted(r.area for r in world.revolts if r.active),
        "guerrillas": {k: world.guerrilla_factors(k) for k in world.areas},
        "stacks": {k: _stacks(world, k) for k in world.areas},
        "depots": {k: sum(d.area == k for d in world.depots) for k in world.areas},
        "corps": {str(c.id): {"area": c.area, "fought": c.fought} for c in world.corps},
        "let_downs": _let_downs(world),
        "militia_due": dict(world.militia_due),
    }


def _let_downs(world: World) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for (power, area), count in world.let_downs.items():
        table.setdefault(power, {})[area] = count
    return table


def _stacks(world: World, area: str) -> list[str]:
    """ "3 spain spanish", "2 great_britain besieged": the stacks in an area."""
    found = []
    for g in world.guerrillas:
        if g.area == area:
            words = [str(g.factors), g.nationality]
            words += ["spanish"] * (not g.revolt) + ["besieged"] * g.besieged
            found.append(" ".join(words))
    return found


def answered(outcomes: Any) -> dict[str, dict[str, Any]]:
    """The resolver's outcomes by number from "1": each its kind and plain fields."""
    return {str(n): _fields(found) for n, found in enumerate(outcomes or (), 1)}


def _fields(found: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": type(found).__name__}
    for field in fields(found) if is_dataclass(found) else ():
        value = _plain(getattr(found, field.name))
        if value is not None:
            out[field.name] = value
    return out


def _plain(value: Any) -> Any:
    """A number, word or key as TOML writes it (a Text as its English), lists of them as
    lists; None for anything else (roll reports, pieces, a missing value)."""
    if isinstance(value, bool | int | str):
        return str(value) if isinstance(value, str) else value
    if isinstance(value, tuple | list):
        items = [_plain(item) for item in value]
        return None if any(item is None for item in items) else items
    return None


def run(case: dict[str, Any], board: dict[str, Any]) -> tuple[dict[str, Any], list[tuple]]:
    world = build(merged(board, case.get("given", {})))
    dice = ScriptedDice(case.get("dice", []))
    phase = case.get("phase") or CALLS[case["procedure"]]
    outcomes = PHASES[phase](world, case.get("choices", {}), dice)
    found = {**outcome(world), "outcomes": answered(outcomes), "dice_left": dice.unused}
    return found, lines(world.log)
