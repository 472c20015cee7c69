"""The lobby: campaigns whose GM opens their free seats to anyone logged in.

The GM lists a campaign's free seats in the lobby (Campaign.lobby_open). A user asks for
a free power's seat there, and the GM accepts or refuses the request on the dashboard;
or, with Campaign.lobby_at_once, the user takes the seat at once. With
Campaign.lobby_watch anyone logged in may watch: they take an observer seat of their own,
which the GM sees among the seats and may empty. (An observer seat rather than a
read-only access without a seat: every page already decides by the reader's seat, so a
watcher reads what an observer reads and nothing more, by the same checks.)

Every change locks the campaign row first, then the seat, in the order every other seat
change follows (services.claim_seat): of two users asking for the last free seat at
once, one takes it and the other is told it has been taken, and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.paginator import InvalidPage, Page, Paginator
from django.db import transaction
from django.db.models import (
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
)
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core.changes import locked_campaign, log
from campaign.errors import Conflict, ServiceError
from campaign.models import Area, Campaign, Event, MailChoice, Power, Seat, SeatRequest
from campaign.models.core import IN_LOBBY
from campaign.models.mail import MailKind
from campaign.notify import outgoing
from campaign.play import reliability
from campaign.play.scenarios import scenario_name
from campaign.play.scheduling import NO_PACE, PACE_NAMES, PACES, pace_hours
from campaign.play.services import assign_seat, claim_seat
from rules.text import Text

PENDING = SeatRequest.Status.PENDING


@dataclass(frozen=True)
class Listing:
    """A campaign in the lobby as one user sees it: the free seats they may ask for, the
    seats of its powers in civil disorder that want a new player (``wanted``, each power
    with ``holds``: the names of the areas it controls), their own seat there (if any)
    and their request waiting for the GM (if any)."""

    campaign: Campaign
    free_seats: list[Seat]
    seat: Seat | None = None
    request: SeatRequest | None = None
    wanted: list[Seat] = field(default_factory=list)

    @property
    def scenario(self) -> str:
        return scenario_name(self.campaign.scenario)

    @property
    def gms(self) -> list:
        """The users who run the campaign, the first GM first."""
        return [seat.user for seat in self.campaign.gm_seats]

    @property
    def seats_taken(self) -> int:
        """The powers' seats that have a player (the campaign's ``taken``, annotated)."""
        return self.campaign.taken

    @property
    def seats(self) -> int:
        return self.campaign.player_seats

    @property
    def pace(self) -> str:
        return pace_of(self.campaign)


def pace_of(campaign: Campaign) -> str:
    """How long the campaign's phases last, from its default deadlines
    (Campaign.deadline_hours): a pace's name and hours where they are one of the new
    campaign's paces (campaign/play/scheduling.py PACES), else the range of hours; none: the GM
    closes every phase."""
    hours = campaign.deadline_hours or {}
    if not hours:
        said = str(PACE_NAMES[NO_PACE])
    else:
        named = next(
            (p for p in PACES if pace_hours(campaign.rules, p) == hours),
            None,
        )
        if named is not None:
            said = _("%(pace)s: %(orders)s h for orders, %(gm)s h for a GM step") % {
                "pace": PACE_NAMES[named],
                "orders": PACES[named][0],
                "gm": PACES[named][1],
            }
        elif min(hours.values()) == max(hours.values()):
            said = _("%(hours)s h a phase") % {"hours": min(hours.values())}
        else:
            said = _("%(low)s to %(high)s h a phase") % {
                "low": min(hours.values()),
                "high": max(hours.values()),
            }
    if campaign.paused_at is not None:
        return _("%(pace)s (the deadlines are paused)") % {"pace": said}
    return said


PAGE_SIZE = 10  # campaigns on a page of the lobby (each a section with its seats' tables)


def in_lobby() -> QuerySet[Campaign]:
    """The campaigns in the lobby, by name: not ended, and that may be watched, have a
    free seat listed (Campaign.lobby_open), or a power in civil disorder that wants a new
    player. In SQL, so that a page of them is a LIMIT: it reads only the campaigns whose
    GM lists them and those with a power in civil disorder (an index on each,
    campaign_in_lobby and power_in_disorder), however many the site holds."""
    free = Seat.objects.filter(campaign=OuterRef("pk"), role=Seat.Role.PLAYER, user__isnull=True)
    wanted = Seat.objects.filter(
        campaign=OuterRef("pk"),
        role=Seat.Role.PLAYER,
        user__isnull=False,
        power__disorder_since__isnull=False,
    )
    listed = Campaign.objects.filter(IN_LOBBY).order_by().values("pk")
    disorder = Power.objects.filter(disorder_since__isnull=False).order_by().values("campaign_id")
    return (
        Campaign.objects.filter(pk__in=listed.union(disorder), ended_at__isnull=True)
        .filter(Q(lobby_watch=True) | (Q(lobby_open=True) & Exists(free)) | Exists(wanted))
        .order_by("name", "pk")
    )


def listed_among(campaign_ids: list[int]) -> set[int]:
    """Which of these campaigns are in the lobby (one query, whatever the lobby holds)."""
    if not campaign_ids:
        return set()
    return set(in_lobby().filter(pk__in=campaign_ids).values_list("pk", flat=True))


def _shown(campaigns: QuerySet[Campaign]) -> QuerySet[Campaign]:
    """The campaigns with what their listings show: the open phase, the powers' seats
    taken and in all (annotated), the free seats, those that want a new player and the
    GMs' (prefetched)."""
    free = Seat.objects.filter(role=Seat.Role.PLAYER, user__isnull=True).select_related("power")
    wanted = Seat.objects.filter(
        role=Seat.Role.PLAYER, user__isnull=False, power__disorder_since__isnull=False
    ).select_related("power")
    gms = Seat.objects.filter(role=Seat.Role.GM, user__isnull=False).select_related("user")
    player = Q(seats__role=Seat.Role.PLAYER, seats__power__isnull=False)
    counted = Campaign.objects.filter(pk=OuterRef("pk"))
    return (
        campaigns.select_related("phase")
        .annotate(
            player_seats=_count(counted, player),
            taken=_count(counted, player & Q(seats__user__isnull=False)),
        )
        .prefetch_related(
            Prefetch("seats", queryset=free.order_by("power__sort"), to_attr="free"),
            Prefetch("seats", queryset=wanted.order_by("power__sort"), to_attr="wanted"),
            Prefetch("seats", queryset=gms.order_by("created_at", "pk"), to_attr="gm_seats"),
        )
    )


