"""The GM's download of the whole campaign as a JSON archive (campaign/records/archive.py).

The archive holds every power's hidden state and every order, so only the campaign's GM
may download it: players and observers get 403, anyone else 404. A GM who also plays gets
the other powers' orders for the open phase only once their own are sealed."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from campaign.records.archive import archive_filename, dumps, export_campaign
from campaign.views.access import gm_seat


@login_required
@require_GET
def export(request, campaign_id: int):
    seat = gm_seat(request.user, campaign_id)
    campaign = seat.campaign
    archive = export_campaign(campaign, reader=seat)
    response = HttpResponse(dumps(archive), content_type="application/json")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=archive_filename(campaign)
    )
    response["Cache-Control"] = "no-store, private"  # hidden information: keep no copy
    return response
