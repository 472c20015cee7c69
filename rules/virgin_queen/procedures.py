"""The Virgin Queen procedures VQ-1 (Catholic conversion), VQ-2 (Protestant revolt) and
VQ-3 (espionage markers), as an engine that waits for the players' decisions.

``start_conversion`` and ``start_revolt`` roll the dice and run every step that needs
nobody's decision; they answer a ``Progress``: what the procedure has done so far (a
``Conversion`` or a ``Revolt``) and, when a power must decide, the ``Pending`` it waits on
(plain JSON data, stored between requests). ``prompt`` says what that power is asked,
offering only the legal choices, and ``decide`` applies its answer and runs on to the next
decision, or to the end (no Pending). A refused start or answer raises ``Refused`` and
changes nothing; a form asks the same ``check_*`` function beforehand why not
(``reason_for``). Every step writes a log line naming its rule, as a GM's e-mail would. Log
lines, questions, choices and refusals are rules.text Texts: English, and what other
languages need.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.dice import Dice
from rules.modifiers import ModifiedRoll, RollReport, faces_text
from rules.refusals import Refused, reason_for
from rules.text import CLAUSES, Join, Plural, Text
from rules.virgin_queen.state import (
    ADJECTIVES,
    AUTOMATIC_SIX_EVENTS,
    CATHOLIC,
    MERCENARY,
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
    power_subject,
    power_title,
    zone_name,
)

KEEP, LOWER = "keep", "lower"
STACKS: dict[str, Callable[[int, str], Text]] = {
    REGULAR: lambda count, power: Plural(
        "%(count)s %(power)s regular", "%(count)s %(power)s regulars", count=count, power=power
    ),
    MERCENARY: lambda count, power: Plural(
        "%(count)s %(power)s mercenary",
        "%(count)s %(power)s mercenaries",
        count=count,
        power=power,
    ),
    NAVAL: lambda count, power: Plural(
        "%(count)s %(power)s naval unit",
        "%(count)s %(power)s naval units",
        count=count,
        power=power,
    ),
}
# VQ-1 steps 2 to 5: what each face of a conversion die gives.
CONVERSION_FACES: dict[str, tuple[int, ...]] = {
    "major": (6,),
    "minor": (4, 5),
    "unrest": (1,),
    "miss": (2, 3),
}
REVOLT_HIT_FACES = (5, 6)  # VQ-2 step 2
TALLY: dict[str, Callable[[int], Text]] = {
    "major": lambda n: Plural("%(count)s major conversion", "%(count)s major conversions", count=n),
    "minor": lambda n: Plural("%(count)s minor conversion", "%(count)s minor conversions", count=n),
    "unrest": lambda n: Plural("%(count)s unrest marker", "%(count)s unrest markers", count=n),
    "miss": lambda n: Plural("%(count)s miss", "%(count)s misses", count=n),
}


@dataclass(frozen=True)
class Question:
    """One form field: one option (``many`` False; ``min`` 0 allows a blank answer), or
    between ``min`` and ``max`` of them (``many`` True). Options are (value, label)."""

    name: str
    label: Text
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
    text: Text
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
class Conversion:
    """VQ-1 so far: ``power``'s dice (an event's automatic 6 first), the spaces converted
    to Catholic and those given an unrest marker in step 6."""

    power: str
    faces: tuple[int, ...]
    converted: tuple[str, ...]
    unrest: tuple[str, ...]
    lowered: tuple[int, ...] = ()  # dice (from 1) whose 6 was lowered to 5 to cancel unrest
    discarded: int = 0  # unrest markers discarded in step 6, for want of converted spaces


@dataclass(frozen=True)
class Revolt:
    """VQ-2 so far: the target, the CP spent, the dice and their hits, whether step 2
    succeeded, and the spaces come under Protestant control; then what steps 2 to 8 did."""

    target: str
    cp: int
    faces: tuple[int, ...]
    hits: int
    succeeded: bool
    controlled: tuple[str, ...]
    removed: int = 0  # the controlling power's Catholic units removed in step 2
    # Steps 3 and 4: each displaced piece ("unit:<key>", "leader:<key>") and where it went
    # ("": eliminated, or a leader taken off the map), in order.
    displaced: tuple[tuple[str, str], ...] = ()
    regulars: int = 0  # Protestant regulars placed in the target (step 5)
    nation: str = ""  # whose regulars and capital: "Huguenot" or "Dutch"; "" before step 5
    war_declared: bool = False  # step 6 put the Protestant at war (False: already at war)
    capital: str = ""  # the space where step 7 placed the nation's capital; "": none
    leader: str = ""  # the key of the military leader that entered play in step 8; "": none


@dataclass(frozen=True)
class Progress:
    """What a procedure has done so far, and the decision it waits on (None: it is over)."""

    outcome: Conversion | Revolt
    pending: Pending | None


@dataclass(frozen=True)
class Espionage:
    """VQ-3: an espionage action ``power`` played at the table (``note``: what)."""

    power: str
    note: str


@dataclass(frozen=True)
class DiceReport(RollReport):
    """Several dice rolled together: ``roll.face`` is the first, ``extra_faces`` the rest
    (``faces``: all of them)."""

    @property
    def text(self) -> Text:
        """ "dice 1 2 5, hits on 5–6: 1 hit"."""
        faces = _faces(self.faces)
        if self.comparison:
            return Text(
                "%(faces)s, %(comparison)s: %(outcome)s",
                faces=faces,
                comparison=self.comparison,
                outcome=self.outcome,
            )
        return Text("%(faces)s: %(outcome)s", faces=faces, outcome=self.outcome)


# -- wording --------------------------------------------------------------------------


def _and(items: Sequence[str]) -> str:
    """ "Lyon", "Lyon and Dijon", "Lyon, Dijon and Clermont"."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Text("%(first)s and %(last)s", first=Join(*items[:-1], sep=", "), last=items[-1])


def _name(world: World, key: str) -> str:
    space = world.spaces.get(key)
    return space.name if space else key


def _names(world: World, keys: Iterable[str]) -> str:
    return _and([_name(world, key) for key in keys])


def _by_name(world: World, keys: Iterable[str]) -> list[str]:
    return sorted(keys, key=lambda key: (_name(world, key), key))


def stack_text(units: Units) -> Text:
    """A unit stack as VQ-2's lines name it: "2 French mercenaries"."""
    adjective = ADJECTIVES.get(units.power, units.power.title())
    return STACKS[units.kind](units.count, adjective)


def _faces(faces: Iterable[int]) -> Text:
    """ "dice 1 2 5", "die 6": the faces labelled, as every roll line shows them."""
    return faces_text(list(faces))


# -- answers --------------------------------------------------------------------------

Check = Callable[[Question, str], None]


def _normal(raw: Any) -> str | list[str] | None:
    if isinstance(raw, list | tuple):
        return [str(item) for item in raw if item not in (None, "")]
    return None if raw in (None, "") else str(raw)


