"""Missed deadlines, civil disorder and replacements (campaign/play/disorder.py,
campaign/play/replacements.py), with the records they keep (campaign/play/reliability.py,
campaign/play/tenures.py), on a Beacons campaign (tests/toy: two phases a night, each of
which waits for every seated power here)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from campaign.core import readiness
from campaign.errors import Conflict, PhaseClosed, ServiceError
from campaign.models import Area, Event, Phase, Power, Seat, SeatRequest, Tenure
from campaign.people import gm_team, lobby
from campaign.play import disorder, ending, reliability, services, tenures
from campaign.records import rollback
from tests.factories import make_toy_campaign

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def toy():
    """A started Beacons campaign: North played by nora, South by sam (both with a mail
    address), West without a player; civil disorder after two missed deadlines."""
    campaign = make_toy_campaign()
    gm = campaign.seats.get(role=Seat.Role.GM).user
    players = {}
    for key, name in (("north", "nora"), ("south", "sam")):
        user = User.objects.create_user(name, email=f"{name}@example.org")
        seat = campaign.seats.get(power__key=key)
        services.assign_seat(seat=seat, user=user, actor=gm)
        players[key] = user
    campaign.refresh_from_db()
    return campaign, gm, players


def power(campaign, key: str) -> Power:
    return Power.objects.get(campaign=campaign, key=key)


def give_orders(campaign, key: str, *, ready: bool = True):
    campaign.refresh_from_db()
    seat = campaign.seats.select_related("power", "user").get(power__key=key)
    return services.submit_orders(
        seat=seat, phase_id=campaign.phase_id, payload={}, ready=ready, actor=seat.user
    )


def resolve_after_deadline(campaign, gm, capture, *, hours_late: float = 1) -> Phase:
    """Give the open phase a deadline that has passed, and resolve it; the phase resolved."""
    campaign.refresh_from_db()
    phase = Phase.objects.get(pk=campaign.phase_id)
    Phase.objects.filter(pk=phase.pk).update(deadline=timezone.now() - timedelta(hours=hours_late))
    with capture(execute=True):
        services.resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=phase.pk, actor=gm)
    return phase


def queued_mail(subject_part: str) -> list[str]:
    """The recipients of the mails handed to the worker whose subject has ``subject_part``."""
    rows = DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_mail")
    sent = [row.args_kwargs["args"][0] for row in rows.order_by("enqueued_at")]
    return [mail["to"] for mail in sent if subject_part in mail["subject"]]


def lines(campaign, phrase: str) -> list[str]:
    found = Event.objects.filter(campaign=campaign, text__contains=phrase).order_by("pk")
    return list(found.values_list("text", flat=True))


def fall_into_disorder(campaign, gm, capture, key: str = "north") -> None:
    for _ in range(campaign.disorder_after):
        give_orders(campaign, "south")
        resolve_after_deadline(campaign, gm, capture)


# -- missed deadlines and civil disorder ------------------------------------------------


def test_the_nth_missed_deadline_in_a_row_puts_the_power_into_civil_disorder(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, players = toy
    give_orders(campaign, "south")
    first = resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    assert power(campaign, "north").missed_in_row == 1
    assert not power(campaign, "north").in_disorder
    assert power(campaign, "south").missed_in_row == 0
    assert lines(campaign, "missed the deadline") == [
        "North missed the deadline: 1 in a row, civil disorder after 2."
    ]
    assert Event.objects.get(text__startswith="North missed").phase_id == first.pk
    assert not power(campaign, "west").missed_in_row  # no player: it owed nothing

    give_orders(campaign, "south")
    resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    north = power(campaign, "north")
    assert north.missed_in_row == 2 and north.in_disorder
    assert lines(campaign, "civil disorder after 2 missed") == [
        "North falls into civil disorder after 2 missed deadlines: it plays its default "
        "orders, and its seat is offered to a new player."
    ]
    assert queued_mail("is in civil disorder") == ["nora@example.org"]
    # it owes nothing any more: the open phase waits for South alone
    campaign.refresh_from_db()
    owing = readiness.owing_powers(campaign, Phase.objects.get(pk=campaign.phase_id))
    assert [p.key for p in owing] == ["south"]


def test_orders_given_start_the_count_again(toy, django_capture_on_commit_callbacks):
    campaign, gm, _ = toy
    give_orders(campaign, "south")
    resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    give_orders(campaign, "north", ready=False)  # a draft counts: it is used as saved
    give_orders(campaign, "south")
    resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    assert power(campaign, "north").missed_in_row == 0
    give_orders(campaign, "south")
    resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    assert power(campaign, "north").missed_in_row == 1
    assert not power(campaign, "north").in_disorder


def test_a_phase_closed_before_its_deadline_or_without_one_marks_nobody_missed(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, _ = toy
    for deadline in (None, timezone.now() + timedelta(hours=5)):
        campaign.refresh_from_db()
        Phase.objects.filter(pk=campaign.phase_id).update(deadline=deadline)
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=gm
        )
    assert power(campaign, "north").missed_in_row == 0
    assert lines(campaign, "missed the deadline") == []
    assert reliability.of(campaign.seats.get(power__key="north").user).owed == 0


def test_no_civil_disorder_when_the_campaign_turns_it_off(toy, django_capture_on_commit_callbacks):
    campaign, gm, _ = toy
    campaign.disorder_after = 0
    campaign.save(update_fields=["disorder_after"])
    for _ in range(3):
        give_orders(campaign, "south")
        resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    north = power(campaign, "north")
    assert north.missed_in_row == 3 and not north.in_disorder
    assert lines(campaign, "missed the deadline")[-1] == "North missed the deadline: 3 in a row."


def test_the_record_counts_phases_owed_in_time_and_missed(toy, django_capture_on_commit_callbacks):
    campaign, gm, players = toy
    give_orders(campaign, "south")
    resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    give_orders(campaign, "south")
    give_orders(campaign, "north")
    resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    nora, sam = reliability.of(players["north"]), reliability.of(players["south"])
    assert (nora.owed, nora.on_time, nora.missed, nora.on_time_rate) == (2, 1, 1, 50)
    assert (sam.owed, sam.on_time, sam.missed, sam.on_time_rate) == (2, 2, 0, 100)


def test_the_gm_puts_a_power_into_civil_disorder_and_takes_it_out(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, _ = toy
    old_link = campaign.seats.get(power__key="north").invite_token
    with django_capture_on_commit_callbacks(execute=True):
        disorder.set_disorder(
            campaign_id=campaign.pk, power_id=power(campaign, "north").pk, disorder=True, actor=gm
        )
    assert power(campaign, "north").in_disorder
    assert campaign.seats.get(power__key="north").invite_token != old_link
    gm_name = gm.get_username()
    assert lines(campaign, "into civil disorder") == [
        f"GM {gm_name} puts North into civil disorder: it plays its default orders, and its "
        "seat is offered to a new player."
    ]
    asker = User.objects.create_user("rita", email="rita@example.org")
    lobby.ask_for_seat(campaign_id=campaign.pk, power_id=power(campaign, "north").pk, user=asker)
    with django_capture_on_commit_callbacks(execute=True):
        disorder.set_disorder(
            campaign_id=campaign.pk, power_id=power(campaign, "north").pk, disorder=False, actor=gm
        )
    assert queued_mail("Your request for North") == ["rita@example.org"]
    assert not power(campaign, "north").in_disorder
    assert SeatRequest.objects.get(user=asker).status == SeatRequest.Status.REFUSED
    assert lines(campaign, "out of civil disorder") == [
        f"GM {gm_name} takes North out of civil disorder."
    ]


@pytest.mark.parametrize(
    ("key", "disorder_now", "refusal"),
    [
        ("west", True, "West has no player: its seat is free already."),
        ("north", False, "North is not in civil disorder."),
    ],
)
def test_the_gm_is_refused_what_makes_no_sense(toy, key, disorder_now, refusal):
    campaign, gm, _ = toy
    version = campaign.version
    with pytest.raises(ServiceError, match=refusal):
        disorder.set_disorder(
            campaign_id=campaign.pk,
            power_id=power(campaign, key).pk,
            disorder=disorder_now,
            actor=gm,
        )
    campaign.refresh_from_db()
    assert campaign.version == version


def test_a_player_who_gives_orders_again_takes_the_power_back(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, _ = toy
    fall_into_disorder(campaign, gm, django_capture_on_commit_callbacks)
    give_orders(campaign, "north")
    north = power(campaign, "north")
    assert not north.in_disorder and north.missed_in_row == 0
    assert lines(campaign, "player is back") == [
        "North's player is back: North is no longer in civil disorder."
    ]


# -- replacements ------------------------------------------------------------------------


def test_a_new_player_takes_over_from_the_lobby_once_the_gm_accepts(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, players = toy
    fall_into_disorder(campaign, gm, django_capture_on_commit_callbacks)
    Area.objects.filter(campaign=campaign, key__in=["crag", "fell"]).update(
        controller=power(campaign, "north")
    )
    _, listings = lobby.page(User.objects.create_user("x"), 1)
    listing = next(x for x in listings if x.campaign == campaign)
    assert [seat.power.key for seat in listing.wanted] == ["north"]
    assert [str(name) for name in listing.wanted[0].power.holds] == ["Crag", "Fell"]

    rita = User.objects.create_user("rita", email="rita@example.org")
    north = power(campaign, "north")
    asked = lobby.ask_for_seat(campaign_id=campaign.pk, power_id=north.pk, user=rita)
    assert isinstance(asked, SeatRequest) and asked.status == SeatRequest.Status.PENDING
    (waiting,) = lobby.waiting_requests(campaign)
    assert not waiting.taken and waiting.record.owed == 0

    with django_capture_on_commit_callbacks(execute=True):
        lobby.answer_request(campaign_id=campaign.pk, request_id=asked.pk, accept=True, actor=gm)
    seat = campaign.seats.get(power=north)
    assert seat.user == rita
    north.refresh_from_db()
    assert not north.in_disorder and north.missed_in_row == 0
    nora = players["north"]
    former = campaign.seats.get(user=nora)
    assert (former.role, former.former_power, former.left_at is not None) == (
        Seat.Role.OBSERVER,
        north,
        True,
    )
    assert [
        (t.user_name, t.first_turn, t.last_turn, t.ended)
        for t in Tenure.objects.filter(power=north)
    ] == [("nora", 1, 2, Tenure.Ended.REPLACED), ("rita", 2, None, "")]
    assert reliability.of(nora).seats_left == 1
    assert reliability.of(rita).replaced_in == 1
    assert lines(campaign, "takes over") == [
        "rita takes over North from nora after civil disorder."
    ]
    assert queued_mail("A new player plays North") == ["nora@example.org"]
    assert queued_mail("You play North") == ["rita@example.org"]
    # the new player gives orders for the open phase; the old one no longer can
    give_orders(campaign, "north")
    with pytest.raises(ServiceError):
        services.submit_orders(
            seat=former, phase_id=campaign.phase_id, payload={}, ready=True, actor=nora
        )
    played = [(row.user_name, row.first, row.last) for row in tenures.played_by(campaign)]
    assert played[:2] == [("nora", "Night 1", "Night 2"), ("rita", "Night 2", "")]


def test_without_the_gms_acceptance_the_seat_is_taken_at_once(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, _ = toy
    campaign.replacements_need_gm = False
    campaign.save(update_fields=["replacements_need_gm"])
    fall_into_disorder(campaign, gm, django_capture_on_commit_callbacks)
    rita = User.objects.create_user("rita")
    taken = lobby.ask_for_seat(
        campaign_id=campaign.pk, power_id=power(campaign, "north").pk, user=rita
    )
    assert isinstance(taken, Seat) and taken.user == rita
    with pytest.raises(Conflict):  # the seat wants nobody any more
        lobby.ask_for_seat(
            campaign_id=campaign.pk,
            power_id=power(campaign, "north").pk,
            user=User.objects.create_user("late"),
        )


def test_the_gm_sends_the_renewed_invitation_link(toy, django_capture_on_commit_callbacks):
    campaign, gm, _ = toy
    old_link = campaign.seats.get(power__key="north").invite_token
    fall_into_disorder(campaign, gm, django_capture_on_commit_callbacks)
    rita = User.objects.create_user("rita")
    with pytest.raises(ServiceError, match="not valid"):
        services.claim_seat(token=old_link, user=rita)
    link = campaign.seats.get(power__key="north").invite_token
    seat = services.claim_seat(token=link, user=rita)
    assert seat.user == rita and not power(campaign, "north").in_disorder


def test_a_seat_request_below_the_campaigns_on_time_rate_is_refused(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, players = toy
    campaign.min_on_time = 80
    campaign.save(update_fields=["min_on_time"])
    fall_into_disorder(campaign, gm, django_capture_on_commit_callbacks)
    rookie = User.objects.create_user("rookie")
    north = power(campaign, "north")
    with pytest.raises(ServiceError, match="your record shows no phase owed yet"):
        lobby.ask_for_seat(campaign_id=campaign.pk, power_id=north.pk, user=rookie)
    reliability.add([rookie.pk], "owed", "missed")
    with pytest.raises(ServiceError, match="your record shows 0%"):
        lobby.ask_for_seat(campaign_id=campaign.pk, power_id=north.pk, user=rookie)
    veteran = User.objects.create_user("veteran")
    for _ in range(4):
        reliability.add([veteran.pk], "owed", "on_time")
    assert lobby.ask_for_seat(campaign_id=campaign.pk, power_id=north.pk, user=veteran)
    assert not SeatRequest.objects.filter(user=rookie).exists()


def test_finishing_a_campaign_counts_for_every_player(toy):
    campaign, gm, players = toy
    campaign.refresh_from_db()
    ending.end_campaign(
        campaign_id=campaign.pk, expected_state_version=campaign.state_version, actor=gm
    )
    assert [reliability.of(user).finished for user in players.values()] == [1, 1]
    assert not Tenure.objects.filter(campaign=campaign, ended_at__isnull=True).exists()


@pytest.mark.django_db(transaction=True)
def test_two_users_taking_the_same_seat_at_once_one_gets_it(on_postgresql):
    campaign = make_toy_campaign()
    gm = campaign.seats.get(role=Seat.Role.GM).user
    campaign.replacements_need_gm = False
    campaign.save(update_fields=["replacements_need_gm"])
    nora = User.objects.create_user("nora-race")
    services.assign_seat(seat=campaign.seats.get(power__key="north"), user=nora, actor=gm)
    north = power(campaign, "north")
    disorder.set_disorder(campaign_id=campaign.pk, power_id=north.pk, disorder=True, actor=gm)
    takers = [User.objects.create_user(f"taker-{i}") for i in range(2)]
    outcomes: list = []
    barrier = threading.Barrier(2)

    def take(user):
        barrier.wait(timeout=30)
        try:
            outcomes.append(
                lobby.ask_for_seat(campaign_id=campaign.pk, power_id=north.pk, user=user)
            )
        except Conflict as refusal:
            outcomes.append(str(refusal))
        finally:
            connection.close()

    threads = [threading.Thread(target=take, args=(user,)) for user in takers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    seats = [o for o in outcomes if isinstance(o, Seat)]
    refusals = [o for o in outcomes if isinstance(o, str)]
    assert len(seats) == 1 and refusals == ["North's seat has already been taken."]
    assert campaign.seats.get(power=north).user == seats[0].user
    assert Tenure.objects.filter(power=north, ended_at__isnull=True).count() == 1


# -- what a change of seats, a rollback or a stale page must not do ----------------------


def test_a_rollback_undoes_what_the_phase_counted(toy, django_capture_on_commit_callbacks):
    campaign, gm, players = toy
    fall_into_disorder(campaign, gm, django_capture_on_commit_callbacks)
    rollback.roll_back(campaign_id=campaign.pk, actor=gm)
    north = power(campaign, "north")
    assert (north.missed_in_row, north.in_disorder) == (1, False)
    assert lines(campaign, "falls into civil disorder") == []
    nora, sam = reliability.of(players["north"]), reliability.of(players["south"])
    assert (nora.owed, nora.missed, sam.owed, sam.on_time) == (1, 1, 1, 1)
    give_orders(campaign, "south")
    resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    assert power(campaign, "north").in_disorder
    assert reliability.of(players["north"]).missed == 2


def test_a_power_the_gm_plays_counts_its_misses_but_never_falls(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, _ = toy
    services.gm_plays(campaign_id=campaign.pk, power_key="west", actor=gm)
    for _ in range(3):
        give_orders(campaign, "south")
        give_orders(campaign, "north")
        resolve_after_deadline(campaign, gm, django_capture_on_commit_callbacks)
    west = power(campaign, "west")
    assert west.missed_in_row == 3 and not west.in_disorder


def test_a_seat_given_anew_leaves_civil_disorder_and_a_replaced_players_reading(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, players = toy
    fall_into_disorder(campaign, gm, django_capture_on_commit_callbacks)
    north_seat = campaign.seats.get(power__key="north")
    services.assign_seat(seat=north_seat, user=None, actor=gm)
    assert not power(campaign, "north").in_disorder  # a free seat, as any other
    rita = User.objects.create_user("rita")
    services.assign_seat(seat=north_seat, user=rita, actor=gm)
    disorder.set_disorder(
        campaign_id=campaign.pk, power_id=power(campaign, "north").pk, disorder=True, actor=gm
    )
    services.assign_seat(seat=north_seat, user=User.objects.create_user("una"), actor=gm)
    former = campaign.seats.get(user=rita)
    assert former.former_power is not None
    services.assign_seat(seat=former, user=User.objects.create_user("someone"), actor=gm)
    former.refresh_from_db()
    assert (former.former_power, former.left_at) == (None, None)


def test_seating_the_same_player_again_changes_no_record(toy):
    campaign, gm, players = toy
    seat = campaign.seats.get(power__key="north")
    services.assign_seat(seat=seat, user=players["north"], actor=gm)
    assert reliability.of(players["north"]).seats_left == 0
    assert Tenure.objects.filter(power__key="north", campaign=campaign).count() == 1


def test_orders_from_a_page_loaded_before_a_replacement_are_refused(
    toy, django_capture_on_commit_callbacks
):
    campaign, gm, players = toy
    fall_into_disorder(campaign, gm, django_capture_on_commit_callbacks)
    stale = campaign.seats.select_related("power", "user").get(power__key="north")
    services.assign_seat(seat=stale, user=User.objects.create_user("rita"), actor=gm)
    campaign.refresh_from_db()
    with pytest.raises(PhaseClosed, match="Your seat has changed"):
        services.submit_orders(
            seat=stale, phase_id=campaign.phase_id, payload={}, ready=True, actor=players["north"]
        )
    assert not campaign.orders.filter(phase_id=campaign.phase_id, power__key="north").exists()


def test_a_gm_who_leaves_an_open_phase_seats_nobody_in_it(toy):
    campaign, gm, _ = toy
    co = User.objects.create_user("co")
    gm_team.add_gm(campaign_id=campaign.pk, user=co, actor=gm)
    gm_team.remove_gm(campaign_id=campaign.pk, seat_id=campaign.seats.get(user=co).pk, actor=co)
    campaign.refresh_from_db()
    assert Phase.objects.get(pk=campaign.phase_id).gm_stopped_playing
    with pytest.raises(Conflict, match="Nobody can be seated as West"):
        services.assign_seat(seat=campaign.seats.get(power__key="west"), user=co, actor=gm)
