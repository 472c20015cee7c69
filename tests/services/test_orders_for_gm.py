"""Orders for the GM below the views: the lines' checks and texts (rules/gm_orders.py),
each ruleset's declaration, the resolver that never reads them, their reveal in the log
(in full only to those who see the power's pieces where the game hides them), and the
GM carrying them out."""

from __future__ import annotations

import pytest
from django.http import Http404

from campaign.errors import Conflict
from campaign.models import Order, Seat
from campaign.play import gm_edits, gm_orders
from campaign.play.gm_order_forms import GmOrdersForm
from campaign.presenters import visible_text
from rules import gm_orders as gmo
from rules.empires_in_arms.models import Corps
from rules.engine import ruleset_for
from rules.forms import row_item
from rules.pax_baltica.models import Block
from rules.text import Text
from rules.translation import localized
from rules.virgin_queen.models import VqUnits
from tests.factories import (
    make_eia_campaign,
    make_pb_campaign,
    make_vq_campaign,
    seat_users,
    swap_resolver,
)
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db
CORPS = gmo.Piece(7, Text("corps %(name)s", name="I"), "palatinate", ("andalusia",))
PLACES = {"palatinate": "Palatinate", "andalusia": "Andalusia", "minor-5": "Minor 005"}


def check(line: dict, kinds=(gmo.MOVE, gmo.BATTLE)) -> dict:
    return gmo.check_line(3, line, kinds=kinds, pieces={7: CORPS}, places=PLACES)


def refusal(line: dict, kinds=(gmo.MOVE, gmo.BATTLE)) -> str:
    with pytest.raises(gmo.Refused) as refused:
        check(line, kinds)
    return str(refused.value.args[0])


# -- the lines --------------------------------------------------------------------------


def test_a_move_goes_to_an_adjacent_area():
    line = check({"kind": "move", "target": "7:andalusia", "text": ""})
    assert line == {"kind": "move", "piece": 7, "area": "andalusia"}
    assert gmo.describe(line, {7: CORPS}, PLACES) == "move: corps I → Andalusia"


def test_a_battle_is_fought_where_the_force_stands_or_next_to_it():
    line = check({"kind": "battle", "target": "7:palatinate", "text": " with the Guard "})
    assert line == {"kind": "battle", "piece": 7, "area": "palatinate", "text": "with the Guard"}
    said = gmo.describe(line, {7: CORPS}, PLACES)
    assert said == "battle: corps I attacks in Palatinate (with the Guard)"


@pytest.mark.parametrize(
    "line, why",
    [
        ({"kind": "move", "target": "7:minor-5"}, "cannot reach Minor 005 from Palatinate"),
        ({"kind": "move", "target": "7:palatinate"}, "corps I is already in Palatinate"),
        ({"kind": "move", "target": "8:andalusia"}, "“8” is not one of your units"),
        ({"kind": "move", "target": "٧:andalusia"}, "“٧” is not one of your units"),
        ({"kind": "move", "target": "7:atlantis"}, "there is no area “atlantis”"),
        ({"kind": "move", "target": "7"}, "does not name a unit and an area"),
        ({"kind": "move", "target": ""}, "choose the unit and the area"),
        ({"kind": "card", "text": "Armada"}, "“card” is not a kind of order"),
        ({"kind": "move", "target": "7:andalusia", "text": "x" * 201}, "at most 200 characters"),
    ],
)
def test_a_line_that_cannot_be_given_says_why(line, why):
    said = refusal(line)
    assert said.startswith("Line 3: ") and why in said


def test_a_card_needs_its_name():
    assert check({"kind": "card", "text": "Armada"}, (gmo.CARD,)) == {
        "kind": "card",
        "text": "Armada",
    }
    assert "give the name of the card" in refusal({"kind": "card", "text": " "}, (gmo.CARD,))


def test_the_note_and_the_number_of_lines_have_limits():
    assert gmo.check_note(" ok ") == "ok"
    with pytest.raises(gmo.Refused):
        gmo.check_note("x" * (gmo.MAX_NOTE + 1))
    gmo.check_count(gmo.MAX_LINES)
    with pytest.raises(gmo.Refused):
        gmo.check_count(gmo.MAX_LINES + 1)


def test_a_line_carried_out_stays_so_when_given_again_unchanged():
    move = {"kind": "move", "piece": 7, "area": "andalusia"}
    before = {gmo.KEY: {"lines": [{**move, "done": True}], "note": ""}}
    again = {"lapse": [], gmo.KEY: {"lines": [move, {**move, "area": "minor-5"}], "note": ""}}
    kept = gmo.lines_of(gmo.keep_done(before, again))
    assert [line.get("done", False) for line in kept] == [True, False]
    assert gmo.keep_done(before, {"lapse": []}) == {"lapse": []}
    assert gmo.digest(move) == gmo.digest({**move, "done": True})


