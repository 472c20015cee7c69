"""The calendar feed of deadlines (campaign/people/calendar_feed.py, campaign/views/calendar.py),
read back with icalendar event by event: its UIDs, times, alarms, links and words; a
moved or paused deadline; the secret, made and replaced; who reads what; its cost."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

import icalendar
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from campaign.core import readiness
from campaign.models import CalendarFeed, Phase, Profile
from campaign.notify import outgoing
from campaign.people import calendar_feed
from campaign.play import scheduling
from courier import throttling
from rules.pax_baltica.models import Block
from rules.translation import localized
from tests.factories import make_eia_campaign, make_pb_campaign, seat_users
from tests.services.test_eia_phase_services import order

pytestmark = pytest.mark.django_db
ROTATE = reverse("campaign:calendar_rotate")


@pytest.fixture
def campaign(db):
    """Empires in Arms' peace step, whose orders only Great Britain owes."""
    return make_eia_campaign()


@pytest.fixture
def users(campaign):
    """The player plays Great Britain (his orders are awaited), the other player France;
    the phase closes in 48 hours."""
    users = seat_users(campaign, "great_britain", "france")
    give_deadline(campaign, users["gm"], hours=48)
    return users


def give_deadline(campaign, gm, hours: int) -> Phase:
    campaign.refresh_from_db()
    return scheduling.extend_deadline(
        campaign_id=campaign.pk, phase_id=campaign.phase_id, hours=hours, actor=gm
    )


def feed_url(user) -> str:
    feed, _ = CalendarFeed.objects.get_or_create(user=user)
    return reverse("campaign:calendar_feed", args=[feed.secret])


def read(user, client: Client | None = None) -> icalendar.Calendar:
    response = (client or Client()).get(feed_url(user))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def events(calendar: icalendar.Calendar) -> dict[str, icalendar.Event]:
    return {str(event["uid"]): event for event in calendar.walk("VEVENT")}


def uid(phase: Phase) -> str:
    return f"phase-{phase.pk}@{urlsplit(outgoing.site_origin()).hostname}"


def triggers(event: icalendar.Event) -> list[timedelta]:
    return [alarm.decoded("trigger") for alarm in event.walk("VALARM")]


def phase_words(campaign) -> tuple[str, str]:
    """The open phase's name and turn, in the active language."""
    phase = campaign.phase
    name = str(campaign.rules.phase(phase.key).name)
    return name, localized(campaign.rules.turn_label(phase.turn, campaign.setup))


# -- the events ------------------------------------------------------------------------


def test_the_feed_is_a_calendar_named_courier_read_again_every_hour(users):
    calendar = read(users["player"])
    assert str(calendar["x-wr-calname"]) == str(calendar["name"]) == "Courier"
    assert calendar["refresh-interval"].params["VALUE"] == "DURATION"
    assert str(calendar["refresh-interval"]) == str(calendar["x-published-ttl"]) == "PT1H"


def test_each_event_is_the_deadline_of_an_open_phase_with_alarms_and_the_link(campaign, users):
    second = make_eia_campaign()
    second_users = seat_users(second, "france", "austria")
    second.seats.filter(power__key="great_britain").update(user=users["player"])
    give_deadline(second, second_users["gm"], hours=5)
    without = make_eia_campaign()  # he plays in it too, but its phase has no deadline
    without.seats.filter(power__key="great_britain").update(user=users["player"])
    Profile.objects.create(user=users["player"], reminder_hours=[48, 6, 1])
    campaign.refresh_from_db()
    second.refresh_from_db()

    found = events(read(users["player"]))

    assert list(found) == [uid(second.phase), uid(campaign.phase)]  # the nearest first
    for each in (campaign, second):
        event = found[uid(each.phase)]
        deadline = each.phase.deadline.replace(microsecond=0)
        assert event.decoded("dtstart") == deadline and "dtend" not in event  # a moment
        assert event["dtstart"].to_ical().endswith(b"Z")  # in UTC
        assert abs(event.decoded("dtstamp") - timezone.now()) < timedelta(minutes=1)
        name, turn = phase_words(each)
        assert str(event["summary"]) == f"{each.name}: {name} closes"
        link = outgoing.site_url(reverse("campaign:detail", args=[each.pk])) + "#orders"
        assert link.startswith("http") and str(event["url"]) == link
        assert triggers(event) == [timedelta(hours=-48), timedelta(hours=-6), timedelta(hours=-1)]
        description = str(event["description"])
        assert f"{turn}: {name} is open." in description
        assert "Your orders are awaited." in description
        assert link in description


def test_his_reminder_hours_by_default_ring_24_and_2_hours_before(campaign, users):
    (event,) = events(read(users["player"])).values()
    assert triggers(event) == [timedelta(hours=-24), timedelta(hours=-2)]


