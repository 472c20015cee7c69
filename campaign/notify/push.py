"""Web Push: the devices each user subscribed (one browser each), and the notices sent to
them: a phase awaits his orders, a reminder before its deadline, press addressed to him.

A notice follows the campaign's own choices (MailChoice: a kind of mail turned off is
not pushed either). It is written in its reader's language, encrypted for his device
(RFC 8291, by pywebpush) and signed with the site's VAPID key (RFC 8292) in the worker
(deliver_push), which reaches the push service at an address checked
as a webhook's is, and forgets a device the push service no longer knows (404 or 410).
Without VAPID keys (`manage.py vapid_keys`), nothing is pushed and the preferences say so.
"""

from __future__ import annotations

import http.client
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django_tasks import task
from py_vapid import Vapid02, VapidException
from pywebpush import WebPusher

from campaign.errors import ServiceError
from campaign.models import MailChoice, PushSubscription
from campaign.notify import delivery, outgoing, webhooks
from courier import metrics, throttling

logger = logging.getLogger(__name__)
DEVICES_MOST = 10  # devices one user keeps
SESSION_DEVICE = "push_device"  # the session's own subscription, forgotten when it logs out
TESTS_LIMIT, TESTS_WINDOW = 5, 10 * 60  # test notices one user may ask for, in seconds
TTL = 24 * 60 * 60  # seconds a push service keeps a notice for a device that is offline
SIGNATURE_HOURS = 12  # how long a VAPID signature stays valid (RFC 8292: at most 24 h)


@dataclass(frozen=True)
class Notice:
    """What a device shows: a title, a line of text, the page a tap opens, and a tag (a
    newer notice of the same tag replaces the older one on the device)."""

    title: str
    body: str
    url: str
    tag: str
    urgency: str = "normal"  # RFC 8030: very-low, low, normal or high


def enabled() -> bool:
    """Whether the site has VAPID keys, without which nothing is pushed."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def account_context(user) -> dict:
    """What the preferences page shows of the user's devices."""
    return {
        "push_enabled": enabled(),
        "vapid_public_key": settings.VAPID_PUBLIC_KEY,
        "push_devices": list(PushSubscription.objects.filter(user=user).order_by("pk")),
    }


def subscribe(user, *, endpoint: str, p256dh: str, auth: str, device: str) -> PushSubscription:
    """Keep the browser's subscription for ``user``: a browser that subscribed before (the
    same endpoint) is updated, and moves to ``user`` if another account had it. A user
    keeps his DEVICES_MOST newest devices: a newer one forgets the oldest."""
    with transaction.atomic():
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": p256dh, "auth": auth, "device": device},
        )
        kept = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
        PushSubscription.objects.filter(pk__in=kept.values("pk")[DEVICES_MOST:]).delete()
    return subscription


def logged_out(sender, request, user, **kwargs) -> None:
    """user_logged_out: the browser that logs out gets no more notices of his (the next
    person at a shared computer would read them)."""
    device = request.session.get(SESSION_DEVICE) if request is not None else None
    if device is not None and user is not None:
        PushSubscription.objects.filter(pk=device, user=user).delete()


# What a device is called in the list of the user's devices: its browser and system, as
# its User-Agent names them (the first of each list that matches).
BROWSERS = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome")]
BROWSERS += [("Safari/", "Safari")]
SYSTEMS = [("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iPadOS"), ("Windows", "Windows")]
SYSTEMS += [("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux")]


def device_label(user_agent: str) -> str:
    """ "Firefox · Android": the browser and system a User-Agent names, or "" for neither."""
    names = [
        next((name for mark, name in marks if mark in user_agent), "")
        for marks in (BROWSERS, SYSTEMS)
    ]
    return " · ".join(name for name in names if name)


def try_device(subscription: PushSubscription) -> None:
    """Push a test notice to one device, in its owner's language; ServiceError when the
    site pushes nothing, or its owner asked for several just now."""
    if not enabled():
        raise ServiceError(gettext("This site sends no notices."))
    asked = throttling.counted(f"push-test:{subscription.user_id}", TESTS_WINDOW)
    if asked > TESTS_LIMIT:
        raise ServiceError(
            gettext("You asked for several test notices just now: wait a few minutes.")
        )
    with outgoing.reading_as(subscription.user):
        notice = Notice(
            title=gettext("Courier"),
            body=gettext("Notices reach this device."),
            url=outgoing.site_url(reverse("campaign:preferences")),
            tag="test",
        )
    transaction.on_commit(lambda: _enqueue(subscription.pk, notice))


