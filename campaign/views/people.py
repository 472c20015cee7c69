"""A user's profile page: the record this site keeps of them (Reliability: the phases
they owed, their orders in on time, the deadlines they missed, the seats they left and
took over, the campaigns they finished) and the campaigns they play or run that the
reader may know of. Any logged-in user reads it.

A campaign shows there only where the reader has a seat too (its log already names who
took which seat) or when the lobby lists it (its name and the user's role, not which
power they play): nothing of a campaign the reader could not find otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.models import Campaign, Power, Reliability
from campaign.people import lobby
from campaign.selectors.people import played_seats, record_of, seated_campaign_ids
from campaign.views.access import active_person


@dataclass(frozen=True)
class Played:
    """A campaign the user plays or runs, as the reader may know it: ``power`` only
    where the reader has a seat (``sits``)."""

    campaign: Campaign
    gm: bool
    player: bool
    power: Power | None
    sits: bool


@login_required
@require_GET
def profile(request, username: str):
    person = active_person(username)
    record = record_of(person)
    context = {
        "person": person,
        "record": record,
        "counts": record or Reliability(user=person),
        "played": known_campaigns(person, request.user),
        "own": person.pk == request.user.pk,
    }
    return render(request, "campaign/profile.html", context)


def known_campaigns(person, reader) -> list[Played]:
    """The campaigns ``person`` plays a power in or runs, by name, that ``reader`` sits
    in or finds in the lobby."""
    seats = played_seats(person)
    sits = seated_campaign_ids(reader)
    listed = lobby.listed_among(
        [seat.campaign_id for seat in seats if seat.campaign_id not in sits]
    )
    return [
        Played(
            seat.campaign,
            seat.is_gm,
            seat.power_id is not None,
            seat.power if seat.campaign_id in sits else None,
            seat.campaign_id in sits,
        )
        for seat in seats
        if seat.campaign_id in sits or seat.campaign_id in listed
    ]
