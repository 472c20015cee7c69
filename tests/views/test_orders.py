"""A player's orders: one form per phase, saved as a draft until marked ready, via HTMX."""

import re

import pytest
from django.urls import reverse

from campaign import errors
from campaign.models import Area, Order
from rules.empires_in_arms.models import EiaPowerStatus, GuerrillaStack, LetDown

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def post_orders(client, campaign, data, *, ready=False, htmx=True):
    payload = {"phase": campaign.phase_id, "ready": "1" if ready else "0", **data}
    extra = HTMX if htmx else {}
    return client.post(reverse("campaign:orders", args=[campaign.pk]), payload, **extra)


def order_of(campaign, power_key):
    return Order.objects.get(phase_id=campaign.phase_id, power__key=power_key)


def test_player_sees_the_order_form_of_the_open_phase_with_its_rule(campaign, client_as):
    page = client_as("other_player").get(reverse("campaign:detail", args=[campaign.pk]))
    html = page.content.decode()
    assert 'id="orders"' in html
    assert 'name="lapse"' in html  # Great Britain sponsors the Palatinate revolt
    assert 'href="/rules/empires_in_arms/#EIA-7"' in html


def test_peace_lapse_saved_as_draft_then_ready(campaign, client_as):
    client = client_as("other_player")
    response = post_orders(client, campaign, {"lapse": ["palatinate"]})
    assert response.status_code == 200
    order = order_of(campaign, "great_britain")
    assert order.payload == {"lapse": ["palatinate"]}
    assert order.ready is False
    post_orders(client, campaign, {"lapse": []}, ready=True)
    order.refresh_from_db()
    assert order.payload == {"lapse": []}
    assert order.ready is True
    assert Order.objects.filter(phase_id=campaign.phase_id).count() == 1


def test_htmx_submit_updates_the_notice_status_and_submissions_but_keeps_the_form(
    campaign, client_as
):
    response = post_orders(client_as("other_player"), campaign, {}, ready=True)
    html = response.content.decode()
    assert response["HX-Reswap"] == "none"  # the form stays as the player left it
    assert "<html" not in html and "<form" not in html
    assert 'id="orders-notice" data-hx-swap-oob="true"' in html
    assert 'id="orders-status" data-hx-swap-oob="true"' in html and "marked ready" in html
    assert 'id="submissions" class="panel submissions" data-hx-swap-oob="true"' in html
    assert "Orders saved and marked ready." in html
    assert 'id="map"' not in html and 'id="log"' not in html


