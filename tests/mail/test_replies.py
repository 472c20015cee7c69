"""Answers by mail (campaign/jobs/mail_replies.py), written as mail clients write them: to the
Reply-To of the mail Courier queued, From the player's address, the original quoted below
an "On … wrote:" line, in Greek and Russian charsets or as HTML only. A reply to an orders
mail saves what the page's form would save (ready with READY, else a draft) or, when any
line is refused, nothing, and the answer says why line by line; a reply to a press mail is
written to the same channel as the replier's power, a private one staying private.

Whatever cannot be acted on (a forged, expired or borrowed token, another sender, a phase
that closed, a seat given to someone else, a replay, an oversized mail) changes nothing
and is answered once a day at most; an auto-reply or a bounce is never answered. The
sending service's inbound webhook (anymail, Postmark's raw MIME) reaches the same code.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import re
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import OperationalError
from django.test import Client, override_settings
from django.urls import include, path, reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from campaign.jobs import mail_replies
from campaign.models import (
    Campaign,
    MailChoice,
    Message,
    Order,
    PressMail,
    Profile,
    ReceivedMail,
    Seat,
)
from campaign.notify import mail_tokens
from campaign.play import services
from campaign.press import press
from campaign.press.press_mail import mail_message
from courier.urls import service_webhooks
from tests.factories import make_eia_campaign, seat_users
from tests.services.test_notifications import resolve, with_mail
from tests.services.test_scheduling import START

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).parent / "samples"
SAMPLE_ADDRESS = b"courier+o-1f-2a-4e21-abcdefghij234567@mail.example.org"
DELIVER = "campaign.notify.delivery.deliver_mail"


# -- the mail Courier queues ------------------------------------------------------------


def taken() -> list[dict]:
    """The mails queued since the last look (as campaign/notify/outgoing.py wrote them), taken
    off the queue."""
    rows = list(DBTaskResult.objects.filter(task_path=DELIVER))
    DBTaskResult.objects.filter(pk__in=[row.pk for row in rows]).delete()
    return [row.args_kwargs["args"][0] for row in rows]


def order_keys(text: str) -> list[str]:
    """The keys of the order lines a mail shows: "<key>: <value>", then "# <key>: …"."""
    lines = text.splitlines()
    pairs = [(line.split(": ")[0], after) for line, after in itertools.pairwise(lines)]
    return [key for key, after in pairs if after.startswith(f"# {key}: ")]


# -- the replies a client writes --------------------------------------------------------

ATTRIBUTIONS = {
    "en": "On {date}, Courier <{address}> wrote:",
    "el": "Στις {date}, ο/η Courier <{address}> έγραψε:",
    "ru": "{date}, Courier <{address}> написал:",
}


def reply(
    original: dict,
    text: str,
    *,
    sender: str = "",
    to: str = "",
    language: str = "en",
    charset: str = "utf-8",
    cte: str = "quoted-printable",
) -> bytes:
    """A plain-text reply to ``original`` with ``text`` above the quoted original."""
    message = headers(original, sender=sender, to=to)
    attribution = ATTRIBUTIONS[language].format(
        date=format_datetime(timezone.now()), address=original["reply_to"]
    )
    quoted = "\n".join(f"> {line}".rstrip() for line in original["text"].splitlines())
    body = f"{text}\n\n{attribution}\n\n{quoted}\n"
    message.set_content(
        body.encode(charset, "replace"), "text", "plain", cte=cte, params={"charset": charset}
    )
    return message.as_bytes()


def html_reply(original: dict, lines: list[str]) -> bytes:
    """An HTML-only reply as Outlook writes one: the new lines, then the original's HTML
    below its reply header."""
    message = headers(original)
    new = "".join(f'<div style="font-family: Aptos">{line}</div>' for line in lines)
    page = re.search(r"<body>(.*)</body>", original["html"], re.S).group(1)
    quote = (
        f'<div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> Courier<br>'
        f"<b>Sent:</b> {format_datetime(timezone.now())}</div>{page}"
    )
    message.set_content(f"<html><body>{new}{quote}</body></html>", subtype="html")
    return message.as_bytes()


def headers(original: dict, *, sender: str = "", to: str = "") -> EmailMessage:
    """A reply's headers: from the reader (or ``sender``), to the Reply-To (or ``to``),
    threaded under the original."""
    message = EmailMessage()
    message["From"] = f"A Player <{sender or original['to']}>"
    message["To"] = f"Courier <{to or original['reply_to']}>"
    message["Subject"] = f"Re: {original['subject']}"
    message["Date"] = format_datetime(timezone.now())
    message["Message-ID"] = make_msgid(domain="mail.example.net")
    message["In-Reply-To"] = message["References"] = original["headers"]["Message-ID"]
    return message


def sample(name: str, address: str, sender: str = "") -> bytes:
    """A sample mail sent to ``address`` (and from ``sender``, if given)."""
    raw = (SAMPLES / name).read_bytes().replace(SAMPLE_ADDRESS, address.encode())
    return raw.replace(b"lars.nilsson@example.se", sender.encode()) if sender else raw


def forged(address: str) -> str:
    """The address with one character of its token's MAC changed."""
    local, domain = address.split("@")
    last = "a" if local[-1] != "a" else "b"
    return f"{local[:-1]}{last}@{domain}"


