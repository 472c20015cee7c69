"""The GM's edits of the state the rules leave to him, on the dashboard: a panel's forms
loaded when it is opened, a long list's item on demand, and the edit itself, which with
HTMX answers in place (the panel, and out of band what the edit changed) and otherwise
goes back to the dashboard with a message."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from campaign.errors import Conflict, ServiceError
from campaign.play import gm_orders
from campaign.play.envelope_forms import EditRowForm
from campaign.query_forms import EditItemForm
from campaign.views.access import gm_seat
from campaign.views.context import CampaignState, load_state, map_look
from campaign.views.edit_panels import edit_forms, edited_row, opened_panel
from campaign.views.gm import (
    GM_PAGE,
    act,
    answer_change,
    dashboard_context,
    moved_on,
    perform,
    shown_after,
    state_context,
)
from rules.forms import row_auto_id, row_item
from rules.translation import localized


@login_required
@require_POST
def edit(request, campaign_id: int, key: str):
    """One edit of the state the rules do not automate; logged with who and when."""
    state = load_state(gm_seat(request.user, campaign_id))
    form_class = edit_forms(state).get(key)
    if form_class is None:
        raise Http404("No such edit.")
    row = EditRowForm(
        request.POST, field=form_class.row_field, items=lambda: form_class.items(state.world)
    )
    form = form_class(request.POST, world=state.world, auto_id=row_auto_id(form_class, row.item))
    prefix = gettext("%(edit)s: ") % {"edit": form_class.title}

    def make(_) -> str:
        said = gm_orders.apply_edit(form, form.data, seat=state.seat, actor=request.user)
        return localized(said) + "."

    if request.htmx:
        return edit_in_place(request, state, key, form, make, prefix)
    return perform(request, state, form, make, refusal_prefix=prefix, anchor=f"#edit-{key}")


def edit_in_place(request, state: CampaignState, key: str, form, make, prefix: str):
    """An edit sent by the dashboard's HTMX form: its panel again, saying what was done,
    and out of band what the edit changes (the map if any area looks different, the
    state panels, who owes orders, the log's new lines, the state version every form
    carries); only the edited row's form, in its place, where the edit changed nothing
    else of the panel (``edited_row``). A refusal answers the whole panel with the reason
    and the state as it now is (the input kept where it was refused), having changed
    nothing."""
    drawn = map_look(state)  # the map as the GM's page shows it now
    try:
        outcome = act(request, state, form, make, prefix)
        shown, bound = load_state(gm_seat(request.user, state.campaign.pk)), None
        row = None if moved_on(state, shown) else edited_row(state, shown, key, form)
    except ServiceError as error:
        outcome, shown = error, shown_after(request, state, error)
        bound, row = (None if isinstance(error, Conflict) else form), None

    def context() -> dict:
        return {
            **state_context(shown),
            "panel": row or opened_panel(shown, key, type(form), row_item(form), prefilled=bound),
            # a refusal may meet a page out of date: its map is sent again with the state
            "map_changed": isinstance(outcome, ServiceError) or map_look(shown) != drawn,
        }

    answer = answer_change(request, state, shown, outcome, f"{GM_PAGE}#edit_done", context)
    if row is None:
        return answer
    return reswap(retarget(answer, f"#{row['form'].element_id}"), "outerHTML")


@login_required
@require_GET
def edit_panel(request, campaign_id: int, key: str):
    """One kind of edit's forms, loaded when the GM opens its panel: with HTMX the
    panel's body alone, otherwise the dashboard with that panel open."""
    state = load_state(gm_seat(request.user, campaign_id))
    form_class = edit_forms(state).get(key)
    if form_class is None:
        raise Http404("No such edit.")
    if not request.htmx:
        return render(request, GM_PAGE, dashboard_context(request, state, (key, "")))
    context = {"campaign": state.campaign, "panel": opened_panel(state, key, form_class)}
    return render(request, f"{GM_PAGE}#edit_panel_body", context)


@login_required
@require_GET
def edit_item(request, campaign_id: int, key: str):
    """The form of the item picked in a long edit list (``?item=``), prefilled: with HTMX
    the form alone, otherwise the dashboard with that form open."""
    state = load_state(gm_seat(request.user, campaign_id))
    form_class = edit_forms(state).get(key)
    if form_class is None:
        raise Http404("No such edit.")
    item = EditItemForm(request.GET).values["item"]
    form = form_class.instance(state.world, item) if item else None
    if form is None:
        raise Http404("Nothing to edit by that name: reload the page.")
    if not request.htmx:
        context = dashboard_context(request, state, opened=(key, item))
        return render(request, GM_PAGE, context)
    panel = {"key": key, "submit_label": form_class.submit_label}
    context = {"campaign": state.campaign, "panel": panel, "form": form}
    return render(request, f"{GM_PAGE}#edit_form", context)
