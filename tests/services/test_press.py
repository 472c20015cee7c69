"""Press services (campaign/press/press.py): channels and who is in them, who reads and who
writes under each press rule, bad messages, the rate limit, unread counts, the digest
mail and the webhook, the press rules, the archive; concurrent first posts on PostgreSQL."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from campaign.models import (
    Campaign,
    Channel,
    Event,
    MailChoice,
    Message,
    PressMail,
    Profile,
    ReadMarker,
    Seat,
)
from campaign.notify import delivery
from campaign.press import press, press_mail
from campaign.records import archive
from tests.factories import make_eia_campaign, seat_users
from tests.services.test_archive import unrenewed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    """Each test counts its own messages a minute (the cache outlives a test's rollback)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def campaign():
    return make_eia_campaign()


@pytest.fixture
def users(campaign):
    """gm, observer, player (France), other_player (Great Britain), outsider, and third
    (Prussia)."""
    found = seat_users(campaign)
    from django.contrib.auth import get_user_model

    found["third"] = get_user_model().objects.create_user(f"third-{campaign.pk}", "x@example.org")
    Seat.objects.filter(campaign=campaign, power__key="prussia").update(user=found["third"])
    return found


@pytest.fixture
def seats(campaign, users):
    def seat(role: str) -> Seat:
        return (
            Seat.objects.select_related("campaign", "power", "campaign__phase")
            .filter(campaign=campaign, user=users[role])
            .get()
        )

    return seat


def post(seat: Seat, to: str, text: str = "Shall we?", chosen=(), **kwargs) -> Message:
    return press.post_message(seat=seat, to=to, chosen=list(chosen), text=text, **kwargs)


# -- channels ---------------------------------------------------------------------------


def test_the_same_set_of_powers_is_the_same_channel(seats):
    first = post(seats("player"), press.PRIVATE_CHOICE, chosen=["great_britain"])
    second = post(seats("other_player"), press.PRIVATE_CHOICE, chosen=["france"])
    third = post(seats("player"), "france+great_britain")
    assert first.channel_id == second.channel_id == third.channel_id
    channel = first.channel
    assert (channel.kind, channel.key) == (Channel.Kind.PRIVATE, "france+great_britain")
    assert sorted(channel.members.values_list("key", flat=True)) == ["france", "great_britain"]


def test_a_larger_set_is_another_channel(seats):
    pair = post(seats("player"), press.PRIVATE_CHOICE, chosen=["great_britain"])
    trio = post(seats("player"), press.PRIVATE_CHOICE, chosen=["prussia", "great_britain"])
    assert pair.channel_id != trio.channel_id
    assert trio.channel.key == "france+great_britain+prussia"


def test_each_power_has_its_own_channel_with_the_gm(seats):
    mine = post(seats("player"), press.GM_CHOICE)
    theirs = post(seats("other_player"), press.GM_CHOICE)
    answer = post(seats("gm"), "gm-france")
    assert mine.channel.key == answer.channel.key == "gm-france"
    assert theirs.channel.key == "gm-great_britain"
    assert (mine.power.key, answer.power) == ("france", None)


def test_a_message_carries_its_power_turn_and_phase(campaign, seats):
    message = post(seats("player"), press.PUBLIC, "  Vive l'Empereur  ")
    assert (message.power.key, message.turn, message.phase_id) == ("france", 1, campaign.phase_id)
    assert message.text == "Vive l'Empereur" and message.channel.key == "public"


def test_the_gm_signs_as_the_gm(seats):
    assert post(seats("gm"), press.PUBLIC).power is None


def test_a_gm_who_plays_signs_as_the_power_unless_told(campaign, users, seats):
    Seat.objects.filter(campaign=campaign, power__key="spain").delete()
    Seat.objects.filter(campaign=campaign, role=Seat.Role.GM).update(
        power=campaign.powers.get(key="spain")
    )
    gm = seats("gm")
    assert post(gm, press.PUBLIC).power.key == "spain"
    assert post(gm, press.PUBLIC, as_gm=True).power is None
    assert post(gm, press.PRIVATE_CHOICE, chosen=["france"]).power.key == "spain"
    assert post(gm, "gm-france").power is None


# -- who reads --------------------------------------------------------------------------


def keys_read(seat: Seat) -> set[str]:
    return set(press.readable(seat).values_list("key", flat=True))


def test_each_role_reads_its_channels(seats):
    post(seats("player"), press.PUBLIC)
    post(seats("player"), press.PRIVATE_CHOICE, chosen=["great_britain"])
    post(seats("player"), press.GM_CHOICE)
    post(seats("third"), press.GM_CHOICE)
    assert keys_read(seats("player")) == {"public", "france+great_britain", "gm-france"}
    assert keys_read(seats("other_player")) == {"public", "france+great_britain"}
    assert keys_read(seats("third")) == {"public", "gm-prussia"}
    assert keys_read(seats("observer")) == {"public"}
    assert keys_read(seats("gm")) == {"public", "gm-france", "gm-prussia"}


def test_the_gm_reads_private_press_only_when_the_campaign_says_so(campaign, seats):
    post(seats("player"), press.PRIVATE_CHOICE, chosen=["great_britain"])
    campaign.gm_reads_private = True
    campaign.save()
    assert "france+great_britain" in keys_read(seats("gm"))
    assert "france+great_britain" not in keys_read(seats("third"))


def test_reading_is_scoped_to_the_campaign(campaign, seats):
    other = make_eia_campaign()
    elsewhere = seat_users(other)["player"]
    seat = Seat.objects.select_related("campaign", "power").get(campaign=other, user=elsewhere)
    post(seat, press.PRIVATE_CHOICE, chosen=["great_britain"])
    assert keys_read(seats("player")) == set()
    assert not press.messages(seats("player")).exists()


# -- who writes, and what ----------------------------------------------------------------

REFUSALS = {
    "an observer": ("observer", press.PUBLIC, (), press.PressForbidden, "Observers"),
    "a channel the writer is not in": (
        "third",
        "france+great_britain",
        (),
        press.PressForbidden,
        "your power is in",
    ),
    "another power's channel with the GM": (
        "third",
        "gm-france",
        (),
        press.PressForbidden,
        "your own channel",
    ),
    "a power of another campaign": (
        "player",
        press.PRIVATE_CHOICE,
        ("sweden",),
        press.PressError,
        "no power “sweden”",
    ),
    "a power named twice": (
        "player",
        press.PRIVATE_CHOICE,
        ("prussia", "prussia"),
        press.PressError,
        "Prussia is named twice",
    ),
    "only the writer's own power": (
        "player",
        press.PRIVATE_CHOICE,
        ("france",),
        press.PressError,
        "at least one other power",
    ),
    "no power at all": ("player", press.PRIVATE_CHOICE, (), press.PressError, "other power"),
    "a private channel from the GM": (
        "gm",
        press.PRIVATE_CHOICE,
        ("france", "prussia"),
        press.PressForbidden,
        "Only a power",
    ),
    "the GM without a power's channel": ("gm", press.GM_CHOICE, (), press.PressError, "which"),
    "no such channel": ("player", "france+atlantis", (), press.PressError, "no such channel"),
    "a channel key out of order": (
        "player",
        "great_britain+france",
        (),
        press.PressError,
        "no such channel",
    ),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_message_to_the_wrong_place_is_refused(seats, case):
    role, to, chosen, error, reason = REFUSALS[case]
    with pytest.raises(error, match=reason):
        post(seats(role), to, chosen=chosen)
    assert not Message.objects.exists() and not Channel.objects.exists()


def test_a_player_cannot_sign_as_the_gm(seats):
    with pytest.raises(press.PressForbidden, match="Only the GM"):
        post(seats("player"), press.PUBLIC, as_gm=True)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   \n ", "empty"),
        ("x" * (press.MAX_LENGTH + 1), "at most 5,000 characters; this one has 5,001"),
        ("a\x00b", "null character"),
    ],
)
def test_a_bad_text_is_refused(seats, text, reason):
    with pytest.raises(press.PressError, match=reason):
        post(seats("player"), press.PUBLIC, text)
    assert not Message.objects.exists()


