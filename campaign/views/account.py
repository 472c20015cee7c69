"""A user's own preferences: language, mail address (confirmed by a link before mail goes
to it), time zone, which mail they receive, an away period for every campaign; the link
that confirms an address; and the password reset, which answers every request alike and
leaves the mail to the worker."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from campaign.api import tokens as api_tokens
from campaign.errors import ServiceError
from campaign.middleware import remember_language, remember_time_zone
from campaign.models import Profile
from campaign.notify import push
from campaign.people import account_mail, calendar_feed, personal_data
from campaign.people.forms import ProfileForm, RecipientsPasswordResetForm
from campaign.play import away_everywhere
from campaign.play.envelope_forms import ActionForm
from campaign.play.forms import AwayEverywhereForm
from campaign.selectors.account import campaigns_of, profile_of
from campaign.views import refusals
from courier.proxy import client_address


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request):
    profile = profile_of(request.user)
    shown = profile.unconfirmed_email or request.user.email
    form = ProfileForm(request.POST or None, instance=profile, initial={"email": shown})
    if request.method == "POST" and form.is_valid():
        form.save()
        _change_address(request, profile, form.cleaned_data["email"])
        remember_time_zone(request, profile.time_zone)
        remember_language(request, profile.language)
        messages.success(request, gettext("Preferences saved."))
        return redirect("campaign:preferences")
    status = 422 if form.is_bound else 200
    return _page(request, profile, form, AwayEverywhereForm(profile=profile), status)


def _page(request, profile: Profile, form, away_form, status: int, delete_form=None):
    """The preferences page with its forms (``delete_form``: the deletion sent, if it
    was refused)."""
    context = {
        "form": form,
        "profile": profile,
        "campaigns": campaigns_of(request.user),
        "away_form": away_form,
        "away": away_everywhere.current(profile, timezone.now()),
        **push.account_context(request.user),
        **calendar_feed.account_context(request.user),
        **api_tokens.account_context(request.user),
        **personal_data.account_context(request.user, delete_form),
    }
    return render(request, "campaign/preferences.html", context, status=status)


BACK = "back"  # the posted action that ends the away period


@login_required
@require_POST
def away(request):
    """The away period of every campaign the user plays in: saved, or (``action`` BACK)
    ended."""
    profile = profile_of(request.user)
    form = AwayEverywhereForm(request.POST, profile=profile)
    try:
        if ActionForm(request.POST, actions=(BACK,)).values["action"] == BACK:
            away_everywhere.end_period(user=request.user)
            messages.success(request, gettext("Welcome back: your powers owe orders again."))
            return redirect("campaign:preferences")
        if form.is_valid():
            start, end = form.cleaned_data["start"], form.cleaned_data["end"]
            away_everywhere.set_period(user=request.user, start=start, end=end)
            messages.success(
                request,
                gettext(
                    "Away period saved: it applies to every campaign you play in, and to "
                    "each seat you take while it lasts."
                ),
            )
            return redirect("campaign:preferences")
    except ServiceError as error:
        return _away_refused(request, profile, form, refusals.into_form(form, error))
    return _away_refused(request, profile, form, refusals.REFUSED)


def _away_refused(request, profile: Profile, form: AwayEverywhereForm, status: int):
    """The preferences page with the away form's errors, having changed nothing."""
    messages.error(request, gettext("Your away period was not saved."))
    shown = profile.unconfirmed_email or request.user.email
    preferences_form = ProfileForm(instance=profile, initial={"email": shown})
    return _page(request, profile, preferences_form, form, status)


def deletion_refused(request, delete_form, status: int):
    """The preferences page with the refused deletion's form and its errors, having
    changed nothing (campaign/views/personal_data.py)."""
    profile = profile_of(request.user)
    shown = profile.unconfirmed_email or request.user.email
    form = ProfileForm(instance=profile, initial={"email": shown})
    away_form = AwayEverywhereForm(profile=profile)
    return _page(request, profile, form, away_form, status, delete_form=delete_form)


def _change_address(request, profile: Profile, address: str) -> None:
    """No address: no mail at all. The current one: kept, any other waiting dropped.
    Another: it waits for the link mailed to it, mail still going to the current one."""
    user = request.user
    if not address or address.casefold() == user.email.casefold():
        if not address and user.email:
            user.email = ""
            user.save(update_fields=["email"])
        if profile.unconfirmed_email:
            profile.unconfirmed_email = ""
            profile.save(update_fields=["unconfirmed_email"])
        return
    account_mail.ask_confirmation(user, address)
    messages.info(
        request,
        gettext(
            "Courier has mailed a link to %(address)s: it writes to that address once you "
            "follow it."
        )
        % {"address": address},
    )


@require_http_methods(["GET", "POST"])
def confirm_email(request, token: str):
    """The link mailed to an address: GET shows what it confirms, POST confirms it (a
    mail reader that fetches the link confirms nothing). It works once."""
    try:
        user, address = account_mail.waiting(token)
        if request.method == "POST":
            account_mail.confirm(token)
    except account_mail.ConfirmationRefused as refusal:
        context = {"refusal": str(refusal)}
        status = refusals.status_of(refusal)
        return render(request, "registration/confirm_email.html", context, status=status)
    context = {"account": user, "address": address, "confirmed": request.method == "POST"}
    return render(request, "registration/confirm_email.html", context)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, whose page answers every valid request alike: the same
    page, as fast, whether an account has the address or not and whether a mail is sent
    or not. The mail, if any, is written and sent by the worker; each address gets at
    most one every account_mail.PERIOD, and each client may cause
    settings.PASSWORD_RESET_LIMIT of them an hour (account_mail.ask_password_reset)."""

    form_class = RecipientsPasswordResetForm

    def form_valid(self, form):
        account_mail.ask_password_reset(form.cleaned_data["email"], client_address(self.request))
        return HttpResponseRedirect(self.get_success_url())