def test_submit_without_htmx_redirects_to_the_campaign_page(campaign, client_as):
    client = client_as("player")
    response = post_orders(client, campaign, {}, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:detail", args=[campaign.pk])
    page = client.get(response["Location"])
    assert "Orders saved as a draft." in page.content.decode()


def test_revolt_targets_saved_and_prefilled(campaign, client_as, advance_to):
    advance_to(campaign, "revolt")
    client = client_as("player")
    response = post_orders(client, campaign, {"targets": ["minor-1", "minor-3"]})
    assert response.status_code == 200
    assert order_of(campaign, "france").payload == {"targets": ["minor-1", "minor-3"]}
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert re.search(r'value="minor-1" id="id_targets_\d+" checked', html)
    assert re.search(r'value="minor-3" id="id_targets_\d+" checked', html)
    assert not re.search(r'value="minor-5" id="id_targets_\d+" checked', html)


def test_each_revolt_target_says_what_the_die_needs(campaign, client_as, advance_to):
    """EIA-1: d6 + NM + PSM − let-downs ≥ 6, so France (NM +0 in Minor 001, PSM +1) needs
    5; with 2 revolts let down there it would need 7, and the label says it cannot."""
    advance_to(campaign, "revolt")
    client = client_as("player")
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert (
        "Minor 001 (minor, held by Austria; your national modifier +0, your political status "
        "modifier +1: needs 5 or more on the die)"
    ) in html
    LetDown.objects.create(
        campaign=campaign,
        power=campaign.powers.get(key="france"),
        area=Area.objects.get(campaign=campaign, key="minor-1"),
        count=2,
    )
    campaign.bump_version()  # as every change of the state does (pages keep the World by it)
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert (
        "modifier +1, 2 revolts you let down: cannot break out (it would need 7 on the die))"
    ) in html


def test_attempts_per_target_under_the_per_target_option(campaign, client_as, advance_to):
    campaign.options = {"attempt_limit": "per_target"}
    campaign.save(update_fields=["options"])
    advance_to(campaign, "revolt")
    client = client_as("player")
    chosen = {"targets": ["minor-1", "minor-3", "minor-5"], "repeat": "2"}
    assert post_orders(client, campaign, chosen).status_code == 200
    payload = order_of(campaign, "france").payload
    assert payload == {"targets": ["minor-1"] * 2 + ["minor-3"] * 2 + ["minor-5"] * 2}
    refused = post_orders(client, campaign, {**chosen, "repeat": "4"})
    assert refused.status_code == 422
    assert order_of(campaign, "france").payload == payload


def test_the_repeat_field_is_refused_under_the_default_limit(campaign, client_as, advance_to):
    advance_to(campaign, "revolt")
    refused = post_orders(client_as("player"), campaign, {"targets": ["minor-1"], "repeat": "2"})
    assert refused.status_code == 422
    assert not Order.objects.filter(phase_id=campaign.phase_id).exists()


def test_land_operation_saved(campaign, client_as, advance_to):
    advance_to(campaign, "land")
    response = post_orders(client_as("player"), campaign, {"operations": ["palatinate"]})
    assert response.status_code == 200
    assert order_of(campaign, "france").payload == {
        "moves": [],
        "operations": ["palatinate"],
        "depot_attacks": [],
    }


def test_conquest_choice_saved(campaign, client_as, advance_to):
    advance_to(campaign, "conquest")
    response = post_orders(client_as("other_player"), campaign, {"choice_palatinate": "client"})
    assert response.status_code == 200
    assert order_of(campaign, "great_britain").payload == {"choices": {"palatinate": "client"}}


def test_economic_aid_saved(campaign, client_as, advance_to):
    advance_to(campaign, "economic")
    response = post_orders(client_as("other_player"), campaign, {"aid_palatinate": "3"})
    assert response.status_code == 200
    assert order_of(campaign, "great_britain").payload == {"aid": {"palatinate": 3}}


def test_aid_to_a_revolt_ending_next_month_is_warned_of_but_saved(campaign, client_as, advance_to):
    """EIA-7: three months without guerrillas and the revolt ends next month, before its
    guerrilla rolls: aid cannot change anything, and the form says so without refusing."""
    advance_to(campaign, "economic")
    client = client_as("other_player")
    url = reverse("campaign:detail", args=[campaign.pk])
    warning = "Aid to the revolt in Palatinate can no longer matter"
    assert warning not in client.get(url).content.decode()
    GuerrillaStack.objects.filter(campaign=campaign, area__key="palatinate").delete()
    campaign.bump_version()  # as every change of the state does (pages keep the World by it)
    campaign.revolts.filter(area__key="palatinate").update(months_without_guerrillas=3)
    html = client.get(url).content.decode()
    assert (
        '<p class="notice warning" role="note">Aid to the revolt in Palatinate can no longer '
        "matter: no guerrillas there for 3 months in a row, so it ends next month before its "
        "guerrilla rolls (EIA-7), and aid is spent whatever the roll (EIA-5).</p>"
    ) in html
    assert post_orders(client, campaign, {"aid_palatinate": "3"}).status_code == 200
    assert order_of(campaign, "great_britain").payload == {"aid": {"palatinate": 3}}


def test_a_power_in_debt_may_still_give_no_aid(campaign, client_as, advance_to):
    advance_to(campaign, "economic")
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="great_britain").update(
        treasury=-3
    )
    client = client_as("other_player")
    assert post_orders(client, campaign, {"aid_palatinate": ""}).status_code == 200
    assert order_of(campaign, "great_britain").payload == {"aid": {}}
    assert post_orders(client, campaign, {"aid_palatinate": "1"}).status_code == 422


def test_orders_crossing_the_resolution_show_the_phase_now_open(
    campaign, client_as, users, monkeypatch
):
    from campaign.play import services
    from campaign.views import orders as order_views

    def resolved_meanwhile(*, seat, phase_id, **kwargs):
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=phase_id, actor=users["gm"]
        )
        raise errors.PhaseClosed("This phase is closed: your orders were not saved.")

    monkeypatch.setattr(order_views, "submit_orders", resolved_meanwhile)
    response = post_orders(client_as("other_player"), campaign, {"lapse": []})
    assert response.status_code == 409
    html = response.content.decode()
    assert "This phase is closed" in html
    assert "Your orders: Political phase · revolt step" in html


def test_spanish_guerrilla_move_saved(campaign, users, client_as, advance_to):
    old_castile = campaign.areas.get(key="old-castile")
    stack = GuerrillaStack.objects.create(
        campaign=campaign,
        area=old_castile,
        origin=old_castile,
        nationality=campaign.powers.get(key="spain"),
        factors=2,
        revolt=False,
    )
    campaign.seats.filter(power__key="spain").update(user=users["outsider"])
    advance_to(campaign, "land")
    response = post_orders(client_as("outsider"), campaign, {f"move_{stack.pk}": "andalusia"})
    assert response.status_code == 200
    assert order_of(campaign, "spain").payload["moves"] == [{"stack": stack.pk, "to": "andalusia"}]


def test_standing_order_saved_via_htmx(campaign, client_as):
    response = client_as("player").post(
        reverse("campaign:standing", args=[campaign.pk]), {"pays_bad_roll": "no"}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="standing"' in html and "Standing order saved." in html
    status = EiaPowerStatus.objects.get(power__campaign=campaign, power__key="france")
    assert status.pays_bad_roll is False


@pytest.mark.parametrize(
    "language, ready, said",
    [
        ("el", True, "δήλωσε έτοιμες τις διαταγές της"),
        ("el", False, "ως πρόχειρο"),
        ("ru", True, "отметила свои приказы как готовые"),
        ("ru", False, "сохранила черновик своих приказов"),
    ],
)
def test_the_log_says_orders_were_given_in_the_readers_language(
    campaign, client_as, language, ready, said
):
    client = client_as("other_player")
    assert post_orders(client, campaign, {}, ready=ready).status_code == 200
    url = reverse("campaign:detail", args=[campaign.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert said in html
