"""A webhook goes to the address that was checked. Its host name is looked up once, every
address it has is checked, and the worker connects to that address, the name kept for the
Host header and TLS: a name that answers a public address to the check and a private one
to the connection (DNS rebinding) cannot lead the worker inside the network."""

from __future__ import annotations

import socket
import ssl

import pytest

from campaign import delivery
from tests.services.test_notifications import hook_server  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db
NAME = "hooks.example.org"
PUBLIC = "93.184.215.14"  # a global address


@pytest.fixture
def dns(monkeypatch):
    """A fake resolver for NAME: lookup n answers dns.answers[n] (the last one again
    after that) and is counted in dns.lookups; other hosts (address literals) resolve
    as usual."""
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
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port or 0))]

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
