"""Virgin Queen's corpus adapter (rules/corpus.py): a case starts a procedure, answers it.

``given`` changes the map (``spaces``, ``links`` added to the map's, ``sea_zones``,
``capitals``, ``counter_mix``, ``catholic_powers``, ``turn``, ``options``) and replaces
its ``units`` (id, power, kind, space, count), ``leaders`` (id, name, power, kind, space,
zone, can_enter) or ``wars`` (pairs). ``choices``: ``start`` ({power, zones, attempts,
event} for VQ-1, {target, cp} for VQ-2) and ``answers``, each {power, answer} (``gm``:
the GM answers for the power; ``default``: the answer of an absent player) or a GM
edit ({edit, its fields}), given in turn while the procedure waits. The outcome holds
what it waits for next, if anything, with the prompt's questions, or the refusal that
stopped it (also the log's last line), and ``outcome``: the procedure's Conversion or
Revolt so far (rules/virgin_queen/procedures.py), its fields as TOML writes them
(``outcome.discarded = 1``, ``outcome.nation = "Dutch"``); none after a refused start.
VQ-3 runs the start of the case's turn and of ``choices.turns`` − 1 turns after it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rules.corpus import lines, merged
from rules.dice import ScriptedDice
from rules.refusals import reason_for
from rules.text import Text
from rules.virgin_queen import procedures as vq
from rules.virgin_queen.edits import EDITS
from rules.virgin_queen.state import Leader, Markers, Space, Units, World

CALLS = {"VQ-1": "conversion", "VQ-2": "revolt", "VQ-3": "espionage"}


def build(data: dict[str, Any]) -> World:
    """The World of the merged map and ``given``, its names Texts whose msgid is the
    name, as the log stores a space's (rules.translation.Name): the corpus lists its
    leaders' names for the catalogs too (corpus_words.py)."""
    adjacency: dict[str, set[str]] = {key: set() for key in data["spaces"]}
    for a, b in data.get("links", []):
        adjacency.setdefault(a, set()).add(b)
        adjacency.setdefault(b, set()).add(a)
    return World(
        spaces={key: _space(key, s) for key, s in data["spaces"].items()},
        adjacency=adjacency,
        sea_zones={key: set(seas) for key, seas in data.get("sea_zones", {}).items()},
        units={u["id"]: Units(**u) for u in data.get("units", [])},
        leaders={lead["id"]: _leader(lead) for lead in data["leaders"]},
        capitals={zone: key or None for zone, key in data.get("capitals", {}).items()},
        counter_mix=dict(data.get("counter_mix", {})),
        wars={frozenset(pair) for pair in data.get("wars", [])},
        turn=data.get("turn", 1),
        markers={p: Markers(**data.get("markers", {}).get(p, {})) for p in data["powers"]},
        catholic_powers=frozenset(data["catholic_powers"]),
        options=dict(data.get("options", {})),
    )


def _leader(given: dict[str, Any]) -> Leader:
    return Leader(**{"space": None, **given, "name": Text(given["name"])})


def _space(key: str, given: dict[str, Any]) -> Space:
    fields = {**given, "name": Text(given["name"])}
    for name in ("controller", "capital_of"):
        if name in fields:
            fields[name] = fields[name] or None
    return Space(key, **fields)


def outcome(world: World) -> dict[str, Any]:
    units: dict[str, list[str]] = {key: [] for key in world.spaces}
    for u in world.units.values():
        if u.count:
            units.setdefault(u.space, []).append(f"{u.count} {u.power} {u.kind}")
    return {
        "spaces": {
            key: {"religion": s.religion, "controller": s.controller or "", "unrest": s.unrest}
            for key, s in world.spaces.items()
        },
        "units": {key: sorted(found) for key, found in units.items()},
        "leaders": {lead.name: lead.space or "off the map" for lead in world.leaders.values()},
        "capitals": {zone: key or "" for zone, key in world.capitals.items()},
        "counter_mix": dict(world.counter_mix),
        "wars": sorted(" and ".join(sorted(pair)) for pair in world.wars),
        "markers": {p: vars(m) for p, m in world.markers.items()},
    }


def _waiting(world: World, pending: vq.Pending | None) -> dict[str, Any]:
    if pending is None:
        return {"pending": "", "prompt": {}}
    asked = vq.prompt(world, pending)
    questions = {
        q.name: {
            "label": str(q.label),
            "options": [value for value, _ in q.options],
            "min": q.min,
            "max": q.max,
        }
        for q in asked.questions
    }
    prompt = {"text": str(asked.text), "questions": questions, "highlight": list(asked.highlight)}
    return {"pending": f"{pending.kind} {pending.stage} {pending.waiting_for}", "prompt": prompt}


def _procedure(world: World, case: dict[str, Any]) -> tuple[dict[str, Any], int]:
    choices = case.get("choices", {})
    start, answers = choices.get("start", {}), list(choices.get("answers", []))
    dice = ScriptedDice(case.get("dice", []))
    progress = None
    try:
        if case["procedure"] == "VQ-1":
            power, zones, attempts = start["power"], start["zones"], start["attempts"]
            event = start.get("event", "")
            progress = vq.start_conversion(world, power, zones, attempts, event, dice)
        else:
            progress = vq.start_revolt(world, start["target"], start["cp"], dice)
        for step in answers:
            if "edit" in step:  # the GM changes the board while the procedure waits
                edit = dict(step)
                world.say("GM", EDITS[edit.pop("edit")](world, **edit))
                continue
            pending = progress.pending
            assert pending is not None  # a case answers only while its procedure waits
            answer = vq.default_answer(world, pending) if step.get("default") else step["answer"]
            progress = vq.decide(world, pending, step["power"], answer, as_gm=step.get("gm", False))
    except vq.Refused as refusal:
        done = _fields(progress.outcome) if progress else {}
        return {"refused": refusal.text, "pending": "", "prompt": {}, "outcome": done}, dice.unused
    waiting = _waiting(world, progress.pending)
    return {"refused": "", **waiting, "outcome": _fields(progress.outcome)}, dice.unused


def _fields(done: vq.Conversion | vq.Revolt) -> dict[str, Any]:
    """The outcome's fields, tuples as lists and words (Texts) as their English."""

    def plain(value: Any) -> Any:
        if isinstance(value, tuple | list):
            return [plain(item) for item in value]
        return str(value) if isinstance(value, str) else value

    return {field.name: plain(getattr(done, field.name)) for field in fields(done)}


def _espionage(world: World, turns: int) -> tuple[dict[str, Any], list[tuple]]:
    """The start of ``turns`` turns from the world's: each one's refusal, then markers."""
    log, refusal = [], ""
    for turn in range(world.turn, world.turn + turns):
        world.turn = turn
        refusal = reason_for(vq.check_espionage, turn) or ""
        log += [("VQ-3", refusal)] if refusal else []
        before = len(world.log)
        vq.espionage_markers(world)
        log += lines(world.log[before:])
    return {"refused": refusal}, log


def run(case: dict[str, Any], board: dict[str, Any]) -> tuple[dict[str, Any], list[tuple]]:
    given = case.get("given", {})
    world = build(merged(board, {**given, "links": board["links"] + given.get("links", [])}))
    if CALLS[case["procedure"]] == "espionage":
        result, log = _espionage(world, case.get("choices", {}).get("turns", 1))
        return {**outcome(world), **result}, log
    result, left = _procedure(world, case)
    refused = [(case["procedure"], result["refused"])] if result["refused"] else []
    return {**outcome(world), **result, "dice_left": left}, lines(world.log) + refused
