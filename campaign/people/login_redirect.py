"""A signed-out reader's HTMX request sends the whole page to the login page.

A fragment that a page loads or polls after it (the map, the press panel, the phase's
status), or a form it sends with HTMX, asked once the session has ended, was answered as a
page is: with a redirect to the login page, which htmx followed and swapped in where the
fragment goes, a login form inside a panel (whose focused field scrolled the page to it).
It is answered with HX-Redirect instead: the browser loads the login page, which brings
the reader back to the page they were on."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


class HtmxLoginRedirectMiddleware:
    """Turns the login redirect of an HTMX request into HX-Redirect to the login page,
    with the page the request came from (same site only) as where to go back."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.htmx or response.status_code != 302:
            return response
        if urlsplit(response["Location"]).path != resolve_url(settings.LOGIN_URL):
            return response
        page = request.htmx.current_url_abs_path
        login = redirect_to_login(page)["Location"] if page else response["Location"]
        return HttpResponseClientRedirect(login)
