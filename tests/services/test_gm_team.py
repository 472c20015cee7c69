"""A campaign's GMs (campaign/people/gm_team.py): co-GMs with the GM's rights, a GM seat opened
by an invitation link, never the last GM removed; one GM who plays a power seals the whole
team's reading of the open phase's orders (campaign/core/sealing.py); handing the campaign
over (accepted, declined, withdrawn, a used or foreign link), and a handover while a phase
resolves on PostgreSQL; quiet GMs and a player's request for a new GM. Every refusal
changes nothing."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from campaign.core import sealing
from campaign.errors import Conflict, PhaseClosed, ServiceError
from campaign.models import Campaign, Event, Handover, NewGmRequest, Order, Phase, Seat
from campaign.people import gm_team, lobby
from campaign.play import services
from tests.factories import make_eia_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def campaign():
    return make_eia_campaign()


@pytest.fixture
def users(campaign):
    found = seat_users(campaign)
    for name in ("co", "heir", "sock"):
        found[name] = User.objects.create_user(f"{name}-{campaign.pk}", f"{name}@example.org")
    found["gm"].email = "gm@example.org"
    found["gm"].save(update_fields=["email"])
    return found


def everything(campaign) -> tuple:
    """The campaign's rows, its offers and its requests for a new GM."""
    return (
        snapshot(campaign),
        list(Handover.objects.filter(campaign=campaign).values()),
        list(NewGmRequest.objects.filter(campaign=campaign).values()),
    )


def refused(campaign, call, kind=ServiceError) -> str:
    before = everything(campaign)
    with pytest.raises(kind) as refusal:
        call()
    assert everything(campaign) == before
    return str(refusal.value)


def gm_seats(campaign) -> list[Seat]:
    return list(campaign.seats.filter(role=Seat.Role.GM).select_related("user", "power"))


def add(campaign, user, actor) -> Seat:
    return gm_team.add_gm(campaign_id=campaign.pk, user=user, actor=actor)


def last_line(campaign) -> Event:
    return Event.objects.filter(campaign=campaign).order_by("-pk").first()


# -- co-GMs ------------------------------------------------------------------------------


def test_a_gm_makes_a_user_a_gm_and_the_log_names_who_did(campaign, users, mailed):
    with mailed.sending():
        seat = add(campaign, users["co"], users["gm"])
    assert seat.is_gm and seat.user == users["co"]
    assert {s.user for s in gm_seats(campaign)} == {users["gm"], users["co"]}
    line = last_line(campaign)
    assert line.text == f"GM gm-{campaign.pk} makes co-{campaign.pk} a GM of the campaign."
    assert line.actor == users["gm"]
    ((to, subject, body),) = mailed.sent
    assert to == "co@example.org" and subject == f"[{campaign.name}] You are a GM"
    assert f"/campaigns/{campaign.pk}/gm/" in body


def test_a_co_gm_acts_with_the_gms_rights_and_is_named_in_the_log(campaign, users):
    add(campaign, users["co"], users["gm"])
    seat = campaign.seats.get(power__key="spain")
    services.assign_seat(seat=seat, user=users["sock"], actor=users["co"])
    assert last_line(campaign).text == f"GM co-{campaign.pk} seats sock-{campaign.pk} as Spain."
    assert services.seat_for(users["co"], campaign.pk).is_gm


def test_a_watcher_made_a_gm_gives_up_their_observer_seat(campaign, users):
    add(campaign, users["observer"], users["gm"])
    seats = Seat.objects.filter(campaign=campaign, user=users["observer"])
    assert [seat.role for seat in seats] == [Seat.Role.GM]


def test_a_player_or_a_gm_is_not_made_a_gm(campaign, users):
    said = refused(campaign, lambda: add(campaign, users["player"], users["gm"]))
    assert said == (
        f"player-{campaign.pk} plays France in this campaign: a player cannot also be its GM."
    )
    said = refused(campaign, lambda: add(campaign, users["gm"], users["gm"]))
    assert said == f"gm-{campaign.pk} is already a GM of this campaign."


