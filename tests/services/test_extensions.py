"""Deadline extensions (campaign/play/extensions.py): a power's player takes one before the
deadline and it moves for everyone, logged and mailed; each refusal changes nothing; the
budget counts per campaign year (Empires in Arms months, Pax Baltica seasons, a Virgin
Queen turn); the cap on one phase, and an extension at the cap; a double click with a
stale deadline; the GM's rules; two extensions at once on PostgreSQL."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from campaign.core.changes import moment_text
from campaign.errors import CampaignEnded, Conflict, ServiceError
from campaign.models import Campaign, Event, Extension, MailChoice, Phase, Profile, Seat
from campaign.notify import outgoing, reminders
from campaign.play import extensions, scheduling
from tests.factories import (
    make_eia_campaign,
    make_pb_campaign,
    make_vq_campaign,
    seat_users,
    snapshot,
)

pytestmark = pytest.mark.django_db
User = get_user_model()
TIMEOUT = 30  # seconds: a thread still waiting then is a deadlock


@pytest.fixture
def campaign():
    """Empires in Arms, January 1805, its peace step due in 48 hours."""
    campaign = make_eia_campaign()
    due_in(campaign, hours=48)
    return campaign


@pytest.fixture
def users(campaign):
    """France (player), Great Britain (other_player), the GM and the observer have an
    address; the outsider has a seat nowhere."""
    found = seat_users(campaign)
    for role in ("player", "other_player", "gm", "observer"):
        found[role].email = f"{role}@example.org"
        found[role].save(update_fields=["email"])
    return found


def due_in(campaign, **delta) -> Phase:
    """The open phase's deadline, ``delta`` from now."""
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=timezone.now() + timedelta(**delta))
    return Phase.objects.get(pk=campaign.phase_id)


def deadline(campaign):
    return Phase.objects.get(pk=Campaign.objects.get(pk=campaign.pk).phase_id).deadline


def seat_of(campaign, user) -> Seat:
    return Seat.objects.select_related("campaign__phase", "power").get(campaign=campaign, user=user)


def take(campaign, user, *, seen=None, phase_id=None) -> Extension:
    """The user's power takes an extension of the open phase, as their page showed it."""
    seat = seat_of(campaign, user)
    phase = seat.campaign.phase
    return extensions.take_extension(
        seat=seat,
        phase_id=phase_id or phase.pk,
        seen_deadline=seen or phase.deadline,
        actor=user,
    )


def rules(campaign, per_year=2, hours=24, cap=48) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(
        extensions_per_year=per_year, extension_hours=hours, extension_cap_hours=cap
    )


def refused(campaign, call, kind=ServiceError) -> str:
    """The refusal's message; nothing changed."""
    before, taken = snapshot(campaign), list(Extension.objects.values())
    with pytest.raises(kind) as refusal:
        call()
    assert snapshot(campaign) == before
    assert list(Extension.objects.values()) == taken
    return str(refusal.value)


def to_turn(campaign, turn: int) -> None:
    """The open phase and the campaign at ``turn``, its deadline in a day."""
    Phase.objects.filter(pk=campaign.phase_id).update(turn=turn)
    Campaign.objects.filter(pk=campaign.pk).update(turn=turn)
    due_in(campaign, hours=24)


# -- taking one ------------------------------------------------------------------------


def test_an_extension_moves_the_deadline_for_everyone_logs_and_mails(campaign, users, mailed):
    before = deadline(campaign)
    version = Campaign.objects.get(pk=campaign.pk).version
    MailChoice.objects.create(user=users["observer"], campaign=campaign, your_turn=False)
    with mailed.sending():
        extension = take(campaign, users["player"])
    assert deadline(campaign) == before + timedelta(hours=24)
    assert (extension.power.key, extension.hours, extension.year) == ("france", 24, 1805)
    assert extension.user == users["player"]
    assert Campaign.objects.get(pk=campaign.pk).version > version
    line = Event.objects.filter(campaign=campaign).latest("pk")
    when = moment_text(deadline(campaign))
    assert line.text == f"France takes an extension of 24 h: the deadline is now {when}."
    assert (line.kind, line.power.key, line.actor) == (Event.Kind.SEAT, "france", users["player"])
    # every seated user with an address who wants the phase's news: the observer does not
    assert sorted(to for to, _, _ in mailed.sent) == [
        "gm@example.org",
        "other_player@example.org",
        "player@example.org",
    ]
    to, subject, text = mailed.sent[0]
    assert (
        subject == f"[{campaign.name}] France extended the deadline of Political phase · peace step"
    )
    assert "France took an extension: Political phase · peace step now closes at " in text
    assert "24 h later" in text