def test_the_edit_line_names_the_order_it_carries_out():
    line = gmo.edit_line("alice", "France corps I in Bavaria", gmo.carrying_out("France", 2))
    assert line == "GM alice, carrying out France's order 2: France corps I in Bavaria."
    assert gmo.edit_line("alice", "x") == "GM alice: x."


# -- the declarations ---------------------------------------------------------------------


def test_each_ruleset_declares_its_kinds_of_line():
    assert ruleset_for("empires_in_arms").gm_orders.kinds == (gmo.MOVE, gmo.BATTLE)
    assert ruleset_for("pax_baltica").gm_orders.kinds == (gmo.MOVE, gmo.BATTLE)
    assert ruleset_for("virgin_queen").gm_orders.kinds == (gmo.MOVE, gmo.BATTLE, gmo.CARD)
    assert ruleset_for("pax_baltica").gm_orders.rules == ("GNW-3",)


def test_eia_offers_the_powers_own_corps_and_their_neighbours():
    campaign = make_eia_campaign()
    rules = campaign.rules
    form = GmOrdersForm(ruleset=rules, world=rules.load_world(campaign), power_key="france")
    offered = {p.label: (p.area, p.reach) for p in form.offer.pieces.values()}
    assert offered == {
        "corps I": ("palatinate", ("andalusia",)),
        "corps II": ("old-castile", ("andalusia", "minor-0")),
    }
    assert not GmOrdersForm(
        ruleset=rules, world=rules.load_world(campaign), power_key="austria"
    ).offer.kinds  # no corps: nothing to move, and no card in this game


def test_pax_baltica_offers_armies_and_regiments_on_land_not_fleets():
    campaign = make_pb_campaign()
    rules = campaign.rules
    form = GmOrdersForm(ruleset=rules, world=rules.load_world(campaign), power_key="sweden")
    labels = {str(p.label) for p in form.offer.pieces.values()}
    assert {"Karl XII (army)", "Upplands (regiment)"} <= labels
    assert not {"Wachtmeister (fleet)", "Dalregementet (regiment)"} & labels  # fleet, pool
    upplands = next(p for p in form.offer.pieces.values() if "Upplands" in p.label)
    assert upplands.reach == ("livland", "velikaya")  # land links only, not sea zones


def test_virgin_queen_offers_unit_stacks_by_land_and_naval_stacks_by_sea():
    campaign = make_vq_campaign()
    rules = campaign.rules
    form = GmOrdersForm(ruleset=rules, world=rules.load_world(campaign), power_key="spain")
    by_kind = {p.label: p for p in form.offer.pieces.values()}
    naval = next(p for label, p in by_kind.items() if "naval" in label)
    assert naval.area == "antwerp" and "amsterdam" in naval.reach
    assert form.offer.kinds == (gmo.MOVE, gmo.BATTLE, gmo.CARD)


# -- resolution ---------------------------------------------------------------------------

LINE = {"kind": "move", "area": "andalusia"}


def france_lines(campaign, note="") -> dict:
    corps = Corps.objects.get(campaign=campaign, name="I")
    return {gmo.KEY: {"lines": [{**LINE, "piece": corps.pk}], "note": note}}


def test_the_resolver_reads_the_orders_without_the_lines_for_the_gm(monkeypatch):
    campaign = make_eia_campaign()
    order(campaign, "france", {"lapse": [], **france_lines(campaign)})
    seen = []
    real = swap_resolver(
        monkeypatch, "empires_in_arms", "peace", lambda c: seen.append(c.orders) or real(c)
    )
    resolve(campaign)
    assert seen == [{"france": {"lapse": []}}]
    kept = Order.objects.get(campaign=campaign, power__key="france")
    assert gmo.KEY in kept.payload  # still with the orders, for the record and the export


def test_the_reveal_is_one_log_line_per_power_with_the_rule(monkeypatch):
    campaign = make_eia_campaign()
    order(campaign, "france", {"lapse": [], **france_lines(campaign, "Hold")})
    order(campaign, "spain", {"lapse": []})
    resolve(campaign)
    lines = list(campaign.events.filter(text__contains="orders for the GM"))
    assert [e.text for e in lines] == [
        "France's orders for the GM: 1. move: corps I → Andalusia; note: Hold."
    ]
    assert lines[0].rule == "EIA-4" and lines[0].power.key == "france" and lines[0].audience == []


def test_no_reveal_when_the_campaign_keeps_them_private():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    assert gm_orders.set_reveal(campaign_id=campaign.pk, reveal=False, actor=users["gm"])
    version = campaign.__class__.objects.get(pk=campaign.pk).state_version
    gm_orders.set_reveal(campaign_id=campaign.pk, reveal=False, actor=users["gm"])  # no change
    assert campaign.__class__.objects.get(pk=campaign.pk).state_version == version
    assert campaign.events.filter(text__contains="stay between the GM").count() == 1
    order(campaign, "france", {"lapse": [], **france_lines(campaign)})
    resolve(campaign)
    assert not campaign.events.filter(text__contains="orders for the GM:").exists()


