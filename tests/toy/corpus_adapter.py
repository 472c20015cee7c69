"""Beacons' corpus adapter (rules/corpus.py): a case runs a phase of the night, then
answers the raids that wait. Pure: no Django.

The corpus map gives the ``powers`` and ``areas`` (each with its ``name``), the
``links``, the beacons ``lit`` (area -> lord; "" or none: unlit) and each lord's
``wood``; ``given`` changes them (its ``links`` are added to the map's). ``choices``: the
lords' orders as the order forms give them (``north.area``, ``north.feed``,
``south.action``, ``south.area``), and ``answers``: the defenders' decisions in turn,
each {power, keep} (``gm = true``: the GM answers for the defender; ``default = true``:
the answer of a defender without a player). The outcome: ``lit`` ("" unlit), ``wood``
and ``waiting``, the lord the next raid waits for ("" when none); a refused answer stops
the case, its reason the log's last line.
"""

from __future__ import annotations

from typing import Any

from rules.corpus import lines, merged
from rules.dice import ScriptedDice
from rules.refusals import reason_for
from rules.text import Text
from tests.toy import procedures
from tests.toy.phases import resolve_raids, resolve_signals
from tests.toy.state import World

CALLS = {"TOY-1": resolve_signals, "TOY-2": resolve_raids, "TOY-3": resolve_raids}


def build(data: dict[str, Any]) -> World:
    """The World of the merged map and ``given``, its names Texts whose msgid is the name,
    as the log stores a scenario's (rules.translation.Name)."""
    adjacency: dict[str, set[str]] = {key: set() for key in data["areas"]}
    for a, b in data.get("links", []):
        adjacency[a].add(b)
        adjacency[b].add(a)
    lit, wood = data.get("lit", {}), data.get("wood", {})
    return World(
        lit={key: lit.get(key) or None for key in data["areas"]},
        adjacency=adjacency,
        names={key: Text(area["name"]) for key, area in data["areas"].items()},
        powers={key: Text(power["name"]) for key, power in data["powers"].items()},
        wood={key: wood.get(key, 0) for key in data["powers"]},
    )


def answer(world: World, given: dict[str, Any]) -> Text | None:
    """One decision of ``answers``; why it is refused, or None."""
    if given.get("default"):
        power, reply = procedures.default_answer(world)
        return reason_for(procedures.answer_raid, world, power, reply["keep"])
    gm = bool(given.get("gm"))
    keep = bool(given.get("keep"))
    return reason_for(procedures.answer_raid, world, given.get("power"), keep, as_gm=gm)


def outcome(world: World) -> dict[str, Any]:
    raid = world.asked
    return {
        "lit": {key: lord or "" for key, lord in world.lit.items()},
        "wood": dict(world.wood),
        "waiting": world.defender(raid) if raid else "",
    }


def run(case: dict[str, Any], board: dict[str, Any]) -> tuple[dict[str, Any], list[tuple]]:
    given = case.get("given", {})
    world = build(merged(board, {**given, "links": board["links"] + given.get("links", [])}))
    choices = dict(case.get("choices", {}))
    answers = choices.pop("answers", [])
    dice = ScriptedDice(case.get("dice", []))
    CALLS[case["procedure"]](world, choices, dice)
    refusal = None
    for given_answer in answers:
        refusal = answer(world, given_answer)
        if refusal is not None:
            break
    log = lines(world.log) + ([(procedures.RAID, refusal)] if refusal is not None else [])
    return {**outcome(world), "dice_left": dice.unused}, log
