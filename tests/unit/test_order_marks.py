"""The orders a reader may read, drawn on the map (each ruleset's ``order_marks``): the
payloads the order forms produce give arrows and markers on the areas they name; an
area, block or stack no longer there gives none; Pax Baltica's marks never name or
place a block hidden from the viewer."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from rules import gm_orders
from rules.empires_in_arms import gm_orders as eia_gm_orders
from rules.empires_in_arms import presenters as eia
from rules.empires_in_arms.forms.orders import (
    ConquestOrderForm,
    EconomicOrderForm,
    LandOrderForm,
    PeaceOrderForm,
    RevoltOrderForm,
)
from rules.empires_in_arms.state import Corps, Depot, Guerrilla, Revolt
from rules.marks import OrderMark
from rules.pax_baltica import gm_orders as pb_gm_orders
from rules.pax_baltica import presenters as pb
from rules.pax_baltica.forms.orders import (
    ActionOrderForm,
    ForageOrderForm,
    RecruitmentOrderForm,
)
from rules.virgin_queen import gm_orders as vq_gm_orders
from rules.virgin_queen import presenters as vq
from rules.virgin_queen.forms.orders import ImpulseOrderForm
from tests.unit import pb_world, vq_world


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def ordered(form_class, world, power: str, data: dict) -> dict:
    """The payload the power's order form produces from ``data``."""
    form = form_class(data, world=world, power_key=power)
    assert form.is_valid(), form.errors
    return form.payload()


def with_gm_move(payload: dict, module, world, power: str, target: str) -> dict:
    """``payload`` with a line for the GM moving a piece, as the GM order form stores it."""
    pieces = {piece.id: piece for piece in module.pieces(world, power)}
    line = gm_orders.check_line(
        1,
        {"kind": gm_orders.MOVE, "target": target},
        kinds=(gm_orders.MOVE,),
        pieces=pieces,
        places=module.places(world),
    )
    return {**payload, gm_orders.KEY: {"lines": [line], "note": ""}}


# -- Empires in Arms ----------------------------------------------------------------


@pytest.fixture
def eia_world(world):
    """The unit tests' map, Spain and Great Britain at war with France: French corps I,
    7 Spanish guerrilla factors and a French depot in French-held Andalusia; Spanish
    corps II and 2 Spanish guerrilla factors in Castile; Great Britain's revolt in the
    Palatinate."""
    world.wars |= {frozenset(("france", "spain")), frozenset(("france", "great_britain"))}
    world.corps += [Corps(5, "france", "andalusia", "I"), Corps(6, "spain", "castile", "II")]
    world.guerrillas += [
        Guerrilla(12, "andalusia", "spain", 7, "andalusia", revolt=False),
        Guerrilla(13, "castile", "spain", 2, "castile", revolt=False),
    ]
    world.depots.append(Depot(1, "france", "andalusia"))
    world.revolts.append(Revolt(7, "great_britain", "palatinate", 3))
    return world


def test_eia_revolt_attempts_are_arrows_from_the_sponsors_nearest_area(eia_world):
    orders = {
        "spain": ordered(RevoltOrderForm, eia_world, "spain", {"targets": ["andalusia"]}),
        "austria": ordered(RevoltOrderForm, eia_world, "austria", {"targets": ["hesse"]}),
    }
    assert eia.order_marks(eia_world, orders, None) == [
        # Castile and Granada are both next to Andalusia: the first by key
        OrderMark(
            "incite", "spain", "andalusia", "castile", label="Spain incites a revolt in Andalusia"
        ),
        # Austria holds no area linked to Hesse: a marker only
        OrderMark("incite", "austria", "hesse", label="Austria incites a revolt in Hesse"),
    ]


def test_eia_repeated_attempts_on_one_target_draw_one_arrow(eia_world):
    eia_world.options["attempt_limit"] = "per_target"
    payload = ordered(RevoltOrderForm, eia_world, "spain", {"targets": ["andalusia"], "repeat": 2})
    assert payload == {"targets": ["andalusia", "andalusia"]}
    assert [mark.target for mark in eia.order_marks(eia_world, {"spain": payload}, None)] == [
        "andalusia"
    ]


def test_eia_the_sponsor_arrow_starts_at_the_fewest_steps(eia_world):
    """Andalusia – Granada (French now) – Castile: Spain's arrow comes from Castile."""
    links = {"andalusia": {"granada"}, "granada": {"andalusia", "castile"}}
    eia_world.adjacency = links | {"castile": {"granada"}}
    eia_world.areas["granada"].controller = "france"
    payload = ordered(RevoltOrderForm, eia_world, "spain", {"targets": ["andalusia"]})
    (mark,) = eia.order_marks(eia_world, {"spain": payload}, None)
    assert mark.source == "castile"


