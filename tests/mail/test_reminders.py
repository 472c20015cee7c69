"""Reminders before a deadline at the offsets each user chooses: one mail per offset and
deadline while the power owes orders not marked ready, with the orders to answer by mail;
none when ready, turned off for the campaign, or already sent; again for a moved
deadline; one mail for offsets a late clock passed together; and exactly once when two
workers run the clock at the same moment (PostgreSQL, real transactions). The clock reads
only the phases where a reminder is due, from the state as it is at each tick: a player
seated, an offset chosen or orders un-marked ready after a tick are reminded at the next."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django_tasks_db.models import DBTaskResult

from campaign.models import Heartbeat, MailChoice, Profile, PushSubscription, ReminderSent, Seat
from campaign.notify import reminders
from campaign.play import scheduling, services
from campaign.records.archive import export_campaign, import_archive
from tests.factories import make_eia_campaign, seat_users
from tests.services.test_scheduling import (
    START,
    clock,  # noqa: F401  (a fixture)
    eia,  # noqa: F401  (a fixture)
    france_sponsors_a_revolt,
    give_orders,
    run_worker,
    set_deadline,
)

pytestmark = pytest.mark.django_db
DEADLINE_HOURS = 48


@pytest.fixture
def owing(eia):  # noqa: F811
    """France owes orders in the peace step, due in 48 hours; its player has an address."""
    campaign, users = eia
    france_sponsors_a_revolt(campaign)
    users["player"].email = "player@example.org"
    users["player"].save(update_fields=["email"])
    set_deadline(campaign, DEADLINE_HOURS, users)
    return campaign, users


def reminded(clock, **at) -> list[str]:  # noqa: F811
    """Move the clock, run the reminders and the worker: the subjects mailed."""
    clock(**at)
    mail.outbox.clear()
    reminders.send_due(START + timedelta(**at))
    run_worker()
    return [m.subject for m in mail.outbox if "left" in m.subject]


def left_in(subjects: list[str]) -> list[str]:
    """What each reminder's subject says is left ("8 hours left")."""
    return [subject.rsplit(": ", 1)[1] for subject in subjects]


def test_each_chosen_offset_reminds_once(owing, clock):  # noqa: F811
    campaign, users = owing
    Profile.objects.update_or_create(user=users["player"], defaults={"reminder_hours": [8, 4, 1]})
    assert reminded(clock, hours=39) == []  # 9 h left
    assert left_in(reminded(clock, hours=40)) == ["8 hours left"]
    assert reminded(clock, hours=41) == []
    assert left_in(reminded(clock, hours=44)) == ["4 hours left"]
    assert reminded(clock, hours=45) == []
    assert left_in(reminded(clock, hours=47, minutes=30)) == ["30 minutes left"]
    assert reminded(clock, hours=47, minutes=50) == []
    assert ReminderSent.objects.filter(user=users["player"]).count() == 3


def test_a_reminder_shows_the_orders_and_takes_them_by_answer(owing, clock):  # noqa: F811
    campaign, users = owing
    clock(hours=24)
    reminders.send_due(START + timedelta(hours=24))
    run_worker()
    (message,) = [m for m in mail.outbox if "left" in m.subject]
    assert message.reply_to and message.reply_to[0].startswith("courier+o-")
    assert "READY" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_no_reminder_when_ready_or_turned_off(owing, clock):  # noqa: F811
    campaign, users = owing
    MailChoice.objects.create(user=users["player"], campaign=campaign, reminders=False)
    assert reminded(clock, hours=24) == []
    MailChoice.objects.all().delete()
    give_orders(campaign, "france")  # ready
    assert reminded(clock, hours=47) == []


def test_a_late_clock_sends_one_mail_for_the_offsets_it_passed(owing, clock):  # noqa: F811
    campaign, users = owing
    assert left_in(reminded(clock, hours=46, minutes=30)) == ["1 hour left"]
    assert sorted(ReminderSent.objects.values_list("hours", flat=True)) == [2, 24]
    assert reminded(clock, hours=47) == []