def test_a_message_of_the_greatest_length_is_taken(seats):
    assert len(post(seats("player"), press.PUBLIC, "é" * press.MAX_LENGTH).text) == 5000


def test_html_is_stored_as_written(seats):
    text = '<script>alert("x")</script><a href="http://evil">x</a>'
    assert post(seats("player"), press.PUBLIC, text).text == text  # escaped on output


# -- press rules ---------------------------------------------------------------------------


def with_rules(campaign: Campaign, rules: str) -> None:
    campaign.press = rules
    campaign.save(update_fields=["press"])


def test_gunboat_leaves_the_powers_only_the_gm(campaign, seats):
    with_rules(campaign, Campaign.Press.NONE)
    for to, chosen in ((press.PUBLIC, ()), (press.PRIVATE_CHOICE, ("great_britain",))):
        with pytest.raises(press.PressForbidden, match="gunboat"):
            post(seats("player"), to, chosen=chosen)
    assert post(seats("player"), press.GM_CHOICE).channel.key == "gm-france"
    assert post(seats("gm"), press.PUBLIC).power is None  # announcements
    assert post(seats("gm"), "gm-france").power is None


def test_public_press_only_closes_the_private_channels(campaign, seats):
    post(seats("player"), press.PRIVATE_CHOICE, chosen=["great_britain"])
    with_rules(campaign, Campaign.Press.PUBLIC)
    with pytest.raises(press.PressForbidden, match="public press only"):
        post(seats("player"), "france+great_britain")
    assert post(seats("player"), press.PUBLIC).channel.key == "public"
    assert "france+great_britain" in keys_read(seats("other_player"))  # still readable