def test_eia_a_lapse_is_a_marker(eia_world):
    payload = ordered(PeaceOrderForm, eia_world, "great_britain", {"lapse": ["palatinate"]})
    assert eia.order_marks(eia_world, {"great_britain": payload}, None) == [
        OrderMark(
            "lapse",
            "great_britain",
            "palatinate",
            label="Great Britain lets its revolt in Palatinate lapse",
        )
    ]


def test_eia_land_phase_moves_are_arrows_and_operations_and_depot_attacks_markers(eia_world):
    orders = {
        "france": ordered(LandOrderForm, eia_world, "france", {"operations": ["andalusia"]}),
        "spain": ordered(
            LandOrderForm,
            eia_world,
            "spain",
            {"move_13": "granada", "depot_attacks": ["andalusia"]},
        ),
    }
    assert eia.order_marks(eia_world, orders, None) == [
        OrderMark(
            "operation", "france", "andalusia", label="France anti-guerrilla operation in Andalusia"
        ),
        OrderMark(
            "depot", "spain", "andalusia", label="Spain's guerrillas attack the depots in Andalusia"
        ),
        OrderMark(
            "move",
            "spain",
            "granada",
            "castile",
            label="2 guerrilla factors of Spain move from Castile to Granada",
        ),
    ]


def test_eia_a_conquest_choice_is_a_marker(eia_world):
    data = {"choice_palatinate": "client"}
    payload = ordered(ConquestOrderForm, eia_world, "great_britain", data)
    assert eia.order_marks(eia_world, {"great_britain": payload}, None) == [
        OrderMark(
            "conquest",
            "great_britain",
            "palatinate",
            label="If its revolt succeeds, Great Britain makes Palatinate its client state",
        )
    ]


def test_eia_aid_is_an_arrow_from_the_sponsor(eia_world):
    eia_world.revolts.append(Revolt(8, "spain", "andalusia", 2))
    orders = {
        "spain": ordered(EconomicOrderForm, eia_world, "spain", {"aid_andalusia": "3"}),
        "great_britain": ordered(
            EconomicOrderForm, eia_world, "great_britain", {"aid_palatinate": "2"}
        ),
    }
    assert eia.order_marks(eia_world, orders, None) == [
        OrderMark(
            "aid",
            "great_britain",
            "palatinate",
            label="Great Britain aids the revolt in Palatinate with $2",
        ),
        OrderMark(
            "aid",
            "spain",
            "andalusia",
            "castile",
            label="Spain aids the revolt in Andalusia with $3",
        ),
    ]


def test_eia_a_corps_move_for_the_gm_is_a_move_arrow(eia_world):
    payload = with_gm_move({}, eia_gm_orders, eia_world, "spain", "6:granada")
    assert eia.order_marks(eia_world, {"spain": payload}, None) == [
        OrderMark("move", "spain", "granada", "castile", label="move: corps II → Granada")
    ]


def test_eia_stale_orders_draw_nothing(eia_world):
    stale = {
        "targets": ["atlantis"],
        "lapse": ["atlantis"],
        "moves": [{"stack": 999, "to": "granada"}, {"stack": 13, "to": "atlantis"}],
        "operations": ["atlantis"],
        "depot_attacks": ["atlantis"],
        "choices": {"atlantis": "client", "palatinate": "annexed"},
        "aid": {"atlantis": 3},
        gm_orders.KEY: {
            "lines": [
                {"kind": "move", "piece": 999, "area": "granada"},
                {"kind": "move", "piece": 6, "area": "atlantis"},
                {"kind": "move", "piece": 6, "area": "castile"},  # already there
            ]
        },
    }
    orders = {"spain": stale, "martians": {"targets": ["castile"]}}
    assert eia.order_marks(eia_world, orders, None) == []


def test_eia_marks_come_power_by_power_in_the_worlds_order(eia_world):
    orders = {
        "spain": {"targets": ["palatinate"]},
        "france": {"targets": ["wallachia"]},
        "austria": {"targets": ["hesse"]},
    }
    marks = eia.order_marks(eia_world, orders, None)
    again = eia.order_marks(eia_world, dict(reversed(orders.items())), None)
    assert [mark.power for mark in marks] == ["france", "spain", "austria"]
    assert marks == again


# -- Pax Baltica ----------------------------------------------------------------------

COALITION_NAMES = (
    "Pyotr I",
    "Sheremetev",
    "Woronjetski",
    "August II",
    "Danish fleet",
    "Galley fleet",
    "Schulenburg",
    "Lubomirski",
)


@pytest.fixture
def pb_map():
    return pb_world.build_world()


