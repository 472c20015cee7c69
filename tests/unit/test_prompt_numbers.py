"""Order forms and decisions that stand alone: each states what the roll needs and what
the order costs with the numbers of the state it is shown for (computed by the rules'
own sums, so that they change with the state), and who waits for whom."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest
from django.utils import translation

from rules.dice import ScriptedDice
from rules.empires_in_arms.forms.orders import EconomicOrderForm, LandOrderForm
from rules.empires_in_arms.phases import attack_depots
from rules.empires_in_arms.state import Corps, Revolt
from rules.pax_baltica.forms.orders import ActionOrderForm, RecruitmentOrderForm
from rules.virgin_queen import procedures as vq
from rules.virgin_queen.forms.decisions import DecisionForm
from rules.virgin_queen.forms.orders import ImpulseOrderForm
from rules.virgin_queen.state import REGULAR, Units
from tests.unit import pb_world, vq_world
from tests.unit.test_order_marks import eia_world  # noqa: F401 (a fixture)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def choice_label(form, field: str, key: str) -> str:
    return dict(form.fields[field].choices)[key]


# -- Empires in Arms ----------------------------------------------------------------


def test_an_operation_says_the_face_it_needs_and_it_falls_with_a_second_corps(eia_world):  # noqa: F811
    """Andalusia's guerrilla value is 4: one corps needs 5 (above 4), two need 4."""
    label = choice_label(
        LandOrderForm(world=eia_world, power_key="france"), "operations", "andalusia"
    )
    assert "1 eligible corps" in label and "needs 5 or more on the die" in label
    eia_world.corps.append(Corps(9, "france", "andalusia", "IX"))
    label = choice_label(
        LandOrderForm(world=eia_world, power_key="france"), "operations", "andalusia"
    )
    assert "2 eligible corps" in label and "needs 4 or more on the die" in label


def test_a_depot_attack_says_the_face_it_needs_with_the_modifiers_there(eia_world):  # noqa: F811
    """Spain's 7 factors against French corps I in Andalusia need 6 (5, −1 for the corps);
    a garrison of 10 makes it 7, out of reach; 3 more factors bring it back to 6."""

    def label() -> str:
        form = LandOrderForm(world=eia_world, power_key="spain")
        return choice_label(form, "depot_attacks", "andalusia")

    assert label() == "Andalusia (1 enemy corps -1: needs 6 or more on the die)"
    eia_world.depots[0].garrison = 10
    assert label() == (
        "Andalusia (1 enemy corps -1, depot garrison of 10 factors -1: cannot succeed "
        "(it would need 7 on the die))"
    )
    eia_world.guerrillas[0].factors = 10
    assert "10 or more guerrilla factors +1: needs 6 or more on the die" in label()
    eia_world.corps.clear()
    eia_world.depots[0].garrison = 0
    assert label() == "Andalusia (10 or more guerrilla factors +1: needs 4 or more on the die)"


def test_a_depot_attack_needs_what_its_resolution_rolls_against(eia_world):  # noqa: F811
    """The face the form states is the one the resolver's roll succeeds with."""
    eia_world.depots[0].garrison = 10
    eia_world.guerrillas[0].factors = 10
    assert "needs 6 or more on the die" in choice_label(
        LandOrderForm(world=eia_world, power_key="spain"), "depot_attacks", "andalusia"
    )
    for face, destroyed in ((5, False), (6, True)):
        world = copy.deepcopy(eia_world)
        (attack,) = attack_depots(world, "spain", "andalusia", ScriptedDice([face]))
        assert bool(attack.destroyed) is destroyed, face


def test_the_aid_form_says_what_the_treasury_holds(eia_world):  # noqa: F811
    eia_world.revolts.append(Revolt(8, "spain", "andalusia", 2))
    eia_world.powers["spain"].treasury = 7
    form = EconomicOrderForm(world=eia_world, power_key="spain")
    assert "Your treasury holds $7 for all your aid." in form.fields["aid_andalusia"].help_text


# -- Pax Baltica ----------------------------------------------------------------------


def test_recruitment_says_the_rp_to_spend_and_what_a_step_costs():
    world = pb_world.build_world()
    world.nations["sweden"].event_rp = 3
    (line,) = RecruitmentOrderForm(world=world, power_key="sweden").budget()
    assert "Sweden has 23 RP to spend" in line
    assert "2 RP for an army, 2 for a fleet, 1 for a regiment" in line


def test_actions_say_how_many_are_left_and_what_each_order_costs():
    world = pb_world.build_world()
    world.actions["sweden"] = 1
    (line,) = ActionOrderForm(world=world, power_key="sweden").budget()
    assert line.startswith("Your side has 1 action left this season: a step added costs 1 action")
    world.actions["sweden"], world.options["action_doubling"] = 2, "two_actions"
    (line,) = ActionOrderForm(world=world, power_key="sweden").budget()
    assert "2 actions left" in line and "2 outside a friendly garrison" in line


# -- Virgin Queen ---------------------------------------------------------------------


@pytest.fixture
def loaded():
    return SimpleNamespace(world=vq_world.build_world(), pending=None)


def test_a_revolt_target_says_the_hits_it_needs_from_the_units_there(loaded):
    """Lyon holds 1 French regular (its 2 French mercenaries are not Catholic units): 1
    hit; 2 more French regulars there, 3."""
    form = ImpulseOrderForm(world=loaded, power_key="protestant")
    assert choice_label(form, "target", "lyon") == (
        "Lyon (1 Catholic unit of France: a die per CP, each 5–6 a hit; it needs 1 hit)"
    )
    loaded.world.units[9] = Units(9, "france", REGULAR, "lyon", 2)
    form = ImpulseOrderForm(world=loaded, power_key="protestant")
    assert "3 Catholic units of France" in choice_label(form, "target", "lyon")
    assert "it needs 3 hits" in choice_label(form, "target", "lyon")
    assert "VQ-2: 2 to 5 CP" in form.fields["cp"].help_text


def test_a_revolt_without_defenders_says_it_succeeds_at_once(loaded):
    for key in [k for k, units in loaded.world.units.items() if units.space == "lyon"]:
        del loaded.world.units[key]
    assert vq.revolt_needs(loaded.world, "lyon") == (
        "no Catholic unit of France: succeeds automatically"
    )


def test_conversion_attempts_say_what_each_face_gives(loaded):
    form = ImpulseOrderForm(world=loaded, power_key="france")
    assert form.fields["attempts"].help_text == (
        "VQ-1: a die per attempt: a major conversion on 6, a minor one on 4–5, an unrest "
        "marker on 1, a miss on 2–3."
    )


@pytest.mark.parametrize(
    "reader, waits",
    [
        ("spain", "The conversion of Spain (VQ-1) waits for your decision."),
        ("protestant", "The conversion of Spain (VQ-1) waits for the decision of Spain."),
        (None, "The conversion of Spain (VQ-1) waits for the decision of Spain."),
    ],
)
def test_a_decision_says_who_waits_for_whom(loaded, reader, waits):
    progress = vq.start_conversion(
        loaded.world, "spain", ["france"], 3, dice=ScriptedDice([6, 4, 1])
    )
    loaded.pending = progress.pending
    form = DecisionForm(world=loaded, power_key=reader, as_gm=reader is None)
    assert form.waits == waits
