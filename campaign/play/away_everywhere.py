"""A player's away period for every campaign at once, set in his preferences
(Profile.away_from, Profile.away_until).

- Saving a period gives it to each seat where the user plays a power in a campaign that
  has not ended, overwriting the period that seat had: each campaign logs it as a period
  set there (campaign/play/scheduling.py set_away). A seat that already has exactly this
  period keeps it as it is: saving the preferences again changes nothing, and a period
  its GM refused stays refused (scheduling.refuse_away, per campaign).
- Ending it ends it in each campaign where the seat still has the preferences' period;
  a period the player set since in one campaign only is his own there and stays.
- A seat taken while the period is to come or under way gets it too (apply_to_seat,
  where a user takes a seat: services.claim_seat, services.assign_seat).

The start and end follow scheduling.check_away; an empty start is this minute (as the
form shows a start), or the start of the period under way, which may be given again
although it has passed: the period goes on, its end moved or kept.

Locks: the profile row alone first (its own transaction), then each campaign in turn
by id, one transaction each. Taking a seat locks its campaign, then the profile row: a
seat taken while a period is saved either reads the new period or is found afterwards.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core.changes import locked_campaign
from campaign.errors import ServiceError
from campaign.models import Campaign, Profile, Seat
from campaign.play import scheduling
from campaign.play.lifecycle import settle

Period = tuple[datetime, datetime]


def current(profile: Profile | None, now: datetime) -> Period | None:
    """The profile's period while it is to come or under way; None without one."""
    if profile is None or profile.away_from is None or profile.away_until is None:
        return None
    if profile.away_until <= now:
        return None
    return profile.away_from, profile.away_until


def _minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


def start_of(profile: Profile | None, start: datetime | None, now: datetime) -> datetime:
    """The start a period given as ``start`` takes: ``start``, else the start of the
    period under way, else this minute."""
    if start is not None:
        return start
    running = current(profile, now)
    if running is not None and running[0] <= now:
        return running[0]
    return _minute(now)


def check_period(
    profile: Profile | None, start: datetime | None, end: datetime, now: datetime
) -> None:
    """ServiceError saying why the period may not be saved: scheduling.check_away,
    except that the start of the period under way may be given again (its end may not
    pass)."""
    start = start_of(profile, start, now)
    running = current(profile, now)
    if running is None or start != running[0]:
        scheduling.check_away(start, end, now)
    elif end <= now:
        raise ServiceError(_("An away period cannot end in the past: end it instead."))
    else:
        scheduling.check_away(start, end, start)


def set_period(*, user, start: datetime | None, end: datetime) -> list[Campaign]:
    """Save the user's away period for every campaign; the campaigns whose seat took it.
    ServiceError for a refused period (nothing changed)."""
    now = timezone.now()
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user=user)
        check_period(profile, start, end, now)
        profile.away_from, profile.away_until = start_of(profile, start, now), end
        profile.save(update_fields=["away_from", "away_until"])
    return _follow_everywhere(user, None)


def end_period(*, user) -> list[Campaign]:
    """The user is back: the period ends in every campaign where it still applies; the
    campaigns where it ended. ServiceError without a period to end."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().filter(user=user).first()
        previous = current(profile, timezone.now())
        if previous is None:
            raise ServiceError(_("You have no away period to end."))
        profile.away_from = profile.away_until = None
        profile.save(update_fields=["away_from", "away_until"])
    return _follow_everywhere(user, previous)


def _follow_everywhere(user, previous: Period | None) -> list[Campaign]:
    """Each campaign where the user plays a power follows his preferences (by id)."""
    ids = (
        Seat.objects.filter(user=user, power__isnull=False, campaign__ended_at__isnull=True)
        .order_by("campaign_id")
        .values_list("campaign_id", flat=True)
    )
    followed = []
    for campaign_id in ids:
        with transaction.atomic():
            campaign = _follow(campaign_id, user, previous)
        if campaign is not None:
            followed.append(campaign)
    return followed


def _follow(campaign_id: int, user, previous: Period | None) -> Campaign | None:
    """The user's seat in the campaign takes the preferences' period as it now stands
    (read under the campaign's lock), or loses ``previous`` once it is gone; the campaign
    if its seat changed."""
    campaign = locked_campaign(campaign_id)
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("power")
        .filter(campaign=campaign, user=user, power__isnull=False)
        .first()
    )
    if seat is None or campaign.ended_at is not None:
        return None
    now = timezone.now()
    period = current(Profile.objects.filter(user=user).first(), now)
    held = (seat.away_from, seat.away_until)
    if period is not None and held != period:
        scheduling.begin_away(campaign, seat, *period, user, now)
    elif period is None and previous is not None and held == previous:
        scheduling.back(campaign, seat, user)
    else:
        return None
    campaign.bump_version()
    if seat.away_noticed:
        settle(campaign)
    return campaign


def apply_to_seat(campaign: Campaign, seat: Seat) -> None:
    """A user has just taken ``seat`` (the campaign locked, in the caller's transaction,
    which bumps the campaign's version and settles it): it gets his preferences' away
    period if one is to come or under way."""
    if seat.user_id is None or seat.power_id is None:
        return
    now = timezone.now()
    profile = Profile.objects.select_for_update().filter(user_id=seat.user_id).first()
    period = current(profile, now)
    if period is not None:
        scheduling.begin_away(campaign, seat, *period, seat.user, now)


def from_preferences(seat: Seat) -> bool:
    """Whether the seat's away period is its player's period for every campaign."""
    if seat.away_from is None or seat.user_id is None:
        return False
    period = Profile.objects.filter(user_id=seat.user_id).values_list("away_from", "away_until")
    return period.first() == (seat.away_from, seat.away_until)