# -- a campaign whose revolt step waits for orders ---------------------------------------


@pytest.fixture
def clock(time_machine):
    """The frozen clock, at START; clock(days=…) moves it on from where it is."""
    time_machine.move_to(START, tick=False)
    return lambda **delta: time_machine.move_to(timezone.now() + timedelta(**delta), tick=False)


@pytest.fixture
def revolt_step(clock, django_capture_on_commit_callbacks):
    """An EIA campaign (attempts counted per target: two order fields) whose revolt step
    has just opened: France (player) and Great Britain (other_player) owe orders, and
    their "is open" mails, with the orders to answer, are ``opened[role]``."""

    def build(languages: dict[str, str] | None = None):
        campaign = make_eia_campaign(options={"attempt_limit": "per_target"})
        users = with_mail(seat_users(campaign))
        for role, language in (languages or {}).items():
            Profile.objects.create(user=users[role], language=language)
        resolve(campaign, users, django_capture_on_commit_callbacks)
        campaign.refresh_from_db()
        by_address = {mail["to"]: mail for mail in taken() if mail["reply_to"]}
        opened = {role: by_address[users[role].email] for role in ("player", "other_player")}
        return campaign, users, opened

    return build


def france_order(campaign) -> Order | None:
    return Order.objects.filter(phase_id=campaign.phase_id, power__key="france").first()


def state(campaign) -> tuple:
    """What a refused mail must leave as it was: every order and message."""
    orders = Order.objects.filter(campaign=campaign).order_by("pk")
    return (
        list(orders.values_list("power_id", "payload", "ready", "updated_at")),
        list(Message.objects.filter(campaign=campaign).values_list("pk", "text")),
    )


# -- orders -----------------------------------------------------------------------------


def test_orders_by_mail_are_saved_ready_as_the_pages_form_saves_them(revolt_step):
    campaign, users, opened = revolt_step()
    mail = opened["player"]
    assert mail["reply_to"] == mail_tokens.reply_address(
        mail_tokens.Purpose.ORDERS, campaign.phase_id, users["player"].pk
    )
    text = "Revolt attempts: Minor 001 | Minor 003\nAttempts on each chosen target: 2\nREADY"
    assert mail_replies.receive(reply(mail, text)) == "orders saved"

    order = france_order(campaign)
    assert order.ready and order.submitted_by == users["player"]
    assert order.payload == {"targets": ["minor-1", "minor-1", "minor-3", "minor-3"]}
    (answer,) = taken()
    assert answer["to"] == users["player"].email and answer["reply_to"] == ""
    assert "Your orders were saved and marked ready." in answer["text"]
    assert "accepted: Revolt attempts: Minor 001 | Minor 003" in answer["text"]

    # The page's form, given the same values, saves the same orders.
    by_mail = (order.payload, order.ready)
    page = Client()
    page.force_login(users["player"])
    posted = {"phase": campaign.phase_id, "ready": "1", "targets": ["minor-1", "minor-3"]}
    response = page.post(reverse("campaign:orders", args=[campaign.pk]), {**posted, "repeat": 2})
    assert response.status_code == 302
    order.refresh_from_db()
    assert (order.payload, order.ready) == by_mail


