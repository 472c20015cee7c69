"""The Virgin Queen procedures VQ-1 (Catholic conversion), VQ-2 (Protestant revolt) and
VQ-3 (espionage markers), as an engine that waits for the players' decisions.

``start_conversion`` and ``start_revolt`` roll the dice and run every step that needs
nobody's decision. When a power must decide, they return a ``Pending`` (plain JSON data,
stored between requests); ``prompt`` says what that power is asked, offering only the
legal choices, and ``decide`` applies its answer and runs on to the next decision, or to
the end (None). A refused start or answer raises ``Refused`` and changes nothing. Every
step writes a log line naming its rule, as a GM's e-mail would.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.dice import Dice
from rules.modifiers import ModifiedRoll, RollReport
from rules.virgin_queen.state import (
    ADJECTIVES,
    AUTOMATIC_SIX_EVENTS,
    CATHOLIC,
    MILITARY,
    NAVAL,
    PROTESTANT,
    PROTESTANT_NATION,
    PROTESTANT_POWER,
    REGULAR,
    REVOLT_CONTROLLER,
    TURN_TRACK,
    Leader,
    Units,
    World,
    option,
    power_name,
    zone_name,
)

KEEP, LOWER = "keep", "lower"
IRREGULAR = {"die": "dice", "miss": "misses", "mercenary": "mercenaries", "six": "sixes"}
KIND_NOUNS = {NAVAL: "naval unit"}


class Refused(ValueError):
    """An illegal start or answer; the world is unchanged."""


@dataclass(frozen=True)
class Question:
    """One form field: one option (``many`` False; ``min`` 0 allows a blank answer), or
    between ``min`` and ``max`` of them (``many`` True). Options are (value, label)."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]
    many: bool = False
    min: int = 0
    max: int = 1


@dataclass(frozen=True)
class Prompt:
    """What the waiting power must answer now, and why; ``highlight``: eligible spaces."""

    kind: str
    stage: str
    waiting_for: str
    rule: str
    text: str
    questions: tuple[Question, ...]
    highlight: tuple[str, ...]


@dataclass
class Pending:
    """A procedure waiting for ``waiting_for``; ``data`` is JSON-serialisable."""

    kind: str  # "conversion" or "revolt"
    stage: str
    waiting_for: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class DiceReport(RollReport):
    """Several dice rolled together: ``roll.face`` is the first, ``extra_faces`` the rest."""

    @property
    def faces(self) -> tuple[int, ...]:
        return (self.roll.face, *self.extra_faces)

    @property
    def text(self) -> str:
        """ "1 2 5, hits on 5 or 6: 1 hit"."""
        faces = " ".join(str(face) for face in self.faces)
        compared = f", {self.comparison}" if self.comparison else ""
        return f"{faces}{compared}: {self.outcome}"


# -- wording --------------------------------------------------------------------------


def plural(count: int, noun: str) -> str:
    """ "1 hit", "2 hits"; "2 dice", "2 mercenaries"."""
    if count == 1:
        return f"{count} {noun}"
    head, _, last = noun.rpartition(" ")
    last = IRREGULAR.get(last, last + "s")
    return f"{count} {head + ' ' if head else ''}{last}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _and(items: Sequence[str]) -> str:
    """ "Lyon", "Lyon and Dijon", "Lyon, Dijon and Clermont"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _name(world: World, key: str) -> str:
    space = world.spaces.get(key)
    return space.name if space else key


def _names(world: World, keys: Iterable[str]) -> str:
    return _and([_name(world, key) for key in keys])


def _by_name(world: World, keys: Iterable[str]) -> list[str]:
    return sorted(keys, key=lambda key: (_name(world, key), key))


def _stack(units: Units) -> str:
    """ "2 French mercenaries"."""
    adjective = ADJECTIVES.get(units.power, units.power.title())
    return plural(units.count, f"{adjective} {KIND_NOUNS.get(units.kind, units.kind)}")


def _faces(faces: Iterable[int]) -> str:
    return " ".join(str(face) for face in faces)


# -- answers --------------------------------------------------------------------------

Why = Callable[[Question, str], str]


def _normal(raw: Any) -> str | list[str] | None:
    if isinstance(raw, list | tuple):
        return [str(item) for item in raw if item not in (None, "")]
    return None if raw in (None, "") else str(raw)


def _read(
    questions: Sequence[Question], answer: Mapping[str, Any], why: Why | None = None
) -> dict[str, Any]:
    """Each question's answer checked against its options: a value or None for a single
    choice, a list for a multiple one. ``why`` explains a value that is not an option."""

    def not_a_choice(question: Question, value: str) -> Refused:
        reason = why(question, value) if why else ""
        return Refused(
            f"{question.label}: {reason}."
            if reason
            else f"{question.label}: “{value}” is not one of the choices."
        )

    values: dict[str, Any] = {}
    for question in questions:
        allowed = {value for value, _ in question.options}
        raw = _normal(answer.get(question.name))
        if question.many:
            chosen = [raw] if isinstance(raw, str) else raw or []
            for value in chosen:
                if value not in allowed:
                    raise not_a_choice(question, value)
            if len(set(chosen)) < len(chosen):
                raise Refused(f"{question.label}: a choice is given twice.")
            if not question.min <= len(chosen) <= question.max:
                wanted = (
                    f"exactly {question.min}"
                    if question.min == question.max
                    else f"{question.min} to {question.max}"
                )
                raise Refused(f"{question.label}: choose {wanted}, not {len(chosen)}.")
            values[question.name] = chosen
        else:
            if isinstance(raw, list):
                raise Refused(f"{question.label}: choose one.")
            if raw is None and question.min:
                raise Refused(f"{question.label}: a choice is needed.")
            if raw is not None and raw not in allowed:
                raise not_a_choice(question, raw)
            values[question.name] = raw
    return values


# -- VQ-1 Catholic conversion ---------------------------------------------------------


def _catholic(world: World) -> set[str]:
    return {key for key, space in world.spaces.items() if space.religion == CATHOLIC}


def _protestant_units(world: World, key: str) -> bool:
    return any(units.power == PROTESTANT_POWER for _, units in world.units_in(key))


def _catholic_link(world: World, key: str, snapshot: set[str]) -> bool:
    """Condition b: a Catholic neighbour (land or pass), or a Catholic port on one of the
    space's sea zones; that space out of unrest and Catholic in the snapshot."""

    def base(other: str) -> bool:
        return other in snapshot and other in world.spaces and not world.spaces[other].unrest

    if any(base(other) for other in world.adjacency.get(key, ())):
        return True
    seas = world.sea_zones.get(key, set()) if world.spaces[key].port else set()
    return any(
        other != key
        and base(other)
        and world.spaces[other].port
        and seas & world.sea_zones.get(other, set())
        for other in world.sea_zones
    )


