"""Press by mail and push. Private press and messages to the GM are pushed to the devices
of those they are addressed to (campaign/notify/push.py). By mail, as each reader chooses for
each campaign (MailChoice.press): each message mailed as it is written to those who read
its channel, with a reply address that writes the answer to the same channel as the
reader's power (campaign/jobs/mail_replies.py); or a digest of the press a reader has not read
(send_digests, enqueued by `manage.py clock` every DIGEST_CHECK_SECONDS), at most every
settings.PRESS_DIGEST_HOURS, one mail per campaign; or none. A mail shows only what its
reader reads on the press page."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import dateformat, timezone
from django.utils.text import Truncator
from django.utils.translation import gettext, ngettext

from campaign.models import (
    Channel,
    MailChoice,
    MailKind,
    Message,
    PressMail,
    Profile,
    ReadMarker,
    Seat,
)
from campaign.notify import outgoing, push
from campaign.notify.mail_tokens import Purpose
from campaign.press import press

DIGEST_CHECK_SECONDS = 300
DIGEST_DELAY = timedelta(minutes=15)  # press younger than this may still be read on a page
DIGEST_LIMIT = 50  # messages per campaign in one digest
PUSHED_CHARACTERS = 200  # of a message's text, in the notice a device shows
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # before any press: a user's first digest


# -- each message -----------------------------------------------------------------------


def message_saved(sender, instance: Message, created: bool, **kwargs) -> None:
    """Message's post_save: once the message is committed, mail it to those who want each,
    and push it to the devices of those it is addressed to."""
    if created:
        # robust: a mail that fails to queue neither stops the push nor fails the request
        transaction.on_commit(lambda: mail_message(instance.pk), robust=True)
        transaction.on_commit(lambda: push_message(instance.pk), robust=True)


def mail_message(message_id: int) -> int:
    """Mail the message to each reader of its channel (its author aside) who wants each
    message; returns the number of mails."""
    found = Message.objects.select_related("channel", "campaign", "phase").filter(pk=message_id)
    message = found.first()
    if message is None:  # deleted meanwhile (its campaign with it)
        return 0
    campaign = message.campaign
    powers = press.campaign_powers(campaign)
    address = press.address_of(message.channel.key, powers)
    seats = (
        campaign.seats.filter(user__isnull=False, user__is_active=True)
        .exclude(user__email="")
        .exclude(user_id=message.author_id)
        .select_related("user", "power", "campaign")
        .order_by("pk")
    )
    readers: dict[int, Seat] = {}
    for seat in seats:
        if address is not None and press.reads(seat, address):
            readers.setdefault(seat.user_id, seat)
    choices = MailChoice.of_users(campaign.pk, readers)
    sent = 0
    for user_id, seat in readers.items():
        if choices[user_id].press == PressMail.EACH:
            _mail_one(seat, message, address, powers)
            sent += 1
    return sent


def _mail_one(seat: Seat, message: Message, address: press.Address, powers) -> None:
    def write() -> outgoing.Letter:
        line = press.lines(seat, [message], powers)[0]
        return outgoing.Letter(
            subject=gettext("[%(campaign)s] %(author)s → %(channel)s")
            % {
                "campaign": seat.campaign.name,
                "author": line.author,
                "channel": line.channel_label,
            },
            paragraphs=[*_heading(line), line.text],
            link=press.site_url(seat.campaign, address),
        )

    answer = None
    if _writes_to(seat, address):
        answer = outgoing.Answer(
            Purpose.PRESS,
            message.channel_id,
            lambda: gettext("Answer this mail to write to the same channel."),
        )
    outgoing.send(seat.user, write, campaign=seat.campaign, kind=MailKind.PRESS, answer=answer)


def push_message(message_id: int) -> int:
    """Push a private message (or one to the GM) to the devices of each user it is
    addressed to, its author aside: the players of its powers, and the GM for a message to
    the GM. The public press is not pushed. Returns the number of users with a device."""
    found = Message.objects.select_related("channel", "campaign", "phase").filter(pk=message_id)
    message = found.first()
    if message is None or message.channel.kind == Channel.Kind.PUBLIC or not push.enabled():
        return 0
    campaign = message.campaign
    powers = press.campaign_powers(campaign)
    address = press.address_of(message.channel.key, powers)
    seats = campaign.seats.filter(user__isnull=False, user__is_active=True)
    seats = seats.exclude(user_id=message.author_id).select_related("user", "power", "campaign")
    addressed = {
        seat.user_id: seat
        for seat in seats
        if address is not None
        and (address.has(seat.power_id) or (seat.is_gm and address.kind == Channel.Kind.GM))
    }
    pushed = 0
    for seat in addressed.values():
        pushed += push.notify(
            campaign,
            MailKind.PRESS,
            [seat.user],
            lambda seat=seat: _notice(seat, message, address, powers),
        )
    return pushed


def _notice(seat: Seat, message: Message, address: press.Address, powers) -> push.Notice:
    line = press.lines(seat, [message], powers)[0]
    return push.Notice(
        title=gettext("[%(campaign)s] %(author)s → %(channel)s")
        % {"campaign": seat.campaign.name, "author": line.author, "channel": line.channel_label},
        body=Truncator(line.text).chars(PUSHED_CHARACTERS),
        url=press.site_url(seat.campaign, address),
        tag=f"press-{message.channel_id}",
    )


def _writes_to(seat: Seat, address: press.Address) -> bool:
    """Whether the seat may write to the channel (an answer by mail would be written)."""
    try:
        press.signature(seat, address)
    except press.PressError:
        return False
    return True


def _heading(line: press.Line) -> list[str]:
    when = dateformat.format(timezone.localtime(line.created_at), "d M H:i")
    return [f"{when} · {line.turn} · {line.author} → {line.channel_label}"]


# -- the digest -------------------------------------------------------------------------


def send_digests(now: datetime | None = None) -> int:
    """Mail each user who wants it the press they have not read, written since their
    last digest (and at least DIGEST_DELAY ago), at most every PRESS_DIGEST_HOURS; one
    mail per campaign. Returns the number of mails."""
    now = now or timezone.now()
    upto = now - DIGEST_DELAY
    due = now - timedelta(hours=settings.PRESS_DIGEST_HOURS)
    since = Coalesce(OuterRef("user__profile__press_digest_at"), Value(EPOCH))
    fresh = Message.objects.filter(
        campaign=OuterRef("campaign"), created_at__gt=since, created_at__lte=upto
    ).exclude(author=OuterRef("user"))
    other_choice = MailChoice.objects.filter(
        user=OuterRef("user"), campaign=OuterRef("campaign")
    ).exclude(press=PressMail.DIGEST)
    seats = (
        Seat.objects.filter(user__isnull=False, user__is_active=True)
        .exclude(user__email="")
        .exclude(Exists(other_choice))
        .filter(
            Q(user__profile__press_digest_at__isnull=True)
            | Q(user__profile__press_digest_at__lte=due)
        )
        .filter(Exists(fresh))
        .select_related("user", "power", "campaign")
        .order_by("user_id", "campaign_id")
    )
    by_user: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        by_user[seat.user_id].append(seat)
    since = dict(
        Profile.objects.filter(user_id__in=by_user).values_list("user_id", "press_digest_at")
    )
    sent = 0
    for user_id, user_seats in by_user.items():
        for seat in user_seats:
            sent += _digest(seat, since.get(user_id), upto)
        Profile.objects.update_or_create(user_id=user_id, defaults={"press_digest_at": upto})
    return sent


def _digest(seat: Seat, since: datetime | None, upto: datetime) -> int:
    """Mail one user their unread press of one campaign; 1 if a mail went, else 0."""
    found = _unread(seat, since, upto)
    if not found:
        return 0
    powers = press.campaign_powers(seat.campaign)

    def write() -> outgoing.Letter:
        shown = press.lines(seat, found[:DIGEST_LIMIT], powers)
        head = ngettext(
            "%(campaign)s: %(count)s message you have not read",
            "%(campaign)s: %(count)s messages you have not read",
            len(shown),
        ) % {"campaign": seat.campaign.name, "count": len(shown)}
        paragraphs = [head]
        for line in shown:
            paragraphs += [*_heading(line), line.text]
        if len(found) > DIGEST_LIMIT:
            paragraphs.append(gettext("… and more on the press page."))
        paragraphs.append(
            gettext("You receive this digest at most every %(hours)s hours.")
            % {"hours": settings.PRESS_DIGEST_HOURS}
        )
        return outgoing.Letter(
            subject=gettext("[%(campaign)s] Press you have not read")
            % {"campaign": seat.campaign.name},
            paragraphs=paragraphs,
            link=press.site_url(seat.campaign),
        )

    outgoing.send(seat.user, write, campaign=seat.campaign, kind=MailKind.PRESS)
    return 1


def _unread(seat: Seat, since: datetime | None, upto: datetime) -> list[Message]:
    """The seat's unread press of its campaign written in (since, upto], oldest first, one
    more than DIGEST_LIMIT at most."""
    marker = ReadMarker.objects.filter(user_id=seat.user_id, channel=OuterRef("channel"))
    found = (
        press.messages(seat)
        .filter(created_at__lte=upto)
        .exclude(author_id=seat.user_id)
        .filter(pk__gt=Coalesce(Subquery(marker.values("last_read")[:1]), Value(0)))
        .order_by("pk")
    )
    if since is not None:
        found = found.filter(created_at__gt=since)
    return list(found[: DIGEST_LIMIT + 1])