def test_an_open_gm_seat_is_taken_by_its_invitation_link(campaign, users):
    seat = gm_team.open_gm_seat(campaign_id=campaign.pk, actor=users["gm"])
    assert last_line(campaign).text == f"GM gm-{campaign.pk} opens a GM seat."
    path = f"/campaigns/{campaign.pk}/gm-invitation/{seat.invite_token}/"
    assert gm_team.invitation_path(seat) == path
    refused(campaign, lambda: services.claim_seat(token=seat.invite_token, user=users["player"]))
    taken = services.claim_seat(token=seat.invite_token, user=users["observer"])
    assert taken.pk == seat.pk and taken.user == users["observer"]
    assert list(Seat.objects.filter(campaign=campaign, user=users["observer"])) == [taken]
    said = refused(campaign, lambda: services.claim_seat(token=seat.invite_token, user=users["co"]))
    assert said == "This seat has already been taken."


def test_the_last_gm_is_never_removed_and_a_gm_may_leave_another_remaining(campaign, users):
    (own,) = gm_seats(campaign)
    remove = gm_team.remove_gm
    said = refused(
        campaign, lambda: remove(campaign_id=campaign.pk, seat_id=own.pk, actor=users["gm"])
    )
    assert said.startswith("A campaign keeps at least one GM")
    open_seat = gm_team.open_gm_seat(campaign_id=campaign.pk, actor=users["gm"])
    refused(campaign, lambda: remove(campaign_id=campaign.pk, seat_id=own.pk, actor=users["gm"]))
    remove(campaign_id=campaign.pk, seat_id=open_seat.pk, actor=users["gm"])
    assert last_line(campaign).text == f"GM gm-{campaign.pk} closes an open GM seat."
    co = add(campaign, users["co"], users["gm"])
    remove(campaign_id=campaign.pk, seat_id=own.pk, actor=users["gm"])
    assert last_line(campaign).text == f"GM gm-{campaign.pk} is no longer a GM of the campaign."
    assert [s.pk for s in gm_seats(campaign)] == [co.pk]
    said = refused(
        campaign, lambda: remove(campaign_id=campaign.pk, seat_id=co.pk, actor=users["co"])
    )
    assert said.startswith("A campaign keeps at least one GM")


def test_a_gm_removes_a_co_gm_but_not_one_who_plays_a_power(campaign, users):
    co = add(campaign, users["co"], users["gm"])
    services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=users["co"])
    remove = gm_team.remove_gm
    said = refused(
        campaign, lambda: remove(campaign_id=campaign.pk, seat_id=co.pk, actor=users["gm"])
    )
    assert said == f"co-{campaign.pk} plays Spain: they stop playing it first."
    services.gm_plays(campaign_id=campaign.pk, power_key=None, actor=users["co"])
    remove(campaign_id=campaign.pk, seat_id=co.pk, actor=users["gm"])
    expected = f"GM gm-{campaign.pk} removes co-{campaign.pk} from the campaign's GMs."
    assert last_line(campaign).text == expected


def test_a_seat_of_another_campaign_or_no_gm_seat_is_not_removed(campaign, users):
    other = make_eia_campaign()
    for seat in (other.seats.get(role=Seat.Role.GM), campaign.seats.get(power__key="france")):
        said = refused(
            campaign,
            lambda seat=seat: gm_team.remove_gm(
                campaign_id=campaign.pk, seat_id=seat.pk, actor=users["gm"]
            ),
        )
        assert said == "This campaign has no such GM seat."


def test_a_seat_request_from_the_lobby_is_mailed_to_every_gm(campaign, users, mailed):
    add(campaign, users["co"], users["gm"])
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True)
    spain = campaign.powers.get(key="spain")
    with mailed.sending():
        lobby.ask_for_seat(campaign_id=campaign.pk, power_id=spain.pk, user=users["sock"])
    assert sorted(to for to, _, _ in mailed.sent) == ["co@example.org", "gm@example.org"]


