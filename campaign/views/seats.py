"""Joining by invitation link, and signing up so an invited player can join."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from campaign.models import Seat
from campaign.services import ServiceError, claim_seat


@login_required
@require_http_methods(["GET", "POST"])
def join(request, token: str):
    """Show the seat an invitation offers; POST takes it."""
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


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account, log in, and continue where the invitation pointed."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or "campaign:list")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, gettext("Welcome, %(user)s.") % {"user": user.get_username()})
        return redirect(next_url or "campaign:list")
    status = 422 if form.is_bound else 200
    return render(
        request, "registration/signup.html", {"form": form, "next": next_url}, status=status
    )
