"""Mail and webhooks, sent by the worker (`manage.py db_worker`) once the transaction
that asked for them commits, and retried when they fail; post() also carries Web Push
(campaign/notify/push.py)."""

from __future__ import annotations

import http.client
import json
import logging
import socket
from datetime import timedelta
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone
from django_tasks import task

from campaign.notify import webhooks
from courier import metrics

logger = logging.getLogger(__name__)
RETRIES = 5
RETRY_DELAY = timedelta(minutes=1)  # doubled after each failure


@task()
def deliver_mail(mail: dict, attempt: int = 1) -> str:
    """Send one mail as campaign/notify/outgoing.py wrote it (to, subject, text, html, headers,
    reply_to); on failure try again later (RETRIES times, waiting longer each time), with
    the same Message-ID. A mail to a user (its "reader") whose account has been deleted
    since is dropped."""
    if not reader_exists(mail.get("reader")):
        metrics.mail_delivered("dropped")
        return "dropped"
    try:
        multipart(mail).send()
    except Exception as error:
        outcome = retry_later(deliver_mail, (mail,), attempt, error)
    else:
        outcome = "sent"
    metrics.mail_delivered(outcome)  # courier/metrics.py: sent, retrying or failed
    return outcome


def reader_exists(user_id: int | None) -> bool:
    """Whether the mail's reader still has an account (a mail to no user: True)."""
    return user_id is None or get_user_model().objects.filter(pk=user_id).exists()


def multipart(mail: dict) -> EmailMultiAlternatives:
    """The message of a mail as campaign/notify/outgoing.py composes it: text and HTML parts."""
    message = EmailMultiAlternatives(
        mail["subject"],
        mail["text"],
        to=[mail["to"]],
        headers=mail["headers"],
        reply_to=[mail["reply_to"]] if mail["reply_to"] else None,
    )
    message.attach_alternative(mail["html"], "text/html")
    return message


@task()
def deliver_webhook(url: str, payload: dict, attempt: int = 1) -> str:
    """POST the payload as JSON to the address its host was checked at; on failure try
    again later, like mail. A host name that does not resolve (the name server may be
    down, or the name not yet published) is such a failure; an address that may not be
    reached is refused for good."""
    try:
        address = webhooks.webhook_address(url)
    except webhooks.WebhookHostNotFound as not_found:
        return retry_later(deliver_webhook, (url, payload), attempt, not_found)
    except webhooks.WebhookRefused as refusal:
        logger.error("Webhook %s not sent: %s", url, refusal)
        return "refused"
    try:
        _post_json(url, address, payload)
    except Exception as error:
        return retry_later(deliver_webhook, (url, payload), attempt, error)
    return "sent"


def _post_json(url: str, address: str, payload: dict) -> None:
    """POST ``payload`` as JSON; any answer but 2xx raises."""
    headers = {"Content-Type": "application/json"}
    status, reason = post(url, address, json.dumps(payload).encode(), headers)
    if not 200 <= status < 300:
        raise http.client.HTTPException(f"HTTP {status} {reason}")


def post(url: str, address: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    """POST ``body`` to ``url`` over a connection to ``address``; returns the answer's status
    and reason. A redirect is not followed, for it could lead anywhere, this server
    included."""
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    kind = PinnedHTTPSConnection if secure else PinnedHTTPConnection
    connection = kind(parts.hostname, parts.port or (443 if secure else 80), timeout=10)
    connection.address = address
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", target, body=body, headers={**headers, "User-Agent": "Courier"})
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    return response.status, response.reason


class PinnedHTTPConnection(http.client.HTTPConnection):
    """A connection to ``address``, the one the webhook check approved: the URL's host name
    goes in the Host header (and TLS's server name and certificate check), never to DNS."""

    address = ""

    def connect(self):
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class PinnedHTTPSConnection(http.client.HTTPSConnection, PinnedHTTPConnection):
    """HTTPSConnection.connect wraps in TLS the socket its super().connect() opened: the
    pinned one."""


def retry_later(deliver, args: tuple, attempt: int, error: Exception) -> str:
    """Enqueue the task ``deliver`` again with ``args``, the delay doubled after each
    failure, or give up after RETRIES attempts; returns the task's outcome."""
    if attempt >= RETRIES:
        logger.error("Giving up after %s attempts: %s", attempt, error)
        return "failed"
    delay = RETRY_DELAY * 2 ** (attempt - 1)
    deliver.using(run_after=timezone.now() + delay).enqueue(*args, attempt=attempt + 1)
    logger.warning("Attempt %s failed (%s); retrying in %s", attempt, error, delay)
    return "retrying"