def test_the_gm_sets_the_press_rules_and_the_log_says_so(campaign, users):
    before = campaign.state_version
    press.set_rules(
        campaign_id=campaign.pk, press="public", gm_reads_private=True, actor=users["gm"]
    )
    campaign.refresh_from_db()
    assert (campaign.press, campaign.gm_reads_private) == ("public", True)
    assert campaign.state_version == before + 1
    said = list(Event.objects.filter(campaign=campaign, kind=Event.Kind.GM).values_list("text"))
    assert (f"GM {users['gm'].username} sets press: Public press only.",) in said
    assert (f"GM {users['gm'].username} sets the GM reads the private press.",) in said


def test_an_unknown_press_rule_is_refused(campaign, users):
    with pytest.raises(press.ServiceError):
        press.set_rules(campaign_id=campaign.pk, press="loud", gm_reads_private=False, actor=None)
    campaign.refresh_from_db()
    assert campaign.press == "full"


# -- rate limit ---------------------------------------------------------------------------


def test_a_flood_is_refused_past_the_limit(seats, settings, time_machine):
    settings.PRESS_RATE_LIMIT = 10
    time_machine.move_to("2026-06-01 12:00:05", tick=False)
    for n in range(10):
        post(seats("player"), press.PUBLIC, f"message {n}")
    with pytest.raises(press.PressFlood, match="10 messages a minute"):
        post(seats("player"), press.PUBLIC, "one too many")
    post(seats("other_player"), press.PUBLIC, "another writer has their own count")
    time_machine.move_to("2026-06-01 12:01:01", tick=False)
    post(seats("player"), press.PUBLIC, "the next minute")
    assert Message.objects.count() == 12


def test_a_refused_message_does_not_count_against_the_limit(seats, settings):
    settings.PRESS_RATE_LIMIT = 1
    with pytest.raises(press.PressError):
        post(seats("player"), press.PUBLIC, "")
    post(seats("player"), press.PUBLIC)


