"""The GM puts a power into civil disorder or takes it out (campaign/play/disorder.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaign.play import disorder
from campaign.play.forms import DisorderForm
from campaign.views.access import gm_seat
from campaign.views.context import load_state
from campaign.views.gm import perform


@login_required
@require_POST
def set_disorder(request, campaign_id: int, power_id: int):
    """Into civil disorder (its seat offered to a new player) or out of it."""
    state = load_state(gm_seat(request.user, campaign_id))

    def act(data: dict) -> str:
        power = disorder.set_disorder(
            campaign_id=campaign_id,
            power_id=power_id,
            disorder=data["disorder"],
            actor=request.user,
        )
        names = {"power": power.display_name}
        if power.in_disorder:
            return gettext("%(power)s is in civil disorder: its seat is in the lobby.") % names
        return gettext("%(power)s is no longer in civil disorder.") % names

    return perform(request, state, DisorderForm(request.POST), act, anchor="#seats")