def page(user, number: int | None) -> tuple[Page, list[Listing]]:
    """Page ``number`` of the lobby, PAGE_SIZE campaigns by name, and their listings
    (eight queries, however many campaigns are listed). A number that is no page of the
    lobby (None, below 1, past the last page) gives the first page."""
    paginator = Paginator(_shown(in_lobby()), PAGE_SIZE)
    try:
        found = paginator.page(number or 1)
    except InvalidPage:
        found = paginator.page(1)
    return found, _listings(user, list(found.object_list))


def _listings(user, shown: list[Campaign]) -> list[Listing]:
    """The listings of these campaigns (``_shown``'s) for ``user``: three queries."""
    _holdings([seat.power for c in shown for seat in c.wanted])
    seats, requests = _own(user, shown)
    return [
        Listing(c, c.free if c.lobby_open else [], seats.get(c.pk), requests.get(c.pk), c.wanted)
        for c in shown
    ]


def _count(campaign, seats: Q) -> Subquery:
    """The number of ``campaign``'s seats that match ``seats`` (a subquery, for the
    lobby's query filters on the campaign's powers and joins no seats into it)."""
    found = campaign.annotate(n=Count("seats", filter=seats)).values("n")
    return Subquery(found, output_field=IntegerField())


def _holdings(powers: list) -> None:
    """Give each power ``holds``: the names of the areas it controls (one query)."""
    held: dict[int, list] = {power.pk: [] for power in powers}
    for area in Area.objects.filter(controller__in=powers).only("name", "controller_id"):
        held[area.controller_id].append(area.display_name)
    for power in powers:
        power.holds = held[power.pk]


def _own(user, campaigns: list[Campaign]) -> tuple[dict, dict]:
    """The user's seats and waiting requests in these campaigns, by campaign id."""
    if not user.is_authenticated or not campaigns:
        return {}, {}
    seats = Seat.objects.filter(user=user, campaign__in=campaigns).select_related("power")
    return {s.campaign_id: s for s in seats}, pending_of(user, campaigns)


