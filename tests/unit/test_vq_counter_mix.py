"""VQ-2 step 5 with a struggle zone the scenario gives no counter mix: no regular to add."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.virgin_queen.procedures import decide, start_revolt
from tests.unit.vq_world import build_world


def test_a_zone_without_a_counter_mix_has_no_regular_to_add():
    world = build_world()
    del world.counter_mix["netherlands"]
    world.units.clear()
    pending = start_revolt(world, "utrecht", 4, ScriptedDice([])).pending
    decide(world, pending, "protestant", {"extra": []})
    assert not world.units
    assert (
        "0 Dutch regulars placed in Utrecht, not 2: the counter mix has no more (step 5: 1 "
        "per 2 full CP, 4 CP → 2; 0 left)."
    ) in [str(line.text) for line in world.log]
