"""Phases that never stall: a power owes orders only when its player is there and it has
something to order (the ruleset says what); a phase nobody owes anything in resolves as
it opens, in a campaign that resolves itself and has a player at all; a decision asked of
a power whose player is not there gets the ruleset's default answer; a player away owes
nothing; the schedule gives every phase its deadline, and every deadline pauses at once.

The worker runs as in tests/services/test_scheduling.py, on a frozen clock.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign import errors
from campaign.core import readiness
from campaign.models import Area, DecisionRecord, Event, Phase
from campaign.play import scheduling, services
from rules.dice import ScriptedDice
from rules.empires_in_arms import legal
from rules.empires_in_arms.models import GuerrillaStack, Revolt
from rules.pax_baltica import legal as pb_legal
from rules.pax_baltica import services as pb_services
from rules.virgin_queen import procedures as vq
from rules.virgin_queen import services as vq_services
from rules.virgin_queen.models import VqSpace, VqUnits
from tests.factories import make_eia_campaign, make_pb_campaign, make_vq_campaign, seat_users
from tests.services.test_scheduling import (
    START,
    enqueued_resolutions,
    give_orders,
    open_phase,
    resolutions,
    run_worker,
    tick,
)

pytestmark = pytest.mark.django_db
CONVERSION_FACES = [6, 4, 1, 5]  # a major, two minors, an unrest marker
SEED_FACES = [1, 2, 5]  # the seed's Lyon roll: one hit, the only French regular gone
SEEDED = services._dice_for
NO_PLAYER_ANSWERS = "has no player here to decide: it gives the default answer."


@pytest.fixture(autouse=True)
def clock(time_machine):
    """The frozen clock, at START; clock(hours=…) moves it on from START."""
    time_machine.move_to(START, tick=False)

    def move(**delta):
        time_machine.move_to(START + timedelta(**delta), tick=False)

    return move


def faces_for(monkeypatch, **faces: list[int]) -> None:
    """GM-entered faces for the impulses named (``impulse_spain=[…]``), once each; the
    campaign's seeded dice for every other phase."""
    queue = {key: list(rolls) for key, rolls in faces.items()}

    def dice(campaign, phase, entered):
        if phase.key in queue:
            return ScriptedDice(queue.pop(phase.key))
        return SEEDED(campaign, phase, entered)

    monkeypatch.setattr(services, "_dice_for", dice)


def decide(campaign, power_key: str, answer: dict) -> Phase:
    campaign.refresh_from_db()
    seat = campaign.seats.select_related("power", "user").get(power__key=power_key)
    return services.decide(seat=seat, phase_id=campaign.phase_id, answer=answer, actor=seat.user)


def start(campaign, capture):
    with capture(execute=True):
        services.start_campaign(campaign, actor=None)
    return open_phase(campaign)


def no_revolt(campaign) -> None:
    GuerrillaStack.objects.filter(campaign=campaign).delete()
    Revolt.objects.filter(campaign=campaign).delete()


def stage(campaign) -> tuple[str, str, str]:
    pending = vq_services.load_state(campaign).pending
    return pending.kind, pending.stage, pending.waiting_for


# -- who owes orders: each ruleset's rule -----------------------------------------------


def test_each_empires_in_arms_step_waits_only_for_powers_with_something_to_order():
    campaign = make_eia_campaign(start=False)
    world = campaign.rules.load_world(campaign)
    assert legal.sponsors_a_revolt(world, "great_britain")  # Palatinate
    assert not legal.sponsors_a_revolt(world, "france")
    assert legal.can_incite(world, "france") and legal.can_incite(world, "great_britain")
    assert legal.has_land_orders(world, "france")  # an operation with its corps
    assert not legal.has_land_orders(world, "russia")  # no corps, no guerrillas
    # a minor of France, at war, but the revolt cannot succeed yet: nothing to decide
    assert legal.conquest_choice_revolts(world, "great_britain")
    assert not legal.has_conquest_choice(world, "great_britain")
    world.revolts[0].number, world.revolts[0].capital_held_months = 6, 1
    assert legal.has_conquest_choice(world, "great_britain")  # it succeeds now
    assert not legal.has_conquest_choice(world, "france")
    assert legal.can_aid(world, "great_britain") and not legal.can_aid(world, "austria")
    spec = campaign.rules.phase("peace")
    assert readiness.to_order(campaign, spec) == ["great_britain"]


