"""A campaign's GMs: co-GMs, handing the campaign over, and GMs who have gone quiet.

- **Co-GMs.** A campaign may have several GM seats, each with the same rights: a GM adds
  a user by name (one without a player seat here; a watcher's observer seat goes), or
  opens a GM seat whose invitation link they hand out (services.claim_seat takes it,
  through campaign.views.gm_team.join). A GM removes a co-GM, closes an open GM seat or
  leaves, never leaving the campaign without a GM. Every change is logged with who made
  it. One GM at a time may also play a power (services.gm_plays), and the whole team's
  reading of the open phase's orders is sealed by that power's (campaign/core/sealing.py).
- **Handover.** A GM offers the campaign to a user (not a GM or a player of it); the
  offer is mailed with a link (``Handover.token``) by which that user, logged in,
  accepts or declines. Accepting gives them the offering GM's seat: the offering GM
  leaves the campaign. A GM who plays a power offers nothing, and an offer is not
  accepted while they play one: the power stays with the campaign, never goes with
  the seat (they stop playing it first, which seals its orders: services.gm_plays).
  Every GM may withdraw the offer waiting for an answer; there is one at a time.
- **Quiet GMs.** A campaign under way whose GMs have all done nothing in it for longer
  than the site allows (settings.GM_INACTIVE_DAYS) says so to its players and
  observers, and each player may ask the site's admins, once, for a new GM
  (NewGmRequest, mailed to the staff users with an address; the admins make a user GM
  in the admin's seats of the campaign, or with ``add_gm``). What a GM did is what the
  log says they did (its lines with them as actor) or taking their seat, whichever is
  later, and never before the campaign started: visiting the pages is no action.

Each change runs in one transaction that first locks the campaign (campaign/core/changes.py),
so a handover and a resolution of the open phase happen one after the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core.changes import locked_campaign, log
from campaign.errors import Conflict, ServiceError
from campaign.models import Campaign, Event, Handover, NewGmRequest, Phase, Seat
from campaign.notify import outgoing
from rules.text import Text

PENDING = Handover.Status.PENDING


# -- what the dashboard shows ------------------------------------------------------------


@dataclass(frozen=True)
class Team:
    """The GM team as the dashboard shows it: the GMs (their seats, each with its user
    and the power it plays), the open GM seats with their invitation links, and the
    offer of the campaign waiting for an answer (to whom, since when), if any."""

    gms: list[Seat]
    open_seats: list[tuple[Seat, str]]
    offered_to: str | None = None
    offered_at: datetime | None = None

    @property
    def playing(self) -> Seat | None:
        """The GM seat that plays a power, if one does."""
        return next((gm for gm in self.gms if gm.power_id is not None), None)


def with_offer(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """The seats (of one campaign, with their user and power), each with the offer of
    the campaign waiting for an answer: ``offered_to`` (a user name) and ``offered_at``
    (None without one). The dashboard reads its seats table and its GM team from them
    in one query."""
    offer = Handover.objects.filter(campaign=OuterRef("campaign_id"), status=PENDING)
    return seats.annotate(
        offered_to=Subquery(offer.values("to_user__username")[:1]),
        offered_at=Subquery(offer.values("created_at")[:1]),
    )


def team_of(seats: list[Seat], link: Callable[[str], str]) -> Team:
    """The GM team among a campaign's seats (read ``with_offer``); ``link`` makes an
    invitation's path a link to hand out."""
    gms = sorted((s for s in seats if s.is_gm), key=lambda s: (s.created_at, s.pk))
    return Team(
        gms=[s for s in gms if s.user_id is not None],
        open_seats=[(s, link(invitation_path(s))) for s in gms if s.user_id is None],
        offered_to=gms[0].offered_to if gms else None,
        offered_at=gms[0].offered_at if gms else None,
    )


def invitation_path(seat: Seat) -> str:
    """The path of an open GM seat's invitation link."""
    return reverse("campaign:gm_join", args=[seat.campaign_id, seat.invite_token])


def offered_seat(campaign_id: int, token: str) -> Seat | None:
    """The GM seat of the campaign an invitation link names (taken or not), or None."""
    seats = Seat.objects.select_related("campaign").filter(role=Seat.Role.GM)
    return seats.filter(campaign_id=campaign_id, invite_token=token).first()


