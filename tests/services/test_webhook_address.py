"""A webhook goes to the address that was checked. Its host name is looked up once, every
address it has is checked, and the worker connects to that address, the name kept for the
Host header and TLS: a name that answers a public address to the check and a private one
to the connection (DNS rebinding) cannot lead the worker inside the network.

Only global unicast addresses are reached: not multicast, reserved, private, loopback,
link-local, site-local, unique-local or documentation ones, nor IPv4 hidden in IPv6
(IPv4-mapped, IPv4-compatible, Teredo, local NAT64) or a NAT64 or 6to4 address of an IPv4
address that is not public. A name that does not resolve is retried like any failure.
No test here leaves this machine: the resolver is faked and connections are refused or
go to a server on loopback."""

from __future__ import annotations

import ipaddress
import socket
import ssl
from datetime import timedelta

import pytest
from django_tasks_db.models import DBTaskResult

from campaign.errors import reason_for
from campaign.notify import delivery, webhooks
from tests.services.test_notifications import hook_server  # noqa: F401 (a fixture)
from tests.services.test_scheduling import START, run_worker

pytestmark = pytest.mark.django_db
NAME = "hooks.example.org"
PUBLIC = "93.184.215.14"  # a global address


@pytest.fixture
def dns(monkeypatch):
    """A fake resolver for NAME: lookup n answers dns.answers[n] (the last one again
    after that; None: the name is not found) and is counted in dns.lookups; other hosts
    (address literals) resolve as usual."""
    real = socket.getaddrinfo

    class Dns:
        answers: list[str] = []
        lookups: list[str] = []

        @staticmethod
        def getaddrinfo(host, port, *args, **kwargs):
            if host != NAME:
                return real(host, port, *args, **kwargs)
            Dns.lookups.append(host)
            address = Dns.answers[min(len(Dns.lookups), len(Dns.answers)) - 1]
            if address is None:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            return [(family, socket.SOCK_STREAM, 6, "", (address, port or 0))]

    monkeypatch.setattr(socket, "getaddrinfo", Dns.getaddrinfo)
    return Dns


@pytest.fixture
def connections(monkeypatch):
    """Every address the worker connects to; each connection is refused."""
    made = []

    def create_connection(address, *args, **kwargs):
        made.append(address)
        raise ConnectionRefusedError("not in a test")

    monkeypatch.setattr(socket, "create_connection", create_connection)
    return made


def test_the_connection_goes_to_the_checked_address_not_a_second_answer(settings, dns, connections):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    dns.answers = [PUBLIC, "127.0.0.1"]  # public to the check, loopback to a second lookup
    outcome = delivery.deliver_webhook.call(f"http://{NAME}/hook", {"event": "phase_opened"})
    assert outcome == "retrying"  # the refused connection, retried later
    assert connections == [(PUBLIC, 80)]
    assert dns.lookups == [NAME]


def test_a_name_with_a_private_address_is_refused_without_connecting(settings, dns, connections):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    dns.answers = ["10.0.0.5"]
    outcome = delivery.deliver_webhook.call(f"https://{NAME}/hook", {"event": "phase_opened"})
    assert outcome == "refused"
    assert connections == []


def test_the_request_names_the_host_it_was_sent_for(settings, dns, hook_server):  # noqa: F811
    """Connected to the checked address, the request still carries the URL's name."""
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the test server listens on loopback
    url, received = hook_server
    port = url.split(":")[2].split("/")[0]
    dns.answers = ["127.0.0.1"]
    outcome = delivery.deliver_webhook.call(f"http://{NAME}:{port}/hooks/courier?x=1", {"n": 1})
    assert outcome == "sent"
    assert received == [("/hooks/courier?x=1", "application/json", {"n": 1})]
    assert dns.lookups == [NAME]


