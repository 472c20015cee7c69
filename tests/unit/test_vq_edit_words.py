"""The GM's Virgin Queen edits as the players read them: every log line in full with each
name and number in it, every refusal in full, and each value the edit stores; the powers'
names as headings and sentences name them; the orders for the GM; an impulse's pass."""

from __future__ import annotations

import copy

import pytest

from rules.dice import ScriptedDice
from rules.gm_orders import MOVE, Piece, Prefill
from rules.text import message_of
from rules.virgin_queen import gm_orders, phases
from rules.virgin_queen.edits import (
    EditError,
    edit_leader,
    edit_markers,
    edit_power,
    edit_space,
    edit_zone,
    move_units,
    set_units,
    set_war,
)
from rules.virgin_queen.state import (
    NAVAL,
    TURN_TRACK,
    Markers,
    Units,
    power_name,
    power_subject,
    power_title,
)
from tests.unit.vq_world import build_world

P = "protestant"
SPACE = {
    "space": "lyon",
    "religion": "protestant",
    "controller": "france",
    "unrest": False,
    "fortified": True,
    "besieged": False,
    "zone": "france",
}


def refused(edit, message: str, **fields) -> None:
    """The edit raises EditError saying exactly ``message`` and changes nothing."""
    world = build_world()
    before = copy.deepcopy(world)
    with pytest.raises(EditError) as raised:
        edit(world, **fields)
    assert raised.value.text == message
    assert world == before


# -- spaces --------------------------------------------------------------------------------


def test_a_space_edit_stores_everything_the_scenario_says_of_it():
    world = build_world()
    text = edit_space(
        world,
        **{**SPACE, "religion": "catholic", "controller": "spain", "unrest": True},
        key_space=True,
        port=True,
        protestant_home=True,
        capital_of="spain",
    )
    lyon = world.spaces["lyon"]
    assert (lyon.religion, lyon.controller, lyon.unrest) == ("catholic", "spain", True)
    assert (lyon.fortified, lyon.besieged, lyon.zone) == (True, False, "france")
    assert (lyon.key_space, lyon.port, lyon.protestant_home, lyon.capital_of) == (
        True,
        True,
        True,
        "spain",
    )
    assert text == "Lyon: catholic, controlled by Spain, unrest"


def test_a_space_edit_moves_a_space_to_another_zone_and_names_its_siege():
    world = build_world()
    text = edit_space(
        world, **{**SPACE, "besieged": True, "fortified": False, "zone": "netherlands"}
    )
    lyon = world.spaces["lyon"]
    assert (lyon.fortified, lyon.besieged, lyon.zone) == (False, True, "netherlands")
    assert text == "Lyon: protestant, controlled by France, besieged"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"space": "atlantis"}, "There is no space “atlantis”."),
        ({"religion": "orthodox"}, "Religious influence is Catholic or Protestant."),
        ({"controller": "venice"}, "There is no power “venice”."),
        ({"zone": "italy"}, "There is no struggle zone “italy”."),
    ],
)
def test_an_impossible_space_edit_is_refused_saying_why(fields, message):
    refused(edit_space, message, **{**SPACE, **fields})


# -- units ---------------------------------------------------------------------------------


def test_units_set_in_a_space_are_named_in_full():
    world = build_world()
    text = set_units(world, power="spain", kind="mercenary", space="lyon", count=3)
    assert world.units["new:spain:mercenary:lyon"] == Units(None, "spain", "mercenary", "lyon", 3)
    assert text == "3 Spain mercenary units in Lyon"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"power": "venice"}, "There is no power “venice”."),
        ({"space": "atlantis"}, "There is no space “atlantis”."),
        ({"kind": "cavalry"}, "A unit is a regular, a mercenary or a naval unit."),
    ],
)
def test_impossible_units_are_refused_saying_why(fields, message):
    args = {"power": "spain", "kind": "regular", "space": "lyon", "count": 1, **fields}
    refused(set_units, message, **args)


def test_a_move_names_the_stack_it_does_not_find():
    refused(move_units, "There is no unit stack #99.", stack=99, to="paris", count=1)


# -- leaders, zones, powers, wars, markers --------------------------------------------------


def test_a_leader_is_placed_and_said_to_be_able_to_enter_play():
    world = build_world()
    text = edit_leader(world, leader=4, space="utrecht", can_enter=True)
    assert (world.leaders[4].space, world.leaders[4].can_enter) == ("utrecht", True)
    assert text == "William of Orange: Utrecht, may enter play"
    text = edit_leader(world, leader=4, space=None, can_enter=False)
    assert (world.leaders[4].space, world.leaders[4].can_enter) == (None, False)
    assert text == "William of Orange: off the map"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"leader": 99}, "There is no leader #99."),
        ({"space": "atlantis"}, "There is no space “atlantis”."),
    ],
)
def test_an_impossible_leader_edit_is_refused_saying_why(fields, message):
    refused(edit_leader, message, **{"leader": 4, "space": "utrecht", "can_enter": True, **fields})


