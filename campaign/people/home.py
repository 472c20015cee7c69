"""The home page: the user's campaigns, the most urgent first, in a bounded number of
queries however many campaigns they take part in.

First comes what needs the reader (``Need``), most urgent first: a decision asked of
their power; the orders their power owes and has not marked ready, the nearest deadline
first; and for a GM, a phase only they can close (it takes no orders, or the campaign does
not resolve itself, and every power that owes orders is ready), a phase whose dice they
must enter, a decision waiting for a power without a player here, requests for a seat
waiting for their answer, and orders for the GM waiting to be carried out. Each entry also
says whose turn it is when it is someone else's ("waits for France and Russia's orders").
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import IntEnum

from django.db.models import (
    Count,
    Exists,
    F,
    FilteredRelation,
    OuterRef,
    Q,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.db.models.lookups import IsNull
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from campaign.core import readiness, sealing
from campaign.models import (
    Campaign,
    Channel,
    Message,
    Order,
    Phase,
    Power,
    Seat,
    SeatRequest,
)
from campaign.press import press
from rules import gm_orders as gmo
from rules.engine import PhaseSpec


class Kind(IntEnum):
    """What needs the reader, the most urgent first."""

    DECISION = 0  # a decision asked of the reader's power
    ORDERS = 1  # orders the reader's power owes, not ready
    DECIDE_FOR = 2  # GM: a decision waiting for a power without a player here
    START = 3  # GM: a campaign that waits for the GM's word to start
    DICE = 4  # GM: everyone is ready, the dice are the GM's to enter
    CLOSE = 5  # GM: a phase only the GM closes, nobody left to wait for
    REQUESTS = 6  # GM: requests for a seat waiting for an answer
    GM_ORDERS = 7  # GM: orders for the GM waiting to be carried out


REST = len(Kind)  # the rank of an entry that needs nothing of the reader


@dataclass(frozen=True)
class Need:
    """One thing the reader has to do in a campaign: what (in the reader's language),
    where to do it, and whether the phase's deadline bears on it."""

    kind: Kind
    text: str
    url: str
    timed: bool = True


@dataclass(frozen=True)
class Entry:
    """One of the user's campaigns: their seat, whether the open phase waits for their
    power's orders (``owes``) and they have marked them ready, the press messages they
    have not read, and who else the phase waits for: the powers owing orders and not
    ready (``waiting``, the reader's own left out), the power a decision under way waits
    for (``asked``, with ``asked_present``: its player is there); for a GM, the requests
    for a seat (``requests``) and the lines for the GM not done (``gm_lines``) waiting."""

    seat: Seat
    owes: bool
    ready: bool
    unread: int
    waiting: tuple[Power, ...] = ()
    all_ready: bool = False
    anyone_there: bool = False
    asked: Power | None = None
    asked_present: bool = False
    requests: int = 0
    gm_lines: int = 0
    needs: tuple[Need, ...] = field(default=(), compare=False)

    @property
    def campaign(self) -> Campaign:
        return self.seat.campaign

    @property
    def phase(self) -> Phase | None:
        return self.campaign.phase

    @property
    def spec(self) -> PhaseSpec | None:
        return self.campaign.rules.phase(self.phase.key) if self.phase else None

    @property
    def urgent(self) -> bool:
        return self.owes and not self.ready

    @property
    def rank(self) -> int:
        return min((need.kind for need in self.needs), default=REST)

    @property
    def standing(self) -> str:
        """Where the open phase stands for the reader, in their language: what it waits
        for, whose when it is someone else's; "" when there is nothing to say."""
        return standing_of(self)


def entries(user) -> list[Entry]:
    """The user's campaigns, the most urgent first: three queries, one more for the
    powers of their campaigns under way, two more when they are a GM, and the state of
    each campaign whose phase waits for a decision."""
    ready = Order.objects.filter(
        phase_id=OuterRef("campaign__phase_id"), power_id=OuterRef("power_id"), ready=True
    )
    playing = Seat.objects.filter(
        campaign=OuterRef("campaign_id"), role=Seat.Role.GM, power__isnull=False
    )
    team_ready = Order.objects.filter(
        phase_id=OuterRef("campaign__phase_id"), power_id=OuterRef("gm_team_power_id"), ready=True
    )
    seats = list(
        Seat.objects.filter(user=user)
        .select_related("campaign", "campaign__phase", "power")
        .annotate(ready=Exists(ready))
        .annotate(gm_team_power_id=Subquery(playing.values("power_id")[:1]))
        .annotate(team_ready=Exists(team_ready))
    )
    unread = unread_press(user, seats)
    now = timezone.now()
    live = list({s.campaign_id: s.campaign for s in seats if under_way(s.campaign)}.values())
    powers = powers_of(live, now)
    gm = [s for s in seats if s.is_gm and s.campaign.ended_at is None]
    requests = waiting_requests(gm)
    lines = gm_lines_waiting([s for s in gm if under_way(s.campaign)])
    asked = asked_powers(live, powers)
    found = []
    for s in seats:
        entry = Entry(
            s,
            owes(s, now),
            s.ready,
            unread.get(s.campaign_id, 0),
            requests=requests.get(s.campaign_id, 0),
            gm_lines=lines.get(s.pk, 0),
            **others(s, powers.get(s.campaign_id, []), asked.get(s.campaign_id)),
        )
        found.append(replace(entry, needs=needs_of(entry)))
    return sorted(found, key=urgency)


def under_way(campaign: Campaign) -> bool:
    """The campaign has not ended and its phase is not resolved."""
    phase = campaign.phase
    return campaign.ended_at is None and phase is not None and phase.is_open


def owes(seat: Seat, now: datetime) -> bool:
    """Whether the open phase waits for the orders of the seat's power:
    readiness.owing_powers for this one power, over the rows already loaded (the tests
    check that both agree)."""
    campaign, phase = seat.campaign, seat.campaign.phase
    if seat.power_id is None or phase is None or campaign.ended_at is not None:
        return False
    spec = campaign.rules.phase(phase.key)
    return (
        phase.status == Phase.Status.OPEN
        and spec.takes_orders
        and not seat.power.absent
        and not seat.power.in_disorder
        and not seat.away_at(now)
        and phase.waits_for(spec, seat.power.key)
    )


def powers_of(campaigns: list[Campaign], now: datetime) -> dict[int, list[Power]]:
    """The powers of these campaigns by campaign id, in their order, each with ``ready``
    (its orders for the open phase are marked ready) and ``present`` (its player is
    there, as readiness.present_powers says): one query, none without campaigns."""
    if not campaigns:
        return {}
    ready = Order.objects.filter(
        phase_id=OuterRef("campaign__phase_id"), power_id=OuterRef("pk"), ready=True
    )
    seated = Seat.objects.filter(power_id=OuterRef("pk"), user__isnull=False).exclude(
        readiness.away_at(now)
    )
    rows = (
        Power.objects.filter(campaign__in=campaigns)
        # a seat of each power, looked up by its index: as an EXISTS, PostgreSQL may
        # rather hash every seat of the site once than look up a few dozen powers'
        .annotate(ready=Exists(ready), seated_by=Subquery(seated.values("pk")[:1]))
        .order_by("campaign_id", "sort", "pk")
    )
    found: dict[int, list[Power]] = defaultdict(list)
    for power in rows:
        seated = power.seated_by is not None
        power.present = seated and not power.absent and not power.in_disorder
        found[power.campaign_id].append(power)
    return found


def owing(campaign: Campaign, powers: list[Power]) -> list[Power]:
    """readiness.owing_powers over the rows already loaded."""
    phase = campaign.phase
    spec = campaign.rules.phase(phase.key)
    if phase.status != Phase.Status.OPEN or not spec.takes_orders:
        return []
    return [p for p in powers if p.present and phase.waits_for(spec, p.key)]


def asked_powers(campaigns: list[Campaign], powers: dict[int, list[Power]]) -> dict[int, Power]:
    """By campaign id, the power the decision under way waits for (the ruleset's
    ``decisions.default``), for the campaigns whose phase waits for one: each loads its
    state (only those)."""
    found = {}
    for campaign in campaigns:
        decisions = campaign.rules.hooks.decisions
        if campaign.phase.status != Phase.Status.WAITING or decisions is None:
            continue
        asked = decisions.default(campaign.rules.load_world(campaign))
        if asked is None:
            continue
        by_key = {p.key: p for p in powers.get(campaign.pk, [])}
        if asked[0] in by_key:
            found[campaign.pk] = by_key[asked[0]]
    return found


def others(seat: Seat, powers: list[Power], asked: Power | None) -> dict:
    """Whom the campaign's phase waits for besides the reader (Entry's fields)."""
    if not under_way(seat.campaign):
        return {}
    owed = owing(seat.campaign, powers)
    return {
        "waiting": tuple(p for p in owed if not p.ready and p.pk != seat.power_id),
        "all_ready": all(p.ready for p in owed),
        "anyone_there": any(p.present for p in powers),
        "asked": asked,
        "asked_present": bool(asked and asked.present),
    }


def waiting_requests(gm_seats: list[Seat]) -> dict[int, int]:
    """By campaign id, the requests for a seat waiting for the GM's answer (one query,
    none without GM seats)."""
    if not gm_seats:
        return {}
    rows = (
        SeatRequest.objects.filter(
            campaign_id__in=[s.campaign_id for s in gm_seats],
            status=SeatRequest.Status.PENDING,
        )
        .values("campaign_id")
        .annotate(count=Count("pk"))
        .order_by()
    )
    return {row["campaign_id"]: row["count"] for row in rows}


def gm_lines_waiting(gm_seats: list[Seat]) -> dict[int, int]:
    """By GM seat id, the lines for the GM of the open phase's orders not yet carried out
    that the GM may read (campaign/core/sealing.py: while a GM of the campaign plays a power,
    every GM reads the others' once that power's orders are ready; ``team_ready``): one
    query, none without GM seats."""
    open_seats = [s for s in gm_seats if s.campaign.phase.status == Phase.Status.OPEN]
    if not open_seats:
        return {}
    rows = (  # the open phases' orders only (by the index of each phase's orders)
        Order.objects.filter(
            phase_id__in=[s.campaign.phase_id for s in open_seats],
            payload__has_key=gmo.KEY,
        )
        .values_list("campaign_id", "power_id", "payload")
        .order_by()
    )
    found: dict[int, int] = {}
    by_campaign = {s.campaign_id: s for s in open_seats}
    for campaign_id, power_id, payload in rows:
        seat = by_campaign[campaign_id]
        played = sealing.played_power_id(seat)
        reads_all = played is None or seat.team_ready  # sealing.reads_every_order
        if not (reads_all or power_id == played):
            continue
        left = sum(1 for line in gmo.lines_of(payload) if not line.get("done"))
        found[seat.pk] = found.get(seat.pk, 0) + left
    return found


# -- what needs the reader -----------------------------------------------------------


def needs_of(entry: Entry) -> tuple[Need, ...]:
    """What the campaign needs of the reader, the most urgent first."""
    seat, campaign = entry.seat, entry.campaign
    if campaign.ended_at is not None:
        return ()
    detail = reverse("campaign:detail", args=[campaign.pk])
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    found = []
    if entry.asked is not None and entry.asked.pk == seat.power_id:
        text = _("A decision is asked of you, as %(power)s.")
        found.append(
            Need(Kind.DECISION, text % {"power": seat.power.display_name}, detail + "#decision")
        )
    if entry.urgent:
        text = _("Your orders for %(power)s are awaited: not ready.")
        found.append(
            Need(Kind.ORDERS, text % {"power": seat.power.display_name}, detail + "#orders")
        )
    if seat.is_gm:
        found.extend(gm_needs(entry, dashboard))
    return tuple(sorted(found, key=lambda need: need.kind))


def gm_needs(entry: Entry, dashboard: str) -> list[Need]:
    """What a campaign needs of its GM."""
    campaign, phase, found = entry.campaign, entry.phase, []
    if (
        entry.asked is not None
        and not entry.asked_present
        and entry.asked.pk != entry.seat.power_id
    ):
        text = _("A decision waits for %(power)s, which has no player here: decide for it.")
        found.append(
            Need(
                Kind.DECIDE_FOR, text % {"power": entry.asked.display_name}, dashboard + "#decision"
            )
        )
    if campaign.started_at is None and phase is not None:
        text = _("The campaign waits for you to start it.")
        found.append(Need(Kind.START, text, dashboard + "#phase", timed=False))
    elif phase is not None and phase.status == Phase.Status.OPEN and entry.all_ready:
        spec = entry.spec
        if campaign.dice_mode == Campaign.DiceMode.SCRIPTED:
            if spec.takes_orders and entry.anyone_there:
                text = _("Every power is ready: enter the dice and resolve the phase.")
            else:
                text = _("The phase waits for you: enter the dice and resolve it.")
            found.append(Need(Kind.DICE, text, dashboard + "#phase"))
        elif not (spec.takes_orders and readiness.resolves_itself(campaign) and entry.anyone_there):
            if spec.takes_orders and entry.anyone_there:
                text = _("Every power is ready: close and resolve the phase.")
            else:
                text = _("The phase waits for you to close it.")
            found.append(Need(Kind.CLOSE, text, dashboard + "#phase"))
    if entry.requests:
        text = ngettext(
            "%(count)s request for a seat waits for your answer.",
            "%(count)s requests for a seat wait for your answer.",
            entry.requests,
        )
        found.append(
            Need(Kind.REQUESTS, text % {"count": entry.requests}, dashboard + "#lobby", timed=False)
        )
    if entry.gm_lines:
        text = ngettext(
            "%(count)s order for the GM waits to be carried out.",
            "%(count)s orders for the GM wait to be carried out.",
            entry.gm_lines,
        )
        found.append(
            Need(Kind.GM_ORDERS, text % {"count": entry.gm_lines}, dashboard + "#gm-orders")
        )
    return found


def standing_of(entry: Entry) -> str:
    """Where the phase stands, for the table's row: what the reader has to do, or whom
    it waits for."""
    campaign, phase, seat = entry.campaign, entry.phase, entry.seat
    if not under_way(campaign):
        return ""
    if phase.status == Phase.Status.WAITING:
        if entry.asked is None:
            return _("Under way: it waits for a decision")
        if entry.asked.pk == seat.power_id:
            return _("Under way: it waits for your decision")
        if seat.is_gm and not entry.asked_present:
            return _("Under way: it waits for your decision for %(power)s") % {
                "power": entry.asked.display_name
            }
        return _("Under way: it waits for %(power)s's decision") % {
            "power": entry.asked.display_name
        }
    if entry.urgent:
        return _("Awaited: not ready")
    if entry.waiting:
        names = names_list([p.display_name for p in entry.waiting])
        if entry.owes:
            return _("Ready: it waits for %(powers)s's orders") % {"powers": names}
        return _("It waits for %(powers)s's orders") % {"powers": names}
    if seat.is_gm and any(n.kind in (Kind.DICE, Kind.CLOSE) for n in entry.needs):
        return _("It waits for you to close it")
    if entry.owes:
        return _("Ready: it waits for the GM")
    return _("It waits for the GM")


def names_list(names: list) -> str:
    """ "France", "France and Russia", "Austria, France and Russia"."""
    names = [str(name) for name in names]
    if len(names) == 1:
        return names[0]
    separator = pgettext("between the names of a list", ", ")
    return _("%(names)s and %(last)s") % {"names": separator.join(names[:-1]), "last": names[-1]}


def urgency(entry: Entry) -> tuple:
    """What needs the reader first (decisions, then orders awaited, then what a GM has to
    do); then by deadline (none last) and name."""
    deadline = entry.phase.deadline if entry.phase else None
    return (
        entry.rank,
        deadline is None,
        deadline.timestamp() if deadline else 0,
        entry.campaign.name.casefold(),
    )


def needs(found: list[Entry]) -> list[tuple[Entry, Need]]:
    """Every need of the user's campaigns, the most urgent first: by kind, then the
    phase's deadline (none last) and the campaign's name."""
    pairs = [(entry, need) for entry in found for need in entry.needs]
    return sorted(pairs, key=lambda pair: (pair[1].kind, *urgency(pair[0])[1:]))


def unread_press(user, seats: list[Seat]) -> dict[int, int]:
    """By campaign id, the press messages the user's seat there reads and the user has not
    read (one query): press.readable's channels, past the user's read marker of each,
    written by someone else. Counted channel by channel from the marker on (the index of
    a channel's messages by id), so that only the unread messages are read: not the
    press of the whole site, nor even the whole press of the user's campaigns."""
    if not seats:
        return {}
    unread = Message.objects.filter(channel_id=OuterRef("pk"), pk__gt=OuterRef("read_upto"))
    unread = unread.exclude(author_id=user.pk)
    channels = Channel.objects.filter(press.readable_by(seats))
    replaced = [s for s in seats if s.former_power_id is not None]
    if replaced:  # press.until_left: their power's channels, up to when they left
        channels = channels.alias(until=press.left_at_by(replaced))
        unread = unread.filter(
            Q(IsNull(OuterRef("until"), True)) | Q(created_at__lte=OuterRef("until"))
        )
    counted = unread.order_by().values("channel_id").annotate(count=Count("pk")).values("count")
    rows = (
        channels.annotate(mine=FilteredRelation("markers", condition=Q(markers__user_id=user.pk)))
        .alias(read_upto=Coalesce(F("mine__last_read"), Value(0)))
        .annotate(unread=Subquery(counted))
        .values_list("campaign_id", "unread")
    )
    found: dict[int, int] = defaultdict(int)
    for campaign_id, count in rows:
        if count:  # None: nothing unread there
            found[campaign_id] += count
    return dict(found)
