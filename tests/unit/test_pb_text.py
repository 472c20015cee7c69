"""The Pax Baltica log speaks in Texts: every line the phases and GM edits write carries
its msgid and parameters, renders back to the same English, stores as JSON, and the
other side's redacted reading names no hidden block."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from rules.dice import ScriptedDice
from rules.pax_baltica import edits, phases
from rules.pax_baltica.ruleset import turn_label
from rules.pax_baltica.state import World
from rules.text import Text
from tests.unit.pb_world import build_world
from tests.unit.translatable import assert_translatable


def values(message: dict) -> Iterator[object]:
    """Every plain parameter of a message, nested messages included."""
    for value in message["params"].values():
        if isinstance(value, dict):
            yield from values(value)
        else:
            yield value


def hidden_names(world: World, audience: tuple[str, ...]) -> set[str]:
    """The names of the blocks only ``audience`` may see."""
    return {b.name for b in world.blocks.values() if b.nation in audience}


def assert_no_secret(world: World, redacted: Text, audience: tuple[str, ...]) -> None:
    names = hidden_names(world, audience)
    leaked = [v for v in values(redacted.message()) if any(n in str(v) for n in names)]
    assert not leaked, f"{redacted!r} names {leaked}"


def assert_log_translatable(world: World) -> None:
    assert world.log, "the scenario wrote nothing"
    for line in world.log:
        assert_translatable(line.text)
        if line.redacted:
            assert_translatable(line.redacted)
            assert_no_secret(world, line.redacted, line.audience)
        if line.roll is not None:
            report = line.roll
            for part in (report.purpose, report.comparison, report.outcome, report.text):
                assert_translatable(part)


def rules_of(world: World) -> set[str]:
    return {line.rule for line in world.log}


# -- phases -----------------------------------------------------------------------------


def test_recruitment_reinforcements_draws_and_lost_rp():
    world = build_world()
    world.nations["denmark"].event_rp = 2
    orders = {
        "sweden": {
            "reinforce": [{"block": 1, "steps": 2}, {"block": 6, "steps": 1}],
            "draws": 1,
            "places": ["livland"],
        },
        "saxony": {"reinforce": [{"block": 5, "steps": 1}, {"block": 5, "steps": 9}], "draws": 2},
        "denmark": {"draws": 1},
    }
    phases.resolve_recruitment(world, orders, ScriptedDice([1, 2, 1, 1, 1, 1]))
    assert rules_of(world) == {"GNW-6", "GNW-7", "GNW-10"}
    assert any(line.redacted for line in world.log if line.rule == "GNW-10")
    assert_log_translatable(world)


def test_recruitment_unaffordable_and_unplaceable_draws():
    world = build_world(unaffordable_draw="draw_again")
    world.nations["saxony"].rp_level = 6
    world.nations["saxony"].deployment = ()
    phases.resolve_recruitment(
        world, {"saxony": {"draws": 2, "steps_each": 1}}, ScriptedDice([1, 1, 1, 1])
    )
    texts = " ".join(line.text for line in world.log)
    assert "no legal place" in texts and "cannot pay the first step" in texts
    assert_log_translatable(world)


def test_actions_reinforcement_fleet_moves_sieges_and_refusals():
    world = build_world(action_doubling="two_actions")
    world.actions = {"sweden": 4, "coalition": 1}
    orders = {
        "sweden": {
            "reinforce": [{"block": 1, "actions": 2}, {"block": 11, "actions": 1}],
            "fleet_moves": [{"fleet": 6, "path": ["central_baltic", "southern_baltic"]}],
            "sieges": [
                {"territory": "lietuva", "blocks": [1]},
                {"territory": "lausitz", "blocks": [1]},
            ],
        },
        "russia": {
            "fleet_moves": [{"fleet": 8, "path": ["kurland"]}],
            "reinforce": [{"block": 4, "actions": 1}],
        },
        "denmark": {
            "fleet_moves": [
                {"fleet": 7, "path": ["livland"]},
                {"fleet": 7, "path": ["skagerrak"]},
            ]
        },
    }
    phases.resolve_actions(world, orders, ScriptedDice([]))
    assert rules_of(world) == {"GNW-1", "GNW-8", "GNW-13"}
    assert world.blocks[1].besieging
    assert_log_translatable(world)


def test_battles_and_sieges_fire_losses_capture_and_failure():
    world = build_world(siege_hits="at_once", besiegers_lose="fought_retreat")
    world.blocks[1].besieging = True  # Karl XII before Lietuva (garrison 1)
    livland = world.territories["livland"]
    livland.battle_winner, livland.garrison = "sweden", 3
    for block_id, strength in ((2, 2), (3, 4), (4, 2)):  # Pyotr I, Sheremetev, Woronjetski
        block = world.blocks[block_id]
        block.location, block.besieging, block.strength = "livland", True, strength
    world.blocks[3].in_battle = True
    phases.resolve_sieges(world, {}, ScriptedDice([1, 1, 2, 1, 1, 1, 6]))
    assert rules_of(world) == {"GNW-1", "GNW-2", "GNW-3", "GNW-5"}
    assert world.blocks[2].in_pool and world.blocks[4].strength == 1
    assert_log_translatable(world)


def test_a_refused_siege_and_a_captured_capital():
    world = build_world(siege_hits="end_of_round")
    world.territories["copenhagen"].garrison = 1
    world.blocks[1].location, world.blocks[1].besieging = "copenhagen", True
    world.blocks[2].besieging = True  # Pyotr I in Kurland, held by no one
    phases.resolve_sieges(world, {}, ScriptedDice([1, 1, 1]))
    assert world.nations["denmark"].forced_peace and world.blocks[1].strength == 1
    assert_log_translatable(world)


def test_forage_losses_and_ignored_losses():
    world = build_world()
    world.territories["lausitz"].forage_points = 0
    world.blocks[9].location, world.blocks[9].strength = "lausitz", 2
    world.territories["velikaya"].forage_points = 0
    world.blocks[10].location, world.blocks[10].strength = "velikaya", 1
    phases.resolve_forage(world, {"russia": {"loss_order": [3, 2]}}, ScriptedDice([]))
    assert len([line for line in world.log if line.rule == "GNW-4"]) == 3
    assert_log_translatable(world)


# -- GM edits ---------------------------------------------------------------------------

BLOCK = dict(max_strength=4, rating="B3", supply_trains=1, carried_by=None)

EDIT_CASES = [
    ("block", dict(block=1, location="lietuva", strength=3, in_battle=False, **BLOCK)),
    ("block", dict(block=1, location="kurland", strength=2, in_battle=True, **BLOCK)),
    ("block", dict(block=1, location=None, strength=0, in_battle=False, **BLOCK)),
    (
        "block_add",
        dict(
            nation="sweden",
            kind="regiment",
            name="Upplands",
            location="stockholm",
            strength=2,
            max_strength=3,
            rating="C2",
            supply_trains=0,
        ),
    ),
    (
        "block_add",
        dict(
            nation="russia",
            kind="army",
            name="Menshikov",
            location=None,
            strength=4,
            max_strength=4,
            rating="C2",
            supply_trains=1,
        ),
    ),
    ("battle", dict(territory="kurland", winner="coalition", fought=[2, 3])),
    ("battle", dict(territory="lietuva", winner="sweden", fought=[1])),
    (
        "nation",
        dict(
            nation="denmark",
            rp_level=8,
            event_rp=-2,
            forced_peace=True,
            deployment=["copenhagen"],
            fleet_ports=[],
        ),
    ),
    (
        "nation",
        dict(
            nation="saxony",
            rp_level=None,
            event_rp=3,
            forced_peace=False,
            deployment=[],
            fleet_ports=[],
        ),
    ),
    *(
        (
            "territory",
            dict(
                territory="kurland",
                controller=controller,
                garrison=1 if controller else 0,
                forage_points=3,
                port=True,
                transit=True,
                in_poland=False,
                surrendered=False,
            ),
        )
        for controller in ("russia", None)
    ),
    ("side", dict(side="sweden", actions=1, actions_per_season=3, first=True)),
    ("side", dict(side="coalition", actions=2, actions_per_season=3)),
]


@pytest.mark.parametrize(("edit", "fields"), EDIT_CASES)
def test_each_gm_edit_returns_texts(edit, fields):
    world = build_world()
    change = edits.EDITS[edit](world, **fields)
    assert_translatable(change.text)
    if change.redacted:
        assert_translatable(change.redacted)
        assert_no_secret(world, change.redacted, change.audience)


def test_every_gm_edit_is_covered():
    assert {edit for edit, _ in EDIT_CASES} == set(edits.EDITS)


def test_edit_errors_are_in_the_active_language():
    with translation.override("en"), pytest.raises(edits.EditError, match="from 0 to 9"):
        edits.edit_territory(
            build_world(),
            territory="kurland",
            controller=None,
            garrison=12,
            forage_points=3,
            port=True,
            transit=True,
            in_poland=False,
            surrendered=False,
        )


def test_the_turn_label_names_the_season_in_the_active_language():
    with translation.override("en"):
        assert turn_label(7, {"start_year": 1700}) == "Autumn 1701"
