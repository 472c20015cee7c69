"""The map as a file to download (any seated user): SVG, as the page draws it now or as
it was once a past phase had resolved, within the seat's own hidden-information limits.
The page turns it into PNG in the browser (static/courier/map-download.js). The map
panel, which the campaign page and the dashboard load after the page, and the map's
areas as a table, loaded when the reader opens it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaign import presenters
from campaign.models import Campaign, Phase
from campaign.play.services import seat_for
from campaign.query_forms import MapKeyForm
from campaign.selectors.history import campaign_phases
from campaign.state import history
from campaign.views.context import (
    CHOOSE,
    answerable_highlight,
    load_state,
    map_context,
    map_view,
    signed_map,
)
from campaign.views.history import past_view
from rules.translation import localized

# The page's colours, which the file carries with the map's own style sheet.
VARIABLES = (
    "svg.map { --ink: #1f2328; --accent: #7a2e1f; --error: #a4161a; --radius: 0; "
    "font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }\n"
)


@cache
def map_css(styles: tuple[str, ...] = ()) -> str:
    """The map's style sheet (static/courier/map.css), then the game's ``styles`` (its
    pieces'), to embed in a downloaded map."""
    paths = ("courier/map.css", *styles)
    return VARIABLES + "".join(Path(finders.find(p)).read_text(encoding="utf-8") for p in paths)


@login_required
def current_map(request, campaign_id: int):
    """The map as the campaign page shows it to this seat now."""
    state = load_state(seat_for(request.user, campaign_id))
    return svg_file(state.campaign, map_view(state), state.campaign.turn)


# A map panel's URL names one version of the campaign: the browser may keep it that long.
MAP_MAX_AGE = 24 * 3600


@login_required
@require_GET
def map_panel(request, campaign_id: int):
    """The map panel as this seat sees it, which the campaign page and the dashboard load
    with HTMX after the page: from the cache as the page's signed ``?k=`` names it, else
    drawn from the state as it now is. Without HTMX: the map's own page."""
    seat = seat_for(request.user, campaign_id)
    if not request.htmx:
        return redirect("campaign:area_table", campaign_id)
    asked = signed_map(MapKeyForm(request.GET).values["k"], seat)
    html = (
        caches["default"].get(make_template_fragment_key("courier_map", [asked[0]]))
        if asked
        else None
    )
    if html is not None:
        response = HttpResponse(html)
    else:
        state = load_state(seat)
        if asked:
            highlight, kind = asked[1], asked[2]
        else:
            highlight, kind = answerable_highlight(state.decision_form()), CHOOSE
        context = {
            "campaign": state.campaign,
            "ruleset_templates": presenters.templates_of(state.rules),
            **map_context(state, highlight, kind),
        }
        response = render(request, "campaign/map.html#map_cached", context)
    patch_cache_control(response, private=True, max_age=MAP_MAX_AGE)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_GET
def area_table(request, campaign_id: int):
    """The map's areas as a table, as this seat sees them now: with HTMX the table alone
    (the campaign page and the dashboard load it when it is opened), otherwise the map's
    own page (the map, and the table beneath it), for a browser without JavaScript."""
    state = load_state(seat_for(request.user, campaign_id))
    highlight = answerable_highlight(state.decision_form())
    context = {
        "campaign": state.campaign,
        "ruleset_templates": presenters.templates_of(state.rules),
        **map_context(state, highlight),
    }
    if request.htmx:
        return render(request, "campaign/map.html#map_table_cached", context)
    page = {"ruleset_styles": presenters.styles_of(state.rules), "map_table_url": None}
    return render(request, "campaign/area_table.html", {**context, **page})


@login_required
def phase_map(request, campaign_id: int, phase_id: int):
    """The map as it was once the phase ``phase_id`` had resolved, with its orders."""
    seat = seat_for(request.user, campaign_id)
    campaign = seat.campaign
    phases = campaign_phases(campaign)
    index = next((i for i, p in enumerate(phases) if p.pk == phase_id), None)
    if index is None or phases[index].status != Phase.Status.RESOLVED:
        raise Http404("No resolved phase of this campaign by that number.")
    phase, following = phases[index], next(iter(phases[index + 1 :]), None)
    phase.campaign = campaign
    past = history.past_state(phase, following)
    then = history.at_turn(campaign, past.turn)
    shown = past_view(seat, then, phase, past)
    if shown.map is None:
        raise Http404("No map was kept for this phase.")
    return svg_file(then, shown.map, past.turn)


def svg_file(campaign: Campaign, view: presenters.MapView, turn: int) -> HttpResponse:
    """The map as a standalone SVG file, named after the campaign and the turn."""
    context = {
        "map": view,
        "campaign": campaign,
        "standalone": True,
        "map_css": map_css(presenters.styles_of(campaign.rules)),
        "ruleset_templates": presenters.templates_of(campaign.rules),
    }
    response = HttpResponse(
        render_to_string("campaign/map_download.svg", context), content_type="image/svg+xml"
    )
    label = localized(campaign.rules.turn_label(turn, campaign.setup))
    name = slugify(f"{campaign.name} {label}") or "map"
    response["Content-Disposition"] = f'attachment; filename="{name}.svg"'
    return response
