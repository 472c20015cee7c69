"""The GM's Empires in Arms edits as the GM and the players read them: what each edit
writes in the log (every name and flag in it), what it changes, and what its refusal
names. The log line is the players' only account of a GM's hand edit."""

from __future__ import annotations

import copy

import pytest

from rules.empires_in_arms.edits import (
    EditError,
    add_corps,
    add_depot,
    edit_area,
    edit_area_details,
    edit_corps,
    edit_power,
    edit_relation,
    remove_corps,
    remove_depot,
    spanish_field_loss,
)
from rules.empires_in_arms.state import CLIENT, SPAIN, Corps, Depot, Guerrilla, World


def refused(world: World, edit, message: str, **fields) -> None:
    """The edit raises EditError with exactly ``message`` and changes nothing."""
    before = copy.deepcopy(world)
    with pytest.raises(EditError) as raised:
        edit(world, **fields)
    assert raised.value.text == message
    assert world == before


# -- powers, areas, relations -------------------------------------------------------------


def test_a_power_edit_stores_the_standing_order_on_bad_rolls(world):
    france = world.powers["france"]
    assert france.pays_bad_roll
    fields = {"zone": "Dominant", "political_points": 4, "treasury": 9}
    edit_power(world, power="france", pays_bad_roll=False, **fields)
    assert france.pays_bad_roll is False
    edit_power(world, power="france", pays_bad_roll=True, **fields)
    assert france.pays_bad_roll is True


def test_an_unknown_zone_is_named_in_the_refusal(world):
    fields = {"political_points": 4, "treasury": 9, "pays_bad_roll": True}
    message = "“Imperial” is not a political status zone."
    refused(world, edit_power, message, power="france", zone="Imperial", **fields)


def test_an_unknown_controller_is_refused(world):
    message = "There is no power “venice”."
    refused(world, edit_area, message, area="palatinate", controller="venice", ceded=False)


def test_a_province_ceded_to_its_home_power_names_the_area_and_the_power(world):
    message = "Castile is held by its home power, Spain: a ceded province is held by another power."
    refused(world, edit_area, message, area="castile", controller="spain", ceded=True)


def test_a_ceded_minor_is_refused_naming_it(world):
    message = "Palatinate is a minor country: only provinces are ceded."
    refused(world, edit_area, message, area="palatinate", controller="france", ceded=True)


def test_an_unknown_minor_status_is_named_in_the_refusal(world):
    fields = {"area": "palatinate", "controller": "france", "ceded": False}
    message = "“vassal” is not allied, client or conquered."
    refused(world, edit_area, message, minor_status="vassal", **fields)


def test_a_minors_details_name_its_status_and_controller(world):
    text = edit_area_details(
        world, area="palatinate", manpower=3, guerrilla_value=None, minor_status=CLIENT
    )
    assert text == "Palatinate: manpower 3, client state of France"


def test_an_unknown_relation_is_named_in_the_refusal(world):
    message = "“truce” is not war, alliance or peace."
    refused(world, edit_relation, message, a="france", b="spain", kind="truce")


# -- corps ------------------------------------------------------------------------------


def test_a_corps_is_placed_with_its_name_and_minor(world):
    world.areas["hesse"].controller = "france"
    text = add_corps(world, power="france", area="palatinate", name="IV", minor="hesse")
    assert world.corps == [Corps(None, "france", "palatinate", name="IV", minor="hesse")]
    assert text == "France Hesse corps IV placed in Palatinate"


def test_a_corps_of_the_power_itself_is_placed(world):
    text = add_corps(world, power="austria", area="bosnia", name="II", minor=None)
    assert world.corps == [Corps(None, "austria", "bosnia", name="II")]
    assert text == "Austria corps II placed in Bosnia"


def test_a_corps_of_a_minor_another_power_controls_is_refused_naming_both(world):
    message = "Hesse is not controlled by France."
    refused(world, add_corps, message, power="france", area="palatinate", name="IV", minor="hesse")


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"power": "venice", "area": "palatinate"}, "There is no power “venice”."),
        ({"power": "france", "area": "atlantis"}, "There is no area “atlantis”."),
    ],
)
def test_a_corps_of_an_unknown_power_or_in_an_unknown_area_is_refused(world, fields, message):
    refused(world, add_corps, message, name="IV", minor=None, **fields)


def test_a_corps_moves_and_its_flags_are_named(world):
    world.corps.append(Corps(3, "france", "palatinate", name="IV"))
    text = edit_corps(world, corps=3, area="hesse", fought=True, besieged=False, besieging=True)
    assert world.corps == [
        Corps(3, "france", "hesse", name="IV", fought=True, besieged=False, besieging=True)
    ]
    assert text == "France corps IV in Hesse: fought, besieging"


def test_a_corps_with_no_flag_is_ready(world):
    world.corps.append(Corps(3, "france", "palatinate", name="IV", besieged=True))
    text = edit_corps(
        world, corps=3, area="palatinate", fought=False, besieged=False, besieging=False
    )
    assert not world.corps[0].besieged
    assert text == "France corps IV in Palatinate: ready"


def test_a_besieged_corps_says_so(world):
    world.corps.append(Corps(3, "france", "palatinate", name="IV"))
    text = edit_corps(
        world, corps=3, area="palatinate", fought=False, besieged=True, besieging=False
    )
    assert text == "France corps IV in Palatinate: besieged"


def test_a_corps_moved_to_an_unknown_area_is_refused(world):
    world.corps.append(Corps(3, "france", "palatinate", name="IV"))
    fields = {"fought": False, "besieged": False, "besieging": False}
    refused(world, edit_corps, "There is no area “atlantis”.", corps=3, area="atlantis", **fields)


def test_a_corps_is_removed_and_named(world):
    kept = Corps(4, "spain", "castile", name="I")
    world.corps += [Corps(3, "france", "palatinate", name="IV"), kept]
    assert remove_corps(world, corps=3) == "France corps IV removed from Palatinate"
    assert world.corps == [kept]


# -- depots, Spanish field losses -------------------------------------------------------


def test_a_depot_is_placed_with_its_port_and_garrison(world):
    text = add_depot(world, power="france", area="andalusia", port_city=True, garrison=2)
    assert world.depots == [Depot(None, "france", "andalusia", port_city=True, garrison=2)]
    assert text == "France depot (port city) in Andalusia, garrison 2"


def test_an_inland_depot_says_no_port(world):
    text = add_depot(world, power="france", area="palatinate", port_city=False, garrison=0)
    assert world.depots == [Depot(None, "france", "palatinate", port_city=False, garrison=0)]
    assert text == "France depot in Palatinate, garrison 0"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"power": "venice", "area": "palatinate"}, "There is no power “venice”."),
        ({"power": "france", "area": "atlantis"}, "There is no area “atlantis”."),
    ],
)
def test_a_depot_of_an_unknown_power_or_in_an_unknown_area_is_refused(world, fields, message):
    refused(world, add_depot, message, port_city=False, garrison=0, **fields)


def test_a_depot_is_removed_and_named(world):
    kept = Depot(5, "spain", "castile")
    world.depots += [Depot(4, "france", "andalusia"), kept]
    assert remove_depot(world, depot=4) == "France depot in Andalusia removed"
    assert world.depots == [kept]


def test_a_spanish_field_loss_starts_a_spanish_stack_of_that_province(world):
    spanish_field_loss(world, area="castile")
    assert world.guerrillas == [
        Guerrilla(None, "castile", SPAIN, 1, origin="castile", revolt=False)
    ]
