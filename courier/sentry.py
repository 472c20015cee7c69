"""Errors reported to Sentry, when COURIER_SENTRY_DSN (or SENTRY_DSN) names a project:
courier/settings.py calls start() then, and otherwise never imports this module, nor
sentry_sdk.

What is sent: a request's unhandled exception (the Django integration) and every log
record at ERROR (a task that failed, a mail given up), with the request's id as the
tag ``request_id`` (courier/request_id.py); no personal data (send_default_pii off: no
user, no cookies, no client address). The release is Courier's package version;
performance traces are sampled at COURIER_SENTRY_TRACES_SAMPLE_RATE (0, none, unless
set); COURIER_SENTRY_ENVIRONMENT names the deployment ("production", "staging").
"""

from __future__ import annotations

import os
from importlib import metadata


def release() -> str | None:
    try:
        return f"courier@{metadata.version('courier')}"
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return None


def _tag_request(event: dict, hint: dict) -> dict:
    from courier.request_id import current

    if request_id := current():
        event.setdefault("tags", {})["request_id"] = request_id
    return event


def start(dsn: str, **options) -> None:
    """sentry_sdk.init for ``dsn`` (``options`` over the defaults: the tests' transport)."""
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        **{
            "dsn": dsn,
            "integrations": [DjangoIntegration()],
            "send_default_pii": False,
            # no request body (orders, press, passwords) nor a frame's local variables
            "max_request_body_size": "never",
            "include_local_variables": False,
            "release": release(),
            "environment": os.environ.get("COURIER_SENTRY_ENVIRONMENT") or None,
            "traces_sample_rate": float(os.environ.get("COURIER_SENTRY_TRACES_SAMPLE_RATE", "0")),
            "before_send": _tag_request,
            **options,
        }
    )