# -- co-GMs ------------------------------------------------------------------------------


def add_gm(*, campaign_id: int, user, actor) -> Seat:
    """Make ``user`` a GM of the campaign: a new GM seat of their own."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        _refuse_seated(campaign, user)
        _stop_watching(campaign, user)
        seat = Seat.objects.create(campaign=campaign, role=Seat.Role.GM, user=user)
        said = Text(
            "GM %(gm)s makes %(user)s a GM of the campaign.",
            gm=actor.get_username(),
            user=user.get_username(),
        )
        log(campaign, Event.Kind.SEAT, said, actor=actor)
        campaign.bump_version()
        _mail_new_gm(campaign, user, actor)
        return seat


def open_gm_seat(*, campaign_id: int, actor) -> Seat:
    """A new GM seat, to hand out by its invitation link."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        seat = Seat.objects.create(campaign=campaign, role=Seat.Role.GM)
        said = Text("GM %(gm)s opens a GM seat.", gm=actor.get_username())
        log(campaign, Event.Kind.SEAT, said, actor=actor)
        campaign.bump_version()
        return seat


def remove_gm(*, campaign_id: int, seat_id: int, actor) -> Seat:
    """Remove a GM seat: a co-GM's, the acting GM's own (they leave), or an open one. The
    campaign keeps at least one GM; a GM who plays a power, or whose offer of the
    campaign waits for an answer, is removed once that is over."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        seat = (
            Seat.objects.select_for_update(of=("self",))
            .select_related("user", "power")
            .filter(campaign=campaign, role=Seat.Role.GM, pk=seat_id)
            .first()
        )
        if seat is None:
            raise ServiceError(_("This campaign has no such GM seat."))
        if seat.user_id is not None:
            _refuse_removing(campaign, seat)
            _leaves_having_read(campaign)
        seat.delete()
        log(campaign, Event.Kind.SEAT, _removed_text(seat, actor), actor=actor)
        campaign.bump_version()
        return seat


def _leaves_having_read(campaign: Campaign) -> None:
    """A GM leaves the campaign while a phase is open: they may have read every order of
    it, so nobody is seated as a power that acts in it until it is resolved, as when a GM
    stops playing (campaign/core/sealing.py gm_has_read): the account could be seated next."""
    if campaign.phase_id is not None:
        Phase.objects.filter(pk=campaign.phase_id).update(gm_stopped_playing=True)


def _refuse_removing(campaign: Campaign, seat: Seat) -> None:
    name = seat.user.get_username()
    if seat.power_id is not None:
        raise ServiceError(
            _("%(user)s plays %(power)s: they stop playing it first.")
            % {"user": name, "power": seat.power.display_name}
        )
    others = campaign.seats.filter(role=Seat.Role.GM, user__isnull=False).exclude(pk=seat.pk)
    if not others.exists():
        raise ServiceError(
            _(
                "A campaign keeps at least one GM: make another user a GM first, or hand "
                "the campaign over."
            )
        )
    if campaign.handovers.filter(status=PENDING, from_user=seat.user).exists():
        raise Conflict(
            _("%(user)s has offered the campaign to another user: withdraw that offer first.")
            % {"user": name}
        )


def _removed_text(seat: Seat, actor) -> Text:
    gm = actor.get_username()
    if seat.user_id is None:
        return Text("GM %(gm)s closes an open GM seat.", gm=gm)
    if seat.user_id == actor.pk:
        return Text("GM %(gm)s is no longer a GM of the campaign.", gm=gm)
    user = seat.user.get_username()
    return Text("GM %(gm)s removes %(user)s from the campaign's GMs.", gm=gm, user=user)


def _refuse_seated(campaign: Campaign, user) -> None:
    """A user who is a GM or a player of the campaign is refused (a watcher is not)."""
    seat = campaign.seats.filter(user=user).exclude(role=Seat.Role.OBSERVER)
    seat = seat.select_related("power").first()
    if seat is None:
        return
    name = user.get_username()
    if seat.is_gm:
        raise ServiceError(_("%(user)s is already a GM of this campaign.") % {"user": name})
    raise ServiceError(
        _("%(user)s plays %(power)s in this campaign: a player cannot also be its GM.")
        % {"user": name, "power": seat.power.display_name}
    )


def _stop_watching(campaign: Campaign, user) -> None:
    """A watcher who becomes a GM gives up their observer seat."""
    campaign.seats.filter(user=user, role=Seat.Role.OBSERVER).delete()


# -- handover ----------------------------------------------------------------------------


def offer_handover(*, campaign_id: int, user, actor) -> Handover:
    """The acting GM offers the campaign (their GM seat) to ``user``, who is mailed the
    link to answer."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        seat = _own_gm_seat(campaign, actor)
        if seat.power_id is not None:
            raise ServiceError(
                _(
                    "You play %(power)s: stop playing it first. The campaign is handed over "
                    "without a power."
                )
                % {"power": seat.power.display_name}
            )
        _refuse_seated(campaign, user)
        waiting = campaign.handovers.filter(status=PENDING).select_related("to_user").first()
        if waiting is not None:
            raise Conflict(
                _("The campaign is already offered to %(user)s: withdraw that offer first.")
                % {"user": waiting.to_user.get_username()}
            )
        offer = Handover.objects.create(campaign=campaign, from_user=actor, to_user=user)
        said = Text(
            "GM %(gm)s offers the campaign to %(user)s.",
            gm=actor.get_username(),
            user=user.get_username(),
        )
        log(campaign, Event.Kind.SEAT, said, actor=actor)
        campaign.bump_version()
        _mail_offer(campaign, offer)
        return offer


