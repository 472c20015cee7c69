"""Where a campaign's webhook may point: at another server on the public internet, never
at this one or a private address (unless settings.WEBHOOK_ALLOW_PRIVATE), checked when the
GM saves the URL and again, with its host looked up, each time it is sent.

An address is accepted only if it is global unicast (public_address): Python's
``is_global`` alone lets through multicast, site-local IPv6 and IPv4 hidden in IPv6
(``64:ff9b::7f00:1`` reaches 127.0.0.1 through a NAT64 gateway), so the ranges are
listed here."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.errors import ServiceError

NOT_ANOTHER_SERVER = gettext_lazy(
    "A webhook URL must point at another server, not at this one or a private address."
)


class WebhookRefused(ServiceError):
    """A webhook URL that may not be used; the message says why."""


class WebhookHostNotFound(WebhookRefused):
    """The webhook's host name did not resolve (now): the sender tries again later."""


_net = ipaddress.ip_network

# IPv4 ranges that are not global unicast (IANA's special-purpose registry, multicast and
# the reserved block); each is refused whatever the setting.
_NOT_GLOBAL_V4 = [
    _net("0.0.0.0/8"),  # "this network"; 0.0.0.0 connects to this host
    _net("169.254.0.0/16"),  # link-local, where cloud metadata services answer
    _net("192.0.0.0/24"),  # IETF protocol assignments
    _net("192.0.2.0/24"),  # documentation (TEST-NET-1)
    _net("192.88.99.0/24"),  # 6to4 relay anycast (deprecated)
    _net("198.18.0.0/15"),  # benchmarking
    _net("198.51.100.0/24"),  # documentation (TEST-NET-2)
    _net("203.0.113.0/24"),  # documentation (TEST-NET-3)
    _net("224.0.0.0/4"),  # multicast
    _net("240.0.0.0/4"),  # reserved, and the broadcast address
]
# IPv4 ranges of a private network: accepted only with WEBHOOK_ALLOW_PRIVATE.
_PRIVATE_V4 = [
    _net("10.0.0.0/8"),
    _net("100.64.0.0/10"),  # shared address space (carrier-grade NAT)
    _net("127.0.0.0/8"),  # loopback
    _net("172.16.0.0/12"),
    _net("192.168.0.0/16"),
]
# IPv6: global unicast is 2000::/3; inside it, these are not global unicast.
_GLOBAL_UNICAST_V6 = _net("2000::/3")
_NOT_GLOBAL_V6 = [
    _net("2001::/23"),  # IETF protocol assignments, Teredo (2001::/32) among them
    _net("2001:db8::/32"),  # documentation
    _net("3fff::/20"),  # documentation
]
# IPv4 written inside IPv6: judged by the IPv4 address they carry (_embedded_ipv4).
_NAT64 = _net("64:ff9b::/96")  # the well-known prefix: the last 32 bits are the address
_SIX_TO_FOUR = _net("2002::/16")  # the next 32 bits are the address
_LOCAL_NAT64 = _net("64:ff9b:1::/48")  # a network's own translation prefixes
# IPv6 ranges of a private network: accepted only with WEBHOOK_ALLOW_PRIVATE.
_PRIVATE_V6 = [
    _net("::1/128"),  # loopback
    _net("fc00::/7"),  # unique local
]


def public_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``address`` is global unicast: on the public internet, neither multicast
    nor reserved, private, loopback, link-local, site-local, unique-local, shared or
    documentation. IPv4 written in IPv6 is accepted only in the two forms that route to the
    IPv4 address they carry, and only when that address is public itself: NAT64's
    well-known prefix (64:ff9b::/96, what DNS64 answers for an IPv4-only host) and 6to4
    (2002::/16). IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96), Teredo
    (2001::/32) and local-use NAT64 (64:ff9b:1::/48) addresses are refused."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return public_address(embedded)
        if address not in _GLOBAL_UNICAST_V6 or address.is_multicast:
            return False
        if any(address in network for network in _NOT_GLOBAL_V6):
            return False
        return address.is_global
    if address.is_multicast or any(address in network for network in _NOT_GLOBAL_V4):
        return False
    return not any(address in network for network in _PRIVATE_V4) and address.is_global


def private_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``address`` is in a private network's ranges (private, shared, loopback or
    unique-local), which settings.WEBHOOK_ALLOW_PRIVATE lets a webhook reach. Never
    multicast, link-local, reserved or documentation addresses, nor IPv4 hidden in IPv6."""
    if isinstance(address, ipaddress.IPv6Address):
        return address.scope_id is None and any(address in n for n in _PRIVATE_V6)
    return any(address in network for network in _PRIVATE_V4)


def allowed_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether a webhook may be sent to ``address`` under the site's settings."""
    if public_address(address):
        return True
    return settings.WEBHOOK_ALLOW_PRIVATE and private_address(address)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address a NAT64 (well-known prefix) or 6to4 address routes to; for the
    other forms that carry IPv4, an address that is never public (0.0.0.0), so that they
    are refused; None for any other IPv6 address."""
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _SIX_TO_FOUR:
        return address.sixtofour
    if (
        address.ipv4_mapped is not None
        or int(address) >> 32 == 0  # IPv4-compatible, :: and ::1 among them
        or address.teredo is not None
        or address in _LOCAL_NAT64
    ):
        return ipaddress.IPv4Address(0)
    return None


def check_webhook(url: str) -> None:
    """WebhookRefused when the GM may not save this webhook URL (empty: none). Its host
    name is looked up only when sending (webhook_address), for what it resolves to may
    change."""
    if url:
        _checked_host(url)


def webhook_address(url: str) -> str:
    """The one address a webhook is sent to: its host looked up once and every address it
    has checked (allowed_address), the first returned. The sender connects to it instead
    of looking the name up again, which could then answer a private address (DNS
    rebinding). Raises WebhookRefused, or WebhookHostNotFound when the name does not
    resolve (which may pass: the sender retries)."""
    host = _checked_host(url)
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
        addresses = [ipaddress.ip_address(info[4][0]) for info in found]
    except (OSError, ValueError):
        addresses = []
    if not addresses:
        message = _("The webhook's host %(host)s cannot be found.") % {"host": host}
        raise WebhookHostNotFound(message)
    if not all(allowed_address(address) for address in addresses):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    return str(addresses[0])


def _checked_host(url: str) -> str:
    """The URL's host. WebhookRefused unless it is http(s) and never this server itself:
    its own host names, a .localhost name, or an address that is not allowed_address
    however it is spelt (127.1, 2130706433, 0x7f000001, [::ffff:127.0.0.1]);
    settings.WEBHOOK_ALLOW_PRIVATE lets through the names and the private network's
    addresses, never a multicast, link-local or reserved one."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookRefused(_("A webhook URL must be an http:// or https:// address."))
    host = parts.hostname.lower().rstrip(".")
    site = urlsplit(settings.SITE_URL)
    if (host, parts.port) == (site.hostname, site.port):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    literal = _literal_address(host)
    if literal is not None and not allowed_address(literal):
        raise WebhookRefused(str(NOT_ANOTHER_SERVER))
    if settings.WEBHOOK_ALLOW_PRIVATE:
        return host
    own = {h.lstrip(".").lower() for h in settings.ALLOWED_HOSTS if h != "*"}
    if host in own or host == "localhost" or host.endswith(".localhost"):
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
