"""Joining by invitation link, and signing up or logging in so an invited player can join:
the join, sign-up and login pages name the seat an open invitation offers, and the way
from one to the other keeps it (``next``)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.views import redirect_to_login
from django.db import IntegrityError, transaction
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render, resolve_url
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from campaign.errors import ServiceError
from campaign.models import Seat
from campaign.people import account_mail
from campaign.people.forms import LoginForm, SignupForm
from campaign.play.services import claim_seat
from campaign.query_forms import NextForm
from campaign.selectors.seats import invited_seat
from campaign.views import refusals

INVITE_TOKEN = re.compile(r"[-\w]{1,64}", re.ASCII)  # secrets.token_urlsafe's alphabet


def offered_seat(token: str) -> Seat | None:
    """The seat an invitation link offers (taken or not); None for no such link."""
    if not INVITE_TOKEN.fullmatch(token):  # never issued; a NUL byte is a database error
        return None
    return invited_seat(token)


def invitation(next_url: str) -> Seat | None:
    """The open seat that ``next_url``, a join link, offers; None for any other address
    and for a link that is not valid or has been used."""
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return None
    if match.view_name != "campaign:join":
        return None
    seat = offered_seat(match.kwargs["token"])
    return seat if seat is not None and seat.wants_player else None


@require_http_methods(["GET", "POST"])
def join(request, token: str):
    """Show the seat an invitation offers (to anyone: a new player signs up or logs in
    from here and comes back); POST takes it."""
    seat = offered_seat(token)
    if seat is None:
        return render(request, "campaign/join.html", {}, status=404)
    context = {"seat": seat, "token": token, "next": request.path}
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.path)
        return render(request, "campaign/join.html", context)
    if request.method == "GET":
        return render(request, "campaign/join.html", context)
    try:
        claim_seat(token=token, user=request.user)
    except ServiceError as error:
        return refusals.refuse(request, error, "campaign/join.html", context)
    messages.success(
        request, gettext("Welcome to %(campaign)s.") % {"campaign": seat.campaign.name}
    )
    return redirect("campaign:detail", seat.campaign_id)


class LoginView(auth_views.LoginView):
    """Django's login page, which names the seat when it leads to an open invitation; a
    client address that has failed too many logins is refused with a 429
    (courier/throttling.py)."""

    authentication_form = LoginForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.throttled():
            response.status_code = 429
        return response

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        return {**context, "invited": invitation(context[self.redirect_field_name])}


def _next_url(request) -> str:
    """The `next` URL (posted, else asked) when it stays on this site (as LoginView
    checks it), else ""."""
    next_url = NextForm(request.POST).values["next"] or NextForm(request.GET).values["next"]
    if url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return ""


def _save_new_user(form: SignupForm):
    """The new user, or None (with the form's error) when the name was taken meanwhile:
    another sign-up with the same name saved between this form's check and its save. The
    mail address given waits for the link mailed to it."""
    try:
        with transaction.atomic():
            user = form.save()
            account_mail.ask_confirmation(user, form.cleaned_data["email"])
            return user
    except IntegrityError:
        user = form.instance
        form.add_error("username", user.unique_error_message(type(user), ["username"]))
        return None


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account (with the mail address notifications go to), log in, and continue
    where ``next`` points (an invitation it leads to is named on the page)."""
    next_url = _next_url(request)
    # a URL as given, never a URL name: `next` may be any relative address ("home")
    onward = next_url or resolve_url(settings.LOGIN_REDIRECT_URL)
    if request.user.is_authenticated:
        return HttpResponseRedirect(onward)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and (user := _save_new_user(form)):
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, gettext("Welcome, %(user)s.") % {"user": user.get_username()})
        messages.info(
            request,
            gettext(
                "Courier has mailed a link to %(address)s: it writes to that address once "
                "you follow it."
            )
            % {"address": form.cleaned_data["email"]},
        )
        return HttpResponseRedirect(onward)
    status = 422 if form.is_bound else 200
    context = {"form": form, "next": next_url, "invited": invitation(next_url)}
    return render(request, "registration/signup.html", context, status=status)
