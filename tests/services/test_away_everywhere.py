"""A player's away period for every campaign (campaign/play/away_everywhere.py): saved in his
preferences, it becomes the away period of each seat where he plays a power, logged in
each campaign; a GM's refusal holds in that campaign only, and saving the same period
again keeps it; a seat taken while it runs gets it; ending it ends it where it still
applies; a refused period changes nothing. On PostgreSQL: a seat taken while the
period is being saved gets it, whichever goes first."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from campaign.core import readiness
from campaign.errors import ServiceError
from campaign.models import Event, Profile, Seat
from campaign.play import away_everywhere, scheduling, services
from tests.factories import make_eia_campaign, seat_users, snapshot

pytestmark = pytest.mark.django_db
START = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
UNTIL = START + timedelta(days=3)
AWAY_LINE = "France's player is away from 12 January 2026, 09:00 UTC until 15 January 2026"


@pytest.fixture(autouse=True)
def frozen(time_machine):
    time_machine.move_to(START, tick=False)


@pytest.fixture
def cast():
    """The player plays France in ``first`` and ``second``, watches ``watched`` and runs
    ``run`` (a GM who plays no power there)."""
    first = make_eia_campaign()
    users = seat_users(first)
    player = users["player"]
    second, watched, run = make_eia_campaign(), make_eia_campaign(), make_eia_campaign()
    Seat.objects.filter(campaign=second, power__key="france").update(user=player)
    Seat.objects.filter(campaign=watched, role=Seat.Role.OBSERVER).update(user=player)
    Seat.objects.filter(campaign=run, role=Seat.Role.GM).update(user=player)
    gm = get_user_model().objects.create_user("second-gm")
    Seat.objects.filter(campaign=second, role=Seat.Role.GM).update(user=gm)
    return {
        "player": player,
        "first": first,
        "second": second,
        "watched": watched,
        "run": run,
        "first_gm": users["gm"],
        "second_gm": gm,
    }


def france(campaign) -> Seat:
    return Seat.objects.get(campaign=campaign, power__key="france")


def period(seat: Seat) -> tuple:
    return seat.away_from, seat.away_until, seat.away_refused


def lines(campaign) -> list[str]:
    seats = Event.objects.filter(campaign=campaign, kind=Event.Kind.SEAT).order_by("pk")
    return list(seats.values_list("text", flat=True))


def test_the_period_goes_to_every_seat_of_a_power_and_each_campaign_logs_it(cast):
    untouched = {key: snapshot(cast[key]) for key in ("watched", "run")}
    followed = away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL)
    assert {c.pk for c in followed} == {cast["first"].pk, cast["second"].pk}
    profile = Profile.objects.get(user=cast["player"])
    assert (profile.away_from, profile.away_until) == (START, UNTIL)
    for key in ("first", "second"):
        seat = france(cast[key])
        assert period(seat) == (START, UNTIL, False) and seat.away_noticed
        assert any(line.startswith(AWAY_LINE) for line in lines(cast[key]))
        assert "france" not in readiness.present_powers(cast[key]).values_list("key", flat=True)
    assert {key: snapshot(cast[key]) for key in ("watched", "run")} == untouched


def test_a_period_to_come_begins_later_in_every_campaign(cast, time_machine):
    start = START + timedelta(days=1)
    away_everywhere.set_period(user=cast["player"], start=start, end=UNTIL)
    seats = [france(cast[key]) for key in ("first", "second")]
    assert all(s.away_from == start and not s.away_noticed for s in seats)
    time_machine.move_to(start + timedelta(minutes=1), tick=False)
    begun = scheduling.begun_away_periods(start + timedelta(minutes=1))
    assert set(begun) == {cast["first"].pk, cast["second"].pk}


def test_a_gm_refusal_holds_in_his_campaign_only_and_saving_it_again_keeps_it(cast, time_machine):
    away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL)
    seat = france(cast["first"])
    scheduling.refuse_away(campaign_id=cast["first"].pk, seat_id=seat.pk, actor=cast["first_gm"])
    assert france(cast["first"]).away_refused and not france(cast["second"]).away_refused
    time_machine.move_to(START + timedelta(hours=5), tick=False)
    before = {key: snapshot(cast[key]) for key in ("first", "second")}
    # saved again as the form shows it (its start has passed), and with an empty start
    assert away_everywhere.set_period(user=cast["player"], start=START, end=UNTIL) == []
    assert away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL) == []
    assert {key: snapshot(cast[key]) for key in ("first", "second")} == before
    assert period(france(cast["first"])) == (START, UNTIL, True)
    # a longer period is a new one: the GM sees it and may refuse it again
    later = UNTIL + timedelta(days=1)
    followed = away_everywhere.set_period(user=cast["player"], start=None, end=later)
    assert [c.pk for c in followed] == [cast["first"].pk, cast["second"].pk]
    assert period(france(cast["first"])) == (START, later, False)


def test_the_period_replaces_the_one_a_campaign_had(cast):
    seat = france(cast["second"])
    own = (START + timedelta(days=5), START + timedelta(days=6))
    scheduling.set_away(seat_id=seat.pk, start=own[0], end=own[1], actor=cast["player"])
    away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL)
    assert period(france(cast["second"])) == (START, UNTIL, False)


def test_a_seat_taken_while_the_period_runs_gets_it(cast):
    away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL)
    invited, assigned = make_eia_campaign(), make_eia_campaign()
    gm = get_user_model().objects.create_user("assigning-gm")
    Seat.objects.filter(campaign=assigned, role=Seat.Role.GM).update(user=gm)
    token = france(invited).invite_token
    services.claim_seat(token=token, user=cast["player"])
    services.assign_seat(seat=france(assigned), user=cast["player"], actor=gm)
    for campaign in (invited, assigned):
        seat = france(campaign)
        assert period(seat) == (START, UNTIL, False) and seat.away_noticed
        assert any(line.startswith(AWAY_LINE) for line in lines(campaign))
        assert "france" not in readiness.present_powers(campaign).values_list("key", flat=True)


def test_a_seat_taken_after_the_period_or_an_observer_seat_gets_nothing(cast, time_machine):
    away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL)
    later, watched = make_eia_campaign(), make_eia_campaign()
    services.claim_seat(
        token=Seat.objects.get(campaign=watched, role="observer").invite_token, user=cast["player"]
    )
    time_machine.move_to(UNTIL, tick=False)
    services.claim_seat(token=france(later).invite_token, user=cast["player"])
    assert period(france(later)) == (None, None, False)
    assert Seat.objects.get(campaign=watched, user=cast["player"]).away_from is None


def test_ending_it_ends_it_where_it_still_applies(cast):
    away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL)
    own = (START + timedelta(days=5), START + timedelta(days=6))
    seat = france(cast["second"])
    scheduling.set_away(seat_id=seat.pk, start=own[0], end=own[1], actor=cast["player"])
    ended = away_everywhere.end_period(user=cast["player"])
    assert [c.pk for c in ended] == [cast["first"].pk]
    assert period(france(cast["first"])) == (None, None, False)
    assert lines(cast["first"])[-1] == "France's player is back."
    assert period(france(cast["second"])) == (*own, False)
    profile = Profile.objects.get(user=cast["player"])
    assert (profile.away_from, profile.away_until) == (None, None)
    with pytest.raises(ServiceError, match="no away period to end"):
        away_everywhere.end_period(user=cast["player"])


def test_an_ended_campaign_is_left_as_it_is(cast):
    cast["second"].ended_at = START
    cast["second"].save(update_fields=["ended_at"])
    before = snapshot(cast["second"])
    away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL)
    assert snapshot(cast["second"]) == before


@pytest.mark.parametrize(
    ("start", "end", "refusal"),
    [
        (START - timedelta(hours=1), UNTIL, "cannot begin in the past"),
        (None, START - timedelta(hours=1), "must end after it begins"),
        (START + timedelta(days=2), START + timedelta(days=1), "must end after it begins"),
        (None, START + timedelta(days=61), "at most 60 days"),
    ],
)
def test_a_refused_period_changes_nothing(cast, start, end, refusal):
    before = {key: snapshot(cast[key]) for key in ("first", "second")}
    with pytest.raises(ServiceError, match=refusal):
        away_everywhere.set_period(user=cast["player"], start=start, end=end)
    assert {key: snapshot(cast[key]) for key in ("first", "second")} == before
    assert not Profile.objects.filter(user=cast["player"], away_until__isnull=False).exists()


def test_the_start_of_the_period_under_way_counts_towards_its_60_days(cast, time_machine):
    away_everywhere.set_period(user=cast["player"], start=None, end=UNTIL)
    time_machine.move_to(START + timedelta(days=2), tick=False)
    with pytest.raises(ServiceError, match="at most 60 days"):
        away_everywhere.set_period(user=cast["player"], start=None, end=START + timedelta(days=61))
    with pytest.raises(ServiceError, match="cannot begin in the past"):
        away_everywhere.set_period(user=cast["player"], start=START + timedelta(days=1), end=UNTIL)
    with pytest.raises(ServiceError, match="cannot end in the past"):
        away_everywhere.set_period(user=cast["player"], start=START, end=START + timedelta(days=1))
    assert period(france(cast["first"])) == (START, UNTIL, False)


@pytest.mark.django_db(transaction=True)
def test_a_seat_being_taken_as_the_period_is_saved_gets_it(on_postgresql, monkeypatch):
    """The claim holds its campaign and the profile row until it commits: the period
    saved meanwhile waits for it, then finds its seat (no deadlock)."""
    campaign = make_eia_campaign()
    player = get_user_model().objects.create_user("racer")
    Profile.objects.create(user=player)
    token = france(campaign).invite_token
    claimed, released = threading.Event(), threading.Event()
    settle = services.lifecycle.settle

    def slow_settle(locked):
        claimed.set()  # the campaign and the profile row are locked now
        released.wait(10)
        settle(locked)

    monkeypatch.setattr(services.lifecycle, "settle", slow_settle)
    problems = []

    def claim():
        try:
            services.claim_seat(token=token, user=player)
        except Exception as error:  # noqa: BLE001 - reported below
            problems.append(repr(error))
        finally:
            connection.close()

    def save():
        try:
            claimed.wait(10)
            threading.Timer(0.5, released.set).start()
            away_everywhere.set_period(user=player, start=None, end=UNTIL)
        except Exception as error:  # noqa: BLE001 - reported below
            problems.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=claim), threading.Thread(target=save)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    assert problems == []
    assert period(france(campaign)) == (START, UNTIL, False)