def test_the_gm_who_plays_a_power_may_take_one(campaign, users):
    Seat.objects.filter(campaign=campaign, power__key="spain").delete()
    Seat.objects.filter(campaign=campaign, role=Seat.Role.GM).update(
        power=campaign.powers.get(key="spain")
    )
    assert take(campaign, users["gm"]).power.key == "spain"


def test_each_refusal_changes_nothing(campaign, users):
    player = users["player"]
    said = refused(campaign, lambda: take(campaign, users["observer"]))
    assert said == "Only a power's player takes an extension of the deadline."
    france = seat_of(campaign, player)
    said = refused(
        campaign,
        lambda: extensions.take_extension(
            seat=france,
            phase_id=campaign.phase_id,
            seen_deadline=deadline(campaign),
            actor=users["other_player"],
        ),
    )
    assert said == "Only a power's player takes an extension of the deadline."
    said = refused(campaign, lambda: take(campaign, player, phase_id=10**17), Conflict)
    assert said == "That phase is no longer open: nothing was changed."

    rules(campaign, per_year=0)
    said = refused(campaign, lambda: take(campaign, player))
    assert said == "This campaign takes no deadline extensions."
    rules(campaign)

    Phase.objects.filter(pk=campaign.phase_id).update(deadline=None)
    said = refused(campaign, lambda: take(campaign, player))
    assert said == "This phase has no deadline to extend: the GM closes it."
    due_in(campaign, minutes=-1)
    said = refused(campaign, lambda: take(campaign, player))
    assert said == "The deadline has passed: it can no longer be extended."


@pytest.mark.parametrize(
    ("state", "kind", "said"),
    [
        (
            {"paused_at": timezone.now()},
            ServiceError,
            "The deadline is paused: it cannot be extended until the GM resumes it.",
        ),
        (
            {"started_at": None},
            ServiceError,
            "The campaign has not started: no deadline runs yet.",
        ),
        (
            {"ended_at": timezone.now()},
            CampaignEnded,
            "This campaign has ended: its deadlines no longer move.",
        ),
    ],
)
def test_no_extension_of_a_campaign_paused_not_started_or_ended(campaign, users, state, kind, said):
    Campaign.objects.filter(pk=campaign.pk).update(**state)
    assert refused(campaign, lambda: take(campaign, users["player"]), kind) == said


def test_no_extension_of_a_paused_deadline_or_a_phase_under_way(campaign, users):
    seen = deadline(campaign)
    Phase.objects.filter(pk=campaign.phase_id).update(paused_remaining=timedelta(hours=3))
    said = refused(campaign, lambda: take(campaign, users["player"], seen=seen))
    assert said == "The deadline is paused: it cannot be extended until the GM resumes it."
    Phase.objects.filter(pk=campaign.phase_id).update(
        paused_remaining=None, status=Phase.Status.WAITING
    )
    said = refused(campaign, lambda: take(campaign, users["player"], seen=seen), Conflict)
    assert said.startswith("The phase is being resolved (it waits for a decision)")


def test_a_double_click_spends_one_extension(campaign, users):
    seen = deadline(campaign)
    take(campaign, users["player"], seen=seen)
    said = refused(campaign, lambda: take(campaign, users["player"], seen=seen), Conflict)
    assert said.startswith("The deadline has moved meanwhile: it is now ")
    assert outgoing.moment(seen + timedelta(hours=24)) in said
    assert Extension.objects.count() == 1


def test_a_deadline_the_gm_moved_is_refused_as_seen_before(campaign, users):
    seen = deadline(campaign)
    scheduling.extend_deadline(
        campaign_id=campaign.pk, phase_id=campaign.phase_id, hours=2, actor=users["gm"]
    )
    said = refused(campaign, lambda: take(campaign, users["player"], seen=seen), Conflict)
    assert outgoing.moment(seen + timedelta(hours=2)) in said


# -- the budget of a year ----------------------------------------------------------------


def test_the_budget_is_spent_within_a_year_of_months(campaign, users):
    """Empires in Arms: a turn is a month; January to December 1805 share one budget."""
    rules(campaign, cap=24 * 14)
    take(campaign, users["player"])
    take(campaign, users["player"])
    said = refused(campaign, lambda: take(campaign, users["player"]))
    assert said == "France has taken its 2 extensions of this year."
    to_turn(campaign, 12)  # December 1805
    refused(campaign, lambda: take(campaign, users["player"]))
    assert take(campaign, users["other_player"]).year == 1805  # Great Britain's own budget
    to_turn(campaign, 13)  # January 1806
    assert take(campaign, users["player"]).year == 1806
    campaign.refresh_from_db()
    budgets = {b.power.key: (b.used, b.left) for b in extensions.budgets(campaign)}
    assert budgets["france"] == (1, 1)
    assert budgets["great_britain"] == (0, 2)
    assert budgets["spain"] == (0, 2)


