"""The client's address, which login throttling keys on, behind a reverse proxy or not."""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    """REMOTE_ADDR; behind settings.TRUSTED_PROXIES proxies, the address the outermost of
    them saw: the one that many places from the right of X-Forwarded-For (each proxy
    appends the address it saw; what lies further left the client may have written)."""
    remote = request.META.get("REMOTE_ADDR", "")
    count = settings.TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    if not count or len(forwarded) < count:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-count].strip()))
    except ValueError:
        return remote
