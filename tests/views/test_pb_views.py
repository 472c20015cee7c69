"""Pax Baltica through the Django test client: the order forms of recruitment, actions
and forage (HTMX and not), the "Why?" question, every bad input of the issue (a clear
refusal that changes nothing), and the GM's Pax Baltica edits."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.models import Adjacency, Area, Campaign, Event, Order, Seat
from rules.pax_baltica.models import Block, PbNation, PbSide, PbTerritory
from rules.pax_baltica.services import gm_edit
from tests.factories import make_pb_campaign, seat_users, snapshot
from tests.maps import with_map
from tests.services.test_eia_phase_services import resolve

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def pb(db):
    return make_pb_campaign()


@pytest.fixture
def pb_users(pb):
    return seat_users(pb, "sweden", "russia")


@pytest.fixture
def as_role(pb, pb_users):
    """A client logged in as a role: player (Sweden), other_player (Russia), gm, observer,
    or "saxony" (a player seated for Saxony-Poland)."""

    def make(role: str) -> Client:
        client = Client()
        if role == "saxony":
            user = get_user_model().objects.create_user(f"saxony-{pb.pk}")
            Seat.objects.filter(campaign=pb, power__key="saxony").update(user=user)
        else:
            user = pb_users[role]
        client.force_login(user)
        return client

    return make


@pytest.fixture
def ids(pb) -> dict[str, int]:
    return dict(Block.objects.filter(campaign=pb).values_list("name", "pk"))


def to_phase(campaign, key: str, actor=None) -> None:
    """Resolve (seeded dice, no orders) until the open phase is ``key``."""
    for _ in range(8):
        campaign.refresh_from_db()
        if campaign.phase.key == key:
            return
        resolve(campaign, actor)
    raise AssertionError(f"phase {key!r} not reached")


def post_orders(client, campaign, data, htmx=True, ready="1"):
    campaign.refresh_from_db()
    payload = {"phase": campaign.phase_id, "ready": ready, **data}
    extra = HTMX if htmx else {}
    return client.post(reverse("campaign:orders", args=[campaign.pk]), payload, **extra)


def payload_of(campaign, power: str) -> dict:
    return Order.objects.get(phase_id=campaign.phase_id, power__key=power).payload


def block(pk: int) -> Block:
    return Block.objects.select_related("location").get(pk=pk)


def detail(client, campaign) -> str:
    return client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()


def options_of(html: str, name: str) -> list[str]:
    """The values a <select name=…> offers."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, name
    return re.findall(r'<option value="([^"]*)"', select.group(1))


def assert_refused(response, status, campaign, before, *phrases):
    html = response.content.decode()
    assert response.status_code == status, html[:3000]
    for phrase in phrases:
        assert phrase in html, phrase
    assert snapshot(campaign) == before


# -- recruitment (GNW-6, GNW-7, GNW-10, GNW-11) ----------------------------------------


def test_recruitment_reinforces_blocks_on_the_map_with_htmx(pb, as_role, ids, pb_users):
    client = as_role("player")
    html = detail(client, pb)
    assert f'name="reinforce_{ids["Wachtmeister"]}"' in html
    assert "2 RP a step (GNW-7)" in html  # a fleet in its own garrisoned port
    data = {
        f"reinforce_{ids['Wachtmeister']}": "1",
        f"reinforce_{ids['Regiment 000']}": "1",
        "steps_each": "0",  # the select a browser always posts
    }
    response = post_orders(client, pb, data)
    html = response.content.decode()
    assert response.status_code == 200, html[:2000]
    assert "<html" not in html and 'id="orders-status"' in html
    assert 'id="submissions" class="panel submissions" data-hx-swap-oob="true"' in html
    assert "Orders saved and marked ready." in html
    payload = payload_of(pb, "sweden")
    assert sorted(payload["reinforce"], key=lambda i: i["block"]) == sorted(
        [{"block": ids["Wachtmeister"], "steps": 1}, {"block": ids["Regiment 000"], "steps": 1}],
        key=lambda i: i["block"],
    )
    assert payload["draws"] == 0
    resolve(pb, pb_users["gm"])
    assert block(ids["Wachtmeister"]).strength == 4
    assert block(ids["Regiment 000"]).strength == 3
    assert Event.objects.filter(
        campaign=pb, rule="GNW-7", text__contains="1 step × 2 RP = 2 RP"
    ).exists()


