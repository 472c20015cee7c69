"""Pax Baltica phase services on the database: a full year, query bounds, atomicity."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Area, Event, Phase, RollRecord
from campaign.play import services
from campaign.state import persistence
from rules.pax_baltica import services as pb_services
from rules.pax_baltica.models import Block, PbNation, PbSide, PbTerritory
from tests.factories import make_pb_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import CyclingDice, order, resolve

# a resolution, then the next phase opening: it reads the state once more to ask who has
# something to order in it (readiness.to_order)
PHASE_QUERY_BOUND = 45
SEASON = ["actions", "siege", "forage"]
# Narva's garrison (C1, 2 dice) fires first and misses; Menshikov (C2, 3 dice) hits twice.
SIEGE_FACES = (6, 6, 1, 1, 6, 6)


def block(campaign, name: str) -> Block:
    return Block.objects.select_related("location").get(campaign=campaign, name=name)


def ids(campaign, *names: str) -> list[int]:
    return [block(campaign, name).pk for name in names]


def give_first_season_orders(campaign) -> None:
    """Recruitment, then the spring's actions: the orders of the year test."""
    campaign.refresh_from_db()
    assert campaign.phase.key == "recruitment"
    order(
        campaign,
        "saxony",
        {"reinforce": [], "draws": 1, "steps_each": 0, "places": ["lausitz"], "fleet_places": []},
    )
    (wachtmeister,) = ids(campaign, "Wachtmeister")
    order(
        campaign,
        "sweden",
        {
            "reinforce": [{"block": wachtmeister, "steps": 1}],
            "draws": 0,
            "steps_each": 0,
            "places": [],
            "fleet_places": [],
        },
    )
    resolve(campaign)
    PbSide.objects.filter(campaign=campaign, key="coalition").update(actions=4)  # the GM's roll
    campaign.refresh_from_db()
    campaign.bump_version()  # as the GM's edit would
    august, danes, menshikov = ids(campaign, "August II", "Danish fleet", "Menshikov")
    order(
        campaign,
        "saxony",
        {"reinforce": [{"block": august, "actions": 2}], "fleet_moves": [], "sieges": []},
    )
    order(
        campaign,
        "denmark",
        {"reinforce": [], "fleet_moves": [{"fleet": danes, "path": ["southern_baltic"]}]},
    )
    order(
        campaign,
        "russia",
        {"sieges": [{"territory": "narva", "blocks": [menshikov]}]},
    )


@pytest.mark.django_db
def test_a_full_year_recruits_acts_besieges_and_forages(monkeypatch):
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice(SIEGE_FACES))
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    give_first_season_orders(campaign)
    campaign.refresh_from_db()
    assert campaign.phase.key == "actions"
    resolve(campaign, users["gm"])  # the actions
    assert block(campaign, "August II").strength == 3  # two actions (GNW-8)
    assert block(campaign, "Danish fleet").location.key == "southern_baltic"  # GNW-13
    assert block(campaign, "Menshikov").besieging
    resolve(campaign, users["gm"])  # the siege of Narva
    order(campaign, "russia", {"loss_order": ids(campaign, "Sheremetev", "Pyotr I")})
    resolve(campaign, users["gm"])  # forage
    for _ in range(3 * len(SEASON)):
        resolve(campaign, users["gm"])
    campaign.refresh_from_db()

    assert (campaign.turn, campaign.phase.key, campaign.turn_label) == (
        5,
        "recruitment",
        "Spring 1701",
    )
    assert Phase.objects.filter(campaign=campaign, status="resolved").count() == 13
    assert block(campaign, "Wachtmeister").strength == 4  # 2 RP in its own port (GNW-7)
    drawn = Block.objects.filter(campaign=campaign, name__in=["Schulenburg", "Lubomirski"])
    placed = [b for b in drawn if b.location_id]
    assert len(placed) == 1 and placed[0].location.key == "lausitz"
    assert Event.objects.filter(campaign=campaign, rule="GNW-10", text__contains="strength 4")
    # Kurland, FP 3: demand 2 + 2 + 1 = 5, supply 3 + 1 = 4: one step a season, the
    # strongest first, the owner's order among equals, never below 1 (GNW-4).
    sheremetev, pyotr = block(campaign, "Sheremetev"), block(campaign, "Pyotr I")
    assert sheremetev.strength + pyotr.strength == 8 - 4
    assert min(sheremetev.strength, pyotr.strength) >= 1
    # Narva: 2 hits against a garrison of 2: captured; Sweden's own territory surrendered.
    narva = PbTerritory.objects.select_related("area__controller").get(
        area__key="narva", area__campaign=campaign
    )
    assert narva.area.controller.key == "russia" and narva.surrendered
    assert PbNation.objects.get(power__campaign=campaign, power__key="sweden").rp_level == 16
    assert set(PbSide.objects.filter(campaign=campaign).values_list("actions", flat=True)) == {3}
    rules_rolled = set(RollRecord.objects.filter(campaign=campaign).values_list("rule", flat=True))
    assert {"GNW-1"} <= rules_rolled
    assert Event.objects.filter(campaign=campaign, rule="GNW-4").exists()


