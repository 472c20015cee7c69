"""The mail a user receives from a campaign: the settings page, and the one-click
unsubscribe link every mail of a kind carries (RFC 8058: a mail provider POSTs
"List-Unsubscribe=One-Click" to it without logging in; a person who opens it is asked
first)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from campaign.mail_tokens import unsubscribe_target
from campaign.models import Campaign, MailChoice, MailKind


class MailChoiceForm(forms.ModelForm):
    class Meta:
        model = MailChoice
        fields = ["your_turn", "reminders", "resolved", "press", "lobby"]
        widgets = {"press": forms.RadioSelect}


def _campaign_of(user, campaign_id: int) -> Campaign:
    """A campaign that mails the user: one he holds a seat in or asked a seat of."""
    mine = Q(seats__user=user) | Q(seat_requests__user=user)
    found = Campaign.objects.filter(mine, pk=campaign_id).distinct().first()
    if found is None:
        raise Http404("You have no seat in this campaign.")
    return found


@login_required
@require_http_methods(["GET", "POST"])
def mail_settings(request, campaign_id: int):
    """Which kinds of mail the campaign sends the user."""
    campaign = _campaign_of(request.user, campaign_id)
    choice = MailChoice.of(request.user.pk, campaign.pk)
    form = MailChoiceForm(request.POST or None, instance=choice)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, gettext("Mail settings saved."))
        return redirect("campaign:mail_settings", campaign.pk)
    status = 422 if form.is_bound else 200
    context = {"form": form, "campaign": campaign}
    return render(request, "campaign/mail_settings.html", context, status=status)


@csrf_exempt  # the mail provider's one-click POST carries no token; the link is signed
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET: ask whether to turn this kind of mail off; POST: turn it off."""
    try:
        user_id, campaign_id, kind = unsubscribe_target(token)
        label = MailKind(kind).label
    except (signing.BadSignature, ValueError):
        return render(request, "campaign/unsubscribe.html", {"invalid": True}, status=400)
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    user = get_object_or_404(get_user_model(), pk=user_id)
    context = {"campaign": campaign, "kind": label, "token": token, "done": False}
    if request.method == "POST":
        MailChoice.of(user.pk, campaign.pk).turn_off(kind)
        context["done"] = True
    return render(request, "campaign/unsubscribe.html", context)
