"""The orders given, as sentences (each ruleset's presenter ``order_text``): what the GM's
list of the orders given and the area panel read, for the payloads the order forms
produce, in the reader's language; an area or block no longer there is left out."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from campaign.presenters import order_rows, orders_said
from rules.empires_in_arms import presenters as eia
from rules.empires_in_arms.forms.orders import (
    ConquestOrderForm,
    EconomicOrderForm,
    LandOrderForm,
    RevoltOrderForm,
)
from rules.empires_in_arms.state import Revolt
from rules.pax_baltica import presenters as pb
from rules.pax_baltica.forms.orders import ActionOrderForm, ForageOrderForm, RecruitmentOrderForm
from rules.translation import Name
from rules.virgin_queen import presenters as vq
from rules.virgin_queen.forms.orders import ImpulseOrderForm
from tests.unit import pb_world, vq_world
from tests.unit.test_order_marks import eia_world, ordered  # noqa: F401 (a fixture)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_eia_revolt_attempts_say_how_many_and_their_cost(eia_world):  # noqa: F811
    eia_world.options["attempt_limit"] = "per_target"
    data = {"targets": ["andalusia", "hesse"], "repeat": 2}
    payload = ordered(RevoltOrderForm, eia_world, "spain", data)
    assert eia.order_text(eia_world, "spain", payload) == [
        "Spain makes 2 revolt attempts in Andalusia (2 PP)",
        "Spain makes 2 revolt attempts in Hesse (2 PP)",
    ]


def test_eia_land_orders_aid_and_conquest_read_as_sentences(eia_world):  # noqa: F811
    eia_world.revolts.append(Revolt(8, "spain", "andalusia", 2))
    land = ordered(
        LandOrderForm, eia_world, "spain", {"move_13": "granada", "depot_attacks": ["andalusia"]}
    )
    aid = ordered(EconomicOrderForm, eia_world, "great_britain", {"aid_palatinate": "2"})
    conquest = ordered(
        ConquestOrderForm, eia_world, "great_britain", {"choice_palatinate": "client"}
    )
    assert eia.order_text(eia_world, "spain", land) == [
        "Spain's guerrillas attack the depots in Andalusia",
        "2 guerrilla factors of Spain move from Castile to Granada",
    ]
    assert eia.order_text(eia_world, "great_britain", aid) == [
        "Great Britain aids the revolt in Palatinate with $2"
    ]
    assert eia.order_text(eia_world, "great_britain", conquest) == [
        "If its revolt succeeds, Great Britain makes Palatinate its client state"
    ]


def test_eia_an_area_no_longer_there_is_left_out(eia_world):  # noqa: F811
    assert eia.order_text(eia_world, "spain", {"targets": ["atlantis"], "aid": {}}) == []


def test_pb_recruitment_says_steps_draws_and_places():
    world = pb_world.build_world()
    data = {"reinforce_6": "1", "draws": "1", "steps_each": "2", "place_1": "livland"}
    payload = ordered(RecruitmentOrderForm, world, "sweden", data)
    assert pb.order_text(world, "sweden", payload) == [
        "Swedish fleet: 1 step bought with RP (GNW-7)",
        "Draw 1 block from the pool, 2 steps each (GNW-10)",
        "Sweden places new blocks in Livland (choice 1)",
    ]


def test_pb_actions_and_forage_read_as_sentences():
    world = pb_world.build_world()
    actions = ordered(ActionOrderForm, world, "sweden", {"act_6": "1", "siege_lietuva": "on"})
    forage = ordered(ForageOrderForm, world, "russia", {"loss_2": "1", "loss_4": "2"})
    assert pb.order_text(world, "sweden", actions) == [
        "Swedish fleet: 1 action to add steps (GNW-8)",
        "Besiege Lietuva with Karl XII",
    ]
    names = ", ".join(world.blocks[i].name for i in (2, 4))
    assert pb.order_text(world, "russia", forage) == [
        f"Forage losses after the first, in this order: {names} (GNW-4)"
    ]


@pytest.fixture
def loaded():
    return SimpleNamespace(world=vq_world.build_world(), pending=None)


def test_vq_each_action_reads_as_a_sentence(loaded):
    conversion = {"action": "conversion", "zones": ["france"], "attempts": "3"}
    conversion = ordered(ImpulseOrderForm, loaded, "france", conversion)
    revolt = ordered(
        ImpulseOrderForm, loaded, "protestant", {"action": "revolt", "target": "lyon", "cp": "3"}
    )
    other = ordered(ImpulseOrderForm, loaded, "spain", {"action": "other", "note": "a card"})
    assert vq.order_text(loaded, "france", conversion) == [
        "France: 3 conversion attempts in France"
    ]
    assert vq.order_text(loaded, "protestant", revolt) == ["Revolt in Lyon (3 CP)"]
    assert vq.order_text(loaded, "spain", other) == [
        "Spain takes another action, played at the table: “a card”"
    ]


def test_the_gm_rows_read_the_presenters_sentences_not_the_payload(eia_world):  # noqa: F811
    power = SimpleNamespace(pk=1, key="spain", name="Spain")
    order = SimpleNamespace(payload={"targets": ["andalusia"]}, ready=True)
    (row,) = order_rows([power], {1: order}, said=orders_said(eia, eia_world))
    assert row.lines == ("Spain makes 1 revolt attempt in Andalusia (1 PP)",)
    (plain,) = order_rows([power], {1: order})  # a ruleset whose presenter says nothing
    assert plain.lines == ("targets: andalusia",)


def test_the_sentences_are_in_the_readers_language(eia_world):  # noqa: F811
    """The World's names are the scenario's words (rules.translation.Name): the sentence
    and the names in it read Greek."""
    eia_world.powers["spain"].name = Name("Spain")
    eia_world.areas["andalusia"].name = Name("Andalusia")
    with translation.override("el"):
        (line,) = eia.order_text(eia_world, "spain", {"targets": ["andalusia"]})
    assert line == "Η δύναμη Ισπανία κάνει 1 απόπειρα εξέγερσης στην περιοχή Ανδαλουσία (1 ΠΠ)"
