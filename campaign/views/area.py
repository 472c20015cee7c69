"""An area's panel: what the seat may see of it, and the orders of the open phase that
concern it. HTMX swaps it into the campaign page's side column; otherwise it is a page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from campaign import presenters
from campaign.play.area_orders import concerning
from campaign.play.services import seat_for
from campaign.selectors.pages import area_cells
from campaign.views.context import CampaignState, load_state
from rules.translation import Name

TEMPLATE = "campaign/area_panel.html"


@login_required
@require_safe
def area(request, campaign_id: int, key: str):
    state = load_state(seat_for(request.user, campaign_id))
    template = f"{TEMPLATE}#panel" if request.htmx else TEMPLATE
    return render(request, template, area_context(state, key))


def area_context(state: CampaignState, key: str) -> dict:
    """The area's row (as the map shows it to this seat), its table cells by column, its
    neighbours and the orders that concern it; 404 for a key the campaign has not."""
    areas = area_cells(state.campaign)
    if key not in areas:
        raise Http404("No such area.")
    presenter = state.presenter
    marks = presenter.area_marks(state.world, state.viewer) if presenter else {}
    row = presenters.area_row(areas[key], {p.pk: p for p in state.powers}, marks.get(key))
    neighbours = sorted(  # by their names in the reader's language
        (str(Name(areas[near]["name"])), near)
        for near in state.world.adjacency.get(key, ())
        if near in areas
    )
    return {
        "seat": state.seat,
        "campaign": state.campaign,
        "spec": state.spec,
        "row": row,
        "cells": list(zip(presenter.columns if presenter else (), row.cells, strict=False)),
        "neighbours": neighbours,
        "orders": concerning(state, key),
    }
