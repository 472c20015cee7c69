"""The timeline page (any seated user): the ruleset's chart over the turns, drawn as SVG.

A point per turn, from the snapshot of the first phase of the turn that has one (the
state the turn opened with), and a last point from the live state. A fixed number of
queries, whatever the number of phases.
"""

from __future__ import annotations

from functools import partial

from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext

from campaign import timeline
from campaign.models import Campaign, PhaseSnapshot
from campaign.services import seat_for
from campaign.snapshots import decode, read_state
from rules.translation import localized


def turn_openings(campaign: Campaign) -> list[tuple[int, dict]]:
    """(turn, state) as each turn opened, in turn order: one query."""
    earlier = PhaseSnapshot.objects.filter(
        campaign=campaign,
        phase__turn=OuterRef("phase__turn"),
        phase__position__lt=OuterRef("phase__position"),
    )
    rows = (
        PhaseSnapshot.objects.filter(campaign=campaign)
        .filter(~Exists(earlier))
        .order_by("phase__turn")
        .values_list("phase__turn", "state")
    )
    return [(turn, decode(state, campaign.ruleset)) for turn, state in rows]


@login_required
def campaign_timeline(request, campaign_id: int):
    seat = seat_for(request.user, campaign_id)
    campaign = seat.campaign
    rules = campaign.rules
    presenter = rules.hooks.presenter
    if presenter is None:
        raise Http404("This ruleset has no timeline.")
    moments = [
        (localized(rules.turn_label(turn, campaign.setup)), state)
        for turn, state in turn_openings(campaign)
    ]
    moments.append((gettext("Now"), read_state(campaign)))
    powers = list(campaign.powers.all())
    series = timeline.series(moments, partial(presenter.timeline, powers=powers))
    context = {
        "seat": seat,
        "campaign": campaign,
        "title": presenter.TIMELINE_TITLE,
        "caption": presenter.TIMELINE_CAPTION,
        "chart": timeline.chart([label for label, _ in moments], series),
    }
    return render(request, "campaign/timeline.html", context)
