"""The devices a user receives notices on: turned on from a browser (static/courier/push.js
posts its subscription), tried with a test notice, removed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaign.errors import ServiceError
from campaign.notify import push
from campaign.notify.push_forms import PushSubscriptionForm
from campaign.views import refusals
from campaign.views.access import own_device


def _devices():
    return redirect(reverse("campaign:preferences") + "#devices")


@login_required
@require_POST
def subscribe(request):
    """Keep this browser's subscription for the signed-in user."""
    if not push.enabled():
        messages.error(request, gettext("This site sends no notices."))
        return _devices()
    form = PushSubscriptionForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
        return _devices()
    device = push.device_label(request.headers.get("User-Agent", ""))
    subscription = push.subscribe(request.user, device=device, **form.cleaned_data)
    request.session[push.SESSION_DEVICE] = subscription.pk
    messages.success(request, gettext("Notices are on for this device."))
    return _devices()


@login_required
@require_POST
def test_notice(request, device_id: int):
    """Push a test notice to one of the user's devices."""
    device = own_device(request.user, device_id)
    try:
        push.try_device(device)
    except ServiceError as refusal:
        return refusals.back(request, refusal, _devices())
    messages.success(
        request,
        gettext("A test notice is on its way to %(device)s.")
        % {"device": device.device or gettext("this device")},
    )
    return _devices()


@login_required
@require_POST
def remove(request, device_id: int):
    """Stop the notices to one of the user's devices."""
    device = own_device(request.user, device_id)
    device.delete()
    messages.success(request, gettext("That device receives no more notices."))
    return _devices()
