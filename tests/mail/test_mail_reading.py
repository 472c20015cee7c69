"""Reading the replies players mail to Courier (campaign/jobs/mail_reading.py), without a database.

The samples in tests/mail/samples are raw messages as the common clients send them (most
with CRLF line ends as on the wire; those with Return-Path and Delivered-To as a local
delivery stores them, with LF), each answering a Courier mail whose Reply-To was REPLY.
Each is read to exactly what the reply service needs; the small cases after them show each
rule alone; the properties show that any plain text comes back as it was written, and that
no bytes make the reader fail other than by UnreadableMail."""

from __future__ import annotations

import base64
import contextlib
import quopri
import re
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.jobs.mail_reading import Incoming, UnreadableMail, read

SAMPLES = Path(__file__).parent / "samples"
ROOT = Path(__file__).resolve().parents[2]
REPLY = "courier+o-1f-2a-4e21-abcdefghij234567@mail.example.org"
ORDERS = "Re: Your orders: Pax Baltica, spring 1701"

EXPECTED = {
    "thunderbird.eml": Incoming(
        sender="johann.fischer@example.de",
        recipients=(REPLY,),
        message_id="6b1e0c9a-3f4d-4c2e-9a71-0d5e8f2b7c41@example.de",
        subject="Re: Press: Sweden to Saxony-Poland",
        text=(
            "Then let the King hear this: the Elector\u2019s envoy waits at Altranst\u00e4dt and"
            " will sign whatever keeps the Swedish army out of Leipzig this winter.\n\nAugust"
        ),
        automatic=False,
    ),
    "gmail.eml": Incoming(
        sender="anna.petrova@gmail.com",
        recipients=(REPLY,),
        message_id="CAF3x+Yk2=pQ0c7mT4n8VQe1Zr5Lw9sJd0aHbG6uE1oKfRtXy2A@mail.gmail.com",
        subject=ORDERS,
        text="Saxony-Poland: 2\nREADY",
        automatic=False,
    ),
    "outlook_html_russian.eml": Incoming(
        sender="ivan.volkov@outlook.com",
        recipients=(REPLY, "petr.sheremetev@example.ru"),
        message_id=(
            "AM8PR07MB7603C2E3B0F4A2D5E6F7A8B9C0D1A@AM8PR07MB7603.eurprd07.prod.outlook.com"
        ),
        subject="RE: Пресса: Швеция — России",
        text="Москва предлагает мир.\n\nЦарь ждёт ответа Стокгольма до весны «без промедления».",
        automatic=False,
    ),
    "apple_mail_iphone.eml": Incoming(
        sender="erik.lindqvist@icloud.com",
        recipients=(REPLY,),
        message_id="7C1E0A52-3B9D-4F1A-9E2B-5D6C7A8B9F01@icloud.com",
        subject=ORDERS,
        text="Sweden: 3\nREADY",
        automatic=False,
    ),
    "greek_iso_8859_7.eml": Incoming(
        sender="nikos.papadopoulos@example.gr",
        recipients=(REPLY,),  # Delivered-To and To: the same address, once
        message_id="20261205163105.6f1c2a3b@kallisto.example.gr",
        subject="Re: Τύπος: Αυστρία προς Ελλάδα",
        text="Αθήνα προτείνει ειρήνη.\nΟι πρέσβεις μας φτάνουν στη Βιέννη πριν από το Πάσχα.",
        automatic=False,
    ),
    "russian_koi8r_base64.eml": Incoming(
        sender="dmitri.orlov@mail.example.ru",
        recipients=("courier@mail.example.org", REPLY),  # Delivered-To, then X-Original-To
        message_id="1733410085.123456789@f512.i.mail.example.ru",
        subject="Re: Пресса: Швеция - России",
        text="Москва предлагает мир.\nЦарь ждёт ответа Стокгольма до весны.",
        automatic=False,
    ),
    "russian_windows_1251.eml": Incoming(
        sender="petr.sheremetev@example.ru",
        recipients=(REPLY,),
        message_id="1187512463.20261205175830@example.ru",
        subject="Re: Ваши приказы: Pax Baltica, весна 1701",
        text="Russia: 4\nREADY",
        automatic=False,
    ),
    "forwarded.eml": Incoming(
        sender="anna.petrova@gmail.com",
        recipients=(REPLY,),
        message_id="CAF3x+Yn8vT0q=Hk5LwA2sR9Jd3bPz7eXc1mUg4oNfQy6iKtZ0w@mail.gmail.com",
        subject="Fwd: Your orders: Pax Baltica, spring 1701",
        text="Saxony-Poland: 3\nREADY",
        automatic=False,
    ),
    "out_of_office.eml": Incoming(
        sender="lars.nilsson@example.se",
        recipients=(REPLY,),
        message_id="4e5d6c7b8a9f40e1b2c3d4e5f6a7b8c9@EXCH01.example.se",
        subject="Automatic reply: Your orders: Pax Baltica, spring 1701",
        text="I am out of the office until 4 January 2027 with limited access to mail.\n\nLars",
        automatic=True,
    ),
    "vacation.eml": Incoming(
        sender="olga.smirnova@example.ru",
        recipients=(REPLY,),
        message_id="20261205170012.AB12C34D56@mx.example.ru",
        subject="Автоответ: Re: Пресса: Швеция — России",
        text="Я в отпуске до 15 декабря.",
        automatic=True,
    ),
    "bounce.eml": Incoming(
        sender="MAILER-DAEMON@mx.example.net",
        recipients=(REPLY,),
        message_id="20261205140203.4Rk3Bv1cQ0z1xYz@mx.example.net",
        subject="Undelivered Mail Returned to Sender",
        text=(
            "This is the mail system at host mx.example.net.\n\n"
            "I'm sorry to have to inform you that your message could not\n"
            "be delivered to one or more recipients. It's attached below.\n\n"
            "                   The mail system\n\n"
            "<lars.nilsson@example.net>: host mx.example.net[203.0.113.25] said: 550 5.1.1\n"
            "    User unknown (in reply to RCPT TO command)"
        ),
        automatic=True,
    ),
    "bulk.eml": Incoming(
        sender="news@wargamevault.example.com",
        recipients=(REPLY,),
        message_id="nl-2026-49.7781@wargamevault.example.com",
        subject="New this week: three Great Northern War scenarios",
        text="Three new scenarios for the Great Northern War are out this week.",
        automatic=True,
    ),
    "unknown_charset.eml": Incoming(
        sender="jan.kowalski@example.pl",
        recipients=(REPLY,),
        message_id="5f0e1d2c.3b4a.4c5d@example.pl",
        subject=ORDERS,
        text="Saxony-Poland: 2\nREADY — Jan Kowalski, Kraków",
        automatic=False,
    ),
}


def sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def test_every_sample_has_its_expectation():
    assert sorted(path.name for path in SAMPLES.glob("*.eml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_sample_reads_to_what_the_reply_service_needs(name):
    assert read(sample(name)) == EXPECTED[name]


def test_the_samples_are_stored_as_sent_and_as_delivered():
    assert b"\r\n" in sample("gmail.eml")
    assert b"\r\n" not in sample("greek_iso_8859_7.eml")


def test_the_html_alternative_reads_as_the_plain_one():
    html_only = re.sub(
        rb"--000000000000f1e2d3c4b5a69788\r\nContent-Type: text/plain.*?(?=--0000)",
        b"",
        sample("gmail.eml"),
        flags=re.DOTALL,
    )
    assert b"text/plain" not in html_only
    assert read(html_only).text == "Saxony-Poland: 2\nREADY"


# -- building small mails ------------------------------------------------------------------


def mail(
    body: str | bytes,
    *,
    content_type: str = "text/plain; charset=utf-8",
    encoding: str = "8bit",
    headers: str = "",
    eol: str = "\n",
) -> bytes:
    """A reply to Courier with this body (str bodies as UTF-8) and these extra headers."""
    head = (
        f"From: Anna Petrova <anna@example.org>\nTo: Courier <{REPLY}>\n"
        f"Subject: {ORDERS}\nMessage-ID: <1@example.org>\n{headers}"
        f"MIME-Version: 1.0\nContent-Type: {content_type}\n"
        f"Content-Transfer-Encoding: {encoding}\n\n"
    )
    data = body.encode() if isinstance(body, str) else body
    return head.replace("\n", eol).encode() + data


def text_of(body: str, **kwargs) -> str:
    return read(mail(body, **kwargs)).text


def html_text(html: str) -> str:
    return text_of(html, content_type="text/html; charset=utf-8")


# -- what is not the new text --------------------------------------------------------------


def test_quoted_lines_are_dropped_wherever_they_are():
    body = "> Your orders?\nSaxony-Poland: 2\n>> older\n  > indented quote\nREADY\n"
    assert text_of(body) == "Saxony-Poland: 2\nREADY"


@pytest.mark.parametrize(
    "attribution",
    [
        "On Sat, 5 Dec 2026 at 14:00, Courier <courier@mail.example.org> wrote:",
        "On 05/12/2026 14:00, Courier wrote:",
        "Στις Σάβ 5 Δεκ 2026 στις 14:00, ο/η Courier <courier@mail.example.org> έγραψε:",
        "Courier <courier@mail.example.org> έγραψε:",
        "05.12.2026 14:00, Courier пишет:",
        "5 дек. 2026 г., в 14:00, Courier <courier@mail.example.org> написал(а):",
        "5 декабря 2026 г. Courier написал:",
        "сб, 5 дек. 2026 г. в 14:00, Courier <courier@mail.example.org>:",
    ],
)
def test_an_attribution_line_ends_the_text_above_an_unmarked_quote(attribution):
    body = f"Saxony-Poland: 2\nREADY\n\n{attribution}\nYour orders for spring 1701\n"
    assert text_of(body) == "Saxony-Poland: 2\nREADY"


@pytest.mark.parametrize(
    "attribution",
    [
        "On Sat, 5 Dec 2026 at 14:00, Courier <\ncourier@mail.example.org> wrote:",
        "On Sat, 5 Dec 2026 at 14:00, Courier <courier@mail.example.org>\nwrote:",
        "Στις Σάβ, 5 Δεκ 2026 14:00:00 +0000\nCourier <courier@mail.example.org> έγραψε:",
        "сб, 5 дек. 2026 г. в 14:00, Courier <\ncourier@mail.example.org>:",
    ],
)
def test_an_attribution_wrapped_over_two_lines_goes_whole(attribution):
    body = f"Saxony-Poland: 2\nREADY\n\n{attribution}\n\n> Your orders?\n"
    assert text_of(body) == "Saxony-Poland: 2\nREADY"


def test_a_reply_below_the_quote_is_kept():
    body = (
        "On 05/12/2026 14:00, Courier wrote:\n> Your orders?\n> -- \n> Courier\n\n"
        "Saxony-Poland: 2\nREADY\n"
    )
    assert text_of(body) == "Saxony-Poland: 2\nREADY"


@pytest.mark.parametrize(
    "line",
    [
        "On Tuesday the Tsar wrote:",  # neither a date nor an address
        "Царь пишет:",
        "Saxony -- Poland",
        "From: Moscow, with love",
        "Sent from my palace in Moscow",
    ],
)
def test_press_that_only_looks_like_a_marker_is_kept(line):
    assert text_of(f"{line}\nPeace in our time.\n") == f"{line}\nPeace in our time."


@pytest.mark.parametrize(
    "marker",
    [
        "-----Original Message-----",
        "----- Original Message -----",
        "-----Исходное сообщение-----",
        "________________________________",
        "From: Courier <courier@mail.example.org>\nSent: Saturday, December 5, 2026 2:00 PM",
        "*From:* Courier <courier@mail.example.org>\n*Sent:* Saturday, December 5, 2026 2:00 PM",
        "От: Courier <courier@mail.example.org>\nОтправлено: 5 декабря 2026 г. 14:00",
        "Από: Courier <courier@mail.example.org>\nΣτάλθηκε: Σάββατο, 5 Δεκεμβρίου 2026 14:00",
        "From: Courier <courier@mail.example.org>\nDate: Saturday, 5 December 2026 at 14:00",
        "---------- Forwarded message ---------",
        "-------- Forwarded Message --------",
        "Begin forwarded message:",
        "-------- Пересылаемое сообщение --------",
        "-------- Пересланное сообщение --------",
        "-- ",
        "--",
        "Sent from my iPhone",
        "Sent from my Android",
        "Sent from my Samsung Galaxy smartphone.",
        "Get Outlook for iOS",
        "Отправлено с iPhone",
        "Στάλθηκε από το iPhone μου",
    ],
)
def test_everything_from_a_marker_on_is_dropped(marker):
    body = f"\n\nMoscow offers peace.  \n\n{marker}\nTo: Anna\nSubject: Your orders\n\nquoted\n"
    assert text_of(body) == "Moscow offers peace."


def test_trailing_spaces_and_outer_blank_lines_go_inner_ones_stay():
    assert text_of("\n \n  Saxony-Poland: 2 \t\n\n\nREADY  \n\n") == "  Saxony-Poland: 2\n\n\nREADY"


@pytest.mark.parametrize("eol", ["\r\n", "\r"])
def test_any_line_end_becomes_a_newline(eol):
    body = f"Saxony-Poland: 2 {eol}READY{eol}{eol}> quoted{eol}"
    assert text_of(body, eol="\r\n") == "Saxony-Poland: 2\nREADY"


def test_format_flowed_lines_are_joined():
    body = "Peace with \n Sweden, \n>quoted \n>line\nREADY\n-- \nAnna\n"
    flowed = "text/plain; charset=utf-8; format=flowed"
    assert text_of(body, content_type=flowed) == "Peace with Sweden,\nREADY"
    assert text_of("Peace with \nSweden\n", content_type=f"{flowed}; delsp=yes") == (
        "Peace withSweden"
    )


# -- charsets and transfer encodings -------------------------------------------------------

PRESS = {
    "utf-8": "Москва предлагает мир — Αθήνα προτείνει ειρήνη",
    "iso-8859-7": "Αθήνα προτείνει ειρήνη",
    "koi8-r": "Москва предлагает мир, ёлки",
    "windows-1251": "Москва предлагает мир — «ёлки»",
}


def encoded(data: bytes, encoding: str) -> bytes:
    if encoding == "quoted-printable":
        return quopri.encodestring(data)
    if encoding == "base64":
        return base64.encodebytes(data)
    return data


@pytest.mark.parametrize("encoding", ["8bit", "quoted-printable", "base64"])
@pytest.mark.parametrize("charset", sorted(PRESS))
def test_every_charset_in_every_transfer_encoding(charset, encoding):
    body = encoded(f"{PRESS[charset]}\n".encode(charset), encoding)
    raw = mail(body, content_type=f'text/plain; charset="{charset.upper()}"', encoding=encoding)
    assert read(raw).text == PRESS[charset]


def test_seven_bit_ascii():
    assert text_of("Saxony-Poland: 2\n", encoding="7bit") == "Saxony-Poland: 2"


@pytest.mark.parametrize(
    "content_type, body, text",
    [
        ("text/plain; charset=x-unknown", "Kraków\n".encode(), "Kraków"),
        ("text/plain; charset=x-unknown", b"caf\xe9\n", "caf\ufffd"),
        ("text/plain; charset=us-ascii", "Kraków\n".encode(), "Kraków"),  # mislabelled
        ("text/plain; charset=utf-8", b"caf\xe9\n", "caf\ufffd"),
        ("text/plain; charset=windows-1251", b"\xcc\xee\xf1\xea\xe2\xe0 \x98\n", "Москва \ufffd"),
        ("text/plain; charset=base64", "Kraków\n".encode(), "Kraków"),  # a codec, no charset
        ("text/plain", "Kraków\n".encode(), "Kraków"),
    ],
)
def test_a_wrong_or_missing_charset_never_fails(content_type, body, text):
    assert read(mail(body, content_type=content_type)).text == text


def test_no_content_type_is_plain_text():
    raw = f"From: anna@example.org\nTo: {REPLY}\n\nSaxony-Poland: 2\n".encode()
    assert read(raw).text == "Saxony-Poland: 2"


def test_nul_and_lone_surrogates_are_replaced():
    assert text_of("Sax\x00ony\n") == "Sax\ufffdony"
    unicode_escape = mail(b"Sax\\ud800ony\n", content_type="text/plain; charset=unicode_escape")
    assert read(unicode_escape).text == "Sax\ufffdony"


# -- HTML ----------------------------------------------------------------------------------


def test_html_blocks_and_breaks_become_lines_and_entities_are_decoded():
    html = (
        "<html><head><title>Re</title><style>p {margin: 0}</style></head><body>"
        "<div>Saxony-Poland:&nbsp;2</div><div><br></div><p>Tom &amp; Jerry&#8217;s  \n"
        " &laquo;peace&raquo;</p>Line<br>break<ul><li>one</li><li>two</li></ul>"
        "<script>alert(1)</script><table><tr><td>a</td><td>b</td></tr></table></body></html>"
    )
    assert html_text(html) == (
        "Saxony-Poland: 2\n\nTom & Jerry\u2019s «peace»\nLine\nbreak\none\ntwo\na b"
    )


def test_html_preformatted_text_keeps_its_spaces():
    assert html_text("<p>a</p><pre>  x   y\n  z</pre>") == "a\n  x   y\n  z"


def test_html_head_without_its_end_tag_is_dropped():
    html = "<html><head><meta charset=utf-8><title>Re</title><body><p>Sweden: 3</p>"
    assert html_text(html) == "Sweden: 3"


def test_html_quotes_are_dropped():
    html = (
        "<div>Sweden: 3</div>"
        '<div class="moz-cite-prefix">On 05/12/2026 14:00, Courier wrote:<br></div>'
        '<blockquote type="cite"><div>Your orders?<blockquote>older</blockquote></div>'
        "<p>unclosed</blockquote><div>READY</div>"
        '<div class="gmail_quote gmail_quote_container"><div class="gmail_attr">On Sat, 5 Dec'
        " 2026 at 14:00, Courier wrote:</div><div><div>nested</div></div>"
        '<blockquote class="gmail_quote">quoted</blockquote></div>'
    )
    assert html_text(html) == "Sweden: 3\nREADY"


@pytest.mark.parametrize("start", ['<div id="appendonsend"></div>', '<div id="x_divRplyFwdMsg">'])
def test_html_ends_where_outlook_starts_the_quoted_mail(start):
    html = f"<div>Москва предлагает мир.</div>{start}<hr><b>От:</b> Courier<div>quoted</div>"
    assert html_text(html) == "Москва предлагает мир."


def test_the_plain_body_is_preferred_and_attachments_are_not_bodies():
    raw = (
        f"From: anna@example.org\nTo: {REPLY}\nMIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="m"\n\n'
        "--m\nContent-Type: text/plain\nContent-Disposition: attachment; filename=old.txt\n\n"
        "attached\n"
        '--m\nContent-Type: multipart/related; boundary="r"\n\n'
        '--r\nContent-Type: multipart/alternative; boundary="a"\n\n'
        "--a\nContent-Type: text/html\n\n<p>html</p>\n"
        "--a\nContent-Type: text/plain\n\nplain\n"
        "--a--\n--r\nContent-Type: image/png\nContent-ID: <i1>\n\nPNG\n--r--\n--m--\n"
    ).encode()
    assert read(raw).text == "plain"


def test_the_text_of_a_carried_mail_is_not_the_reply():
    carried = "Content-Type: message/rfc822\n\nFrom: courier@example.org\n\nYour orders?\n"
    raw = mail(
        f"--m\nContent-Type: text/plain\n\nSweden: 3\n--m\n{carried}--m--\n",
        content_type='multipart/mixed; boundary="m"',
    )
    assert read(raw).text == "Sweden: 3"
    only_carried = mail(f"--m\n{carried}--m--\n", content_type='multipart/mixed; boundary="m"')
    assert read(only_carried).text == ""


def test_outlook_desktop_html_ends_at_the_quoted_mail_s_headers():
    html = (
        "<html><head><style><!-- p.MsoNormal {margin:0cm} --></style></head><body>"
        '<div class="WordSection1"><p class="MsoNormal">Sweden: 3<o:p></o:p></p>'
        '<p class="MsoNormal">READY<o:p></o:p></p><p class="MsoNormal"><o:p>&nbsp;</o:p></p>'
        '<div style="border:none;border-top:solid #E1E1E1 1.0pt"><p class="MsoNormal"><b>'
        "<span lang=EN-US>From:</span></b><span lang=EN-US> Courier &lt;courier@example.org&gt;"
        "<br><b>Sent:</b> Saturday, December 5, 2026 2:00 PM<br><b>To:</b> Erik</span></p>"
        '</div><p class="MsoNormal">Your orders?</p></div></body></html>'
    )
    assert html_text(html) == "Sweden: 3\nREADY"


def test_mime_parameters_that_break_the_default_policy_are_read():
    # Python 3.11's default policy raises IndexError on a parameter name ending in "*"
    raw = mail("Sweden: 3\n", content_type="text/plain; format*=''flowed; charset*")
    assert read(raw).text == "Sweden: 3"
    attachment = mail("Sweden: 3\n", headers="Content-Disposition: inline; filename*0*\n")
    assert read(attachment).text == "Sweden: 3"


def test_multiparts_nested_too_deep_are_unreadable():
    level = "--b{0}\nContent-Type: multipart/mixed; boundary=b{1}\n\n"
    nested = "".join(level.format(depth, depth + 1) for depth in range(3000))
    with pytest.raises(UnreadableMail):
        read(mail(nested, content_type="multipart/mixed; boundary=b0"))


def test_a_mail_without_a_text_body_has_no_text():
    raw = mail(b"%PDF-1.7\n", content_type="application/pdf", encoding="binary")
    assert read(raw).text == ""


# -- headers -------------------------------------------------------------------------------


def test_the_recipients_most_reliable_first_each_once():
    headers = (
        f"Delivered-To: courier@mail.example.org\nX-Original-To: {REPLY}\n"
        "Cc: Petr <petr@example.ru>, courier@mail.example.org, undisclosed-recipients:;\n"
    )
    incoming = read(mail("x", headers=headers), envelope_recipient="<bounce@mail.example.org>")
    assert incoming.recipients == (
        "bounce@mail.example.org",
        "courier@mail.example.org",
        REPLY,
        "petr@example.ru",
    )


def test_the_sender_subject_and_message_id_as_written():
    raw = (
        b"From: =?utf-8?B?0JjQstCw0L0=?= <Ivan.Volkov@Example.RU>\n"
        b"Subject: =?utf-8?Q?Re:_=D0=9F=D1=80=D0=B5=D1=81=D1=81=D0=B0?=\n"
        b" folded\n"
        b"Message-ID:\n <  abc.123@example.ru  >\n\nx\n"
    )
    incoming = read(raw)
    assert (incoming.sender, incoming.subject, incoming.message_id) == (
        "Ivan.Volkov@Example.RU",
        "Re: Пресса folded",
        "abc.123@example.ru",
    )
    assert incoming.recipients == ()


def test_headers_in_raw_utf8_and_unknown_charsets_are_read():
    raw = (
        "From: Иван <ivan@example.ru>\nSubject: Пресса =?x-unknown?q?caf=C3=A9?=\n\nx\n"
    ).encode()
    incoming = read(raw)
    assert (incoming.sender, incoming.subject, incoming.message_id) == (
        "ivan@example.ru",
        "Пресса café",
        "",
    )


# -- mail sent by machines -----------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        "Auto-Submitted: auto-replied\n",
        "Auto-Submitted: auto-generated; owner-email=x@example.org\n",
        "Precedence: bulk\n",
        "Precedence: Junk\n",
        "Precedence: list\n",
        "Precedence: auto_reply\n",
        "X-Autoreply: yes\n",
        "X-Autorespond: Out of office\n",
        "X-Auto-Response-Suppress: All\n",
        "X-Auto-Response-Suppress: DR, OOF\n",
        "X-Auto-Response-Suppress: AutoReply\n",
        "Return-Path: <>\n",
        "Return-Path: < >\n",
    ],
)
def test_automatic_mail_by_its_headers(headers):
    assert read(mail("x", headers=headers)).automatic


