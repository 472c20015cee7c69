"""Production defaults: DEBUG is off unless asked for, and a deployment refuses to start
without a real secret key. Each case imports the settings in a fresh process with its
own environment."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REAL_KEY = secrets.token_urlsafe(50)


def load_settings(show: str = "DEBUG", **env: str) -> subprocess.CompletedProcess:
    """Import courier.settings with only ``env`` set among its variables; print ``show``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "COURIER_"))}
    code = f"from courier import settings; print(getattr(settings, {show!r}, None))"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_is_off_unless_switched_on():
    assert load_settings(DJANGO_SECRET_KEY=REAL_KEY).stdout.strip() == "False"
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
    done = load_settings(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="django-insecure-" + "x" * 60)
    assert done.returncode != 0 and "DJANGO_SECRET_KEY" in done.stderr


def test_a_deployment_with_a_real_key_starts():
    done = load_settings(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=REAL_KEY)
    assert done.returncode == 0, done.stderr


def test_the_proxys_https_header_is_trusted_only_behind_a_trusted_proxy():
    """Without a trusted proxy anyone could claim https with X-Forwarded-Proto."""
    production = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": REAL_KEY}
    alone = load_settings("SECURE_PROXY_SSL_HEADER", **production)
    behind = load_settings("SECURE_PROXY_SSL_HEADER", COURIER_TRUSTED_PROXIES="1", **production)
    assert alone.stdout.strip() == "None"
    assert behind.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')"