def test_recruitment_without_htmx_redirects_and_prefills_the_draft(pb, as_role, ids):
    client = as_role("player")
    data = {f"reinforce_{ids['Wachtmeister']}": "1", "steps_each": "0"}
    response = post_orders(client, pb, data, htmx=False, ready="0")
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:detail", args=[pb.pk])
    html = detail(client, pb)
    assert "Orders saved as a draft." in html
    assert re.search(rf'name="reinforce_{ids["Wachtmeister"]}" value="1"', html)
    assert not Order.objects.get(phase_id=pb.phase_id, power__key="sweden").ready


def test_pool_draws_are_placed_by_the_players_preferences(pb, as_role, ids, pb_users):
    saxony = as_role("saxony")
    html = detail(saxony, pb)
    # Lietuva is a Saxon deployment area, but Karl XII stands there (GNW-11)
    assert options_of(html, "place_1") == ["", "lausitz"]
    data = {"draws": "2", "steps_each": "2", "place_1": "lausitz"}
    response = post_orders(saxony, pb, data)
    assert response.status_code == 200, response.content.decode()[:2000]
    assert payload_of(pb, "saxony") == {
        "reinforce": [],
        "draws": 2,
        "steps_each": 2,
        "places": ["lausitz"],
        "fleet_places": [],
    }
    sweden = as_role("player")
    assert options_of(detail(sweden, pb), "place_1") == ["", "livland"]  # Narva: Menshikov
    data = {"draws": "1", "steps_each": "0", "place_1": "livland", "place_2": "livland"}
    assert post_orders(sweden, pb, data, htmx=False).status_code == 302
    assert payload_of(pb, "sweden")["places"] == ["livland"]  # each place once
    resolve(pb, pb_users["gm"])
    # 12 RP: two armies at 4 + 2 RP each (the first step double), both in Lausitz
    for name in ("Schulenburg", "Lubomirski"):
        drawn = block(ids[name])
        assert (drawn.location.key, drawn.strength) == ("lausitz", 2), name
    dal = block(ids["Dalregementet"])  # a regiment: 2 + 1 + 1 RP to full strength
    assert (dal.location.key, dal.strength) == ("livland", 3)


# -- actions (GNW-8, GNW-13, siege declarations) ---------------------------------------


def test_reinforcement_by_action_and_a_siege(pb, as_role, ids, pb_users):
    to_phase(pb, "actions")
    client = as_role("other_player")
    html = detail(client, pb)
    assert 'name="siege_narva"' in html and "Besiege Narva with Menshikov" in html
    data = {f"act_{ids['Menshikov']}": "1", "siege_narva": "on"}
    response = post_orders(client, pb, data)
    assert response.status_code == 200, response.content.decode()[:2000]
    assert payload_of(pb, "russia") == {
        "reinforce": [{"block": ids["Menshikov"], "actions": 1}],
        "fleet_moves": [],
        "sieges": [{"territory": "narva", "blocks": [ids["Menshikov"]]}],
    }
    resolve(pb, pb_users["gm"])
    menshikov = block(ids["Menshikov"])
    assert (menshikov.strength, menshikov.besieging) == (4, True)
    assert PbSide.objects.get(campaign=pb, key="coalition").actions == 1


def test_a_fleet_move_offers_only_legal_destinations(pb, as_role, ids, pb_users):
    to_phase(pb, "actions")
    client = as_role("player")
    field = f"move_{ids['Wachtmeister']}"
    offered = options_of(detail(client, pb), field)
    # Kurland: a port with Russian blocks; Copenhagen: a Danish port; Narva: no port
    assert offered == ["", "central_baltic", "southern_baltic"]
    response = post_orders(client, pb, {field: "southern_baltic"}, htmx=False)
    assert response.status_code == 302
    assert payload_of(pb, "sweden")["fleet_moves"] == [
        {"fleet": ids["Wachtmeister"], "path": ["central_baltic", "southern_baltic"]}
    ]
    resolve(pb, pb_users["gm"])
    assert block(ids["Wachtmeister"]).location.key == "southern_baltic"
    assert PbSide.objects.get(campaign=pb, key="sweden").actions == 2


# -- forage (GNW-4) --------------------------------------------------------------------


