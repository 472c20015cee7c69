"""Beacons' raid phase through the platform's services: a raid that reaches its beacon
holds the phase for its defender's decision (Hooks.decisions), which the defender or the
GM answers, or the rules answer for a defender without a player; the wood gathered and
the GM's edit of a reserve are written for their lord alone (Hooks.sees); the GM's edits
wait while a raid is asked."""

from __future__ import annotations

import pytest

from campaign.errors import ServiceError
from campaign.models import Campaign, Event, Phase, Seat
from campaign.play import services
from campaign.presenters import visible_text
from campaign.records import replay
from rules.dice import ScriptedDice
from tests.factories import make_toy_campaign, seat_users
from tests.toy import services as toy
from tests.toy.models import Beacon, Lord, Raid

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    """A Beacons campaign with GM-entered dice (North and South seated, West without a
    player), and ``resolve(*faces)``, which resolves its open phase with those dice."""
    campaign = make_toy_campaign()
    users = seat_users(campaign, "north", "south")
    Campaign.objects.filter(pk=campaign.pk).update(dice_mode=Campaign.DiceMode.SCRIPTED)

    def resolve(*faces: int) -> None:
        campaign.refresh_from_db()
        services.resolve_open_phase(
            campaign_id=campaign.pk,
            expected_phase_id=campaign.phase_id,
            actor=users["gm"],
            faces=list(faces),
        )
        campaign.refresh_from_db()

    return campaign, users, resolve


def order(campaign, power: str, payload: dict) -> None:
    campaign.refresh_from_db()
    seat = campaign.seats.select_related("power", "user").get(power__key=power)
    services.submit_orders(
        seat=seat, phase_id=campaign.phase_id, payload=payload, ready=True, actor=seat.user
    )


def answer(campaign, seat: Seat, keep: bool) -> None:
    campaign.refresh_from_db()
    services.decide(seat=seat, phase_id=campaign.phase_id, answer={"keep": keep}, actor=seat.user)
    campaign.refresh_from_db()


def lit(campaign, area: str) -> str | None:
    beacon = Beacon.objects.select_related("lit_by").get(campaign=campaign, area__key=area)
    return beacon.lit_by.key if beacon.lit_by else None


def wood(campaign, power: str) -> int:
    return Lord.objects.get(power__campaign=campaign, power__key=power).wood


def seat_of(campaign, power: str) -> Seat:
    return campaign.seats.select_related("power", "user").get(power__key=power)


@pytest.fixture
def asked(night):
    """North lit Cairn on Night 1 and gathers 2 wood (3 in all); South's raid on Cairn
    rolls a 6: the raid phase waits for North, whom keeping it costs 3 wood."""
    campaign, users, resolve = night
    order(campaign, "north", {"area": "cairn"})
    resolve(5)
    order(campaign, "north", {"action": "gather"})
    order(campaign, "south", {"action": "raid", "area": "cairn"})
    resolve(6)
    return campaign, users


def test_a_raid_that_reaches_its_beacon_waits_for_its_defender(asked):
    campaign, _ = asked
    assert (campaign.phase.key, campaign.phase.status) == ("raid", Phase.Status.WAITING)
    assert wood(campaign, "north") == 3
    raid = Raid.objects.get(campaign=campaign)
    assert (raid.raider.key, raid.area.key, raid.face) == ("south", "cairn", 6)
    world = campaign.rules.load_world(campaign)
    assert campaign.rules.hooks.decisions.default(world) == ("north", {"keep": True})
    roll = Event.objects.get(campaign=campaign, rule="TOY-2", roll__isnull=False)
    assert roll.text == (
        "South raids the beacon of North in Cairn: die 6 = 6 ≥ 4: the raid reaches the "
        "beacon: North decides"
    )


