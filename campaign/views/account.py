"""A user's own preferences: language, mail address, time zone, which mail they receive;
and the password reset, throttled."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from campaign.forms import ProfileForm, RecipientsPasswordResetForm
from campaign.middleware import remember_language, remember_time_zone
from campaign.models import Profile
from courier.proxy import client_address

RESET_WINDOW = 60 * 60  # seconds: PASSWORD_RESET_LIMIT requests in an hour


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request):
    profile, _ = Profile.objects.get_or_create(user=request.user)
    form = ProfileForm(
        request.POST or None, instance=profile, initial={"email": request.user.email}
    )
    if request.method == "POST" and form.is_valid():
        form.save()
        request.user.email = form.cleaned_data["email"]
        request.user.save(update_fields=["email"])
        remember_time_zone(request, profile.time_zone)
        remember_language(request, profile.language)
        messages.success(request, gettext("Preferences saved."))
        return redirect("campaign:preferences")
    status = 422 if form.is_bound else 200
    return render(request, "campaign/preferences.html", {"form": form}, status=status)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, throttled so that it cannot flood a mailbox or our mail
    server: each client address, and each e-mail address, may ask
    settings.PASSWORD_RESET_LIMIT times an hour; past that, a 429 page and no mail. The
    mail is in its recipient's language and names the site as its other mail does."""

    form_class = RecipientsPasswordResetForm
    extra_email_context = {"site_name": "Courier"}

    def post(self, request, *args, **kwargs):
        email = request.POST.get("email", "").strip().lower()
        keys = [f"address:{client_address(request)}"] + ([f"email:{email}"] if email else [])
        over = [_over_reset_limit(key) for key in keys]  # count every key, then decide
        if any(over):
            return render(request, "registration/password_reset_throttled.html", status=429)
        return super().post(request, *args, **kwargs)


def _over_reset_limit(key: str) -> bool:
    """Count one more reset request under ``key``; True past the limit of the hour."""
    key = "password-reset:" + hashlib.sha256(key.encode()).hexdigest()
    cache.add(key, 0, timeout=RESET_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # expired or evicted meanwhile
        cache.set(key, count := 1, timeout=RESET_WINDOW)
    return count > settings.PASSWORD_RESET_LIMIT