def notify(campaign, kind: str, users: Iterable, write: Callable[[], Notice]) -> int:
    """Once the transaction commits, push ``write()`` (written in each reader's language)
    to every device of each of ``users`` who has not turned this ``kind`` (MailKind) off
    for ``campaign``; returns the number of users with a device."""
    users = {user.pk: user for user in users}
    if not enabled() or not users:
        return 0
    devices: dict[int, list[int]] = {}
    for pk, user_id in PushSubscription.objects.filter(user__in=users).values_list("pk", "user_id"):
        devices.setdefault(user_id, []).append(pk)
    choices = MailChoice.of_users(campaign.pk, devices) if devices else {}
    for user_id, subscriptions in devices.items():
        if not choices[user_id].wants(kind):
            continue
        with outgoing.reading_as(users[user_id]):
            notice = write()
        for pk in subscriptions:
            transaction.on_commit(lambda pk=pk, notice=notice: _enqueue(pk, notice))
    return len(devices)


def _enqueue(subscription_id: int, notice: Notice) -> None:
    deliver_push.enqueue(subscription_id, asdict(notice))


GONE = (404, 410)  # the push service no longer knows the subscription
LATER = (429, 500, 502, 503, 504)  # the push service asks to be tried again


@task()
def deliver_push(subscription_id: int, notice: dict, attempt: int = 1) -> str:
    """Push ``notice`` to one device; a device its push service no longer knows is forgotten,
    a busy or failing push service tried again later (as mail is), any other refusal
    logged and given up. Each outcome is counted (courier/metrics.py)."""
    outcome = _push(subscription_id, notice, attempt)
    metrics.push_delivered(outcome)
    return outcome


def _push(subscription_id: int, notice: dict, attempt: int) -> str:
    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    if subscription is None:
        return "removed"
    if not enabled():
        logger.error("Push to %s not sent: the site has no VAPID keys", subscription.endpoint)
        return "refused"
    try:
        address = webhooks.webhook_address(subscription.endpoint)
    except webhooks.WebhookHostNotFound as not_found:
        return delivery.retry_later(deliver_push, (subscription_id, notice), attempt, not_found)
    except webhooks.WebhookRefused as refusal:
        logger.error("Push to %s not sent: %s", subscription.endpoint, refusal)
        return "refused"
    try:
        body, headers = request(subscription, notice)
    except (ValueError, VapidException) as error:  # keys or an address it cannot sign for
        logger.error("Push to %s not sent: %s", subscription.endpoint, error)
        return "refused"
    try:
        status, reason = delivery.post(subscription.endpoint, address, body, headers)
    except (OSError, http.client.HTTPException) as error:
        return delivery.retry_later(deliver_push, (subscription_id, notice), attempt, error)
    if status in GONE:
        forget(subscription_id)
        return "gone"
    if status in LATER:
        failure = ConnectionError(f"HTTP {status} {reason}")
        return delivery.retry_later(deliver_push, (subscription_id, notice), attempt, failure)
    if not 200 <= status < 300:
        logger.error("Push to %s refused: HTTP %s %s", subscription.endpoint, status, reason)
        return "refused"
    sent(subscription_id)
    return "sent"


def request(subscription: PushSubscription, notice: dict) -> tuple[bytes, dict[str, str]]:
    """The body and headers of the push of ``notice`` to ``subscription``: its payload
    encrypted with the device's keys (aes128gcm) and the site's VAPID signature for the
    push service's origin."""
    keys = {"p256dh": subscription.p256dh, "auth": subscription.auth}
    pusher = WebPusher({"endpoint": subscription.endpoint, "keys": keys})
    body = pusher.encode(json.dumps(notice).encode(), "aes128gcm")["body"]
    endpoint = urlsplit(subscription.endpoint)
    claims = {
        "aud": f"{endpoint.scheme}://{endpoint.netloc}",
        "exp": int(time.time()) + SIGNATURE_HOURS * 3600,
        "sub": settings.VAPID_SUBJECT,
    }
    headers = Vapid02.from_string(settings.VAPID_PRIVATE_KEY).sign(claims)
    headers |= {
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(TTL),
        "Urgency": notice.get("urgency", "normal"),
    }
    return body, headers


def sent(subscription_id: int) -> None:
    """Note that a notice reached the device's push service."""
    PushSubscription.objects.filter(pk=subscription_id).update(last_sent_at=timezone.now())


def forget(subscription_id: int) -> None:
    """Drop a device its push service no longer knows (it answered 404 or 410)."""
    PushSubscription.objects.filter(pk=subscription_id).delete()
