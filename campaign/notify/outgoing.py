"""Every mail Courier writes to a user, written the same way: in the user's language and
time zone, as one multipart mail (a plain-text part and an HTML part saying the same,
templates/mail/), with the headers that let the reader's client thread one campaign's
mails together and turn one kind of mail off in one click (RFC 8058), and, for a mail
that invites an answer, a Reply-To address that says who answers about what
(campaign/notify/mail_tokens.py, read back by campaign/jobs/mail_replies.py).

``send`` hands the mail to the worker at once (campaign/notify/delivery.py): a caller inside a
request does so once its transaction commits.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from email.utils import make_msgid
from urllib.parse import urlsplit

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from campaign.models import Campaign, MailKind, Profile
from campaign.notify import delivery, mail_tokens


@dataclass
class Letter:
    """What one mail says, written in its reader's language."""

    subject: str
    paragraphs: list[str]
    sections: list[tuple[str, list[str]]] = field(default_factory=list)  # a heading, its lines
    orders: str = ""  # orders in plain text, to answer with
    link: str = ""  # the page to act on


@dataclass(frozen=True)
class Answer:
    """What an answer to the mail does: give the orders of a phase, or write press to a
    channel (mail_tokens.Purpose), and the words that say so."""

    purpose: str
    target: int
    hint: Callable[[], str]


# The address the request being answered was served on, in development without
# COURIER_SITE_URL (campaign.middleware.ServedOriginMiddleware); empty otherwise. A context
# variable, not a setting: each request (each thread of the development server) its own.
_served_origin: ContextVar[str] = ContextVar("served_origin", default="")


@contextmanager
def served_at(origin: str):
    """Within: mail links lead to ``origin`` (the address a request was served on)."""
    token = _served_origin.set(origin)
    try:
        yield
    finally:
        _served_origin.reset(token)


def site_origin() -> str:
    """The address mail links lead to, without a final slash: settings.SITE_URL, or in
    development without COURIER_SITE_URL the one the request being answered came to."""
    return (_served_origin.get() or settings.SITE_URL).rstrip("/")


def site_url(path: str) -> str:
    """The site's address of ``path``, as a mail links to it."""
    return site_origin() + path


def _domain() -> str:
    return urlsplit(site_origin()).hostname or "localhost"


@contextmanager
def reading_as(user):
    """Write in the user's language and time zone (Profile.reading_of)."""
    language, zone = Profile.reading_of(user)
    with translation.override(language), timezone.override(zone):
        yield


def moment(value) -> str:
    """A moment as the reader reads it: in their time zone and language, the zone named
    ("Dec. 6, 2026, 14:00 (Europe/Athens)"), in 24 hours whatever the language."""
    local = timezone.localtime(value)
    day = formats.date_format(local, "DATE_FORMAT")
    return f"{day}, {local:%H:%M} ({timezone.get_current_timezone_name()})"


def thread_id(campaign: Campaign) -> str:
    """The Message-ID that every mail of the campaign answers, so that they thread."""
    return f"<campaign-{campaign.pk}@{_domain()}>"


def send(
    user,
    write: Callable[[], Letter],
    *,
    campaign: Campaign | None = None,
    kind: str | None = None,
    answer: Answer | None = None,
) -> None:
    """Write ``write()`` to the user as a multipart mail and hand it to the worker. A
    ``kind`` of mail (MailKind) from a ``campaign`` carries the link that turns it off;
    an ``answer`` the address to answer to. Nothing is sent to a user without an address."""
    if not user.email:
        return
    with reading_as(user):
        letter = write()
        reply_to = (
            mail_tokens.reply_address(answer.purpose, answer.target, user.pk) if answer else ""
        )
        if answer and not reply_to:  # orders written to be answered, where none is taken
            letter = replace(letter, orders="")
        mail = compose(
            user.email,
            letter,
            campaign=campaign,
            kind=kind,
            unsubscribe_url=_unsubscribe_url(user, campaign, kind),
            hint=answer.hint() if reply_to else "",
        )
    # the reader's id: a mail still queued when he deletes his account is not sent
    delivery.deliver_mail.enqueue({**mail, "reply_to": reply_to, "reader": user.pk})


def compose(
    to: str,
    letter: Letter,
    *,
    campaign: Campaign | None = None,
    kind: str | None = None,
    unsubscribe_url: str = "",
    hint: str = "",
) -> dict:
    """The mail as delivery.deliver_mail takes it, written in the active language: its
    text and HTML parts, and its headers (no Reply-To)."""
    context = {
        "letter": letter,
        "campaign": campaign,
        "hint": hint,
        "settings_url": _settings_url(campaign),
        "unsubscribe_url": unsubscribe_url,
        "kind": MailKind(kind).label if kind else "",
        "language": translation.get_language(),
    }
    context["footer"] = _footer(context)
    return {
        "to": to,
        "subject": " ".join(letter.subject.split()),  # one line, whatever a sender wrote
        "text": _text(context),
        "html": render_to_string("mail/message.html", context),
        "headers": _headers(campaign, unsubscribe_url),
        "reply_to": "",
    }


def _settings_url(campaign: Campaign | None) -> str:
    if campaign is None:
        return site_url(reverse("campaign:preferences"))
    return site_url(reverse("campaign:mail_settings", args=[campaign.pk]))


def _unsubscribe_url(user, campaign: Campaign | None, kind: str | None) -> str:
    if campaign is None or kind is None:
        return ""
    token = mail_tokens.unsubscribe_token(user.pk, campaign.pk, kind)
    return site_url(reverse("campaign:unsubscribe", args=[token]))


def _headers(campaign: Campaign | None, unsubscribe_url: str) -> dict[str, str]:
    headers = {"Message-ID": make_msgid(domain=_domain()), "Auto-Submitted": "auto-generated"}
    if campaign is not None:
        root = thread_id(campaign)
        headers |= {
            "In-Reply-To": root,
            "References": root,
            "List-Id": f"<campaign-{campaign.pk}.{_domain()}>",
        }
    if unsubscribe_url:
        headers |= {
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    return headers


def _footer(context: dict) -> list[str]:
    """Why the reader receives the mail and how to receive less, line by line."""
    lines = []
    if context["unsubscribe_url"]:
        lines.append(
            gettext("You receive this mail from %(campaign)s: %(kind)s.")
            % {"campaign": context["campaign"].name, "kind": context["kind"]}
        )
        lines.append(gettext("Turn this kind off: %(url)s") % {"url": context["unsubscribe_url"]})
    lines.append(gettext("Choose the mail you receive: %(url)s") % {"url": context["settings_url"]})
    return lines


def _text(context: dict) -> str:
    """The plain-text part: the same as the HTML part, line by line."""
    letter: Letter = context["letter"]
    blocks = list(letter.paragraphs)
    if context["hint"]:
        blocks.append(context["hint"])
    if letter.orders:
        blocks.append(letter.orders)
    blocks += ["\n".join([heading, *lines]) for heading, lines in letter.sections]
    if letter.link:
        blocks.append(letter.link)
    return "\n\n".join(blocks) + "\n\n-- \n" + "\n".join(context["footer"]) + "\n"