def test_the_defender_keeps_its_beacon_by_burning_wood_and_the_night_goes_on(asked):
    campaign, _ = asked
    answer(campaign, seat_of(campaign, "north"), keep=True)
    assert (lit(campaign, "cairn"), wood(campaign, "north")) == ("north", 0)
    assert not Raid.objects.filter(campaign=campaign).exists()
    assert (campaign.phase.key, campaign.turn) == ("signal", 2)
    said = Event.objects.filter(campaign=campaign, rule="TOY-2").values_list("text", flat=True)
    assert "North burns 3 wood: its beacon in Cairn holds." in said
    assert replay.replay(campaign.pk).match  # the answer is recorded and replayed


def test_a_beacon_let_go_is_doused_and_the_reserve_kept(asked):
    campaign, _ = asked
    answer(campaign, seat_of(campaign, "north"), keep=False)
    assert (lit(campaign, "cairn"), wood(campaign, "north")) == (None, 3)
    assert campaign.phase.key == "signal"


def test_only_the_defender_or_the_gm_answers(asked):
    campaign, _ = asked
    with pytest.raises(ServiceError, match="The decision is North's to make."):
        answer(campaign, seat_of(campaign, "south"), keep=False)
    assert campaign.phase.status == Phase.Status.WAITING
    answer(campaign, campaign.seats.get(role=Seat.Role.GM), keep=False)
    assert lit(campaign, "cairn") is None


def test_a_defender_without_a_player_gets_the_default_answer(night, monkeypatch):
    """In a campaign that resolves itself, West (no player, 1 wood) cannot pay 3 for a
    6: its beacon in Dale is let go."""
    campaign, _, resolve = night
    Campaign.objects.filter(pk=campaign.pk).update(dice_mode=Campaign.DiceMode.SEEDED)
    order(campaign, "north", {"area": "fell"})
    monkeypatch.setattr(services, "_dice_for", lambda *args: ScriptedDice([5]))
    resolve()
    order(campaign, "north", {"action": "raid", "area": "dale"})
    monkeypatch.setattr(services, "_dice_for", lambda *args: ScriptedDice([6]))
    resolve()
    assert lit(campaign, "dale") is None
    assert (campaign.phase.key, campaign.turn) == ("signal", 2)
    assert Event.objects.filter(
        campaign=campaign, text="West has no player here to decide: it gives the default answer."
    ).exists()


def test_the_wood_gathered_is_written_for_its_lord_alone(night):
    campaign, _, resolve = night
    resolve()
    order(campaign, "south", {"action": "gather"})
    resolve()
    line = Event.objects.get(campaign=campaign, rule="TOY-3")
    assert line.audience == ["south"]
    assert visible_text(line, frozenset({"south"})) == "South gathers 1 wood: its reserve holds 3."
    assert visible_text(line, frozenset({"north"})) == "South gathers wood."
    assert wood(campaign, "south") == 3


def test_the_gms_edit_of_a_reserve_is_read_in_full_by_its_lord_alone(night):
    campaign, users, _ = night
    said = toy.gm_edit(
        campaign_id=campaign.pk, actor=users["gm"], edit="lord", lord="south", wood=4
    )
    assert said == "South's reserve: 4 wood"
    assert wood(campaign, "south") == 4
    line = Event.objects.filter(campaign=campaign, kind=Event.Kind.GM).latest("pk")
    assert "South's reserve: 4 wood" in visible_text(line, frozenset({"south"}))
    assert "4 wood" not in visible_text(line, frozenset({"north"}))
    assert "corrects the reserve of South" in visible_text(line, frozenset({"north"}))


def test_the_gm_edits_a_beacon_but_not_while_a_raid_is_asked(asked):
    campaign, users = asked
    with pytest.raises(ServiceError, match="A raid waits for North's decision"):
        toy.gm_edit(
            campaign_id=campaign.pk, actor=users["gm"], edit="beacon", beacon="moor", lit_by="west"
        )
    answer(campaign, seat_of(campaign, "north"), keep=True)
    said = toy.gm_edit(
        campaign_id=campaign.pk, actor=users["gm"], edit="beacon", beacon="moor", lit_by="west"
    )
    assert said == "the beacon in Moor is lit by West"
    assert lit(campaign, "moor") == "west"
