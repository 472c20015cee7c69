"""The timeline page (any seated user): the ruleset's chart over the turns, drawn as SVG.

A point per turn, from the snapshot of the first phase of the turn that has one (the
state the turn opened with), and a last point from the live state. A fixed number of
queries, whatever the number of phases.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext

from campaign.play.services import seat_for
from campaign.records import timeline
from campaign.selectors.timeline import campaign_powers, turn_openings
from campaign.state.snapshots import read_state
from rules.translation import localized


@login_required
def campaign_timeline(request, campaign_id: int):
    seat = seat_for(request.user, campaign_id)
    campaign = seat.campaign
    rules = campaign.rules
    presenter = rules.hooks.presenter
    if presenter is None or presenter.timeline is None:
        raise Http404("This ruleset has no timeline.")
    reading = presenter.timeline
    moments = [
        (localized(rules.turn_label(turn, campaign.setup)), state)
        for turn, state in turn_openings(campaign)
    ]
    moments.append((gettext("Now"), read_state(campaign)))
    powers = campaign_powers(campaign)
    series = timeline.series(moments, lambda state: reading(state, powers))
    context = {
        "seat": seat,
        "campaign": campaign,
        "title": presenter.timeline_title,
        "caption": presenter.timeline_caption,
        "chart": timeline.chart([label for label, _ in moments], series),
    }
    return render(request, "campaign/timeline.html", context)
