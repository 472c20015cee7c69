"""Ending a campaign: the GM closes it for good.

An ended campaign opens no further phase and takes no orders (changes.refuse_if_ended);
its open phase loses its deadline, so the clock leaves it alone. Its secret, which
ordered the hidden draws and whose SHA-256 was published from the start, is revealed in
the log and on the verify pages, so that anyone can check every draw (campaign/records/verify.py).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core.changes import locked_campaign, log
from campaign.errors import Conflict, ServiceError
from campaign.models import Campaign, Event, Phase, Tenure
from campaign.play import reliability, tenures
from rules.text import Text


def end_campaign(*, campaign_id: int, expected_state_version: int, actor) -> Campaign:
    """End the campaign (see the module docstring). Refused, with nothing changed, when
    the campaign's state is no longer the one the GM's page showed (Conflict), when it
    has already ended (Conflict), or has not started."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        if campaign.ended_at is not None:
            raise Conflict(_("This campaign has already ended."))
        if campaign.state_version != expected_state_version:
            raise Conflict(
                _(
                    "The campaign changed after this page was loaded: it was not ended. Check "
                    "the page as it is now and try again."
                )
            )
        if campaign.phase_id is None:
            raise ServiceError(_("This campaign has not started: there is nothing to end."))
        campaign.ended_at = timezone.now()
        campaign.save(update_fields=["ended_at"])
        finished = tenures.end_all(campaign, Tenure.Ended.FINISHED)
        reliability.add(finished, "finished")
        Phase.objects.filter(pk=campaign.phase_id).update(deadline=None, paused_remaining=None)
        text = Text(
            "GM %(gm)s ends the campaign. Its secret, which ordered the hidden draws, is "
            "%(secret)s (its SHA-256, published when the campaign started: %(hash)s): each "
            "phase's verify page now checks its draws.",
            gm=actor.get_username(),
            secret=campaign.secret,
            hash=campaign.secret_hash,
        )
        log(campaign, Event.Kind.GM, text, actor=actor)
        campaign.bump_version()
        return campaign