def _phase_query_counts(territories: int, monkeypatch, bound) -> list[int]:
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice())
    campaign = make_pb_campaign(territories=territories)
    give_first_season_orders(campaign)
    counts = []
    for _ in SEASON:
        campaign.refresh_from_db()
        with bound(PHASE_QUERY_BOUND), CaptureQueriesContext(connection) as captured:
            resolve(campaign)
        counts.append(len(captured))
    return counts


@pytest.mark.django_db
def test_phase_services_run_the_same_number_of_queries_for_10_and_200_territories(
    monkeypatch, django_assert_max_num_queries
):
    small = _phase_query_counts(10, monkeypatch, django_assert_max_num_queries)
    large = _phase_query_counts(200, monkeypatch, django_assert_max_num_queries)
    assert small == large


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("module", "fault"),
    [
        (pb_services, "_persist_nations"),
        (pb_services, "_persist_territories"),
        (pb_services, "_persist_sides"),
        (persistence, "sync_rows"),
        (persistence, "write_log"),
    ],
)
def test_an_error_in_the_middle_of_a_phase_leaves_the_campaign_as_it_was(
    monkeypatch, module, fault
):
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice(SIEGE_FACES))
    campaign = make_pb_campaign()
    give_first_season_orders(campaign)
    resolve(campaign)
    before = snapshot(campaign)

    def broken(*args, **kwargs):
        raise RuntimeError(f"disk full in {fault}")

    monkeypatch.setattr(module, fault, broken)
    with pytest.raises(RuntimeError):
        resolve(campaign)  # the siege of Narva changes blocks, territories, nations, log
    assert snapshot(campaign) == before


@pytest.mark.django_db
def test_a_gm_edit_moves_a_block_and_only_its_side_reads_which():
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    (karl,) = ids(campaign, "Karl XII")
    text = pb_services.gm_edit(
        campaign_id=campaign.pk,
        actor=users["gm"],
        edit="block",
        block=karl,
        location="kurland",
        strength=2,
        max_strength=4,
        rating="B3",
        supply_trains=1,
        carried_by=None,
        in_battle=True,
    )
    assert "Karl XII" in text
    assert block(campaign, "Karl XII").location.key == "kurland"
    event = Event.objects.filter(campaign=campaign, kind="gm").latest("id")
    assert "Karl XII" in event.text and "Karl XII" not in event.redacted
    assert event.audience == ["sweden"]
    assert Area.objects.get(campaign=campaign, key="kurland").blocks.count() == 4


@pytest.mark.django_db
def test_a_side_edit_writes_both_the_actions_left_and_those_each_season_brings():
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    pb_services.gm_edit(
        campaign_id=campaign.pk,
        actor=users["gm"],
        edit="side",
        side="sweden",
        actions=5,
        actions_per_season=7,
    )
    side = PbSide.objects.get(campaign=campaign, key="sweden")
    assert (side.actions, side.actions_per_season) == (5, 7)


@pytest.mark.django_db
def test_the_gm_sets_which_side_acts_first():
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    pb_services.gm_edit(
        campaign_id=campaign.pk,
        actor=users["gm"],
        edit="side",
        side="coalition",
        actions=3,
        actions_per_season=3,
        first=True,
    )
    order = list(PbSide.objects.filter(campaign=campaign).values_list("key", flat=True))
    assert order == ["coalition", "sweden"]
    assert list(pb_services.load_world(campaign).actions) == ["coalition", "sweden"]
