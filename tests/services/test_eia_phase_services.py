"""EIA phase services against the database: a whole month, query bounds, atomicity."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import errors
from campaign.models import Event, Order, Phase, Power, RollRecord
from campaign.play import services
from campaign.state import persistence
from rules.dice import DieRoll
from rules.empires_in_arms import services as eia_services
from rules.empires_in_arms.models import EiaPowerStatus, GuerrillaStack, LetDown, Revolt
from tests.factories import make_eia_campaign, seat_users, snapshot

# a resolution, then the next phase opening: it reads the state once more to ask who has
# something to order in it (readiness.to_order)
PHASE_QUERY_BOUND = 45


@dataclass
class CyclingDice:
    """The same faces, over and over: identical outcomes in campaigns of any size."""

    faces: tuple[int, ...] = (3, 5, 2, 6, 1, 4)
    rolls: list[DieRoll] = field(default_factory=list)

    def d6(self, purpose: str) -> int:
        face = self.faces[len(self.rolls) % len(self.faces)]
        self.rolls.append(DieRoll(len(self.rolls), purpose, face))
        return face


def resolve(campaign, actor=None, faces=None) -> Phase:
    campaign.refresh_from_db()
    return services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=actor, faces=faces
    )


def order(campaign, power_key: str, payload: dict, user=None) -> None:
    campaign.refresh_from_db()
    seat = campaign.seats.select_related("power").get(power__key=power_key)
    services.submit_orders(
        seat=seat, phase_id=campaign.phase_id, payload=payload, ready=True, actor=user
    )


def quarter_campaign(areas: int = 10, **kwargs):
    """A campaign whose first month (March 1805) has every phase: political to economic."""
    campaign = make_eia_campaign(areas=areas, start=False, **kwargs)
    campaign.setup = {"start_year": 1805, "start_month": 3, "political_months": [3]}
    campaign.save()
    services.start_campaign(campaign, actor=None)
    campaign.refresh_from_db()
    return campaign


@pytest.mark.django_db
def test_a_full_month_resolves_political_land_conquest_and_economic():
    campaign = quarter_campaign()
    users = seat_users(campaign)
    keys = []
    gb = EiaPowerStatus.objects.get(power__campaign=campaign, power__key="great_britain")
    pp_before, treasury_before = gb.political_points, gb.treasury

    keys.append(campaign.phase.key)
    resolve(campaign, users["gm"])  # peace: nobody lets a revolt lapse
    campaign.refresh_from_db()
    keys.append(campaign.phase.key)
    order(campaign, "great_britain", {"targets": ["minor-0"]}, users["other_player"])
    resolve(campaign, users["gm"])
    campaign.refresh_from_db()
    keys.append(campaign.phase.key)
    order(campaign, "france", {"operations": ["palatinate"], "moves": [], "depot_attacks": []})
    resolve(campaign, users["gm"])
    campaign.refresh_from_db()
    keys.append(campaign.phase.key)
    resolve(campaign, users["gm"])
    campaign.refresh_from_db()
    keys.append(campaign.phase.key)
    order(campaign, "great_britain", {"aid": {"palatinate": 3}})
    resolve(campaign, users["gm"])
    campaign.refresh_from_db()

    assert keys == ["peace", "revolt", "land", "conquest", "economic"]
    assert (campaign.turn, campaign.phase.key, campaign.turn_label) == (2, "land", "April 1805")
    gb.refresh_from_db()
    assert gb.political_points == pp_before - 1  # one attempt, 1 PP whatever the result
    assert gb.treasury == treasury_before - 3  # the aid is spent either way
    rules_rolled = set(RollRecord.objects.filter(campaign=campaign).values_list("rule", flat=True))
    assert {"EIA-1", "EIA-3", "EIA-4", "EIA-5"} <= rules_rolled
    assert Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED).count() == 5
    assert Event.objects.filter(campaign=campaign, rule="EIA-1", kind=Event.Kind.ROLL).exists()


@pytest.mark.django_db
def test_every_roll_of_a_phase_is_recorded_in_the_order_it_was_rolled(monkeypatch):
    campaign = quarter_campaign()
    resolve(campaign)
    order(campaign, "great_britain", {"targets": ["minor-0", "minor-2"]})
    dice = CyclingDice((6, 3, 1, 4))
    monkeypatch.setattr(services, "_dice_for", lambda *args: dice)
    phase = resolve(campaign)
    records = RollRecord.objects.filter(campaign=campaign).order_by("index")
    recorded = [face for record in records for face in record.faces]
    assert recorded == [roll.face for roll in dice.rolls]
    assert [r.index for r in records] == [0, 1, 2]
    assert phase.key == "land"


def _phase_query_counts(areas: int, monkeypatch, django_assert_max_num_queries) -> list[int]:
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice())
    campaign = quarter_campaign(areas)
    order(campaign, "great_britain", {"lapse": []})
    counts = []
    payloads = {
        "revolt": ("great_britain", {"targets": ["minor-0", "minor-2"]}),
        "land": ("france", {"operations": ["palatinate"], "moves": [], "depot_attacks": []}),
        "economic": ("great_britain", {"aid": {"palatinate": 2}}),
    }
    for _ in range(5):
        campaign.refresh_from_db()
        if campaign.phase.key in payloads:
            power, payload = payloads[campaign.phase.key]
            order(campaign, power, payload)
        with (
            django_assert_max_num_queries(PHASE_QUERY_BOUND),
            CaptureQueriesContext(connection) as captured,
        ):
            resolve(campaign)
        counts.append(len(captured))
    return counts


@pytest.mark.django_db
def test_phase_services_run_the_same_number_of_queries_for_10_and_200_areas(
    monkeypatch, django_assert_max_num_queries
):
    small = _phase_query_counts(10, monkeypatch, django_assert_max_num_queries)
    large = _phase_query_counts(200, monkeypatch, django_assert_max_num_queries)
    assert small == large


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("module", "fault"),
    [
        (eia_services, "_persist_powers"),
        (eia_services, "_persist_areas"),
        (persistence, "sync_rows"),
        (eia_services, "_persist_revolts"),
        (eia_services, "_persist_relations"),
        (persistence, "upsert_changed"),
        (persistence, "write_log"),
    ],
)
def test_an_error_in_the_middle_of_a_phase_leaves_the_campaign_as_it_was(
    monkeypatch, module, fault
):
    campaign = quarter_campaign()
    resolve(campaign)
    order(campaign, "great_britain", {"targets": ["minor-0", "minor-2", "minor-4"]})
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice((6, 5)))
    before = snapshot(campaign)

    def broken(*args, **kwargs):
        raise RuntimeError(f"disk full in {fault}")

    monkeypatch.setattr(module, fault, broken)
    with pytest.raises(RuntimeError):
        resolve(campaign)
    assert snapshot(campaign) == before


@pytest.mark.django_db
def test_gm_entered_dice_must_match_the_rolls_the_phase_needs():
    campaign = quarter_campaign(dice_mode="scripted")
    resolve(campaign, faces=[])
    order(campaign, "great_britain", {"targets": ["minor-0"]})
    before = snapshot(campaign)
    with pytest.raises(errors.DiceError, match="Not enough dice"):
        resolve(campaign, faces=[6])  # a success needs a second die for EIA-2
    with pytest.raises(errors.DiceError, match="exactly"):
        resolve(campaign, faces=[6, 3, 2])
    with pytest.raises(errors.DiceError, match="enter the faces"):
        resolve(campaign)
    assert snapshot(campaign) == before
    resolve(campaign, faces=[6, 3])
    revolt = Revolt.objects.get(campaign=campaign, area__key="minor-0")
    assert revolt.active and 2 <= revolt.number <= 5


@pytest.mark.django_db
def test_orders_for_a_closed_phase_are_refused_and_change_nothing():
    campaign = quarter_campaign()
    closed = campaign.phase_id
    resolve(campaign)
    seat = campaign.seats.select_related("power").get(power__key="france")
    before = snapshot(campaign)
    with pytest.raises(errors.PhaseClosed):
        services.submit_orders(seat=seat, phase_id=closed, payload={}, ready=True, actor=None)
    assert snapshot(campaign) == before


@pytest.mark.django_db
def test_orders_stay_editable_until_the_phase_closes():
    campaign = quarter_campaign()
    resolve(campaign)
    campaign.refresh_from_db()
    seat = campaign.seats.select_related("power").get(power__key="great_britain")
    for targets, ready in ((["minor-0"], False), (["minor-2"], True), (["minor-4"], False)):
        services.submit_orders(
            seat=seat,
            phase_id=campaign.phase_id,
            payload={"targets": targets},
            ready=ready,
            actor=None,
        )
    saved = Order.objects.get(phase_id=campaign.phase_id, power=seat.power)
    assert (saved.payload, saved.ready) == ({"targets": ["minor-4"]}, False)
    assert Event.objects.filter(phase_id=campaign.phase_id, kind=Event.Kind.ORDER).count() == 3


@pytest.mark.django_db
def test_gm_alliance_ends_the_revolt_and_counts_a_let_down():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    text = eia_services.gm_edit(
        campaign_id=campaign.pk,
        actor=users["gm"],
        edit="relation",
        a="france",
        b="great_britain",
        kind="alliance",
    )
    assert "allied" in text
    revolt = Revolt.objects.get(campaign=campaign, area__key="palatinate")
    assert not revolt.active and revolt.ended_turn == campaign.turn
    assert LetDown.objects.get(campaign=campaign, power__key="great_britain").count == 1
    gm_line = Event.objects.filter(campaign=campaign, kind=Event.Kind.GM).get()
    assert gm_line.actor == users["gm"] and users["gm"].username in gm_line.text
    assert not campaign.guerrillas.exists()


@pytest.mark.django_db
def test_gm_edit_of_something_unknown_is_refused_and_changes_nothing():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    before = snapshot(campaign)
    with pytest.raises(errors.ServiceError, match="no corps #999"):
        eia_services.gm_edit(
            campaign_id=campaign.pk, actor=users["gm"], edit="corps_remove", corps=999
        )
    assert snapshot(campaign) == before


@pytest.mark.django_db(transaction=True)
def test_advance_twice_at_once_resolves_once(on_postgresql):
    campaign = make_eia_campaign()
    expected = campaign.phase_id
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def advance() -> None:
        barrier.wait()
        try:
            services.resolve_open_phase(
                campaign_id=campaign.pk, expected_phase_id=expected, actor=None
            )
            outcomes.append("resolved")
        except errors.PhaseAlreadyResolved:
            outcomes.append("already resolved")
        finally:
            connection.close()

    threads = [threading.Thread(target=advance) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["already resolved", "resolved"]
    assert Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED).count() == 1
    assert Phase.objects.filter(campaign=campaign, status=Phase.Status.OPEN).count() == 1


@pytest.mark.django_db
def test_eia12_militia_owed_to_spain_accumulates_and_survives_other_edits():
    campaign = make_eia_campaign(start=False)
    campaign.setup = {"start_year": 1805, "start_month": 2, "political_months": []}
    campaign.save()
    services.start_campaign(campaign, actor=None)
    users = seat_users(campaign)
    spain = Power.objects.get(campaign=campaign, key="spain")
    EiaPowerStatus.objects.filter(power=spain).update(militia_due=2)
    castile = campaign.areas.get(key="old-castile")
    GuerrillaStack.objects.create(
        campaign=campaign,
        area=castile,
        origin=castile,
        nationality=spain,
        factors=7,
        revolt=False,
    )
    resolve(campaign)  # land: no enemy of Spain in Spain, so Spain's guerrillas go home
    assert not GuerrillaStack.objects.filter(campaign=campaign, nationality=spain).exists()
    assert EiaPowerStatus.objects.get(power=spain).militia_due == 2 + 7 // 3
    eia_services.gm_edit(
        campaign_id=campaign.pk,
        actor=users["gm"],
        edit="power",
        power="spain",
        zone="Neutral",
        political_points=3,
        treasury=9,
        pays_bad_roll=True,
    )
    assert EiaPowerStatus.objects.get(power=spain).militia_due == 4
