"""Each user's record, kept by this site as campaigns go on: the phases whose orders they
owed, those they gave in time and those they missed (campaign/play/disorder.py counts them as
a phase resolves), the seats they left and took over (campaign/play/replacements.py), and the
campaigns they played to the end (campaign/play/ending.py). Shown on their profile page,
beside their requests for a seat, and checked against a campaign's lowest on-time rate.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F
from django.utils.translation import gettext as _

from campaign.errors import ServiceError
from campaign.models import Campaign, Reliability

COUNTERS = ("owed", "on_time", "missed", "seats_left", "replaced_in", "finished")


def add(user_ids: Iterable[int | None], *counters: str, by: int = 1) -> None:
    """Add ``by`` (one, or minus one to take back) to each of ``counters`` of every user
    in ``user_ids`` (two queries)."""
    ids = {user_id for user_id in user_ids if user_id is not None}
    if not ids or not counters:
        return
    unknown = set(counters) - set(COUNTERS)
    if unknown:
        raise ValueError(f"no such counter: {sorted(unknown)}")
    Reliability.objects.bulk_create(
        [Reliability(user_id=user_id) for user_id in ids], ignore_conflicts=True
    )
    Reliability.objects.filter(user_id__in=ids).update(
        **{counter: F(counter) + by for counter in counters}
    )


def of(user) -> Reliability:
    """The user's record: the kept one, else an empty one (unsaved)."""
    found = Reliability.objects.filter(user=user).first()
    return found or Reliability(user=user)


def of_users(user_ids: Iterable[int]) -> dict[int, Reliability]:
    """The records of these users by id, an empty one for a user without any (one query)."""
    ids = set(user_ids)
    found = {r.user_id: r for r in Reliability.objects.filter(user_id__in=ids)}
    return {user_id: found.get(user_id) or Reliability(user_id=user_id) for user_id in ids}


def refuse_below_minimum(campaign: Campaign, user) -> None:
    """Refuse a seat request of a user whose orders came in on time less often than the
    campaign asks (Campaign.min_on_time); a user without a record yet is refused too when
    the campaign asks for any rate: they have shown none."""
    if not campaign.min_on_time:
        return
    rate = of(user).on_time_rate
    if rate is None or rate < campaign.min_on_time:
        raise ServiceError(
            _(
                "This campaign asks for orders in on time in at least %(minimum)s%% of the "
                "phases owed; your record shows %(rate)s."
            )
            % {
                "minimum": campaign.min_on_time,
                "rate": _("no phase owed yet") if rate is None else f"{rate}%",
            }
        )
