"""GNW-1, Decision 11 (option ``siege_block_order``): whether the besieging blocks' firing
order is fixed at the start of the round (default) or re-sorted as the garrison's hits
land. Scripted dice, no database."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.pax_baltica.procedures import siege_round
from rules.pax_baltica.ruleset import OPTIONS
from rules.pax_baltica.state import ARMY, REGIMENT, Block, Territory

LIVLAND = Territory("livland", "Livland", nation="sweden", controller="sweden", garrison=2)
RESORT = {"siege_block_order": "as_hits_land"}


def besiegers() -> list[Block]:
    """Pyotr I (C2, 4) fires before Woronjetski (C1, 3) at the start of the round; the
    garrison's 2 hits both fall on Pyotr I (4 → 3, then the tie at 3 to the lower id)."""
    return [
        Block(2, "russia", ARMY, "Pyotr I", 4, 4, "C2"),
        Block(4, "russia", REGIMENT, "Woronjetski", 3, 3, "C1"),
    ]


def firing(outcome) -> list[str]:
    return [r.purpose.split(" (")[0] for r in outcome.reports]


def test_the_option_is_decision_11_and_its_default_keeps_the_order_of_the_start():
    spec = next(o for o in OPTIONS if o.key == "siege_block_order")
    assert spec.decision == "11"
    assert spec.default == "round_start"
    assert [value for value, _ in spec.choices] == ["round_start", "as_hits_land"]


def test_default_the_order_is_fixed_at_the_start_of_the_round():
    dice = ScriptedDice([1, 1, 2, 2, 6, 6, 6])
    outcome = siege_round(LIVLAND, besiegers(), dice)
    assert firing(outcome) == ["Garrison of Livland", "Pyotr I", "Woronjetski"]
    assert outcome.reports[0].outcome == "2 hits: Pyotr I 4 → 2"
    assert outcome.reports[1].faces == (2, 2) and outcome.reports[2].faces == (6, 6, 6)
    assert outcome.besieger_hits == 2 and outcome.captured
    assert outcome.strengths == {2: 2, 4: 3} and dice.unused == 0


def test_option_the_blocks_not_yet_fired_are_re_sorted_as_the_hits_land():
    dice = ScriptedDice([1, 1, 2, 2, 6, 6, 6])
    outcome = siege_round(LIVLAND, besiegers(), dice, RESORT)
    assert firing(outcome) == ["Garrison of Livland", "Woronjetski", "Pyotr I"]
    assert outcome.reports[1].faces == (2, 2, 6) and outcome.reports[2].faces == (6, 6)
    assert outcome.besieger_hits == 0 and not outcome.captured
    assert outcome.strengths == {2: 2, 4: 3} and dice.unused == 0


def test_option_a_block_that_stays_the_strongest_keeps_its_place():
    """One hit: Pyotr I 4 → 3 ties Woronjetski at 3, and the lower id still fires first."""
    dice = ScriptedDice([1, 6, 6, 6, 6, 6, 6, 6])
    outcome = siege_round(LIVLAND, besiegers(), dice, RESORT)
    assert firing(outcome) == ["Garrison of Livland", "Pyotr I", "Woronjetski"]
    assert dice.unused == 0


def test_option_blocks_that_fired_before_the_garrison_are_not_moved():
    """A B block fires before the C1 garrison, whatever the hits; only the C blocks after
    the garrison are re-sorted."""
    blocks = [Block(1, "russia", ARMY, "Menshikov", 2, 4, "B2"), *besiegers()]
    dice = ScriptedDice([6, 6, 1, 1, 6, 6, 6, 6, 6])
    outcome = siege_round(LIVLAND, blocks, dice, RESORT)
    assert firing(outcome) == ["Menshikov", "Garrison of Livland", "Woronjetski", "Pyotr I"]


def test_option_changes_nothing_when_hits_wait_for_the_end_of_the_round():
    options = {**RESORT, "siege_hits": "end_of_round"}
    for chosen in ({"siege_hits": "end_of_round"}, options):
        dice = ScriptedDice([1, 1, 2, 2, 6, 6, 6, 6, 6])
        outcome = siege_round(LIVLAND, besiegers(), dice, chosen)
        assert firing(outcome) == ["Garrison of Livland", "Pyotr I", "Woronjetski"]
        assert outcome.reports[1].faces == (2, 2, 6, 6)
        assert outcome.strengths == {2: 2, 4: 3} and outcome.captured
