"""Every bad input of the issue is refused with a message a player understands, and
changes nothing: never a 500."""

import pytest
from django.urls import reverse

from campaign.models import Campaign, Order
from rules.empires_in_arms.forms.orders import LandOrderForm
from rules.empires_in_arms.models import Corps, EiaPowerStatus, GuerrillaStack
from rules.empires_in_arms.services import load_world
from tests.factories import snapshot

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def post_orders(client, campaign, data, **extra):
    payload = {"phase": campaign.phase_id, "ready": "1", **data}
    return client.post(reverse("campaign:orders", args=[campaign.pk]), payload, **extra)


def assert_refused(response, status, campaign, before, *phrases):
    assert response.status_code == status, response.content.decode()[:2000]
    html = response.content.decode()
    for phrase in phrases:
        assert phrase in html, phrase
    assert snapshot(campaign) == before


def great_britain(campaign):
    """Great Britain's political status row, to update."""
    return EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="great_britain")


@pytest.fixture
def revolt_step(campaign, advance_to):
    advance_to(campaign, "revolt")
    return campaign


@pytest.fixture
def land_step(campaign, advance_to):
    advance_to(campaign, "land")
    return campaign


@pytest.fixture
def economic_step(campaign, advance_to):
    advance_to(campaign, "economic")
    return campaign


# -- revolt attempts (EIA-1) ----------------------------------------------------------


def test_a_fourth_revolt_attempt_is_refused(revolt_step, client_as, users):
    EiaPowerStatus.objects.filter(power__campaign=revolt_step).update(political_points=10)
    before = snapshot(revolt_step)
    targets = ["minor-1", "minor-3", "minor-5", "minor-6"]
    response = post_orders(client_as("other_player"), revolt_step, {"targets": targets}, **HTMX)
    assert_refused(response, 422, revolt_step, before, "at most 3 revolt attempts", "EIA-1")


def test_a_target_held_by_yourself_is_refused(revolt_step, client_as):
    before = snapshot(revolt_step)
    response = post_orders(client_as("player"), revolt_step, {"targets": ["minor-0"]}, **HTMX)
    assert_refused(response, 422, revolt_step, before, "minor-0 cannot be a target", "EIA-1")


def test_a_target_already_in_revolt_is_refused(revolt_step, client_as):
    before = snapshot(revolt_step)
    client = client_as("other_player")
    response = post_orders(client, revolt_step, {"targets": ["palatinate"]}, **HTMX)
    assert_refused(response, 422, revolt_step, before, "not already in revolt")


def test_an_unknown_target_is_refused_without_htmx(revolt_step, client_as):
    before = snapshot(revolt_step)
    response = post_orders(client_as("player"), revolt_step, {"targets": ["atlantis"]})
    assert_refused(response, 422, revolt_step, before, "Your orders were not saved.", "<html")


def test_negative_political_points_are_no_bar_to_an_attempt_by_default(revolt_step, client_as):
    """Decision 8: by default an attempt needs no minimum PP; PP may go negative."""
    great_britain(revolt_step).update(political_points=-3)
    client = client_as("other_player")
    response = post_orders(client, revolt_step, {"targets": ["minor-1", "minor-3"]}, **HTMX)
    assert response.status_code == 200, response.content.decode()[:2000]
    order = Order.objects.get(phase_id=revolt_step.phase_id, power__key="great_britain")
    assert order.payload == {"targets": ["minor-1", "minor-3"]}


def test_an_attempt_below_the_optional_pp_minimum_is_refused(revolt_step, client_as):
    Campaign.objects.filter(pk=revolt_step.pk).update(options={"attempt_pp_minimum": 1})
    great_britain(revolt_step).update(political_points=0)
    before = snapshot(revolt_step)
    client = client_as("other_player")
    response = post_orders(client, revolt_step, {"targets": ["minor-1"]}, **HTMX)
    assert_refused(response, 422, revolt_step, before, "Each attempt needs at least 1 PP")