def _read(
    questions: Sequence[Question], answer: Mapping[str, Any], check: Check | None = None
) -> dict[str, Any]:
    """Each question's answer checked against its options: a value or None for a single
    choice, a list for a multiple one. ``check`` refuses a value that is not an option,
    saying why."""

    def not_a_choice(question: Question, value: str) -> Refused:
        reason = reason_for(check, question, value) if check else None
        if reason is not None:
            return Refused(
                Text("%(question)s: %(reason)s.", question=question.label, reason=reason)
            )
        return Refused(
            Text(
                "%(question)s: “%(value)s” is not one of the choices.",
                question=question.label,
                value=value,
            )
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
                raise Refused(
                    Text("%(question)s: a choice is given twice.", question=question.label)
                )
            if not question.min <= len(chosen) <= question.max:
                raise Refused(_wrong_count(question, len(chosen)))
            values[question.name] = chosen
        else:
            if isinstance(raw, list):
                raise Refused(Text("%(question)s: choose one.", question=question.label))
            if raw is None and question.min:
                raise Refused(Text("%(question)s: a choice is needed.", question=question.label))
            if raw is not None and raw not in allowed:
                raise not_a_choice(question, raw)
            values[question.name] = raw
    return values


def _wrong_count(question: Question, chosen: int) -> Text:
    if question.min == question.max:
        return Text(
            "%(question)s: choose exactly %(count)s, not %(chosen)s.",
            question=question.label,
            count=question.min,
            chosen=chosen,
        )
    return Text(
        "%(question)s: choose %(min)s to %(max)s, not %(chosen)s.",
        question=question.label,
        min=question.min,
        max=question.max,
        chosen=chosen,
    )


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
    """VQ-1: the Protestant spaces meeting conditions a and b (and c unless
    ``ignore_units``), by name; ``catholic_snapshot``: the spaces Catholic at the start of
    the step."""
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


def _check_flip(world: World, zones: Sequence[str], key: str, ignore_units: bool) -> None:
    """VQ-1: Refused with why a die may not flip ``key`` (conditions a, b and c)."""
    space = world.spaces.get(key)
    if space is None:
        raise Refused(Text("there is no space “%(space)s”", space=key))
    if space.religion == CATHOLIC:
        raise Refused(Text("%(space)s is already Catholic", space=space.name))
    if space.zone not in zones:
        raise Refused(
            Text(
                "%(space)s is not in %(zones)s, the struggle zone of this action (condition a)",
                space=space.name,
                zones=_zones(zones),
            )
        )
    if not _catholic_link(world, key, _catholic(world)):
        raise Refused(
            Text(
                "%(space)s is next to no Catholic space out of unrest, nor a port on a sea "
                "zone with a Catholic port, as of the start of this step (condition b)",
                space=space.name,
            )
        )
    if not ignore_units and _protestant_units(world, key):
        raise Refused(
            Text(
                "%(space)s holds Protestant units: only a 6 kept for step 5 may flip it",
                space=space.name,
            )
        )


def _zones(zones: Iterable[str]) -> str:
    return _and([zone_name(zone) for zone in zones])


def check_conversion(world: World, power: str, zones: Sequence[str], attempts: int) -> None:
    """VQ-1: Refused with why these conversion attempts cannot start."""
    if power not in world.catholic_powers:
        raise Refused(
            Text(
                "%(power)s is not a Catholic power: only they attempt conversions.",
                power=power_subject(power),
            )
        )
    if attempts < 1:
        raise Refused(Text("A conversion needs at least one attempt."))
    if not zones:
        raise Refused(Text("A conversion targets at least one religious struggle zone."))
    known = {space.zone for space in world.spaces.values()}
    unknown = [zone for zone in zones if zone not in known]
    if unknown:
        raise Refused(Text("There is no religious struggle zone “%(zone)s”.", zone=unknown[0]))


def start_conversion(
    world: World,
    power: str,
    zones: Sequence[str],
    attempts: int,
    event: str = "",
    dice: Dice | None = None,
) -> Progress:
    """VQ-1 steps 1 to 3: roll every attempt at once (the first die of the events of
    AUTOMATIC_SIX_EVENTS is a 6, not rolled); 2s and 3s miss; each 1 is an unrest marker.
    Then on to the first decision of ``power``, or to the end. Refused, changing nothing,
    when ``check_conversion`` refuses."""
    check_conversion(world, power, zones, attempts)
    automatic = event in AUTOMATIC_SIX_EVENTS
    purpose = Plural(
        "%(power)s: %(count)s conversion attempt in %(zones)s",
        "%(power)s: %(count)s conversion attempts in %(zones)s",
        count=attempts,
        power=power_subject(power),
        zones=_zones(zones),
    )
    count = attempts - automatic
    if count and dice is None:
        raise ValueError("dice are needed to roll the conversion attempts")
    rolled = [dice.d6(purpose) for _ in range(count)] if dice is not None else []
    faces = [6] * automatic + rolled
    outcome = _tally(faces)
    needs = conversion_needs()
    data = {
        "power": power,
        "zones": list(zones),
        "event": event if automatic else "",
        "faces": faces,
        "kept": [],
        "lowered": [],
        "converted": [],
        "unrest": [conversion_result(face) for face in faces].count("unrest"),
        "step": "sixes",
    }
    summary = _conversion_summary(data)
    data["summary"] = str(summary)
    report = (
        DiceReport(
            "VQ-1",
            purpose,
            ModifiedRoll(rolled[0]),
            needs,
            outcome,
            power=power,
            extra_faces=tuple(rolled[1:]),
        )
        if rolled
        else None
    )
    world.say(
        "VQ-1",
        Text(
            "%(summary)s (%(needs)s): %(outcome)s.", summary=summary, needs=needs, outcome=outcome
        ),
        roll=report,
        power=power,
    )
    return _progress(world, "conversion", data)


def conversion_result(face: int) -> str:
    """What a conversion die gives (VQ-1 steps 2 to 5): a key of CONVERSION_FACES."""
    return next(what for what, faces in CONVERSION_FACES.items() if face in faces)


def _tally(faces: Sequence[int]) -> Text:
    """ "1 major conversion (6), 2 misses (2 3)": each result with the faces that
    read it off the table (CONVERSION_FACES), in the order rolled."""
    parts = []
    for what in CONVERSION_FACES:
        found = [face for face in faces if conversion_result(face) == what]
        if found:
            # Translators: a result of conversion dice and the faces that gave it, "2
            # misses (2 3)" (the roll names its dice before: "France rolled dice 2 3 …").
            read = Text(
                "%(result)s (%(faces)s)",
                result=TALLY[what](len(found)),
                faces=Join(*found, sep=" "),
            )
            parts.append(read)
    return Join(*parts, sep=", ")


def _face_range(faces: Sequence[int]) -> str:
    """ "6", "4–5": consecutive faces, as their range."""
    return str(faces[0]) if len(faces) == 1 else f"{faces[0]}–{faces[-1]}"


def conversion_needs() -> Text:
    """What each result of a VQ-1 conversion die needs, from CONVERSION_FACES: "a major
    conversion on 6, a minor one on 4–5, an unrest marker on 1, a miss on 2–3"."""
    return Text(
        "a major conversion on %(major)s, a minor one on %(minor)s, an unrest marker on "
        "%(unrest)s, a miss on %(miss)s",
        **{what: _face_range(faces) for what, faces in CONVERSION_FACES.items()},
    )


def _conversion_summary(data: dict) -> Text:
    """ "France rolled dice 6 4 1 for 3 conversion attempts in France" (and the event's
    6)."""
    params: dict[str, Any] = {
        "count": len(data["faces"]),
        "power": power_subject(data["power"]),
        "faces": _faces(data["faces"]),
        "zones": _zones(data["zones"]),
    }
    if data["event"]:
        return Plural(
            "%(power)s rolled %(faces)s for %(count)s conversion attempt in %(zones)s "
            "(%(event)s: the first die is a 6, not rolled)",
            "%(power)s rolled %(faces)s for %(count)s conversion attempts in %(zones)s "
            "(%(event)s: the first die is a 6, not rolled)",
            event=AUTOMATIC_SIX_EVENTS[data["event"]],
            **params,
        )
    return Plural(
        "%(power)s rolled %(faces)s for %(count)s conversion attempt in %(zones)s",
        "%(power)s rolled %(faces)s for %(count)s conversion attempts in %(zones)s",
        **params,
    )


def _sixes(data: dict) -> list[int]:
    return [i for i, face in enumerate(data["faces"], 1) if conversion_result(face) == "major"]


def _die_label(data: dict, die: int) -> Text:
    face = data["faces"][die - 1]
    if die in data["lowered"]:
        return Text("Die %(die)s (6 lowered to 5)", die=die)
    if die in data["kept"]:
        return Text("Die %(die)s (6 kept for step 5)", die=die)
    if die == 1 and data["event"]:
        return Text("Die 1 (6: %(event)s)", event=AUTOMATIC_SIX_EVENTS[data["event"]])
    return Text("Die %(die)s (%(face)s)", die=die, face=face)


def _lowerable(world: World, data: dict) -> int:
    """How many 6s may be lowered to 5 to cancel unrest markers (Decision 1)."""
    if option(world.options, "unrest_cancel") == "one_per_action":
        return min(1, data["unrest"])
    return data["unrest"]


def _ask_sixes(world: World, data: dict, waiting_for: str) -> tuple[Text, list[Question]]:
    eligible = eligible_spaces(world, data["zones"], _catholic(world), ignore_units=False)
    options = [(KEEP, Text("Keep it for step 5 (it may flip a space with Protestant units)"))]
    if _lowerable(world, data):
        options.append((LOWER, Text("Lower it to 5 to cancel an unrest marker")))
    options += [(key, Text("Flip %(space)s now", space=_name(world, key))) for key in eligible]
    questions = [
        Question(f"die_{die}", _die_label(data, die), tuple(options), min=1) for die in _sixes(data)
    ]
    text = Text(
        "%(summary)s. Step 4: each 6 is a major conversion. Keep it for step 5, where it flips "
        "a space meeting conditions a and b, even one holding Protestant units; or flip now a "
        "space meeting all three conditions, which can then be the Catholic neighbour of a "
        "space flipped in step 5.",
        summary=_conversion_summary(data),
    )
    if _lowerable(world, data):
        text = Join(text, _lowering(world, data), sep=" ")
    return Join(text, _conditions(data["zones"]), sep=" "), questions


def _lowering(world: World, data: dict) -> Text:
    """The step-3 choice of lowering 6s, as the step-4 prompt states it."""
    return Text(
        "Or lower it to 5 to cancel an unrest marker (step 3: %(markers)s taken, at most "
        "%(sixes)s lowered): in step 5 it then flips a space meeting all three conditions, as "
        "a minor conversion does.",
        markers=_markers(data["unrest"]),
        sixes=_sixes_text(_lowerable(world, data)),
    )


def _conditions(zones: Sequence[str]) -> Text:
    """The three conditions for flipping a space to Catholic (VQ-1), for these zones."""
    return Text(
        "The conditions: (a) the space is in %(zones)s; (b) it is adjacent, by land or pass, "
        "to a Catholic space, or it is a port on a sea zone with another Catholic port, and "
        "that space is not in unrest and was Catholic at the start of this step; (c) it holds "
        "no Protestant units.",
        zones=_zones(zones),
    )


def _markers(count: int) -> Text:
    return Plural("%(count)s marker", "%(count)s markers", count=count)


def _sixes_text(count: int) -> Text:
    return Plural("%(count)s six", "%(count)s sixes", count=count)


def _take_sixes(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_sixes(world, data, waiting_for)
    values = _read(questions, answer, lambda q, v: _check_flip(world, data["zones"], v, False))
    dice = {int(name.removeprefix("die_")): value for name, value in values.items()}
    lowered = [die for die, value in dice.items() if value == LOWER]
    limit = _lowerable(world, data)
    if len(lowered) > limit:
        raise Refused(_too_many_lowered(world, data, limit, len(lowered)))
    flips = {die: value for die, value in dice.items() if value not in (KEEP, LOWER)}
    _refuse_twice(world, flips.values())
    parts = []
    for die, value in dice.items():
        if value == LOWER:
            parts.append(
                Text("die %(die)s is lowered to 5, cancelling an unrest marker (step 3)", die=die)
            )
        elif value == KEEP:
            parts.append(Text("die %(die)s is kept for step 5", die=die))
        else:
            world.spaces[value].religion = CATHOLIC
            data["converted"].append(value)
            parts.append(_flips(world, data, die, value))
    data["kept"] = [die for die, value in dice.items() if value == KEEP]
    data["lowered"] = lowered
    data["unrest"] -= len(lowered)
    data["step"] = "flips"
    world.say(
        "VQ-1",
        Text(
            "%(power)s's 6s (step 4): %(dice)s.",
            power=power_subject(data["power"]),
            dice=Join(*parts, sep=CLAUSES),
        ),
        power=data["power"],
    )


def _too_many_lowered(world: World, data: dict, limit: int, lowered: int) -> Text:
    if option(world.options, "unrest_cancel") == "one_per_action":
        why = Text("one per action, by campaign option")
    else:
        why = Text("one per unrest marker, and %(markers)s taken", markers=_markers(data["unrest"]))
    return Plural(
        "At most %(count)s six may be lowered to cancel unrest (%(why)s), not %(lowered)s.",
        "At most %(count)s sixes may be lowered to cancel unrest (%(why)s), not %(lowered)s.",
        count=limit,
        why=why,
        lowered=lowered,
    )


def _flips(world: World, data: dict, die: int, key: str) -> Text:
    """ "die 2 (5) flips Lyon to Catholic": the die by its place in the roll, and its face."""
    return Text(
        "die %(die)s (%(face)s) flips %(space)s to Catholic",
        die=die,
        face=_face_of(data, die),
        space=_name(world, key),
    )


def _face_of(data: dict, die: int) -> int:
    """The face die number ``die`` (from 1) reads as now: a 6 lowered in step 3 is a 5."""
    return 5 if die in data.get("lowered", ()) else data["faces"][die - 1]


def _refuse_twice(world: World, spaces: Iterable[str]) -> None:
    seen: set[str] = set()
    for key in spaces:
        if key in seen:
            raise Refused(
                Text(
                    "%(space)s is chosen twice: a space is flipped only once.",
                    space=_name(world, key),
                )
            )
        seen.add(key)


def _most_flips(questions: Sequence[Question]) -> int:
    """The most spaces the dice can flip together."""
    return len(_best_flips(questions))


def _best_flips(questions: Sequence[Question]) -> dict[str, str]:
    """A maximum matching of dice to their eligible spaces (each space flipped once):
    {die's question name: space}."""
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
    for question in questions:
        assign(question, set())
    return {die: space for space, die in owner.items()}


def _flip_dice(data: dict) -> list[int]:
    """Step 5's dice: the minor conversions (4s, 5s, lowered 6s), then the kept 6s."""
    minors = [i for i, face in enumerate(data["faces"], 1) if conversion_result(face) == "minor"]
    return sorted(minors + data["lowered"]) + data["kept"]


def _ask_flips(world: World, data: dict, waiting_for: str) -> tuple[Text, list[Question]]:
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
    text = Text(
        "%(summary)s. Step 5: each minor conversion (%(minor)s) or lowered 6 flips a space "
        "meeting all three conditions; each kept 6 flips a space meeting conditions a and b "
        "(it may hold Protestant units). A die may be left blank only when no assignment of "
        "the dice could use it (Decision 5).",
        summary=_conversion_summary(data),
        minor=_face_range(CONVERSION_FACES["minor"]),
    )
    return Join(text, _conditions(data["zones"]), sep=" "), questions


def _take_flips(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_flips(world, data, waiting_for)
    kept = {f"die_{die}" for die in data["kept"]}
    values = _read(
        questions,
        answer,
        lambda q, v: _check_flip(world, data["zones"], v, q.name in kept),
    )
    chosen = {name: value for name, value in values.items() if value}
    _refuse_twice(world, chosen.values())
    for question in questions:
        if question.name not in chosen:
            left = [v for v, _ in question.options if v not in chosen.values()]
            if left:
                raise Refused(
                    Text(
                        "%(die)s can still flip %(spaces)s: a die is wasted only when no "
                        "eligible space is left for it (Decision 5).",
                        die=question.label,
                        spaces=_names(world, left),
                    )
                )
    most = _most_flips(questions)
    if len(chosen) < most:
        raise Refused(
            Plural(
                "These dice can flip %(count)s space together and your answer flips "
                "%(chosen)s: give each die a space so that none is wasted (Decision 5).",
                "These dice can flip %(count)s spaces together and your answer flips "
                "%(chosen)s: give each die a space so that none is wasted (Decision 5).",
                count=most,
                chosen=len(chosen),
            )
        )
    parts = []
    for die in _flip_dice(data):
        key = chosen.get(f"die_{die}")
        if key:
            world.spaces[key].religion = CATHOLIC
            data["converted"].append(key)
            parts.append(_flips(world, data, die, key))
        else:
            parts.append(
                Text(
                    "die %(die)s (%(face)s) is wasted: no eligible space is left",
                    die=die,
                    face=_face_of(data, die),
                )
            )
    data["step"] = "unrest"
    world.say(
        "VQ-1",
        Text(
            "%(power)s's step 5: %(dice)s.",
            power=power_subject(data["power"]),
            dice=Join(*parts, sep=CLAUSES),
        ),
        power=data["power"],
    )


def _ask_unrest(world: World, data: dict, waiting_for: str) -> tuple[Text, list[Question]]:
    count = min(data["unrest"], len(data["converted"]))
    options = tuple((key, _name(world, key)) for key in _by_name(world, data["converted"]))
    question = Question("unrest", TALLY["unrest"](count), options, True, count, count)
    text = Plural(
        "%(summary)s. Step 6: place %(count)s unrest marker in spaces converted by this "
        "action (%(spaces)s), at most one each.",
        "%(summary)s. Step 6: place %(count)s unrest markers in spaces converted by this "
        "action (%(spaces)s), at most one each.",
        count=count,
        summary=_conversion_summary(data),
        spaces=_names(world, data["converted"]),
    )
    return text, [question]


def _take_unrest(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_unrest(world, data, waiting_for)
    _place_unrest(world, data, _read(questions, answer)["unrest"])


def _place_unrest(world: World, data: dict, spaces: list[str]) -> None:
    for key in spaces:
        world.spaces[key].unrest = True
    data["discarded"] = data["unrest"] - len(spaces)
    data["unrest"], data["unrest_in"], data["step"] = 0, spaces, "done"
    done = _conversion(data)
    world.say("VQ-1", _unrest_text(world, done.unrest, done.discarded), power=data["power"])


def _unrest_text(world: World, spaces: Sequence[str], discarded: int) -> Text:
    """ "Unrest in Lyon; 1 unrest marker discarded: … (step 6)."."""
    where = _names(world, spaces)
    if not discarded:
        return Text("Unrest in %(spaces)s (step 6).", spaces=where)
    if spaces:
        return Plural(
            "Unrest in %(spaces)s; %(count)s unrest marker discarded: more markers than "
            "converted spaces (step 6).",
            "Unrest in %(spaces)s; %(count)s unrest markers discarded: more markers than "
            "converted spaces (step 6).",
            count=discarded,
            spaces=where,
        )
    return Plural(
        "%(count)s unrest marker discarded: no space was converted (step 6).",
        "%(count)s unrest markers discarded: no space was converted (step 6).",
        count=discarded,
    )


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
            world.say("VQ-1", _conversion_over(world, power, data["converted"]), power=power)
            return None


def _conversion(data: dict) -> Conversion:
    """What the conversion of ``data`` has done so far."""
    return Conversion(
        data["power"],
        tuple(data["faces"]),
        tuple(data["converted"]),
        tuple(data.get("unrest_in", ())),
        tuple(data.get("lowered", ())),
        data.get("discarded", 0),
    )


def _conversion_over(world: World, power: str, converted: list[str]) -> Text:
    if converted:
        return Text(
            "%(power)s's conversion is over: %(spaces)s converted to Catholic.",
            power=power_subject(power),
            spaces=_names(world, converted),
        )
    return Text("%(power)s's conversion is over: no space converted.", power=power_subject(power))


# -- VQ-2 Protestant revolt -----------------------------------------------------------


def check_revolt(world: World, target: str, cp: int) -> None:
    """VQ-2 step 1: Refused with why a revolt cannot start in ``target`` for ``cp`` CP."""
    if isinstance(cp, bool) or not isinstance(cp, int) or not 2 <= cp <= 5:
        raise Refused(Text("A revolt costs 2 to 5 CP, not %(cp)s.", cp=cp))
    space = world.spaces.get(target)
    if space is None:
        raise Refused(Text("There is no space “%(space)s”.", space=target))
    if space.zone not in REVOLT_CONTROLLER:
        raise Refused(
            Text(
                "%(space)s is in neither France nor the Netherlands, where revolts happen.",
                space=space.name,
            )
        )
    _check_revolt_space(world, target)


def _check_revolt_space(world: World, key: str) -> None:
    """Refused when ``key`` fails step 1's requirements of control, religion and siege."""
    space = world.spaces[key]
    controller = REVOLT_CONTROLLER.get(space.zone)
    if controller is None:
        raise Refused(Text("%(space)s is in neither France nor the Netherlands", space=space.name))
    if space.controller != controller:
        raise Refused(
            Text(
                "%(space)s is not under %(adjective)s political control (%(power)s controls it)",
                space=space.name,
                adjective=ADJECTIVES[controller],
                power=power_name(space.controller),
            )
        )
    if space.religion != PROTESTANT:
        raise Refused(
            Text(
                "%(space)s is Catholic, not under Protestant religious influence",
                space=space.name,
            )
        )
    if space.besieged:
        raise Refused(Text("%(space)s is under siege", space=space.name))


def _defenders(world: World, key: str, controller: str) -> list[tuple[int | str, Units]]:
    """The controlling power's Catholic units in ``key`` (Decision 7: not the others')."""
    return [
        (unit_key, units)
        for unit_key, units in world.units_in(key)
        if units.power == controller and world.is_catholic_unit(units)
    ]


def revolt_needs(world: World, target: str) -> Text:
    """VQ-2 step 2 for a revolt in ``target``, as its numbers stand: automatic without
    Catholic units of the controlling power there, else the dice, the faces that hit and
    the hits it takes."""
    space = world.spaces[target]
    controller = REVOLT_CONTROLLER[space.zone]
    total = sum(units.count for _, units in _defenders(world, target, controller))
    if not total:
        return Text(
            "no Catholic unit of %(power)s: succeeds automatically", power=power_name(controller)
        )
    params: dict[str, Any] = {
        "units": _catholic_units(total),
        "power": power_name(controller),
        "faces": _face_range(REVOLT_HIT_FACES),
        "count": total,
    }
    if space.protestant_home:
        return Plural(
            "%(units)s of %(power)s: a die per CP +1 (Protestant home space), each "
            "%(faces)s a hit; it needs %(count)s hit",
            "%(units)s of %(power)s: a die per CP +1 (Protestant home space), each "
            "%(faces)s a hit; it needs %(count)s hits",
            **params,
        )
    return Plural(
        "%(units)s of %(power)s: a die per CP, each %(faces)s a hit; it needs %(count)s hit",
        "%(units)s of %(power)s: a die per CP, each %(faces)s a hit; it needs %(count)s hits",
        **params,
    )


def start_revolt(world: World, target: str, cp: int, dice: Dice) -> Progress:
    """VQ-2 steps 1 and 2: check the target, then automatic success without Catholic units
    of the controlling power there, else roll a die per CP (+1 in a Protestant home space),
    5s and 6s hitting. Then on to the next decision, or to the end. Refused, changing
    nothing, when ``check_revolt`` refuses."""
    try:
        check_revolt(world, target, cp)
    except Refused as refusal:
        reason = refusal.text
        if reason.endswith("."):
            raise
        raise Refused(Text("%(reason)s: no revolt there.", reason=reason)) from None
    space = world.spaces[target]
    controller = REVOLT_CONTROLLER[space.zone]
    world.say(
        "VQ-2",
        Text(
            "The Protestant spends %(cp)s CP on a revolt in %(space)s (%(zone)s).",
            cp=cp,
            space=space.name,
            zone=zone_name(space.zone),
        ),
        power=PROTESTANT_POWER,
        area=target,
    )
    data = {
        "target": target,
        "cp": cp,
        "zone": space.zone,
        "controller": controller,
        "hits": 0,
        "faces": [],
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
            Text(
                "No Catholic unit of %(power)s in %(space)s: the revolt succeeds automatically "
                "(step 2).",
                power=power_name(controller),
                space=space.name,
            ),
            area=target,
        )
        return _progress(world, "revolt", data)
    purpose = _revolt_purpose(space.name, cp, space.protestant_home)
    faces = [dice.d6(purpose) for _ in range(cp + space.protestant_home)]
    hits = sum(face in REVOLT_HIT_FACES for face in faces)
    outcome = Text(
        "%(hits)s against %(units)s of %(power)s",
        hits=_hits(hits),
        units=_catholic_units(total),
        power=power_name(controller),
    )
    report = DiceReport(
        "VQ-2",
        purpose,
        ModifiedRoll(faces[0]),
        Text("hits on %(faces)s", faces=_face_range(REVOLT_HIT_FACES)),
        outcome,
        power=PROTESTANT_POWER,
        area=target,
        extra_faces=tuple(faces[1:]),
    )
    world.say(
        "VQ-2",
        Text("%(purpose)s: %(roll)s.", purpose=purpose, roll=report.text),
        roll=report,
        power=PROTESTANT_POWER,
        area=target,
    )
    data["hits"], data["faces"] = hits, faces
    data["summary"] = str(_revolt_summary(world, data))
    if hits >= total:
        for unit_key, _ in defenders:
            del world.units[unit_key]
        data["removed"] = total
        world.say(
            "VQ-2",
            Text(
                "%(units)s in %(space)s destroyed: no Catholic unit of %(power)s is left, the "
                "revolt succeeds (step 2).",
                units=_and([stack_text(units) for _, units in defenders]),
                space=space.name,
                power=power_name(controller),
            ),
            power=controller,
            area=target,
        )
        return _progress(world, "revolt", data)
    if hits and len(defenders) > 1:
        data["step"] = "hits"
        return Progress(_revolt(data), Pending("revolt", "hits", controller, data))
    if hits:
        _take_hits(world, data, controller, {f"unit:{defenders[0][0]}": str(hits)})
    else:
        _revolt_fails(world, data)
    return Progress(_revolt(data), None)


def _revolt(data: dict) -> Revolt:
    """What the revolt of ``data`` has done so far (the dice: none in a revolt stored
    without them); step 2 fails when Catholic units are left to take hits or remain."""
    return Revolt(
        data["target"],
        data["cp"],
        tuple(data.get("faces", ())),
        data["hits"],
        data["step"] not in ("hits", "failed"),
        tuple(data["flipped"]),
        removed=data.get("removed", 0),
        displaced=tuple((piece, where) for piece, where in data.get("displaced", ())),
        regulars=data.get("regulars", 0),
        nation=PROTESTANT_NATION[data["zone"]] if "regulars" in data else "",
        war_declared=data.get("war_declared", False),
        capital=data.get("capital", ""),
        leader=data.get("leader", ""),
    )


def _revolt_purpose(space: str, cp: int, home: bool) -> Text:
    """ "Revolt in Lyon (3 CP)"."""
    if home:
        return Text(
            "Revolt in %(space)s (%(cp)s CP, +1 die in a Protestant home space)", space=space, cp=cp
        )
    return Text("Revolt in %(space)s (%(cp)s CP)", space=space, cp=cp)


def _hits(count: int) -> Text:
    return Plural("%(count)s hit", "%(count)s hits", count=count)


def _catholic_units(count: int) -> Text:
    return Plural("%(count)s Catholic unit", "%(count)s Catholic units", count=count)


def _revolt_summary(world: World, data: dict) -> Text | str:
    """ "The Protestant rolled dice 1 2 5 against Lyon: 1 hit" (as stored, for a revolt stored
    without its faces)."""
    if not data.get("faces"):
        return data["summary"]
    return Plural(
        "The Protestant rolled %(faces)s against %(space)s: %(count)s hit",
        "The Protestant rolled %(faces)s against %(space)s: %(count)s hits",
        count=data["hits"],
        faces=_faces(data["faces"]),
        space=_name(world, data["target"]),
    )


def _piece_in(world: World, piece: Units | Leader, key: str) -> Text:
    """ "2 French mercenaries in Dijon", "Guise in Lyon"."""
    return Text("%(piece)s in %(space)s", piece=_piece_text(piece), space=_name(world, key))


def _ask_hits(world: World, data: dict, waiting_for: str) -> tuple[Text, list[Question]]:
    target, hits = data["target"], data["hits"]
    questions = [
        Question(
            f"unit:{unit_key}",
            _piece_in(world, units, target),
            tuple((str(n), str(n)) for n in range(min(units.count, hits) + 1)),
            min=1,
        )
        for unit_key, units in _defenders(world, target, data["controller"])
    ]
    text = Plural(
        "%(summary)s. %(power)s removes %(count)s Catholic unit of its own in %(space)s: how "
        "many from each stack (step 2)? Units remain, so the revolt fails.",
        "%(summary)s. %(power)s removes %(count)s Catholic units of its own in %(space)s: how "
        "many from each stack (step 2)? Units remain, so the revolt fails.",
        count=hits,
        summary=_revolt_summary(world, data),
        power=power_subject(data["controller"]),
        space=_name(world, target),
    )
    return text, questions


def _take_hits(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_hits(world, data, waiting_for)
    values = _read(questions, answer)
    taken = sum(int(value) for value in values.values())
    if taken != data["hits"]:
        raise Refused(
            Plural(
                "%(count)s hit must be taken, one unit each, not %(taken)s.",
                "%(count)s hits must be taken, one unit each, not %(taken)s.",
                count=data["hits"],
                taken=taken,
            )
        )
    stacks = dict(_defenders(world, data["target"], data["controller"]))
    data["removed"] = taken
    removed = []
    for question in questions:
        unit_key = next(k for k in stacks if f"unit:{k}" == question.name)
        units, lost = stacks[unit_key], int(values[question.name])
        if lost:
            removed.append(stack_text(Units(units.id, units.power, units.kind, units.space, lost)))
            units.count -= lost
            if not units.count:
                del world.units[unit_key]
    world.say(
        "VQ-2",
        Text(
            "%(power)s removes %(units)s in %(space)s (step 2).",
            power=power_subject(data["controller"]),
            units=_and(removed),
            space=_name(world, data["target"]),
        ),
        power=data["controller"],
        area=data["target"],
    )
    _revolt_fails(world, data)


def _revolt_fails(world: World, data: dict) -> None:
    left = sum(units.count for _, units in _defenders(world, data["target"], data["controller"]))
    data["step"] = "failed"
    world.say(
        "VQ-2",
        Plural(
            "%(count)s Catholic unit of %(power)s remains in %(space)s: the revolt fails (step 2).",
            "%(count)s Catholic units of %(power)s remain in %(space)s: the revolt fails (step 2).",
            count=left,
            power=power_name(data["controller"]),
            space=_name(world, data["target"]),
        ),
        area=data["target"],
    )


def nearest_legal_spaces(world: World, power: str, origin: str) -> list[str]:
    """VQ-2 steps 3 and 4 (12.5): the nearest spaces (by adjacency) that ``power``
    controls and that are fortified or its capital, by name; every one at the shortest
    distance, and its capital wherever it is (the seed: "the nearest fortified space under
    French control or Paris, the French capital")."""
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


def _queued(world: World, item: list) -> Units | Leader:
    """The piece of a queue item being moved or asked about: one still where it was."""
    piece = _piece(world, item)
    assert piece is not None
    return piece


def _piece_text(piece: Units | Leader) -> str:
    if isinstance(piece, Units):
        return stack_text(piece)
    name = piece.name  # kept whole where it needs no capital: a catalog word stays one
    return name if name[:1].isupper() else name[:1].upper() + name[1:]


def _move(
    world: World, data: dict, item: list, destination: str | None, nearest: bool = False
) -> None:
    """Displace a queue item to ``destination`` (``nearest``: chosen as the nearest, first
    by name); None eliminates a stack or takes a leader off the map. A stack joins its
    power's stack of the same kind there. ``data["displaced"]`` records where it went."""
    key, origin = item[1], item[2]
    piece = _queued(world, item)
    data.setdefault("displaced", []).append([f"{item[0]}:{key}", destination or ""])
    step = _displace_step(data)
    params = {"piece": _piece_text(piece), "origin": _name(world, origin), "step": step}
    if destination is None:
        if isinstance(piece, Units):
            del world.units[key]
            text = Text(
                "%(piece)s in %(origin)s: no fortified space or capital of %(power)s to go to, "
                "eliminated (step %(step)s).",
                power=power_name(piece.power),
                **params,
            )
        else:
            piece.space = None
            text = Text(
                "%(piece)s in %(origin)s: no fortified space or capital of %(power)s to go to, "
                "taken off the map (step %(step)s).",
                power=power_name(piece.power),
                **params,
            )
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
        if stack is not None and isinstance(piece, Units):
            stack.count += piece.count
            del world.units[key]
        else:
            piece.space = destination
        text = _displaced_to(world, destination, nearest, params)
    world.say("VQ-2", text, power=piece.power, area=origin)


def _displaced_to(world: World, destination: str, nearest: bool, params: dict) -> Text:
    if nearest:
        return Text(
            "%(piece)s in %(origin)s displaced to %(destination)s (the nearest, first by name) "
            "(step %(step)s).",
            destination=_name(world, destination),
            **params,
        )
    return Text(
        "%(piece)s in %(origin)s displaced to %(destination)s (step %(step)s).",
        destination=_name(world, destination),
        **params,
    )


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
            _move(world, data, item, None)
        elif len(options) == 1:
            _move(world, data, item, options[0])
        elif automatic:
            nearest = _nearest_fortified(world, piece.power, item[2]) or options
            _move(world, data, item, nearest[0], nearest=True)
        else:
            left.append(item)
    data["queue"] = left
    return _queued(world, left[0]).power if left else None


def _ask_displace(world: World, data: dict, waiting_for: str) -> tuple[Text, list[Question]]:
    questions = []
    for item in data["queue"]:
        piece = _piece(world, item)
        if piece is None or piece.power != waiting_for:
            continue
        options = nearest_legal_spaces(world, piece.power, item[2])
        questions.append(
            Question(
                f"{item[0]}:{item[1]}",
                _piece_in(world, piece, item[2]),
                tuple((key, _name(world, key)) for key in options),
                min=1,
            )
        )
    text = Text(
        "The revolt in %(target)s displaces %(power)s's units and leaders (step %(step)s, "
        "12.5): choose where each goes among the nearest fortified spaces it controls or its "
        "capital.",
        target=_name(world, data["target"]),
        power=power_name(waiting_for),
        step=_displace_step(data),
    )
    return text, questions


def _take_displace(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_displace(world, data, waiting_for)
    values = _read(questions, answer, lambda q, v: _refuse_farther(world, q, v))
    for item in list(data["queue"]):
        destination = values.get(f"{item[0]}:{item[1]}")
        if destination:
            _move(world, data, item, destination)
            data["queue"].remove(item)


def _refuse_farther(world: World, question: Question, key: str) -> None:
    """Refused: ``key`` is none of the nearest legal spaces ``question`` offers."""
    raise Refused(
        Text(
            "%(space)s is not among the nearest legal spaces (%(spaces)s)",
            space=_name(world, key),
            spaces=_names(world, [option for option, _ in question.options]),
        )
    )


def _extra_candidates(world: World, data: dict) -> list[str]:
    """Step 4 (Decision 6): spaces adjacent to the target, in its zone, meeting step 1's
    requirements and free of Catholic units."""
    return _by_name(
        world,
        (
            key
            for key in world.adjacency.get(data["target"], ())
            if key in world.spaces and reason_for(_check_extra, world, data, key) is None
        ),
    )


def _check_extra(world: World, data: dict, key: str) -> None:
    """Step 4: Refused with why ``key`` may not come under Protestant control too."""
    space = world.spaces.get(key)
    if space is None:
        raise Refused(Text("there is no space “%(space)s”", space=key))
    if key == data["target"] or key not in world.adjacency.get(data["target"], ()):
        raise Refused(
            Text(
                "%(space)s is not adjacent to %(target)s, the target (Decision 6)",
                space=space.name,
                target=_name(world, data["target"]),
            )
        )
    if space.zone != data["zone"]:
        raise Refused(
            Text("%(space)s is not in %(zone)s", space=space.name, zone=zone_name(data["zone"]))
        )
    if any(world.is_catholic_unit(units) for _, units in world.units_in(key)):
        raise Refused(Text("%(space)s holds Catholic units", space=space.name))
    _check_revolt_space(world, key)


def _ask_extra(world: World, data: dict, waiting_for: str) -> tuple[Text, list[Question]]:
    candidates = _extra_candidates(world, data)
    target, cp = _name(world, data["target"]), data["cp"]
    most = min(cp - 1, len(candidates))
    question = Question(
        "extra",
        Text(
            "Spaces adjacent to %(target)s also under Protestant control (at most %(most)s)",
            target=target,
            most=cp - 1,
        ),
        tuple((key, _name(world, key)) for key in candidates),
        many=True,
        max=most,
    )
    text = Plural(
        "%(target)s comes under Protestant control. Step 4: choose up to %(count)s more space "
        "adjacent to %(target)s in %(zone)s, Protestant, under %(adjective)s control, not "
        "besieged and free of Catholic units (%(cp)s CP: at most %(cp)s spaces, %(target)s "
        "included). Units there that the Protestant does not control are displaced.",
        "%(target)s comes under Protestant control. Step 4: choose up to %(count)s more spaces "
        "adjacent to %(target)s in %(zone)s, Protestant, under %(adjective)s control, not "
        "besieged and free of Catholic units (%(cp)s CP: at most %(cp)s spaces, %(target)s "
        "included). Units there that the Protestant does not control are displaced.",
        count=most,
        target=target,
        zone=zone_name(data["zone"]),
        adjective=ADJECTIVES[data["controller"]],
        cp=cp,
    )
    return text, [question]


def _take_extra(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_extra(world, data, waiting_for)
    asked = _normal(answer.get("extra")) or []
    if len([asked] if isinstance(asked, str) else asked) > data["cp"] - 1:
        raise Refused(
            Text(
                "%(cp)s CP put at most %(cp)s spaces under Protestant control, %(target)s "
                "included: at most %(more)s more.",
                cp=data["cp"],
                target=_name(world, data["target"]),
                more=data["cp"] - 1,
            )
        )
    chosen = _read(questions, answer, lambda q, v: _check_extra(world, data, v))["extra"]
    for key in chosen:
        world.spaces[key].controller = PROTESTANT_POWER
    data["flipped"] += chosen
    world.say("VQ-2", _extra_text(world, chosen, data["cp"]), power=PROTESTANT_POWER)
    data["queue"], data["step"] = _displaced(world, chosen), "displace_extra"


def _extra_text(world: World, chosen: list[str], cp: int) -> Text:
    if not chosen:
        return Text("The Protestant takes no other space (step 4).")
    return Plural(
        "%(spaces)s also comes under Protestant control (step 4: %(flipped)s of at most "
        "%(cp)s spaces).",
        "%(spaces)s also come under Protestant control (step 4: %(flipped)s of at most "
        "%(cp)s spaces).",
        count=len(chosen),
        spaces=_names(world, chosen),
        flipped=len(chosen) + 1,
        cp=cp,
    )


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


def _ask_capital(world: World, data: dict, waiting_for: str) -> tuple[Text, list[Question]]:
    nation = PROTESTANT_NATION[data["zone"]]
    options = tuple((key, _name(world, key)) for key in _capital_candidates(world, data))
    text = Text(
        "The Protestant has no %(nation)s capital (step 7): it may place one in a fortified "
        "Protestant home space it controls in %(zone)s, or leave it blank.",
        nation=nation,
        zone=zone_name(data["zone"]),
    )
    return text, [Question("capital", Text("%(nation)s capital", nation=nation), options)]


def _take_capital(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_capital(world, data, waiting_for)
    key = _read(questions, answer)["capital"]
    if key:
        world.capitals[data["zone"]] = key
    data["capital"] = key or ""
    done = _revolt(data)
    if done.capital:
        text = Text(
            "The %(nation)s capital is placed in %(space)s (step 7).",
            nation=done.nation,
            space=_name(world, done.capital),
        )
    else:
        text = Text("The Protestant places no %(nation)s capital (step 7).", nation=done.nation)
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


def _ask_leader(world: World, data: dict, waiting_for: str) -> tuple[Text, list[Question]]:
    target = _name(world, data["target"])
    options = tuple((str(key), leader.name) for key, leader in _leader_candidates(world, data))
    text = Text(
        "Step 8: a %(nation)s military leader may enter play in %(target)s; choose one, or "
        "leave it blank.",
        nation=PROTESTANT_NATION[data["zone"]],
        target=target,
    )
    return text, [Question("leader", Text("Leader to place in %(target)s", target=target), options)]


def _take_leader(world: World, data: dict, waiting_for: str, answer: Mapping[str, Any]) -> None:
    _, questions = _ask_leader(world, data, waiting_for)
    value = _read(questions, answer)["leader"]
    target = data["target"]
    data["leader"] = value or ""
    if value:
        leader = next(lead for key, lead in _leader_candidates(world, data) if str(key) == value)
        leader.space = target
        text = Text(
            "%(leader)s enters play in %(space)s (step 8).",
            leader=leader.name,
            space=_name(world, target),
        )
    else:
        text = Text("The Protestant places no leader (step 8).")
    world.say("VQ-2", text, power=PROTESTANT_POWER, area=target)
    data["step"] = "done"


def _regulars(world: World, data: dict) -> None:
    """Steps 5 and 6: the new regulars and the war."""
    target, zone = data["target"], data["zone"]
    wanted, left = data["cp"] // 2, world.counter_mix.get(zone, 0)
    placed = data["regulars"] = min(wanted, left)
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
    done = _revolt(data)
    params = {
        "count": done.regulars,
        "nation": done.nation,
        "space": _name(world, done.target),
        "cp": data["cp"],
        "wanted": wanted,
        "left": world.counter_mix.get(zone, 0),
    }
    if done.regulars < wanted:
        text = Plural(
            "%(count)s %(nation)s regular placed in %(space)s, not %(wanted)s: the counter mix "
            "has no more (step 5: 1 per 2 full CP, %(cp)s CP → %(wanted)s; %(left)s left).",
            "%(count)s %(nation)s regulars placed in %(space)s, not %(wanted)s: the counter mix "
            "has no more (step 5: 1 per 2 full CP, %(cp)s CP → %(wanted)s; %(left)s left).",
            **params,
        )
    else:
        text = Plural(
            "%(count)s %(nation)s regular placed in %(space)s (step 5: 1 per 2 full CP, "
            "%(cp)s CP → %(wanted)s; %(left)s left).",
            "%(count)s %(nation)s regulars placed in %(space)s (step 5: 1 per 2 full CP, "
            "%(cp)s CP → %(wanted)s; %(left)s left).",
            **params,
        )
    world.say("VQ-2", text, power=PROTESTANT_POWER, area=target)
    _war(world, data)


def _war(world: World, data: dict) -> None:
    """Step 6: the Protestant and the controlling power at war."""
    enemy = data["controller"]
    data["war_declared"] = not world.at_war(PROTESTANT_POWER, enemy)
    if data["war_declared"]:
        world.wars.add(frozenset((PROTESTANT_POWER, enemy)))
    if _revolt(data).war_declared:
        text = Text(
            "The Protestant and %(power)s are now at war (step 6).", power=power_name(enemy)
        )
    else:
        text = Text(
            "The Protestant and %(power)s are already at war (step 6).", power=power_name(enemy)
        )
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
                Text(
                    "%(space)s comes under Protestant control (step 4).", space=_name(world, target)
                ),
                power=PROTESTANT_POWER,
                area=target,
            )
            data["step"] = "extra"
        elif step == "extra":
            if data["cp"] > 1 and _extra_candidates(world, data):
                return Pending("revolt", "extra", PROTESTANT_POWER, data)
            world.say(
                "VQ-2",
                Text(
                    "No space adjacent to %(space)s can also come under Protestant control "
                    "(step 4).",
                    space=_name(world, target),
                ),
                power=PROTESTANT_POWER,
            )
            data["step"] = "regulars"
        elif step == "regulars":
            _regulars(world, data)
            data["step"] = "capital"
        elif step == "capital":
            if not world.capitals.get(zone) and _capital_candidates(world, data):
                return Pending("revolt", "capital", PROTESTANT_POWER, data)
            world.say(
                "VQ-2", _no_capital(world, world.capitals.get(zone), nation), power=PROTESTANT_POWER
            )
            data["step"] = "leader"
        elif step == "leader":
            if _leader_candidates(world, data):
                return Pending("revolt", "leader", PROTESTANT_POWER, data)
            world.say(
                "VQ-2",
                Text("No %(nation)s military leader can enter play (step 8).", nation=nation),
                power=PROTESTANT_POWER,
            )
            data["step"] = "done"
        elif step == "failed":
            return None
        else:
            world.say(
                "VQ-2",
                Text(
                    "The revolt in %(target)s is over: the Protestant now controls %(spaces)s.",
                    target=_name(world, target),
                    spaces=_names(world, data["flipped"]),
                ),
                power=PROTESTANT_POWER,
                area=target,
            )
            return None


def _no_capital(world: World, capital: str | None, nation: Text) -> Text:
    """Why step 7 places no capital."""
    if capital == TURN_TRACK:
        return Text(
            "The %(nation)s capital is on the turn track after a capture this turn: no capital "
            "placed (step 7).",
            nation=nation,
        )
    if capital:
        return Text(
            "The %(nation)s capital is already in %(space)s: no capital placed (step 7).",
            nation=nation,
            space=_name(world, capital),
        )
    return Text(
        "No fortified Protestant home space it controls can hold a %(nation)s capital: no "
        "capital placed (step 7).",
        nation=nation,
    )


# -- the interactive engine -----------------------------------------------------------

Ask = Callable[[World, dict, str], tuple[Text, list[Question]]]
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
Advance = Callable[[World, dict], Pending | None]
ADVANCE: dict[str, tuple[Advance, Callable[[dict], Conversion | Revolt]]] = {
    "conversion": (_advance_conversion, _conversion),
    "revolt": (_advance_revolt, _revolt),
}


def _stage(pending: Pending) -> tuple[Ask, Take]:
    stage = STAGES.get((pending.kind, pending.stage))
    if stage is None:
        raise Refused(
            Text("There is no %(kind)s stage “%(stage)s”.", kind=pending.kind, stage=pending.stage)
        )
    return stage


def prompt(world: World, pending: Pending) -> Prompt:
    """What ``pending.waiting_for`` must answer now in VQ-1 or VQ-2, with only the legal
    choices."""
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
) -> Progress:
    """VQ-1 and VQ-2 decisions: apply ``power``'s answer (the GM may answer for any
    power) and run on to the next decision, or to the end. Refused, changing nothing, for
    the wrong power or an illegal answer."""
    if not as_gm and power != pending.waiting_for:
        raise Refused(_waits_for(pending, power))
    _, take = _stage(pending)
    data = copy.deepcopy(pending.data)
    take(world, data, pending.waiting_for, answer)
    return _progress(world, pending.kind, data)


def _progress(world: World, kind: str, data: dict) -> Progress:
    """Run the procedure of ``data`` on to its next decision, or to its end."""
    advance, outcome = ADVANCE[kind]
    pending = advance(world, data)
    return Progress(outcome(data), pending)


def default_answer(world: World, pending: Pending) -> dict[str, Any]:
    """What ``pending.waiting_for`` answers in VQ-1 or VQ-2 when its player is not there
    (no player, or away): legal by construction. Each 6 is kept for step 5; the dice flip
    as many spaces as they can together; unrest goes to the converted spaces first by
    name; hits fall on the stacks in the order they are listed; a displaced piece goes to
    the nearest fortified space first by name (as Decision 2's automatic choice); the
    Protestant takes as many adjacent spaces as the CP allow, first by name, and the first
    capital and leader offered."""
    ask, _ = _stage(pending)
    _, questions = ask(world, pending.data, pending.waiting_for)
    if pending.stage == "flips":
        return _best_flips(questions)
    if pending.stage == "hits":
        return _spread_hits(questions, pending.data["hits"])
    if pending.stage == "displace":
        return {q.name: _nearest(world, pending.data, q) for q in questions}
    return {
        q.name: [value for value, _ in q.options[: q.max]]
        if q.many
        else (q.options[0][0] if q.options else "")
        for q in questions
    }


def _spread_hits(questions: Sequence[Question], hits: int) -> dict[str, str]:
    """Each stack in turn loses as many units as it can until every hit is taken."""
    answer = {}
    for question in questions:
        lost = min(hits, max(int(value) for value, _ in question.options))
        answer[question.name], hits = str(lost), hits - lost
    return answer


def _nearest(world: World, data: dict, question: Question) -> str:
    """The nearest fortified space of a displaced piece, first by name, else the first
    legal space offered."""
    item = next(i for i in data["queue"] if f"{i[0]}:{i[1]}" == question.name)
    nearest = _nearest_fortified(world, _queued(world, item).power, item[2])
    offered = [value for value, _ in question.options]
    return next((key for key in nearest if key in offered), offered[0])


def _waits_for(pending: Pending, power: str) -> Text:
    params = {"power": power_name(pending.waiting_for), "other": power_name(power)}
    if pending.kind == "conversion":
        return Text("This conversion waits for %(power)s, not %(other)s.", **params)
    return Text("This revolt waits for %(power)s, not %(other)s.", **params)


# -- VQ-3 espionage -------------------------------------------------------------------

ESPIONAGE_TURN = 3


def check_espionage(turn: int) -> None:
    """VQ-3: Refused before turn 3: no espionage action may be taken on ``turn``."""
    if turn < ESPIONAGE_TURN:
        raise Refused(
            Text(
                "No espionage on turn %(turn)s: espionage actions begin on turn %(first)s.",
                turn=turn,
                first=ESPIONAGE_TURN,
            )
        )


def play_espionage(world: World, power: str, note: str) -> Espionage:
    """VQ-3: ``power`` plays an espionage action at the table (``note``: what), logged.
    Refused, changing nothing, before turn 3."""
    check_espionage(world.turn)
    note = str(note).rstrip(": ")
    world.say("VQ-3", _espionage_line(power_title(power), note), power=power)
    return Espionage(power, note)


def _espionage_line(name: str, note: str) -> Text:
    if note:
        return Text(
            "%(power)s: an espionage action, played at the table: %(note)s", power=name, note=note
        )
    return Text("%(power)s: an espionage action, played at the table", power=name)


def espionage_markers(world: World) -> None:
    """VQ-3: at the start of turn 3 (call once, when the turn begins), each power (every
    key of ``world.markers``) receives 2 Informant, 1 Assassination Used and 1 Cipher Key
    markers, added to any it holds."""
    if world.turn != ESPIONAGE_TURN or not world.markers:
        return
    for markers in world.markers.values():
        markers.informant += 2
        markers.assassination_used += 1
        markers.cipher_key += 1
    world.say(
        "VQ-3",
        Text(
            "Turn %(turn)s: espionage begins. Each power receives 2 Informant markers, "
            "1 Assassination Used marker and 1 Cipher Key marker.",
            turn=ESPIONAGE_TURN,
        ),
    )
