"""Pages: the campaign list, a new campaign, the campaign page, the rules page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaign.forms import NewCampaignForm
from campaign.models import Seat
from campaign.scenarios import create_campaign
from campaign.services import ServiceError, seat_for
from campaign.views.context import load_state, map_view, page_context
from rules.engine import load, registry, ruleset_for


@login_required
def campaign_list(request):
    seats = Seat.objects.filter(user=request.user).select_related("campaign", "power")
    return render(request, "campaign/list.html", {"seats": seats})


@login_required
@require_http_methods(["GET", "POST"])
def new_campaign(request):
    """Any logged-in user may start a campaign and becomes its GM."""
    form = NewCampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = create_campaign(
                scenario_key=form.cleaned_data["scenario"],
                name=form.cleaned_data["name"],
                gm=request.user,
                dice_mode=form.cleaned_data["dice_mode"],
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"“{campaign.name}” is ready: seat your players.")
            return redirect("campaign:gm", campaign.pk)
    status = 422 if form.is_bound else 200
    return render(request, "campaign/new.html", {"form": form}, status=status)


@login_required
def campaign_detail(request, campaign_id: int):
    state = load_state(seat_for(request.user, campaign_id))
    return render(request, "campaign/detail.html", page_context(state))


@login_required
def question(request, campaign_id: int, topic: str, item_id: int):
    """A ruleset's answer to a question about one thing the seat may see (e.g. "why
    can't I reinforce this block?"), with the areas it concerns highlighted on the map.
    HTMX swaps the answer and, out of band, the map; otherwise the whole page shows it."""
    state = load_state(seat_for(request.user, campaign_id))
    questions = load(state.rules.questions) if state.rules.questions else {}
    if topic not in questions:
        raise Http404("No such question.")
    try:
        answer = questions[topic](state.world, state.viewer, item_id)
    except LookupError:
        raise Http404("Nothing of yours by that number.") from None
    template = f"campaign/{state.campaign.ruleset}/{topic}.html"
    highlighted = {"map": map_view(state, set(answer.get("highlight", ())))}
    if request.htmx:
        context = {
            **answer,
            **highlighted,
            "campaign": state.campaign,
            "ruleset_templates": f"campaign/{state.campaign.ruleset}",
            "oob": True,
        }
        return render(request, template, context)
    context = {**page_context(state), **answer, **highlighted, "question_template": template}
    return render(request, "campaign/detail.html", context)


def rules_page(request, ruleset: str):
    """The procedures (anchors #EIA-1 …), the phases of a turn, and the options."""
    try:
        rules = ruleset_for(ruleset)
    except KeyError:
        raise Http404("No such ruleset.") from None
    return render(request, "campaign/rules.html", {"ruleset": rules, "rulesets": registry()})