def test_pb_recruitment_reinforcements_and_placements_are_markers(pb_map):
    data = {"reinforce_6": "1", "draws": "1", "steps_each": "0"}
    data |= {"place_1": "livland", "place_2": "stockholm"}
    payload = ordered(RecruitmentOrderForm, pb_map, "sweden", data)
    assert pb.order_marks(pb_map, {"sweden": payload}, None) == [
        OrderMark("reinforce", "sweden", "stockholm", label="Reinforcing Swedish fleet"),
        OrderMark(
            "place",
            "sweden",
            "livland",
            label="Sweden places new blocks in Livland (choice 1)",
        ),
        OrderMark(
            "place",
            "sweden",
            "stockholm",
            label="Sweden places new blocks in Stockholm (choice 2)",
        ),
    ]


def test_pb_placements_without_a_draw_draw_nothing(pb_map):
    payload = ordered(
        RecruitmentOrderForm, pb_map, "sweden", {"steps_each": "0", "place_1": "livland"}
    )
    assert payload["places"] == ["livland"]
    assert pb.order_marks(pb_map, {"sweden": payload}, None) == []


def test_pb_a_fleet_move_is_an_arrow_along_its_path(pb_map):
    payload = ordered(ActionOrderForm, pb_map, "denmark", {"move_7": "kurland"})
    assert payload["fleet_moves"] == [
        {"fleet": 7, "path": ["southern_baltic", "central_baltic", "kurland"]}
    ]
    assert pb.order_marks(pb_map, {"denmark": payload}, None) == [
        OrderMark(
            "fleet",
            "denmark",
            "kurland",
            "copenhagen",
            ("southern_baltic", "central_baltic"),
            "Danish fleet moves from Copenhagen to Kurland",
        )
    ]


def test_pb_actions_reinforcement_and_siege_are_markers(pb_map):
    data = {"act_6": "1", "siege_lietuva": "on"}
    payload = ordered(ActionOrderForm, pb_map, "sweden", data)
    assert pb.order_marks(pb_map, {"sweden": payload}, None) == [
        OrderMark("reinforce", "sweden", "stockholm", label="Reinforcing Swedish fleet"),
        OrderMark("siege", "sweden", "lietuva", label="Besiege Lietuva with Karl XII"),
    ]


def test_pb_a_land_move_for_the_gm_is_a_move_arrow(pb_map):
    payload = with_gm_move({}, pb_gm_orders, pb_map, "russia", "2:livland")
    assert pb.order_marks(pb_map, {"russia": payload}, None) == [
        OrderMark("move", "russia", "livland", "kurland", label="move: Pyotr I (army) → Livland")
    ]


def test_pb_forage_loss_orders_name_no_territory(pb_map):
    payload = ordered(ForageOrderForm, pb_map, "russia", {"loss_2": "1", "loss_4": "2"})
    assert payload == {"loss_order": [2, 4]}
    assert pb.order_marks(pb_map, {"russia": payload}, None) == []


def test_pb_stale_orders_draw_nothing(pb_map):
    stale = {
        "reinforce": [{"block": 999, "steps": 1}, {"block": 11, "steps": 1}],  # 11: in the pool
        "draws": 1,
        "places": ["atlantis"],
        "fleet_moves": [
            {"fleet": 999, "path": ["central_baltic"]},
            {"fleet": 6, "path": ["atlantis"]},
            {"fleet": 1, "path": ["central_baltic"]},  # an army, not a fleet
        ],
        "sieges": [
            {"territory": "atlantis", "blocks": [1]},
            {"territory": "lietuva", "blocks": [999]},
        ],
        gm_orders.KEY: {"lines": [{"kind": "move", "piece": 1, "area": "atlantis"}]},
    }
    assert pb.order_marks(pb_map, {"sweden": stale, "poland": {"draws": 1}}, None) == []


def every_nations_orders(world) -> dict[str, dict]:
    """Orders of both sides: each names its blocks and places new ones."""
    return {
        "sweden": {
            "reinforce": [{"block": 6, "actions": 1}],
            "fleet_moves": [{"fleet": 6, "path": ["central_baltic"]}],
            "sieges": [{"territory": "lietuva", "blocks": [1]}],
        },
        "russia": with_gm_move(
            {"fleet_moves": [{"fleet": 8, "path": ["kurland"]}]},
            pb_gm_orders,
            world,
            "russia",
            "2:livland",
        ),
        "saxony": {"draws": 2, "places": ["lausitz"], "reinforce": [{"block": 5, "steps": 1}]},
        "denmark": {"fleet_moves": [{"fleet": 7, "path": ["southern_baltic"]}]},
    }