def withdraw_handover(*, campaign_id: int, actor) -> Handover:
    """A GM withdraws the offer of the campaign waiting for an answer: its link no longer
    does anything."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        offer = (
            campaign.handovers.select_for_update(of=("self",))
            .select_related("to_user")
            .filter(status=PENDING)
            .first()
        )
        if offer is None:
            raise Conflict(_("No offer of the campaign waits for an answer."))
        _answered(offer, Handover.Status.WITHDRAWN)
        said = Text(
            "GM %(gm)s withdraws the offer of the campaign to %(user)s.",
            gm=actor.get_username(),
            user=offer.to_user.get_username(),
        )
        log(campaign, Event.Kind.SEAT, said, actor=actor)
        campaign.bump_version()
        return offer


def offer_for(token: str, user) -> Handover | None:
    """The offer a handover link names, if it is ``user``'s (answered or not); None for
    any other link or user."""
    if not getattr(user, "is_authenticated", False):
        return None
    offers = Handover.objects.select_related("campaign", "from_user", "to_user")
    return offers.filter(token=token, to_user=user).first()


def answer_handover(*, token: str, user, accept: bool) -> Handover:
    """The invited user accepts the offer (they take the offering GM's seat, and the
    offering GM leaves the campaign) or declines it. A link that is not theirs, or an
    offer already answered or withdrawn, is refused and nothing changes."""
    offer = offer_for(token, user)
    if offer is None:
        raise ServiceError(_("This link offers you nothing."))
    with transaction.atomic():
        campaign = locked_campaign(offer.campaign_id)
        offer = (
            Handover.objects.select_for_update(of=("self",))
            .select_related("from_user", "to_user")
            .get(pk=offer.pk)
        )
        if offer.status != PENDING:
            raise Conflict(
                _("This offer is no longer open (%(status)s): nothing was changed.")
                % {"status": offer.get_status_display()}
            )
        if accept:
            _accept(campaign, offer)
        else:
            _answered(offer, Handover.Status.DECLINED)
            said = Text(
                "%(user)s declines the campaign offered by GM %(gm)s.",
                user=user.get_username(),
                gm=_name(offer.from_user),
            )
            log(campaign, Event.Kind.SEAT, said, actor=user)
        campaign.bump_version()
        _mail_answer(campaign, offer)
        return offer


def _accept(campaign: Campaign, offer: Handover) -> None:
    """The invited user takes the offering GM's seat."""
    user, gm = offer.to_user, offer.from_user
    seat = _gm_seat_of(campaign, gm)
    if seat is None:
        raise Conflict(
            _("%(gm)s is no longer a GM of this campaign: the offer has lapsed.")
            % {"gm": _name(gm)}
        )
    if seat.power_id is not None:
        raise Conflict(
            _("%(gm)s plays %(power)s now: the campaign is handed over once they stop playing it.")
            % {"gm": _name(gm), "power": seat.power.display_name}
        )
    _refuse_seated(campaign, user)
    _stop_watching(campaign, user)
    _leaves_having_read(campaign)
    seat.user, seat.user_placeholder = user, ""
    seat.save(update_fields=["user", "user_placeholder"])
    _answered(offer, Handover.Status.ACCEPTED)
    said = Text(
        "%(user)s takes over the campaign from GM %(gm)s, who leaves it.",
        user=user.get_username(),
        gm=_name(gm),
    )
    log(campaign, Event.Kind.SEAT, said, actor=user)


