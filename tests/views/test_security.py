"""What a deployment promises: `manage.py check --deploy` clean under production settings,
the security headers, login throttling, and the CSRF token on every HTMX request."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Order
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_is_clean_under_production_settings():
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "courier.example.org",
        "COURIER_EMAIL_CONSOLE": "1",  # a deployment names its mail choice
    }
    env.pop("DJANGO_HTTPS", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_pages_carry_a_content_security_policy(client_as, campaign):
    response = client_as("player").get(reverse("campaign:detail", args=[campaign.pk]))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "'unsafe-eval'" not in policy and "script-src 'self' 'unsafe-inline'" not in policy


def test_inline_scripts_are_not_used(client_as, campaign):
    """The policy forbids inline scripts and handlers: no page may rely on one."""
    for role, name in (("player", "campaign:detail"), ("gm", "campaign:gm")):
        html = client_as(role).get(reverse(name, args=[campaign.pk])).content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), name
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), name


def test_failed_logins_are_throttled(users, settings):
    client = Client()
    url = reverse("login")
    wrong = {"username": users["player"].username, "password": "wrong"}
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(url, wrong).status_code == 200  # the form says it is wrong
    assert client.post(url, wrong).status_code == 429  # the last failure locks out
    response = client.post(url, {"username": users["player"].username, "password": PASSWORD})
    assert response.status_code == 429  # even the right password, for a while
    assert "_auth_user_id" not in client.session


def test_every_htmx_request_carries_the_csrf_token(users, campaign):
    """Pages give htmx the token in the body's data-hx-headers; a POST with it (and no form
    token) passes, one without it is refused, and nothing is saved."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["player"])
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert 'data-hx-post="' in html
    token = re.search(r"data-hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", html)
    assert token, "the body must carry the CSRF token for htmx"
    url = reverse("campaign:orders", args=[campaign.pk])
    data = {"phase": campaign.phase_id, "ready": "0"}
    refused = client.post(url, data, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403
    assert not Order.objects.filter(campaign=campaign).exists()
    accepted = client.post(url, data, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token[1])
    assert accepted.status_code == 200
    assert Order.objects.filter(campaign=campaign).exists()


def failed_logins(username: str, limit: int, **headers) -> int:
    """Post a wrong password for ``username`` ``limit`` times: the last post's status."""
    client = Client(**headers)
    for _ in range(limit):
        response = client.post(reverse("login"), {"username": username, "password": "no"})
    return response.status_code


def test_a_forged_forwarded_for_does_not_change_the_throttled_address(users, settings):
    """Without a trusted proxy, X-Forwarded-For is the client's own say: rotating it does
    not escape the lockout of the address the connection comes from."""
    settings.TRUSTED_PROXIES = 0
    username = users["player"].username
    wrong = {"username": username, "password": "no"}
    for n in range(settings.AXES_FAILURE_LIMIT):
        forged = Client(HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
        response = forged.post(reverse("login"), wrong)
    assert response.status_code == 429
    forged = Client(HTTP_X_FORWARDED_FOR="198.51.100.7")
    response = forged.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 429


def test_behind_a_trusted_proxy_its_forwarded_for_names_the_client(users, settings):
    """Behind the TLS proxy every connection comes from the proxy: the client is the
    address the proxy appended, so one client's failures do not lock out another."""
    settings.TRUSTED_PROXIES = 1
    username = users["player"].username
    # the left entry is the attacker's own forgery; the proxy appended the real address
    attacker = {"HTTP_X_FORWARDED_FOR": "198.51.100.7, 203.0.113.9"}
    assert failed_logins(username, settings.AXES_FAILURE_LIMIT, **attacker) == 429
    owner = Client(HTTP_X_FORWARDED_FOR="198.51.100.7")
    response = owner.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302


def test_campaign_pages_are_private_and_revalidated(client_as, campaign):
    """The page carries an ETag and hidden information: no shared cache may keep it, and
    the browser asks again (a 304 when unchanged) before it reuses its copy."""
    client = client_as("player")
    url = reverse("campaign:detail", args=[campaign.pk])
    client.get(url)  # the first visit sets the CSRF cookie, part of the page
    page = client.get(url)
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert unchanged.status_code == 304
    for response in (page, unchanged):
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"private", "no-cache"} <= directives