def test_a_forage_loss_order(pb, as_role, ids, pb_users):
    to_phase(pb, "forage")
    client = as_role("other_player")
    data = {f"loss_{ids['Sheremetev']}": "1", f"loss_{ids['Pyotr I']}": "2"}
    response = post_orders(client, pb, data, htmx=False)
    assert response.status_code == 302
    assert payload_of(pb, "russia") == {"loss_order": [ids["Sheremetev"], ids["Pyotr I"]]}
    resolve(pb, pb_users["gm"])
    # Kurland, FP 3: demand 5, supply 4: the first step from the strongest, Sheremetev first
    assert (block(ids["Sheremetev"]).strength, block(ids["Pyotr I"]).strength) == (3, 4)


def test_the_forage_form_says_which_territory_is_short_and_by_how_much(pb, as_role):
    """GNW-4, the seed's Kurland: demand 5 FP (2 armies, 1 regiment), supply 3 FP + 1 from
    Pyotr I's train: 1 short. Sweden's blocks go short nowhere, and its form says so."""
    to_phase(pb, "forage")
    assert (
        '<p class="notice warning" role="note">Kurland is short of forage by 1 point: demand '
        "5 FP, supply 4 FP, so its blocks lose 1 step, if any is above strength 1 (GNW-4).</p>"
    ) in detail(as_role("other_player"), pb)
    html = detail(as_role("player"), pb)
    assert "short of forage by" not in html
    assert "None of your territories is short of forage: no block loses a step (GNW-4)." in html


def test_under_shared_forage_the_form_does_not_count_what_the_enemy_eats(pb, as_role):
    """Decision 7, shared: where the other side's blocks may eat first (Kurland, nobody's),
    a player's supply would tell how much their hidden blocks eat: the form says so
    instead of counting, for both sides."""
    pb.options = {**pb.options, "forage_both_sides": "shared"}
    pb.save(update_fields=["options"])
    to_phase(pb, "forage")
    kurland = Area.objects.get(campaign=pb, key="kurland")
    Block.objects.filter(campaign=pb, name="Karl XII").update(location=kurland)
    note = "In Kurland your blocks share the forage points with the other side"
    for role in ("player", "other_player"):
        html = detail(as_role(role), pb)
        assert note in html and "Kurland is short of forage" not in html


def test_a_forage_rank_out_of_range_is_refused(pb, as_role, ids):
    to_phase(pb, "forage")
    before = snapshot(pb)
    response = post_orders(as_role("other_player"), pb, {f"loss_{ids['Sheremetev']}": "9"})
    assert_refused(response, 422, pb, before, "enter a whole number from 0 to ")


# -- "Why can't I reinforce this block?" (GNW-9, GNW-7) --------------------------------


def question_url(campaign, block_id) -> str:
    return reverse("campaign:question", args=[campaign.pk, "line", block_id])


def highlighted(html: str) -> set[str]:
    return set(re.findall(r'class="area highlight" id="map-([^"]+)"', html))