# -- unread -------------------------------------------------------------------------------


def unread(seat: Seat, user) -> dict[str, int]:
    powers = press.campaign_powers(seat.campaign)
    return {e.key: e.unread for e in press.entries(seat, user, powers)}


def test_unread_counts_per_channel_and_reader(seats, users):
    post(seats("player"), press.PUBLIC, "1")
    post(seats("player"), press.PRIVATE_CHOICE, "2", chosen=["great_britain"])
    post(seats("player"), press.PRIVATE_CHOICE, "3", chosen=["great_britain"])
    post(seats("gm"), "gm-great_britain", "4")
    assert unread(seats("other_player"), users["other_player"]) == {
        "public": 1,
        "gm-great_britain": 1,
        "france+great_britain": 2,
    }
    assert unread(seats("player"), users["player"]) == {
        "public": 0,
        "gm-france": 0,
        "france+great_britain": 0,
    }
    assert unread(seats("third"), users["third"]) == {"public": 1, "gm-prussia": 0}
    gm = unread(seats("gm"), users["gm"])
    assert gm["public"] == 1 and gm["gm-great_britain"] == 0 and "france+great_britain" not in gm


def test_reading_a_channel_clears_its_count(seats, users):
    post(seats("player"), press.PUBLIC, "1")
    post(seats("player"), press.PRIVATE_CHOICE, "2", chosen=["great_britain"])
    reader, user = seats("other_player"), users["other_player"]
    powers = press.campaign_powers(reader.campaign)
    address = press.address_of("france+great_britain", powers)
    shown = list(press.messages(reader, address))
    listed = press.mark_read(user, press.entries(reader, user, powers), shown)
    assert {e.key: e.unread for e in listed}["france+great_britain"] == 0
    assert unread(reader, user) == {"public": 1, "gm-great_britain": 0, "france+great_britain": 0}
    marker = ReadMarker.objects.get(user=user)
    assert marker.last_read == shown[0].pk
    post(seats("player"), press.PRIVATE_CHOICE, "3", chosen=["great_britain"])
    assert unread(reader, user)["france+great_britain"] == 1


def test_the_stamp_changes_only_with_what_the_reader_may_read(seats, users):
    reader, user = seats("third"), users["third"]
    powers = press.campaign_powers(reader.campaign)
    before = press.stamp(press.entries(reader, user, powers))
    post(seats("player"), press.PRIVATE_CHOICE, chosen=["great_britain"])
    assert press.stamp(press.entries(reader, user, powers)) == before
    post(seats("player"), press.PUBLIC)
    assert press.stamp(press.entries(reader, user, powers)) != before


# -- digest -------------------------------------------------------------------------------


@pytest.fixture
def mailed(campaign, users):
    """Every user has a mail address; ``digest(at)`` runs the digest and its mail tasks."""
    for role, user in users.items():
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])

    def digest(at) -> dict[str, str]:
        mail.outbox.clear()
        sent = press_mail.send_digests(at)
        from django_tasks_db.models import DBTaskResult

        for result in DBTaskResult.objects.filter(
            task_path="campaign.notify.delivery.deliver_mail"
        ):
            delivery.deliver_mail.call(*result.args_kwargs["args"])
        DBTaskResult.objects.all().delete()
        bodies = {m.to[0].split("@")[0]: m.body for m in mail.outbox}
        assert sent == len(bodies)  # one mail a reader (all in one campaign here)
        assert all(m.subject.startswith(f"[{campaign.name}] ") for m in mail.outbox)
        return bodies

    return digest


