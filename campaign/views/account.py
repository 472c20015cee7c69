"""A user's own preferences: language, mail address, time zone, which mail they receive."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from campaign.forms import ProfileForm
from campaign.middleware import remember_language, remember_time_zone
from campaign.models import Profile


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