def test_each_pax_baltica_phase_waits_only_for_nations_with_something_to_order():
    campaign = make_pb_campaign(start=False)
    world = pb_services.load_world(campaign)
    assert all(pb_legal.can_recruit(world, key) for key in ("sweden", "russia", "saxony"))
    assert all(pb_legal.can_act(world, key) for key in world.nations)
    assert pb_legal.orders_forage_losses(world, "russia")  # three blocks in Kurland
    assert not pb_legal.orders_forage_losses(world, "denmark")  # one fleet
    world.actions["coalition"] = 0
    assert not pb_legal.can_act(world, "russia") and pb_legal.can_act(world, "sweden")
    world.options["forage_further_losses"] = "strongest"
    assert not pb_legal.orders_forage_losses(world, "russia")


def test_a_virgin_queen_impulse_waits_only_for_its_power():
    campaign = make_vq_campaign()
    seat_users(campaign, "spain", "protestant")
    ottoman = open_phase(campaign)
    assert ottoman.owing is None  # the impulse's power, whoever else is seated
    assert readiness.owing_powers(campaign, ottoman) == []
    assert readiness.everyone_ready(campaign, ottoman)  # nobody owes: it may resolve


# -- a phase nobody owes anything in ----------------------------------------------------


def test_an_eia_peace_step_in_which_nobody_sponsors_a_revolt_resolves_as_it_opens(
    django_capture_on_commit_callbacks,
):
    campaign = make_eia_campaign(start=False)
    no_revolt(campaign)
    seat_users(campaign)
    peace = start(campaign, django_capture_on_commit_callbacks)
    assert peace.key == "peace" and peace.owing == []
    assert enqueued_resolutions(campaign) == [
        [campaign.pk, peace.pk, "everyone is ready", peace.seed_hash]
    ]
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["resolved"]
    revolt = open_phase(campaign)
    assert revolt.key == "revolt"  # France and Great Britain may incite: it waits for them
    assert sorted(p.key for p in readiness.owing_powers(campaign, revolt)) == [
        "france",
        "great_britain",
    ]
    peace.refresh_from_db()
    assert peace.status == Phase.Status.RESOLVED and peace.resolved_by is None
    nobody_told = Event.objects.filter(phase=peace, kind=Event.Kind.ORDER)
    assert not nobody_told.exists()  # nobody had anything to order: no default orders


def test_a_campaign_without_any_player_does_not_run_by_itself(
    django_capture_on_commit_callbacks,
):
    campaign = make_eia_campaign(start=False)
    no_revolt(campaign)
    peace = start(campaign, django_capture_on_commit_callbacks)
    assert enqueued_resolutions(campaign) == []
    assert run_worker(django_capture_on_commit_callbacks) == []
    assert open_phase(campaign).pk == peace.pk


def test_a_campaign_whose_players_are_all_away_waits_for_the_gm(
    django_capture_on_commit_callbacks,
):
    campaign = make_eia_campaign(start=False)
    no_revolt(campaign)
    users = seat_users(campaign)
    campaign.seats.filter(user__in=[users["player"], users["other_player"]]).update(
        away_from=START, away_until=START + timedelta(days=3)
    )
    peace = start(campaign, django_capture_on_commit_callbacks)
    assert enqueued_resolutions(campaign) == []
    assert open_phase(campaign).pk == peace.pk


# -- a whole Virgin Queen turn without the GM -------------------------------------------