def test_orders_without_ready_are_a_draft_and_the_answer_invites_another(revolt_step):
    campaign, users, opened = revolt_step()
    raw = reply(opened["player"], "Revolt attempts: Minor 005")
    assert mail_replies.receive(raw) == "orders saved"
    order = france_order(campaign)
    assert not order.ready and order.payload == {"targets": ["minor-5"]}
    (answer,) = taken()
    assert "Your orders were saved as a draft." in answer["text"]
    assert answer["reply_to"] == opened["player"]["reply_to"]


def test_one_refused_line_saves_nothing_and_each_line_is_answered(revolt_step):
    campaign, users, opened = revolt_step()
    text = "Revolt attempts: Minor 003\nAttempts on each chosen target: 7\nCavalry: 3\nREADY"
    assert mail_replies.receive(reply(opened["player"], text)) == "orders refused"
    assert france_order(campaign) is None

    (answer,) = taken()
    assert answer["to"] == users["player"].email
    assert answer["reply_to"].startswith("courier+o-")  # answer again to correct them
    lines = answer["text"]
    assert "Nothing was saved: correct the refused lines and answer again." in lines
    assert "accepted: Revolt attempts: Minor 003\n" in lines
    assert (
        "refused: Attempts on each chosen target: 7 — At most 3 attempts per target (EIA-1)."
        in lines
    )
    assert (
        "refused: Cavalry: 3 — These orders have no “Cavalry”; they have: Revolt attempts"
        " | Attempts on each chosen target." in lines
    )
    assert "accepted: READY" in lines  # every line is answered
    assert "refused: Cavalry: 3" in answer["html"]


@pytest.mark.parametrize(
    ("language", "charset", "cte"),
    [
        ("el", "iso-8859-7", "quoted-printable"),
        ("ru", "koi8-r", "base64"),
        ("ru", "windows-1251", "8bit"),
    ],
)
def test_a_greek_or_russian_reply_in_its_own_charset_gives_the_orders(
    revolt_step, language, charset, cte
):
    campaign, users, opened = revolt_step({"player": language})
    mail = opened["player"]
    targets, repeat = order_keys(mail["text"])
    assert not targets.isascii()  # the labels are the reader's language's
    text = f"{targets}: Minor 003\n{repeat}: 3\nREADY"
    raw = reply(mail, text, language=language, charset=charset, cte=cte)
    assert charset.encode() in raw.lower()

    assert mail_replies.receive(raw) == "orders saved"
    order = france_order(campaign)
    assert order.ready and order.payload == {"targets": ["minor-3"] * 3}
    (answer,) = taken()
    assert f"{targets}: Minor 003" in answer["text"]


def test_an_html_only_reply_gives_the_orders_above_the_quoted_mail(revolt_step):
    campaign, users, opened = revolt_step()
    raw = html_reply(opened["player"], ["Revolt attempts: Minor 001", "READY"])
    assert b"text/plain" not in raw
    assert mail_replies.receive(raw) == "orders saved"
    order = france_order(campaign)
    assert order.ready and order.payload == {"targets": ["minor-1"]}


# -- press ------------------------------------------------------------------------------


def press_mail(campaign, users, capture, **to) -> dict:
    """France writes to a channel; Great Britain (each message mailed) gets the mail."""
    MailChoice.objects.create(user=users["other_player"], campaign=campaign, press=PressMail.EACH)
    france = Seat.objects.select_related("campaign", "power").get(user=users["player"])
    with capture(execute=True):
        press.post_message(seat=france, text="Will you stand with me at Minor 003?", **to)
    (mail,) = [mail for mail in taken() if mail["to"] == users["other_player"].email]
    return mail


def test_a_press_reply_is_written_to_the_same_channel_as_the_repliers_power(
    revolt_step, django_capture_on_commit_callbacks
):
    campaign, users, _ = revolt_step()
    mail = press_mail(campaign, users, django_capture_on_commit_callbacks, to=press.PUBLIC)
    assert mail["reply_to"].startswith("courier+p-")
    answer = "Only if Austria stays out.\nGeorge"
    assert mail_replies.receive(reply(mail, answer)) == "press posted"

    written = Message.objects.filter(campaign=campaign).latest("pk")
    assert written.channel.key == press.PUBLIC
    assert written.power.key == "great_britain" and written.author == users["other_player"]
    assert written.text == answer  # without the quoted mail


