"""The GM's edits (rules/empires_in_arms/edits.py): each changes the World and says what it
did, or refuses with EditError and changes nothing."""

from __future__ import annotations

import copy

import pytest

from rules.empires_in_arms.edits import (
    EDITS,
    EditError,
    add_depot,
    add_guerrilla,
    edit_area,
    edit_area_details,
    edit_guerrilla,
    edit_let_downs,
    edit_militia_due,
    edit_national_modifier,
    edit_power,
    remove_guerrilla,
)
from rules.empires_in_arms.state import (
    ALLIED,
    CLIENT,
    CONQUERED,
    PROVINCE,
    SPAIN,
    Area,
    Guerrilla,
    Revolt,
    World,
)


@pytest.fixture
def world(world: World) -> World:
    """The unit map, with a British revolt in the Palatinate holding 3 guerrilla factors
    (stack #1) and 2 Spanish guerrilla factors in Castile (stack #2)."""
    world.revolts.append(Revolt(7, "great_britain", "palatinate", 4))
    world.guerrillas += [
        Guerrilla(1, "palatinate", "great_britain", 3, origin="palatinate"),
        Guerrilla(2, "castile", SPAIN, 2, origin="castile", revolt=False),
    ]
    return world


def refused(world: World, edit, match: str, **fields) -> None:
    """The edit raises EditError (message matching ``match``) and leaves the World as it was."""
    before = copy.deepcopy(world)
    with pytest.raises(EditError, match=match):
        edit(world, **fields)
    assert world == before


def test_every_edit_says_what_it_does():
    for key, edit in EDITS.items():
        assert edit.__doc__, key


# -- the Minor Country Chart ----------------------------------------------------------


@pytest.mark.parametrize("value", [-5, 0, 2, 5])
def test_a_national_modifier_is_set(world, value):
    text = edit_national_modifier(world, area="hesse", power="france", value=value)
    assert world.national_modifiers[("hesse", "france")] == value
    assert world.national_modifier("france", "hesse") == value
    assert text == f"Minor Country Chart: NM(France, Hesse) = {value:+d}"


def test_a_national_modifier_replaces_the_old_value(world):
    edit_national_modifier(world, area="palatinate", power="great_britain", value=-3)
    assert world.national_modifier("great_britain", "palatinate") == -3


@pytest.mark.parametrize("value", [-6, 6, 99, True, None, "1"])
def test_a_national_modifier_outside_minus_five_to_five_is_refused(world, value):
    refused(
        world,
        edit_national_modifier,
        "from -5 to 5",
        area="hesse",
        power="france",
        value=value,
    )


def test_the_chart_has_no_provinces(world):
    refused(
        world,
        edit_national_modifier,
        "Castile is a province",
        area="castile",
        power="france",
        value=1,
    )


@pytest.mark.parametrize(
    ("area", "power", "match"),
    [("atlantis", "france", "no area “atlantis”"), ("hesse", "narnia", "no power “narnia”")],
)
def test_a_national_modifier_of_something_unknown_is_refused(world, area, power, match):
    refused(world, edit_national_modifier, match, area=area, power=power, value=1)


# -- area details ---------------------------------------------------------------------


def test_a_spanish_province_gets_manpower_and_guerrilla_value(world):
    text = edit_area_details(world, area="castile", manpower=6, guerrilla_value=5, minor_status="")
    castile = world.areas["castile"]
    assert (castile.manpower, castile.guerrilla_value, castile.guerrilla_cap) == (6, 5, 30)
    assert text == "Castile: manpower 6, guerrilla value 5"


def test_a_spanish_province_keeps_a_guerrilla_value(world):
    refused(
        world,
        edit_area_details,
        "Andalusia is a Spanish province: it needs its printed guerrilla value",
        area="andalusia",
        manpower=3,
        guerrilla_value=None,
        minor_status="",
    )


def test_manpower_of_a_revolting_area_cannot_drop_below_its_guerrillas(world):
    # Palatinate, in revolt with 3 factors: manpower 0 still allows 5.
    edit_area_details(world, area="palatinate", manpower=0, guerrilla_value=None, minor_status="")
    world.guerrillas[0].factors = 6
    refused(
        world,
        edit_area_details,
        "Palatinate is in revolt with 6 guerrilla factors: manpower 0 would allow only 5",
        area="palatinate",
        manpower=0,
        guerrilla_value=None,
        minor_status="",
    )