def pending_of(user, campaigns=None) -> dict[int, SeatRequest]:
    """The user's requests waiting for a GM, by campaign id (one query)."""
    found = SeatRequest.objects.filter(user=user, status=PENDING).select_related(
        "campaign", "power"
    )
    if campaigns is not None:
        found = found.filter(campaign__in=campaigns)
    return {r.campaign_id: r for r in found}


def waiting_requests(campaign: Campaign) -> list[SeatRequest]:
    """The requests the GM has to answer, oldest first, each with ``taken`` (its power's
    seat has a player meanwhile, and wants no new one) and ``record`` (the requester's
    record, campaign/play/reliability.py): two queries."""
    taken = Seat.objects.filter(
        power=OuterRef("power"), user__isnull=False, power__disorder_since__isnull=True
    )
    found = campaign.seat_requests.filter(status=PENDING).select_related("user", "power")
    asked = list(found.annotate(taken=Exists(taken)))
    records = reliability.of_users(a.user_id for a in asked)
    for each in asked:
        each.record = records[each.user_id]
    return asked


# -- the user's side -------------------------------------------------------------------


def ask_for_seat(*, campaign_id: int, power_id: int, user) -> Seat | SeatRequest:
    """Ask for a free power's seat: the seat itself when the campaign seats players from
    the lobby at once, else a request for the GM to answer."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        if campaign.ended_at is not None:
            raise ServiceError(_("This campaign does not take players from the lobby."))
        seat = _offered_seat(campaign, power_id)
        _refuse_if_playing(campaign, user)
        if campaign.seat_requests.filter(user=user, status=PENDING).exists():
            raise Conflict(
                _("You have already asked for a seat in this campaign: wait for the GM's answer.")
            )
        reliability.refuse_below_minimum(campaign, user)
        if seat.power.in_disorder and not campaign.replacements_need_gm:
            return claim_seat(token=seat.invite_token, user=user)
        if campaign.lobby_at_once and not seat.power.in_disorder:
            _stop_watching(campaign, user)
            return claim_seat(token=seat.invite_token, user=user)
        asked = SeatRequest.objects.create(campaign=campaign, power=seat.power, user=user)
        _mail_gm(campaign, asked)
        return asked


def watch(*, campaign_id: int, user) -> Seat:
    """An observer seat of the user's own, in a campaign anyone logged in may watch."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        if not campaign.lobby_watch or campaign.ended_at is not None:
            raise ServiceError(_("This campaign cannot be watched from the lobby."))
        if campaign.seats.filter(user=user).exists():
            raise Conflict(_("You already have a seat in this campaign."))
        seat = Seat.objects.create(campaign=campaign, role=Seat.Role.OBSERVER, user=user)
        said = Text("%(user)s watches the campaign from the lobby.", user=user.get_username())
        log(campaign, Event.Kind.SEAT, said, actor=user)
        campaign.bump_version()
        return seat


def _offered_seat(campaign: Campaign, power_id: int) -> Seat:
    """The power's player seat, locked, while the lobby offers it: free in a campaign that
    lists its free seats, or wanting a new player (its power in civil disorder)."""
    seat = _seat_to_give(campaign, power_id)
    if not _wants_new_player(seat) and not campaign.lobby_open:
        raise ServiceError(_("This campaign does not take players from the lobby."))
    return seat


def _seat_to_give(campaign: Campaign, power_id: int) -> Seat:
    """The power's player seat, locked, while it has no player or wants a new one."""
    seat = _player_seat(campaign, power_id)
    return seat if _wants_new_player(seat) else _still_free(seat)


def _wants_new_player(seat: Seat) -> bool:
    return seat.user_id is not None and seat.wants_player


def _player_seat(campaign: Campaign, power_id: int) -> Seat:
    """The power's player seat, locked."""
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("power")
        .filter(campaign=campaign, role=Seat.Role.PLAYER, power_id=power_id)
        .first()
    )
    if seat is None:
        raise ServiceError(_("This campaign has no such seat to offer."))
    return seat


def _still_free(seat: Seat) -> Seat:
    """The seat, while it has no player."""
    if seat.user_id is not None:
        raise Conflict(
            _("%(power)s's seat has already been taken.") % {"power": seat.power.display_name}
        )
    return seat


