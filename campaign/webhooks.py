"""Where a campaign's webhook may point: at another server, never at this one or a
private address (unless settings.WEBHOOK_ALLOW_PRIVATE), checked when the GM saves the
URL and again, with its host looked up, each time it is sent."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

NOT_ANOTHER_SERVER = gettext_lazy(
    "A webhook URL must point at another server, not at this one or a private address."
)


class WebhookRefused(Exception):
    """A webhook URL that may not be used; the message says why."""


def webhook_refusal(url: str) -> str:
    """Why the GM may not save this webhook URL ("" when it is fine). Its host name is
    looked up only when sending (webhook_address), for what it resolves to may change."""
    try:
        if url:
            _checked_host(url)
    except WebhookRefused as refusal:
        return str(refusal)
    return ""


def webhook_address(url: str) -> str:
    """The one address a webhook is sent to: its host looked up once and every address it
    has checked, the first returned. The sender connects to it instead of looking the name
    up again, which could then answer a private address (DNS rebinding).
    Raises WebhookRefused."""
    host = _checked_host(url)
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
        addresses = [ipaddress.ip_address(info[4][0]) for info in found]
    except (OSError, ValueError):
        message = _("The webhook's host %(host)s cannot be found.") % {"host": host}
        raise WebhookRefused(message) from None
    if not settings.WEBHOOK_ALLOW_PRIVATE and not all(a.is_global for a in addresses):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    return str(addresses[0])


def _checked_host(url: str) -> str:
    """The URL's host. WebhookRefused unless it is http(s) and never this server itself:
    its own host names, a .localhost name, or a loopback, private, link-local or
    unspecified address however it is spelt (127.1, 2130706433, 0x7f000001);
    settings.WEBHOOK_ALLOW_PRIVATE lifts all but the first of these for a private network."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookRefused(_("A webhook URL must be an http:// or https:// address."))
    host = parts.hostname.lower().rstrip(".")
    site = urlsplit(settings.SITE_URL)
    if (host, parts.port) == (site.hostname, site.port):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    if settings.WEBHOOK_ALLOW_PRIVATE:
        return host
    own = {h.lstrip(".").lower() for h in settings.ALLOWED_HOSTS if h != "*"}
    if host in own or host == "localhost" or host.endswith(".localhost"):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    literal = _literal_address(host)
    if literal is not None and not literal.is_global:
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    return host


def _literal_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host written as a number stands for (any spelling inet_aton takes)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None