def test_a_zones_capital_and_regulars_are_stored_and_named():
    world = build_world()
    text = edit_zone(world, zone="netherlands", capital="amsterdam", regulars=3)
    assert (world.capitals["netherlands"], world.counter_mix["netherlands"]) == ("amsterdam", 3)
    assert text == "the Netherlands: Protestant capital Amsterdam, 3 regulars available"
    text = edit_zone(world, zone="france", capital=TURN_TRACK, regulars=1)
    assert text == "France: Protestant capital on the turn track, 1 regular available"
    assert edit_zone(world, zone="france", capital=None, regulars=0) == (
        "France: Protestant capital none, 0 regulars available"
    )


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"zone": "italy"}, "There is no struggle zone “italy”."),
        ({"capital": "atlantis"}, "There is no space “atlantis”."),
        ({"regulars": 31}, "Regulars available must be a whole number from 0 to 30."),
    ],
)
def test_an_impossible_zone_edit_is_refused_saying_why(fields, message):
    refused(edit_zone, message, **{"zone": "france", "capital": None, "regulars": 2, **fields})


def test_a_power_made_catholic_or_not_is_named():
    world = build_world()
    assert edit_power(world, power="england", catholic=True) == "England is a Catholic power"
    assert "england" in world.catholic_powers
    assert edit_power(world, power="hre", catholic=False) == (
        "the Holy Roman Empire is not a Catholic power"
    )
    assert "hre" not in world.catholic_powers
    refused(edit_power, "There is no power “venice”.", power="venice", catholic=True)


def test_a_war_is_made_and_ended():
    world = build_world()
    assert set_war(world, first="spain", second=P, at_war=True) == (
        "Spain and the Protestant are at war"
    )
    assert world.wars == {frozenset(("spain", P))}
    assert set_war(world, first="spain", second=P, at_war=False) == (
        "Spain and the Protestant are at peace"
    )
    assert world.wars == set()


def test_a_powers_markers_are_stored_and_named():
    world = build_world()
    text = edit_markers(world, power="spain", informant=2, assassination_used=1, cipher_key=3)
    assert world.markers["spain"] == Markers(2, 1, 3)
    assert text == "Spain: 2 Informant, 1 Assassination Used, 3 Cipher Key"


# -- names, stacks, markers ------------------------------------------------------------------


def test_a_power_is_named_as_a_heading_a_subject_and_in_a_sentence():
    assert (power_name(P), power_subject(P), power_title(P)) == (
        "the Protestant",
        "The Protestant",
        "Protestant",
    )
    assert (power_name(None), power_title(None)) == ("nobody", "Nobody")
    assert (power_name("venice"), power_subject("venice"), power_title("venice")) == (
        "venice",
        "Venice",
        "Venice",
    )


def test_a_powers_title_is_the_catalogs_word_for_it():
    """A heading names "Holy Roman Empire" as its own catalog word, translated as one."""
    assert message_of(power_title("hre")) == {"id": "Holy Roman Empire", "params": {}}
    assert message_of(power_title("spain")) == {"id": "Spain", "params": {}}


def test_markers_are_given_when_any_is():
    assert Markers().given is False
    assert Markers(cipher_key=1).given is True
    assert Markers(informant=1).given is True


def test_an_empty_stack_stands_nowhere():
    world = build_world()
    world.units[2].count = 0
    assert [key for key, _ in world.units_in("lyon")] == [3]


# -- orders for the GM -----------------------------------------------------------------------


class Loaded:
    def __init__(self, world):
        self.world = world


def test_a_powers_pieces_are_its_stacks_on_the_map_with_their_reach():
    world = build_world()
    world.units[8] = Units(8, "spain", NAVAL, "brussels", 0)
    world.units["new:spain:regular:utrecht"] = Units(None, "spain", "regular", "utrecht", 1)
    assert gm_orders.pieces(Loaded(world), "spain") == [
        Piece(7, "1 naval unit in Antwerp", "antwerp", ("amsterdam",)),
        Piece(6, "1 regular unit in Antwerp", "antwerp", ("amsterdam", "brussels")),
        Piece(5, "3 regular units in Brussels", "brussels", ("antwerp", "paris", "utrecht")),
    ]


def test_a_naval_unit_reaches_the_other_ports_on_its_sea_zones():
    world = build_world()
    assert gm_orders.reach(world, "bordeaux", NAVAL) == ("la_rochelle", "nantes")
    assert gm_orders.reach(world, "lyon", NAVAL) == ()


def test_a_move_line_moves_the_whole_stack():
    world = build_world()
    line = {"kind": MOVE, "piece": 5, "area": "utrecht"}
    assert gm_orders.carry_out(Loaded(world), line) == Prefill(
        "units_move", "new", {"stack": 5, "to": "utrecht", "count": 3}
    )
    assert gm_orders.carry_out(Loaded(world), {**line, "kind": "card"}) is None
    assert gm_orders.carry_out(Loaded(world), {**line, "piece": 99}) is None


# -- an impulse ----------------------------------------------------------------------------------


def test_a_pass_is_said_once_and_only_when_the_log_has_not_said_it():
    world = build_world()
    phases.start_action(world, "spain", None, ScriptedDice([]), defaulted=True)
    assert world.log == []
    phases.start_action(world, "spain", None, ScriptedDice([]))
    phases.start_action(world, "spain", {"action": "pass"}, ScriptedDice([]), defaulted=True)
    assert [(line.power, line.text) for line in world.log] == [
        ("spain", "Spain passes."),
        ("spain", "Spain passes."),
    ]