def test_the_description_says_whether_his_orders_are_awaited(campaign, users):
    """As readiness.owing_powers says: Great Britain owes orders in the peace step, France
    none; the GM and the observer play no power."""
    campaign.refresh_from_db()
    owing = {p.key for p in readiness.owing_powers(campaign, campaign.phase)}
    assert owing == {"great_britain"}

    def said(role: str) -> str:
        (event,) = events(read(users[role])).values()
        return str(event["description"])

    assert "Your orders are awaited." in said("player")
    for role in ("other_player", "gm", "observer"):
        assert "The phase awaits no orders from you." in said(role), role
        assert "Your orders are" not in said(role)
        (event,) = events(read(users[role])).values()
        assert triggers(event) == []  # no alarm rings for whom the phase does not wait
    (gm_event,) = events(read(users["gm"])).values()
    assert str(gm_event["url"]) == outgoing.site_url(reverse("campaign:gm", args=[campaign.pk]))
    order(campaign, "great_britain", {})
    assert "Your orders are marked ready." in said("player")


def test_a_moved_deadline_keeps_its_uid_and_moves_its_time(campaign, users):
    (before,) = events(read(users["player"])).values()
    moved = give_deadline(campaign, users["gm"], hours=24)
    (after,) = events(read(users["player"])).values()

    assert str(after["uid"]) == str(before["uid"]) == uid(moved)
    assert after.decoded("dtstart") == before.decoded("dtstart") + timedelta(hours=24)
    assert after.decoded("dtstart") == moved.deadline.replace(microsecond=0)


def test_a_paused_deadline_leaves_the_feed_and_comes_back_with_its_uid(campaign, users):
    phase = campaign.phase
    args = {"campaign_id": campaign.pk, "phase_id": phase.pk, "actor": users["gm"]}
    scheduling.pause_deadline(**args)
    assert events(read(users["player"])) == {}
    resumed = scheduling.resume_deadline(**args)
    (event,) = events(read(users["player"])).values()
    assert str(event["uid"]) == uid(phase)
    assert event.decoded("dtstart") == resumed.deadline.replace(microsecond=0)


def test_campaigns_not_started_or_ended_have_no_event(users):
    waiting = make_eia_campaign(start=False)
    waiting_users = seat_users(waiting, "great_britain")
    Phase.objects.filter(pk=waiting.phase_id).update(deadline=timezone.now() + timedelta(1))
    assert events(read(waiting_users["player"])) == {}
    campaign = make_eia_campaign()
    ended = seat_users(campaign, "great_britain")
    give_deadline(campaign, ended["gm"], hours=10)
    assert len(events(read(ended["player"]))) == 1
    campaign.ended_at = timezone.now()
    campaign.save(update_fields=["ended_at"])
    assert events(read(ended["player"])) == {}


# -- who reads what ----------------------------------------------------------------------


def test_campaigns_he_does_not_sit_in_never_appear(campaign, users):
    elsewhere = make_eia_campaign()
    elsewhere.name = "Campaign elsewhere"
    elsewhere.save(update_fields=["name"])
    give_deadline(elsewhere, seat_users(elsewhere)["gm"], hours=3)
    elsewhere.refresh_from_db()

    assert events(read(users["outsider"])) == {}
    for role in ("player", "other_player", "gm", "observer"):
        found = events(read(users[role]))
        assert set(found) == {uid(campaign.phase)}, role
        text = feed_text(users[role])
        assert elsewhere.name not in text
        assert f"/campaigns/{elsewhere.pk}/" not in text


def feed_text(user) -> str:
    """The feed's text, unfolded, without its DTSTAMP (the moment it is read)."""
    body = Client().get(feed_url(user)).content.decode()
    return re.sub(r"^DTSTAMP:.*$", "", body.replace("\r\n ", ""), flags=re.M)


def test_pax_baltica_feeds_name_no_block_and_not_the_other_sides_orders():
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    give_deadline(campaign, users["gm"], hours=30)
    blocks = set(Block.objects.filter(campaign=campaign).values_list("name", flat=True))
    swedish = feed_text(users["player"])

    order(campaign, "russia", {"reinforce": [], "draws": 0, "steps_each": 0, "places": []})

    # Russia's orders, now ready, change nothing the Swedish player reads; Russia reads its own
    assert feed_text(users["player"]) == swedish
    assert "Your orders are marked ready." in feed_text(users["other_player"])
    for role in ("player", "other_player", "observer", "gm"):
        text = feed_text(users[role])
        assert "BEGIN:VEVENT" in text
        assert not {name for name in blocks if name in text}, role


@pytest.mark.parametrize("language", ["el", "ru"])
def test_a_greek_or_russian_user_reads_his_feed_in_his_language(campaign, users, language):
    Profile.objects.create(user=users["player"], language=language)
    campaign.refresh_from_db()
    (event,) = events(read(users["player"])).values()

    def words(in_language: str) -> tuple[str, str, str]:
        with translation.override(in_language):
            name, turn = phase_words(campaign)
            opened = gettext("%(turn)s: %(phase)s is open.") % {"turn": turn, "phase": name}
            return name, opened, gettext("Your orders are awaited.")

    name, opened, awaited = words(language)
    assert not set(words(language)) & set(words("en"))  # the catalogs translate them all
    assert opened in str(event["description"])
    assert awaited in str(event["description"])
    assert name in str(event["summary"])