def test_why_shows_karl_xiis_missing_line_and_swaps_the_map_out_of_band(pb, as_role, ids):
    client = as_role("player")
    response = client.get(question_url(pb, ids["Karl XII"]), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert '<section id="question"' in html
    assert "No line of communication from Lietuva" in html
    assert "Kurland holds enemy blocks (Russia)" in html
    assert "Lausitz holds enemy blocks (Saxony-Poland)" in html
    assert "Karl XII cannot be reinforced now:" in html
    assert '<section id="map" class="panel map" data-hx-swap-oob="true">' in html
    assert highlighted(with_map(client, html)) == {"lietuva"}


def test_why_highlights_the_whole_line_of_communication(pb, as_role, ids):
    Block.objects.filter(pk=ids["Karl XII"]).update(
        location=Area.objects.get(campaign=pb, key="velikaya")
    )
    client = as_role("player")
    html = client.get(question_url(pb, ids["Karl XII"]), **HTMX).content.decode()
    # the seed's GNW-9 example: in Velikaya the Swedish army traces back to Livland
    assert "Line of communication: Velikaya → Livland (controlled by Sweden)." in html
    assert "Karl XII can be reinforced now." in html
    assert highlighted(with_map(client, html)) == {"velikaya", "livland"}
    assert "Highlighted on the map: Velikaya → Livland." in html


def test_why_without_htmx_renders_the_page_with_the_answer(pb, as_role, ids):
    client = as_role("player")
    html = with_map(client, client.get(question_url(pb, ids["Upplands"])).content.decode())
    assert "<html" in html and '<section id="question"' in html
    assert "Line of communication: Narva (Sweden" in html
    assert '<section id="map" class="panel map">' in html  # in place, not out of band
    assert highlighted(html) == {"narva"}
    assert 'id="orders"' in html and 'id="log"' in html


def test_why_for_a_fleet_at_sea_says_it_is_reinforced_only_in_a_port(pb, as_role, ids):
    central = Area.objects.get(campaign=pb, key="central_baltic")
    Block.objects.filter(pk=ids["Wachtmeister"]).update(location=central)
    client = as_role("player")
    response = client.get(question_url(pb, ids["Wachtmeister"]), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "No line of communication from Central Baltic: it is a sea zone" in html
    assert "Wachtmeister is at sea: a fleet is reinforced only in a port" in html
    assert highlighted(with_map(client, html)) == {"central_baltic"}


@pytest.mark.parametrize("role", ["gm", "observer"])
def test_gm_and_observer_may_ask_about_any_block_on_the_map(pb, as_role, ids, role):
    """The observer, once the GM lets watchers see the Coalition's side (by default an
    observer sees no side's blocks: campaign/core/watching.py)."""
    if role == "observer":
        hidden = as_role(role).get(question_url(pb, ids["Pyotr I"]), **HTMX)
        assert hidden.status_code == 404
        Campaign.objects.filter(pk=pb.pk).update(watchers_see="russia")
    response = as_role(role).get(question_url(pb, ids["Pyotr I"]), **HTMX)
    assert response.status_code == 200
    assert "Line of communication: Pyotr I" in response.content.decode()


# -- bad inputs: a clear refusal that changes nothing ----------------------------------


def test_reinforcing_a_block_without_a_line_of_communication(pb, as_role, ids):
    before = snapshot(pb)
    client = as_role("player")
    response = post_orders(client, pb, {f"reinforce_{ids['Karl XII']}": "1"})
    assert_refused(
        response,
        422,
        pb,
        before,
        "Your orders were not saved.",
        "Karl XII cannot be reinforced: Karl XII has no line of communication (GNW-9).",
    )
    to_phase(pb, "actions")
    before = snapshot(pb)
    response = post_orders(client, pb, {f"act_{ids['Karl XII']}": "1"}, htmx=False)
    assert_refused(response, 422, pb, before, "<html", "has no line of communication (GNW-9)")


def test_reinforcing_a_block_in_a_battle(pb, as_role, ids, pb_users):
    gm_edit(
        campaign_id=pb.pk,
        actor=pb_users["gm"],
        edit="battle",
        territory="t-0",
        winner="sweden",
        fought=[ids["Regiment 000"]],
    )
    before = snapshot(pb)
    response = post_orders(as_role("player"), pb, {f"reinforce_{ids['Regiment 000']}": "1"})
    assert_refused(
        response, 422, pb, before, "Regiment 000 is in a battle and cannot be reinforced"
    )


def test_reinforcing_a_fleet_at_sea(pb, as_role, ids):
    Block.objects.filter(pk=ids["Wachtmeister"]).update(
        location=Area.objects.get(campaign=pb, key="central_baltic")
    )
    before = snapshot(pb)
    response = post_orders(as_role("player"), pb, {f"reinforce_{ids['Wachtmeister']}": "1"})
    assert_refused(
        response, 422, pb, before, "Wachtmeister is at sea: a fleet is reinforced only in a port"
    )


def test_reinforcing_a_block_carried_by_a_fleet(pb, as_role, ids, pb_users):
    gm_edit(
        campaign_id=pb.pk,
        actor=pb_users["gm"],
        edit="block",
        block=ids["Regiment 000"],
        location="livland",
        strength=2,
        max_strength=3,
        rating="C1",
        supply_trains=0,
        carried_by=ids["Wachtmeister"],
        in_battle=False,
    )
    before = snapshot(pb)
    response = post_orders(as_role("player"), pb, {f"reinforce_{ids['Regiment 000']}": "1"})
    assert_refused(
        response, 422, pb, before, "Regiment 000 is carried by a fleet and cannot be reinforced"
    )


def test_spending_rp_the_nation_does_not_have(pb, as_role, ids):
    PbNation.objects.filter(power__campaign=pb, power__key="sweden").update(rp_level=1)
    before = snapshot(pb)
    response = post_orders(as_role("player"), pb, {f"reinforce_{ids['Wachtmeister']}": "1"})
    assert_refused(response, 422, pb, before, "These steps cost 2 RP and Sweden has 1 (GNW-6).")


@pytest.mark.parametrize(("role", "name"), [("player", "August II"), ("other_player", "August II")])
def test_giving_steps_to_another_nations_block(pb, as_role, ids, role, name):
    before = snapshot(pb)
    response = post_orders(as_role(role), pb, {f"reinforce_{ids[name]}": "1"})
    message = f"Block #{ids[name]} is not one of your blocks."
    assert_refused(response, 422, pb, before, message)
    if role == "player":  # Sweden does not learn which block that id is
        assert name not in response.content.decode()


@pytest.mark.parametrize("place", ["narva", "rzhev", "copenhagen", "atlantis"])
def test_placing_a_new_block_where_it_may_not_go(pb, as_role, place):
    """Narva holds Menshikov; Rzhev (made a Swedish deployment area) a Russian garrison;
    Copenhagen is no Swedish deployment area; Atlantis is no territory (GNW-11)."""
    PbNation.objects.filter(power__campaign=pb, power__key="sweden").update(
        deployment=["livland", "narva", "rzhev"]
    )
    client = as_role("player")
    assert place not in options_of(detail(client, pb), "place_1")
    before = snapshot(pb)
    data = {"draws": "1", "steps_each": "0", "place_1": place}
    response = post_orders(client, pb, data)
    assert_refused(
        response, 422, pb, before, f"New blocks cannot be placed in “{place}”", "(GNW-11)"
    )


@pytest.mark.parametrize(
    ("language", "labels"),
    [
        ("en", ["(out of port: no zone counted)", "(1 zone)", "(2 zones)", "(5 zones)"]),
        ("el", ["(έξοδος από το λιμάνι: δεν μετρά ζώνη)", "(1 ζώνη)", "(2 ζώνες)", "(5 ζώνες)"]),
        ("ru", ["(выход из порта: зона не считается)", "(1 зона)", "(2 зоны)", "(5 зон)"]),
    ],
)
def test_fleet_destinations_count_their_zones_with_the_languages_plurals(
    pb, as_role, ids, language, labels
):
    """GNW-13: Wachtmeister leaves its port into the Central Baltic for free, then each
    sea zone counts one; the labels say so in each language's plural forms."""
    add_sea_chain(pb, 5)
    to_phase(pb, "actions")
    client = as_role("player")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = detail(client, pb)
    select = re.search(rf'<select name="move_{ids["Wachtmeister"]}".*?</select>', html, re.S)
    offered = dict(re.findall(r'<option value="([^"]+)">([^<]*)</option>', select.group(0)))
    # the scenario's sea zone is a word of the catalogs; the test's added zones are not
    central = {"en": "Central Baltic", "el": "Κεντρική Βαλτική", "ru": "Центральная Балтика"}
    assert [offered[key] for key in ("central_baltic", "sea-1", "sea-2", "sea-5")] == [
        f"{name} {label}"
        for name, label in zip((central[language], "Sea 1", "Sea 2", "Sea 5"), labels, strict=True)
    ]


def add_sea_chain(campaign, length: int) -> list[str]:
    """Sea zones sea-1 … sea-N in a chain from the Central Baltic."""
    seas = Area.objects.bulk_create(
        [
            Area(campaign=campaign, key=f"sea-{i}", name=f"Sea {i}", kind="sea", x=10 * i, y=10)
            for i in range(1, length + 1)
        ]
    )
    chain = [Area.objects.get(campaign=campaign, key="central_baltic"), *seas]
    Adjacency.objects.bulk_create(
        [
            Adjacency(campaign=campaign, a=a, b=b, kind="sea")
            for a, b in zip(chain, chain[1:], strict=False)
        ]
    )
    return [s.key for s in seas]


@pytest.mark.parametrize(
    ("destination", "why"),
    [
        ("sea-7", "7 zones"),
        ("copenhagen", "a port with a Danish garrison"),
        ("kurland", "a port with Russian blocks"),
        ("narva", "no port"),
        ("atlantis", "no area"),
    ],
)
def test_a_fleet_move_the_form_did_not_offer(pb, as_role, ids, destination, why):
    """Wachtmeister at sea in the Central Baltic (no port to leave): sea-N is N zones."""
    add_sea_chain(pb, 7)
    to_phase(pb, "actions")
    central = Area.objects.get(campaign=pb, key="central_baltic")
    Block.objects.filter(pk=ids["Wachtmeister"]).update(location=central)
    client = as_role("player")
    field = f"move_{ids['Wachtmeister']}"
    offered = options_of(detail(client, pb), field)
    assert {"sea-6", "livland", "southern_baltic"} <= set(offered)  # 6 zones at most (GNW-13)
    assert destination not in offered, why
    before = snapshot(pb)
    response = post_orders(client, pb, {field: destination})
    assert_refused(
        response,
        422,
        pb,
        before,
        f"Wachtmeister cannot end a move in “{destination}”",
        "(GNW-13)",
    )


def test_asking_about_another_sides_block_is_not_found(pb, as_role, ids):
    client = as_role("player")
    for name in ("Pyotr I", "Danish fleet", "Schulenburg"):
        for extra in ({}, HTMX):
            response = client.get(question_url(pb, ids[name]), **extra)
            assert response.status_code == 404, name
            assert name not in response.content.decode()
    response = as_role("other_player").get(question_url(pb, ids["Karl XII"]), **HTMX)
    assert response.status_code == 404
    assert "Karl XII" not in response.content.decode()


def test_asking_about_a_pool_block_an_unknown_topic_or_a_huge_id(pb, as_role, ids):
    client = as_role("player")
    urls = [
        question_url(pb, ids["Dalregementet"]),  # in the pool: not on the map
        question_url(pb, 10**18 - 1),
        f"/campaigns/{pb.pk}/ask/line/{'9' * 19}/",
        f"/campaigns/{pb.pk}/ask/line/abc/",
        reverse("campaign:question", args=[pb.pk, "supply", ids["Karl XII"]]),
    ]
    for url in urls:
        assert client.get(url, **HTMX).status_code == 404, url


def test_block_ids_of_another_campaign_are_not_found(pb, as_role, pb_users):
    other = make_pb_campaign()
    karl = Block.objects.get(campaign=other, name="Karl XII")
    wachtmeister = Block.objects.get(campaign=other, name="Wachtmeister")
    client = as_role("player")
    assert client.get(question_url(pb, karl.pk), **HTMX).status_code == 404
    before = snapshot(pb)
    response = post_orders(client, pb, {f"reinforce_{wachtmeister.pk}": "1", "steps_each": "0"})
    assert_refused(response, 422, pb, before, f"Block #{wachtmeister.pk} is not one of your")
    data = block_data(karl.pk, location="narva")
    response = gm_post(as_role("gm"), pb, "block", data)
    assert_refused(response, 422, pb, before, "There is no such block any more")
    assert block(karl.pk).location.key == "lietuva"


@pytest.mark.parametrize("phase", ["recruitment", "actions", "forage"])
def test_a_russian_player_posting_swedish_block_ids(pb, as_role, ids, phase):
    to_phase(pb, phase)
    prefix = {"recruitment": "reinforce_", "actions": "act_", "forage": "loss_"}[phase]
    client = as_role("other_player")
    for name in ("Karl XII", "Upplands", "Regiment 000"):
        before = snapshot(pb)
        response = post_orders(client, pb, {f"{prefix}{ids[name]}": "1"})
        assert_refused(response, 422, pb, before, f"Block #{ids[name]} is not one of your blocks.")
        assert name not in response.content.decode()
    if phase == "actions":
        before = snapshot(pb)
        response = post_orders(client, pb, {f"move_{ids['Wachtmeister']}": "kurland"})
        assert_refused(response, 422, pb, before, "is not one of your fleets that can move now")
        assert "Wachtmeister" not in response.content.decode()


@pytest.mark.parametrize("block_id", ["abc", "9" * 30, "-1", "٣", "1.0", ""])
def test_non_numeric_or_huge_block_ids(pb, as_role, block_id):
    before = snapshot(pb)
    response = post_orders(as_role("player"), pb, {f"reinforce_{block_id}": "1"})
    assert_refused(response, 422, pb, before, f"Block #{block_id} is not one of your blocks.")


@pytest.mark.parametrize("steps", ["abc", "2", "-1", "9" * 40, "1.5", "٣"])
def test_bad_step_counts(pb, as_role, ids, steps):
    before = snapshot(pb)
    response = post_orders(as_role("player"), pb, {f"reinforce_{ids['Wachtmeister']}": steps})
    assert_refused(response, 422, pb, before, "enter a whole number from 0 to 1.")


def test_draws_from_an_empty_pool_are_refused(pb, as_role):
    before = snapshot(pb)
    response = post_orders(as_role("other_player"), pb, {"draws": "1"})
    assert_refused(response, 422, pb, before, "These orders have no “draws”")


def test_orders_without_a_phase_or_for_a_closed_one(pb, as_role, ids):
    client = as_role("player")
    url = reverse("campaign:orders", args=[pb.pk])
    data = {f"reinforce_{ids['Wachtmeister']}": "1", "ready": "1"}
    before = snapshot(pb)
    assert_refused(
        client.post(url, data, **HTMX), 400, pb, before, "The form is incomplete: reload the page."
    )
    stale = {**data, "phase": pb.phase_id}
    to_phase(pb, "siege")
    before = snapshot(pb)
    assert_refused(client.post(url, stale, **HTMX), 409, pb, before, "This phase is closed")
    current = {**data, "phase": pb.phase_id}  # the siege phase takes no orders
    assert_refused(client.post(url, current), 409, pb, before, "This phase is closed")


# -- the GM's Pax Baltica edits --------------------------------------------------------


def gm_post(client, campaign, key: str, data: dict):
    return client.post(reverse("campaign:edit", args=[campaign.pk, key]), data)


def block_data(pk: int, **changes) -> dict:
    b = Block.objects.select_related("location").get(pk=pk)
    data = {
        "block": pk,
        "location": b.location.key if b.location_id else "",
        "strength": b.strength,
        "max_strength": b.max_strength,
        "rating": b.rating,
        "supply_trains": b.supply_trains,
        "carried_by": b.carried_by_id or "",
    }
    return {**data, **changes}


def test_gm_moves_a_block_and_only_its_side_reads_which(pb, as_role, ids):
    response = gm_post(
        as_role("gm"), pb, "block", block_data(ids["Menshikov"], location="velikaya")
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#edit-block")
    assert block(ids["Menshikov"]).location.key == "velikaya"
    assert "Menshikov" not in detail(as_role("player"), pb)
    assert "a block of Russia moves from Narva to Velikaya" in detail(as_role("player"), pb)
    assert "Menshikov (Russia) from Narva to Velikaya" in detail(as_role("other_player"), pb)


def test_gm_adds_a_block_that_only_its_side_reads_about(pb, as_role):
    data = {
        "nation": "denmark",
        "name": "Frederik IV",
        "kind": "army",
        "location": "copenhagen",
        "strength": "3",
        "max_strength": "4",
        "rating": "B2",
        "supply_trains": "1",
    }
    assert gm_post(as_role("gm"), pb, "block_add", data).status_code == 302
    added = Block.objects.select_related("location", "power").get(campaign=pb, name="Frederik IV")
    assert (added.power.key, added.location.key, added.strength) == ("denmark", "copenhagen", 3)
    assert "Frederik IV" not in detail(as_role("player"), pb)
    assert "adds a block of Denmark in Copenhagen" in detail(as_role("player"), pb)
    assert "Frederik IV" in detail(as_role("other_player"), pb)
    before = snapshot(pb)
    response = gm_post(as_role("gm"), pb, "block_add", data)  # the same name again
    assert_refused(response, 422, pb, before, "Give the block a name no other block has")


def test_gm_records_a_battle(pb, as_role, ids):
    data = {"territory": "narva", "winner": "coalition", "fought": [ids["Upplands"]]}
    assert gm_post(as_role("gm"), pb, "battle", data).status_code == 302
    assert block(ids["Upplands"]).in_battle
    narva = PbTerritory.objects.get(area__campaign=pb, area__key="narva")
    assert narva.battle_winner == "coalition"


def test_gm_edits_a_nation_a_territory_and_a_side(pb, as_role):
    client = as_role("gm")
    nation = {
        "nation": "sweden",
        "rp_level": "18",
        "event_rp": "-3",
        "deployment": ["livland", "t-0"],
        "fleet_ports": ["livland", "kurland"],
    }
    assert gm_post(client, pb, "nation", nation).status_code == 302
    sweden = PbNation.objects.get(power__campaign=pb, power__key="sweden")
    assert (sweden.rp_level, sweden.event_rp) == (18, -3)
    assert (sweden.deployment, sweden.fleet_ports) == (["livland", "t-0"], ["livland", "kurland"])
    territory = {
        "territory": "kurland",
        "controller": "russia",
        "garrison": "1",
        "forage_points": "4",
        "port": "on",
    }
    assert gm_post(client, pb, "territory", territory).status_code == 302
    kurland = PbTerritory.objects.select_related("area__controller").get(
        area__campaign=pb, area__key="kurland"
    )
    assert (kurland.area.controller.key, kurland.garrison, kurland.forage_points) == (
        "russia",
        1,
        4,
    )
    side = {"side": "coalition", "actions": "5", "actions_per_season": "4"}
    assert gm_post(client, pb, "side", side).status_code == 302
    coalition = PbSide.objects.get(campaign=pb, key="coalition")
    assert (coalition.actions, coalition.actions_per_season) == (5, 4)


BAD_EDITS = [
    ("block", lambda ids: block_data(ids["Menshikov"], location="atlantis"), "atlantis"),
    (
        "block",
        lambda ids: block_data(ids["Menshikov"], strength="5"),
        "The strength must be a whole number from 1 to 4.",
    ),
    ("block", lambda ids: block_data(ids["Menshikov"], rating="Z9"), "a letter A–D"),
    (
        "block",
        lambda ids: block_data(ids["Wachtmeister"], location="narva"),
        "A fleet can only be in a sea zone or a port; Narva has no port.",
    ),
    (
        "block",
        lambda ids: block_data(ids["Karl XII"], carried_by=ids["Danish fleet"]),
        "A block is carried by a fleet of its nation in the same place.",
    ),
    ("block", lambda ids: block_data(ids["Karl XII"], block="99999"), "reload the page"),
    (
        "battle",
        lambda ids: {"territory": "narva", "winner": "ottoman", "fought": []},
        "ottoman",
    ),
    (
        "battle",
        lambda ids: {"territory": "narva", "winner": "sweden", "fought": [ids["Karl XII"]]},
        "Karl XII is not in Narva.",
    ),
    (
        "battle",
        lambda ids: {"territory": "central_baltic", "winner": "sweden"},
        "central_baltic",
    ),
    (
        "nation",
        lambda ids: {"nation": "sweden", "rp_level": "100", "event_rp": "0"},
        "enter a whole number from 0 to 99.",
    ),
    (
        "nation",
        lambda ids: {
            "nation": "sweden",
            "rp_level": "20",
            "event_rp": "0",
            "fleet_ports": ["narva"],
        },
        "narva",
    ),
    ("nation", lambda ids: {"nation": "ottoman", "rp_level": "5", "event_rp": "0"}, "ottoman"),
    (
        "territory",
        lambda ids: {
            "territory": "narva",
            "controller": "sweden",
            "garrison": "10",
            "forage_points": "2",
        },
        "enter a whole number from 0 to 9.",
    ),
    (
        "territory",
        lambda ids: {
            "territory": "narva",
            "controller": "ottoman",
            "garrison": "1",
            "forage_points": "2",
        },
        "ottoman",
    ),
    (
        "side",
        lambda ids: {"side": "coalition", "actions": "21", "actions_per_season": "3"},
        "enter a whole number from 0 to 20.",
    ),
    (
        "side",
        lambda ids: {"side": "ottoman", "actions": "1", "actions_per_season": "3"},
        "ottoman",
    ),
]


@pytest.mark.parametrize(
    ("key", "data_of", "phrase"), BAD_EDITS, ids=[f"{k}-{p[:20]}" for k, _, p in BAD_EDITS]
)
def test_a_bad_gm_edit_is_refused_and_changes_nothing(pb, as_role, ids, key, data_of, phrase):
    client = as_role("gm")
    before = snapshot(pb)
    response = gm_post(client, pb, key, data_of(ids))
    assert_refused(response, 422, pb, before, phrase)
    assert 'class="message error"' in response.content.decode()


def test_a_player_may_not_edit(pb, as_role, ids):
    before = snapshot(pb)
    data = block_data(ids["Menshikov"], location="velikaya")
    response = gm_post(as_role("player"), pb, "block", data)
    assert_refused(response, 403, pb, before, "Only the game master")


def test_block_kinds_are_in_the_readers_language(pb, as_role):
    html = (
        as_role("player")
        .get(reverse("campaign:detail", args=[pb.pk]), HTTP_ACCEPT_LANGUAGE="ru")
        .content.decode()
    )
    assert "<td>армия</td>" in html and "полк" in html
    assert "<td>army</td>" not in html and "(regiment)" not in html
