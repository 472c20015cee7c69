"""How every change to a campaign is made: inside one transaction that first locks the
campaign row, so two GMs pressing "resolve" at once resolve the phase exactly once and
an error half-way leaves the campaign as it was; refused once the campaign has ended;
and written to the campaign log.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.errors import CampaignEnded, ServiceError, StaleState
from campaign.models import Campaign, Event, Phase
from rules.text import Text, message_of


def log(
    campaign: Campaign,
    kind: str,
    text: str,
    *,
    actor=None,
    power=None,
    rule: str = "",
    phase: Phase | None = None,
) -> Event:
    """Write one line to the campaign log."""
    return Event.objects.create(
        campaign=campaign,
        phase_id=phase.pk if phase is not None else campaign.phase_id,
        turn=campaign.turn,
        kind=kind,
        rule=rule,
        text=text,
        message=message_of(text),
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        power=power,
    )


def locked_campaign(campaign_id: int) -> Campaign:
    """The campaign row, locked until the end of the current transaction (FOR NO KEY
    UPDATE: changes to one campaign wait for each other, while rows that merely refer to
    it, such as a log line, can still be written)."""
    try:
        return Campaign.objects.select_for_update(no_key=True).get(pk=campaign_id)
    except Campaign.DoesNotExist:
        raise ServiceError(_("This campaign does not exist.")) from None


@contextmanager
def expecting_state(campaign_id: int, state_version: int) -> Iterator[Campaign]:
    """Run a GM action only while the campaign's state is the one the GM's page showed
    (``state_version``). The campaign row stays locked until the action is done, so of
    two identical posts the second finds the version the first one bumped, and is
    refused having changed nothing."""
    with transaction.atomic():
        campaign = locked_campaign(campaign_id)
        if campaign.state_version != state_version:
            raise StaleState(
                _(
                    "The campaign changed after this page was loaded (another change, or "
                    "the same one sent twice): nothing was done. Check the page as it is "
                    "now and try again."
                )
            )
        yield campaign


def refuse_if_ended(campaign: Campaign) -> None:
    """An ended campaign opens no further phase and takes no orders (campaign/play/ending.py)."""
    if campaign.ended_at is not None:
        raise CampaignEnded(
            _("This campaign has ended: it takes no more orders and resolves no more phases.")
        )


# A moment of the log, one sentence a month: each language says the month in the form a
# date takes ("5 Ιανουαρίου", "5 января"), which a month's name alone does not give
_DATES = {
    1: lambda **at: Text("%(day)s January %(year)s, %(time)s UTC", **at),
    2: lambda **at: Text("%(day)s February %(year)s, %(time)s UTC", **at),
    3: lambda **at: Text("%(day)s March %(year)s, %(time)s UTC", **at),
    4: lambda **at: Text("%(day)s April %(year)s, %(time)s UTC", **at),
    5: lambda **at: Text("%(day)s May %(year)s, %(time)s UTC", **at),
    6: lambda **at: Text("%(day)s June %(year)s, %(time)s UTC", **at),
    7: lambda **at: Text("%(day)s July %(year)s, %(time)s UTC", **at),
    8: lambda **at: Text("%(day)s August %(year)s, %(time)s UTC", **at),
    9: lambda **at: Text("%(day)s September %(year)s, %(time)s UTC", **at),
    10: lambda **at: Text("%(day)s October %(year)s, %(time)s UTC", **at),
    11: lambda **at: Text("%(day)s November %(year)s, %(time)s UTC", **at),
    12: lambda **at: Text("%(day)s December %(year)s, %(time)s UTC", **at),
}


def moment_text(moment: datetime) -> Text:
    """A moment as the log says it: "13 January 2026, 19:00 UTC", in each reader's
    language."""
    at = moment.astimezone(UTC)
    return _DATES[at.month](day=at.day, year=at.year, time=f"{at:%H:%M}")
