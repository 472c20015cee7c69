"""The signed tokens a mail carries: in its reply address (who answers, to what) and in
its one-click unsubscribe link (whom to stop mailing what, from which campaign).

A reply address is ``<MAIL_REPLY_LOCAL>+<token>@<MAIL_REPLY_DOMAIN>``, the token short
enough for a mail address's local part (64 characters at most) and in lower case, for
mail servers may change the case: ``o-1f-2a-4e21-<mac>``, the purpose, its target (a
phase for orders, a channel for press), the user and the last day it is good for, in
hexadecimal, then 80 bits of an HMAC over them with the site's secret key.
"""

from __future__ import annotations

import base64
import hmac
from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.core import signing
from django.utils import timezone
from django.utils.crypto import salted_hmac

REPLY_SALT = "campaign.mail_tokens.reply"
UNSUBSCRIBE_SALT = "campaign.mail_tokens.unsubscribe"
REPLY_DAYS = 30  # a reply address works this long after its mail was written
EPOCH = date(2000, 1, 1)


class Purpose:
    ORDERS = "o"  # target: the phase whose orders the answer gives
    PRESS = "p"  # target: the channel the answer is written to


@dataclass(frozen=True)
class ReplyToken:
    purpose: str
    target: int
    user_id: int
    last_day: date


class TokenRefused(Exception):
    """A reply address that Courier did not write, or whose time is over."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason  # "missing", "forged" or "expired"


def _mac(body: str) -> str:
    digest = salted_hmac(REPLY_SALT, body, algorithm="sha256").digest()[:10]
    return base64.b32encode(digest).decode().lower()


def reply_address(purpose: str, target: int, user_id: int) -> str:
    """The address an answer about ``target`` by this user is to be sent to; "" when
    Courier takes no answers by mail (no MAIL_REPLY_DOMAIN)."""
    if not settings.MAIL_REPLY_DOMAIN:
        return ""
    last_day = timezone.now().date() + timedelta(days=REPLY_DAYS)
    body = f"{purpose}-{target:x}-{user_id:x}-{(last_day - EPOCH).days:x}"
    return f"{settings.MAIL_REPLY_LOCAL}+{body}-{_mac(body)}@{settings.MAIL_REPLY_DOMAIN}"


def reply_token(addresses) -> ReplyToken:
    """The token of the first of ``addresses`` that is a reply address of this site,
    checked; raises TokenRefused when there is none, or it is forged or expired."""
    prefix = f"{settings.MAIL_REPLY_LOCAL}+".casefold()
    domain = f"@{settings.MAIL_REPLY_DOMAIN}".casefold()
    for address in addresses:
        address = address.strip().casefold()
        if settings.MAIL_REPLY_DOMAIN and address.startswith(prefix) and address.endswith(domain):
            return _checked(address[len(prefix) : -len(domain)])
    raise TokenRefused("missing")


def _checked(token: str) -> ReplyToken:
    body, _, mac = token.rpartition("-")
    parts = body.split("-")
    if len(parts) != 4 or not hmac.compare_digest(_mac(body), mac):
        raise TokenRefused("forged")
    purpose, *numbers = parts
    try:
        target, user_id, day = (int(n, 16) for n in numbers)
    except ValueError:
        raise TokenRefused("forged") from None
    found = ReplyToken(purpose, target, user_id, EPOCH + timedelta(days=day))
    if found.last_day < timezone.now().date():
        raise TokenRefused("expired")
    return found


def unsubscribe_token(user_id: int, campaign_id: int, kind: str) -> str:
    """The signed part of the link that turns one kind of mail from one campaign off for
    one user."""
    return signing.dumps([user_id, campaign_id, kind], salt=UNSUBSCRIBE_SALT)


def unsubscribe_target(token: str) -> tuple[int, int, str]:
    """(user, campaign, kind) of an unsubscribe token; raises signing.BadSignature."""
    found = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if not (isinstance(found, list) and len(found) == 3):
        raise signing.BadSignature("not an unsubscribe token")
    user_id, campaign_id, kind = found
    if not (isinstance(user_id, int) and isinstance(campaign_id, int) and isinstance(kind, str)):
        raise signing.BadSignature("not an unsubscribe token")
    return user_id, campaign_id, kind
