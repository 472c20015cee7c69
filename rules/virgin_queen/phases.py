"""Virgin Queen's impulse, pure: the action a power ordered, started on the World, and
what it did. A conversion or a revolt that needs decisions waits on its Pending, which
the services store while the phase waits (rules/virgin_queen/services.py)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.refusals import Skipped
from rules.text import Text
from rules.virgin_queen import procedures as vq
from rules.virgin_queen import state

RULES = {"conversion": "VQ-1", "revolt": "VQ-2", "espionage": "VQ-3"}


@dataclass(frozen=True)
class TableAction:
    """An action ``power`` played at the table, outside VQ-1 to VQ-3 (``note``: what)."""

    power: str
    note: str


@dataclass(frozen=True)
class Passed:
    """``power`` passed its impulse."""

    power: str


@dataclass(frozen=True)
class Impulse:
    """What the impulse did, and the decision it waits on (None: the impulse is over)."""

    did: vq.Conversion | vq.Revolt | vq.Espionage | TableAction | Passed | Skipped
    pending: vq.Pending | None = None


def start_action(
    world: state.World, power: str, order: dict | None, dice, *, defaulted: bool = False
) -> Impulse:
    """The ordered action: a conversion (VQ-1), a revolt (VQ-2), espionage (VQ-3), an
    action played at the table, or a pass. A refused one is logged and skipped: the
    impulse ends. ``defaulted``: the power gave no orders and the log has already said
    that it passes (campaign.play.services), so its pass is not said twice."""
    action = (order or {}).get("action", "pass")
    try:
        return _act(world, power, action, order or {}, dice, said=order is None and defaulted)
    except vq.Refused as refusal:
        text = Text("%(power)s: %(refusal)s", power=state.power_title(power), refusal=refusal.text)
        world.say(RULES[action], text, power=power)
        return Impulse(Skipped(power, order, refusal.text))


def _act(
    world: state.World, power: str, action: str, order: dict, dice, *, said: bool = False
) -> Impulse:
    """Carry out the action; Refused, changing nothing, when the rules do not allow it.
    ``said``: the log has already said that the power passes."""
    if action == "conversion":
        zones, attempts, event = order["zones"], order["attempts"], order.get("event", "")
        return _started(vq.start_conversion(world, power, zones, attempts, event, dice))
    if action == "revolt":
        return _started(vq.start_revolt(world, order["target"], order["cp"], dice))
    if action == "espionage":
        return Impulse(vq.play_espionage(world, power, order.get("note", "")))
    name = state.power_title(power)
    if action == "other":
        note = order.get("note", "")
        text = Text("%(power)s plays an action at the table: %(note)s", power=name, note=note)
        world.say("", text, power=power)
        return Impulse(TableAction(power, note))
    if not said:
        world.say("", Text("%(power)s passes.", power=name), power=power)
    return Impulse(Passed(power))


def _started(progress: vq.Progress) -> Impulse:
    return Impulse(progress.outcome, progress.pending)