def test_a_reply_to_private_press_stays_in_the_private_channel(
    revolt_step, django_capture_on_commit_callbacks
):
    campaign, users, _ = revolt_step()
    mail = press_mail(
        campaign,
        users,
        django_capture_on_commit_callbacks,
        to=press.PRIVATE_CHOICE,
        chosen=["great_britain"],
    )
    assert mail_replies.receive(reply(mail, "Agreed, in secret.")) == "press posted"
    written = Message.objects.filter(campaign=campaign).latest("pk")
    assert written.channel.key == "france+great_britain"

    seats = {seat.user: seat for seat in Seat.objects.filter(campaign=campaign, user__isnull=False)}
    for role in ("player", "other_player"):
        assert written in press.messages(seats[users[role]])
    for role in ("gm", "observer"):
        assert written not in press.messages(seats[users[role]])
        assert written.channel not in press.readable(seats[users[role]])


# -- refusals ---------------------------------------------------------------------------


def refused_answers(raw: bytes) -> tuple[list[str], list[dict]]:
    """The outcomes of the same bad mail received three times (a client sending it again
    writes a new Message-ID), and the answers queued."""
    outcomes = []
    for _ in range(3):
        again = f"Message-ID: {make_msgid(domain='mail.example.net')}".encode()
        raw = re.sub(rb"Message-ID: <[^>]+>", again, raw, count=1)
        outcomes.append(mail_replies.receive(raw))
    return outcomes, taken()


def forged_token(campaign, users, opened, clock) -> tuple[bytes, str]:
    mail = opened["player"]
    return reply(mail, "Revolt attempts: Minor 001", to=forged(mail["reply_to"])), "forged"


def expired_token(campaign, users, opened, clock) -> tuple[bytes, str]:
    clock(days=mail_tokens.REPLY_DAYS + 1)
    return reply(opened["player"], "Revolt attempts: Minor 001"), "expired"


def another_users_token(campaign, users, opened, clock) -> tuple[bytes, str]:
    """The player answers Great Britain's mail, forwarded to him."""
    raw = reply(opened["other_player"], "Revolt attempts: Minor 001", sender=users["player"].email)
    return raw, "other sender"


def another_address(campaign, users, opened, clock) -> tuple[bytes, str]:
    raw = reply(opened["player"], "Revolt attempts: Minor 001", sender="france@elsewhere.example")
    return raw, "other sender"


def phase_closed(campaign, users, opened, clock) -> tuple[bytes, str]:
    campaign.refresh_from_db()
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
    )
    taken()
    return reply(opened["player"], "Revolt attempts: Minor 001"), "closed"


def seat_given_away(campaign, users, opened, clock) -> tuple[bytes, str]:
    france = Seat.objects.get(campaign=campaign, power__key="france")
    services.assign_seat(seat=france, user=users["outsider"], actor=users["gm"])
    return reply(opened["player"], "Revolt attempts: Minor 001"), "no seat"


def oversized(campaign, users, opened, clock) -> tuple[bytes, str]:
    padding = "\n".join(["> " + "x" * 70] * 10_000)
    return reply(opened["player"], f"Revolt attempts: Minor 001\n\n{padding}"), "oversized"


REASONS = {
    "forged": "its address is not one Courier wrote, or it is too old",
    "expired": "its address is not one Courier wrote, or it is too old",
    "other sender": "answer from the address the mail was sent to",
    "closed": "The phase these orders were for has closed",
    "no seat": "You no longer hold a seat that could answer this mail.",
    "oversized": "Your mail is too large for Courier to read",
}


@pytest.mark.parametrize(
    "bad_mail",
    [
        forged_token,
        expired_token,
        another_users_token,
        another_address,
        phase_closed,
        seat_given_away,
        oversized,
    ],
)
def test_a_mail_that_cannot_be_acted_on_changes_nothing_and_is_answered_once_a_day(
    revolt_step, clock, bad_mail
):
    campaign, users, opened = revolt_step()
    raw, outcome = bad_mail(campaign, users, opened, clock)
    sender = re.search(rb"From: A Player <([^>]+)>", raw).group(1).decode()
    before = state(campaign)

    outcomes, answers = refused_answers(raw)
    assert outcomes == [outcome] * 3
    assert state(campaign) == before
    (answer,) = answers
    assert answer["to"] == sender and answer["reply_to"] == ""
    assert answer["subject"].startswith("Re: ")
    assert REASONS[outcome] in answer["text"]
    assert "Courier answers such mail at most once a day." in answer["text"]

    clock(days=1)
    outcomes, answers = refused_answers(raw)
    assert outcomes == [outcome] * 3 and len(answers) == 1
    assert state(campaign) == before