def _answered(offer: Handover, status: str) -> None:
    offer.status, offer.answered_at = status, timezone.now()
    offer.save(update_fields=["status", "answered_at"])


def _own_gm_seat(campaign: Campaign, actor) -> Seat:
    seat = _gm_seat_of(campaign, actor)
    if seat is None:
        raise ServiceError(_("Only a GM of this campaign hands it over."))
    return seat


def _gm_seat_of(campaign: Campaign, user) -> Seat | None:
    """``user``'s GM seat in the campaign, locked (None for no user, or no GM seat)."""
    if user is None:
        return None
    seats = Seat.objects.select_for_update(of=("self",)).select_related("power")
    return seats.filter(campaign=campaign, role=Seat.Role.GM, user=user).first()


def _name(user) -> str:
    return user.get_username() if user is not None else _("a former user")


# -- quiet GMs ---------------------------------------------------------------------------


def last_gm_action(campaign: Campaign) -> datetime | None:
    """When a GM of the campaign last acted in it: their newest line of its log, or the
    moment they took their seat if later; None without a GM. Kept in the cache for the
    campaign's version (a GM's act and a change of seats bump it): one query when the
    cache has not got it, none when it has."""
    key = f"courier:gm-acted:{campaign.pk}:{campaign.version}"
    (acted,) = cache.get_or_set(key, lambda: (_last_gm_action(campaign),), timeout=24 * 3600)
    return acted


def _last_gm_action(campaign: Campaign) -> datetime | None:
    newest = Event.objects.filter(campaign=campaign, actor=OuterRef("user")).order_by("-pk")
    rows = (
        Seat.objects.filter(campaign=campaign, role=Seat.Role.GM, user__isnull=False)
        .annotate(acted=Subquery(newest.values("created_at")[:1]))
        .values_list("created_at", "acted")
    )
    return max((moment for row in rows for moment in row if moment is not None), default=None)


def quiet_since(campaign: Campaign, now: datetime | None = None) -> datetime | None:
    """For a campaign under way (started, not ended) whose GMs have all done nothing in
    it for longer than the site allows (settings.GM_INACTIVE_DAYS): since when. None
    for any other campaign."""
    if campaign.started_at is None or campaign.ended_at is not None:
        return None
    last = max(filter(None, [last_gm_action(campaign), campaign.started_at]))
    allowed = timedelta(days=settings.GM_INACTIVE_DAYS)
    return last if (now or timezone.now()) - last > allowed else None


@dataclass(frozen=True)
class Quiet:
    """What a campaign page says of its quiet GMs: since when, and whether the reader
    (a player) may ask for a new GM or has asked."""

    since: datetime
    may_ask: bool
    asked: bool


def quiet_for(seat: Seat) -> Quiet | None:
    """The quiet-GM notice for a player's or observer's seat; None while the GMs act, and
    for a GM (one query, two when the GMs are quiet)."""
    if seat.is_gm:
        return None
    since = quiet_since(seat.campaign)
    if since is None:
        return None
    asked = NewGmRequest.objects.filter(campaign_id=seat.campaign_id, user_id=seat.user_id)
    return Quiet(since, seat.power_id is not None, asked.exists())


