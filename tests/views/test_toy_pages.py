"""Beacons (tests/toy) through its pages, as the site knows it through the ruleset
contract alone: its presenter's beacons on the drawn map with its own style sheet, the
GM's edits from the dashboard, the decision a raid asks of its defender on the
defender's page (and nobody else's), and the reserves of wood that no other lord's page,
fragment or API answer ever shows."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from campaign.api import tokens as api_tokens
from campaign.models import Campaign, Phase
from tests.factories import dashboard_with_edits, make_toy_campaign, seat_users, snapshot
from tests.maps import with_map
from tests.toy.models import Beacon, Lord

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def toy():
    """A Beacons campaign with GM-entered dice: North is the player, South the other
    player, West has none."""
    campaign = make_toy_campaign()
    users = seat_users(campaign, "north", "south")
    Campaign.objects.filter(pk=campaign.pk).update(dice_mode=Campaign.DiceMode.SCRIPTED)
    campaign.refresh_from_db()
    return campaign, users


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def u(name: str, *args) -> str:
    return reverse(f"campaign:{name}", args=args)


def page(client, campaign) -> str:
    """The campaign page, its map loaded."""
    response = client.get(u("detail", campaign.pk))
    assert response.status_code == 200
    return with_map(client, response.content.decode())


def order(client, campaign, data: dict) -> None:
    campaign.refresh_from_db()
    posted = client.post(
        u("orders", campaign.pk), {"phase": campaign.phase_id, "ready": "1", **data}
    )
    assert posted.status_code == 302, posted.content.decode()[-600:]


def advance(gm, campaign, faces: str = "") -> None:
    campaign.refresh_from_db()
    data = {"phase": campaign.phase_id, "faces": faces, "state_version": campaign.state_version}
    assert gm.post(u("advance", campaign.pk), data).status_code == 302
    campaign.refresh_from_db()


@pytest.fixture
def asked(toy):
    """North lit Cairn and gathered (3 wood); South's raid on it rolled a 6 and waits for
    North's decision. Clients by role."""
    campaign, users = toy
    clients = {role: client_of(user) for role, user in users.items()}
    order(clients["player"], campaign, {"area": "cairn"})
    advance(clients["gm"], campaign, "5")
    order(clients["player"], campaign, {"action": "gather"})
    order(clients["other_player"], campaign, {"action": "raid:cairn"})
    advance(clients["gm"], campaign, "6")
    assert campaign.phase.status == Phase.Status.WAITING
    return campaign, clients


def test_the_drawn_map_shows_the_beacons_in_their_lords_colours(toy):
    campaign, users = toy
    html = page(client_of(users["player"]), campaign)
    assert '<figure class="drawn"' in html
    flames = re.findall(r'<g class="badge beacon"><path d="[^"]+" style="fill: ([^"]+)"/>', html)
    lords = {"#1f4e79", "#8b1e1e", "#2e6b30"}  # Crag's, Tor's and Dale's, and the legend's
    assert sorted(flames) == sorted([*lords, "#ffffff"])
    assert 'href="/static/courier/toy/map.css"' in html
    assert "A lit beacon, in its lord's colour" in html  # its legend entry
    table = client_of(users["player"]).get(u("area_table", campaign.pk)).content.decode()
    assert '<th scope="col">Beacon</th>' in table and "lit by North" in table


def test_a_raid_under_way_stripes_its_beacon_and_is_a_panel_of_its_own(asked):
    campaign, clients = asked
    html = page(clients["observer"], campaign)
    assert re.search(r'id="map-cairn".*?fill="url\(#pattern-stripes\)"', html, re.S)
    assert "South on the beacon of North in Cairn (die 6)" in html
    assert "raided by South (die 6)" in html


def test_the_gm_edits_a_reserve_and_a_beacon_from_the_dashboard(toy):
    campaign, users = toy
    gm = client_of(users["gm"])
    dashboard = dashboard_with_edits(gm, campaign)
    assert "Reserves of wood (hidden from the other lords)" in dashboard
    assert "Beacons: lit by a lord, or unlit" in dashboard
    posted = gm.post(u("edit", campaign.pk, "lord"), {"lord": "south", "wood": "4"})
    assert posted.status_code == 302
    assert Lord.objects.get(power__campaign=campaign, power__key="south").wood == 4
    posted = gm.post(u("edit", campaign.pk, "beacon"), {"beacon": "moor", "lit_by": "west"}, **HTMX)
    assert (
        posted.status_code == 200 and "the beacon in Moor is lit by West" in posted.content.decode()
    )
    assert Beacon.objects.get(campaign=campaign, area__key="moor").lit_by.key == "west"
    before = snapshot(campaign)
    refused = gm.post(u("edit", campaign.pk, "lord"), {"lord": "south", "wood": "6"})
    assert refused.status_code == 422 and snapshot(campaign) == before


