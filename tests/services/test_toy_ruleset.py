"""Beacons (tests/toy), a fourth ruleset that the site knows only through the ruleset
contract (tests/settings.py installs it), through a campaign's whole life: created from
its scenario, orders from the players' pages, resolution by the GM, the two phases of a
night, the log, the history page, rollback, replay, and export → import → export.
Nothing in campaign/ or in the three games was changed for it (its raids, decisions,
GM edits and hidden reserves: tests/services/test_toy_raids.py and
tests/views/test_toy_pages.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.maps.stored import built_map
from campaign.models import Campaign, Event
from campaign.play import services
from campaign.play.scenarios import available_scenarios, create_campaign
from campaign.records import archive, replay, rollback
from rules.engine import registry
from tests.factories import seat_users
from tests.toy.models import Beacon, Lord

pytestmark = pytest.mark.django_db
# The scenario's beacons: each lord's own lit, the areas between them not
AT_START = {
    "cairn": None,
    "crag": "north",
    "dale": "west",
    "fell": None,
    "moor": None,
    "tor": "south",
}
WOOD_AT_START = {"north": 1, "south": 2, "west": 1}  # each lord's hidden reserve


@pytest.fixture
def beacons():
    """A Beacons campaign with a user in every role (North the player, South the other)."""
    creator = get_user_model().objects.create_user("lord-warden")
    campaign = create_campaign(scenario_key="toy-1", name="Beacons", gm=creator)
    services.add_observer_seat(campaign_id=campaign.pk, actor=creator)
    users = seat_users(campaign, "north", "south")
    campaign.refresh_from_db()
    return campaign, users


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def lit(campaign: Campaign) -> dict[str, str | None]:
    beacons = Beacon.objects.filter(campaign=campaign).select_related("area", "lit_by")
    return {b.area.key: b.lit_by.key if b.lit_by else None for b in beacons}


def wood(campaign: Campaign) -> dict[str, int]:
    return dict(Lord.objects.filter(power__campaign=campaign).values_list("power__key", "wood"))


def test_the_toy_is_installed_with_its_scenario_and_its_drawn_map():
    assert "toy" in registry()
    assert [s.key for s in available_scenarios() if s.ruleset == "toy"] == ["toy-1"]
    assert set(built_map("toy-1").areas) == set(AT_START)


def test_a_campaign_is_created_from_its_scenario(beacons):
    campaign, _ = beacons
    assert campaign.phase.key == "signal"
    assert lit(campaign) == AT_START
    assert wood(campaign) == WOOD_AT_START
    assert [spec.key for spec in campaign.rules.turn_phases(1, campaign.setup)] == [
        "signal",
        "raid",
    ]


def test_orders_resolution_log_and_history_through_the_pages(beacons):
    campaign, users = beacons
    phase = campaign.phase
    page = client_of(users["player"]).get(reverse("campaign:detail", args=[campaign.pk]))
    assert page.status_code == 200 and 'name="area"' in page.content.decode()
    for role, area in (("player", "fell"), ("other_player", "moor")):
        posted = client_of(users[role]).post(
            reverse("campaign:orders", args=[campaign.pk]),
            {"phase": phase.pk, "ready": "0", "area": area},
        )
        assert posted.status_code == 302
    refused = client_of(users["player"]).post(
        reverse("campaign:orders", args=[campaign.pk]),
        {"phase": phase.pk, "ready": "0", "area": "tor"},
    )
    assert refused.status_code == 422  # not one of its choices
    campaign.dice_mode = Campaign.DiceMode.SCRIPTED
    campaign.save(update_fields=["dice_mode"])
    gm = client_of(users["gm"])
    advanced = gm.post(
        reverse("campaign:advance", args=[campaign.pk]),
        {"phase": phase.pk, "faces": "5 2", "state_version": campaign.state_version},
    )
    assert advanced.status_code == 302
    campaign.refresh_from_db()
    assert lit(campaign) == {**AT_START, "fell": "north"}
    assert campaign.phase.key == "raid" and campaign.turn == 1  # the night's second phase
    lines = [e.text for e in Event.objects.filter(campaign=campaign, rule="TOY-1")]
    assert "North lights Fell: die 5 = 5 ≥ 4: the beacon is lit" in lines
    assert "South lights Moor: die 2 = 2 ≥ 4: it does not catch" in lines
    page = gm.get(reverse("campaign:history", args=[campaign.pk, phase.pk]))
    assert page.status_code == 200 and "the beacon is lit" in page.content.decode()
    raid = campaign.phase
    advanced = gm.post(
        reverse("campaign:advance", args=[campaign.pk]),
        {"phase": raid.pk, "faces": "", "state_version": campaign.state_version},
    )
    assert advanced.status_code == 302
    campaign.refresh_from_db()
    assert campaign.phase.key == "signal" and campaign.turn == 2
    assert replay.replay(campaign.pk).match


def test_rollback_gives_the_state_the_phase_resolved_from(beacons):
    campaign, _ = beacons
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    rollback.roll_back(campaign_id=campaign.pk, actor=None)
    campaign.refresh_from_db()
    assert campaign.turn == 1
    assert lit(campaign) == AT_START


def test_export_import_export_gives_the_same_archive(beacons):
    campaign, _ = beacons
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    exported = archive.export_campaign(campaign)
    assert exported["state"]["beacons"][0] == {"area": "crag", "lit_by": "north"}
    assert {row["power"]: row["wood"] for row in exported["state"]["lords"]} == WOOD_AT_START
    copy = archive.import_campaign(exported, name="Beacons copy")
    again = archive.export_campaign(copy)
    assert again["state"] == exported["state"]
    assert lit(copy) == lit(campaign) and wood(copy) == wood(campaign)