@pytest.mark.parametrize(
    ("repeat", "phrase"),
    [
        ("0", "Make at least 1 attempt"),
        ("4", "At most 3 attempts per target"),
        ("two", "must be a whole number"),
        ("²", "must be a whole number"),
        ("٣", "must be a whole number"),
        ("9" * 5000, "At most 3 attempts per target"),
    ],
)
def test_attempts_per_target_outside_one_to_three_are_refused(
    revolt_step, client_as, repeat, phrase
):
    Campaign.objects.filter(pk=revolt_step.pk).update(options={"attempt_limit": "per_target"})
    before = snapshot(revolt_step)
    data = {"targets": ["minor-1"], "repeat": repeat}
    response = post_orders(client_as("other_player"), revolt_step, data, **HTMX)
    assert_refused(response, 422, revolt_step, before, phrase, "EIA-1")


# -- aid (EIA-5) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "phrase"),
    [
        ("0", "Aid is at least $1"),
        ("7", "Aid is at most $6"),
        ("-2", "Aid is at least $1"),
        ("three", "whole number of dollars"),
        ("2.5", "whole number of dollars"),
        ("3.0", "whole number of dollars"),
        ("²", "whole number of dollars"),
        ("٣", "whole number of dollars"),
        ("３", "whole number of dollars"),
        ("9" * 40, "Aid is at most $6"),
        ("9" * 5000, "Aid is at most $6"),
        ("-" + "9" * 5000, "Aid is at least $1"),
    ],
)
def test_aid_outside_one_to_six_is_refused(economic_step, client_as, amount, phrase):
    before = snapshot(economic_step)
    client = client_as("other_player")
    response = post_orders(client, economic_step, {"aid_palatinate": amount}, **HTMX)
    assert_refused(response, 422, economic_step, before, phrase)


def test_aid_to_someone_elses_revolt_is_refused(economic_step, client_as):
    before = snapshot(economic_step)
    response = post_orders(client_as("player"), economic_step, {"aid_palatinate": "3"}, **HTMX)
    assert_refused(response, 422, economic_step, before, "only the sponsor aids its revolt")


def test_aid_beyond_the_treasury_is_refused(economic_step, client_as):
    great_britain(economic_step).update(treasury=2)
    before = snapshot(economic_step)
    client = client_as("other_player")
    response = post_orders(client, economic_step, {"aid_palatinate": "3"}, **HTMX)
    assert_refused(response, 422, economic_step, before, "your treasury holds $2")


# -- operations, moves, depot attacks (EIA-4, EIA-9, EIA-11) -------------------------


def test_an_operation_without_a_corps_is_refused(land_step, client_as):
    before = snapshot(land_step)
    client = client_as("player")
    response = post_orders(client, land_step, {"operations": ["minor-1"]}, **HTMX)
    assert_refused(response, 422, land_step, before, "need an eligible corps", "EIA-4")


def test_an_operation_with_a_corps_that_fought_is_refused(land_step, client_as):
    Corps.objects.filter(campaign=land_step, area__key="palatinate").update(fought=True)
    before = snapshot(land_step)
    client = client_as("player")
    response = post_orders(client, land_step, {"operations": ["palatinate"]}, **HTMX)
    assert_refused(response, 422, land_step, before, "You cannot operate in palatinate", "EIA-4")


def test_moving_revolt_guerrillas_out_of_their_area_is_refused(land_step, client_as):
    stack = GuerrillaStack.objects.get(campaign=land_step)
    before = snapshot(land_step)
    client = client_as("other_player")
    response = post_orders(client, land_step, {f"move_{stack.pk}": "andalusia"}, **HTMX)
    assert_refused(response, 422, land_step, before, f"no guerrilla stack #{stack.pk}", "EIA-9")