def test_the_defender_decides_on_its_page(asked):
    campaign, clients = asked
    mine = page(clients["player"], campaign)
    assert "Your decision" in mine
    assert "Burn 3 wood and keep it" in mine and "The reserve holds 3 wood." in mine
    data = {"phase": campaign.phase_id, "version": campaign.version, "keep": "keep"}
    answered = clients["player"].post(u("decision", campaign.pk), data)
    assert answered.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.phase.key, campaign.turn) == ("signal", 2)
    assert Lord.objects.get(power__campaign=campaign, power__key="north").wood == 0
    assert Beacon.objects.get(campaign=campaign, area__key="cairn").lit_by.key == "north"


def test_the_raider_waits_and_may_not_answer(asked):
    campaign, clients = asked
    theirs = page(clients["other_player"], campaign)
    assert "Waiting for North" in theirs
    assert "The raid of South (TOY-2) waits for the decision of North." in theirs
    assert "Burn 3 wood" not in theirs and "The reserve holds" not in theirs
    before = snapshot(campaign)
    data = {"phase": campaign.phase_id, "keep": "let_go"}
    refused = clients["other_player"].post(u("decision", campaign.pk), data, **HTMX)
    assert refused.status_code == 403 and snapshot(campaign) == before


# -- the reserves: hidden from the other lords ----------------------------------------


def readable(client, campaign) -> str:
    """Everything a seat reads of the campaign: its page with its map, the map table,
    each area's panel, the timeline, the history and verify pages of each resolved phase,
    and the API's state and log."""
    pk = campaign.pk
    urls = [u("area_table", pk), u("timeline", pk), u("map_svg", pk)]
    urls += [u("area", pk, key) for key in ("crag", "fell", "moor", "tor", "dale", "cairn")]
    for phase in Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED):
        urls += [u("history", pk, phase.pk), u("verify", pk, phase.pk)]
    texts = [page(client, campaign)]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        texts.append(response.content.decode())
    return unescape("\n".join(texts))


def api_text(user, campaign) -> str:
    _, token = api_tokens.make_token(user=user, name="reader")
    headers = {"Authorization": f"Bearer {token}"}
    client = Client(headers=headers)
    texts = [
        client.get(reverse(f"api:{name}", args=[campaign.pk])).content.decode()
        for name in ("campaign", "log")
    ]
    return "\n".join(texts)


@pytest.fixture
def secrets(toy):
    """A night played, each lord's reserve set apart: North 1 (the scenario's), South 3
    and West 5 (the GM's edits, logged), then South gathers 1 (4)."""
    campaign, users = toy
    gm = client_of(users["gm"])
    for lord, wood in (("south", "3"), ("west", "5")):
        assert (
            gm.post(u("edit", campaign.pk, "lord"), {"lord": lord, "wood": wood}).status_code == 302
        )
    advance(gm, campaign)
    order(client_of(users["other_player"]), campaign, {"action": "gather"})
    advance(gm, campaign)
    return campaign, users


def test_another_lords_pages_never_show_its_reserve(secrets):
    campaign, users = secrets
    north = readable(client_of(users["player"]), campaign) + api_text(users["player"], campaign)
    assert "1 wood" in north  # its own
    for shown in ("4 wood", "5 wood", "reserve holds 4", "South's reserve: 3", "West's reserve"):
        assert shown not in north, shown
    assert "South gathers wood." in north and "corrects the reserve of West" in north


def test_the_lord_and_the_gm_read_it_and_watchers_do_not(secrets):
    campaign, users = secrets
    south = readable(client_of(users["other_player"]), campaign)
    assert "South gathers 1 wood: its reserve holds 4." in south and "5 wood" not in south
    gm = readable(client_of(users["gm"]), campaign)
    assert all(shown in gm for shown in ("1 wood", "4 wood", "5 wood"))
    watcher = readable(client_of(users["observer"]), campaign)
    assert not any(shown in watcher for shown in ("1 wood", "4 wood", "5 wood"))