def test_a_mail_received_again_is_acted_on_once_and_answered_once(revolt_step):
    campaign, users, opened = revolt_step()
    raw = reply(opened["player"], "Revolt attempts: Minor 001")
    assert mail_replies.receive(raw) == "orders saved"
    taken()
    services.submit_orders(  # changed on the page meanwhile
        seat=Seat.objects.get(campaign=campaign, power__key="france"),
        phase_id=campaign.phase_id,
        payload={"targets": ["minor-3"]},
        ready=True,
        actor=users["player"],
    )
    before = state(campaign)
    assert [mail_replies.receive(raw) for _ in range(3)] == ["replayed"] * 3
    assert state(campaign) == before
    (answer,) = taken()
    assert "Courier has already received this mail" in answer["text"]


def test_a_mail_whose_handling_failed_is_acted_on_when_delivered_again(revolt_step, monkeypatch):
    """The database gave up (a lock waited on too long): the MTA or the sending service
    delivers the mail again, and it is not taken for one already acted on."""
    campaign, users, opened = revolt_step()
    raw = reply(opened["player"], "Revolt attempts: Minor 001\nREADY")

    def timed_out(**kwargs):
        raise OperationalError("canceling statement due to lock timeout")

    with monkeypatch.context() as patch:
        patch.setattr(mail_replies, "submit_orders", timed_out)
        with pytest.raises(OperationalError):
            mail_replies.receive(raw)
    assert mail_replies.receive(raw) == "orders saved"
    assert france_order(campaign).ready


@pytest.mark.parametrize(
    ("name", "sender"),
    [("out_of_office.eml", "player"), ("vacation.eml", ""), ("bounce.eml", "")],
)
def test_an_auto_reply_or_a_bounce_is_dropped_without_a_word(revolt_step, name, sender):
    campaign, users, opened = revolt_step()
    for address in (opened["player"]["reply_to"], forged(opened["player"]["reply_to"])):
        raw = sample(name, address, sender and users[sender].email)
        assert mail_replies.receive(raw) == "automatic"
    assert taken() == []
    assert not ReceivedMail.objects.exists() and france_order(campaign) is None


# -- the sending service's inbound webhook ----------------------------------------------

# The site as a deployment whose sending service is Postmark mounts it (courier/urls.py
# mounts the service's webhooks only when there is one; the tests run without).
with override_settings(MAIL_PROVIDER="postmark"):
    webhooks = service_webhooks()
urlpatterns = [path("anymail/", include((webhooks, "anymail"))), path("", include("courier.urls"))]


