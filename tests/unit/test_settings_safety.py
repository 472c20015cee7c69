"""Production defaults: DEBUG is off unless asked for, and a deployment refuses to start
without a real secret key or without a mail server (unless the console is asked for);
its errors are written to standard error as JSON lines, tracebacks included. Each case
imports the settings in a fresh process with its own environment."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REAL_KEY = secrets.token_urlsafe(50)
# A deployment that starts: a real key and mail on the console, asked for.
PRODUCTION = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": REAL_KEY, "COURIER_EMAIL_CONSOLE": "1"}


def clean_environment(**env: str) -> dict[str, str]:
    """This process's environment without the settings' variables, plus ``env``."""
    ours = ("DJANGO_", "COURIER_", "EMAIL_", "DATABASE_URL")
    return {k: v for k, v in os.environ.items() if not k.startswith(ours)} | env


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python process at the repository's root with the
    environment ``env``; its output, as text."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def load_settings(show: str = "DEBUG", **env: str) -> subprocess.CompletedProcess:
    """Import courier.settings with only ``env`` set among its variables; print ``show``."""
    code = f"from courier import settings; print(getattr(settings, {show!r}, None))"
    return run_python(code, clean_environment(**env))


def test_debug_is_off_unless_switched_on():
    assert load_settings(**PRODUCTION).stdout.strip() == "False"
    assert load_settings(DJANGO_DEBUG="1").stdout.strip() == "True"


@pytest.mark.parametrize(
    "key",
    [None, "", "short-key", "dev-only-insecure-key-change-me", "change-me-in-production"],
    ids=["missing", "empty", "too short", "the old development key", "the compose default"],
)
def test_a_deployment_without_a_real_secret_key_refuses_to_start(key):
    env = {"DJANGO_DEBUG": "0"} | ({} if key is None else {"DJANGO_SECRET_KEY": key})
    done = load_settings(**env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr and "DJANGO_SECRET_KEY" in done.stderr


def test_a_long_known_key_is_refused_too():
    done = load_settings(
        DJANGO_DEBUG="0", DJANGO_SECRET_KEY="django-insecure-" + "x" * 60, COURIER_EMAIL_CONSOLE="1"
    )
    assert done.returncode != 0 and "DJANGO_SECRET_KEY" in done.stderr


def test_a_deployment_with_a_real_key_starts():
    done = load_settings(**PRODUCTION)
    assert done.returncode == 0, done.stderr


def test_a_deployment_without_a_mail_server_refuses_to_start_and_says_what_to_set():
    """Without EMAIL_HOST, mail (password-reset links included) would silently go to the
    server's log: a deployment must name its mail server or ask for the console."""
    done = load_settings(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=REAL_KEY)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "EMAIL_HOST" in done.stderr and "COURIER_EMAIL_CONSOLE=1" in done.stderr
    refused = load_settings(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=REAL_KEY, COURIER_EMAIL_CONSOLE="0")
    assert refused.returncode != 0 and "COURIER_EMAIL_CONSOLE=1" in refused.stderr


def test_a_deployment_with_a_mail_server_or_the_console_asked_for_starts():
    production = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": REAL_KEY}
    smtp = load_settings("EMAIL_BACKEND", EMAIL_HOST="smtp.example.org", **production)
    console = load_settings("EMAIL_BACKEND", COURIER_EMAIL_CONSOLE="1", **production)
    assert smtp.returncode == 0, smtp.stderr
    assert smtp.stdout.strip() == "django.core.mail.backends.smtp.EmailBackend"
    assert console.returncode == 0, console.stderr
    assert console.stdout.strip() == "django.core.mail.backends.console.EmailBackend"
    service = load_settings("EMAIL_BACKEND", COURIER_MAIL_PROVIDER="postmark", **production)
    assert service.returncode == 0, service.stderr
    assert service.stdout.strip() == "anymail.backends.postmark.EmailBackend"
    # development needs none: its mail is kept in the outbox its recipients read
    assert load_settings("EMAIL_BACKEND", DJANGO_DEBUG="1").stdout.strip() == (
        "campaign.notify.outbox.OutboxBackend"
    )


def test_the_proxys_https_header_is_trusted_only_behind_a_trusted_proxy():
    """Without a trusted proxy anyone could claim https with X-Forwarded-Proto."""
    production = PRODUCTION
    alone = load_settings("SECURE_PROXY_SSL_HEADER", **production)
    behind = load_settings("SECURE_PROXY_SSL_HEADER", COURIER_TRUSTED_PROXIES="1", **production)
    assert alone.stdout.strip() == "None"
    assert behind.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')"


# A request whose view raises, answered by Django's handler as in production (no DEBUG,
# the test client not re-raising), through the site's middleware.
FAILING_REQUEST = textwrap.dedent(
    """
    import logging, sys, types

    import django
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import path

    django.setup()

    def boom(request):
        raise RuntimeError("the view broke")

    urls = types.ModuleType("failing_urls")
    urls.urlpatterns = [path("boom/", boom)]
    sys.modules["failing_urls"] = urls
    with override_settings(ROOT_URLCONF="failing_urls"):
        response = Client(raise_request_exception=False).get("/boom/?x=1")
    logging.getLogger("campaign.notify.delivery").info("a task's line")
    logging.getLogger("django.request").warning("Not Found: /nowhere")
    print(response.status_code)
    """
)


def test_a_server_error_under_production_settings_is_a_json_line_with_its_traceback(tmp_path):
    env = clean_environment(
        **PRODUCTION,
        DJANGO_SETTINGS_MODULE="courier.settings",
        DJANGO_HTTPS="0",
        DJANGO_ALLOWED_HOSTS="testserver",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    done = run_python(FAILING_REQUEST, env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "500"
    lines = done.stderr.splitlines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    errors = [e for e in entries if e["logger"] == "django.request"]
    assert len(errors) == 1, "a 404 (a warning) is not logged, the 500 is"
    (error,) = errors
    assert error["level"] == "ERROR"
    assert error["message"] == "Internal Server Error: /boom/"
    assert (error["method"], error["path"], error["status_code"]) == ("GET", "/boom/", 500)
    assert error["exc_info"].startswith("Traceback (most recent call last):")
    assert ", in boom\n" in error["exc_info"]  # down to the view's frame
    assert error["exc_info"].endswith("RuntimeError: the view broke")
    assert error["time"].endswith("+00:00")
    assert {
        "logger": "campaign.notify.delivery",
        "level": "INFO",
        "message": "a task's line",
    }.items() <= (next(e for e in entries if e["logger"] == "campaign.notify.delivery").items())


def test_development_keeps_djangos_own_logging():
    assert load_settings("LOGGING", DJANGO_DEBUG="1").stdout.strip() == "None"
