"""Virgin Queen's impulse, pure: the action a power ordered, started on the World. A
conversion or a revolt that needs decisions returns its Pending, which the services
store while the phase waits (rules/virgin_queen/services.py)."""

from __future__ import annotations

from rules.text import Text
from rules.virgin_queen import procedures as vq
from rules.virgin_queen import state

RULES = {"conversion": "VQ-1", "revolt": "VQ-2", "espionage": "VQ-3"}


def start_action(world: state.World, power: str, order: dict | None, dice) -> vq.Pending | None:
    """The ordered action: a conversion (VQ-1), a revolt (VQ-2), espionage (VQ-3), an
    action played at the table, or a pass. A refused one is logged and ends the impulse."""
    action = (order or {}).get("action", "pass")
    try:
        return _act(world, power, action, order or {}, dice)
    except vq.Refused as refusal:
        text = Text("%(power)s: %(refusal)s", power=state.power_title(power), refusal=refusal.text)
        world.say(RULES[action], text, power=power)
        return None


def _act(world: state.World, power: str, action: str, order: dict, dice) -> vq.Pending | None:
    """Carry out the action; Refused, changing nothing, when the rules do not allow it."""
    if action == "conversion":
        zones, attempts, event = order["zones"], order["attempts"], order.get("event", "")
        return vq.start_conversion(world, power, zones, attempts, event, dice)
    if action == "revolt":
        return vq.start_revolt(world, order["target"], order["cp"], dice)
    if action == "espionage":
        vq.play_espionage(world, power, order.get("note", ""))
        return None
    name = state.power_title(power)
    if action == "other":
        note = order.get("note", "")
        text = Text("%(power)s plays an action at the table: %(note)s", power=name, note=note)
        world.say("", text, power=power)
    else:
        world.say("", Text("%(power)s passes.", power=name), power=power)
    return None