def test_a_virgin_queen_turn_with_two_players_of_six_plays_without_the_gm(
    monkeypatch, django_capture_on_commit_callbacks
):
    """Spain and the Protestant are seated; the Ottoman, England, France and the Holy
    Roman Empire have no player. Spain converts and answers its decisions; the Protestant
    revolts in Lyon, France (no player) is asked where its mercenaries go and gives its
    default answer (Orléans, the nearest fortified space), the Protestant chooses the
    spaces that follow Lyon. The worker does everything else: the turn ends, and turn 2
    waits for Spain."""
    capture = django_capture_on_commit_callbacks
    campaign = make_vq_campaign(start=False)
    users = seat_users(campaign, "spain", "protestant")
    faces_for(monkeypatch, impulse_spain=CONVERSION_FACES, impulse_protestant=SEED_FACES)
    start(campaign, capture)
    assert resolutions(run_worker(capture)) == ["resolved"]  # the Ottoman passes
    assert open_phase(campaign).key == "impulse_spain"

    conversion = {"action": "conversion", "zones": ["netherlands", "france"], "attempts": 4}
    with capture(execute=True):
        give_orders(campaign, "spain", payload=conversion)
    assert resolutions(run_worker(capture)) == ["resolved"]  # as far as Spain's decision
    assert stage(campaign) == ("conversion", "sixes", "spain")
    with capture(execute=True):
        decide(campaign, "spain", {"die_1": "keep"})
        decide(campaign, "spain", {"die_2": "antwerp", "die_4": "dijon", "die_1": "amsterdam"})
        decide(campaign, "spain", {"unrest": ["antwerp"]})
    # England, France and the Holy Roman Empire have no player: each passes at once
    assert resolutions(run_worker(capture)) == ["resolved"] * 3
    assert open_phase(campaign).key == "impulse_protestant"

    with capture(execute=True):
        give_orders(campaign, "protestant", payload={"action": "revolt", "target": "lyon", "cp": 3})
    assert resolutions(run_worker(capture)) == ["resolved"]
    assert stage(campaign) == ("revolt", "extra", "protestant")  # France's answer was given
    mercenaries = VqUnits.objects.get(campaign=campaign, power__key="france", kind="mercenary")
    assert mercenaries.area.key == "orleans"
    told = Event.objects.filter(campaign=campaign, power__key="france", kind=Event.Kind.ORDER)
    assert [e.text for e in told] == [f"France {NO_PLAYER_ANSWERS}"]
    default = DecisionRecord.objects.get(campaign=campaign, power="france")  # for a replay
    assert default.answer == {f"unit:{mercenaries.pk}": "orleans"} and not default.as_gm
    with capture(execute=True):
        decide(campaign, "protestant", {"extra": ["clermont"]})
    assert resolutions(run_worker(capture)) == ["resolved"]  # turn 2: the Ottoman passes

    campaign.refresh_from_db()
    assert campaign.turn == 2 and open_phase(campaign).key == "impulse_spain"
    protestant = set(
        Area.objects.filter(campaign=campaign, controller__key="protestant").values_list(
            "key", flat=True
        )
    )
    assert {"lyon", "clermont"} <= protestant
    gm = users["gm"]
    assert not Event.objects.filter(campaign=campaign, actor=gm).exists()
    assert not Phase.objects.filter(campaign=campaign, resolved_by=gm).exists()
    assert Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED).count() == 7


def test_a_gm_driven_campaign_leaves_an_unseated_power_s_decision_to_the_gm(monkeypatch):
    campaign = make_vq_campaign(auto_resolve=False)
    seat_users(campaign, "spain", "protestant")
    faces_for(monkeypatch, impulse_protestant=SEED_FACES)
    for _ in range(5):
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=open_phase(campaign).pk, actor=None
        )
    give_orders(campaign, "protestant", payload={"action": "revolt", "target": "lyon", "cp": 3})
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    assert stage(campaign) == ("revolt", "displace", "france")