def test_a_digest_mails_unread_press_once_and_never_what_a_reader_may_not_read(
    campaign, seats, mailed, time_machine
):
    start = timezone.now()
    time_machine.move_to(start, tick=False)
    post(seats("player"), press.PUBLIC, "Public news")
    post(seats("player"), press.PRIVATE_CHOICE, "Secret pact", chosen=["great_britain"])
    assert mailed(start) == {}  # too fresh: it may be read on the page meanwhile
    later = start + press_mail.DIGEST_DELAY + timedelta(seconds=1)
    bodies = mailed(later)
    assert set(bodies) == {"gm", "observer", "other_player", "third"}
    assert {m.subject for m in mail.outbox} == {f"[{campaign.name}] Press you have not read"}
    assert "Secret pact" in bodies["other_player"] and "Public news" in bodies["other_player"]
    for role in ("gm", "observer", "third"):
        assert "Public news" in bodies[role] and "Secret pact" not in bodies[role], role
    assert "France → France, Great Britain" in bodies["other_player"]
    assert mailed(later + timedelta(minutes=5)) == {}  # nothing new


def test_a_digest_waits_its_hours_and_skips_what_was_read(seats, users, mailed, settings):
    settings.PRESS_DIGEST_HOURS = 6
    now = timezone.now()
    post(seats("player"), press.PUBLIC, "First")
    Message.objects.update(created_at=now - timedelta(hours=1))
    assert "First" in mailed(now)["other_player"]
    post(seats("player"), press.PUBLIC, "Second")
    Message.objects.filter(text="Second").update(created_at=now)
    assert mailed(now + timedelta(hours=1)) == {}  # at most every 6 hours
    reader = seats("third")
    powers = press.campaign_powers(reader.campaign)
    press.mark_read(
        users["third"], press.entries(reader, users["third"], powers), Message.objects.all()
    )
    bodies = mailed(now + timedelta(hours=7))
    assert "Second" in bodies["other_player"] and "First" not in bodies["other_player"]
    assert "third" not in bodies  # read on the page meanwhile


def test_no_digest_for_a_user_who_turned_it_off_or_wrote_it(campaign, seats, users, mailed):
    MailChoice.objects.create(user=users["other_player"], campaign=campaign, press=PressMail.OFF)
    MailChoice.objects.create(user=users["gm"], campaign=campaign, press=PressMail.EACH)
    post(seats("player"), press.PUBLIC, "News")
    bodies = mailed(timezone.now() + timedelta(hours=1))
    assert "other_player" not in bodies and "player" not in bodies and "third" in bodies
    assert "gm" not in bodies  # mailed each message as written, not a digest


def test_a_digest_is_written_in_the_readers_language(seats, users, mailed):
    Profile.objects.create(user=users["third"], language="el")
    post(seats("player"), press.PUBLIC, "News")
    body = mailed(timezone.now() + timedelta(hours=1))["third"]
    assert "News" in body and "Test campaign" in body
    assert "Ιανουάριος 1805" in body and "January" not in body  # the turn, in Greek
    (subject,) = [m.subject for m in mail.outbox if m.to == ["third@example.org"]]
    assert "Press you have not read" not in subject


def test_the_clocks_task_sends_the_digests(seats, users, mailed):
    from campaign.jobs import tasks

    users["other_player"].email = "other_player@example.org"
    users["other_player"].save()
    post(seats("player"), press.PRIVATE_CHOICE, "Old pact", chosen=["great_britain"])
    Message.objects.update(created_at=timezone.now() - timedelta(hours=1))
    assert tasks.send_press_digests.call() == 1
    assert Profile.objects.get(user=users["other_player"]).press_digest_at is not None


# -- webhook ------------------------------------------------------------------------------


