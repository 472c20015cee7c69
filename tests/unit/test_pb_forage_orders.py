"""Pax Baltica's forage loss orders (GNW-4, Decision 2): a nation owes them, and its
order form offers them, exactly where its loss order can change which blocks lose steps
(rules/pax_baltica/legal.py: forage_loss_choices)."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.pax_baltica.forms.orders import ForageOrderForm
from rules.pax_baltica.legal import forage_loss_choices, orders_forage_losses
from rules.pax_baltica.state import ARMY, REGIMENT, Block
from tests.unit.pb_world import build_world


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def russia_with(*blocks: Block, **options):
    """The small world with Russia's armies and regiments replaced by ``blocks``."""
    world = build_world(**options)
    world.blocks = {
        k: b
        for k, b in world.blocks.items()
        if b.nation != "russia" or b.kind not in (ARMY, REGIMENT)
    }
    world.blocks |= {b.id: b for b in blocks}
    return world


def army(block_id: int, strength: int, where: str = "rzhev") -> Block:
    return Block(block_id, "russia", ARMY, f"Army {block_id}", strength, 4, "C2", 0, where)


def regiment(block_id: int, strength: int, where: str = "rzhev") -> Block:
    return Block(block_id, "russia", REGIMENT, f"Regiment {block_id}", strength, 3, "C1", 0, where)


def form(world, nation: str = "russia", data=None) -> ForageOrderForm:
    return ForageOrderForm(data, world=world, power_key=nation)


def test_no_shortage_owes_nothing_and_the_form_says_so():
    world = russia_with(regiment(20, 3), regiment(21, 2))  # Rzhev: demand 2, FP 2
    assert not orders_forage_losses(world, "russia")
    page = form(world)
    assert not page.fields and not page.has_choices
    assert page.warnings() == [
        "None of your territories is short of forage: no block loses a step (GNW-4)."
    ]
    assert "would change nothing" in page.nothing_to_order


def test_a_shortage_of_one_falls_on_the_strongest_whatever_the_order():
    world = russia_with(army(20, 4), regiment(21, 2))  # demand 3, FP 2: 1 short
    assert not orders_forage_losses(world, "russia")
    page = form(world)
    assert not page.has_choices
    assert page.warnings() == [
        "Rzhev is short of forage by 1 point: demand 3 FP, supply 2 FP, so its blocks lose 1 "
        "step, if any is above strength 1 (GNW-4)."
    ]


def test_a_shortage_of_one_between_equally_strong_blocks_is_the_orders_to_break():
    """The first loss falls on the strongest; of two as strong, on the first ordered."""
    world = russia_with(army(20, 3), regiment(21, 3))
    assert orders_forage_losses(world, "russia")
    assert set(form(world).fields) == {"loss_20", "loss_21"}


def test_a_shortage_of_two_offers_exactly_the_blocks_there():
    world = russia_with(
        army(20, 4), army(21, 3), regiment(22, 2, "velikaya"), regiment(23, 1, "velikaya")
    )  # Rzhev: demand 4, FP 2; Velikaya: demand 2, FP 2
    assert forage_loss_choices(world, "russia") == {"rzhev": [world.blocks[20], world.blocks[21]]}
    assert orders_forage_losses(world, "russia")
    page = form(world)
    assert page.has_choices and set(page.fields) == {"loss_20", "loss_21"}
    assert page.fields["loss_20"].max_value == 2
    valid = form(world, data={"loss_21": "1"})
    assert valid.is_valid(), valid.errors
    assert valid.payload() == {"loss_order": [21]}


def test_a_block_whose_place_changes_nothing_is_refused_by_name():
    world = russia_with(army(20, 4), army(21, 3), regiment(22, 2, "velikaya"))
    page = form(world, data={"loss_22": "1"})
    assert not page.is_valid()
    assert page.non_field_errors() == [
        "Regiment 22's place in the loss order would change nothing: reload the page to see "
        "where your loss order counts (GNW-4)."
    ]
    sweden = form(world, data={"loss_1": "1"})  # Karl XII: not one of Russia's
    assert not sweden.is_valid()
    assert sweden.non_field_errors() == ["Block #1 is not one of your blocks."]


def test_blocks_at_strength_one_leave_no_choice():
    world = russia_with(army(20, 4), army(21, 1))  # 2 short: both fall on Army 20
    assert not orders_forage_losses(world, "russia")


def test_always_the_strongest_owes_nothing():
    world = russia_with(army(20, 4), army(21, 3), forage_further_losses="strongest")
    assert not orders_forage_losses(world, "russia")
    page = form(world)
    assert not page.has_choices
    assert page.nothing_to_order == "Forage losses always fall on the strongest block (Decision 2)."


def test_where_the_other_side_eats_first_two_blocks_owe_without_counting():
    """Decision 7, shared: in Kurland (nobody's) Sweden's Karl XII may eat first; what it
    leaves would tell what it eats, so two Russian blocks there owe an order."""
    world = russia_with(regiment(20, 3, "kurland"), regiment(21, 2, "kurland"))
    world.blocks[1].location = "kurland"
    assert not orders_forage_losses(world, "russia")  # 3 FP: enough if counted
    world.options["forage_both_sides"] = "shared"
    assert orders_forage_losses(world, "russia")
    page = form(world)
    assert set(page.fields) == {"loss_20", "loss_21"}
    assert "share the forage points" in page.warnings()[0]


@pytest.mark.parametrize("options", [{}, {"forage_both_sides": "shared"}])
def test_the_form_offers_a_choice_exactly_when_the_phase_waits(options):
    world = build_world(**options)
    world.blocks[1].location = "kurland"
    for nation in world.nations:
        assert form(world, nation).has_choices == orders_forage_losses(world, nation), nation