# -- one GM plays: the whole team is sealed --------------------------------------------


@pytest.fixture
def playing(campaign, users):
    """The GM plays Spain, a co-GM does not; the revolt step is open; France has a draft."""
    add(campaign, users["co"], users["gm"])
    services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=users["gm"])
    resolve(campaign)  # peace: the revolt step opens
    campaign.refresh_from_db()
    france = campaign.seats.select_related("power").get(power__key="france")
    services.submit_orders(
        seat=france,
        phase_id=campaign.phase_id,
        payload={"targets": ["minor-0"]},
        ready=False,
        actor=users["player"],
    )
    return campaign


def open_orders(campaign) -> dict:
    return {o.power_id: o for o in Order.objects.filter(phase_id=campaign.phase_id)}


def readable_keys(campaign, user) -> set[str]:
    seat = services.seat_for(user, campaign.pk)
    readable = sealing.readable_orders(seat, open_orders(campaign))
    return {order.power.key for order in readable.values()}


def gm_seals_spain(campaign, users) -> None:
    gm = services.seat_for(users["gm"], campaign.pk)
    services.submit_orders(
        seat=gm, phase_id=campaign.phase_id, payload={}, ready=True, actor=users["gm"]
    )


def test_a_co_gm_reads_no_other_order_until_the_playing_gms_are_sealed(playing, users):
    campaign = playing
    gm = services.seat_for(users["gm"], campaign.pk)
    services.submit_orders(
        seat=gm, phase_id=campaign.phase_id, payload={}, ready=False, actor=users["gm"]
    )
    assert readable_keys(campaign, users["co"]) == {"spain"}
    assert readable_keys(campaign, users["gm"]) == {"spain"}
    co = services.seat_for(users["co"], campaign.pk)
    assert not sealing.reads_every_order(co, open_orders(campaign))
    assert sealing.withheld_powers(co, campaign.phase) == {campaign.powers.get(key="france").pk}
    gm_seals_spain(campaign, users)
    assert readable_keys(campaign, users["co"]) == {"spain", "france"}
    assert sealing.withheld_powers(services.seat_for(users["co"], campaign.pk), campaign.phase) == (
        frozenset()
    )


def test_a_gm_who_does_not_play_beside_no_playing_gm_reads_every_order(campaign, users):
    add(campaign, users["co"], users["gm"])
    resolve(campaign)
    order(campaign, "france", {"targets": ["minor-0"]}, users["player"])
    assert readable_keys(campaign, users["co"]) == {"france"}
    assert services.seat_for(users["co"], campaign.pk).gm_team_power_id is None


def test_one_gm_at_a_time_plays_a_power(playing, users):
    campaign = playing
    resolve(campaign)  # a new phase: nobody has given orders yet
    said = refused(
        campaign,
        lambda: services.gm_plays(campaign_id=campaign.pk, power_key="austria", actor=users["co"]),
        Conflict,
    )
    assert (
        said == "Another GM of this campaign already plays Spain: one GM plays a power at a time."
    )


def test_gm_plays_acts_on_the_acting_gms_own_seat(campaign, users):
    add(campaign, users["co"], users["gm"])
    services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=users["co"])
    by_user = {s.user: s.power and s.power.key for s in gm_seats(campaign)}
    assert by_user == {users["gm"]: None, users["co"]: "spain"}
    services.gm_plays(campaign_id=campaign.pk, power_key=None, actor=users["co"])
    assert all(s.power_id is None for s in gm_seats(campaign))
    said = refused(
        campaign,
        lambda: services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=users["sock"]),
    )
    assert said == "Only a GM of this campaign plays a power as its GM."


def test_once_the_team_has_read_a_co_gm_seats_nobody_as_a_power_that_acts(playing, users):
    campaign = playing
    gm_seals_spain(campaign, users)
    austria = campaign.seats.get(power__key="austria")
    said = refused(
        campaign,
        lambda: services.assign_seat(seat=austria, user=users["sock"], actor=users["co"]),
        Conflict,
    )
    assert said.startswith("Nobody can be seated as Austria until this phase is resolved")


