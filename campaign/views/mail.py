"""The mail a user receives from a campaign: the settings page, and the one-click
unsubscribe link every mail of a kind carries (RFC 8058: a mail provider POSTs
"List-Unsubscribe=One-Click" to it without logging in; a person who opens it is asked
first)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from campaign.models import MailChoice, MailKind
from campaign.notify.mail_tokens import unsubscribe_target
from campaign.selectors.mail import mail_choice
from campaign.views.access import mailing_campaign, unsubscribing


class MailChoiceForm(forms.ModelForm):
    class Meta:
        model = MailChoice
        fields = ["your_turn", "reminders", "resolved", "press", "lobby"]
        widgets = {"press": forms.RadioSelect}


@login_required
@require_http_methods(["GET", "POST"])
def mail_settings(request, campaign_id: int):
    """Which kinds of mail the campaign sends the user."""
    campaign = mailing_campaign(request.user, campaign_id)
    choice = mail_choice(request.user.pk, campaign.pk)
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
    user, campaign = unsubscribing(user_id, campaign_id)
    context = {"campaign": campaign, "kind": label, "token": token, "done": False}
    if request.method == "POST":
        mail_choice(user.pk, campaign.pk).turn_off(kind)
        context["done"] = True
    return render(request, "campaign/unsubscribe.html", context)