def eligible_spaces(
    world: World, zones: Iterable[str], catholic_snapshot: set[str], *, ignore_units: bool
) -> list[str]:
    """The Protestant spaces meeting conditions a and b (and c unless ``ignore_units``),
    by name; ``catholic_snapshot``: the spaces Catholic at the start of the step."""
    zones = set(zones)
    return _by_name(
        world,
        (
            key
            for key, space in world.spaces.items()
            if space.zone in zones
            and space.religion != CATHOLIC
            and _catholic_link(world, key, catholic_snapshot)
            and (ignore_units or not _protestant_units(world, key))
        ),
    )


def _why_not_flip(world: World, zones: Sequence[str], key: str, ignore_units: bool) -> str:
    space = world.spaces.get(key)
    if space is None:
        return f"there is no space “{key}”"
    if space.religion == CATHOLIC:
        return f"{space.name} is already Catholic"
    if space.zone not in zones:
        return (
            f"{space.name} is not in {_and([zone_name(z) for z in zones])}, "
            "the struggle zone of this action (condition a)"
        )
    if not _catholic_link(world, key, _catholic(world)):
        return (
            f"{space.name} is next to no Catholic space out of unrest, nor a port on a sea "
            "zone with a Catholic port, as of the start of this step (condition b)"
        )
    if not ignore_units and _protestant_units(world, key):
        return f"{space.name} holds Protestant units: only a 6 kept for step 5 may flip it"
    return ""


def conversion_refusal(world: World, power: str, zones: Sequence[str], attempts: int) -> str:
    """Why these conversion attempts cannot start, or ""."""
    if power not in world.catholic_powers:
        return f"{_cap(power_name(power))} is not a Catholic power: only they attempt conversions."
    if attempts < 1:
        return "A conversion needs at least one attempt."
    if not zones:
        return "A conversion targets at least one religious struggle zone."
    known = {space.zone for space in world.spaces.values()}
    unknown = [zone for zone in zones if zone not in known]
    if unknown:
        return f"There is no religious struggle zone “{unknown[0]}”."
    return ""


def start_conversion(
    world: World,
    power: str,
    zones: Sequence[str],
    attempts: int,
    event: str = "",
    dice: Dice | None = None,
) -> Pending | None:
    """VQ-1 steps 1 to 3: roll every attempt at once (the first die of the events of
    AUTOMATIC_SIX_EVENTS is a 6, not rolled); 2s and 3s miss; each 1 is an unrest marker.
    Then on to the first decision of ``power``, or to the end (None)."""
    refusal = conversion_refusal(world, power, zones, attempts)
    if refusal:
        raise Refused(refusal)
    automatic = event in AUTOMATIC_SIX_EVENTS
    where = _and([zone_name(zone) for zone in zones])
    purpose = f"{_cap(power_name(power))}: {plural(attempts, 'conversion attempt')} in {where}"
    count = attempts - automatic
    if count and dice is None:
        raise ValueError("dice are needed to roll the conversion attempts")
    rolled = [dice.d6(purpose) for _ in range(count)] if count else []
    faces = [6] * automatic + rolled
    tally = [
        (sum(face == 6 for face in faces), "major conversion"),
        (sum(face in (4, 5) for face in faces), "minor conversion"),
        (faces.count(1), "unrest marker"),
        (sum(face in (2, 3) for face in faces), "miss"),
    ]
    outcome = ", ".join(plural(n, noun) for n, noun in tally if n)
    summary = (
        f"{_cap(power_name(power))} rolled {_faces(faces)} for "
        f"{plural(attempts, 'conversion attempt')} in {where}"
        + (f" ({event}: the first die is a 6, not rolled)" if automatic else "")
    )
    report = (
        DiceReport(
            "VQ-1",
            purpose,
            ModifiedRoll(rolled[0]),
            "",
            outcome,
            power=power,
            extra_faces=tuple(rolled[1:]),
        )
        if rolled
        else None
    )
    world.say("VQ-1", f"{summary}: {outcome}.", roll=report, power=power)
    data = {
        "power": power,
        "zones": list(zones),
        "event": event if automatic else "",
        "faces": faces,
        "summary": summary,
        "kept": [],
        "lowered": [],
        "converted": [],
        "unrest": faces.count(1),
        "step": "sixes",
    }
    return _advance_conversion(world, data)


def _sixes(data: dict) -> list[int]:
    return [i for i, face in enumerate(data["faces"], 1) if face == 6]


def _die_label(data: dict, die: int) -> str:
    face = data["faces"][die - 1]
    if die in data["lowered"]:
        return f"Die {die} (6 lowered to 5)"
    if die in data["kept"]:
        return f"Die {die} (6 kept for step 5)"
    if die == 1 and data["event"]:
        return f"Die 1 (6: {data['event']})"
    return f"Die {die} ({face})"


