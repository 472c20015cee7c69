"""The calendar feed of deadlines (campaign/people/calendar_feed.py): read by a calendar
application without a login, its secret being the key; made, or given a new secret,
from the preferences page."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from campaign.people import calendar_feed
from campaign.play.envelope_forms import ActionForm
from courier import throttling

WINDOW = 60 * 60  # seconds: one feed is read settings.CALENDAR_RATE_LIMIT times in it
MAKE, ROTATE = "make", "rotate"  # the posted actions: make the feed, give it a new secret


@require_safe
def feed(request, secret: str):
    """The feed as iCalendar text; an unknown secret (or one replaced by a new one) is a
    404 (counting nothing), a feed read too often a 429."""
    found = calendar_feed.feed_of(secret)
    if found is None:
        raise Http404(gettext("No calendar has this address: it may have been given a new one."))
    if throttling.counted(f"calendar:{found.pk}", WINDOW) > settings.CALENDAR_RATE_LIMIT:
        text = gettext(
            "This calendar was read too often from your address: a calendar application "
            "needs it once an hour at most. Try again later."
        )
        response = HttpResponse(text, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(WINDOW)
        return response
    response = HttpResponse(
        calendar_feed.ics(found.user), content_type="text/calendar; charset=utf-8"
    )
    response["Content-Disposition"] = 'inline; filename="courier.ics"'
    response["X-Robots-Tag"] = "noindex"
    patch_cache_control(response, private=True, no_cache=True)
    return response


@login_required
@require_POST
def rotate(request):
    """Make the user's calendar feed (``action`` MAKE: kept if he has one), or give it a
    new secret (ROTATE), so that the old address finds nothing."""
    action = ActionForm(request.POST, actions=(MAKE, ROTATE)).values["action"]
    if action == ROTATE:
        calendar_feed.rotate(request.user)
        messages.success(
            request,
            gettext(
                "Your calendar has a new address: the old one no longer works. Subscribe "
                "to the new one in your calendar application."
            ),
        )
    elif action == MAKE:
        calendar_feed.make(request.user)
        messages.success(
            request,
            gettext(
                "Your calendar address is ready: subscribe to it in your calendar application."
            ),
        )
    else:
        messages.error(request, gettext("Choose to make your calendar address or to replace it."))
    return redirect(reverse("campaign:preferences") + "#calendar")