@pytest.mark.parametrize("status", [ALLIED, CLIENT, CONQUERED, ""])
def test_a_controlled_minor_gets_its_status(world, status):
    text = edit_area_details(
        world, area="palatinate", manpower=0, guerrilla_value=None, minor_status=status
    )
    palatinate = world.areas["palatinate"]
    assert (palatinate.manpower, palatinate.minor_status) == (0, status)
    assert palatinate.conquered_by == ("france" if status == CONQUERED else None)
    assert text.startswith("Palatinate: manpower 0, ")
    assert ("of France" in text) == bool(status)


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"area": "castile", "manpower": 21}, "Manpower must be a whole number from 0 to 20"),
        ({"area": "castile", "manpower": -1}, "Manpower must be a whole number from 0 to 20"),
        (
            {"area": "castile", "guerrilla_value": 0},
            "guerrilla value must be a whole number from 1",
        ),
        (
            {"area": "castile", "guerrilla_value": 7},
            "guerrilla value must be a whole number from 1",
        ),
        ({"area": "palatinate", "guerrilla_value": 3}, "Palatinate is not a Spanish province"),
        ({"area": "bosnia", "guerrilla_value": 3}, "Bosnia is not a Spanish province"),
        (
            {"area": "castile", "guerrilla_value": 3, "minor_status": ALLIED},
            "Castile is a province",
        ),
        ({"area": "palatinate", "minor_status": "annexed"}, "not allied, client or conquered"),
        ({"area": "atlantis"}, "no area “atlantis”"),
    ],
)
def test_impossible_area_details_are_refused(world, fields, match):
    data = {"manpower": 2, "guerrilla_value": None, "minor_status": "", **fields}
    refused(world, edit_area_details, match, **data)


def test_a_neutral_minor_has_no_status(world):
    world.areas["hesse"].controller = None
    refused(
        world,
        edit_area_details,
        "Hesse is neutral",
        area="hesse",
        manpower=0,
        guerrilla_value=None,
        minor_status=CLIENT,
    )


# -- controller and ceded -------------------------------------------------------------


def test_a_province_cannot_be_neutral(world):
    refused(
        world,
        edit_area,
        "Castile is a province: it always has a controller",
        area="castile",
        controller=None,
        ceded=False,
    )


def test_only_a_home_province_can_be_ceded(world):
    world.areas["malta"] = Area("malta", "Malta", PROVINCE, "great_britain")
    refused(
        world,
        edit_area,
        "Malta belongs to no power's home nation",
        area="malta",
        controller="france",
        ceded=True,
    )


def test_a_province_held_by_its_home_power_is_not_ceded(world):
    refused(
        world,
        edit_area,
        "held by its home power, Spain",
        area="castile",
        controller="spain",
        ceded=True,
    )


def test_a_minor_cannot_be_ceded(world):
    refused(
        world, edit_area, "only provinces are ceded", area="hesse", controller="france", ceded=True
    )


def test_a_province_changes_hands_and_is_ceded(world):
    text = edit_area(world, area="castile", controller="france", ceded=True)
    castile = world.areas["castile"]
    assert (castile.controller, castile.ceded) == ("france", True)
    assert text == "Castile: controlled by France, ceded"


def test_a_minor_gone_neutral_loses_its_status(world):
    world.areas["palatinate"].minor_status = CONQUERED
    text = edit_area(world, area="palatinate", controller=None, ceded=False)
    assert (world.areas["palatinate"].controller, world.areas["palatinate"].minor_status) == (
        None,
        "",
    )
    assert text == "Palatinate: controlled by nobody"


def test_a_minor_changing_hands_loses_its_status_unless_given(world):
    world.areas["palatinate"].minor_status = CONQUERED
    edit_area(world, area="palatinate", controller="austria", ceded=False)
    assert world.areas["palatinate"].minor_status == ""
    text = edit_area(
        world, area="palatinate", controller="prussia", ceded=False, minor_status=CLIENT
    )
    assert world.areas["palatinate"].minor_status == CLIENT
    assert text == "Palatinate: controlled by Prussia, client state"


def test_a_minor_keeping_its_controller_keeps_its_status(world):
    world.areas["palatinate"].minor_status = ALLIED
    edit_area(world, area="palatinate", controller="france", ceded=False)
    assert world.areas["palatinate"].minor_status == ALLIED


def test_a_minor_made_neutral_with_a_status_is_refused(world):
    refused(
        world,
        edit_area,
        "Palatinate is neutral",
        area="palatinate",
        controller=None,
        ceded=False,
        minor_status=ALLIED,
    )


