"""Deadline extensions: a time bank each power's player draws on.

Each power has ``Campaign.extensions_per_year`` extensions per campaign year
(``Ruleset.year_of`` of the open phase's turn; 0: none). Its player (or the GM who plays
it) takes one with one click before the open phase's deadline: the deadline moves
``Campaign.extension_hours`` later for everyone, the log says so and every seated user
with an address is mailed. The players' extensions never move one phase's deadline more
than ``Campaign.extension_cap_hours`` in all (the GM's own moves are not counted): where
fewer hours than an extension's are left under the cap, the extension adds what is left
(and counts as one); where none are left, it is refused.

The page a player clicks on says which deadline it showed (``seen_deadline``): once the
deadline has moved (another extension, the GM), the click is refused with the new one,
so a double click never spends two extensions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaign.core.changes import locked_campaign, log, moment_text
from campaign.errors import CampaignEnded, Conflict, ServiceError, reason_for
from campaign.models import Campaign, Event, Extension, MailKind, Phase, Power, Seat
from campaign.notify import notifications, outgoing
from rules.text import Plural, Text

RULE_FIELDS = ("extensions_per_year", "extension_hours", "extension_cap_hours")


@dataclass(frozen=True)
class Budget:
    """A power's extensions of the campaign year: taken and left."""

    power: Power
    used: int
    left: int


@dataclass(frozen=True)
class Offer:
    """What the open phase offers a power's player: ``hours`` one extension adds now (0:
    the cap is reached), ``left`` of the ``per_year`` extensions of the year."""

    phase: Phase
    hours: int
    left: int
    per_year: int
    cap: int

    @property
    def seen(self) -> str:
        """The deadline as the page shows it, sent back with the click."""
        return self.phase.deadline.isoformat()


def year_of(campaign: Campaign, turn: int) -> int:
    """The campaign year of ``turn``, whose budget an extension counts in."""
    return campaign.rules.year_of(turn, campaign.setup)


def budgets(campaign: Campaign) -> list[Budget]:
    """Each power's extensions of the current campaign year (one query)."""
    year = year_of(campaign, campaign.turn)
    taken = Count("extensions", filter=Q(extensions__year=year))
    powers = campaign.powers.annotate(used=taken).order_by("sort", "name")
    per_year = campaign.extensions_per_year
    return [Budget(power, power.used, max(per_year - power.used, 0)) for power in powers]


def offer(seat: Seat) -> Offer | None:
    """What the seat's page offers: None unless it plays a power and an extension may be
    taken of the open phase now (one query), else the hours and extensions left."""
    campaign, phase = seat.campaign, seat.campaign.phase
    if seat.power_id is None or not campaign.extensions_per_year:
        return None
    if reason_for(_check_extendable, campaign, phase, timezone.now()) is not None:
        return None
    used, given = _spent(campaign, seat.power_id, phase)
    return Offer(
        phase=phase,
        hours=_hours(campaign, given),
        left=max(campaign.extensions_per_year - used, 0),
        per_year=campaign.extensions_per_year,
        cap=campaign.extension_cap_hours,
    )


# -- taking one ------------------------------------------------------------------------


def take_extension(*, seat: Seat, phase_id: int, seen_deadline: datetime, actor) -> Extension:
    """The seat's power takes one extension of the open phase ``phase_id``, whose
    deadline its page showed as ``seen_deadline``; refused with the reason otherwise."""
    with transaction.atomic():
        campaign = locked_campaign(seat.campaign_id)
        power = _own_power(campaign, seat, actor)
        if not campaign.extensions_per_year:
            raise ServiceError(_("This campaign takes no deadline extensions."))
        phase = campaign.phase
        if phase is None or phase.pk != phase_id:
            raise Conflict(_("That phase is no longer open: nothing was changed."))
        _check_extendable(campaign, phase, timezone.now())
        if phase.deadline != seen_deadline:
            raise Conflict(
                _("The deadline has moved meanwhile: it is now %(deadline)s. Nothing was changed.")
                % {"deadline": outgoing.moment(phase.deadline)}
            )
        used, given = _spent(campaign, power.pk, phase)
        _refuse_past_budget(campaign, power, used)
        hours = _hours(campaign, given)
        if hours == 0:
            raise ServiceError(
                _(
                    "The players' extensions have already moved this deadline by %(cap)s h, "
                    "the most the GM allows: no hours are left under the cap."
                )
                % {"cap": campaign.extension_cap_hours}
            )
        return _extend(campaign, phase, power, hours, actor)


def _own_power(campaign: Campaign, seat: Seat, actor) -> Power:
    """The power the actor plays from this seat, as it now stands."""
    mine = (
        Seat.objects.select_related("power")
        .filter(pk=seat.pk, campaign=campaign, user=actor, power__isnull=False)
        .first()
    )
    if mine is None:
        raise ServiceError(_("Only a power's player takes an extension of the deadline."))
    return mine.power


def _check_extendable(campaign: Campaign, phase: Phase | None, now: datetime) -> None:
    """ServiceError saying why the open phase's deadline cannot be extended now."""
    if campaign.ended_at is not None:
        raise CampaignEnded(_("This campaign has ended: its deadlines no longer move."))
    if campaign.started_at is None or phase is None:
        raise ServiceError(_("The campaign has not started: no deadline runs yet."))
    if phase.status == Phase.Status.WAITING:
        raise Conflict(
            _(
                "The phase is being resolved (it waits for a decision): its deadline no "
                "longer applies."
            )
        )
    if campaign.paused_at is not None or phase.paused_remaining is not None:
        raise ServiceError(
            _("The deadline is paused: it cannot be extended until the GM resumes it.")
        )
    if phase.deadline is None:
        raise ServiceError(_("This phase has no deadline to extend: the GM closes it."))
    if phase.deadline <= now:
        raise ServiceError(_("The deadline has passed: it can no longer be extended."))


