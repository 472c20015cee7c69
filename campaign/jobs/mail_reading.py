"""Reading the mails players send back to Courier: one raw message (RFC 5322 bytes) becomes an
Incoming, with its sender, every address it was sent to, whether a machine sent it (an
auto-reply, a bounce or bulk mail, which the reply service drops silently) and the new text
of the reply as plain text: without the quoted mail, the reply's attribution line, a
forwarded mail or the signature.

A pure module: the standard library only (email, html.parser), neither Django nor the
campaign app. The sample mails it is tested on are in tests/mail/samples."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import Message
from email.utils import collapse_rfc2231_value, getaddresses
from html.parser import HTMLParser


@dataclass(frozen=True)
class Incoming:
    """What the reply service needs of one mail."""

    sender: str  # the From address (addr-spec only, as written)
    recipients: tuple[str, ...]  # envelope, Delivered-To, X-Original-To, To, Cc: deduplicated
    message_id: str  # without the angle brackets ("" if none)
    subject: str  # RFC 2047 words decoded
    text: str  # the new text of the reply, as plain text
    automatic: bool  # an auto-reply, a bounce or bulk mail: to be dropped silently


class UnreadableMail(ValueError):
    """The bytes are not a mail: no headers, or no From address."""


def read(
    raw: bytes, *, envelope_sender: str | None = None, envelope_recipient: str = ""
) -> Incoming:
    """The mail ``raw`` as the reply service needs it. ``envelope_sender`` is the SMTP
    return path when the delivery gives it ("" for a bounce's null one), None when it does
    not; ``envelope_recipient`` the address the delivery was for, if it says."""
    message = _parsed(raw)
    senders = _addresses(_header_values(message, "From"))
    if not senders:
        raise UnreadableMail("no From address: not a mail")
    return Incoming(
        sender=senders[0],
        recipients=_recipients(message, envelope_recipient),
        message_id=_message_id(message),
        subject=_subject(message),
        text=_clean(_new_text(_body_text(message))),
        automatic=_is_automatic(message, senders[0], envelope_sender),
    )


def _parsed(raw: bytes) -> Message:
    """The mail's structure, parsed with the compat32 policy, which reads any MIME parameter:
    the default policy's parser raises IndexError on some (``charset*``, in Python 3.11).
    The headers are read here from their values as written."""
    try:
        return message_from_bytes(raw, policy=policy.compat32)
    except RecursionError:  # multiparts nested a thousand deep
        raise UnreadableMail("nested too deep") from None


# -- headers ---------------------------------------------------------------------------

_RAW_BYTES = re.compile("[\udc80-\udcff]+")  # the parser's surrogate escapes of 8-bit bytes
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # PostgreSQL takes neither


def _clean(text: str) -> str:
    """The text with raw 8-bit bytes read as UTF-8, and no NUL or lone surrogate."""
    return _UNSTORABLE.sub("\ufffd", _RAW_BYTES.sub(_raw_as_utf8, text))


def _raw_as_utf8(run: re.Match[str]) -> str:
    """A run of raw bytes (as surrogate escapes) read as UTF-8."""
    return bytes(ord(escape) - 0xDC00 for escape in run.group()).decode("utf-8", "replace")


def _header_values(message: Message, name: str) -> list[str]:
    """Every value of the header ``name``, as written (unparsed, so never refused)."""
    return [_clean(value) for key, value in message.raw_items() if key.lower() == name.lower()]


def _addresses(values: list[str]) -> list[str]:
    """The addr-specs in address header values, in order."""
    return [address for _name, address in getaddresses(values) if address]


def _recipients(message: Message, envelope_recipient: str) -> tuple[str, ...]:
    """Every address the mail was sent to, the most reliable first, each once."""
    addresses = _addresses([envelope_recipient])
    for name in ("Delivered-To", "X-Original-To", "To", "Cc"):
        addresses += _addresses(_header_values(message, name))
    return tuple(dict.fromkeys(addresses))


def _subject(message: Message) -> str:
    """The Subject with its RFC 2047 words decoded (as the default policy reads it)."""
    value = next(iter(_header_values(message, "Subject")), "")
    return _clean(str(policy.default.header_factory("Subject", re.sub(r"[\r\n]", "", value))))


def _message_id(message: Message) -> str:
    """The Message-ID without its angle brackets, "" if none."""
    value = next(iter(_header_values(message, "Message-ID")), "").strip()
    bracketed = re.search(r"<([^<>]*)>", value)
    return bracketed.group(1).strip() if bracketed else value


# -- mail sent by machines -------------------------------------------------------------

_BULK_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
_SUPPRESSED_RESPONSES = {"all", "oof", "autoreply"}
_DAEMONS = {"mailer-daemon", "postmaster"}


def _is_automatic(message: Message, sender: str, envelope_sender: str | None) -> bool:
    """True for an auto-reply, a bounce or another report, and bulk mail."""

    def values(name: str) -> list[str]:
        return [value.strip().lower() for value in _header_values(message, name)]

    return (
        any(value.split(";")[0].strip() != "no" for value in values("Auto-Submitted"))
        or any(value in _BULK_PRECEDENCE for value in values("Precedence"))
        or bool(values("X-Autoreply") or values("X-Autorespond"))
        or any(
            _SUPPRESSED_RESPONSES & set(re.split(r"[\s,]+", value))
            for value in values("X-Auto-Response-Suppress")
        )
        or any(re.sub(r"\s", "", value) == "<>" for value in values("Return-Path"))
        or (envelope_sender is not None and envelope_sender.strip() in ("", "<>"))
        or message.get_content_type() == "multipart/report"
        or sender.split("@")[0].lower() in _DAEMONS
    )


# -- the body as plain text ------------------------------------------------------------


def _body_text(message: Message) -> str:
    """The text of the mail's first text/plain part, else of its first text/html part; ""
    without either."""
    first_parts: dict[str, Message] = {}
    for part in _inline_text_parts(message):
        first_parts.setdefault(part.get_content_subtype(), part)
    part = first_parts.get("plain", first_parts.get("html"))
    if part is None:
        return ""
    # Not EmailMessage.get_content(): it raises LookupError on an unknown charset, and reads
    # a mislabelled one with replacement characters where UTF-8 would read it right.
    text = _decoded(part.get_payload(decode=True) or b"", part.get_content_charset())
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_subtype() == "html":
        return _html_text(text)
    if _parameter(part, "format") == "flowed":
        return _unflowed(text, delete_space=_parameter(part, "delsp") == "yes")
    return text


def _parameter(part: Message, name: str) -> str:
    """A Content-Type parameter's value in lower case ("" if none)."""
    return str(collapse_rfc2231_value(part.get_param(name, ""))).lower()


def _inline_text_parts(part: Message) -> Iterator[Message]:
    """The text parts of the mail that are no attachment, in order, in whatever multiparts
    (alternative, mixed, related...); not those of a mail it carries (message/rfc822)."""
    if part.get_content_disposition() == "attachment":
        return
    if part.get_content_maintype() == "multipart" and part.is_multipart():
        for subpart in part.get_payload():
            yield from _inline_text_parts(subpart)
    elif part.get_content_maintype() == "text":
        yield part


def _decoded(data: bytes, charset: str | None) -> str:
    """The bytes as text: in their charset, else in UTF-8, else in their charset with what
    cannot be read replaced; UTF-8 for an unknown charset."""
    for name, errors in ((charset, "strict"), ("utf-8", "strict"), (charset, "replace")):
        if name:
            try:
                return data.decode(name, errors)
            except (LookupError, ValueError):  # an unknown codec, or undecodable bytes
                continue
    return data.decode("utf-8", "replace")


def _unflowed(text: str, *, delete_space: bool) -> str:
    """A format=flowed text (RFC 3676) with its soft line breaks joined and the space
    stuffed at the start of a line removed."""
    lines: list[str] = []
    flowing_quote = None  # the quote marks of a line that flows on into the next
    for line in text.split("\n"):
        quote = re.match(r">*", line).group()
        content = line[len(quote) :].removeprefix(" ")
        if quote == flowing_quote:
            lines[-1] += content
        else:
            lines.append(quote + content)
        soft_break = content.endswith(" ") and content != "-- "
        if soft_break and delete_space:
            lines[-1] = lines[-1][:-1]
        flowing_quote = quote if soft_break else None
    return "\n".join(lines)


# -- HTML to text ----------------------------------------------------------------------

_BLOCKS = {
    "address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tr", "ul",
}  # fmt: skip
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}
_DROPPED_TAGS = {"blockquote", "head", "script", "style", "template", "title"}
# the quoted mail as Gmail, Thunderbird, Yahoo and Proton Mail mark it
_QUOTE_CLASSES = {"gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote"}
# where Outlook starts the quoted mail (its ids take "x_" when the mail is quoted again)
_QUOTE_START_IDS = {"appendonsend", "divRplyFwdMsg", "mail-editor-reference-message-container"}
_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")


