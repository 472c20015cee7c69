"""The development outbox: in development without a mail server (settings.MAIL_OUTBOX),
every mail Courier sends is kept as an RFC 5322 file in settings.MAIL_OUTBOX_DIR instead,
for its recipient to read, and answer, in the browser (campaign/views/outbox.py).

Never used in a deployment: there, mail goes out through a sending service or an SMTP
server (courier/settings.py).
"""

from __future__ import annotations

import os
import re
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend

# A kept mail's file name, and its id: the time it was written, in nanoseconds and padded
# to sort as it does, and a random part against two processes writing at the same time.
KEPT_NAME = re.compile(r"\d{20}-[0-9a-f]{32}\.eml", re.ASCII)
# The schemes of a List-Unsubscribe address that the outbox shows as a link.
LINK_SCHEMES = ("https://", "http://", "mailto:")


class OutboxBackend(BaseEmailBackend):
    """Django's mail backend that keeps each message as a file of the outbox."""

    def send_messages(self, email_messages) -> int:
        kept = 0
        for message in email_messages:
            if not message.recipients():
                continue
            try:
                keep(message.message().as_bytes())
            except OSError:
                if not self.fail_silently:
                    raise
            else:
                kept += 1
        return kept


def outbox_dir() -> Path:
    return Path(settings.MAIL_OUTBOX_DIR)


def keep(raw: bytes) -> str:
    """Write one mail into the outbox, whole or not at all; returns its id."""
    directory = outbox_dir()
    directory.mkdir(parents=True, exist_ok=True)
    mail_id = f"{time.time_ns():020d}-{uuid.uuid4().hex}.eml"
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(raw)
        os.replace(temporary, directory / mail_id)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return mail_id


class MailNotKept(LookupError):
    """No such mail in the outbox for that address."""


@dataclass(frozen=True)
class Summary:
    """What a list of mails shows of one."""

    id: str
    subject: str
    date: datetime | None
    sender: str
    reply_to: str  # the address an answer goes to, or ""

    @classmethod
    def of(cls, mail_id: str, message: EmailMessage) -> Summary:
        date = message["Date"]
        return cls(
            id=mail_id,
            subject=str(message["Subject"] or ""),
            date=date.datetime if date else None,
            sender=str(message["From"] or ""),
            reply_to=reply_address(message),
        )


def mails_for(address: str) -> list[Summary]:
    """The mails kept for ``address`` (in To or Cc), the newest first."""
    paths = sorted(outbox_dir().glob("*.eml"), reverse=True)
    found = []
    for path in paths:
        if KEPT_NAME.fullmatch(path.name):
            message = parse(path, headers_only=True)
            if addressed_to(message, address):
                found.append(Summary.of(path.name, message))
    return found


def read(mail_id: str, address: str) -> EmailMessage:
    """The kept mail ``mail_id`` if it was sent to ``address``; MailNotKept if not."""
    path = outbox_dir() / mail_id
    if not KEPT_NAME.fullmatch(mail_id) or not path.is_file():
        raise MailNotKept(mail_id)
    message = parse(path, headers_only=False)
    if not addressed_to(message, address):
        raise MailNotKept(mail_id)
    return message


def parse(path: Path, *, headers_only: bool) -> EmailMessage:
    with path.open("rb") as file:
        return BytesParser(policy=policy.default).parse(file, headersonly=headers_only)


def addressed_to(message: EmailMessage, address: str) -> bool:
    """Whether ``address`` is among the message's To and Cc addresses (in any case)."""
    wanted = address.strip().casefold()
    headers = [*message.get_all("To", []), *message.get_all("Cc", [])]
    return bool(wanted) and any(
        mailbox.addr_spec.casefold() == wanted for header in headers for mailbox in header.addresses
    )


def reply_address(message: EmailMessage) -> str:
    """The address an answer to ``message`` goes to (its Reply-To), or ""."""
    header = message["Reply-To"]
    return header.addresses[0].addr_spec if header and header.addresses else ""


def unsubscribe_links(message: EmailMessage) -> list[str]:
    """The web and mail addresses of the message's List-Unsubscribe header."""
    header = str(message["List-Unsubscribe"] or "")
    return [link for link in re.findall(r"<([^<>\s]+)>", header) if link.startswith(LINK_SCHEMES)]


def text_part(message: EmailMessage) -> str:
    """The message's plain text, or "" if it has none."""
    part = message.get_body(("plain",))
    return part.get_content() if part else ""


def html_part(message: EmailMessage) -> str | None:
    """The message's HTML, or None if it has none."""
    part = message.get_body(("html",))
    return part.get_content() if part else None


def reply(kept: EmailMessage, sender: str, text: str) -> bytes:
    """The answer to ``kept`` a mail client would send for ``sender``: ``text`` over the
    kept mail's text, quoted, to its Reply-To address."""
    answer = EmailMessage(policy=policy.SMTP)
    answer["From"] = sender
    answer["To"] = reply_address(kept)
    answer["Subject"] = answer_subject(str(kept["Subject"] or ""))
    message_id = kept["Message-ID"]
    if message_id:
        answer["In-Reply-To"] = message_id
        answer["References"] = f"{kept['References'] or ''} {message_id}".strip()
    answer["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "localhost")
    answer["Date"] = datetime.now(UTC)
    attribution = f"On {kept['Date']}, {kept['From']} wrote:"
    answer.set_content(f"{text}\n\n{attribution}\n{quoted(text_part(kept))}")
    return answer.as_bytes()


def answer_subject(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines()) + "\n"
