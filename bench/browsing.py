"""What the load scripts' simulated players share: a signed-in client's first visit (the
CSRF cookie and the forms' token, as a browser gets them) and an HTMX form post, with the
standard library only (urllib) and no redirect followed.

Imported after Django is set up (bench.common.setup_django).
"""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from http.cookies import SimpleCookie

from django.conf import settings

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def first_visit(url: str, session: str) -> tuple[str, str]:
    """GET ``url`` with the session cookie: the Cookie header to send from now on (session
    and CSRF cookie) and the CSRF token the page's forms carry."""
    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={session}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read().decode()
        jar = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            jar.load(header)
    secret = jar[settings.CSRF_COOKIE_NAME].value
    found = TOKEN.search(body)
    return f"sessionid={session}; {settings.CSRF_COOKIE_NAME}={secret}", (
        found.group(1) if found else secret
    )


def htmx_post(url: str, cookie: str, data: list[tuple[str, str]]) -> int:
    """POST ``data`` the way the pages' HTMX forms do; the HTTP status."""
    request = urllib.request.Request(
        url,
        data=urllib.parse.urlencode(data).encode(),
        headers={
            "Cookie": cookie,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
        method="POST",
    )
    try:
        with OPENER.open(request, timeout=60) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        error.read()
        return error.code
