"""Virgin Queen impulses on the database: a conversion and a revolt through every state
in which they wait for a decision, with bounded queries the same on a small and a large
map, and a wrong answer changing nothing."""

from __future__ import annotations

from contextlib import contextmanager, nullcontext

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import errors
from campaign.models import Area, Phase, PowerRelation
from campaign.play import services
from rules.dice import ScriptedDice
from rules.virgin_queen.models import VqPending, VqSpace, VqUnits, VqZone
from tests.factories import make_vq_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import order, resolve

QUERY_BOUND = 40
CONVERSION_FACES = [6, 4, 1, 5]  # a major, two minors, an unrest marker
REVOLT_FACES = [1, 2, 5, 6]  # the seed's Lyon roll with a fourth CP: two hits
SEED_FACES = [1, 2, 5]  # the seed's Lyon roll: one hit


SEEDED = services._dice_for


def dice_for(monkeypatch, key: str, *rolls: list[int]) -> None:
    """GM-entered faces for the impulses ``key``, one list per impulse in turn; seeded
    dice for the others."""
    queue = [list(faces) for faces in rolls]

    def dice(campaign, phase, entered):
        if phase.key == key:
            return ScriptedDice(queue.pop(0))
        return SEEDED(campaign, phase, entered)

    monkeypatch.setattr(services, "_dice_for", dice)


def advance_to(campaign, key: str) -> None:
    for _ in range(12):
        campaign.refresh_from_db()
        if campaign.phase.key == key:
            return
        resolve(campaign)
    raise AssertionError(f"{key} not reached")


def answer(campaign, power_key: str | None, answers: dict) -> Phase:
    campaign.refresh_from_db()
    seats = campaign.seats.select_related("power", "campaign")
    seat = seats.get(power__key=power_key) if power_key else seats.get(role="gm")
    return services.decide(seat=seat, phase_id=campaign.phase_id, answer=answers, actor=None)


def stage(campaign) -> tuple[str, str, str]:
    pending = VqPending.objects.select_related("waiting_for").get(campaign=campaign)
    return pending.kind, pending.stage, pending.waiting_for.key


def religion(campaign, key: str) -> str:
    return VqSpace.objects.get(area__campaign=campaign, area__key=key).religion


def play_conversion(campaign, monkeypatch, counted) -> None:
    """Spain converts in the Netherlands and France: sixes, flips, unrest."""
    dice_for(monkeypatch, "impulse_spain", CONVERSION_FACES)
    advance_to(campaign, "impulse_spain")
    order(
        campaign,
        "spain",
        {"action": "conversion", "zones": ["netherlands", "france"], "attempts": 4, "event": ""},
    )
    with counted():
        phase = resolve(campaign)
    assert phase.status == Phase.Status.WAITING
    assert stage(campaign) == ("conversion", "sixes", "spain")
    with counted():
        answer(campaign, "spain", {"die_1": "keep"})
    assert stage(campaign)[1] == "flips"
    with counted():
        answer(campaign, "spain", {"die_2": "antwerp", "die_4": "dijon", "die_1": "amsterdam"})
    assert stage(campaign)[1] == "unrest"
    with counted():
        opened = answer(campaign, "spain", {"unrest": ["antwerp"]})
    assert opened.key == "impulse_england"
    assert not VqPending.objects.filter(campaign=campaign).exists()


def play_revolts(campaign, monkeypatch, counted) -> None:
    """Two Protestant revolts in Lyon. With 4 CP (two hits) against two French regulars
    and a naval unit, France chooses its losses and keeps a unit: the revolt fails. A turn
    later 3 CP (one hit, the seed's roll) take the last unit: France chooses where its
    mercenaries go, Orléans (the nearest fortified space) rather than Paris (its capital),
    and the Protestant chooses the spaces that follow Lyon."""
    lyon = Area.objects.get(campaign=campaign, key="lyon")
    VqUnits.objects.filter(campaign=campaign, area=lyon, kind="regular").update(count=2)
    VqUnits.objects.create(
        campaign=campaign, power=lyon.controller, kind="naval", area=lyon, count=1
    )
    campaign.bump_version()  # as every change of the state does (pages keep the World by it)
    dice_for(monkeypatch, "impulse_protestant", REVOLT_FACES, SEED_FACES)
    advance_to(campaign, "impulse_protestant")
    order(campaign, "protestant", {"action": "revolt", "target": "lyon", "cp": 4})
    with counted():
        resolve(campaign)
    assert stage(campaign) == ("revolt", "hits", "france")
    stacks = {
        u.kind: u.pk
        for u in VqUnits.objects.filter(campaign=campaign, area=lyon, power__key="france")
    }
    with counted():
        answer(
            campaign, "france", {f"unit:{stacks['regular']}": "2", f"unit:{stacks['naval']}": "0"}
        )
    assert not VqPending.objects.filter(campaign=campaign).exists()  # failed: over
    campaign.refresh_from_db()
    advance_to(campaign, "impulse_protestant")
    order(campaign, "protestant", {"action": "revolt", "target": "lyon", "cp": 3})
    with counted():
        resolve(campaign)
    assert stage(campaign) == ("revolt", "displace", "france")
    mercenaries = VqUnits.objects.get(campaign=campaign, area=lyon, kind="mercenary")
    assert mercenaries.count == 2
    assert VqPending.objects.get(campaign=campaign).data["queue"] == [
        ["unit", mercenaries.pk, "lyon"]
    ]
    with pytest.raises(errors.ServiceError):  # not among the nearest legal spaces
        answer(campaign, "france", {f"unit:{mercenaries.pk}": "dijon"})
    with counted():
        answer(campaign, "france", {f"unit:{mercenaries.pk}": "orleans"})
    assert stage(campaign) == ("revolt", "extra", "protestant")
    with counted():
        answer(campaign, "protestant", {"extra": ["clermont"]})