# -- guerrilla stacks -----------------------------------------------------------------


def test_a_stack_gets_new_factors(world):
    text = edit_guerrilla(world, stack=1, factors=7, besieged=True)
    stack = world.guerrillas[0]
    assert (stack.factors, stack.besieged) == (7, True)
    assert text == "7 Great Britain guerrilla factors in Palatinate: besieged"


def test_the_besieged_flag_alone_keeps_the_factors(world):
    edit_guerrilla(world, stack=1, besieged=True)
    assert world.guerrillas[0].factors == 3


@pytest.mark.parametrize("factors", [0, 100, -1, True])
def test_stack_factors_outside_one_to_99_are_refused(world, factors):
    refused(world, edit_guerrilla, "from 1 to 99", stack=1, factors=factors, besieged=False)


def test_stack_factors_beyond_five_times_manpower_are_refused(world):
    # Palatinate, manpower 2: at most 10 factors in all.
    world.guerrillas.append(Guerrilla(3, "palatinate", "great_britain", 4, origin="palatinate"))
    refused(
        world,
        edit_guerrilla,
        r"Palatinate holds at most 10 guerrilla factors \(EIA-3: 5 × manpower 2\); 4 are there",
        stack=1,
        factors=7,
        besieged=False,
    )
    edit_guerrilla(world, stack=1, factors=6, besieged=False)
    assert world.guerrilla_factors("palatinate") == 10


def test_an_area_over_its_cap_may_still_lose_factors(world):
    world.areas["palatinate"].manpower = 0  # cap 5, 3 already there
    world.guerrillas.append(Guerrilla(3, "palatinate", "great_britain", 4, origin="palatinate"))
    edit_guerrilla(world, stack=3, factors=3, besieged=False)
    assert world.guerrilla_factors("palatinate") == 6


def test_a_stack_is_removed(world):
    text = remove_guerrilla(world, stack=1)
    assert [g.id for g in world.guerrillas] == [2]
    assert text == "3 Great Britain guerrilla factors removed from Palatinate"


@pytest.mark.parametrize("edit", [remove_guerrilla, edit_guerrilla])
def test_an_unknown_stack_is_refused(world, edit):
    fields = {"stack": 99} if edit is remove_guerrilla else {"stack": 99, "besieged": False}
    refused(world, edit, "no guerrilla stack #99", **fields)


def test_revolt_guerrillas_are_placed_in_their_revolt_area(world):
    world.guerrillas[0].besieged = True  # a besieged stack is not joined
    text = add_guerrilla(world, power="great_britain", area="palatinate", factors=2, revolt=True)
    new = world.guerrillas[-1]
    assert (new.id, new.area, new.origin, new.nationality, new.factors, new.revolt) == (
        None,
        "palatinate",
        "palatinate",
        "great_britain",
        2,
        True,
    )
    assert not new.besieged
    assert text == "2 Great Britain revolt guerrilla factors placed in Palatinate"


def test_placed_guerrillas_join_an_unbesieged_stack_of_their_kind(world):
    add_guerrilla(world, power="great_britain", area="palatinate", factors=2, revolt=True)
    add_guerrilla(world, power=SPAIN, area="castile", factors=1, revolt=False)
    assert [(g.id, g.factors) for g in world.guerrillas] == [(1, 5), (2, 3)]


@pytest.mark.parametrize(
    ("power", "area", "match"),
    [
        ("austria", "palatinate", "Austria sponsors no active revolt in Palatinate"),
        ("great_britain", "hesse", "Great Britain sponsors no active revolt in Hesse"),
        (SPAIN, "castile", "Spain sponsors no active revolt in Castile"),
    ],
)
def test_revolt_guerrillas_need_the_powers_revolt_there(world, power, area, match):
    refused(world, add_guerrilla, match, power=power, area=area, factors=1, revolt=True)


def test_revolt_guerrillas_of_an_ended_revolt_are_refused(world):
    world.revolts[0].active = False
    refused(
        world,
        add_guerrilla,
        "sponsors no active revolt",
        power="great_britain",
        area="palatinate",
        factors=1,
        revolt=True,
    )


@pytest.mark.parametrize("area", ["castile", "andalusia"])
def test_spanish_guerrillas_are_placed_in_a_spanish_province(world, area):
    world.guerrillas = []
    add_guerrilla(world, power=SPAIN, area=area, factors=4, revolt=False)
    [stack] = world.guerrillas
    assert (stack.area, stack.origin, stack.nationality, stack.revolt) == (
        area,
        area,
        SPAIN,
        False,
    )