@pytest.mark.urls(__name__)
def test_the_inbound_webhook_hands_a_raw_mail_to_the_replies(revolt_step, settings):
    """Postmark's inbound webhook with its raw MIME (RawEmail), behind HTTP basic auth."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": "u:p"}
    campaign, users, opened = revolt_step()
    raw = reply(opened["player"], "Revolt attempts: Minor 003\nREADY")
    event = {
        "RawEmail": raw.decode(),
        "OriginalRecipient": opened["player"]["reply_to"],
        "Headers": [{"Name": "Return-Path", "Value": f"<{users['player'].email}>"}],
        "MessageID": "a8c1040e-1b6b-4f2e-9d4b-1f0e2c3d4e5f",
    }
    url = reverse("anymail:postmark_inbound_webhook")

    def post(secret: str):
        auth = "Basic " + base64.b64encode(secret.encode()).decode()
        body = json.dumps(event)
        return Client().post(url, body, content_type="application/json", HTTP_AUTHORIZATION=auth)

    assert post("u:wrong").status_code == 400
    assert france_order(campaign) is None
    assert post("u:p").status_code == 200
    order = france_order(campaign)
    assert order.ready and order.payload == {"targets": ["minor-3"]}


def test_a_strangers_mail_to_a_made_up_address_is_not_answered(revolt_step):
    """Spam to the reply domain, its sender forged: Courier mails nobody who did not
    write to it (no backscatter), and changes nothing."""
    campaign, users, opened = revolt_step()
    before = state(campaign)
    raw = reply(
        opened["player"],
        "Buy now",
        sender="victim@elsewhere.example",
        to=forged(opened["player"]["reply_to"]),
    )
    assert mail_replies.receive(raw) == "forged"
    no_token = reply(
        opened["player"],
        "Buy now",
        sender="victim@elsewhere.example",
        to="courier@courier.localhost",
    )
    assert mail_replies.receive(no_token) == "missing"
    assert taken() == [] and state(campaign) == before


# -- what a robot or a failure may do ----------------------------------------------------


def test_a_robot_answering_every_answer_is_answered_twenty_times_an_hour(revolt_step):
    """An autoresponder without any of the marks of one, answering from the player's
    address: Courier's answers stop after ANSWERS_AN_HOUR, so the two never loop."""
    campaign, users, opened = revolt_step()
    cache.clear()
    outcomes = [
        mail_replies.receive(reply(opened["player"], "I am away until Monday."))
        for _ in range(mail_replies.ANSWERS_AN_HOUR + 5)
    ]
    assert set(outcomes) == {"orders refused"}
    assert len(taken()) == mail_replies.ANSWERS_AN_HOUR


def test_an_answer_of_too_many_lines_is_refused_whole(revolt_step):
    campaign, users, opened = revolt_step()
    before = state(campaign)
    lines = "\n".join(["Revolt attempts: Minor 001"] * (mail_replies.MOST_ORDER_LINES + 1))
    assert mail_replies.receive(reply(opened["player"], lines)) == "too long"
    assert state(campaign) == before
    (answer,) = taken()
    assert "too many lines" in answer["text"]


def test_a_mail_received_but_never_acted_on_is_acted_on_when_it_comes_again(revolt_step, clock):
    """The process died between recording the mail and acting on it: the redelivery,
    after STALE_RECEPTION, gives the orders instead of being refused as a replay."""
    campaign, users, opened = revolt_step()
    raw = reply(opened["player"], "Revolt attempts: Minor 005")
    key = re.search(rb"Message-ID: <([^>]+)>", raw).group(1)
    ReceivedMail.objects.create(
        key=hashlib.sha256(key).hexdigest(), sender=users["player"].email, outcome=""
    )
    clock(minutes=11)
    assert mail_replies.receive(raw) == "orders saved"
    assert france_order(campaign).payload == {"targets": ["minor-5"]}


def test_a_subject_that_decodes_to_several_lines_is_answered_on_one(revolt_step):
    campaign, users, opened = revolt_step()
    raw = reply(opened["player"], "Hello", to=forged(opened["player"]["reply_to"]))
    encoded = base64.b64encode(b"Re: x\nBcc: victim@elsewhere.example").decode()
    raw = re.sub(rb"Subject: [^\n]+", f"Subject: =?utf-8?b?{encoded}?=".encode(), raw, count=1)
    assert mail_replies.receive(raw) == "forged"
    (answer,) = taken()
    assert "\n" not in answer["subject"] and answer["to"] == users["player"].email


def test_a_gm_reading_private_press_is_not_invited_to_answer_it(db):
    """He may read it (the campaign says so) but not write there: no reply address."""
    campaign = make_eia_campaign()
    users = with_mail(seat_users(campaign))
    Campaign.objects.filter(pk=campaign.pk).update(gm_reads_private=True)
    for role in ("gm", "other_player"):
        MailChoice.objects.create(user=users[role], campaign=campaign, press=PressMail.EACH)
    seat = Seat.objects.select_related("campaign", "power").get(user=users["player"])
    cache.clear()
    message = press.post_message(
        seat=seat, to=press.PRIVATE_CHOICE, chosen=["great_britain"], text="A pact?"
    )
    taken()
    assert mail_message(message.pk) == 2
    reply_to = {mail["to"]: mail["reply_to"] for mail in taken()}
    assert reply_to[users["gm"].email] == ""
    assert reply_to[users["other_player"].email].startswith("courier+p-")
