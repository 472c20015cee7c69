"""Orders for the GM: lines a player gives with the phase's orders for what the rules
leave to the GM (here Empires in Arms corps moves and battles), read by the GM and the
power alone until the phase resolves, carried out from the dashboard with a prefilled
edit, and revealed in the log afterwards.

The test campaign's France has corps I in Palatinate (adjacent to Andalusia only) and
corps II in Old Castile (adjacent to Andalusia and Minor 000)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from campaign.models import Order
from rules import gm_orders as gmo
from rules.empires_in_arms.models import Corps
from rules.pax_baltica.models import Block
from tests.factories import (
    make_eia_campaign,
    make_pb_campaign,
    make_vq_campaign,
    seat_users,
    snapshot,
)
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
NOTE = "Hold the Rhine at all costs"
MOVE_TEXT = "move: corps I → Andalusia"


def corps(campaign, name: str) -> Corps:
    return Corps.objects.get(campaign=campaign, name=name)


def move_line(campaign, row: int = 0, piece: str = "I", to: str = "andalusia") -> dict:
    target = f"{corps(campaign, piece).pk}:{to}" if piece else f":{to}"
    return {f"gm-{row}-kind": "move", f"gm-{row}-target": target}


def post_orders(client, campaign, data, *, ready=False, htmx=True):
    payload = {"phase": campaign.phase_id, "ready": "1" if ready else "0", **data}
    extra = HTMX if htmx else {}
    return client.post(reverse("campaign:orders", args=[campaign.pk]), payload, **extra)


def france_orders(campaign) -> Order:
    return Order.objects.get(phase_id=campaign.phase_id, power__key="france")


@pytest.fixture
def given(campaign, client_as):
    """France has ordered corps I to Andalusia, with a note, in the peace step."""
    data = {**move_line(campaign), "gm-note": NOTE}
    assert post_orders(client_as("player"), campaign, data).status_code == 200
    return campaign


def page(client, campaign, name="detail", htmx=False) -> str:
    response = client.get(reverse(f"campaign:{name}", args=[campaign.pk]), **(HTMX if htmx else {}))
    assert response.status_code == 200
    return response.content.decode()


def area_panel(client, campaign, key="andalusia") -> str:
    url = reverse("campaign:area", args=[campaign.pk, key])
    response = client.get(url, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def carry_url(campaign, order_id, line=1, digest=None) -> str:
    url = reverse("campaign:carry_out", args=[campaign.pk, order_id, line])
    if digest is None:
        digest = gmo.digest(gmo.lines_of(Order.objects.get(pk=order_id).payload)[line - 1])
    return f"{url}?digest={digest}"


# -- the player ------------------------------------------------------------------------


def test_every_order_form_has_a_part_for_the_gm_with_its_rules(campaign, client_as):
    html = page(client_as("player"), campaign)
    part = html.split('id="gm-orders-part"', 1)[1].split("</fieldset>", 1)[0]
    assert "Orders for the GM" in part and "for the GM to carry out" in part
    assert 'href="/rules/empires_in_arms/#EIA-4"' in part
    assert f'value="{corps(campaign, "I").pk}:andalusia"' in part  # adjacent: offered
    assert f'value="{corps(campaign, "I").pk}:minor-5"' not in part  # not adjacent
    assert 'name="gm-note"' in part and "data-add-gm-line" in part


def test_a_corps_move_is_saved_with_the_orders_and_shown_to_its_player(given, client_as):
    order_ = france_orders(given)
    assert order_.payload["lapse"] == []  # the rules' own orders, as before
    assert order_.payload[gmo.KEY] == {
        "lines": [{"kind": "move", "piece": corps(given, "I").pk, "area": "andalusia"}],
        "note": NOTE,
    }
    html = page(client_as("player"), given)
    saved = html.split('id="gm-orders-saved"', 1)[1].split("</div>", 1)[0]
    assert "Saved for the GM" in saved and MOVE_TEXT in saved and NOTE in saved
    assert re.search(r'<option value="\d+:andalusia" selected>', html)  # the form, prefilled


def test_the_htmx_save_updates_the_lines_saved_for_the_gm(campaign, client_as):
    response = post_orders(client_as("player"), campaign, move_line(campaign))
    html = response.content.decode()
    assert 'id="gm-orders-saved" data-hx-swap-oob="true"' in html and MOVE_TEXT in html


def test_orders_without_lines_for_the_gm_keep_their_payload(campaign, client_as):
    assert post_orders(client_as("player"), campaign, {"gm-0-kind": ""}).status_code == 200
    assert france_orders(campaign).payload == {"lapse": []}


def test_a_battle_names_its_force_and_area(campaign, client_as):
    data = {
        "gm-0-kind": "battle",
        "gm-0-target": f"{corps(campaign, 'II').pk}:minor-0",
        "gm-0-text": "with the Guard",
    }
    assert post_orders(client_as("player"), campaign, data).status_code == 200
    html = page(client_as("player"), campaign)
    assert "battle: corps II attacks in Minor 000 (with the Guard)" in html


# -- who reads them before the phase resolves -------------------------------------------


@pytest.mark.parametrize("role", ["other_player", "observer"])
def test_nobody_else_reads_them_before_the_phase_resolves(given, client_as, role):
    client = client_as(role)
    texts = [
        page(client, given),
        page(client, given, htmx=True),
        area_panel(client, given),
        client.get(reverse("campaign:status", args=[given.pk])).content.decode(),
    ]
    if role == "other_player":
        texts.append(post_orders(client, given, {}).content.decode())  # its orders fragment
    for text in texts:
        assert MOVE_TEXT not in text and NOTE not in text and "corps I →" not in text


def test_an_outsider_gets_404(given, client_as):
    assert client_as("outsider").get(reverse("campaign:detail", args=[given.pk])).status_code == 404
    order_ = france_orders(given)
    assert client_as("outsider").get(carry_url(given, order_.pk)).status_code == 404


@pytest.mark.parametrize("role", ["player", "other_player", "observer"])
def test_only_the_gm_opens_the_prefilled_form(given, client_as, role):
    response = client_as(role).get(carry_url(given, france_orders(given).pk))
    assert response.status_code == 403


def test_the_gm_reads_them_on_the_dashboard_beside_the_corps_edit(given, client_as):
    html = page(client_as("gm"), given, "gm")
    listing = html.split('id="gm-orders"', 1)[1].split("</section>", 1)[0]
    assert "France orders" in listing and MOVE_TEXT in listing and NOTE in listing
    corps_panel = html.split('id="edit-corps"', 1)[1].split("</details>", 1)[0]
    assert "France" in corps_panel and MOVE_TEXT in corps_panel
    assert reverse("campaign:carry_out", args=[given.pk, france_orders(given).pk, 1]) in corps_panel
    assert MOVE_TEXT in area_panel(client_as("gm"), given)


def test_the_gm_export_holds_them(given, client_as):
    response = client_as("gm").get(reverse("campaign:export", args=[given.pk]))
    orders = json.loads(response.content)["orders"]
    assert any(gmo.KEY in o["payload"] for o in orders if o["power"] == "france")


@pytest.fixture
def playing_gm(client_as, campaign):
    """The GM plays Spain; France has given orders for the GM."""
    gm = client_as("gm")
    assert (
        gm.post(reverse("campaign:plays", args=[campaign.pk]), {"power": "spain"}).status_code
        == 302
    )
    data = {**move_line(campaign), "gm-note": NOTE}
    assert post_orders(client_as("player"), campaign, data).status_code == 200
    return gm


def test_a_gm_who_plays_reads_them_only_once_theirs_are_sealed(campaign, playing_gm):
    gm, order_ = playing_gm, france_orders(campaign)
    exported = json.loads(gm.get(reverse("campaign:export", args=[campaign.pk])).content)
    open_phase = [campaign.turn, campaign.phase.position]
    assert not [
        o for o in exported["orders"] if o["phase"] == open_phase and o["power"] == "france"
    ]
    for text in (page(gm, campaign, "gm"), area_panel(gm, campaign)):
        assert MOVE_TEXT not in text and NOTE not in text
    assert gm.get(carry_url(campaign, order_.pk)).status_code == 404
    assert post_orders(gm, campaign, {}, ready=True, htmx=False).status_code == 302  # sealed
    assert MOVE_TEXT in page(gm, campaign, "gm")
    assert gm.get(carry_url(campaign, order_.pk)).status_code == 200


# -- after resolution: the log ----------------------------------------------------------


@pytest.mark.parametrize("role", ["player", "other_player", "observer", "gm"])
def test_the_log_reveals_them_once_the_phase_is_resolved(given, client_as, role):
    resolve(given)
    html = page(client_as(role), given)
    log = html.split('id="log"', 1)[1].replace("&#x27;", "'")
    assert f"France's orders for the GM: 1. {MOVE_TEXT}; note: {NOTE}." in log


def test_the_gm_may_keep_them_out_of_the_log(given, client_as):
    gm = client_as("gm")
    response = gm.post(reverse("campaign:gm_orders_reveal", args=[given.pk]), {})
    assert response.status_code == 302
    given.refresh_from_db()
    assert given.reveal_gm_orders is False
    assert given.events.filter(text__contains="stay between the GM and each power").exists()
    resolve(given)
    for role in ("player", "other_player", "gm"):
        assert "orders for the GM:" not in page(client_as(role), given).split('id="log"', 1)[1]
    response = gm.post(reverse("campaign:gm_orders_reveal", args=[given.pk]), {"reveal": "on"})
    assert response.status_code == 302
    given.refresh_from_db()
    assert given.reveal_gm_orders is True


def test_html_in_orders_for_the_gm_is_escaped(campaign, client_as):
    script = "<script>alert('x')</script>"
    data = {**move_line(campaign), "gm-0-text": script, "gm-note": script}
    assert post_orders(client_as("player"), campaign, data).status_code == 200
    for html in (page(client_as("player"), campaign), page(client_as("gm"), campaign, "gm")):
        assert script not in html and "&lt;script&gt;" in html
    resolve(campaign)
    html = page(client_as("other_player"), campaign)
    assert script not in html and "&lt;script&gt;alert" in html


# -- carrying them out ------------------------------------------------------------------


def test_a_corps_move_opens_the_corps_edit_prefilled(given, client_as):
    order_ = france_orders(given)
    response = client_as("gm").get(carry_url(given, order_.pk))
    assert response.status_code == 200
    html = response.content.decode()
    panel = html.split('id="edit-corps"', 1)[1].split("</details>", 1)[0]
    form = panel.split('<span class="carrying">', 1)[1].split("</form>", 1)[0]
    assert "Carrying out France&#x27;s order 1." in form or "Carrying out France's order 1." in form
    assert '<option value="andalusia" selected>' in form
    assert f'name="carry_order" value="{order_.pk}"' in form
    assert f'name="corps" value="{corps(given, "I").pk}"' in form


def carry_post(campaign, order_: Order, area="andalusia", digest=None) -> dict:
    line = gmo.lines_of(order_.payload)[0]
    return {
        "corps": corps(campaign, "I").pk,
        "area": area,
        "carry_order": order_.pk,
        "carry_line": 1,
        "carry_digest": digest or gmo.digest(line),
    }


def test_the_edit_is_logged_against_the_order_it_carried_out(given, client_as, users):
    gm, order_ = client_as("gm"), france_orders(given)
    url = reverse("campaign:edit", args=[given.pk, "corps"])
    assert gm.post(url, carry_post(given, order_)).status_code == 302
    assert corps(given, "I").area.key == "andalusia"
    line = given.events.filter(kind="gm").latest("pk").text
    assert line.startswith(f"GM {users['gm'].username}, carrying out France's order 1: ")
    assert gmo.lines_of(france_orders(given).payload)[0]["done"] is True
    html = page(gm, given, "gm")
    listing = html.split('id="gm-orders"', 1)[1].split("</section>", 1)[0]
    assert "carried out" in listing
    assert gm.get(carry_url(given, order_.pk)).status_code == 409  # done already
    resolve(given)
    assert f"1. {MOVE_TEXT} (carried out)" in page(client_as("observer"), given)


def test_a_line_carried_out_no_longer_changes(given, client_as):
    gm, order_ = client_as("gm"), france_orders(given)
    gm.post(reverse("campaign:edit", args=[given.pk, "corps"]), carry_post(given, order_))
    player = client_as("player")
    part = page(player, given).split('id="gm-orders-part"', 1)[1].split("</fieldset>", 1)[0]
    assert f"{MOVE_TEXT} <span" in part and "carried out by the GM" in part
    assert not re.search(r'<option value="\d+:andalusia" selected>', part)  # not a row any more
    data = {**move_line(given, 0, "II", "minor-0"), "gm-note": NOTE}
    assert post_orders(player, given, data).status_code == 200
    lines = gmo.lines_of(france_orders(given).payload)
    assert [(line["area"], bool(line.get("done"))) for line in lines] == [
        ("andalusia", True),
        ("minor-0", False),
    ]


def test_the_gm_marks_a_line_done_in_place(given, client_as):
    order_ = france_orders(given)
    line = gmo.lines_of(order_.payload)[0]
    data = {"carry_order": order_.pk, "carry_line": 1, "carry_digest": gmo.digest(line)}
    url = reverse("campaign:gm_order_done", args=[given.pk])
    response = client_as("gm").post(url, data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'id="gm-orders"' in html.split(">", 1)[0]
    assert gmo.lines_of(france_orders(given).payload)[0]["done"] is True


def test_the_gm_marks_a_line_done_by_hand(given, client_as):
    gm, order_ = client_as("gm"), france_orders(given)
    line = gmo.lines_of(order_.payload)[0]
    data = {"carry_order": order_.pk, "carry_line": 1, "carry_digest": gmo.digest(line)}
    response = gm.post(reverse("campaign:gm_order_done", args=[given.pk]), data)
    assert response.status_code == 302
    assert gmo.lines_of(france_orders(given).payload)[0]["done"] is True
    said = given.events.latest("pk").text  # the log's own words
    assert "has carried out France's order 1 for the GM" in said and "Andalusia" not in said
    before = snapshot(given)
    assert gm.post(reverse("campaign:gm_order_done", args=[given.pk]), data).status_code == 409
    assert snapshot(given) == before


# -- bad input ----------------------------------------------------------------------------


BAD_LINES = {
    "another power's unit": (
        lambda c: {"gm-0-kind": "move", "gm-0-target": f"{austrian(c).pk}:andalusia"},
        "is not one of your units on the map",
    ),
    "another campaign's unit": (
        lambda c: {
            "gm-0-kind": "move",
            "gm-0-target": f"{Corps.objects.filter(campaign=make_eia_campaign())[0].pk}:andalusia",
        },
        "is not one of your units on the map",
    ),
    "another campaign's area": (
        lambda c: make_pb_campaign() and move_line(c, to="livland"),
        "there is no area “livland” on this map",
    ),
    "a destination the adjacency does not allow": (
        lambda c: move_line(c, to="minor-5"),
        "corps I cannot reach Minor 005 from Palatinate: the areas are not adjacent",
    ),
    "a move to where it stands": (
        lambda c: move_line(c, to="palatinate"),
        "corps I is already in Palatinate",
    ),
    "an unknown kind": (
        lambda c: {"gm-0-kind": "teleport", "gm-0-target": ""},
        "“teleport” is not a kind of order for the GM in this game",
    ),
    "a card, which this game does not have": (
        lambda c: {"gm-0-kind": "card", "gm-0-text": "Armada"},
        "“card” is not a kind of order for the GM in this game",
    ),
    "a target that is no unit and area": (
        lambda c: {"gm-0-kind": "move", "gm-0-target": "<b>x</b>"},
        "does not name a unit and an area",
    ),
    "a move without its unit": (
        lambda c: {"gm-0-kind": "move"},
        "choose the unit and the area",
    ),
    "a line without its kind": (
        lambda c: {"gm-0-text": "please"},
        "choose what kind of order it is",
    ),
    "too many lines": (
        lambda c: {k: v for row in range(51) for k, v in move_line(c, row).items()},
        "At most 50 lines of orders for the GM (you gave 51)",
    ),
    "a row far beyond the limit": (
        lambda c: move_line(c, row=150),
        "At most 50 lines of orders for the GM: reload the page.",
    ),
    "too long a note": (
        lambda c: {"gm-note": "x" * 2001},
        "at most 2000 characters (it has 2001)",
    ),
    "too long a line": (
        lambda c: {**move_line(c), "gm-0-text": "x" * 201},
        "Line 1: at most 200 characters (it has 201)",
    ),
    "a field the form does not have": (
        lambda c: {"gm-0-colour": "red"},
        "These orders have no “gm-0-colour”",
    ),
    "a null character": (
        lambda c: {**move_line(c), "gm-0-text": "a\x00b"},
        "Line 1: Null characters are not allowed.",
    ),
}


def austrian(campaign) -> Corps:
    return Corps.objects.create(
        campaign=campaign,
        power=campaign.powers.get(key="austria"),
        area=campaign.areas.get(key="palatinate"),
        name="Erzherzog",
    )


@pytest.mark.parametrize("case", BAD_LINES)
@pytest.mark.sampled(every=3)
@pytest.mark.parametrize("htmx", [True, False])
def test_bad_orders_for_the_gm_are_refused_and_change_nothing(campaign, client_as, case, htmx):
    build, message = BAD_LINES[case]
    data = build(campaign)
    before = snapshot(campaign)
    response = post_orders(client_as("player"), campaign, data, htmx=htmx)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Your orders were not saved." in html
    assert message in html.replace("&#x27;", "'").replace("&quot;", '"')
    assert "<b>x</b>" not in html
    assert snapshot(campaign) == before


def test_a_prefill_link_for_another_campaigns_order_is_404(given, client_as):
    other = make_eia_campaign()
    other_users = seat_users(other)
    from django.test import Client

    player = Client()
    player.force_login(other_users["player"])
    assert post_orders(player, other, move_line(other)).status_code == 200
    theirs = france_orders(other)
    url = reverse("campaign:carry_out", args=[given.pk, theirs.pk, 1]) + "?digest=0"
    assert client_as("gm").get(url).status_code == 404


def test_a_prefill_link_for_a_phase_no_longer_open_is_409(given, client_as):
    order_ = france_orders(given)
    url = carry_url(given, order_.pk)
    resolve(given)
    response = client_as("gm").get(url)
    assert response.status_code == 409
    assert "no longer open" in response.content.decode()


@pytest.mark.parametrize(
    "line, digest, status",
    [(2, None, 404), (1, "0" * 16, 409)],
    ids=["a line the order has not", "a line changed since"],
)
def test_a_prefill_link_for_a_line_that_is_not_there_is_refused(
    given, client_as, line, digest, status
):
    order_ = france_orders(given)
    url = reverse("campaign:carry_out", args=[given.pk, order_.pk, line])
    assert client_as("gm").get(f"{url}?digest={digest or '0'}").status_code == status


def test_an_edit_naming_a_changed_order_changes_nothing(given, client_as):
    order_ = france_orders(given)
    before = snapshot(given)
    url = reverse("campaign:edit", args=[given.pk, "corps"])
    response = client_as("gm").post(url, carry_post(given, order_, digest="f" * 16))
    assert response.status_code == 409
    assert "has changed its orders since" in response.content.decode()
    assert snapshot(given) == before


def test_an_edit_naming_another_campaigns_order_is_404(given, client_as):
    order_ = france_orders(given)
    other = make_eia_campaign()
    seat_users(other)
    order(other, "france", {"lapse": [], gmo.KEY: order_.payload[gmo.KEY]})
    theirs = Order.objects.get(campaign=other, power__key="france")
    data = {**carry_post(given, order_), "carry_order": theirs.pk}
    before = snapshot(given)
    response = client_as("gm").post(reverse("campaign:edit", args=[given.pk, "corps"]), data)
    assert response.status_code == 404
    assert snapshot(given) == before


# -- the other games ----------------------------------------------------------------------


def logged_in(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_virgin_queen_a_card_played_reaches_the_gm_who_marks_it_done():
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    resolve(campaign)  # the Ottoman impulse: the Spanish one is open
    campaign.refresh_from_db()
    data = {"action": "pass", "gm-0-kind": "card", "gm-0-text": "Armada"}
    assert post_orders(logged_in(users["player"]), campaign, data).status_code == 200
    spain = Order.objects.get(phase_id=campaign.phase_id, power__key="spain")
    assert spain.payload == {
        "action": "pass",
        "note": "",
        gmo.KEY: {"lines": [{"kind": "card", "text": "Armada"}], "note": ""},
    }
    gm = logged_in(users["gm"])
    listing = page(gm, campaign, "gm").split('id="gm-orders"', 1)[1].split("</section>", 1)[0]
    assert "card played: Armada" in listing
    assert f"/gm/orders/{spain.pk}/1/" not in listing  # no edit carries a card out
    line = gmo.lines_of(spain.payload)[0]
    done = {"carry_order": spain.pk, "carry_line": 1, "carry_digest": gmo.digest(line)}
    assert gm.post(reverse("campaign:gm_order_done", args=[campaign.pk]), done).status_code == 302
    resolve(campaign)
    log = page(logged_in(users["other_player"]), campaign).split('id="log"', 1)[1]
    assert "orders for the GM: 1. card played: Armada (carried out)." in log


def test_pax_baltica_a_block_move_stays_with_its_side():
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    upplands = Block.objects.get(campaign=campaign, name="Upplands")
    data = {"steps_each": "0", "gm-0-kind": "move", "gm-0-target": f"{upplands.pk}:livland"}
    assert post_orders(logged_in(users["player"]), campaign, data).status_code == 200
    russia = logged_in(users["other_player"])
    assert "Upplands" not in page(russia, campaign)
    gm = logged_in(users["gm"])
    sweden = Order.objects.get(phase_id=campaign.phase_id, power__key="sweden")
    response = gm.get(carry_url(campaign, sweden.pk))
    assert response.status_code == 200
    panel = response.content.decode().split('id="edit-block"', 1)[1]
    form = panel.split('<span class="carrying">', 1)[1].split("</form>", 1)[0]
    assert '<option value="livland" selected>' in form
    resolve(campaign)
    html = page(russia, campaign).split('id="log"', 1)[1].replace("&#x27;", "'")
    assert "Sweden gave orders for the GM." in html and "Upplands" not in html