# -- default answers --------------------------------------------------------------------


def test_a_player_who_goes_away_mid_decision_gets_the_default_answers(monkeypatch):
    """Spain's conversion waits for Spain's 6s; its player marks himself away: every
    decision left gets the default answer (the 6 kept, the dice flipping as many spaces
    as they can, unrest first by name) and the impulse ends."""
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    faces_for(monkeypatch, impulse_spain=CONVERSION_FACES)
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    give_orders(
        campaign,
        "spain",
        payload={"action": "conversion", "zones": ["netherlands", "france"], "attempts": 4},
    )
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    assert stage(campaign)[:2] == ("conversion", "sixes")
    catholic_before = VqSpace.objects.filter(area__campaign=campaign, religion="catholic").count()
    seat = campaign.seats.get(power__key="spain")
    scheduling.set_away(
        seat_id=seat.pk, start=None, end=timezone.now() + timedelta(days=2), actor=users["player"]
    )
    assert open_phase(campaign).key == "impulse_england"
    answers = list(DecisionRecord.objects.filter(campaign=campaign).order_by("pk"))
    assert len(answers) == 3 and answers[0].answer == {"die_1": "keep"}  # sixes, flips, unrest
    catholic = VqSpace.objects.filter(area__campaign=campaign, religion="catholic")
    assert catholic.count() == catholic_before + 3  # three dice, three spaces: none wasted
    assert VqSpace.objects.filter(area__campaign=campaign, unrest=True).count() == 1
    lines = Event.objects.filter(campaign=campaign, kind=Event.Kind.ORDER, power__key="spain")
    assert lines.filter(text=f"Spain {NO_PLAYER_ANSWERS}").count() == 3


def test_the_default_hits_fall_on_the_stacks_in_turn_and_are_legal():
    """Two hits against two French regulars and a naval unit in Lyon: France's default
    answer takes both from the regulars, and the revolt fails on the naval unit."""
    campaign = make_vq_campaign(start=False)
    lyon = Area.objects.get(campaign=campaign, key="lyon")
    VqUnits.objects.filter(campaign=campaign, area=lyon, kind="regular").update(count=2)
    VqUnits.objects.create(
        campaign=campaign, power=lyon.controller, kind="naval", area=lyon, count=1
    )
    world = vq_services.load_state(campaign).world
    pending = vq.start_revolt(world, "lyon", 4, ScriptedDice([1, 2, 5, 6])).pending
    assert (pending.stage, pending.waiting_for) == ("hits", "france")
    answer = vq.default_answer(world, pending)
    regular, naval = (
        VqUnits.objects.get(campaign=campaign, area=lyon, kind=kind).pk
        for kind in ("regular", "naval")
    )
    assert answer == {f"unit:{regular}": "2", f"unit:{naval}": "0"}
    assert vq.decide(world, pending, "france", answer).pending is None  # the revolt fails


# -- away ----------------------------------------------------------------------------------


def test_a_player_marked_away_owes_nothing_and_the_phase_resolves_without_him(
    advance, django_capture_on_commit_callbacks
):
    campaign, users, revolt = advance
    succeeds_at_the_conquest_step(campaign)
    france = campaign.seats.get(power__key="france")
    scheduling.set_away(
        seat_id=france.pk, start=None, end=START + timedelta(days=3), actor=users["player"]
    )
    assert [p.key for p in readiness.owing_powers(campaign, revolt)] == ["great_britain"]
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "great_britain", payload={"targets": []})
    # the revolt step, then the land phase: France, away, is the only one with corps
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["resolved"] * 2
    lines = Event.objects.filter(phase=revolt, kind=Event.Kind.ORDER, power__key="france")
    assert [e.text for e in lines] == [
        "France (away) gave no orders: it does nothing this phase; its standing order on bad "
        "rolls stands."
    ]