@pytest.mark.parametrize(
    ("power", "area", "match"),
    [
        ("france", "castile", "France has no guerrillas without a revolt"),
        (SPAIN, "palatinate", "Palatinate is not a Spanish home province"),
        (SPAIN, "bosnia", "Bosnia is not a Spanish home province"),
    ],
)
def test_spanish_guerrillas_only_for_spain_in_spain(world, power, area, match):
    refused(world, add_guerrilla, match, power=power, area=area, factors=1, revolt=False)


def test_placed_guerrillas_respect_the_cap_of_a_revolting_area(world):
    world.revolts.append(Revolt(None, SPAIN, "castile", 3))
    # Castile, manpower 4, in revolt: at most 20, 2 there.
    refused(
        world,
        add_guerrilla,
        "Castile holds at most 20 guerrilla factors",
        power=SPAIN,
        area="castile",
        factors=19,
        revolt=False,
    )
    add_guerrilla(world, power=SPAIN, area="castile", factors=18, revolt=False)
    assert world.guerrilla_factors("castile") == 20


def test_spanish_guerrillas_outside_a_revolt_have_no_cap(world):
    add_guerrilla(world, power=SPAIN, area="castile", factors=30, revolt=False)
    assert world.guerrilla_factors("castile") == 32


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"factors": 0}, "from 1 to 99"),
        ({"factors": 100}, "from 1 to 99"),
        ({"power": "narnia"}, "no power “narnia”"),
        ({"area": "atlantis"}, "no area “atlantis”"),
    ],
)
def test_placing_impossible_guerrillas_is_refused(world, fields, match):
    data = {"power": SPAIN, "area": "castile", "factors": 1, "revolt": False, **fields}
    refused(world, add_guerrilla, match, **data)


# -- let-downs and militia ------------------------------------------------------------


def test_let_downs_are_set(world):
    text = edit_let_downs(world, power="great_britain", area="palatinate", count=2)
    assert world.let_downs[("great_britain", "palatinate")] == 2
    assert text == "Great Britain has let down 2 revolts in Palatinate"
    edit_let_downs(world, power="great_britain", area="palatinate", count=0)
    assert world.let_downs[("great_britain", "palatinate")] == 0


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"count": 10}, "from 0 to 9"),
        ({"count": -1}, "from 0 to 9"),
        ({"area": "andalusia"}, "Andalusia is a province: let-downs count in minor"),
        ({"power": "narnia"}, "no power “narnia”"),
    ],
)
def test_impossible_let_downs_are_refused(world, fields, match):
    data = {"power": "great_britain", "area": "palatinate", "count": 1, **fields}
    refused(world, edit_let_downs, match, **data)


def test_militia_due_is_set(world):
    text = edit_militia_due(world, power=SPAIN, militia=4)
    assert world.militia_due[SPAIN] == 4
    assert text == "Spain is owed 4 militia factors (EIA-12)"


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"militia": 1000}, "from 0 to 999"),
        ({"militia": -1}, "from 0 to 999"),
        ({"power": "france"}, "Only Spain receives militia"),
        ({"power": "narnia"}, "no power “narnia”"),
    ],
)
def test_impossible_militia_is_refused(world, fields, match):
    refused(world, edit_militia_due, match, **{"power": SPAIN, "militia": 3, **fields})


# -- powers and depots ----------------------------------------------------------------


def test_a_power_may_have_negative_political_points(world):
    edit_power(
        world,
        power="russia",
        zone="Fiasco",
        political_points=-140,
        treasury=0,
        pays_bad_roll=False,
    )
    assert world.powers["russia"].political_points == -140


def test_a_depot_with_a_negative_garrison_is_refused(world):
    refused(
        world,
        add_depot,
        "cannot be negative",
        power="france",
        area="hesse",
        port_city=False,
        garrison=-1,
    )


def test_a_power_edit_logs_that_the_standing_order_changed_not_what_it_says(world):
    fields = {"power": "france", "zone": "Neutral", "political_points": 2, "treasury": 5}
    unchanged = edit_power(world, pays_bad_roll=world.powers["france"].pays_bad_roll, **fields)
    assert unchanged == "France: Neutral zone, 2 PP, $5"
    changed = edit_power(world, pays_bad_roll=not world.powers["france"].pays_bad_roll, **fields)
    assert changed == "France: Neutral zone, 2 PP, $5; standing order for bad rolls changed"
    assert "pay" not in changed
