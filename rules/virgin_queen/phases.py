"""Virgin Queen's impulse, pure: the action a power ordered, started on the World. A
conversion or a revolt that needs decisions returns its Pending, which the services
store while the phase waits (rules/virgin_queen/services.py)."""

from __future__ import annotations

from rules.text import Text
from rules.virgin_queen import procedures as vq
from rules.virgin_queen import state


def start_action(world: state.World, power: str, order: dict | None, dice) -> vq.Pending | None:
    """The ordered action: a conversion (VQ-1), a revolt (VQ-2), espionage (VQ-3), an
    action played at the table, or a pass. A refused one is logged and ends the impulse."""
    name = state.power_title(power)
    action = (order or {}).get("action", "pass")
    try:
        if action == "conversion":
            return vq.start_conversion(
                world, power, order["zones"], order["attempts"], order.get("event", ""), dice
            )
        if action == "revolt":
            return vq.start_revolt(world, order["target"], order["cp"], dice)
    except vq.Refused as refusal:
        text = Text("%(power)s: %(refusal)s", power=name, refusal=refusal.text)
        world.say("VQ-1" if action == "conversion" else "VQ-2", text, power=power)
        return None
    if action == "espionage":
        world.say("VQ-3", espionage_line(world, name, order.get("note", "")), power=power)
    elif action == "other":
        text = Text(
            "%(power)s plays an action at the table: %(note)s",
            power=name,
            note=order.get("note", ""),
        )
        world.say("", text, power=power)
    else:
        world.say("", Text("%(power)s passes.", power=name), power=power)
    return None


def espionage_line(world: state.World, name: str, note: str) -> Text:
    """The espionage line: refused before turn 3, else played at the table."""
    refusal = vq.espionage_refusal(world.turn)
    if refusal is not None:
        return Text("%(power)s: %(refusal)s", power=name, refusal=refusal)
    note = str(note).rstrip(": ")
    if note:
        return Text(
            "%(power)s: an espionage action, played at the table: %(note)s", power=name, note=note
        )
    return Text("%(power)s: an espionage action, played at the table", power=name)