def _lowerable(world: World, data: dict) -> int:
    """How many 6s may be lowered to 5 to cancel unrest markers (Decision 1)."""
    if option(world.options, "unrest_cancel") == "one_per_action":
        return min(1, data["unrest"])
    return data["unrest"]


def _ask_sixes(world: World, data: dict, waiting_for: str) -> tuple[str, list[Question]]:
    eligible = eligible_spaces(world, data["zones"], _catholic(world), ignore_units=False)
    options = [(KEEP, "Keep it for step 5 (it may flip a space with Protestant units)")]
    if _lowerable(world, data):
        options.append((LOWER, "Lower it to 5 to cancel an unrest marker"))
    options += [(key, f"Flip {_name(world, key)} now") for key in eligible]
    questions = [
        Question(f"die_{die}", _die_label(data, die), tuple(options), min=1) for die in _sixes(data)
    ]
    text = (
        f"{data['summary']}. For each 6 (step 4): keep it for step 5, where it may flip a "
        "space holding Protestant units, or flip now a space meeting all three conditions "
        "to widen the base for step 5"
        + (
            f", or lower it to 5 to cancel an unrest marker ({plural(data['unrest'], 'marker')}"
            f" taken; at most {plural(_lowerable(world, data), 'six')} lowered)"
            if _lowerable(world, data)
            else ""
        )
        + "."
    )
    return text, questions