@pytest.mark.parametrize(
    "headers",
    [
        "",
        "Auto-Submitted: no\n",
        "Precedence: first-class\n",
        "X-Auto-Response-Suppress: DR, RN, NRN\n",
        "Return-Path: <anna@example.org>\n",
    ],
)
def test_a_person_s_mail_is_not_automatic(headers):
    assert not read(mail("x", headers=headers)).automatic


@pytest.mark.parametrize("daemon", ["MAILER-DAEMON@mx.example.net", "postmaster@example.org"])
def test_mail_from_a_mail_system_is_automatic(daemon):
    raw = mail("x").replace(b"Anna Petrova <anna@example.org>", daemon.encode())
    assert read(raw).automatic


def test_a_report_is_automatic():
    raw = mail(
        "--r\nContent-Type: text/plain\n\nRead.\n--r--\n",
        content_type='multipart/report; report-type=disposition-notification; boundary="r"',
    )
    assert read(raw).automatic


def test_the_envelope_sender_when_given():
    assert read(mail("x"), envelope_sender="").automatic
    assert read(mail("x"), envelope_sender="<>").automatic
    assert not read(mail("x"), envelope_sender="anna@example.org").automatic
    assert not read(sample("gmail.eml"), envelope_sender="anna.petrova@gmail.com").automatic