def test_the_webhook_hears_of_each_message_without_private_text(
    campaign, seats, django_capture_on_commit_callbacks
):
    from django_tasks_db.models import DBTaskResult

    campaign.webhook_url = "https://hooks.example.org/press"
    campaign.save(update_fields=["webhook_url"])
    seat = seats("player")
    with django_capture_on_commit_callbacks(execute=True):
        post(seat, press.PUBLIC, "Hear ye")
        post(seat, press.PRIVATE_CHOICE, "Secret pact", chosen=["great_britain"])
        post(seat, press.GM_CHOICE, "Rules question")
    sent = DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_webhook")
    sent = sent.order_by("enqueued_at")
    public, private, gm = [result.args_kwargs["args"][1] for result in sent]
    assert (public["event"], public["channel"], public["from"]) == ("press", "public", "France")
    assert public["text"] == "France: Hear ye"
    for payload in (private, gm):
        assert "Secret pact" not in repr(payload) and "Rules question" not in repr(payload)
        assert payload["from"] is None and "great_britain" not in repr(payload)


# -- archive ------------------------------------------------------------------------------


def test_the_archive_carries_the_press(campaign, seats, users):
    post(seats("player"), press.PUBLIC, "Public")
    post(seats("player"), press.PRIVATE_CHOICE, "Private", chosen=["great_britain"])
    post(seats("gm"), "gm-france", "To France")
    data = archive.export_campaign(campaign)
    assert [c["key"] for c in data["channels"]] == ["public", "france+great_britain", "gm-france"]
    assert data["channels"][1]["members"] == ["france", "great_britain"]
    assert [m["text"] for m in data["messages"]] == ["Public", "Private", "To France"]
    assert data["messages"][2]["power"] is None
    copy = archive.import_campaign(data, name="Copy", by_name=True)
    again = archive.export_campaign(copy)
    assert unrenewed(archive.dumps({**again, "campaign": {}})) == unrenewed(
        archive.dumps({**data, "campaign": {}})
    )
    channel = Channel.objects.get(campaign=copy, key="france+great_britain")
    assert sorted(channel.members.values_list("key", flat=True)) == ["france", "great_britain"]


def test_the_gms_download_leaves_out_the_private_press_the_gm_does_not_read(campaign, seats):
    post(seats("player"), press.PUBLIC, "Public")
    post(seats("player"), press.PRIVATE_CHOICE, "Private", chosen=["great_britain"])
    data = archive.export_campaign(campaign, reader=seats("gm"))
    assert "Private" not in archive.dumps(data)
    assert [c["key"] for c in data["channels"]] == ["public"]
    archive.import_campaign(data, name="Copy")  # still a whole campaign
    campaign.gm_reads_private = True
    campaign.save()
    assert "Private" in archive.dumps(archive.export_campaign(campaign, reader=seats("gm")))


@pytest.mark.parametrize(
    ("channels", "messages", "problem"),
    [
        ([{"kind": "private", "key": "france+spain", "members": ["france"]}], [], "does not name"),
        ([{"kind": "gm", "key": "gm-atlantis", "members": ["atlantis"]}], [], "no power"),
        ([{"kind": "public", "key": "public", "members": "all"}], [], "list of power keys"),
        ([], [{"channel": "public", "turn": 1, "text": "x"}], "no channel 'public'"),
    ],
)
def test_an_archive_with_a_bad_press_is_refused(campaign, channels, messages, problem):
    data = archive.export_campaign(campaign)
    data |= {"channels": channels, "messages": messages}
    with pytest.raises(archive.ArchiveError, match=problem):
        archive.import_campaign(data, name="Copy")
    assert Campaign.objects.count() == 1


# -- concurrency --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_concurrent_first_posts_make_one_channel_and_lose_nothing(on_postgresql):
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    seats = {
        role: Seat.objects.select_related("campaign", "power").get(user=users[role])
        for role in ("player", "other_player")
    }
    errors = []

    def write(role: str, n: int) -> None:
        try:
            chosen = ["great_britain"] if role == "player" else ["france"]
            post(seats[role], press.PRIVATE_CHOICE, f"{role} {n}", chosen=chosen)
        except Exception as error:  # noqa: BLE001
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=write, args=(role, n))
        for n in range(5)
        for role in ("player", "other_player")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Channel.objects.filter(campaign=campaign).count() == 1
    assert Message.objects.filter(campaign=campaign).count() == 10