@pytest.mark.django_db
def test_a_conversion_and_a_revolt_wait_for_each_decision_and_then_go_on(monkeypatch):
    # the GM drives it: France, without a player, decides through the GM (a campaign
    # that resolves itself gives France's default answers: tests/services/test_never_stall)
    campaign = make_vq_campaign(auto_resolve=False)
    seat_users(campaign, "spain", "protestant")
    play_conversion(campaign, monkeypatch, nullcontext)
    assert [religion(campaign, k) for k in ("antwerp", "dijon", "amsterdam")] == ["catholic"] * 3
    assert VqSpace.objects.get(area__campaign=campaign, area__key="antwerp").unrest

    play_revolts(campaign, monkeypatch, nullcontext)
    campaign.refresh_from_db()
    controlled = set(
        Area.objects.filter(campaign=campaign, controller__key="protestant").values_list(
            "key", flat=True
        )
    )
    assert {"lyon", "clermont"} <= controlled  # Dijon turned Catholic: not a revolt space
    assert VqUnits.objects.get(campaign=campaign, area__key="orleans", kind="mercenary").count == 2
    huguenots = VqUnits.objects.get(campaign=campaign, area__key="lyon", power__key="protestant")
    assert huguenots.count == 1  # 1 per 2 full CP (3 CP)
    assert VqZone.objects.get(campaign=campaign, key="france").regulars_available == 5
    assert PowerRelation.objects.filter(campaign=campaign, kind="war").count() == 1
    assert campaign.turn == 3 and campaign.phase.key == "impulse_ottoman"


def _counts(spaces: int, monkeypatch, bound) -> list[int]:
    """The queries of each resolve and each answer, each within QUERY_BOUND."""
    campaign = make_vq_campaign(spaces=spaces)
    counts: list[int] = []

    @contextmanager
    def counted():
        with bound(QUERY_BOUND), CaptureQueriesContext(connection) as captured:
            yield
        counts.append(len(captured))

    play_conversion(campaign, monkeypatch, counted)
    play_revolts(campaign, monkeypatch, counted)
    return counts


@pytest.mark.django_db
def test_every_step_runs_the_same_bounded_number_of_queries_for_12_and_200_spaces(
    monkeypatch, django_assert_max_num_queries
):
    small = _counts(12, monkeypatch, django_assert_max_num_queries)
    large = _counts(200, monkeypatch, django_assert_max_num_queries)
    assert small == large


@pytest.mark.django_db
def test_a_refused_answer_or_a_second_resolve_changes_nothing(monkeypatch):
    campaign = make_vq_campaign()
    dice_for(monkeypatch, "impulse_spain", CONVERSION_FACES)
    advance_to(campaign, "impulse_spain")
    order(
        campaign,
        "spain",
        {"action": "conversion", "zones": ["netherlands"], "attempts": 4, "event": ""},
    )
    resolve(campaign)
    before = snapshot(campaign)
    with pytest.raises(errors.ServiceError):
        answer(campaign, "france", {"die_1": "keep"})  # not the power asked
    with pytest.raises(errors.ServiceError):
        answer(campaign, "spain", {"die_1": "paris"})  # not an eligible space
    with pytest.raises(errors.Conflict):
        resolve(campaign)  # the phase waits for Spain
    assert snapshot(campaign) == before
    answer(campaign, None, {"die_1": "keep"})  # the GM answers for Spain
    assert stage(campaign)[1] != "sixes"
