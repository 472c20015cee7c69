"""Each user's secret iCalendar feed (RFC 5545) of the deadlines of his campaigns.

One event for the open phase of every started, unfinished campaign he sits in (as GM,
player or observer) while that phase has a deadline. Its UID is the phase's, so a
deadline moved by the GM or an extension moves the event in his calendar instead of
adding one; a paused deadline has no moment, so its event leaves the calendar until the
clock runs again and then comes back with the same UID. An event says only what every
seat of the campaign reads (its name, turn, phase and deadline) and whether the open
phase awaits his own orders; when it does, the event rings at each of his reminder hours
(Profile.reminder_hours). It links to his orders (a GM's, to his dashboard). Everything
is written in his language.

The address holds a random secret (CalendarFeed): whoever has it reads the feed, so the
user may give it a new one, after which the old one finds nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import icalendar
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from campaign.models import CalendarFeed, Order, Phase, Profile, Seat
from campaign.models.mail import default_reminder_hours
from campaign.models.reach import new_secret
from campaign.notify import notifications, outgoing, reminders
from campaign.people import home
from rules.translation import localized

NAME = "Courier"
REFRESH = timedelta(hours=1)  # how often a calendar application is asked to read it again


def account_context(user) -> dict:
    """What the preferences page shows of the user's calendar feed (one query): the
    feed, or None before he makes it, and its address (https and webcal://)."""
    feed = CalendarFeed.objects.filter(user=user).first()
    url = address(feed) if feed else ""
    return {
        "calendar_feed": feed,
        "calendar_url": url,
        "calendar_webcal": "webcal://" + url.split("://", 1)[1] if url else "",
    }


def address(feed: CalendarFeed) -> str:
    """The feed's absolute address."""
    return outgoing.site_url(reverse("campaign:calendar_feed", args=[feed.secret]))


def feed_of(secret: str) -> CalendarFeed | None:
    """The feed this secret opens, with its user and his profile, or None."""
    if len(secret) > CalendarFeed._meta.get_field("secret").max_length:
        return None
    feeds = CalendarFeed.objects.select_related("user__profile")
    return feeds.filter(secret=secret, user__is_active=True).first()


def make(user) -> tuple[CalendarFeed, bool]:
    """The user's feed, made now if he had none (and whether it was)."""
    return CalendarFeed.objects.get_or_create(user=user)


def rotate(user) -> CalendarFeed:
    """Give the user's feed a new secret (making the feed if he had none): the old
    address finds nothing from now on."""
    feed, made = make(user)
    if not made:
        feed.secret = new_secret()
        feed.save(update_fields=["secret", "rotated_at"])
    return feed


def ics(user, now: datetime | None = None) -> bytes:
    """The user's calendar as iCalendar text, in his language: two queries (his
    language's and his seats'), however many campaigns he sits in; ``user`` comes with his
    profile (feed_of)."""
    now = now or timezone.now()
    with outgoing.reading_as(user):
        calendar = _calendar()
        hours = _reminder_hours(user)
        domain = urlsplit(outgoing.site_origin()).hostname or "localhost"
        for seat in timed_seats(user):
            calendar.add_component(_event(seat, now, hours, domain))
    return calendar.to_ical()


def timed_seats(user) -> list[Seat]:
    """The user's seats whose campaign (started, not ended) has an open phase with a
    deadline, the nearest deadline first; each with its campaign, phase and power, and
    ``ready``: his power's orders for the phase are marked ready (one query)."""
    ready = Order.objects.filter(
        phase_id=OuterRef("campaign__phase_id"), power_id=OuterRef("power_id"), ready=True
    )
    seats = Seat.objects.filter(
        user=user,
        campaign__started_at__isnull=False,
        campaign__ended_at=None,
        campaign__phase__status=Phase.Status.OPEN,
        campaign__phase__deadline__isnull=False,
    )
    seats = seats.select_related("campaign__phase", "power").annotate(ready=Exists(ready))
    return list(seats.order_by("campaign__phase__deadline", "campaign_id"))


def _reminder_hours(user) -> list[int]:
    """The hours before a deadline the user is reminded at (from the profile loaded with
    the feed, if any)."""
    try:
        return user.profile.reminder_hours
    except Profile.DoesNotExist:
        return default_reminder_hours()


def _calendar() -> icalendar.Calendar:
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Courier//Deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("name", NAME)
    calendar.add("x-wr-calname", NAME)
    said = gettext("The deadlines of your campaigns")
    calendar.add("description", said)
    calendar.add("x-wr-caldesc", said)
    calendar.add("refresh-interval", icalendar.vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", icalendar.vDuration(REFRESH))
    return calendar


def _event(seat: Seat, now: datetime, hours: list[int], domain: str) -> icalendar.Event:
    """The deadline of the seat's campaign's open phase, as the seat's user reads it."""
    campaign, phase = seat.campaign, seat.campaign.phase
    spec = campaign.rules.phase(phase.key)
    turn = localized(campaign.rules.turn_label(phase.turn, campaign.setup))
    link = _link(seat)
    lines = [
        gettext("%(turn)s: %(phase)s is open.") % {"turn": turn, "phase": spec.name},
        gettext("The deadline is %(deadline)s.") % {"deadline": outgoing.moment(phase.deadline)},
        _yours(seat, now),
        link,
    ]
    event = icalendar.Event()
    event.add("uid", f"phase-{phase.pk}@{domain}")
    event.add("dtstamp", now)
    deadline = phase.deadline.astimezone(UTC).replace(microsecond=0)  # iCalendar's seconds
    event.add("dtstart", deadline)  # no end: a moment (RFC 5545 3.6.1)
    event.add("summary", _summary(campaign.name, spec.name))
    event.add("description", "\n".join(lines))
    event.add("url", link)
    event.add("transp", "TRANSPARENT")  # a deadline does not make him busy
    if home.owes(seat, now):  # the alarms ring for whom the phase waits
        for offset in sorted(set(hours), reverse=True):
            event.add_component(_alarm(offset, spec.name))
    return event


def _link(seat: Seat) -> str:
    """Where the event leads: the GM's dashboard, a player's orders, an observer's page."""
    if seat.is_gm:
        return outgoing.site_url(reverse("campaign:gm", args=[seat.campaign_id]))
    return notifications.campaign_link(seat.campaign) + ("#orders" if seat.power_id else "")


def _summary(campaign: str, phase) -> str:
    return gettext("%(campaign)s: %(phase)s closes") % {"campaign": campaign, "phase": phase}


def _yours(seat: Seat, now: datetime) -> str:
    """Whether the phase awaits the user's own orders (home.owes: the rows are loaded)."""
    if not home.owes(seat, now):
        return gettext("The phase awaits no orders from you.")
    if seat.ready:
        return gettext("Your orders are marked ready.")
    return gettext("Your orders are awaited.")


def _alarm(hours: int, phase) -> icalendar.Alarm:
    """A reminder ``hours`` before the deadline."""
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", timedelta(hours=-hours))
    left = reminders.time_left(timedelta(hours=hours))
    alarm.add(
        "description", gettext("%(phase)s closes in %(left)s") % {"phase": phase, "left": left}
    )
    return alarm