def _take_sixes(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_sixes(world, data, waiting_for)
    values = _read(questions, answer, lambda q, v: _why_not_flip(world, data["zones"], v, False))
    dice = {int(name.removeprefix("die_")): value for name, value in values.items()}
    lowered = [die for die, value in dice.items() if value == LOWER]
    limit = _lowerable(world, data)
    if len(lowered) > limit:
        why = (
            "one per action, by campaign option"
            if option(world.options, "unrest_cancel") == "one_per_action"
            else f"one per unrest marker, and {plural(data['unrest'], 'marker')} taken"
        )
        raise Refused(
            f"At most {plural(limit, 'six')} may be lowered to cancel unrest ({why}), "
            f"not {len(lowered)}."
        )
    flips = {die: value for die, value in dice.items() if value not in (KEEP, LOWER)}
    _refuse_twice(world, flips.values())
    parts = []
    for die, value in dice.items():
        if value == LOWER:
            parts.append(f"die {die} is lowered to 5, cancelling an unrest marker (step 3)")
        elif value == KEEP:
            parts.append(f"die {die} is kept for step 5")
        else:
            world.spaces[value].religion = CATHOLIC
            data["converted"].append(value)
            parts.append(f"die {die} flips {_name(world, value)} to Catholic")
    data["kept"] = [die for die, value in dice.items() if value == KEEP]
    data["lowered"] = lowered
    data["unrest"] -= len(lowered)
    data["step"] = "flips"
    world.say("VQ-1", f"{_cap(power_name(data['power']))}'s 6s (step 4): {'; '.join(parts)}.")


def _refuse_twice(world: World, spaces: Iterable[str]) -> None:
    seen: set[str] = set()
    for key in spaces:
        if key in seen:
            raise Refused(f"{_name(world, key)} is chosen twice: a space is flipped only once.")
        seen.add(key)


def _most_flips(questions: Sequence[Question]) -> int:
    """The most spaces the dice can flip together: a maximum matching of dice to their
    eligible spaces (each space flipped once)."""
    owner: dict[str, str] = {}  # space -> the die flipping it

    def assign(question: Question, seen: set[str]) -> bool:
        for space, _ in question.options:
            if space in seen:
                continue
            seen.add(space)
            if space not in owner or assign(by_name[owner[space]], seen):
                owner[space] = question.name
                return True
        return False

    by_name = {question.name: question for question in questions}
    return sum(assign(question, set()) for question in questions)


def _flip_dice(data: dict) -> list[int]:
    """Step 5's dice: the minor conversions (4s, 5s, lowered 6s), then the kept 6s."""
    minors = [i for i, face in enumerate(data["faces"], 1) if face in (4, 5)]
    return sorted(minors + data["lowered"]) + data["kept"]


def _ask_flips(world: World, data: dict, waiting_for: str) -> tuple[str, list[Question]]:
    snapshot = _catholic(world)  # Decision 4: step-4 flips count from the start of step 5
    minor = eligible_spaces(world, data["zones"], snapshot, ignore_units=False)
    major = eligible_spaces(world, data["zones"], snapshot, ignore_units=True)
    choices = {die: major if die in data["kept"] else minor for die in _flip_dice(data)}
    choices = {die: spaces for die, spaces in choices.items() if spaces}
    questions = [  # blank only if the other dice might take every space it could flip
        Question(
            f"die_{die}",
            _die_label(data, die),
            tuple((key, _name(world, key)) for key in spaces),
            min=int(len(spaces) >= len(choices)),
        )
        for die, spaces in choices.items()
    ]
    text = (
        f"{data['summary']}. Step 5: each 4, 5 or lowered 6 flips a space meeting all three "
        "conditions; each kept 6 flips a space meeting conditions a and b (it may hold "
        "Protestant units). A die may be left blank only when no assignment of the dice "
        "could use it (Decision 5)."
    )
    return text, questions


def _take_flips(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_flips(world, data, waiting_for)
    kept = {f"die_{die}" for die in data["kept"]}
    values = _read(
        questions,
        answer,
        lambda q, v: _why_not_flip(world, data["zones"], v, q.name in kept),
    )
    chosen = {name: value for name, value in values.items() if value}
    _refuse_twice(world, chosen.values())
    for question in questions:
        if question.name not in chosen:
            left = [v for v, _ in question.options if v not in chosen.values()]
            if left:
                raise Refused(
                    f"{question.label} can still flip {_names(world, left)}: a die is "
                    "wasted only when no eligible space is left for it (Decision 5)."
                )
    most = _most_flips(questions)
    if len(chosen) < most:
        raise Refused(
            f"These dice can flip {plural(most, 'space')} together and your answer flips "
            f"{len(chosen)}: give each die a space so that none is wasted (Decision 5)."
        )
    parts = []
    for die in _flip_dice(data):
        key = chosen.get(f"die_{die}")
        if key:
            world.spaces[key].religion = CATHOLIC
            data["converted"].append(key)
            parts.append(f"die {die} flips {_name(world, key)} to Catholic")
        else:
            parts.append(f"die {die} is wasted: no eligible space is left")
    data["step"] = "unrest"
    world.say("VQ-1", f"{_cap(power_name(data['power']))}'s step 5: {'; '.join(parts)}.")


def _ask_unrest(world: World, data: dict, waiting_for: str) -> tuple[str, list[Question]]:
    count = min(data["unrest"], len(data["converted"]))
    options = tuple((key, _name(world, key)) for key in _by_name(world, data["converted"]))
    question = Question("unrest", plural(count, "unrest marker"), options, True, count, count)
    text = (
        f"{data['summary']}. Step 6: place {plural(count, 'unrest marker')} in spaces "
        f"converted by this action ({_names(world, data['converted'])}), at most one each."
    )
    return text, [question]


def _take_unrest(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_unrest(world, data, waiting_for)
    _place_unrest(world, data, _read(questions, answer)["unrest"])


def _place_unrest(world: World, data: dict, spaces: list[str]) -> None:
    for key in spaces:
        world.spaces[key].unrest = True
    discarded = data["unrest"] - len(spaces)
    text = f"Unrest in {_names(world, spaces)}" if spaces else ""
    if discarded:
        reason = "more markers than converted spaces" if spaces else "no space was converted"
        extra = f"{plural(discarded, 'unrest marker')} discarded: {reason}"
        text = f"{text}; {extra}" if text else _cap(extra)
    data["unrest"], data["step"] = 0, "done"
    world.say("VQ-1", f"{text} (step 6).", power=data["power"])


def _advance_conversion(world: World, data: dict) -> Pending | None:
    power = data["power"]
    while True:
        step = data["step"]
        if step == "sixes":
            if not _sixes(data):
                data["step"] = "flips"
                continue
            _, questions = _ask_sixes(world, data, power)
            if len(questions[0].options) > 1:
                return Pending("conversion", "sixes", power, data)
            _take_sixes(world, data, power, {q.name: KEEP for q in questions})
        elif step == "flips":
            if not _flip_dice(data):
                data["step"] = "unrest"
                continue
            _, questions = _ask_flips(world, data, power)
            if any(len(q.options) > 1 for q in questions):
                return Pending("conversion", "flips", power, data)
            forced: dict[str, str] = {}
            for question in questions:  # one option each: take it unless taken already
                value = question.options[0][0]
                forced[question.name] = "" if value in forced.values() else value
            _take_flips(world, data, power, forced)
        elif step == "unrest":
            if not data["unrest"]:
                data["step"] = "done"
            elif data["unrest"] < len(data["converted"]):
                return Pending("conversion", "unrest", power, data)
            else:
                _place_unrest(world, data, _by_name(world, data["converted"]))
        else:
            converted = data["converted"]
            world.say(
                "VQ-1",
                f"{_cap(power_name(power))}'s conversion is over: "
                + (
                    f"{_names(world, converted)} converted to Catholic."
                    if converted
                    else "no space converted."
                ),
                power=power,
            )
            return None


# -- VQ-2 Protestant revolt -----------------------------------------------------------


def revolt_refusal(world: World, target: str, cp: int) -> str:
    """Why a revolt cannot start in ``target`` for ``cp`` CP (step 1), or ""."""
    if isinstance(cp, bool) or not isinstance(cp, int) or not 2 <= cp <= 5:
        return f"A revolt costs 2 to 5 CP, not {cp}."
    space = world.spaces.get(target)
    if space is None:
        return f"There is no space “{target}”."
    if space.zone not in REVOLT_CONTROLLER:
        return f"{space.name} is in neither France nor the Netherlands, where revolts happen."
    return _why_not_revolt(world, target)


def _why_not_revolt(world: World, key: str) -> str:
    """Why ``key`` fails step 1's requirements of control, religion and siege, or ""."""
    space = world.spaces[key]
    controller = REVOLT_CONTROLLER.get(space.zone)
    if controller is None:
        return f"{space.name} is in neither France nor the Netherlands"
    if space.controller != controller:
        return (
            f"{space.name} is not under {ADJECTIVES[controller]} political control "
            f"({power_name(space.controller)} controls it)"
        )
    if space.religion != PROTESTANT:
        return f"{space.name} is Catholic, not under Protestant religious influence"
    if space.besieged:
        return f"{space.name} is under siege"
    return ""


def _defenders(world: World, key: str, controller: str) -> list[tuple[int | str, Units]]:
    """The controlling power's Catholic units in ``key`` (Decision 7: not the others')."""
    return [
        (unit_key, units)
        for unit_key, units in world.units_in(key)
        if units.power == controller and world.is_catholic_unit(units)
    ]


def start_revolt(world: World, target: str, cp: int, dice: Dice) -> Pending | None:
    """VQ-2 steps 1 and 2: check the target, then automatic success without Catholic units
    of the controlling power there, else roll a die per CP (+1 in a Protestant home space),
    5s and 6s hitting. Then on to the next decision, or to the end (None)."""
    refusal = revolt_refusal(world, target, cp)
    if refusal:
        raise Refused(refusal if refusal.endswith(".") else f"{refusal}: no revolt there.")
    space = world.spaces[target]
    controller = REVOLT_CONTROLLER[space.zone]
    world.say(
        "VQ-2",
        f"The Protestant spends {cp} CP on a revolt in {space.name} ({zone_name(space.zone)}).",
        power=PROTESTANT_POWER,
        area=target,
    )
    data = {
        "target": target,
        "cp": cp,
        "zone": space.zone,
        "controller": controller,
        "hits": 0,
        "summary": "",
        "queue": [],
        "flipped": [],
        "step": "success",
    }
    defenders = _defenders(world, target, controller)
    total = sum(units.count for _, units in defenders)
    if not total:
        world.say(
            "VQ-2",
            f"No Catholic unit of {power_name(controller)} in {space.name}: "
            "the revolt succeeds automatically (step 2).",
            area=target,
        )
        return _advance_revolt(world, data)
    purpose = f"Revolt in {space.name} ({cp} CP" + (
        ", +1 die in a Protestant home space)" if space.protestant_home else ")"
    )
    faces = [dice.d6(purpose) for _ in range(cp + space.protestant_home)]
    hits = sum(face >= 5 for face in faces)
    outcome = (
        f"{plural(hits, 'hit')} against {plural(total, 'Catholic unit')} "
        f"of {power_name(controller)}"
    )
    report = DiceReport(
        "VQ-2",
        purpose,
        ModifiedRoll(faces[0]),
        "hits on 5 or 6",
        outcome,
        power=PROTESTANT_POWER,
        area=target,
        extra_faces=tuple(faces[1:]),
    )
    world.say(
        "VQ-2", f"{purpose}: {report.text}.", roll=report, power=PROTESTANT_POWER, area=target
    )
    data["hits"] = hits
    data["summary"] = f"The Protestant rolled {_faces(faces)} against {space.name}: " + plural(
        hits, "hit"
    )
    if hits >= total:
        for unit_key, _ in defenders:
            del world.units[unit_key]
        destroyed = _and([_stack(units) for _, units in defenders])
        world.say(
            "VQ-2",
            f"{_cap(destroyed)} in {space.name} destroyed: no Catholic unit of "
            f"{power_name(controller)} is left, the revolt succeeds (step 2).",
            power=controller,
            area=target,
        )
        return _advance_revolt(world, data)
    if hits and len(defenders) > 1:
        data["step"] = "hits"
        return Pending("revolt", "hits", controller, data)
    if hits:
        _take_hits(world, data, controller, {f"unit:{defenders[0][0]}": str(hits)})
    else:
        _revolt_fails(world, data)
    return None


def _ask_hits(world: World, data: dict, waiting_for: str) -> tuple[str, list[Question]]:
    target, hits = data["target"], data["hits"]
    questions = [
        Question(
            f"unit:{unit_key}",
            f"{_cap(_stack(units))} in {_name(world, target)}",
            tuple((str(n), str(n)) for n in range(min(units.count, hits) + 1)),
            min=1,
        )
        for unit_key, units in _defenders(world, target, data["controller"])
    ]
    text = (
        f"{data['summary']}. {_cap(power_name(data['controller']))} removes "
        f"{plural(hits, 'Catholic unit')} of its own in {_name(world, target)}: how many "
        "from each stack (step 2)? Units remain, so the revolt fails."
    )
    return text, questions


def _take_hits(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_hits(world, data, waiting_for)
    values = _read(questions, answer)
    taken = sum(int(value) for value in values.values())
    if taken != data["hits"]:
        raise Refused(f"{plural(data['hits'], 'hit')} must be taken, one unit each, not {taken}.")
    stacks = dict(_defenders(world, data["target"], data["controller"]))
    removed = []
    for question in questions:
        unit_key = next(k for k in stacks if f"unit:{k}" == question.name)
        units, lost = stacks[unit_key], int(values[question.name])
        if lost:
            removed.append(_stack(Units(units.id, units.power, units.kind, units.space, lost)))
            units.count -= lost
            if not units.count:
                del world.units[unit_key]
    world.say(
        "VQ-2",
        f"{_cap(power_name(data['controller']))} removes {_and(removed)} "
        f"in {_name(world, data['target'])} (step 2).",
        power=data["controller"],
        area=data["target"],
    )
    _revolt_fails(world, data)


def _revolt_fails(world: World, data: dict) -> None:
    left = sum(units.count for _, units in _defenders(world, data["target"], data["controller"]))
    data["step"] = "failed"
    world.say(
        "VQ-2",
        f"{plural(left, 'Catholic unit')} of {power_name(data['controller'])} "
        f"{'remains' if left == 1 else 'remain'} in {_name(world, data['target'])}: "
        "the revolt fails (step 2).",
        area=data["target"],
    )


def nearest_legal_spaces(world: World, power: str, origin: str) -> list[str]:
    """12.5: the nearest spaces (by adjacency) that ``power`` controls and that are
    fortified or its capital, by name; every one at the shortest distance, and its
    capital wherever it is (the seed: "the nearest fortified space under French control
    or Paris, the French capital")."""
    nearest = _nearest_fortified(world, power, origin)
    capitals = [
        key
        for key, space in world.spaces.items()
        if space.capital_of == power and space.controller == power and key != origin
    ]
    return _by_name(world, set(nearest) | set(capitals))


def _nearest_fortified(world: World, power: str, origin: str) -> list[str]:
    """The spaces ``power`` controls that are fortified or one of its capitals (the
    Protestant's by zone), at the shortest distance from ``origin``."""
    protestant_capitals = set(world.capitals.values()) if power == PROTESTANT_POWER else set()

    def legal(key: str) -> bool:
        space = world.spaces[key]
        return space.controller == power and (
            space.fortified or space.capital_of == power or key in protestant_capitals
        )

    seen, frontier = {origin}, {origin}
    while frontier:
        frontier = {
            other
            for key in frontier
            for other in world.adjacency.get(key, ())
            if other not in seen and other in world.spaces
        }
        seen |= frontier
        found = [key for key in frontier if legal(key)]
        if found:
            return _by_name(world, found)
    return []


def _displaced(world: World, spaces: Iterable[str]) -> list[list]:
    """[kind, key, origin] for every unit stack and leader there not the Protestant's."""
    queue: list[list] = []
    for key in spaces:
        queue += [["unit", k, key] for k, u in world.units_in(key) if u.power != PROTESTANT_POWER]
        queue += [
            ["leader", k, key]
            for k, lead in world.leaders_in(key)
            if lead.power != PROTESTANT_POWER
        ]
    return queue


def _piece(world: World, item: list) -> Units | Leader | None:
    """The unit stack or leader of a queue item, if it is still where it was."""
    kind, key, origin = item
    piece = (world.units if kind == "unit" else world.leaders).get(key)
    return piece if piece is not None and piece.space == origin else None


def _piece_text(piece: Units | Leader) -> str:
    return _stack(piece) if isinstance(piece, Units) else piece.name


def _move(world: World, item: list, destination: str | None, step: int, how: str = "") -> None:
    """Displace a queue item to ``destination``; None eliminates a stack or takes a leader
    off the map. A stack joins its power's stack of the same kind there."""
    key, origin = item[1], item[2]
    piece = _piece(world, item)
    text = f"{_cap(_piece_text(piece))} in {_name(world, origin)}"
    if destination is None:
        gone = "eliminated" if isinstance(piece, Units) else "taken off the map"
        if isinstance(piece, Units):
            del world.units[key]
        else:
            piece.space = None
        text += f": no fortified space or capital of {power_name(piece.power)} to go to, {gone}"
    else:
        stack = None
        if isinstance(piece, Units):
            stack = next(
                (
                    other
                    for other_key, other in world.units_in(destination)
                    if (other.power, other.kind) == (piece.power, piece.kind) and other_key != key
                ),
                None,
            )
        if stack is not None:
            stack.count += piece.count
            del world.units[key]
        else:
            piece.space = destination
        text += f" displaced to {_name(world, destination)}{how}"
    world.say("VQ-2", f"{text} (step {step}).", power=piece.power, area=origin)


def _displace_step(data: dict) -> int:
    return 3 if data["step"] == "displace_target" else 4


def _resolve_displacements(world: World, data: dict) -> str | None:
    """Move every queued piece whose destination is not a choice (Decision 2); the owner
    of the first piece left to choose for, or None when the queue is done."""
    automatic = option(world.options, "displacement") == "automatic"
    left = []
    for item in data["queue"]:
        piece = _piece(world, item)
        if piece is None:
            continue
        options = nearest_legal_spaces(world, piece.power, item[2])
        if not options:
            _move(world, item, None, _displace_step(data))
        elif len(options) == 1:
            _move(world, item, options[0], _displace_step(data))
        elif automatic:
            nearest = _nearest_fortified(world, piece.power, item[2]) or options
            _move(world, item, nearest[0], _displace_step(data), " (the nearest, first by name)")
        else:
            left.append(item)
    data["queue"] = left
    return _piece(world, left[0]).power if left else None


def _ask_displace(world: World, data: dict, waiting_for: str) -> tuple[str, list[Question]]:
    questions = []
    for item in data["queue"]:
        piece = _piece(world, item)
        if piece is None or piece.power != waiting_for:
            continue
        options = nearest_legal_spaces(world, piece.power, item[2])
        questions.append(
            Question(
                f"{item[0]}:{item[1]}",
                f"{_cap(_piece_text(piece))} in {_name(world, item[2])}",
                tuple((key, _name(world, key)) for key in options),
                min=1,
            )
        )
    text = (
        f"The revolt in {_name(world, data['target'])} displaces "
        f"{power_name(waiting_for)}'s units and leaders (step {_displace_step(data)}, "
        "12.5): choose where each goes among the nearest fortified spaces it controls "
        "or its capital."
    )
    return text, questions


def _take_displace(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_displace(world, data, waiting_for)
    values = _read(
        questions,
        answer,
        lambda q, v: (
            f"{_name(world, v)} is not among the nearest legal spaces "
            f"({_names(world, [key for key, _ in q.options])})"
        ),
    )
    for item in list(data["queue"]):
        destination = values.get(f"{item[0]}:{item[1]}")
        if destination:
            _move(world, item, destination, _displace_step(data))
            data["queue"].remove(item)


def _extra_candidates(world: World, data: dict) -> list[str]:
    """Step 4 (Decision 6): spaces adjacent to the target, in its zone, meeting step 1's
    requirements and free of Catholic units."""
    return _by_name(
        world,
        (
            key
            for key in world.adjacency.get(data["target"], ())
            if key in world.spaces and not _why_not_extra(world, data, key)
        ),
    )


def _why_not_extra(world: World, data: dict, key: str) -> str:
    space = world.spaces.get(key)
    target = _name(world, data["target"])
    if space is None:
        return f"there is no space “{key}”"
    if key == data["target"] or key not in world.adjacency.get(data["target"], ()):
        return f"{space.name} is not adjacent to {target}, the target (Decision 6)"
    if space.zone != data["zone"]:
        return f"{space.name} is not in {zone_name(data['zone'])}"
    if any(world.is_catholic_unit(units) for _, units in world.units_in(key)):
        return f"{space.name} holds Catholic units"
    return _why_not_revolt(world, key)


def _ask_extra(world: World, data: dict, waiting_for: str) -> tuple[str, list[Question]]:
    candidates = _extra_candidates(world, data)
    target, cp = _name(world, data["target"]), data["cp"]
    most = min(cp - 1, len(candidates))
    question = Question(
        "extra",
        f"Spaces adjacent to {target} also under Protestant control (at most {cp - 1})",
        tuple((key, _name(world, key)) for key in candidates),
        many=True,
        max=most,
    )
    text = (
        f"{target} comes under Protestant control. Step 4: choose up to "
        f"{plural(most, 'more space')} adjacent to {target} in {zone_name(data['zone'])}, "
        "Protestant, under "
        f"{ADJECTIVES[data['controller']]} control, not besieged and free of Catholic units "
        f"({cp} CP: at most {cp} spaces, {target} included). Units there that the Protestant "
        "does not control are displaced."
    )
    return text, [question]


def _take_extra(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_extra(world, data, waiting_for)
    asked = _normal(answer.get("extra")) or []
    if len([asked] if isinstance(asked, str) else asked) > data["cp"] - 1:
        raise Refused(
            f"{data['cp']} CP put at most {data['cp']} spaces under Protestant control, "
            f"{_name(world, data['target'])} included: at most {data['cp'] - 1} more."
        )
    chosen = _read(questions, answer, lambda q, v: _why_not_extra(world, data, v))["extra"]
    for key in chosen:
        world.spaces[key].controller = PROTESTANT_POWER
    data["flipped"] += chosen
    world.say(
        "VQ-2",
        f"{_names(world, chosen)} also {'comes' if len(chosen) == 1 else 'come'} under "
        f"Protestant control (step 4: {len(chosen) + 1} of at most {data['cp']} spaces)."
        if chosen
        else "The Protestant takes no other space (step 4).",
        power=PROTESTANT_POWER,
    )
    data["queue"], data["step"] = _displaced(world, chosen), "displace_extra"


def _capital_candidates(world: World, data: dict) -> list[str]:
    return _by_name(
        world,
        (
            key
            for key, space in world.spaces.items()
            if space.zone == data["zone"]
            and space.controller == PROTESTANT_POWER
            and space.fortified
            and space.protestant_home
        ),
    )


def _ask_capital(world: World, data: dict, waiting_for: str) -> tuple[str, list[Question]]:
    nation = PROTESTANT_NATION[data["zone"]]
    options = tuple((key, _name(world, key)) for key in _capital_candidates(world, data))
    text = (
        f"The Protestant has no {nation} capital (step 7): it may place one in a fortified "
        f"Protestant home space it controls in {zone_name(data['zone'])}, or leave it blank."
    )
    return text, [Question("capital", f"{nation} capital", options)]


def _take_capital(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_capital(world, data, waiting_for)
    key = _read(questions, answer)["capital"]
    nation = PROTESTANT_NATION[data["zone"]]
    if key:
        world.capitals[data["zone"]] = key
        text = f"The {nation} capital is placed in {_name(world, key)} (step 7)."
    else:
        text = f"The Protestant places no {nation} capital (step 7)."
    world.say("VQ-2", text, power=PROTESTANT_POWER, area=key)
    data["step"] = "leader"


def _leader_candidates(world: World, data: dict) -> list[tuple[int | str, Leader]]:
    return [
        (key, leader)
        for key, leader in world.leaders.items()
        if leader.power == PROTESTANT_POWER
        and leader.kind == MILITARY
        and leader.zone == data["zone"]
        and leader.can_enter
        and leader.space is None
    ]


def _ask_leader(world: World, data: dict, waiting_for: str) -> tuple[str, list[Question]]:
    target = _name(world, data["target"])
    options = tuple((str(key), leader.name) for key, leader in _leader_candidates(world, data))
    text = (
        f"Step 8: a {PROTESTANT_NATION[data['zone']]} military leader may enter play in "
        f"{target}; choose one, or leave it blank."
    )
    return text, [Question("leader", f"Leader to place in {target}", options)]


def _take_leader(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_leader(world, data, waiting_for)
    value = _read(questions, answer)["leader"]
    target = data["target"]
    if value:
        leader = next(lead for key, lead in _leader_candidates(world, data) if str(key) == value)
        leader.space = target
        text = f"{leader.name} enters play in {_name(world, target)} (step 8)."
    else:
        text = "The Protestant places no leader (step 8)."
    world.say("VQ-2", text, power=PROTESTANT_POWER, area=target)
    data["step"] = "done"


def _regulars(world: World, data: dict) -> None:
    """Steps 5 and 6: the new regulars and the war."""
    target, zone, nation = data["target"], data["zone"], PROTESTANT_NATION[data["zone"]]
    wanted, left = data["cp"] // 2, world.counter_mix.get(zone, 0)
    placed = min(wanted, left)
    if placed:
        key = next(
            (
                k
                for k, units in world.units_in(target)
                if (units.power, units.kind) == (PROTESTANT_POWER, REGULAR)
            ),
            None,
        )
        if key is None:
            key = f"new:{target}:{PROTESTANT_POWER}:{REGULAR}"
            world.units[key] = Units(None, PROTESTANT_POWER, REGULAR, target, 0)
        world.units[key].count += placed
        world.counter_mix[zone] = left - placed
    text = f"{plural(placed, f'{nation} regular')} placed in {_name(world, target)}"
    if placed < wanted:
        text += f", not {wanted}: the counter mix has no more"
    world.say(
        "VQ-2",
        f"{_cap(text)} (step 5: 1 per 2 full CP; {world.counter_mix.get(zone, 0)} left).",
        power=PROTESTANT_POWER,
        area=target,
    )
    enemy = data["controller"]
    if world.at_war(PROTESTANT_POWER, enemy):
        text = f"The Protestant and {power_name(enemy)} are already at war (step 6)."
    else:
        world.wars.add(frozenset((PROTESTANT_POWER, enemy)))
        text = f"The Protestant and {power_name(enemy)} are now at war (step 6)."
    world.say("VQ-2", text, power=PROTESTANT_POWER)


def _advance_revolt(world: World, data: dict) -> Pending | None:
    target, zone = data["target"], data["zone"]
    nation = PROTESTANT_NATION[zone]
    while True:
        step = data["step"]
        if step == "success":
            data["queue"], data["step"] = _displaced(world, [target]), "displace_target"
        elif step in ("displace_target", "displace_extra"):
            owner = _resolve_displacements(world, data)
            if owner is not None:
                return Pending("revolt", "displace", owner, data)
            data["step"] = "control" if step == "displace_target" else "regulars"
        elif step == "control":
            world.spaces[target].controller = PROTESTANT_POWER
            data["flipped"] = [target]
            world.say(
                "VQ-2",
                f"{_name(world, target)} comes under Protestant control (step 4).",
                power=PROTESTANT_POWER,
                area=target,
            )
            data["step"] = "extra"
        elif step == "extra":
            if data["cp"] > 1 and _extra_candidates(world, data):
                return Pending("revolt", "extra", PROTESTANT_POWER, data)
            world.say(
                "VQ-2",
                f"No space adjacent to {_name(world, target)} can also come under "
                "Protestant control (step 4).",
            )
            data["step"] = "regulars"
        elif step == "regulars":
            _regulars(world, data)
            data["step"] = "capital"
        elif step == "capital":
            capital = world.capitals.get(zone)
            data["step"] = "leader"
            if capital == TURN_TRACK:
                text = f"The {nation} capital is on the turn track after a capture this turn"
            elif capital:
                text = f"The {nation} capital is already in {_name(world, capital)}"
            elif _capital_candidates(world, data):
                data["step"] = "capital"
                return Pending("revolt", "capital", PROTESTANT_POWER, data)
            else:
                text = f"No fortified Protestant home space it controls can hold a {nation} capital"
            world.say("VQ-2", f"{text}: no capital placed (step 7).")
        elif step == "leader":
            if _leader_candidates(world, data):
                return Pending("revolt", "leader", PROTESTANT_POWER, data)
            world.say("VQ-2", f"No {nation} military leader can enter play (step 8).")
            data["step"] = "done"
        elif step == "failed":
            return None
        else:
            world.say(
                "VQ-2",
                f"The revolt in {_name(world, target)} is over: the Protestant now controls "
                f"{_names(world, data['flipped'])}.",
                power=PROTESTANT_POWER,
                area=target,
            )
            return None


# -- the interactive engine -----------------------------------------------------------

Ask = Callable[[World, dict, str], tuple[str, list[Question]]]
Take = Callable[[World, dict, str, Mapping[str, Any]], None]
STAGES: dict[tuple[str, str], tuple[Ask, Take]] = {
    ("conversion", "sixes"): (_ask_sixes, _take_sixes),
    ("conversion", "flips"): (_ask_flips, _take_flips),
    ("conversion", "unrest"): (_ask_unrest, _take_unrest),
    ("revolt", "hits"): (_ask_hits, _take_hits),
    ("revolt", "displace"): (_ask_displace, _take_displace),
    ("revolt", "extra"): (_ask_extra, _take_extra),
    ("revolt", "capital"): (_ask_capital, _take_capital),
    ("revolt", "leader"): (_ask_leader, _take_leader),
}
RULES = {"conversion": "VQ-1", "revolt": "VQ-2"}


def _stage(pending: Pending) -> tuple[Ask, Take]:
    stage = STAGES.get((pending.kind, pending.stage))
    if stage is None:
        raise Refused(f"There is no {pending.kind} stage “{pending.stage}”.")
    return stage


def prompt(world: World, pending: Pending) -> Prompt:
    """What ``pending.waiting_for`` must answer now, with only the legal choices."""
    ask, _ = _stage(pending)
    text, questions = ask(world, pending.data, pending.waiting_for)
    highlight = _by_name(
        world,
        {value for q in questions for value, _ in q.options if value in world.spaces},
    )
    return Prompt(
        pending.kind,
        pending.stage,
        pending.waiting_for,
        RULES[pending.kind],
        text,
        tuple(questions),
        tuple(highlight),
    )


def decide(
    world: World,
    pending: Pending,
    power: str,
    answer: Mapping[str, str | list[str]],
    *,
    as_gm: bool = False,
) -> Pending | None:
    """Apply ``power``'s answer (the GM may answer for any power) and run on to the next
    decision, or to the end (None). Refused, changing nothing, for the wrong power or an
    illegal answer."""
    if not as_gm and power != pending.waiting_for:
        raise Refused(
            f"This {pending.kind} waits for {power_name(pending.waiting_for)}, "
            f"not {power_name(power)}."
        )
    _, take = _stage(pending)
    data = copy.deepcopy(pending.data)
    take(world, data, pending.waiting_for, answer)
    advance = _advance_conversion if pending.kind == "conversion" else _advance_revolt
    return advance(world, data)


# -- VQ-3 espionage -------------------------------------------------------------------

ESPIONAGE_TURN = 3


def espionage_refusal(turn: int) -> str:
    """Why no espionage action may be taken on ``turn``, or "" from turn 3."""
    if turn >= ESPIONAGE_TURN:
        return ""
    return f"No espionage on turn {turn}: espionage actions begin on turn {ESPIONAGE_TURN}."


def espionage_markers(world: World) -> None:
    """At the start of turn 3 (call once, when the turn begins): each power (every key of
    ``world.markers``) receives 2 Informant, 1 Assassination Used and 1 Cipher Key
    markers, added to any it holds."""
    if world.turn != ESPIONAGE_TURN or not world.markers:
        return
    for markers in world.markers.values():
        markers.informant += 2
        markers.assassination_used += 1
        markers.cipher_key += 1
    world.say(
        "VQ-3",
        f"Turn {ESPIONAGE_TURN}: espionage begins. Each power receives 2 Informant markers, "
        "1 Assassination Used marker and 1 Cipher Key marker.",
    )
