"""Press: the powers and the GM write to each other (models: campaign/models/press.py).

Channels. The public channel; a private channel between any set of two or more powers,
chosen by the writer (their own power included: the same set is always the same
channel); and each power's channel with the GM. A channel is named by its key:
"public", "gm-<power>", or the member powers' keys in order joined by "+"
("france+prussia"). Its row is created with its first message.

Who reads. The public channel: every seat (powers, the GM, observers). A private
channel: its member powers' players, and the GM when the campaign says the GM reads
private press (Campaign.gm_reads_private, default no). A power's channel with the GM:
that power's player and the GM. A GM who also plays a power reads what it reads too. A
replaced player (an observer's seat that remembers its power, Seat.former_power:
campaign/play/replacements.py) reads, besides the public channel, their power's channels as
they stood when they left (``left_at``): nothing written there since, not even how much.

Who writes (Campaign.press, default full press). Observers never write. Full press: a
power writes to the public channel, to any set of powers that includes it, and to the
GM. Public press only: no private channels. No press (gunboat): a power writes to the
GM only. In every case the GM writes to the public channel and to each power's channel
with the GM, as "GM"; a GM who also plays signs the public channel as their power
unless they sign as the GM, and private channels as their power.

A post locks nothing (no campaign row): it reads the channel, creates it the first time
(a unique key per campaign settles two first posts at once) and inserts the message.
Each user may post settings.PRESS_RATE_LIMIT messages a minute, counted in Django's
cache. Unread: each user's ReadMarker per channel holds the newest message id they
have seen, moved when they open the channel, or when the campaign page's panel shows
its newest messages (the LATEST of each channel) with every unread one among them.
Mail: a digest of the press a user has not read, or each message as it is written, as
each reader chooses for each campaign (campaign/press/press_mail.py). The webhook gets a
"press" event per message: a public message's author and text; of a private or
GM message only that one was written, never its text, author or members.
"""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import reduce
from operator import or_

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import (
    Case,
    Count,
    DateTimeField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop, ngettext

from campaign.core.changes import locked_campaign, log
from campaign.errors import ServiceError
from campaign.models import Campaign, Channel, Event, Message, Power, ReadMarker, Seat
from campaign.notify import notifications, outgoing
from campaign.notify.chat_formats import ChatMessage
from rules.text import Text
from rules.translation import Term, localized

MAX_LENGTH = 5000  # characters in a message
PAGE_SIZE = 50  # messages on a press page
LATEST = 3  # messages of each channel in the campaign page's panel
HISTORY_LIMIT = 200  # messages of a phase on its history page
PUBLIC, GM_PREFIX, JOIN = "public", "gm-", "+"
PRIVATE_CHOICE, GM_CHOICE = "private", "gm"  # the compose form's "to" for a set, the GM


class PressError(ServiceError):
    """A message that cannot be posted."""


class PressForbidden(PressError):
    """Press the seat may not write."""


class PressFlood(PressError):
    """More messages in a minute than a seat may write."""


@dataclass(frozen=True)
class Address:
    """A channel as a set of powers: PUBLIC (none), GM (one) or PRIVATE (two or more)."""

    kind: str
    powers: tuple[Power, ...] = ()

    @property
    def key(self) -> str:
        return key_of(self.kind, [p.key for p in self.powers])

    def has(self, power_id: int | None) -> bool:
        return power_id is not None and any(p.pk == power_id for p in self.powers)


PUBLIC_ADDRESS = Address(Channel.Kind.PUBLIC)


def key_of(kind: str, keys: list[str]) -> str | None:
    """The key of the channel of this kind between these powers (their keys); None when
    no channel is: a public channel has no member, a GM channel one, a private one two
    or more."""
    if kind == Channel.Kind.PUBLIC:
        return PUBLIC if not keys else None
    if kind == Channel.Kind.GM:
        return GM_PREFIX + keys[0] if len(keys) == 1 else None
    if kind == Channel.Kind.PRIVATE and len(set(keys)) == len(keys) >= 2:
        return JOIN.join(sorted(keys))
    return None


def campaign_powers(campaign: Campaign) -> dict[str, Power]:
    """The campaign's powers by key, in their order (one query)."""
    return {p.key: p for p in Power.objects.filter(campaign=campaign)}


def address_of(key: str, powers: dict[str, Power]) -> Address | None:
    """The channel a key names in this campaign, or None."""
    if key == PUBLIC:
        return PUBLIC_ADDRESS
    if key.startswith(GM_PREFIX):
        power = powers.get(key.removeprefix(GM_PREFIX))
        return Address(Channel.Kind.GM, (power,)) if power else None
    keys = key.split(JOIN)
    if len(keys) < 2 or keys != sorted(set(keys)) or any(k not in powers for k in keys):
        return None
    return Address(Channel.Kind.PRIVATE, tuple(powers[k] for k in keys))


def address_for(seat: Seat, to: str, chosen: Iterable[str], powers: dict[str, Power]) -> Address:
    """The channel a writer chose: ``to`` is a channel's key, GM_CHOICE (a player's own
    channel with the GM) or PRIVATE_CHOICE with ``chosen``, the other powers' keys."""
    if to == PRIVATE_CHOICE:
        return private_address(seat, list(chosen), powers)
    if to == GM_CHOICE:
        if seat.is_gm or seat.power_id is None:
            raise PressError(gettext("Choose which power's channel with the GM to write to."))
        return Address(Channel.Kind.GM, (seat.power,))
    address = address_of(to, powers)
    if address is None:
        raise PressError(gettext("There is no such channel in this campaign."))
    return address


def private_address(seat: Seat, chosen: list[str], powers: dict[str, Power]) -> Address:
    """The private channel between the writer's power and the ``chosen`` powers."""
    if seat.power_id is None:
        raise PressForbidden(
            gettext("Only a power writes private press: the GM writes to each power's channel.")
        )
    if seat.campaign.press != Campaign.Press.FULL:
        raise PressForbidden(forbidden_reason(seat.campaign.press))
    for key in chosen:
        if key not in powers:
            raise PressError(
                gettext("There is no power “%(power)s” in this campaign.") % {"power": key}
            )
        if chosen.count(key) > 1:
            raise PressError(
                gettext("%(power)s is named twice.") % {"power": powers[key].display_name}
            )
    keys = sorted({*chosen, seat.power.key})
    if len(keys) < 2:
        raise PressError(
            gettext(
                "Choose at least one other power: a private channel is between two or more "
                "powers, yours included."
            )
        )
    address = Address(Channel.Kind.PRIVATE, tuple(powers[k] for k in keys))
    if len(address.key) > Channel._meta.get_field("key").max_length:
        raise PressError(gettext("Too many powers for one channel."))
    return address


def reads(seat: Seat, address: Address) -> bool:
    if address.kind == Channel.Kind.PUBLIC:
        return True
    if seat.is_gm and (address.kind == Channel.Kind.GM or seat.campaign.gm_reads_private):
        return True
    return address.has(seat.power_id)


def reads_before_leaving(seat: Seat, address: Address) -> bool:
    """A replaced player's seat reads this channel of their power, up to when they left."""
    return address.has(seat.former_power_id)


def until_left(seat: Seat) -> Q:
    """The messages ``seat`` reads in the channels it reads: every one, but for a replaced
    player only those written before they left, in any channel but the public one."""
    if seat.former_power_id is None:
        return Q()
    return Q(channel__kind=Channel.Kind.PUBLIC) | Q(created_at__lte=seat.left_at)


def left_at_by(replaced: list[Seat]) -> Case:
    """``until_left`` for several seats at once (each of another campaign; each a replaced
    player's), as an expression on Channel rows: when its reader stopped reading the
    channel's messages (their campaign's channels but the public one: the time they left),
    else null."""
    return Case(
        *(
            When(
                Q(campaign_id=s.campaign_id) & ~Q(kind=Channel.Kind.PUBLIC),
                then=Value(s.left_at),
            )
            for s in replaced
        ),
        default=None,
        output_field=DateTimeField(),
    )


def readable(seat: Seat) -> QuerySet[Channel]:
    """The campaign's channels the seat reads (a replaced player's: the ones of their
    power too, whose messages ``until_left`` limits)."""
    return Channel.objects.filter(readable_by([seat]))


def readable_by(seats: list[Seat]) -> Q:
    """The channels ``readable`` gives for each of these seats (each of another
    campaign: one user's), as one condition on Channel rows whose size does not grow with
    the number of seats: every public channel of their campaigns, the channels with the
    GM of those they run, the private ones of those whose GM reads them, the channels of
    their powers (a power's channels are all of its campaign), and a replaced player's
    as they stood when they left."""
    gm = [s.campaign_id for s in seats if s.is_gm]
    private = [s.campaign_id for s in seats if s.is_gm and s.campaign.gm_reads_private]
    powers = [s.power_id for s in seats if s.power_id is not None]
    Member = Channel.members.through
    wanted = (
        Q(kind=Channel.Kind.PUBLIC)
        | Q(kind=Channel.Kind.GM, campaign_id__in=gm)
        | Q(kind=Channel.Kind.PRIVATE, campaign_id__in=private)
        | Q(pk__in=Member.objects.filter(power_id__in=powers).values("channel_id"))
    )
    for seat in seats:
        if seat.former_power_id is not None:
            member = Member.objects.filter(power_id=seat.former_power_id)
            wanted |= Q(pk__in=member.values("channel_id"), created_at__lte=seat.left_at)
    return Q(campaign_id__in=[s.campaign_id for s in seats]) & wanted


def may_write(seat: Seat) -> None:
    """PressForbidden for a seat that writes nowhere: an observer's."""
    if seat.role == Seat.Role.OBSERVER:
        raise PressForbidden(gettext("Observers read the public press; they do not write."))


def signature(seat: Seat, address: Address, *, as_gm: bool = False) -> Power | None:
    """The power a message of this seat to this channel is written as (None: the GM);
    PressForbidden when the seat may not write there, or the press rules forbid it."""
    rules = seat.campaign.press
    may_write(seat)
    if as_gm and not seat.is_gm:
        raise PressForbidden(gettext("Only the GM signs as the GM."))
    if address.kind == Channel.Kind.GM:
        if seat.is_gm:
            return None
        if not address.has(seat.power_id):
            raise PressForbidden(gettext("You may write only to your own channel with the GM."))
        return seat.power
    if address.kind == Channel.Kind.PRIVATE:
        if not address.has(seat.power_id):
            raise PressForbidden(gettext("You may write only to channels your power is in."))
        if rules != Campaign.Press.FULL:
            raise PressForbidden(forbidden_reason(rules))
        return seat.power
    if seat.is_gm and (as_gm or seat.power_id is None):
        return None
    if rules == Campaign.Press.NONE:
        raise PressForbidden(forbidden_reason(rules))
    return seat.power


def forbidden_reason(rules: str) -> str:
    if rules == Campaign.Press.NONE:
        return gettext(
            "This campaign is played without press between powers (gunboat): you may write "
            "to the GM only."
        )
    return gettext("This campaign allows public press only: there are no private channels.")


def clean_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise PressError(gettext("Write a message first: this one is empty."))
    if len(text) > MAX_LENGTH:
        raise PressError(
            gettext("A message holds at most %(limit)s characters; this one has %(length)s.")
            % {
                "limit": number_format(MAX_LENGTH, force_grouping=True),
                "length": number_format(len(text), force_grouping=True),
            }
        )
    if "\x00" in text:
        raise PressError(gettext("A message cannot hold a null character."))
    return text


def take_rate_slot(user_id: int) -> None:
    """Count one message of this user in the current minute; PressFlood past the limit."""
    limit = settings.PRESS_RATE_LIMIT
    key = f"press-rate:{user_id}:{int(time.time() // 60)}"
    cache.add(key, 0, timeout=120)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted meanwhile
        cache.set(key, count := 1, timeout=120)
    if count > limit:
        raise PressFlood(
            ngettext(
                "You may write %(limit)s message a minute: wait a moment, then send it again.",
                "You may write %(limit)s messages a minute: wait a moment, then send it again.",
                limit,
            )
            % {"limit": limit}
        )


def post_message(
    *, seat: Seat, to: str, chosen: Iterable[str] = (), text: str, as_gm: bool = False
) -> Message:
    """Post a message from this seat: to a channel key, GM_CHOICE or PRIVATE_CHOICE with
    the ``chosen`` powers (see address_for). Checks, in order: the channel, the writer's
    right to write there and the press rules (PressForbidden), the text, the rate."""
    campaign = seat.campaign
    powers = campaign_powers(campaign) if to not in (PUBLIC, GM_CHOICE) else {}
    address = address_for(seat, to, chosen, powers)
    power = signature(seat, address, as_gm=as_gm)
    text = clean_text(text)
    take_rate_slot(seat.user_id)
    message = Message.objects.create(
        campaign=campaign,
        channel=channel_for(campaign, address),
        author_id=seat.user_id,
        power=power,
        turn=campaign.turn,
        phase_id=campaign.phase_id,
        text=text,
    )
    if campaign.webhook_url:
        transaction.on_commit(lambda: announce(campaign, message, address))
    return message


def channel_for(campaign: Campaign, address: Address) -> Channel:
    """The channel's row, created with its members the first time."""
    channel = Channel.objects.filter(campaign=campaign, key=address.key).first()
    if channel is not None:
        return channel
    try:
        with transaction.atomic():
            channel = Channel.objects.create(campaign=campaign, kind=address.kind, key=address.key)
            Member = Channel.members.through
            Member.objects.bulk_create(
                [Member(channel_id=channel.pk, power_id=p.pk) for p in address.powers]
            )
            return channel
    except IntegrityError:  # another writer's first message created it meanwhile
        return Channel.objects.get(campaign=campaign, key=address.key)


def announce(campaign: Campaign, message: Message, address: Address) -> None:
    """The webhook's "press" event, in its chat's format; a private or GM message's text
    is never sent."""
    with translation.override(settings.LANGUAGE_CODE):
        public = address.kind == Channel.Kind.PUBLIC
        author = author_name(message.power)
        chat = ChatMessage(
            event="press",
            campaign=campaign.name,
            turn=localized(campaign.rules.turn_label(message.turn, campaign.setup)),
            phase=phase_name(campaign, message),
            deadline=None,
            url=site_url(campaign, address if public else None),
            text=f"{author}: {message.text}"
            if public
            else gettext("A private message was written."),
            at=message.created_at,
            deadline_label="",
            extra=(("channel", address.kind), ("from", author if public else None)),
        )
    notifications.send_chat(campaign, chat)


def author_name(power: Power | None) -> str:
    """Who signed a message, in the active language (a str: the webhook's JSON too)."""
    return str(power.display_name) if power is not None else gettext("GM")


def phase_name(campaign: Campaign, message: Message) -> str:
    return str(campaign.rules.phase(message.phase.key).name) if message.phase_id else ""


def site_url(campaign: Campaign, address: Address | None = None) -> str:
    path = (
        reverse("campaign:press_channel", args=[campaign.pk, address.key])
        if address
        else reverse("campaign:press", args=[campaign.pk])
    )
    return outgoing.site_url(path)


# -- reading ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A channel in a reader's list: its unread count and newest message."""

    key: str
    kind: str
    label: str
    pk: int | None = None  # None: no message yet
    unread: int = 0
    read_upto: int = 0
    last_id: int = 0
    last_at: datetime | None = None
    floor: int = 0  # the id of its LATEST-th newest message, 0 when it has fewer


def channel_label(seat: Seat, address: Address) -> str:
    if address.kind == Channel.Kind.PUBLIC:
        return gettext("Everyone (public)")
    if address.kind == Channel.Kind.GM:
        if seat.is_gm:
            return gettext("%(power)s and the GM") % {"power": address.powers[0].display_name}
        return gettext("The GM")
    members = sorted(address.powers, key=lambda p: (p.sort, p.name))
    return ", ".join(str(p.display_name) for p in members)


def entries(seat: Seat, user, powers: dict[str, Power]) -> list[Entry]:
    """The channels the seat reads, with the user's unread counts and where their LATEST
    newest messages start (one query): the public one, then the channels with the GM
    (the player's own; each power's for the GM), then the private ones, the most
    recently written first."""
    newest = Message.objects.filter(until_left(seat), channel=OuterRef("pk")).order_by("-pk")
    marker = ReadMarker.objects.filter(user_id=user.pk, channel=OuterRef("pk"))
    unread = (
        Message.objects.filter(
            until_left(seat), channel=OuterRef("pk"), pk__gt=OuterRef("read_upto")
        )
        .exclude(author_id=user.pk)
        .order_by()
        .values("channel")
        .annotate(count=Count("pk"))
        .values("count")
    )
    rows = (
        readable(seat)
        .annotate(read_upto=Coalesce(Subquery(marker.values("last_read")[:1]), Value(0)))
        .annotate(
            unread=Coalesce(Subquery(unread), Value(0)),
            last_id=Coalesce(Subquery(newest.values("pk")[:1]), Value(0)),
            last_at=Subquery(newest.values("created_at")[:1]),
            floor=Coalesce(Subquery(newest.values("pk")[LATEST - 1 : LATEST]), Value(0)),
        )
        .values("pk", "key", "kind", "read_upto", "unread", "last_id", "last_at", "floor")
    )
    found = {}
    for row in rows:
        address = address_of(row["key"], powers)
        if address is not None:
            found[row["key"]] = Entry(label=channel_label(seat, address), **row)
    slots = [PUBLIC_ADDRESS]
    if seat.is_gm:
        slots += [Address(Channel.Kind.GM, (p,)) for p in powers.values() if p.pk != seat.power_id]
    elif seat.power_id is not None:
        slots.append(Address(Channel.Kind.GM, (seat.power,)))
    listed = [found.pop(a.key, None) or Entry(a.key, a.kind, channel_label(seat, a)) for a in slots]
    others = sorted(found.values(), key=lambda e: -e.last_id)
    return listed + others


def stamp(listed: list[Entry]) -> str:
    """What a reader's press looks like now: changes with any message they may read and
    with their read markers, and with nothing else."""
    state = sorted((e.key, e.last_id, e.read_upto) for e in listed if e.pk)
    return hashlib.sha256(repr(state).encode()).hexdigest()[:16]


def messages(seat: Seat, address: Address | None = None) -> QuerySet[Message]:
    """The messages of one channel, or of every channel the seat reads; newest first."""
    found = Message.objects.filter(until_left(seat), campaign_id=seat.campaign_id)
    if address is not None:
        found = found.filter(channel__campaign_id=seat.campaign_id, channel__key=address.key)
    else:
        found = found.filter(channel__in=readable(seat))
    return found.select_related("channel", "phase").order_by("-pk")


def mark_read(user, listed: list[Entry], shown: Iterable[Message]) -> list[Entry]:
    """Move the user's markers past the messages shown (one query, none when nothing
    new is shown); the entries as they read now."""
    newest: dict[int, int] = {}
    for message in shown:
        newest[message.channel_id] = max(newest.get(message.channel_id, 0), message.pk)
    moved = {e.pk: newest[e.pk] for e in listed if e.pk in newest and newest[e.pk] > e.read_upto}
    if moved:
        ReadMarker.objects.bulk_create(
            [ReadMarker(user_id=user.pk, channel_id=c, last_read=m) for c, m in moved.items()],
            update_conflicts=True,
            unique_fields=["user", "channel"],
            update_fields=["last_read"],
        )
    return [
        replace(e, read_upto=moved[e.pk], unread=0)
        if e.pk in moved and moved[e.pk] >= e.last_id
        else e
        for e in listed
    ]


# What an erased message says instead of its text, stored in English and shown in the
# reader's language: its author deleted their account and asked for their press to go
# (campaign/people/personal_data.py); the row stays, so threads and counts stay whole.
ERASED = gettext_noop("(erased at the author's request)")


def shown_text(text: str) -> str:
    """A message's text as a reader reads it: an erased one in the reader's language."""
    return gettext(ERASED) if text == ERASED else text


@dataclass(frozen=True)
class Line:
    """A message as a page shows it."""

    pk: int
    channel: str
    channel_label: str
    author: str
    own: bool
    created_at: datetime
    turn: str
    phase: str
    text: str


def lines(seat: Seat, found: Iterable[Message], powers: dict[str, Power]) -> list[Line]:
    campaign = seat.campaign
    by_id = {p.pk: p for p in powers.values()}
    shown = []
    for m in found:
        address = address_of(m.channel.key, powers)
        shown.append(
            Line(
                pk=m.pk,
                channel=m.channel.key,
                channel_label=channel_label(seat, address) if address else m.channel.key,
                author=author_name(by_id.get(m.power_id)),
                own=m.author_id == seat.user_id,
                created_at=m.created_at,
                turn=localized(campaign.rules.turn_label(m.turn, campaign.setup)),
                phase=phase_name(campaign, m),
                text=shown_text(m.text),
            )
        )
    return shown


@dataclass(frozen=True)
class Glance:
    """A channel as the campaign page's panel shows it: its newest messages, oldest
    first, and those of them new to the reader (another's, past the reader's marker)."""

    entry: Entry
    lines: list[Line]
    new: frozenset[int]

    @property
    def unseen(self) -> int:
        """The reader's unread messages of the channel that are older than those shown."""
        return max(self.entry.unread - len(self.new), 0)


def glances(seat: Seat, listed: list[Entry], powers: dict[str, Power]) -> list[Glance]:
    """The LATEST newest messages of each channel listed that has any, in one query
    (from each entry's ``floor``: bounded however long the channels are)."""
    wanted = [Q(channel_id=e.pk, pk__gte=e.floor) for e in listed if e.last_id]
    if not wanted:
        return []
    found = (
        Message.objects.filter(until_left(seat), campaign_id=seat.campaign_id)
        .filter(reduce(or_, wanted))
        .select_related("channel", "phase")
        .order_by("pk")
    )
    by_channel: dict[int, list[Message]] = defaultdict(list)
    for message in found:
        by_channel[message.channel_id].append(message)
    shown = []
    for entry in listed:
        if rows := by_channel.get(entry.pk):
            new = frozenset(
                m.pk for m in rows if m.pk > entry.read_upto and m.author_id != seat.user_id
            )
            shown.append(Glance(entry, lines(seat, rows, powers), new))
    return shown


def may_reply(seat: Seat, address: Address) -> bool:
    """Whether the seat may write to this channel (as ``post_message`` checks it)."""
    try:
        signature(seat, address)
    except PressForbidden:
        return False
    return True


def of_phase(seat: Seat, phase_id: int, powers: dict[str, Power]) -> tuple[list[Line], bool]:
    """The press written in a phase that the seat reads, oldest first (at most
    HISTORY_LIMIT), and whether there was more."""
    found = list(
        Message.objects.filter(until_left(seat), phase_id=phase_id, channel__in=readable(seat))
        .select_related("channel", "phase")
        .order_by("pk")[: HISTORY_LIMIT + 1]
    )
    return lines(seat, found[:HISTORY_LIMIT], powers), len(found) > HISTORY_LIMIT


# -- the press rules --------------------------------------------------------------------


def set_rules(*, campaign_id: int, press: str, gm_reads_private: bool, actor) -> None:
    """The GM sets the press rules; each change is logged for everyone to read."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        if press not in Campaign.Press.values:
            raise ServiceError(gettext("Unknown press rule."))
        changes = []
        if press != campaign.press:
            changes.append(Text("press: %(rule)s", rule=Term(Campaign.Press(press).label)))
        if gm_reads_private != campaign.gm_reads_private:
            changes.append(
                Text("the GM reads the private press")
                if gm_reads_private
                else Text("the GM does not read the private press")
            )
        campaign.press, campaign.gm_reads_private = press, gm_reads_private
        campaign.save(update_fields=["press", "gm_reads_private"])
        for change in changes:
            said = Text("GM %(gm)s sets %(change)s.", gm=actor.get_username(), change=change)
            log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()