def test_pax_baltica_reveals_the_lines_to_the_side_alone():
    campaign = make_pb_campaign()
    upplands = Block.objects.get(campaign=campaign, name="Upplands")
    line = {"kind": "move", "piece": upplands.pk, "area": "livland"}
    order(campaign, "sweden", {gmo.KEY: {"lines": [line], "note": ""}})
    resolve(campaign)
    event = campaign.events.get(text__contains="orders for the GM")
    assert event.text == "Sweden's orders for the GM: 1. move: Upplands (regiment) → Livland."
    assert sorted(event.audience) == ["sweden"]
    assert visible_text(event, frozenset({"russia", "saxony", "denmark"})) == (
        "Sweden gave orders for the GM."
    )
    assert "Upplands" in visible_text(event, frozenset({"sweden"}))
    assert "Upplands" in visible_text(event, None)  # the GM and observers


# -- carrying out -------------------------------------------------------------------------


@pytest.fixture
def eia():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    order(campaign, "france", {"lapse": [], **france_lines(campaign)})
    gm = Seat.objects.select_related("campaign").get(campaign=campaign, role="gm")
    return campaign, users, gm, Order.objects.get(campaign=campaign, power__key="france")


def digest_of(order_: Order) -> str:
    return gmo.digest(gmo.lines_of(order_.payload)[0])


def test_find_refuses_another_campaigns_order_and_a_closed_phase(eia):
    campaign, _, gm, order_ = eia
    other = make_eia_campaign()
    order(other, "france", {"lapse": [], **france_lines(other)})
    theirs = Order.objects.get(campaign=other, power__key="france")
    with pytest.raises(Http404):
        gm_orders.find(gm, theirs.pk, 1, digest_of(theirs))
    with pytest.raises(Http404):
        gm_orders.find(gm, order_.pk, 2, digest_of(order_))
    with pytest.raises(Conflict):
        gm_orders.find(gm, order_.pk, 1, "0" * 16)
    resolve(campaign)
    with pytest.raises(Conflict):
        gm_orders.find(gm, order_.pk, 1, digest_of(order_))


def test_a_battle_prefills_the_corps_as_having_fought_there():
    from rules.empires_in_arms import gm_orders as eia_orders

    campaign = make_eia_campaign()
    world = campaign.rules.load_world(campaign)
    corps = Corps.objects.get(campaign=campaign, name="II")
    prefill = eia_orders.carry_out(world, {"kind": "battle", "piece": corps.pk, "area": "minor-0"})
    assert prefill == gmo.Prefill(
        "corps",
        str(corps.pk),
        {"area": "minor-0", "fought": True, "besieged": False, "besieging": False},
    )


def test_a_virgin_queen_move_is_carried_out_by_the_units_move_edit():
    from rules.virgin_queen.forms.edits import EDIT_FORMS

    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    campaign.refresh_from_db()
    spanish = VqUnits.objects.get(campaign=campaign, power__key="spain", kind="regular")
    line = {"kind": "move", "piece": spanish.pk, "area": "brussels"}
    world = campaign.rules.load_world(campaign)
    prefill = gm_orders.declared_module(campaign.rules).carry_out(world, line)
    assert prefill == gmo.Prefill(
        "units_move", "new", {"stack": spanish.pk, "to": "brussels", "count": 2}
    )
    form_class = EDIT_FORMS[prefill.edit]
    (blank,) = form_class.instances(world)
    assert row_item(blank) == prefill.item
    form = form_class({k: str(v) for k, v in prefill.values.items()}, world=world)
    assert form.is_valid(), form.errors
    said = gm_edits.apply(
        form, campaign=campaign, actor=users["gm"], carrying_out=gmo.carrying_out("Spain", 1)
    )
    assert localized(said) == "2 Spain regular units move from Antwerp to Brussels"
    assert VqUnits.objects.get(pk=spanish.pk).area.key == "brussels"
    assert campaign.events.filter(text__contains="carrying out Spain's order 1: 2 Spain").exists()


def test_the_gm_marks_a_line_done_and_the_log_keeps_its_content_for_later(eia):
    campaign, users, gm, order_ = eia
    gm_orders.mark_done(
        seat=gm, order_id=order_.pk, number=1, digest=digest_of(order_), actor=users["gm"]
    )
    assert gmo.lines_of(Order.objects.get(pk=order_.pk).payload)[0]["done"] is True
    said = campaign.events.latest("pk").text
    assert "carried out France's order 1" in said and "Andalusia" not in said
    resolve(campaign)
    assert campaign.events.filter(text__contains="Andalusia (carried out)").exists()