def ask_for_new_gm(*, campaign_id: int, user) -> NewGmRequest:
    """A player of a campaign whose GMs are quiet asks the site's admins for a new GM
    (once): logged, and mailed to the staff users with an address."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        seat = campaign.seats.filter(user=user, role=Seat.Role.PLAYER).first()
        if seat is None:
            raise ServiceError(_("Only a player of this campaign asks for a new GM."))
        since = quiet_since(campaign)
        if since is None:
            raise ServiceError(_("The GMs of this campaign have acted lately: ask them first."))
        if NewGmRequest.objects.filter(campaign=campaign, user=user).exists():
            raise Conflict(_("You have already asked the site's admins for a new GM."))
        asked = NewGmRequest.objects.create(campaign=campaign, user=user)
        said = Text("%(user)s asks the site's admins for a new GM.", user=user.get_username())
        log(campaign, Event.Kind.SEAT, said, actor=user)
        campaign.bump_version(state=False)
        _mail_admins(campaign, user, since)
        return asked


# -- mail --------------------------------------------------------------------------------


def _send(user, campaign: Campaign, write: Callable[[], outgoing.Letter]) -> None:
    """Mail ``user`` (a mail nobody turns off: it is about their place in the campaign)
    once the transaction commits, written in their language."""
    if user is not None and user.email:
        transaction.on_commit(lambda: outgoing.send(user, write, campaign=campaign))


def _url(name: str, *args) -> str:
    return outgoing.site_url(reverse(name, args=args))


def _mail_new_gm(campaign: Campaign, user, actor) -> None:
    def write() -> outgoing.Letter:
        names = {"campaign": campaign.name, "gm": actor.get_username()}
        return outgoing.Letter(
            _("[%(campaign)s] You are a GM") % names,
            [_("GM %(gm)s made you a GM of %(campaign)s.") % names],
            link=_url("campaign:gm", campaign.pk),
        )

    _send(user, campaign, write)


def _mail_offer(campaign: Campaign, offer: Handover) -> None:
    def write() -> outgoing.Letter:
        names = {"campaign": campaign.name, "gm": offer.from_user.get_username()}
        return outgoing.Letter(
            _("[%(campaign)s] %(gm)s offers you the campaign") % names,
            [
                _(
                    "%(gm)s, a GM of %(campaign)s, offers to hand the campaign over to you: "
                    "you would take their seat as its GM, and they would leave it. Accept "
                    "or decline by the link below."
                )
                % names
            ],
            link=_url("campaign:handover", offer.token),
        )

    _send(offer.to_user, campaign, write)


def _mail_answer(campaign: Campaign, offer: Handover) -> None:
    def write() -> outgoing.Letter:
        names = {"campaign": campaign.name, "user": offer.to_user.get_username()}
        if offer.status == Handover.Status.ACCEPTED:
            return outgoing.Letter(
                _("[%(campaign)s] %(user)s took over the campaign") % names,
                [_("%(user)s accepted your offer: they run %(campaign)s in your place.") % names],
                link=_url("campaign:list"),
            )
        return outgoing.Letter(
            _("[%(campaign)s] %(user)s declined the campaign") % names,
            [_("%(user)s declined your offer: you remain a GM of %(campaign)s.") % names],
            link=_url("campaign:gm", campaign.pk),
        )

    _send(offer.from_user, campaign, write)


def _mail_admins(campaign: Campaign, user, since: datetime) -> None:
    """Tell every staff user with an address (the site's admins)."""
    link = _url("admin:campaign_newgmrequest_changelist")

    def write() -> outgoing.Letter:
        names = {
            "campaign": campaign.name,
            "user": user.get_username(),
            "since": outgoing.moment(since),
        }
        return outgoing.Letter(
            _("[%(campaign)s] A player asks for a new GM") % names,
            [
                _(
                    "%(user)s, a player of %(campaign)s, asks for a new GM: its GMs have not "
                    "acted there since %(since)s. Make a user its GM in the admin (the "
                    "campaign's seats), or ask its GMs to."
                )
                % names
            ],
            link=link,
        )

    staff = get_user_model().objects.filter(is_staff=True, is_active=True).exclude(email="")
    for admin in staff:
        _send(admin, campaign, write)