def test_a_spanish_guerrilla_move_out_of_spain_is_refused(land_step):
    old_castile = land_step.areas.get(key="old-castile")
    stack = GuerrillaStack.objects.create(
        campaign=land_step,
        area=old_castile,
        origin=old_castile,
        nationality=land_step.powers.get(key="spain"),
        factors=2,
        revolt=False,
    )
    world = load_world(land_step)
    form = LandOrderForm(
        {f"move_{stack.pk}": "minor-0"}, world=world, power_key="spain", initial_payload=None
    )
    assert not form.is_valid()
    assert "never leave their area of origin" in str(form.errors)


def test_a_depot_attack_without_enough_guerrillas_is_refused(land_step, client_as):
    before = snapshot(land_step)
    client = client_as("other_player")
    response = post_orders(client, land_step, {"depot_attacks": ["palatinate"]}, **HTMX)
    assert_refused(response, 422, land_step, before, "more than 6 guerrilla factors", "EIA-11")


def test_a_conquest_choice_other_than_client_or_conquered_is_refused(
    campaign, client_as, advance_to
):
    advance_to(campaign, "conquest")
    before = snapshot(campaign)
    data = {"choice_palatinate": "annexed"}
    response = post_orders(client_as("other_player"), campaign, data, **HTMX)
    assert_refused(response, 422, campaign, before, "Choose client state or conquered minor")


def test_a_conquest_choice_for_a_revolt_not_at_war_is_refused(campaign, client_as, advance_to):
    advance_to(campaign, "conquest")
    before = snapshot(campaign)
    data = {"choice_minor-1": "client"}
    response = post_orders(client_as("player"), campaign, data, **HTMX)
    assert_refused(response, 422, campaign, before, "minor-1 is not a revolt of yours", "EIA-8")


# -- phases, powers, campaigns --------------------------------------------------------


def test_orders_for_a_closed_phase_are_refused(campaign, client_as, advance_to):
    closed = campaign.phase_id
    advance_to(campaign, "revolt")
    before = snapshot(campaign)
    payload = {"phase": closed, "ready": "1", "lapse": ["palatinate"]}
    url = reverse("campaign:orders", args=[campaign.pk])
    response = client_as("other_player").post(url, payload, **HTMX)
    assert_refused(response, 409, campaign, before, "This phase is closed")


@pytest.mark.parametrize(
    ("phase", "status"),
    [
        ("", 400),  # not a number: the form is incomplete
        ("abc", 400),
        ("-1", 400),
        ("1.5", 400),
        ("9" * 30, 409),  # a number, but not the open phase
    ],
)
def test_a_malformed_phase_is_refused(campaign, client_as, phase, status):
    before = snapshot(campaign)
    url = reverse("campaign:orders", args=[campaign.pk])
    response = client_as("player").post(url, {"phase": phase, "ready": "1"}, **HTMX)
    assert response.status_code == status
    assert snapshot(campaign) == before


def test_orders_in_a_campaign_without_a_seat_are_404(campaign, client_as):
    before = snapshot(campaign)
    response = post_orders(client_as("outsider"), campaign, {})
    assert_refused(response, 404, campaign, before)


def test_orders_for_a_missing_campaign_are_404(campaign, client_as):
    url = reverse("campaign:orders", args=[campaign.pk + 1000])
    assert client_as("player").post(url, {"phase": "1"}).status_code == 404


def test_tampered_htmx_fields_of_another_phase_are_refused(campaign, client_as):
    before = snapshot(campaign)
    data = {"targets": ["minor-1"], "choice_minor-0": "client", "aid_palatinate": "3"}
    response = post_orders(client_as("player"), campaign, data, **HTMX)
    assert_refused(response, 422, campaign, before, "not saved")


def test_a_tampered_standing_order_is_refused(campaign, client_as):
    before = snapshot(campaign)
    url = reverse("campaign:standing", args=[campaign.pk])
    response = client_as("player").post(url, {"pays_bad_roll": "maybe"}, **HTMX)
    assert_refused(response, 422, campaign, before, "Choose whether to pay or not.")


