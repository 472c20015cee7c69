"""A user's own data (campaign/people/personal_data.py): the download of everything Courier
holds about him, the deletion of his account from the preferences page, and the privacy
page that says what Courier keeps, why, and what a deletion removes."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from campaign.errors import ServiceError
from campaign.people import personal_data
from campaign.people.forms import DeleteAccountForm
from campaign.views import account, refusals


@login_required
@require_GET
def download(request):
    """Everything Courier holds about the user, as one JSON file."""
    response = JsonResponse(
        personal_data.export(request.user),
        encoder=DjangoJSONEncoder,
        json_dumps_params={"indent": 2, "ensure_ascii": False},
    )
    name = personal_data.filename(request.user)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store, private"
    return response


@login_required
@require_POST
def delete_account(request):
    """Delete the user's account, confirmed by his password: every session of his ends
    and the privacy page says what was kept. Refused (nothing changed) with a wrong
    password, or while he is a GM of a campaign that has not ended."""
    form = DeleteAccountForm(request.POST, user=request.user)
    status = refusals.REFUSED
    if form.is_valid():
        try:
            personal_data.delete_account(
                user=request.user, erase_press=form.cleaned_data["erase_press"]
            )
        except ServiceError as error:
            status = refusals.into_form(form, error)
        else:
            logout(request)
            messages.success(
                request,
                gettext(
                    "Your account has been deleted. Below is what Courier keeps of the "
                    "campaigns you played, and why."
                ),
            )
            return redirect("campaign:privacy")
    messages.error(request, gettext("Your account was not deleted."))
    return account.deletion_refused(request, form, status)


@require_GET
def privacy(request):
    """What Courier keeps about its users, why, and what deleting an account removes (and,
    where the site reports its errors to Sentry, what that sends)."""
    return render(request, "campaign/privacy.html", {"reports_errors": bool(settings.SENTRY_DSN)})