def test_orders_a_co_gm_sealed_playing_a_power_stand_whoever_sits_there(campaign, users):
    add(campaign, users["co"], users["gm"])
    services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=users["co"])
    resolve(campaign)
    campaign.refresh_from_db()
    co = services.seat_for(users["co"], campaign.pk)
    services.submit_orders(
        seat=co, phase_id=campaign.phase_id, payload={}, ready=True, actor=users["co"]
    )
    services.gm_plays(campaign_id=campaign.pk, power_key=None, actor=users["co"])
    spain = campaign.seats.select_related("power").get(power__key="spain")
    Seat.objects.filter(pk=spain.pk).update(user=users["sock"])  # were it done anyway
    spain.refresh_from_db()
    said = refused(
        campaign,
        lambda: services.submit_orders(
            seat=spain, phase_id=campaign.phase_id, payload={}, ready=False, actor=users["sock"]
        ),
        PhaseClosed,
    )
    assert "sealed by the GM who played it" in said


def test_a_gm_joining_mid_phase_reads_what_the_team_reads(playing, users):
    """The playing GM has not sealed: a GM seat taken now (by any account, the playing
    GM's second one too) reads no other power's orders; once sealed, it reads them all,
    as every GM does, and seats nobody as a power that acts."""
    campaign = playing
    seat = gm_team.open_gm_seat(campaign_id=campaign.pk, actor=users["gm"])
    services.claim_seat(token=seat.invite_token, user=users["sock"])
    assert readable_keys(campaign, users["sock"]) == set()
    gm_seals_spain(campaign, users)
    assert readable_keys(campaign, users["sock"]) == {"spain", "france"}
    second = gm_team.open_gm_seat(campaign_id=campaign.pk, actor=users["gm"])
    services.claim_seat(token=second.invite_token, user=users["heir"])
    assert readable_keys(campaign, users["heir"]) == {"spain", "france"}
    austria = campaign.seats.get(power__key="austria")
    refused(
        campaign,
        lambda: services.assign_seat(seat=austria, user=users["outsider"], actor=users["heir"]),
        Conflict,
    )


# -- handover ----------------------------------------------------------------------------


def offer(campaign, user, actor) -> Handover:
    return gm_team.offer_handover(campaign_id=campaign.pk, user=user, actor=actor)


def answer(offered: Handover, user, accept: bool) -> Handover:
    return gm_team.answer_handover(token=offered.token, user=user, accept=accept)


def test_an_accepted_offer_gives_the_user_the_gms_seat(campaign, users, mailed):
    (seat,) = gm_seats(campaign)
    with mailed.sending():
        offered = offer(campaign, users["heir"], users["gm"])
    ((to, subject, body),) = mailed.sent
    assert to == "heir@example.org"
    assert subject == f"[{campaign.name}] gm-{campaign.pk} offers you the campaign"
    assert f"/campaigns/handover/{offered.token}/" in body
    assert (
        last_line(campaign).text
        == f"GM gm-{campaign.pk} offers the campaign to heir-{campaign.pk}."
    )
    with mailed.sending():
        answer(offered, users["heir"], True)
    (taken,) = gm_seats(campaign)
    assert taken.pk == seat.pk and taken.user == users["heir"]
    assert not Seat.objects.filter(campaign=campaign, user=users["gm"]).exists()
    offered.refresh_from_db()
    assert offered.status == Handover.Status.ACCEPTED and offered.answered_at is not None
    line = last_line(campaign)
    assert line.actor == users["heir"]
    assert line.text == (
        f"heir-{campaign.pk} takes over the campaign from GM gm-{campaign.pk}, who leaves it."
    )
    assert mailed.sent[-1][:2] == (
        "gm@example.org",
        f"[{campaign.name}] heir-{campaign.pk} took over the campaign",
    )


