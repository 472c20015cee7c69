"""Mail about the account itself: the password reset link, and the link that confirms a
mail address. Both are written and sent by the worker (`manage.py db_worker`), so that a
request's answer takes as long whether an account has the address or not, and neither
link is kept in the task's row (the task is given the address; it writes the link).

A password reset request (ask_password_reset) queues a mail only when the address had none
in the last PERIOD and the requesting client has not caused settings.PASSWORD_RESET_LIMIT
of them in the last hour; it decides without looking at the accounts, and the page that
answers is the same whatever it decided. A stranger's requests can thus neither flood a
mailbox nor keep its owner from a link: at most they send the owner the one mail of the
period, which the owner may use.

A mail address given at sign-up or in the preferences waits on the profile
(Profile.unconfirmed_email) until its owner follows the link mailed to it
(ask_confirmation, confirm); only then does it become User.email, the one address every
mail of the site goes to."""

from __future__ import annotations

import hashlib
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django_tasks import task

from campaign.errors import ServiceError
from campaign.models import Profile
from campaign.notify import outgoing
from campaign.notify.delivery import multipart, retry_later
from campaign.people.forms import RecipientsPasswordResetForm
from courier import throttling

PERIOD = 15 * 60  # seconds: at most one mail of each kind per address in this time
RESET_WINDOW = 60 * 60  # seconds: a client's PASSWORD_RESET_LIMIT mails in this time
CONFIRMATION_DAYS = 3  # a confirmation link works this long (and once)
CONFIRMATION_SALT = "campaign.account_mail.confirmation"


def _first_this_period(kind: str, address: str) -> bool:
    """True once per PERIOD for each kind of mail and address (in any case)."""
    digest = hashlib.sha256(address.strip().casefold().encode()).hexdigest()
    return cache.add(f"account-mail:{kind}:{digest}", 1, timeout=PERIOD)


# -- password reset -------------------------------------------------------------------


def ask_password_reset(address: str, client: str) -> bool:
    """A password reset asked for ``address`` from the client address ``client``: queue
    its mail, once the transaction commits, unless the client is past its limit or the
    address had one this period. True when queued (whether or not an account has the
    address: the worker finds out)."""
    client_key = f"password-reset:{client}"
    if throttling.count_of(client_key) >= settings.PASSWORD_RESET_LIMIT:
        return False  # counted before the address's period, which it thus leaves alone
    if not _first_this_period("reset", address):
        return False
    throttling.counted(client_key, RESET_WINDOW)
    transaction.on_commit(lambda: send_password_reset.enqueue(address))
    return True


@task()
def send_password_reset(address: str, attempt: int = 1) -> str:
    """Mail each active account of ``address`` (with a password) its reset link, in its
    language. Says "done" whether there was one or not."""
    form = RecipientsPasswordResetForm({"email": address})
    if not form.is_valid():
        return "done"
    site = urlsplit(outgoing.site_origin())
    try:
        form.save(
            domain_override=site.netloc,
            use_https=site.scheme == "https",
            extra_email_context={"site_name": "Courier"},
        )
    except Exception as error:
        return retry_later(send_password_reset, (address,), attempt, error)
    return "done"


# -- confirmation of a mail address -----------------------------------------------------


def ask_confirmation(user, address: str) -> None:
    """``address`` waits on ``user``'s profile for its owner to follow the link that is
    mailed to it (once the transaction commits; one mail an address per PERIOD, an
    earlier link still working)."""
    profile, _ = Profile.objects.get_or_create(user=user)
    profile.unconfirmed_email = address
    profile.save(update_fields=["unconfirmed_email"])
    if _first_this_period("confirm", address):
        transaction.on_commit(lambda: send_confirmation.enqueue(user.pk, address))


def confirmation_token(user_id: int, address: str) -> str:
    return signing.dumps({"user": user_id, "address": address}, salt=CONFIRMATION_SALT)


def confirmation_link(user_id: int, address: str) -> str:
    path = reverse("campaign:confirm_email", args=[confirmation_token(user_id, address)])
    return outgoing.site_url(path)


@task()
def send_confirmation(user_id: int, address: str, attempt: int = 1) -> str:
    """Mail ``address`` the link that confirms it, if it still waits on the profile."""
    profile = Profile.objects.select_related("user").filter(user_id=user_id).first()
    if profile is None or profile.unconfirmed_email.casefold() != address.casefold():
        return "no longer asked"
    taken = Profile.address_taken(address, profile.user)
    with translation.override(profile.language or settings.LANGUAGE_CODE):
        subject = gettext("[Courier] Confirm your mail address")
        body = (
            already_used(profile.user)
            if taken
            else gettext(
                "This address was given for the Courier account “%(user)s”. Courier sends it "
                "no mail until you confirm it by following this link within %(days)s days:\n\n"
                "%(link)s\n\nIf you have no such account, ignore this mail: Courier will not "
                "write to you."
            )
            % {
                "user": profile.user.get_username(),
                "days": CONFIRMATION_DAYS,
                "link": confirmation_link(user_id, address),
            }
        )
        mail = outgoing.compose(address, outgoing.Letter(subject, body.split("\n\n")))
    try:
        multipart(mail).send()
    except Exception as error:
        return retry_later(send_confirmation, (user_id, address), attempt, error)
    return "sent"


def already_used(user) -> str:
    """The mail to an address another account already uses, instead of a link: the forms
    accept any address, so that they tell nobody which addresses have accounts here."""
    return gettext(
        "This address was given for the Courier account “%(user)s”, but another Courier "
        "account already uses it, so it cannot be confirmed for this one. If that account "
        "is yours, log in with it (or reset its password). If you have no such account, "
        "ignore this mail."
    ) % {"user": user.get_username()}


class ConfirmationRefused(ServiceError):
    """A confirmation link that confirms nothing, with the reason to show."""


def waiting(token: str):
    """The (user, address) a confirmation link confirms, as long as the address still
    waits for it; else ConfirmationRefused."""
    try:
        found = signing.loads(
            token, salt=CONFIRMATION_SALT, max_age=CONFIRMATION_DAYS * 24 * 60 * 60
        )
        user_id, address = int(found["user"]), str(found["address"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise ConfirmationRefused(
            gettext("This link is not one Courier mailed, or is more than %(days)s days old.")
            % {"days": CONFIRMATION_DAYS}
        ) from None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    pending = Profile.objects.filter(user_id=user_id).values_list("unconfirmed_email", flat=True)
    if user is None or (pending.first() or "").casefold() != address.casefold():
        raise ConfirmationRefused(
            gettext("This link has been used already, or another address replaced it.")
        )
    return user, address


@transaction.atomic
def confirm(token: str):
    """The address the link confirms becomes its user's mail address; returns the user.
    A link works once: the address no longer waits after it."""
    user, address = waiting(token)
    profile = Profile.objects.select_for_update().get(user=user)
    user, address = waiting(token)  # again, under the profile's lock: one of two at once
    if Profile.address_taken(address, user):
        raise ConfirmationRefused(gettext("This mail address belongs to another account now."))
    user.email = address
    user.save(update_fields=["email"])
    profile.unconfirmed_email = ""
    profile.save(update_fields=["unconfirmed_email"])
    return user