# -- what is not a mail --------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"just some words\nand more\n",
        b"Subject: no sender\n\nbody\n",
        b"From: \nTo: x@example.org\n\nbody\n",
        b"\x00\xff\xfe",
    ],
)
def test_bytes_that_are_no_mail_are_unreadable(raw):
    with pytest.raises(UnreadableMail):
        read(raw)


def test_the_module_stays_pure():
    code = (
        "import sys, campaign.jobs.mail_reading; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'campaign')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert loaded.strip() == "['campaign', 'campaign.jobs', 'campaign.jobs.mail_reading']"


# -- properties ----------------------------------------------------------------------------

_printable_line = st.text(
    st.characters(blacklist_categories=("C", "Zl", "Zp"), blacklist_characters=">")
).filter(lambda line: not re.fullmatch(r"--|_{20,}", line.rstrip()))


@given(st.lists(_printable_line, max_size=12))
def test_any_plain_text_comes_back_as_written(lines):
    message = EmailMessage()
    message["From"] = "anna@example.org"
    message["To"] = REPLY
    message.set_content("\n".join(lines), charset="utf-8")
    expected = "\n".join(line.rstrip() for line in lines).strip("\n")
    assert read(message.as_bytes()).text == expected


def read_or_refuse(raw: bytes) -> None:
    with contextlib.suppress(UnreadableMail):
        assert isinstance(read(raw), Incoming)


@given(st.binary(max_size=2000))
def test_no_bytes_make_the_reader_fail(raw):
    read_or_refuse(b"From: anna@example.org\n" + raw)
    read_or_refuse(raw)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_sample_cut_short_is_read_or_refused(name):
    raw = sample(name)
    for end in range(0, len(raw), 11):  # a mail past the size limit is read cut short
        read_or_refuse(raw[:end])


@pytest.mark.parametrize(
    "body, subtype",
    [
        ("<" + "@" * 64_000, "plain"),  # once quadratic in the attribution's pattern: minutes
        (("x <" + "@" * 50 + " ") * 5_000, "plain"),
        ("<a " * 40_000, "html"),  # once quadratic in Python's HTML parser: minutes
    ],
    ids=["at-signs", "many-addresses", "unclosed-tags"],
)
def test_pathological_mail_is_read_as_the_text_it_is(body, subtype):
    raw = f"From: a@b.example\nContent-Type: text/{subtype}\n\n{body}".encode()
    assert read(raw).text == body.strip()


def test_html_the_parser_cannot_read_is_text():
    raw = b"From: a@b.example\nContent-Type: text/html\n\n<![<![x"
    assert read(raw).text == "<![<![x"