def test_https_checks_the_certificate_of_the_name(settings, dns, hook_server, monkeypatch):  # noqa: F811
    """TLS is asked for the URL's name (SNI and the certificate check) over the socket
    to the checked address."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    url, _ = hook_server
    port = int(url.split(":")[2].split("/")[0])
    asked = []

    def wrap_socket(context, sock, server_hostname=None, **kwargs):
        asked.append((sock.getpeername(), server_hostname, context.check_hostname))
        raise ssl.SSLError("no handshake in a test")

    monkeypatch.setattr(ssl.SSLContext, "wrap_socket", wrap_socket)
    dns.answers = ["127.0.0.1"]
    outcome = delivery.deliver_webhook.call(f"https://{NAME}:{port}/hook", {"n": 1})
    assert outcome == "retrying"
    assert asked == [(("127.0.0.1", port), NAME, True)]


# Every form of an address that is not global unicast, refused whatever the URL looks like.
NOT_GLOBAL = [
    "224.0.0.1",  # multicast
    "239.255.255.250",  # multicast (SSDP)
    "255.255.255.255",  # broadcast
    "240.0.0.1",  # reserved
    "0.0.0.0",  # unspecified: this host
    "127.0.0.1",  # loopback
    "10.0.0.5",  # private
    "172.16.0.1",  # private
    "192.168.1.1",  # private
    "100.64.0.1",  # shared (carrier-grade NAT)
    "169.254.169.254",  # link-local (cloud metadata)
    "192.0.0.9",  # IETF protocol assignments
    "192.0.2.1",  # documentation
    "198.51.100.1",  # documentation
    "203.0.113.1",  # documentation
    "198.18.0.1",  # benchmarking
    "192.88.99.1",  # 6to4 relay anycast
    "::",  # unspecified
    "::1",  # loopback
    "::127.0.0.1",  # IPv4-compatible, of loopback
    "::8.8.8.8",  # IPv4-compatible, even of a public address
    "::ffff:127.0.0.1",  # IPv4-mapped, of loopback
    "::ffff:8.8.8.8",  # IPv4-mapped, even of a public address
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a00:5",  # NAT64 of 10.0.0.5
    "64:ff9b::e000:1",  # NAT64 of 224.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b:1::808:808",  # local-use NAT64 prefix
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a00:5::1",  # 6to4 of 10.0.0.5
    "2002:e000:1::1",  # 6to4 of 224.0.0.1
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "2001::1",  # Teredo
    "2001:10::1",  # ORCHID (IETF protocol assignments)
    "ff02::1",  # multicast, link-local scope
    "ff0e::1",  # multicast, global scope
    "fe80::1",  # link-local
    "fec0::1",  # site-local
    "fc00::1",  # unique local
    "fd12:3456::1",  # unique local
    "2001:db8::1",  # documentation
    "3fff::1",  # documentation
    "100::1",  # discard
    "5f00::1",  # SRv6 segment identifiers
    "4000::1",  # outside global unicast (2000::/3)
]
GLOBAL = [
    "8.8.8.8",
    PUBLIC,
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2002:808:808::1",  # 6to4 of 8.8.8.8
    "64:ff9b::808:808",  # NAT64 of 8.8.8.8 (what DNS64 answers for an IPv4-only host)
]


@pytest.mark.parametrize("address", NOT_GLOBAL)
def test_an_address_that_is_not_global_unicast_is_refused(settings, dns, connections, address):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    assert not webhooks.public_address(ipaddress.ip_address(address))
    dns.answers = [address]
    outcome = delivery.deliver_webhook.call(f"https://{NAME}/hook", {"event": "phase_opened"})
    assert outcome == "refused"
    assert connections == []
    host = f"[{address}]" if ":" in address else address
    saved = f"https://{host}/hook"
    assert reason_for(webhooks.check_webhook, saved)  # refused when the GM saves it


@pytest.mark.parametrize("address", GLOBAL)
def test_a_global_unicast_address_is_reached(settings, dns, connections, address):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    dns.answers = [address]
    outcome = delivery.deliver_webhook.call(f"http://{NAME}/hook", {"event": "phase_opened"})
    assert outcome == "retrying"  # the (faked) refused connection
    assert connections == [(address, 80)]
    host = f"[{address}]" if ":" in address else address
    assert reason_for(webhooks.check_webhook, f"http://{host}/hook") is None


def test_one_address_that_is_not_global_refuses_the_name(settings, monkeypatch, connections):
    settings.WEBHOOK_ALLOW_PRIVATE = False

    def getaddrinfo(host, port, *args, **kwargs):
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC, 0)),
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("64:ff9b::7f00:1", 0, 0, 0)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    outcome = delivery.deliver_webhook.call(f"http://{NAME}/hook", {"event": "phase_opened"})
    assert outcome == "refused"
    assert connections == []


PRIVATE_NETWORK = ["127.0.0.1", "10.0.0.5", "172.16.0.1", "192.168.1.1", "100.64.0.1", "::1"]
NEVER = [
    "224.0.0.1",
    "255.255.255.255",
    "0.0.0.0",
    "169.254.169.254",
    "192.0.2.1",
    "ff02::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "64:ff9b::7f00:1",
    "2002:7f00:1::",
]


@pytest.mark.parametrize("address", PRIVATE_NETWORK + ["fd12:3456::1"])
def test_allow_private_lets_a_webhook_reach_the_private_network(
    settings, dns, connections, address
):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    dns.answers = [address]
    outcome = delivery.deliver_webhook.call(f"http://{NAME}/hook", {"event": "phase_opened"})
    assert outcome == "retrying"
    assert connections == [(address, 80)]


@pytest.mark.parametrize("address", NEVER)
def test_allow_private_never_lets_through_multicast_link_local_or_hidden_ipv4(
    settings, dns, connections, address
):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    dns.answers = [address]
    outcome = delivery.deliver_webhook.call(f"http://{NAME}/hook", {"event": "phase_opened"})
    assert outcome == "refused"
    assert connections == []
    host = f"[{address}]" if ":" in address else address
    assert reason_for(webhooks.check_webhook, f"http://{host}/hook")


def test_a_name_that_does_not_resolve_is_retried_with_the_backoff_then_sent(
    settings,
    dns,
    time_machine,
    hook_server,  # noqa: F811
):
    """The name server may be down or the name not yet published: the webhook is tried
    again after 1, 2, 4, 8 minutes like any failure, and sent once the name resolves."""
    settings.WEBHOOK_ALLOW_PRIVATE = True  # the test server listens on loopback
    time_machine.move_to(START, tick=False)
    url, received = hook_server
    port = url.split(":")[2].split("/")[0]
    hook = f"http://{NAME}:{port}/hook"
    dns.answers = [None]
    delivery.deliver_webhook.enqueue(hook, {"n": 1})
    waited = timedelta(0)
    for attempt, delay in enumerate((1, 2, 4), start=1):
        assert run_worker() == [("deliver_webhook", "retrying")]
        (retry,) = DBTaskResult.objects.filter(status="READY")
        waited += timedelta(minutes=delay)
        assert retry.run_after == START + waited
        assert retry.args_kwargs == {"args": [hook, {"n": 1}], "kwargs": {"attempt": attempt + 1}}
        assert run_worker() == []  # not before its time
        time_machine.move_to(START + waited, tick=False)
    assert dns.lookups == [NAME] * 3
    dns.answers = [None, None, None, "127.0.0.1"]  # the fourth lookup finds it
    assert run_worker() == [("deliver_webhook", "sent")]
    assert received == [("/hook", "application/json", {"n": 1})]


def test_a_name_that_never_resolves_is_given_up_after_five_attempts(settings, dns, time_machine):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    time_machine.move_to(START, tick=False)
    dns.answers = [None]
    delivery.deliver_webhook.enqueue(f"https://{NAME}/hook", {"n": 1})
    outcomes = []
    for minutes in (0, 1, 3, 7, 15, 60):
        time_machine.move_to(START + timedelta(minutes=minutes), tick=False)
        outcomes += [value for _, value in run_worker()]
    assert outcomes == ["retrying"] * 4 + ["failed"]
    assert len(dns.lookups) == 5