def test_orders_by_get_are_not_allowed(campaign, client_as):
    response = client_as("player").get(reverse("campaign:orders", args=[campaign.pk]))
    assert response.status_code == 405


# -- the GM's forms -------------------------------------------------------------------


def gm_post(client, campaign, name, data, *args):
    return client.post(reverse(f"campaign:{name}", args=[campaign.pk, *args]), data)


@pytest.mark.parametrize(
    ("key", "data", "phrase"),
    [
        (
            "power",
            {"power": "france", "zone": "Dominant", "political_points": "lots", "treasury": "1"},
            "enter a whole number",
        ),
        (
            "power",
            {"power": "narnia", "zone": "Dominant", "political_points": "1", "treasury": "1"},
            "no such power",
        ),
        ("power", {"power": "france", "zone": "Glorious", "political_points": "1"}, "Zone"),
        ("area", {"area": "atlantis", "controller": ""}, "Area"),
        ("corps", {"corps": "999999", "area": "palatinate"}, "There is no such corps"),
        ("corps", {"corps": "x'; DROP TABLE", "area": "palatinate"}, "There is no such corps"),
        ("corps_remove", {"corps": "999999"}, "There is no such corps"),
        ("relation", {"a": "france", "b": "france", "kind": "war"}, "two different powers"),
        ("revolt", {"revolt": "1", "capital_held_months": "-1"}, "Months capital held"),
        ("revolt", {"revolt": "1", "capital_held_months": "٣"}, "Months capital held: enter"),
        ("revolt", {"revolt": "1", "capital_held_months": "9" * 5000}, "from 0 to 120"),
        ("spanish_field_loss", {"area": "palatinate"}, "not an unceded Spanish home province"),
        ("guerrilla", {"stack": "abc"}, "There is no such guerrilla stack"),
        ("depot_add", {"power": "france", "area": "palatinate", "garrison": "1e9"}, "Garrison"),
        ("depot_remove", {"depot": "1"}, "There is no such depot"),
    ],
)
def test_bad_gm_edits_are_refused(campaign, client_as, key, data, phrase):
    before = snapshot(campaign)
    response = gm_post(client_as("gm"), campaign, "edit", data, key)
    assert_refused(response, 422, campaign, before, phrase)


def test_an_unknown_gm_edit_is_404(campaign, client_as):
    before = snapshot(campaign)
    response = gm_post(client_as("gm"), campaign, "edit", {}, "teleport")
    assert_refused(response, 404, campaign, before)


def test_the_minor_of_a_corps_must_be_held_by_its_power(campaign, client_as):
    before = snapshot(campaign)
    data = {"power": "france", "area": "palatinate", "name": "X", "minor": "minor-1"}
    response = gm_post(client_as("gm"), campaign, "edit", data, "corps_add")
    assert_refused(response, 422, campaign, before, "is not controlled by France")


def test_resolving_a_phase_already_resolved_is_refused(campaign, client_as, advance_to):
    stale = campaign.phase_id
    advance_to(campaign, "revolt")
    before = snapshot(campaign)
    response = gm_post(client_as("gm"), campaign, "advance", {"phase": stale})
    assert_refused(response, 409, campaign, before, "already been resolved")


@pytest.mark.parametrize("faces", ["x", "0", "7", "1 2 three", "4,,9"])
def test_malformed_gm_dice_are_refused(campaign, client_as, faces):
    Campaign.objects.filter(pk=campaign.pk).update(dice_mode="scripted")
    before = snapshot(campaign)
    data = {"phase": campaign.phase_id, "faces": faces}
    response = gm_post(client_as("gm"), campaign, "advance", data)
    assert_refused(response, 422, campaign, before, "whole numbers from 1 to 6")


