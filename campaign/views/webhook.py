"""The GM's "Send a test message" button, in the dashboard's schedule section: a test
message in the saved format to the saved webhook URL.

The worker sends it (campaign/notify/delivery.py), so the GM is told it is on its way, not that
it arrived; a failure is logged there. Like the schedule's other controls it goes
through campaign.views.gm.perform and answers in place (``#schedule``); without a saved
URL it is refused, having sent nothing.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaign.notify import notifications
from campaign.views import gm
from campaign.views.access import gm_seat
from campaign.views.context import load_state


@login_required
@require_POST
def send_test(request, campaign_id: int):
    """Hand a test message for the campaign's webhook to the worker."""
    state = load_state(gm_seat(request.user, campaign_id))
    campaign = state.campaign
    return gm.perform(
        request,
        state,
        None,
        lambda _: notifications.send_test_message(campaign),
        gettext(
            "A test message in the %(format)s format is on its way to the webhook: it should "
            "reach the chat within a minute. If it does not, check the URL and the format."
        )
        % {"format": campaign.get_webhook_format_display()},
        anchor="#schedule",
    )
