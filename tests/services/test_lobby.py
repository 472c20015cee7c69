"""The lobby's services (campaign/people/lobby.py): asking for a free seat, the GM's answer, the
seat taken at once, watching, the lobby settings; every refusal changes nothing; two
users asking for the last free seat at once on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from campaign.errors import Conflict, ServiceError
from campaign.models import Campaign, Event, MailChoice, Seat, SeatRequest
from campaign.people import lobby
from tests.factories import make_eia_campaign, seat_users, snapshot

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def campaign():
    """France and Great Britain have players; Spain, Austria, Prussia, Russia and Turkey
    are free; listed in the lobby, on request."""
    campaign = make_eia_campaign()
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True)
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def users(campaign):
    found = seat_users(campaign)
    for name in ("asker", "rival"):
        found[name] = User.objects.create_user(f"{name}-{campaign.pk}", f"{name}@example.org")
    found["gm"].email = "gm@example.org"
    found["gm"].save(update_fields=["email"])
    return found


def power_id(campaign, key: str) -> int:
    return campaign.powers.get(key=key).pk


def ask(campaign, user, key: str = "spain"):
    return lobby.ask_for_seat(campaign_id=campaign.pk, power_id=power_id(campaign, key), user=user)


def answer(campaign, asked, accept: bool, gm):
    return lobby.answer_request(
        campaign_id=campaign.pk, request_id=asked.pk, accept=accept, actor=gm
    )


def refused_and_unchanged(campaign, call, kind=ServiceError) -> str:
    before, requests = snapshot(campaign), list(SeatRequest.objects.values())
    with pytest.raises(kind) as refusal:
        call()
    assert snapshot(campaign) == before
    assert list(SeatRequest.objects.values()) == requests
    return str(refusal.value)


# -- asking ------------------------------------------------------------------------------


def test_asking_makes_a_request_and_mails_the_gm(campaign, users, mailed):
    with mailed.sending():
        asked = ask(campaign, users["asker"])
    assert asked.status == SeatRequest.Status.PENDING
    assert Seat.objects.get(campaign=campaign, power__key="spain").user is None
    ((to, subject, body),) = mailed.sent
    assert to == "gm@example.org"
    assert f"asker-{campaign.pk} asks to play Spain" in subject
    assert f"/campaigns/{campaign.pk}/gm/#lobby" in body


def test_the_lobby_mails_no_one_who_turned_them_off_for_the_campaign(campaign, users, mailed):
    MailChoice.objects.create(user=users["gm"], campaign=campaign, lobby=False)
    MailChoice.objects.create(user=users["asker"], campaign=make_eia_campaign(), lobby=False)
    with mailed.sending():
        asked = ask(campaign, users["asker"])
    assert mailed.sent == []  # the GM turned the lobby's mail off
    with mailed.sending():
        answer(campaign, asked, True, users["gm"])
    # the asker turned it off for another campaign only
    assert [(to, subject) for to, subject, _ in mailed.sent] == [
        ("asker@example.org", f"[{campaign.name}] You play Spain")
    ]


def test_a_campaign_not_in_the_lobby_takes_no_request(campaign, users):
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=False)
    said = refused_and_unchanged(campaign, lambda: ask(campaign, users["asker"]))
    assert said == "This campaign does not take players from the lobby."


def test_asking_twice_is_refused(campaign, users):
    ask(campaign, users["asker"])
    said = refused_and_unchanged(
        campaign, lambda: ask(campaign, users["asker"], "austria"), Conflict
    )
    assert "already asked for a seat in this campaign" in said


def test_a_taken_seat_cannot_be_asked_for(campaign, users):
    said = refused_and_unchanged(
        campaign, lambda: ask(campaign, users["asker"], "france"), Conflict
    )
    assert said == "France's seat has already been taken."


@pytest.mark.parametrize("role", ["player", "gm"])
def test_who_plays_or_runs_the_campaign_asks_for_no_other_seat(campaign, users, role):
    said = refused_and_unchanged(campaign, lambda: ask(campaign, users[role]), Conflict)
    assert said == "You already have a seat in this campaign."


def test_a_power_of_another_campaign_is_no_seat_to_offer(campaign, users):
    other = make_eia_campaign()
    call = lambda: lobby.ask_for_seat(  # noqa: E731
        campaign_id=campaign.pk, power_id=power_id(other, "spain"), user=users["asker"]
    )
    assert refused_and_unchanged(campaign, call) == "This campaign has no such seat to offer."


def test_an_ended_campaign_takes_no_request(campaign, users):
    from django.utils import timezone

    Campaign.objects.filter(pk=campaign.pk).update(ended_at=timezone.now())
    refused_and_unchanged(campaign, lambda: ask(campaign, users["asker"]))


def test_a_campaign_that_seats_at_once_gives_the_seat(campaign, users):
    Campaign.objects.filter(pk=campaign.pk).update(lobby_at_once=True)
    version = Campaign.objects.get(pk=campaign.pk).state_version
    seat = ask(campaign, users["asker"])
    assert seat.user == users["asker"] and seat.power.key == "spain"
    assert not SeatRequest.objects.exists()
    assert Event.objects.filter(campaign=campaign, text__contains="takes the seat of Spain")
    assert Campaign.objects.get(pk=campaign.pk).state_version > version


# -- the GM's answer -----------------------------------------------------------------------


def test_accepting_seats_the_user_and_refuses_the_others_for_that_power(campaign, users, mailed):
    first, second = ask(campaign, users["asker"]), ask(campaign, users["rival"])
    elsewhere = ask(campaign, users["outsider"], "austria")
    with mailed.sending():
        answer(campaign, first, True, users["gm"])
    assert Seat.objects.get(campaign=campaign, power__key="spain").user == users["asker"]
    statuses = dict(SeatRequest.objects.values_list("pk", "status"))
    assert statuses == {first.pk: "accepted", second.pk: "refused", elsewhere.pk: "pending"}
    assert Event.objects.filter(campaign=campaign, text__contains=f"seats asker-{campaign.pk}")
    subjects = {to: subject for to, subject, _ in mailed.sent}
    assert "You play Spain" in subjects["asker@example.org"]
    assert "Your request for Spain" in subjects["rival@example.org"]


def test_refusing_leaves_the_seat_free(campaign, users, mailed):
    asked = ask(campaign, users["asker"])
    with mailed.sending():
        answer(campaign, asked, False, users["gm"])
    asked.refresh_from_db()
    assert asked.status == "refused" and asked.answered_at is not None
    assert Seat.objects.get(campaign=campaign, power__key="spain").user is None
    assert [to for to, *_ in mailed.sent] == ["asker@example.org"]
    ask(campaign, users["asker"])  # and the user may ask again


def test_a_request_is_answered_once(campaign, users):
    asked = ask(campaign, users["asker"])
    answer(campaign, asked, False, users["gm"])
    said = refused_and_unchanged(campaign, lambda: answer(campaign, asked, True, users["gm"]))
    assert said == "This request has already been answered."


def test_a_request_of_another_campaign_cannot_be_answered_here(campaign, users):
    other = make_eia_campaign()
    Campaign.objects.filter(pk=other.pk).update(lobby_open=True)
    asked = ask(other, users["asker"])
    call = lambda: answer(campaign, asked, True, users["gm"])  # noqa: E731
    assert refused_and_unchanged(campaign, call) == "This campaign has no such request."
    assert SeatRequest.objects.get(pk=asked.pk).status == "pending"


def test_a_seat_taken_since_the_request_cannot_be_given(campaign, users):
    asked = ask(campaign, users["asker"])
    Seat.objects.filter(campaign=campaign, power__key="spain").update(user=users["rival"])
    said = refused_and_unchanged(campaign, lambda: answer(campaign, asked, True, users["gm"]))
    assert said == "Spain's seat has already been taken."
    answer(campaign, asked, False, users["gm"])  # the GM refuses it instead


def test_waiting_requests_say_when_their_seat_was_taken(campaign, users):
    ask(campaign, users["asker"])
    ask(campaign, users["rival"], "austria")
    Seat.objects.filter(campaign=campaign, power__key="austria").update(user=users["outsider"])
    listed = {r.power.key: r.taken for r in lobby.waiting_requests(campaign)}
    assert listed == {"spain": False, "austria": True}


# -- watching ------------------------------------------------------------------------------


def test_watching_gives_an_observer_seat_of_ones_own(campaign, users):
    Campaign.objects.filter(pk=campaign.pk).update(lobby_watch=True)
    seat = lobby.watch(campaign_id=campaign.pk, user=users["asker"])
    assert seat.role == Seat.Role.OBSERVER and seat.user == users["asker"]
    said = refused_and_unchanged(
        campaign, lambda: lobby.watch(campaign_id=campaign.pk, user=users["asker"]), Conflict
    )
    assert said == "You already have a seat in this campaign."


def test_nobody_watches_a_campaign_the_gm_did_not_open_to_watchers(campaign, users):
    call = lambda: lobby.watch(campaign_id=campaign.pk, user=users["asker"])  # noqa: E731
    assert refused_and_unchanged(campaign, call) == (
        "This campaign cannot be watched from the lobby."
    )


def test_a_watcher_given_a_seat_stops_watching(campaign, users):
    Campaign.objects.filter(pk=campaign.pk).update(lobby_watch=True)
    lobby.watch(campaign_id=campaign.pk, user=users["asker"])
    answer(campaign, ask(campaign, users["asker"]), True, users["gm"])
    held = Seat.objects.filter(campaign=campaign, user=users["asker"])
    assert [(s.role, s.power.key) for s in held] == [("player", "spain")]


# -- the settings and the listing ---------------------------------------------------------------


def test_the_lobby_settings_are_logged_and_at_once_needs_the_seats_listed(campaign, users):
    lobby.set_lobby(
        campaign_id=campaign.pk,
        lobby_open=False,
        lobby_at_once=True,
        lobby_watch=True,
        actor=users["gm"],
    )
    campaign.refresh_from_db()
    assert (campaign.lobby_open, campaign.lobby_at_once, campaign.lobby_watch) == (
        False,
        False,
        True,
    )
    lines = list(Event.objects.filter(campaign=campaign, kind="gm").values_list("text", flat=True))
    gm = users["gm"].get_username()
    assert lines == [
        f"GM {gm} sets the lobby: anyone logged in may watch.",
        f"GM {gm} sets the lobby: the free seats are no longer listed.",
    ]


def test_the_listing_shows_free_seats_only_where_the_lobby_lists_them(campaign, users):
    watched = make_eia_campaign()
    Campaign.objects.filter(pk=watched.pk).update(lobby_watch=True)
    make_eia_campaign()  # in no lobby
    ask(campaign, users["asker"])
    found = {listing.campaign.pk: listing for listing in lobby.page(users["asker"], 1)[1]}
    assert set(found) == {campaign.pk, watched.pk}
    free = [seat.power.key for seat in found[campaign.pk].free_seats]
    assert free == ["spain", "austria", "prussia", "russia", "turkey"]
    assert found[campaign.pk].request.power.key == "spain"
    assert found[watched.pk].free_seats == []


# -- at once, on PostgreSQL --------------------------------------------------------------------

TIMEOUT = 30  # seconds: a thread still waiting then is a deadlock


def at_once(calls) -> list[str]:
    """Run the calls in two threads behind a barrier; what each got."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            call()
            outcomes.append("done")
        except ServiceError as error:
            outcomes.append(str(error))
        except Exception as error:  # noqa: BLE001 - any other outcome fails the race
            outcomes.append(f"{type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    return sorted(outcomes)


@pytest.fixture
def last_free_seat(db):
    """A campaign listed in the lobby whose only free seat is Spain's, and two users."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    others = [User.objects.create_user(f"p{i}-{campaign.pk}") for i in range(4)]
    free = Seat.objects.filter(campaign=campaign, user__isnull=True, role="player")
    for seat, user in zip(free.exclude(power__key="spain"), others, strict=True):
        seat.user = user
        seat.save(update_fields=["user"])
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True)
    two = [User.objects.create_user(f"{n}-{campaign.pk}") for n in ("first", "second")]
    return campaign, users["gm"], two


@pytest.mark.django_db(transaction=True)
def test_two_users_taking_the_last_free_seat_at_once_one_gets_it(on_postgresql, last_free_seat):
    campaign, _gm, two = last_free_seat
    Campaign.objects.filter(pk=campaign.pk).update(lobby_at_once=True)
    for _ in range(10):
        Seat.objects.filter(campaign=campaign, power__key="spain").update(user=None)
        outcomes = at_once([lambda user=user: ask(campaign, user) for user in two])
        assert outcomes == ["Spain's seat has already been taken.", "done"]
        assert Seat.objects.get(campaign=campaign, power__key="spain").user in two


@pytest.mark.django_db(transaction=True)
def test_two_requests_accepted_at_once_for_the_last_free_seat_one_is_seated(
    on_postgresql, last_free_seat
):
    campaign, gm, two = last_free_seat
    for _ in range(10):
        Seat.objects.filter(campaign=campaign, power__key="spain").update(user=None)
        SeatRequest.objects.all().delete()
        asked = [ask(campaign, user) for user in two]
        outcomes = at_once([lambda a=a: answer(campaign, a, True, gm) for a in asked])
        assert outcomes in (
            ["Spain's seat has already been taken.", "done"],
            ["This request has already been answered.", "done"],
        )
        seated = Seat.objects.get(campaign=campaign, power__key="spain").user
        statuses = dict(SeatRequest.objects.values_list("user", "status"))
        assert statuses == {u.pk: "accepted" if u == seated else "refused" for u in two}