class _HtmlText(HTMLParser):
    """The text of an HTML body: block elements and <br> become line breaks; the quoted
    mail, styles, scripts and the head are left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.dropping = ""  # the tag of the element being left out, with its nesting depth
        self.drop_depth = 0
        self.preformatted = 0
        self.quote_started = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" and self.dropping == "head":  # </head> may be left out
            self.dropping = ""
        if self.quote_started or self._dropped(tag, dict(attrs)):
            return
        if tag == "pre":
            self.preformatted += 1
        if tag == "br":
            self.chunks.append("\n")
        elif tag in ("td", "th") and not self._at_line_start():
            self.chunks.append(" ")
        elif tag in _BLOCKS:
            self._end_line()

    def handle_endtag(self, tag: str) -> None:
        if self.dropping:
            if tag == self.dropping:
                self.drop_depth -= 1
            if not self.drop_depth:
                self.dropping = ""
            return
        if tag == "pre" and self.preformatted:
            self.preformatted -= 1
        if tag in _BLOCKS and not self.quote_started:
            self._end_line()

    def handle_data(self, data: str) -> None:
        if self.quote_started or self.dropping:
            return
        if not self.preformatted:
            data = _HTML_SPACE.sub(" ", data)
            if self._at_line_start():
                data = data.lstrip(" ")
        if data:
            self.chunks.append(data)

    def _dropped(self, tag: str, attributes: dict[str, str | None]) -> bool:
        """Whether the element starting here is left out (noting where the quote starts)."""
        if self.dropping:
            if tag == self.dropping:
                self.drop_depth += 1
            return True
        if (attributes.get("id") or "").removeprefix("x_") in _QUOTE_START_IDS:
            self.quote_started = True
            return True
        classes = set((attributes.get("class") or "").split())
        if tag not in _DROPPED_TAGS and not classes & _QUOTE_CLASSES:
            return False
        if tag not in _VOID:
            self.dropping, self.drop_depth = tag, 1
        return True

    def _at_line_start(self) -> bool:
        return not self.chunks or self.chunks[-1].endswith("\n")

    def _end_line(self) -> None:
        if not self._at_line_start():
            self.chunks.append("\n")


def _html_text(html: str) -> str:
    """The text of an HTML body, without the quoted mail (entities decoded, no-break
    spaces as spaces). A "<" that opens no tag is text: Python's parser would take time
    that grows with the square of their number (or fail on some)."""
    parser = _HtmlText()
    try:
        parser.feed(_NOT_A_TAG.sub("&lt;", html[:LONGEST_HTML]))
        parser.close()
    except Exception as error:  # the standard library's parser gave up: no text to read
        raise UnreadableMail(f"unreadable HTML: {error}") from None
    return "".join(parser.chunks).replace("\xa0", " ")


LONGEST_HTML = 256 * 1024  # characters: the new text comes first, the quoted mail after
_NOT_A_TAG = re.compile(r"<(?![!/?a-zA-Z][^<>]*>)")


# -- the new text of a reply -----------------------------------------------------------

_QUOTED = re.compile(r"\s*>")
# "On Sat, 5 Dec 2026 at 14:00, Courier <x@y> wrote:" and its Greek and Russian kin, also
# Gmail's and Yandex's Russian one without a verb: always with a date or an address
_ATTRIBUTION = re.compile(
    r"(?=.*[\d@])"
    r"(On\s.*\swrote:"
    r"|(.*\s)?έγραψε:"
    r"|(.*\s)?(пишет|написал|написала|написал\(а\)):"
    r"|.*<\s*[^<>\s@]+@[^<>\s]+>:)"
)
LONGEST_ATTRIBUTION = 500  # characters: a longer line is none (nor read by the pattern)
_ATTRIBUTION_OPENING = re.compile(r"(On|Στις)\s")
_END_OF_NEW_TEXT = re.compile(
    r"--"  # the signature ("-- ", its trailing space stripped)
    r"|-{3,}\s*(Original Message|Исходное сообщение|Αρχικό μήνυμα)\s*-{3,}"
    r"|_{20,}"  # Outlook's line above the quoted mail's headers
    r"|-{5,}\s*(Forwarded message|Пересылаемое сообщение|Пересланное сообщение"
    r"|Προωθημένο μήνυμα)\s*-{5,}"
    r"|(Begin forwarded message|Начало переадресованного сообщения"
    r"|Αρχή προωθημένου μηνύματος):"
    r"|Sent from my (iPhone|iPad|Android|Samsung|Galaxy|BlackBerry|Huawei|Xiaomi|Pixel|mobile"
    r"|phone|smartphone|tablet)\b.*"
    r"|(Sent from|Get) Outlook for (iOS|Android)"
    r"|Sent from (Yahoo )?Mail (for|on) .*"
    r"|Отправлено (с|из) (моего )?(iPhone|iPad|Android|мобильн).*"
    r"|Στάλθηκε από (το|τη|την) \S+ μου",
    re.IGNORECASE,
)
# the headers Outlook puts above the quoted mail: From, then Sent or Date
_HEADER_FROM = re.compile(r"\*?(From|От|Από):\*?\s")
_HEADER_SENT = re.compile(r"\*?(Sent|Date|Отправлено|Дата|Στάλθηκε|Ημερομηνία):\*?\s")


def _new_text(text: str) -> str:
    """What the sender wrote: ``text`` without quoted lines, attribution lines, and all
    from a forwarded mail, the quoted mail's headers or the signature on."""
    lines = [line.rstrip() for line in text.split("\n")]
    kept: list[str] = []
    index = 0
    while index < len(lines) and not _ends_new_text(lines, index):
        attribution = _attribution_length(lines, index)
        if attribution and not _quote_follows(lines, index + attribution):
            break  # the quoted mail follows unmarked
        if not attribution and not _QUOTED.match(lines[index]):
            kept.append(lines[index])
        index += attribution or 1
    return "\n".join(kept).strip("\n")