# -- the address -------------------------------------------------------------------------


def test_an_unknown_secret_is_not_found(users):
    CalendarFeed.objects.create(user=users["player"])
    for secret in ("nope", "x" * 43, "x" * 300):
        url = reverse("campaign:calendar_feed", args=[secret])
        assert Client().get(url).status_code == 404


def test_a_feed_of_a_deactivated_account_is_not_found(users):
    url = feed_url(users["player"])
    users["player"].is_active = False
    users["player"].save(update_fields=["is_active"])
    assert Client().get(url).status_code == 404


def test_making_the_address_and_replacing_it_makes_the_old_one_404(users, client):
    client.force_login(users["player"])
    page = client.get(reverse("campaign:preferences")).content.decode()
    assert 'id="calendar"' in page and 'value="make"' in page
    assert not CalendarFeed.objects.filter(user=users["player"]).exists()

    response = client.post(ROTATE, {"action": "make"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("campaign:preferences") + "#calendar"
    feed = CalendarFeed.objects.get(user=users["player"])
    old = reverse("campaign:calendar_feed", args=[feed.secret])
    page = response.content.decode()
    assert outgoing.site_url(old) in page
    assert "webcal://" + outgoing.site_url(old).split("://")[1] in page
    assert f'href="{outgoing.site_url(old)}" download' in page
    assert "data-confirm" in page and 'value="rotate"' in page
    client.post(ROTATE, {"action": "make"})
    assert CalendarFeed.objects.get(user=users["player"]).secret == feed.secret  # kept

    response = client.post(ROTATE, {"action": "rotate"}, follow=True)
    assert "the old one no longer works" in response.content.decode()
    new = reverse("campaign:calendar_feed", args=[CalendarFeed.objects.get().secret])
    assert new != old
    assert Client().get(old).status_code == 404
    assert Client().get(new).status_code == 200


def test_an_action_that_is_none_changes_nothing_and_says_so(users, client):
    client.force_login(users["player"])
    secret = CalendarFeed.objects.create(user=users["player"]).secret
    response = client.post(ROTATE, {"action": "burn"}, follow=True)
    assert "Choose to make your calendar address or to replace it." in response.content.decode()
    assert CalendarFeed.objects.get().secret == secret


def test_replacing_is_a_post_of_a_logged_in_user(users, client):
    response = client.post(ROTATE, {"action": "rotate"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(users["player"])
    assert client.get(ROTATE).status_code == 405
    assert not CalendarFeed.objects.exists()


def test_the_feed_is_read_by_get_only(users):
    assert Client().post(feed_url(users["player"])).status_code == 405


# -- its cost ----------------------------------------------------------------------------


def test_the_feed_costs_the_same_queries_whatever_his_campaigns(
    campaign, users, django_assert_max_num_queries
):
    url = feed_url(users["player"])
    Profile.objects.create(user=users["player"], language="el")
    for _ in range(4):
        more = make_eia_campaign()
        more.seats.filter(power__key="great_britain").update(user=users["player"])
        Phase.objects.filter(pk=more.phase_id).update(deadline=timezone.now() + timedelta(1))
    with django_assert_max_num_queries(3):  # the feed with its user, his language, his seats
        response = Client().get(url)
    assert len(events(icalendar.Calendar.from_ical(response.content))) == 5


def test_the_preferences_section_costs_one_query(users, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert calendar_feed.account_context(users["player"])["calendar_feed"] is None
    secret = CalendarFeed.objects.create(user=users["player"]).secret
    with django_assert_num_queries(1):
        context = calendar_feed.account_context(users["player"])
    https = outgoing.site_url(reverse("campaign:calendar_feed", args=[secret]))
    assert context["calendar_url"] == https
    assert context["calendar_webcal"] == "webcal://" + https.split("://")[1]


def test_a_feed_read_too_often_gets_a_429_and_an_unknown_address_counts_nothing(
    users, settings, monkeypatch
):
    settings.CALENDAR_RATE_LIMIT = 2
    url = feed_url(users["player"])
    assert [Client().get(url).status_code for _ in range(2)] == [200, 200]
    refused = Client().get(url)
    assert refused.status_code == 429
    assert "read too often" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert Client(REMOTE_ADDR="192.0.2.7").get(url).status_code == 429  # whoever reads it
    assert Client().get(feed_url(users["gm"])).status_code == 200  # another feed
    counted = []
    monkeypatch.setattr(throttling, "counted", lambda *args: counted.append(args) or 0)
    assert Client().get("/calendar/guessed-secret.ics").status_code == 404
    assert counted == []  # a guess writes no counter
