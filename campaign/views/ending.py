"""The GM ends the campaign (campaign/play/ending.py): a POST from the GM dashboard."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from campaign.play.ending import end_campaign
from campaign.views.access import gm_seat
from campaign.views.context import load_state
from campaign.views.gm import perform

OUT_OF_DATE = gettext_lazy("This form is out of date: reload the page and try again.")


class EndForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy("Yes, end the campaign for good"),
        error_messages={"required": gettext_lazy("Tick the box to confirm the end.")},
    )
    state_version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        max_value=2**31 - 1,
        error_messages={"required": OUT_OF_DATE, "invalid": OUT_OF_DATE},
    )


@login_required
@require_POST
def end(request, campaign_id: int):
    state = load_state(gm_seat(request.user, campaign_id))
    form = EndForm(request.POST)

    def end_it(data: dict) -> object:
        return end_campaign(
            campaign_id=campaign_id,
            expected_state_version=data["state_version"],
            actor=request.user,
        )

    success = gettext(
        "The campaign has ended: it takes no more orders, and its secret is revealed so that "
        "everyone can check the hidden draws."
    )
    return perform(request, state, form, end_it, success, anchor="#phase")