def test_a_deadline_moved_later_by_the_offset_is_reminded_again(owing, clock):  # noqa: F811
    campaign, users = owing
    assert len(reminded(clock, hours=24)) == 1
    campaign.refresh_from_db()
    services.set_deadline(
        campaign_id=campaign.pk,
        phase_id=campaign.phase_id,
        deadline=START + timedelta(hours=72),
        actor=users["gm"],
    )
    assert reminded(clock, hours=30) == []  # 42 h left
    assert len(reminded(clock, hours=48)) == 1  # 24 h before the new deadline
    assert reminded(clock, hours=49) == []


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_each_reminder_once(on_postgresql, time_machine):
    time_machine.move_to(START, tick=False)
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    france_sponsors_a_revolt(campaign)
    users["player"].email = "player@example.org"
    users["player"].save(update_fields=["email"])
    set_deadline(campaign, DEADLINE_HOURS, users)
    now = START + timedelta(hours=24)
    for _ in range(5):
        ReminderSent.objects.all().delete()
        DBTaskResult.objects.all().delete()
        Heartbeat.objects.all().delete()  # each round, a clock that never looked
        barrier = threading.Barrier(2)

        def work(barrier=barrier):
            try:
                barrier.wait(timeout=30)
                reminders.send_due(now)
            finally:
                connection.close()

        threads = [threading.Thread(target=work) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        queued = DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_mail")
        assert queued.count() == 1
        assert ReminderSent.objects.count() == 1


def test_a_pause_or_a_short_extension_does_not_remind_again(owing, clock):  # noqa: F811
    campaign, users = owing
    assert len(reminded(clock, hours=24)) == 1  # 24 h left
    campaign.refresh_from_db()
    ids = {"campaign_id": campaign.pk, "phase_id": campaign.phase_id, "actor": users["gm"]}
    scheduling.pause_deadline(**ids)
    clock(hours=24, minutes=30)
    scheduling.resume_deadline(**ids)  # the deadline is now 30 minutes later
    assert reminded(clock, hours=25) == []
    scheduling.extend_deadline(hours=1, **ids)  # 23 h 30 min left: the 24 h one stays sent
    assert reminded(clock, hours=26) == []
    assert ReminderSent.objects.filter(user=users["player"], hours=24).count() == 1


def test_an_offset_longer_than_a_day_is_read_too(owing, clock):  # noqa: F811
    """The clock reads only the phases within the longest offset a seated user chose."""
    campaign, users = owing
    Profile.objects.update_or_create(user=users["player"], defaults={"reminder_hours": [40]})
    assert reminded(clock, hours=7) == []  # 41 h left
    assert left_in(reminded(clock, hours=8)) == ["40 hours left"]


def test_a_player_seated_after_a_tick_is_reminded_at_the_next(owing, clock):  # noqa: F811
    campaign, users = owing
    seat = campaign.seats.get(power__key="france")
    seat.user = None
    seat.save(update_fields=["user"])
    assert reminded(clock, hours=24) == []  # 24 h left, nobody seated
    services.assign_seat(seat=seat, user=users["player"], actor=users["gm"])
    assert left_in(reminded(clock, hours=25)) == ["23 hours left"]


def test_an_offset_chosen_after_a_tick_reminds_at_the_next(owing, clock):  # noqa: F811
    campaign, users = owing
    profile, _ = Profile.objects.update_or_create(
        user=users["player"], defaults={"reminder_hours": [2]}
    )
    assert reminded(clock, hours=24) == []
    profile.reminder_hours = [12, 2]
    profile.save()  # as the preferences page does
    assert left_in(reminded(clock, hours=36, minutes=30)) == ["11 hours left"]
    assert reminded(clock, hours=37) == []


def test_orders_unmarked_ready_after_a_tick_are_reminded_at_the_next(owing, clock):  # noqa: F811
    campaign, users = owing
    give_orders(campaign, "france")  # ready
    assert reminded(clock, hours=24) == []
    give_orders(campaign, "france", ready=False)
    assert left_in(reminded(clock, hours=25)) == ["23 hours left"]


def test_an_address_given_after_a_tick_is_reminded_at_the_next(owing, clock):  # noqa: F811
    campaign, users = owing
    player = users["player"]
    player.email = ""
    player.save(update_fields=["email"])
    assert reminded(clock, hours=24) == []  # nobody to mail
    player.email = "player@example.org"
    player.save(update_fields=["email"])
    assert left_in(reminded(clock, hours=25)) == ["23 hours left"]


def test_reminders_turned_on_again_after_a_tick_remind_at_the_next(owing, clock):  # noqa: F811
    campaign, users = owing
    choice = MailChoice.objects.create(user=users["player"], campaign=campaign, reminders=False)
    assert reminded(clock, hours=24) == []
    choice.reminders = True
    choice.save()  # as the campaign's mail page does
    assert left_in(reminded(clock, hours=25)) == ["23 hours left"]


def test_a_power_back_from_absence_after_a_tick_is_reminded_at_the_next(owing, clock):  # noqa: F811
    campaign, users = owing
    france = campaign.powers.get(key="france")
    ids = {"campaign_id": campaign.pk, "power_id": france.pk, "actor": users["gm"]}
    scheduling.set_absent(absent=True, **ids)
    assert reminded(clock, hours=24) == []
    scheduling.set_absent(absent=False, **ids)
    assert left_in(reminded(clock, hours=25)) == ["23 hours left"]


def test_an_away_period_that_ends_reminds_at_the_next_tick(owing, clock):  # noqa: F811
    campaign, users = owing
    seat = campaign.seats.get(power__key="france")
    back_at = START + timedelta(hours=30)
    scheduling.set_away(seat_id=seat.pk, start=None, end=back_at, actor=users["player"])
    assert reminded(clock, hours=24) == []  # away
    assert reminded(clock, hours=29, minutes=59) == []
    assert left_in(reminded(clock, hours=30, minutes=1)) == ["17 hours left"]


def test_the_clock_looks_only_at_what_changed_or_came_due_since_it_last_looked(owing, clock):  # noqa: F811
    """A change of what reminds a player marks his running campaigns to be looked at
    again; logging in, or saving a language, does not."""
    campaign, users = owing
    player = users["player"]
    Profile.objects.create(user=player)
    reminded(clock, hours=1)

    def unchecked() -> bool:
        return campaign.pk in {pk for pk, *_ in reminders.unchecked_campaigns()}

    assert not unchecked()
    player.save(update_fields=["last_login"])
    Profile.objects.update_or_create(user=player, defaults={"language": "el"})
    assert not unchecked()
    for change in (
        lambda: player.save(update_fields=["is_active"]),
        lambda: Profile.objects.update_or_create(user=player, defaults={"reminder_hours": [5]}),
        lambda: PushSubscription.objects.create(
            user=player, endpoint="https://push.example.org/1", p256dh="k", auth="a"
        ),
        lambda: MailChoice.objects.create(user=player, campaign=campaign, press="off"),
        lambda: MailChoice.objects.filter(user=player).delete(),
    ):
        change()
        assert unchecked()
        reminded(clock, hours=1)
        assert not unchecked()


def test_a_reminder_counted_that_the_admin_deletes_goes_again(owing, clock):  # noqa: F811
    campaign, users = owing
    assert len(reminded(clock, hours=24)) == 1
    ReminderSent.objects.get().delete()  # as the admin's delete does
    assert left_in(reminded(clock, hours=25)) == ["23 hours left"]


def test_preferences_deleted_bring_back_the_default_hours(owing, clock):  # noqa: F811
    campaign, users = owing
    profile = Profile.objects.create(user=users["player"], reminder_hours=[1])
    assert reminded(clock, hours=24) == []
    profile.delete()  # the admin's: 24 and 2 hours again
    assert left_in(reminded(clock, hours=25)) == ["23 hours left"]


def test_an_imported_campaign_is_looked_at_whatever_version_its_archive_gives(owing, clock):  # noqa: F811
    campaign, users = owing
    assert len(reminded(clock, hours=30)) == 1  # the original's, 18 hours left
    data = export_campaign(campaign)
    data["campaign"]["version"] = 0  # a hand-made archive
    copy = import_archive(data, gm=users["gm"], name="Copy", by_name=True).campaign
    assert copy.seats.filter(user=users["player"]).exists()
    assert left_in(reminded(clock, hours=30, minutes=1)) == ["17 hours left"]  # the copy's


def test_the_demo_seating_its_players_again_is_looked_at(clock):  # noqa: F811
    call_command("demo")
    reminders.send_due(START)
    seat = Seat.objects.filter(role=Seat.Role.PLAYER, campaign__started_at__isnull=False)[0]
    Seat.objects.filter(pk=seat.pk).update(user=None)
    reminders.send_due(START)  # a player gone, and the clock looked
    call_command("demo")  # seats him again
    assert seat.campaign_id in {pk for pk, *_ in reminders.unchecked_campaigns()}
