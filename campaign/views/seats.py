"""Joining by invitation link, and signing up so an invited player can join."""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from campaign.models import Seat
from campaign.services import ServiceError, claim_seat

INVITE_TOKEN = re.compile(r"[-\w]{1,64}", re.ASCII)  # secrets.token_urlsafe's alphabet


@login_required
@require_http_methods(["GET", "POST"])
def join(request, token: str):
    """Show the seat an invitation offers; POST takes it."""
    if not INVITE_TOKEN.fullmatch(token):  # never issued; a NUL byte is a database error
        raise Http404("This invitation link is not valid.")
    offered = Seat.objects.select_related("campaign", "power", "user").filter(invite_token=token)
    seat = offered.first()
    if seat is None or seat.is_gm:
        raise Http404("This invitation link is not valid.")
    if request.method == "GET":
        return render(request, "campaign/join.html", {"seat": seat, "token": token})
    try:
        claim_seat(token=token, user=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
        return render(request, "campaign/join.html", {"seat": seat, "token": token}, status=409)
    messages.success(
        request, gettext("Welcome to %(campaign)s.") % {"campaign": seat.campaign.name}
    )
    return redirect("campaign:detail", seat.campaign_id)


def _next_url(request) -> str:
    """The `next` URL when it stays on this site (as LoginView checks it), else ""."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return ""


def _save_new_user(form: UserCreationForm):
    """The new user, or None (with the form's error) when the name was taken meanwhile:
    another sign-up with the same name saved between this form's check and its save."""
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        user = form.instance
        form.add_error("username", user.unique_error_message(type(user), ["username"]))
        return None


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account, log in, and continue where the invitation pointed."""
    next_url = _next_url(request)
    # a URL as given, never a URL name: `next` may be any relative address ("home")
    onward = next_url or resolve_url(settings.LOGIN_REDIRECT_URL)
    if request.user.is_authenticated:
        return HttpResponseRedirect(onward)
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and (user := _save_new_user(form)):
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, gettext("Welcome, %(user)s.") % {"user": user.get_username()})
        return HttpResponseRedirect(onward)
    status = 422 if form.is_bound else 200
    return render(
        request, "registration/signup.html", {"form": form, "next": next_url}, status=status
    )