def test_a_declined_offer_changes_no_seat(campaign, users, mailed):
    offered = offer(campaign, users["heir"], users["gm"])
    seats = snapshot(campaign)["seats"]
    with mailed.sending():
        answer(offered, users["heir"], False)
    assert snapshot(campaign)["seats"] == seats
    offered.refresh_from_db()
    assert offered.status == Handover.Status.DECLINED
    assert last_line(campaign).text == (
        f"heir-{campaign.pk} declines the campaign offered by GM gm-{campaign.pk}."
    )
    assert mailed.sent[-1][1] == f"[{campaign.name}] heir-{campaign.pk} declined the campaign"


def test_a_withdrawn_or_used_link_does_nothing(campaign, users):
    offered = offer(campaign, users["heir"], users["gm"])
    gm_team.withdraw_handover(campaign_id=campaign.pk, actor=users["gm"])
    said = refused(campaign, lambda: answer(offered, users["heir"], True), Conflict)
    assert said == "This offer is no longer open (withdrawn): nothing was changed."
    again = offer(campaign, users["heir"], users["gm"])
    answer(again, users["heir"], False)
    said = refused(campaign, lambda: answer(again, users["heir"], True), Conflict)
    assert said == "This offer is no longer open (declined): nothing was changed."
    refused(
        campaign,
        lambda: gm_team.withdraw_handover(campaign_id=campaign.pk, actor=users["gm"]),
        Conflict,
    )


def test_a_link_is_only_its_users_and_a_forged_one_is_nothing(campaign, users):
    offered = offer(campaign, users["heir"], users["gm"])
    for user in (users["sock"], users["gm"]):
        said = refused(campaign, lambda user=user: answer(offered, user, True))
        assert said == "This link offers you nothing."
    said = refused(
        campaign, lambda: gm_team.answer_handover(token="forged", user=users["heir"], accept=True)
    )
    assert said == "This link offers you nothing."


def test_who_may_be_offered_the_campaign(campaign, users):
    said = refused(campaign, lambda: offer(campaign, users["player"], users["gm"]))
    assert said.endswith("a player cannot also be its GM.")
    said = refused(campaign, lambda: offer(campaign, users["gm"], users["gm"]))
    assert said == f"gm-{campaign.pk} is already a GM of this campaign."
    said = refused(campaign, lambda: offer(campaign, users["heir"], users["player"]))
    assert said == "Only a GM of this campaign hands it over."
    offer(campaign, users["heir"], users["gm"])
    said = refused(campaign, lambda: offer(campaign, users["sock"], users["gm"]), Conflict)
    assert (
        said == f"The campaign is already offered to heir-{campaign.pk}: withdraw that offer first."
    )


def test_a_gm_who_plays_a_power_hands_nothing_over(campaign, users):
    services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=users["gm"])
    said = refused(campaign, lambda: offer(campaign, users["heir"], users["gm"]))
    assert said.startswith("You play Spain: stop playing it first.")


def test_an_offer_is_not_accepted_while_its_gm_plays_a_power(campaign, users):
    offered = offer(campaign, users["heir"], users["gm"])
    services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=users["gm"])
    said = refused(campaign, lambda: answer(offered, users["heir"], True), Conflict)
    assert said.startswith(f"gm-{campaign.pk} plays Spain now")


def test_a_watcher_takes_the_campaign_over_and_stops_watching(campaign, users):
    offered = offer(campaign, users["observer"], users["gm"])
    answer(offered, users["observer"], True)
    roles = list(Seat.objects.filter(campaign=campaign, user=users["observer"]).values("role"))
    assert roles == [{"role": Seat.Role.GM}]