def test_an_away_period_that_begins_later_is_noticed_by_the_clock(
    advance, clock, django_capture_on_commit_callbacks
):
    campaign, users, revolt = advance
    succeeds_at_the_conquest_step(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "great_britain", payload={"targets": []})
    france = campaign.seats.get(power__key="france")
    scheduling.set_away(
        seat_id=france.pk,
        start=START + timedelta(hours=2),
        end=START + timedelta(days=3),
        actor=users["player"],
    )
    owing = readiness.owing_powers(campaign, revolt)
    assert [(p.key, p.ready) for p in owing] == [("france", False), ("great_britain", True)]
    clock(hours=1)
    tick()
    assert run_worker(django_capture_on_commit_callbacks) == []
    clock(hours=2)
    tick()
    tick()  # the period is noticed once
    ran = run_worker(django_capture_on_commit_callbacks)
    assert [value for name, value in ran if name == "settle_campaign"] == ["settled"]
    # the revolt step, then the land phase: France, away, is the only one with corps
    assert resolutions(ran) == ["resolved", "resolved"]
    assert open_phase(campaign).key == "conquest"  # Great Britain's choice in Palatinate


def succeeds_at_the_conquest_step(campaign) -> None:
    """Great Britain's revolt in Palatinate, a minor of France's at war, will succeed at
    the conquest step (number 6, the capital held), so its sponsor owes a choice there."""
    campaign.revolts.update(number=6, capital_held_months=1)


@pytest.fixture
def advance(django_capture_on_commit_callbacks):
    """An EIA campaign at its revolt step, France (player) and Great Britain (other
    player) seated: both owe orders there."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
    )
    revolt = open_phase(campaign)
    assert revolt.key == "revolt"
    return campaign, users, revolt


# -- deadlines ------------------------------------------------------------------------------


def test_a_schedule_set_once_gives_every_later_phase_its_deadline(clock):
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    scheduling.set_schedule(
        campaign_id=campaign.pk,
        auto_resolve=True,
        deadline_hours={"impulse": 24},
        webhook_url="",
        actor=users["gm"],
    )
    for hours in range(1, 8):
        clock(hours=hours)
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=open_phase(campaign).pk, actor=None
        )
        opened = open_phase(campaign)
        assert opened.deadline == START + timedelta(hours=hours + 24), opened.key


def test_every_deadline_pauses_at_once_and_resuming_gives_the_time_left_back(clock):
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    hours = {"peace": 10, "revolt": 48}

    def schedule(paused: bool) -> None:
        scheduling.set_schedule(
            campaign_id=campaign.pk,
            auto_resolve=True,
            deadline_hours=hours,
            webhook_url="",
            actor=users["gm"],
            paused=paused,
        )

    schedule(False)
    peace = open_phase(campaign)
    services.set_deadline(
        campaign_id=campaign.pk,
        phase_id=peace.pk,
        deadline=START + timedelta(hours=10),
        actor=users["gm"],
    )
    clock(hours=4)
    schedule(True)
    peace.refresh_from_db()
    assert (peace.deadline, peace.paused_remaining) == (None, timedelta(hours=6))
    with pytest.raises(errors.ServiceError, match="paused"):
        scheduling.resume_deadline(campaign_id=campaign.pk, phase_id=peace.pk, actor=users["gm"])

    clock(hours=500)
    assert tick() == 0
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=peace.pk, actor=users["gm"]
    )
    revolt = open_phase(campaign)  # opened while paused: it keeps its 48 h
    assert (revolt.deadline, revolt.paused_remaining) == (None, timedelta(hours=48))

    clock(hours=510)
    schedule(False)
    revolt.refresh_from_db()
    assert revolt.deadline == START + timedelta(hours=558) and revolt.paused_remaining is None
    gm_lines = Event.objects.filter(campaign=campaign, kind=Event.Kind.GM).values_list(
        "text", flat=True
    )
    assert "Every deadline is paused until the GM resumes them." in gm_lines
    assert "Every deadline runs again; this phase's: 4 February 2026, 15:00 UTC." in gm_lines