def _refuse_if_playing(campaign: Campaign, user) -> None:
    """A user who plays or runs the campaign asks for no other seat (a watcher may)."""
    if campaign.seats.filter(user=user).exclude(role=Seat.Role.OBSERVER).exists():
        raise Conflict(_("You already have a seat in this campaign."))


def _stop_watching(campaign: Campaign, user) -> None:
    """A watcher who is given a power's seat gives up their observer seat."""
    campaign.seats.filter(user=user, role=Seat.Role.OBSERVER).delete()


# -- the GM's side ---------------------------------------------------------------------


def set_lobby(
    *,
    campaign_id: int,
    lobby_open: bool,
    lobby_at_once: bool,
    lobby_watch: bool,
    actor,
    watchers_see: str | None = None,
):
    """List the free seats in the lobby (on request, or taken at once) or not, and let
    anyone logged in watch or not; in a game with hidden information, what watchers see
    (``watchers_see``: "" no power's hidden information until the end, or a power's key;
    None: unchanged; campaign/core/watching.py). Each change is logged."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        changes = _lobby_changes(campaign, lobby_open, lobby_at_once and lobby_open, lobby_watch)
        if watchers_see is not None and watchers_see != campaign.watchers_see:
            changes.append(_watchers_change(campaign, watchers_see))
            campaign.watchers_see = watchers_see
        campaign.lobby_open, campaign.lobby_watch = lobby_open, lobby_watch
        campaign.lobby_at_once = lobby_at_once and lobby_open
        campaign.save(update_fields=["lobby_open", "lobby_at_once", "lobby_watch", "watchers_see"])
        for change in changes:
            said = Text(
                "GM %(gm)s sets the lobby: %(change)s.", gm=actor.get_username(), change=change
            )
            log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()


def _lobby_changes(campaign: Campaign, lobby_open: bool, at_once: bool, watch: bool) -> list:
    changes = []
    if (lobby_open, at_once) != (campaign.lobby_open, campaign.lobby_at_once):
        if not lobby_open:
            changes.append(Text("the free seats are no longer listed"))
        elif at_once:
            changes.append(Text("the free seats are listed and taken at once"))
        else:
            changes.append(Text("the free seats are listed, on request to the GM"))
    if watch != campaign.lobby_watch:
        if watch:
            changes.append(Text("anyone logged in may watch"))
        else:
            changes.append(Text("nobody may watch from the lobby"))
    return changes


PLAYER_RULES = ("disorder_after", "replacements_need_gm", "min_on_time")


def set_player_rules(*, campaign_id: int, actor, **rules) -> None:
    """The campaign's missed-orders policy and lowest on-time rate for a seat request
    (``rules``: PLAYER_RULES); each change logged. ServiceError for a value out of its
    range, or an unknown one."""
    unknown = set(rules) - set(PLAYER_RULES)
    if unknown:
        raise ServiceError(_("Unknown setting: %(names)s.") % {"names": ", ".join(unknown)})
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        changed = [name for name, value in rules.items() if value != getattr(campaign, name)]
        for name in changed:
            setattr(campaign, name, rules[name])
        try:
            campaign.clean_fields(
                exclude=[f.name for f in Campaign._meta.fields if f.name not in changed]
            )
        except ValidationError as error:
            raise ServiceError(" ".join(error.messages)) from None
        campaign.save(update_fields=changed)
        for name in changed:
            said = Text(
                "GM %(gm)s sets the players' rules: %(change)s.",
                gm=actor.get_username(),
                change=_player_rule_change(name, rules[name]),
            )
            log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()


def _player_rule_change(name: str, value) -> Text:
    if name == "disorder_after":
        if not value:
            return Text("no power falls into civil disorder for missed deadlines")
        return Text(
            "a power falls into civil disorder after %(missed)s missed deadlines", missed=value
        )
    if name == "replacements_need_gm":
        if value:
            return Text("the GM accepts each replacement")
        return Text("a replacement takes the seat at once")
    if not value:
        return Text("anyone may ask for a seat, whatever their record")
    return Text(
        "a seat request needs orders in on time in %(rate)s%% of the phases owed", rate=value
    )


def _watchers_change(campaign: Campaign, watchers_see: str) -> Text:
    """The change of what watchers see, for the log; refused for a game without hidden
    information or a power not of this campaign."""
    if not campaign.rules.has_secrets:
        raise ServiceError(_("This game hides nothing: watchers see what everyone sees."))
    if not watchers_see:
        return Text("watchers see no power's hidden information until the campaign ends")
    power = campaign.powers.filter(key=watchers_see).first()
    if power is None:
        raise ServiceError(_("This campaign has no such power."))
    return Text("watchers see what %(power)s's player sees", power=power.display_name)


def answer_request(*, campaign_id: int, request_id: int, accept: bool, actor) -> SeatRequest:
    """Accept a request (the user takes the power's seat, and the other requests for it
    are refused) or refuse it."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        asked = (
            SeatRequest.objects.select_for_update(of=("self",))
            .select_related("power", "user")
            .filter(campaign=campaign, pk=request_id)
            .first()
        )
        if asked is None:
            raise ServiceError(_("This campaign has no such request."))
        if asked.status != PENDING:
            raise Conflict(_("This request has already been answered."))
        answered = [asked]
        if accept:
            answered += _seat_requester(campaign, asked, actor)
        now = timezone.now()
        for each in answered:
            each.answered_at = now
        asked.status = SeatRequest.Status.ACCEPTED if accept else SeatRequest.Status.REFUSED
        SeatRequest.objects.bulk_update(answered, ["status", "answered_at"])
        for each in answered:
            _mail_answer(campaign, each)
        return asked