def test_an_offer_lapses_when_its_gm_is_no_longer_one(campaign, users):
    offered = offer(campaign, users["heir"], users["gm"])
    add(campaign, users["co"], users["gm"])
    (own,) = [s for s in gm_seats(campaign) if s.user == users["gm"]]
    said = refused(
        campaign,
        lambda: gm_team.remove_gm(campaign_id=campaign.pk, seat_id=own.pk, actor=users["gm"]),
        Conflict,
    )
    assert "withdraw that offer first" in said
    Seat.objects.filter(pk=own.pk).delete()  # as the admin may
    said = refused(campaign, lambda: answer(offered, users["heir"], True), Conflict)
    assert said == f"gm-{campaign.pk} is no longer a GM of this campaign: the offer has lapsed."
    gm_team.withdraw_handover(campaign_id=campaign.pk, actor=users["co"])  # any GM may


TIMEOUT = 30  # seconds: a thread still waiting then is a deadlock


def at_once(calls) -> list[str]:
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(name, call) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            call()
            outcomes.append(f"{name} done")
        except ServiceError as error:
            outcomes.append(f"{name} refused: {error}")
        except Exception as error:  # noqa: BLE001 - any other outcome fails the race
            outcomes.append(f"{name} {type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    return sorted(outcomes)


@pytest.mark.django_db(transaction=True)
def test_a_handover_while_the_phase_resolves_happens_before_or_after_it(on_postgresql):
    """Both lock the campaign row: one waits for the other. Each time both are done,
    the phase resolved once (its next phase open) and the seat changed hands once."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    heirs = [User.objects.create_user(f"heir{n}-{campaign.pk}") for n in range(10)]
    giver = users["gm"]
    for heir in heirs:
        campaign.refresh_from_db()
        expected = campaign.phase_id
        offered = offer(campaign, heir, giver)
        outcomes = at_once(
            [
                ("handover", lambda offered=offered, heir=heir: answer(offered, heir, True)),
                (
                    "resolution",
                    lambda expected=expected, giver=giver: services.resolve_open_phase(
                        campaign_id=campaign.pk, expected_phase_id=expected, actor=giver
                    ),
                ),
            ]
        )
        assert outcomes == ["handover done", "resolution done"]
        campaign.refresh_from_db()
        assert Phase.objects.get(pk=expected).status == Phase.Status.RESOLVED
        assert Phase.objects.filter(campaign=campaign, pk__gt=expected).count() == 1
        assert [s.user for s in gm_seats(campaign)] == [heir]
        assert not Seat.objects.filter(campaign=campaign, user=giver).exists()
        assert Handover.objects.get(pk=offered.pk).status == Handover.Status.ACCEPTED
        resolved = Event.objects.filter(phase_id=expected, kind=Event.Kind.PHASE)
        assert resolved.filter(text__endswith=" resolved.").count() == 1
        giver = heir


@pytest.mark.django_db(transaction=True)
def test_a_second_resolution_after_a_handover_is_refused_as_already_done(on_postgresql):
    """The resolution that waited for the handover's lock then finds the phase moved on
    by another resolution: refused clearly, and nothing half-done."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    heir = User.objects.create_user(f"heir-{campaign.pk}")
    offered = offer(campaign, heir, users["gm"])
    expected = campaign.phase_id
    outcomes = at_once(
        [
            ("handover", lambda: answer(offered, heir, True)),
            (
                "first",
                lambda: services.resolve_open_phase(
                    campaign_id=campaign.pk, expected_phase_id=expected, actor=None
                ),
            ),
            (
                "second",
                lambda: services.resolve_open_phase(
                    campaign_id=campaign.pk, expected_phase_id=expected, actor=None
                ),
            ),
        ]
    )
    assert "handover done" in outcomes
    done = [o for o in outcomes if o in ("first done", "second done")]
    already = [o for o in outcomes if o.endswith("This phase has already been resolved.")]
    assert len(done) == 1 and len(already) == 1, outcomes
    assert [s.user for s in gm_seats(campaign)] == [heir]
    assert Phase.objects.filter(campaign=campaign, pk__gt=expected).count() == 1


# -- quiet GMs ---------------------------------------------------------------------------


def age(campaign, days: int) -> None:
    """Make everything the GMs did, their seats and the start ``days`` old (rewriting the
    past, which the cache keeps for the campaign's version: that goes too)."""
    cache.clear()
    then = timezone.now() - timedelta(days=days)
    Event.objects.filter(campaign=campaign).update(created_at=then)
    Seat.objects.filter(campaign=campaign).update(created_at=then)
    Campaign.objects.filter(pk=campaign.pk).update(started_at=then)
    campaign.refresh_from_db()


def test_gms_are_quiet_after_the_days_the_site_sets(campaign, users, settings):
    settings.GM_INACTIVE_DAYS = 14
    age(campaign, 10)
    assert gm_team.quiet_since(campaign) is None
    age(campaign, 15)
    since = gm_team.quiet_since(campaign)
    assert since is not None and timezone.now() - since > timedelta(days=14)
    quiet = gm_team.quiet_for(services.seat_for(users["player"], campaign.pk))
    assert quiet.since == since and quiet.may_ask and not quiet.asked
    observer = gm_team.quiet_for(services.seat_for(users["observer"], campaign.pk))
    assert not observer.may_ask
    assert gm_team.quiet_for(services.seat_for(users["gm"], campaign.pk)) is None


def test_a_gms_action_or_a_new_gm_ends_the_quiet(campaign, users, settings):
    settings.GM_INACTIVE_DAYS = 14
    age(campaign, 30)
    services.add_observer_seat(campaign_id=campaign.pk, actor=users["gm"])
    assert gm_team.quiet_since(campaign) is None
    age(campaign, 30)
    resolve(campaign)  # the deadline's resolution is no GM's action
    assert gm_team.quiet_since(campaign) is not None
    Seat.objects.create(campaign=campaign, role=Seat.Role.GM, user=users["co"])
    campaign.bump_version()  # as every change of seats does
    assert gm_team.quiet_since(campaign) is None


def test_an_ended_or_unstarted_campaign_is_never_quiet(campaign, users, settings):
    settings.GM_INACTIVE_DAYS = 14
    age(campaign, 30)
    Campaign.objects.filter(pk=campaign.pk).update(started_at=None)
    campaign.refresh_from_db()
    assert gm_team.quiet_since(campaign) is None
    age(campaign, 30)
    Campaign.objects.filter(pk=campaign.pk).update(ended_at=timezone.now())
    campaign.refresh_from_db()
    assert gm_team.quiet_since(campaign) is None


def test_a_player_asks_the_sites_admins_for_a_new_gm_once(campaign, users, settings, mailed):
    settings.GM_INACTIVE_DAYS = 14
    User.objects.create_user("admin", "admin@example.org", is_staff=True)
    User.objects.create_user("quiet-admin", is_staff=True)  # no address: not mailed
    ask = gm_team.ask_for_new_gm
    said = refused(campaign, lambda: ask(campaign_id=campaign.pk, user=users["player"]))
    assert said == "The GMs of this campaign have acted lately: ask them first."
    age(campaign, 20)
    with mailed.sending():
        asked = ask(campaign_id=campaign.pk, user=users["player"])
    assert asked.user == users["player"]
    line = last_line(campaign)
    assert line.text == f"player-{campaign.pk} asks the site's admins for a new GM."
    ((to, subject, body),) = mailed.sent
    assert to == "admin@example.org"
    assert subject == f"[{campaign.name}] A player asks for a new GM"
    assert "/admin/campaign/newgmrequest/" in body
    said = refused(campaign, lambda: ask(campaign_id=campaign.pk, user=users["player"]), Conflict)
    assert said == "You have already asked the site's admins for a new GM."
    for role in ("observer", "gm", "outsider"):
        said = refused(campaign, lambda role=role: ask(campaign_id=campaign.pk, user=users[role]))
        assert said == "Only a player of this campaign asks for a new GM."
    assert gm_team.quiet_for(services.seat_for(users["player"], campaign.pk)).asked