@pytest.mark.parametrize("reader", ["sweden", "russia"])
def test_pb_a_side_sees_marks_of_its_own_orders_only(pb_map, reader):
    viewer = pb.sees(pb_map, reader)
    hidden = {b.name for b in pb_map.blocks.values() if not pb.visible(b, viewer)}
    marks = pb.order_marks(pb_map, every_nations_orders(pb_map), viewer)
    assert marks and {mark.power for mark in marks} <= viewer
    assert not [mark for mark in marks if any(name in mark.label for name in hidden)]


def test_pb_the_gm_sees_every_sides_marks(pb_map):
    marks = pb.order_marks(pb_map, every_nations_orders(pb_map), None)
    assert [mark.power for mark in marks] == ["sweden"] * 3 + ["russia"] * 2 + ["saxony"] * 2 + [
        "denmark"
    ]


def test_pb_an_order_naming_another_nations_block_draws_nothing(pb_map):
    forged = {
        "reinforce": [{"block": 2, "steps": 1}],
        "fleet_moves": [{"fleet": 8, "path": ["kurland"]}],
        "sieges": [{"territory": "kurland", "blocks": [2, 3]}],
        gm_orders.KEY: {"lines": [{"kind": "move", "piece": 2, "area": "livland"}]},
    }
    marks = pb.order_marks(pb_map, {"sweden": forged}, pb.sees(pb_map, "sweden"))
    assert marks == []
    assert not any(name in str(marks) for name in COALITION_NAMES)


# -- Virgin Queen ---------------------------------------------------------------------


@pytest.fixture
def loaded():
    return SimpleNamespace(world=vq_world.build_world(), pending=None)


def test_vq_a_conversion_marks_the_spaces_it_may_turn_catholic(loaded):
    data = {"action": "conversion", "zones": ["france"], "attempts": "3"}
    payload = ordered(ImpulseOrderForm, loaded, "france", data)
    label = "France: 3 conversion attempts in France"
    # Clermont's only link is Protestant Lyon; the rest of France is Catholic already
    assert vq.order_marks(loaded, {"france": payload}, None) == [
        OrderMark("conversion", "france", key, label=label)
        for key in ("dijon", "la_rochelle", "lyon", "nantes", "rouen")
    ]


def test_vq_a_conversion_in_two_zones_names_both(loaded):
    data = {"action": "conversion", "zones": ["france", "netherlands"], "attempts": "1"}
    payload = ordered(ImpulseOrderForm, loaded, "spain", data)
    marks = vq.order_marks(loaded, {"spain": payload}, None)
    assert {mark.label for mark in marks} == {
        "Spain: 1 conversion attempt in France and the Netherlands"
    }
    assert {"antwerp", "utrecht", "lyon"} <= {mark.target for mark in marks}


def test_vq_a_revolt_is_a_marker_on_its_target(loaded):
    data = {"action": "revolt", "target": "lyon", "cp": "3"}
    payload = ordered(ImpulseOrderForm, loaded, "protestant", data)
    assert vq.order_marks(loaded, {"protestant": payload}, None) == [
        OrderMark("revolt", "protestant", "lyon", label="Revolt in Lyon (3 CP)")
    ]


@pytest.mark.parametrize("action", ["espionage", "other", "pass"])
def test_vq_actions_played_at_the_table_name_no_space(loaded, action):
    loaded.world.turn = 3  # espionage begins on turn 3
    payload = ordered(ImpulseOrderForm, loaded, "france", {"action": action, "note": "Lyon"})
    assert vq.order_marks(loaded, {"france": payload}, None) == []


def test_vq_a_unit_move_for_the_gm_is_a_move_arrow(loaded):
    payload = with_gm_move({"action": "pass"}, vq_gm_orders, loaded, "france", "1:orleans")
    assert vq.order_marks(loaded, {"france": payload}, None) == [
        OrderMark(
            "move", "france", "orleans", "paris", label="move: 2 regular units in Paris → Orléans"
        )
    ]


def test_vq_stale_orders_draw_nothing(loaded):
    orders = {
        "france": {"action": "conversion", "zones": ["atlantis"], "attempts": 2},
        "protestant": {"action": "revolt", "target": "atlantis", "cp": 3},
    }
    assert vq.order_marks(loaded, orders, None) == []


def test_vq_marks_come_power_by_power_in_the_worlds_order(loaded):
    orders = {
        "protestant": {"action": "revolt", "target": "lyon", "cp": 3},
        "france": {"action": "conversion", "zones": ["netherlands"], "attempts": 1},
    }
    marks = vq.order_marks(loaded, orders, None)
    assert [mark.power for mark in marks] == ["france", "france", "protestant"]
    assert marks == vq.order_marks(loaded, dict(reversed(orders.items())), None)