def _spent(campaign: Campaign, power_id: int, phase: Phase) -> tuple[int, int]:
    """The power's extensions of the phase's year, and the hours every power's
    extensions added to this phase (one query)."""
    year = year_of(campaign, phase.turn)
    spent = Extension.objects.filter(campaign=campaign).aggregate(
        used=Count("pk", filter=Q(power_id=power_id, year=year)),
        given=Sum("hours", filter=Q(phase=phase)),
    )
    return spent["used"], spent["given"] or 0


def _hours(campaign: Campaign, given: int) -> int:
    """What one extension adds to a phase the players' extensions moved by ``given``
    hours: the campaign's hours, or what is left under the cap."""
    return max(min(campaign.extension_hours, campaign.extension_cap_hours - given), 0)


def _refuse_past_budget(campaign: Campaign, power: Power, used: int) -> None:
    per_year = campaign.extensions_per_year
    if used >= per_year:
        raise ServiceError(
            ngettext(
                "%(power)s has taken its %(count)s extension of this year.",
                "%(power)s has taken its %(count)s extensions of this year.",
                per_year,
            )
            % {"power": power.display_name, "count": per_year}
        )


def _extend(campaign: Campaign, phase: Phase, power: Power, hours: int, actor) -> Extension:
    phase.deadline += timedelta(hours=hours)
    phase.save(update_fields=["deadline"])
    extension = Extension.objects.create(
        campaign=campaign,
        phase=phase,
        power=power,
        user=actor,
        year=year_of(campaign, phase.turn),
        hours=hours,
    )
    said = Text(
        "%(power)s takes an extension of %(hours)s h: the deadline is now %(when)s.",
        power=power.display_name,
        hours=hours,
        when=moment_text(phase.deadline),
    )
    log(campaign, Event.Kind.SEAT, said, actor=actor, power=power)
    campaign.bump_version()
    transaction.on_commit(lambda: _mail_everyone(campaign, phase, power, hours))
    return extension


def _mail_everyone(campaign: Campaign, phase: Phase, power: Power, hours: int) -> None:
    """Tell every seated user with an address who wants the phase's news (the kind of
    mail that told them the deadline as the phase opened) of the new deadline."""
    spec = campaign.rules.phase(phase.key)

    def write() -> outgoing.Letter:
        names = {"campaign": campaign.name, "power": power.display_name, "phase": spec.name}
        said = _(
            "%(power)s took an extension: %(phase)s now closes at %(deadline)s, %(hours)s h later."
        )
        return outgoing.Letter(
            subject=_("[%(campaign)s] %(power)s extended the deadline of %(phase)s") % names,
            paragraphs=[
                said % {**names, "deadline": outgoing.moment(phase.deadline), "hours": hours}
            ],
            link=notifications.campaign_link(campaign),
        )

    for seat in notifications.readers(campaign, MailKind.YOUR_TURN):
        outgoing.send(seat.user, write, campaign=campaign, kind=MailKind.YOUR_TURN)


# -- the GM's rules --------------------------------------------------------------------


def check_rules(chosen: dict[str, int]) -> None:
    """ServiceError saying why the rules ``chosen`` (by field of RULE_FIELDS) may not be
    set: each in its field's range, and the cap on one phase at least one extension."""
    for name in RULE_FIELDS:
        field = Campaign._meta.get_field(name)
        try:
            field.run_validators(chosen[name])
        except ValidationError as error:
            raise ServiceError(f"{field.verbose_name}: {' '.join(error.messages)}") from None
    check_cap(chosen["extension_hours"], chosen["extension_cap_hours"])


def check_cap(extension_hours: int, extension_cap_hours: int) -> None:
    """ServiceError when the cap on one phase is fewer hours than one extension's."""
    if extension_cap_hours < extension_hours:
        raise ServiceError(
            _(
                "The most hours extensions add to one phase (%(cap)s) cannot be fewer than "
                "one extension's (%(hours)s)."
            )
            % {"cap": extension_cap_hours, "hours": extension_hours}
        )


def set_extension_rules(
    *,
    campaign_id: int,
    extensions_per_year: int,
    extension_hours: int,
    extension_cap_hours: int,
    actor,
) -> None:
    """How many extensions each power has per year, the hours of each, and the most
    hours they add to one phase; each change is logged."""
    chosen = {
        "extensions_per_year": extensions_per_year,
        "extension_hours": extension_hours,
        "extension_cap_hours": extension_cap_hours,
    }
    check_rules(chosen)
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        changed = [name for name, value in chosen.items() if getattr(campaign, name) != value]
        for name in changed:
            setattr(campaign, name, chosen[name])
        campaign.save(update_fields=changed)
        for name in changed:
            said = Text(
                "The GM sets the deadline extensions: %(change)s.",
                change=_change(name, chosen[name]),
            )
            log(campaign, Event.Kind.GM, said, actor=actor)
        campaign.bump_version()


def _change(name: str, value: int) -> Text:
    if name == "extension_hours":
        return Text("each extension adds %(hours)s h", hours=value)
    if name == "extension_cap_hours":
        return Text("the extensions move a phase's deadline by %(hours)s h at most", hours=value)
    if value == 0:
        return Text("the players take no extensions")
    return Plural(
        "%(count)s extension per power and year",
        "%(count)s extensions per power and year",
        count=value,
    )