def _attribution_length(lines: list[str], index: int) -> int:
    """How many lines the attribution starting at ``index`` spans (0 if none): one, or two
    when wrapped (Gmail: "On …, Courier <" and "x@y> wrote:")."""
    line = lines[index]
    if _QUOTED.match(line) or len(line) > LONGEST_ATTRIBUTION:
        return 0
    if _ATTRIBUTION.fullmatch(line):
        return 1
    if not line or index + 1 == len(lines):
        return 0
    following = lines[index + 1]
    if not _ATTRIBUTION.fullmatch(f"{line} {following}"):
        return 0
    opens = line.count("<") > line.count(">") or _ATTRIBUTION_OPENING.match(line)
    return 2 if opens or not _ATTRIBUTION.fullmatch(following) else 0


def _quote_follows(lines: list[str], index: int) -> bool:
    """Whether the first non-blank line from ``index`` on is quoted."""
    following = next((line for line in lines[index:] if line), "")
    return bool(_QUOTED.match(following))


def _ends_new_text(lines: list[str], index: int) -> bool:
    """Whether the new text ends before this line (a signature, a forwarded mail, a mobile
    footer, or the quoted mail's headers start here)."""
    line = lines[index]
    if _END_OF_NEW_TEXT.fullmatch(line):
        return True
    following = lines[index + 1] if index + 1 < len(lines) else ""
    return bool(_HEADER_FROM.match(line) and _HEADER_SENT.match(following))