def test_a_malformed_phase_to_resolve_is_refused(campaign, client_as):
    before = snapshot(campaign)
    response = gm_post(client_as("gm"), campaign, "advance", {"phase": "first"})
    assert_refused(response, 422, campaign, before, "Enter a whole number")


def test_a_tampered_option_is_refused(campaign, client_as):
    before = snapshot(campaign)
    data = {"dice_mode": "loaded", "bad_roll": "modified_3"}
    response = gm_post(client_as("gm"), campaign, "options", data)
    assert_refused(response, 422, campaign, before, "Select a valid choice")


def test_seating_an_unknown_user_is_refused(campaign, client_as):
    seat = campaign.seats.get(power__key="spain")
    before = snapshot(campaign)
    response = gm_post(client_as("gm"), campaign, "seat", {"username": "nobody"}, seat.pk)
    assert_refused(response, 422, campaign, before, "There is no user called “nobody”.")


def test_seating_a_user_who_already_has_a_seat_is_refused(campaign, client_as, users):
    seat = campaign.seats.get(power__key="spain")
    before = snapshot(campaign)
    data = {"username": users["player"].username}
    response = gm_post(client_as("gm"), campaign, "seat", data, seat.pk)
    assert_refused(response, 422, campaign, before, "already has a seat")


def test_a_seat_of_another_campaign_is_404(campaign, client_as):
    from tests.factories import make_eia_campaign

    other = make_eia_campaign()
    seat = other.seats.get(power__key="spain")
    before = snapshot(campaign)
    response = gm_post(client_as("gm"), campaign, "seat", {"username": ""}, seat.pk)
    assert_refused(response, 404, campaign, before)


# -- invitations ----------------------------------------------------------------------


def test_an_invalid_invitation_is_404(client_as):
    response = client_as("outsider").get(reverse("campaign:join", args=["not-a-token"]))
    assert response.status_code == 404


def test_a_taken_seat_cannot_be_claimed(campaign, client_as):
    seat = campaign.seats.get(power__key="france")
    before = snapshot(campaign)
    response = client_as("outsider").post(reverse("campaign:join", args=[seat.invite_token]))
    assert_refused(response, 409, campaign, before, "already been taken")


def test_a_second_seat_in_one_campaign_cannot_be_claimed(campaign, client_as):
    seat = campaign.seats.get(power__key="spain")
    before = snapshot(campaign)
    response = client_as("player").post(reverse("campaign:join", args=[seat.invite_token]))
    assert_refused(response, 409, campaign, before, "already have a seat")


# -- URLs and CSRF --------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/campaigns/{big}/", "/campaigns/1/gm/seats/{big}/"])
def test_an_id_too_large_for_the_database_is_404(campaign, client_as, path):
    response = client_as("gm").get(path.format(big="9" * 30))
    assert response.status_code == 404


def test_a_post_without_the_csrf_token_is_refused(campaign, users):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(users["player"])
    before = snapshot(campaign)
    response = post_orders(client, campaign, {}, **HTMX)
    assert_refused(response, 403, campaign, before)


def test_a_log_line_whose_message_cannot_be_made_shows_as_stored(campaign, client_as):
    """A stored message with a parameter missing (a bug, or a row from an older version)
    reads as the English sentence stored beside it, and the page still answers."""
    from campaign.models import Event

    Event.objects.create(
        campaign=campaign,
        phase=campaign.phase,
        turn=campaign.turn,
        kind=Event.Kind.RULE,
        rule="EIA-1",
        text="France sponsors a revolt in Tyrol",
        message={"id": "%(power)s sponsors a revolt in %(area)s", "params": {"power": "France"}},
    )
    for role in ("gm", "player", "observer"):
        response = client_as(role).get(reverse("campaign:detail", args=[campaign.pk]))
        assert response.status_code == 200
        assert "France sponsors a revolt in Tyrol" in response.content.decode()