def test_the_budget_is_spent_within_a_year_of_four_seasons():
    """Pax Baltica: four seasons a year; the fifth turn is the next year."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    rules(campaign, per_year=1)
    due_in(campaign, hours=24)
    assert take(campaign, users["player"]).year == 1700
    to_turn(campaign, 4)  # winter 1700
    said = refused(campaign, lambda: take(campaign, users["player"]))
    assert said == "Sweden has taken its 1 extension of this year."
    to_turn(campaign, 5)  # spring 1701
    assert take(campaign, users["player"]).year == 1701


def test_without_years_each_turn_has_its_budget():
    """Virgin Queen does not say its years: each turn is one."""
    campaign = make_vq_campaign()
    users = seat_users(campaign, "ottoman", "spain")
    rules(campaign, per_year=1)
    due_in(campaign, hours=24)
    take(campaign, users["player"])
    refused(campaign, lambda: take(campaign, users["player"]))
    to_turn(campaign, 2)
    assert take(campaign, users["player"]).year == 2


def test_the_budgets_of_the_year_for_the_gm(campaign, users, django_assert_max_num_queries):
    take(campaign, users["player"])
    rules(campaign, per_year=1)
    campaign.refresh_from_db()
    with django_assert_max_num_queries(1):
        budgets = extensions.budgets(campaign)
    assert [(b.power.key, b.used, b.left) for b in budgets][:3] == [
        ("france", 1, 0),
        ("great_britain", 0, 1),
        ("spain", 0, 1),
    ]
    assert len(budgets) == 7


# -- the cap -----------------------------------------------------------------------------


def test_the_cap_bounds_every_powers_extensions_of_a_phase(campaign, users):
    first = deadline(campaign)
    take(campaign, users["player"])
    take(campaign, users["other_player"])
    assert deadline(campaign) == first + timedelta(hours=48)
    said = refused(campaign, lambda: take(campaign, users["player"]))
    assert said == (
        "The players' extensions have already moved this deadline by 48 h, the most the GM "
        "allows: no hours are left under the cap."
    )


def test_an_extension_at_the_cap_adds_what_is_left(campaign, users):
    rules(campaign, hours=24, cap=36)
    first = deadline(campaign)
    take(campaign, users["player"])
    assert extensions.offer(seat_of(campaign, users["other_player"])).hours == 12
    assert take(campaign, users["other_player"]).hours == 12
    assert deadline(campaign) == first + timedelta(hours=36)
    offer = extensions.offer(seat_of(campaign, users["player"]))
    assert (offer.hours, offer.left) == (0, 1)
    refused(campaign, lambda: take(campaign, users["player"]))


def test_the_gms_own_moves_are_not_counted_under_the_cap(campaign, users):
    first = deadline(campaign)
    scheduling.extend_deadline(
        campaign_id=campaign.pk, phase_id=campaign.phase_id, hours=100, actor=users["gm"]
    )
    take(campaign, users["player"])
    take(campaign, users["other_player"])
    assert deadline(campaign) == first + timedelta(hours=148)


# -- what the page offers ------------------------------------------------------------------


def test_the_page_offers_an_extension_only_where_one_may_be_taken(campaign, users):
    offer = extensions.offer(seat_of(campaign, users["player"]))
    assert (offer.hours, offer.left, offer.per_year, offer.cap) == (24, 2, 2, 48)
    assert offer.seen == deadline(campaign).isoformat()
    assert extensions.offer(seat_of(campaign, users["observer"])) is None
    assert extensions.offer(seat_of(campaign, users["gm"])) is None
    due_in(campaign, minutes=-1)
    assert extensions.offer(seat_of(campaign, users["player"])) is None
    due_in(campaign, hours=1)
    rules(campaign, per_year=0)
    assert extensions.offer(seat_of(campaign, users["player"])) is None


# -- reminders -----------------------------------------------------------------------------


def test_an_extension_of_a_day_has_the_day_before_reminder_go_again(campaign, users, mailed):
    """Great Britain owes orders in the peace step (it sponsors a revolt)."""
    Profile.objects.update_or_create(user=users["other_player"], defaults={"reminder_hours": [24]})
    rules(campaign, per_year=2, hours=24, cap=48)
    now = timezone.now()
    due_in(campaign, hours=23)
    with mailed.sending():
        assert reminders.send_due(now) == 1
        assert reminders.send_due(now) == 0
        take(campaign, users["player"])  # 47 hours left
        assert reminders.send_due(now) == 0
        assert reminders.send_due(now + timedelta(hours=24)) == 1  # 23 hours left again


# -- the GM's rules ------------------------------------------------------------------------


def test_the_gm_sets_the_rules_each_change_logged(campaign, users):
    version = Campaign.objects.get(pk=campaign.pk).state_version
    extensions.set_extension_rules(
        campaign_id=campaign.pk,
        extensions_per_year=3,
        extension_hours=12,
        extension_cap_hours=48,
        actor=users["gm"],
    )
    campaign.refresh_from_db()
    assert (campaign.extensions_per_year, campaign.extension_hours) == (3, 12)
    assert campaign.state_version > version
    lines = Event.objects.filter(campaign=campaign, kind=Event.Kind.GM).order_by("pk")
    assert [line.text for line in lines] == [
        "The GM sets the deadline extensions: 3 extensions per power and year.",
        "The GM sets the deadline extensions: each extension adds 12 h.",
    ]
    assert {line.actor for line in lines} == {users["gm"]}
    extensions.set_extension_rules(
        campaign_id=campaign.pk,
        extensions_per_year=0,
        extension_hours=12,
        extension_cap_hours=24,
        actor=users["gm"],
    )
    assert [line.text for line in lines.all()][2:] == [
        "The GM sets the deadline extensions: the players take no extensions.",
        "The GM sets the deadline extensions: the extensions move a phase's deadline by 24 h "
        "at most.",
    ]


@pytest.mark.parametrize(
    ("chosen", "said"),
    [
        ((21, 24, 48), "deadline extensions per power and year: "),
        ((2, 0, 48), "hours each extension adds: "),
        ((2, 169, 400), "hours each extension adds: "),
        ((2, 24, 24 * 14 + 1), "most hours extensions add to one phase: "),
        ((2, 24, 12), "The most hours extensions add to one phase (12) cannot be fewer than"),
        ((-1, 24, 48), "deadline extensions per power and year: "),
    ],
)
def test_rules_out_of_range_are_refused(campaign, users, chosen, said):
    per_year, hours, cap = chosen
    message = refused(
        campaign,
        lambda: extensions.set_extension_rules(
            campaign_id=campaign.pk,
            extensions_per_year=per_year,
            extension_hours=hours,
            extension_cap_hours=cap,
            actor=users["gm"],
        ),
    )
    assert message.startswith(said)


# -- two at once ---------------------------------------------------------------------------


def race(campaign, takers: list, attempts: int) -> dict[str, list[str]]:
    """Each user, in a thread of its own behind a barrier, tries up to ``attempts`` times
    to take an extension, as its page shows the deadline each time; what each got."""
    barrier = threading.Barrier(len(takers))
    outcomes: dict[str, list[str]] = {user.username: [] for user in takers}

    def run(user) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            for _ in range(attempts):
                try:
                    take(campaign, user)
                    outcomes[user.username].append("taken")
                except Conflict:
                    outcomes[user.username].append("moved")
                except ServiceError:
                    outcomes[user.username].append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=[user]) for user in takers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    return outcomes


def four_players(campaign) -> list:
    """Players for France, Great Britain, Spain and Austria."""
    found = []
    for key in ("france", "great_britain", "spain", "austria"):
        user = User.objects.create_user(f"{key}-{campaign.pk}")
        Seat.objects.filter(campaign=campaign, power__key=key).update(user=user)
        found.append(user)
    return found


@pytest.mark.django_db(transaction=True)
def test_two_clicks_at_once_on_the_same_deadline_take_one_extension(on_postgresql):
    campaign = make_eia_campaign()
    first = due_in(campaign, hours=24).deadline
    players = four_players(campaign)[:2]
    outcomes = race(campaign, players, attempts=1)
    assert sorted(sum(outcomes.values(), [])) == ["moved", "taken"]
    assert deadline(campaign) == first + timedelta(hours=24)
    assert Extension.objects.filter(campaign=campaign).count() == 1


@pytest.mark.django_db(transaction=True)
def test_extensions_at_once_stay_under_the_cap(on_postgresql):
    """Four powers keep clicking at once: exactly the two extensions the cap allows are
    taken, and the deadline moved by their sum."""
    campaign = make_eia_campaign()
    players = four_players(campaign)
    for _ in range(5):
        Extension.objects.filter(campaign=campaign).delete()
        first = due_in(campaign, hours=24).deadline
        outcomes = race(campaign, players, attempts=4)
        taken = Extension.objects.filter(campaign=campaign)
        assert sum(o.count("taken") for o in outcomes.values()) == 2 == taken.count()
        assert all(o[-1] == "refused" for o in outcomes.values())
        hours = sum(taken.values_list("hours", flat=True))
        assert deadline(campaign) == first + timedelta(hours=hours) == first + timedelta(hours=48)