def _seat_requester(campaign: Campaign, asked: SeatRequest, actor) -> list[SeatRequest]:
    """Give the requester the power's seat; the other requests for it, now refused."""
    seat = _seat_to_give(campaign, asked.power_id)
    _stop_watching(campaign, asked.user)
    assign_seat(seat=seat, user=asked.user, actor=actor)
    others = list(
        campaign.seat_requests.select_for_update(of=("self",))
        .select_related("power", "user")
        .filter(power=asked.power, status=PENDING)
        .exclude(pk=asked.pk)
    )
    for other in others:
        other.status = SeatRequest.Status.REFUSED
    return others


# -- mail ------------------------------------------------------------------------------


def _mail(user, campaign: Campaign, write: Callable[[], outgoing.Letter]) -> None:
    """Mail ``user`` (if they gave an address and want the lobby's mail from the campaign)
    once the transaction commits, written by ``write`` in their language."""
    if not user or not user.email or not MailChoice.of(user.pk, campaign.pk).wants(MailKind.LOBBY):
        return
    transaction.on_commit(
        lambda: outgoing.send(user, write, campaign=campaign, kind=MailKind.LOBBY)
    )


def _url(name: str, campaign: Campaign) -> str:
    return outgoing.site_url(reverse(name, args=[campaign.pk]))


def _mail_gm(campaign: Campaign, asked: SeatRequest) -> None:
    """Mail every GM of the campaign the request to answer."""
    gms = campaign.seats.filter(role=Seat.Role.GM, user__isnull=False).select_related("user")

    def write() -> outgoing.Letter:
        names = {"user": asked.user.get_username(), "power": asked.power.display_name}
        subject = _("[%(campaign)s] %(user)s asks to play %(power)s") % {
            **names,
            "campaign": campaign.name,
        }
        body = _("%(user)s asks for %(power)s's seat: accept or refuse on your dashboard.")
        return outgoing.Letter(
            subject, [body % names], link=f"{_url('campaign:gm', campaign)}#lobby"
        )

    for gm in gms:
        _mail(gm.user, campaign, write)


def _mail_answer(campaign: Campaign, asked: SeatRequest) -> None:
    def write() -> outgoing.Letter:
        names = {"campaign": campaign.name, "power": asked.power.display_name}
        if asked.status == SeatRequest.Status.ACCEPTED:
            subject = _("[%(campaign)s] You play %(power)s") % names
            body = _("The GM accepted your request: you play %(power)s.") % names
            return outgoing.Letter(subject, [body], link=_url("campaign:detail", campaign))
        subject = _("[%(campaign)s] Your request for %(power)s") % names
        body = _("The GM did not give you %(power)s's seat.") % names
        link = outgoing.site_url(reverse("campaign:lobby"))
        return outgoing.Letter(subject, [body], link=link)

    _mail(asked.user, campaign, write)
