"""Every mail Courier sends reads in its recipient's language: read in the pseudo-locale
(tests/pseudo.py) by a recipient whose Profile chose it, the deadline reminder, the press
digest, the press mailed as it is written, the lobby's mails (a request to the GM, its
acceptance, its refusal) and the password reset show no letter the catalogs did not
write, in their subject, text part or HTML part, apart from what people typed or chose,
the links and the word that marks orders ready by mail, and so does Courier's answer to
orders given by mail and its polite refusal of a mail it cannot act on; and the password
reset is
written in the recipient's language, not
in the language of the request that asked for it. The scenario's names are not allowed
here: the mails name the powers through the catalogs. The mails of a phase that opens or
is resolved are read in tests/reliability/test_pseudo_locale.py.

A webhook has no reader with a Profile: its human-readable fields (the turn, the phase,
the text) are in the site's language (LANGUAGE_CODE), here the pseudo-locale.

Signing up and invitations send no mail (an invitation is a link the GM hands on).
"""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django_tasks_db.models import DBTaskResult

from campaign.jobs import mail_replies
from campaign.models import Campaign, MailChoice, PressMail, Seat
from campaign.notify import mail_orders, mail_tokens, order_text
from campaign.people import account_mail, lobby
from campaign.play import services
from campaign.press import press, press_mail
from tests import pseudo
from tests.factories import PASSWORD, make_eia_campaign, seat_users
from tests.reliability.test_pseudo_locale import (
    CODES,
    MAIL_KEYWORDS,
    Allowed,
    mail_texts,
    speak_pseudo,
)
from tests.services.test_scheduling import (
    START,
    france_sponsors_a_revolt,
    give_orders,
    run_worker,
    set_deadline,
    tick,
)

pytestmark = pytest.mark.django_db
User = get_user_model()
# A link, given as it is (the campaign's, its press page's, the lobby's, a reset's).
LINKS = re.compile(r"https?://\S+")


@pytest.fixture(autouse=True)
def pseudo_locale():
    with pseudo.installed():
        yield


@pytest.fixture
def campaign():
    return make_eia_campaign()


@pytest.fixture
def users(campaign):
    """Every role of seat_users, each with a mail address and the pseudo-locale."""
    found = seat_users(campaign)
    for role, user in found.items():
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])
    speak_pseudo(*found.values())
    return found


def escapes_in_mail(allowed: Allowed) -> list[str]:
    """The outbox's subjects, text lines and HTML texts that show a letter no catalog
    wrote (the word that marks orders ready by mail aside: MAIL_KEYWORDS)."""
    found = []
    keywords = pseudo.allowing(MAIL_KEYWORDS)
    for message in mail.outbox:
        for text in mail_texts(message):
            if pseudo.escapes(text, LINKS, CODES, keywords, *allowed.patterns):
                found.append(f"mail to {message.to[0]}: {text[:160]}")
    return found


def assert_reads_clean(allowed: Allowed) -> None:
    assert mail.outbox, "no mail was sent"
    found = escapes_in_mail(allowed)
    assert not found, f"{len(found)} texts outside the catalogs:\n" + "\n".join(found)


def test_the_deadline_reminder_reads_in_the_readers_language(
    campaign, users, time_machine, django_capture_on_commit_callbacks
):
    time_machine.move_to(START, tick=False)
    france_sponsors_a_revolt(campaign)  # so that France owes orders in the peace step
    set_deadline(campaign, 48, users)
    give_orders(campaign, "france", ready=False)
    run_worker(django_capture_on_commit_callbacks)
    mail.outbox.clear()
    time_machine.move_to(START + timedelta(hours=24), tick=False)
    tick()
    run_worker(django_capture_on_commit_callbacks)
    assert_reads_clean(Allowed.of())


def test_the_press_digest_reads_in_the_readers_language(campaign, users):
    cache.clear()  # the posting rate is counted in the cache
    seat = Seat.objects.get(campaign=campaign, user=users["player"])
    text = "Shall we share Bavaria?"
    press.post_message(seat=seat, to=press.PUBLIC, chosen=[], text=text)
    press.post_message(seat=seat, to=press.PRIVATE_CHOICE, chosen=["great_britain"], text=text)
    press.post_message(seat=seat, to=press.GM_CHOICE, chosen=[], text=text)
    mail.outbox.clear()
    assert press_mail.send_digests(timezone.now() + timedelta(hours=1)) > 0
    run_worker()
    assert_reads_clean(Allowed.of().also({text}))


def test_the_press_mailed_as_written_reads_in_the_readers_language(
    campaign, users, django_capture_on_commit_callbacks
):
    cache.clear()  # the posting rate is counted in the cache
    for user in users.values():
        MailChoice.objects.create(user=user, campaign=campaign, press=PressMail.EACH)
    seat = Seat.objects.get(campaign=campaign, user=users["player"])
    text = "Shall we share Bavaria?"
    with django_capture_on_commit_callbacks(execute=True):
        press.post_message(seat=seat, to=press.PUBLIC, chosen=[], text=text)
        press.post_message(seat=seat, to=press.PRIVATE_CHOICE, chosen=["great_britain"], text=text)
        press.post_message(seat=seat, to=press.GM_CHOICE, chosen=[], text=text)
    run_worker(django_capture_on_commit_callbacks)
    assert_reads_clean(Allowed.of().also({text}))


def test_the_lobby_mails_read_in_their_readers_language(
    campaign, users, django_capture_on_commit_callbacks
):
    Campaign.objects.filter(pk=campaign.pk).update(lobby_open=True)
    askers = [
        User.objects.create_user(f"{name}-{campaign.pk}", f"{name}@example.org")
        for name in ("asker", "rival")
    ]
    speak_pseudo(*askers)
    spain = campaign.powers.get(key="spain").pk
    with django_capture_on_commit_callbacks(execute=True):
        asked = [
            lobby.ask_for_seat(campaign_id=campaign.pk, power_id=spain, user=user)
            for user in askers
        ]
        lobby.answer_request(
            campaign_id=campaign.pk, request_id=asked[0].pk, accept=True, actor=users["gm"]
        )
    run_worker(django_capture_on_commit_callbacks)
    recipients = sorted(message.to[0] for message in mail.outbox)
    assert recipients == sorted(["gm@example.org"] * 2 + ["asker@example.org", "rival@example.org"])
    assert_reads_clean(Allowed.of())


def test_the_password_reset_reads_in_the_recipients_language_not_the_requests(
    django_capture_on_commit_callbacks,
):
    cache.clear()  # the resets an hour are counted in the cache
    user = User.objects.create_user("forgetful", "forgetful@example.org", PASSWORD)
    speak_pseudo(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = Client().post(
            reverse("password_reset"), {"email": user.email}, HTTP_ACCEPT_LANGUAGE="en"
        )
    assert response.status_code == 302
    assert response.wsgi_request.LANGUAGE_CODE == "en"  # the page is the requester's
    run_worker(django_capture_on_commit_callbacks)  # the worker writes and sends it
    assert [m.to for m in mail.outbox] == [[user.email]]
    assert_reads_clean(Allowed.of())


def test_the_address_confirmation_reads_in_the_users_language(django_capture_on_commit_callbacks):
    cache.clear()  # one confirmation an address a period, counted in the cache
    user = User.objects.create_user("newcomer", password=PASSWORD)
    speak_pseudo(user)
    with django_capture_on_commit_callbacks(execute=True):
        account_mail.ask_confirmation(user, "newcomer@example.org")
    run_worker(django_capture_on_commit_callbacks)
    assert [m.to for m in mail.outbox] == [["newcomer@example.org"]]
    assert_reads_clean(Allowed.of())


def test_the_webhooks_read_in_the_sites_language(
    campaign, users, settings, django_capture_on_commit_callbacks
):
    settings.LANGUAGE_CODE = pseudo.CODE
    cache.clear()  # the posting rate is counted in the cache
    Campaign.objects.filter(pk=campaign.pk).update(webhook_url="https://hooks.example.org/c")
    campaign.refresh_from_db()
    seat = Seat.objects.get(campaign=campaign, user=users["player"])
    text = "Shall we share Bavaria?"
    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
        )
    with django_capture_on_commit_callbacks(execute=True):
        press.post_message(seat=seat, to=press.PUBLIC, chosen=[], text=text)
        press.post_message(seat=seat, to=press.GM_CHOICE, chosen=[], text=text)
    sent = DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_webhook")
    payloads = [result.args_kwargs["args"][1] for result in sent.order_by("enqueued_at")]
    assert [p["event"] for p in payloads] == ["phase_resolved", "phase_opened", "press", "press"]
    allowed = Allowed.of().also({text})
    found = [
        f"{payload['event']} {field}: {payload[field]}"
        for payload in payloads
        for field in ("turn", "phase", "text", "from")
        if payload.get(field) and pseudo.escapes(payload[field], CODES, *allowed.patterns)
    ]
    assert not found, f"{len(found)} texts outside the catalogs:\n" + "\n".join(found)


def test_the_answers_to_replies_read_in_the_readers_language(
    campaign, users, time_machine, django_capture_on_commit_callbacks
):
    """Courier's answer to orders given by mail (each line accepted or refused, with its
    reason) and its polite refusal of a mail it cannot act on."""
    time_machine.move_to(START, tick=False)
    phase = france_sponsors_a_revolt(campaign)  # France owes orders in the peace step
    player = users["player"]
    with translation.override(pseudo.CODE):
        world = campaign.rules.load_world(campaign)
        france = campaign.powers.get(key="france")
        form = mail_orders.order_form(campaign, phase, france, world)
        lines = [line for line in order_text.written(form).splitlines() if line[:1] != "#"]
    typed = [*lines, "Nonsense: 3", order_text.READY]
    address = mail_tokens.reply_address(mail_tokens.Purpose.ORDERS, phase.pk, player.pk)
    mail.outbox.clear()
    assert mail_replies.receive(client_reply(player.email, address, typed)) == "orders refused"
    forged = address.replace("+o-", "+p-", 1)
    assert mail_replies.receive(client_reply(player.email, forged, ["Hello"])) == "forged"
    run_worker(django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2
    assert_reads_clean(Allowed.of(campaign).also({*typed, "Nonsense", "Re: My orders", "Hello"}))


def client_reply(sender: str, to: str, lines: list[str]) -> bytes:
    """A plain reply as a mail client sends it."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "Re: My orders"
    message["Message-ID"] = make_msgid(domain="mail.example.net")
    message.set_content("\n".join(lines) + "\n")
    return message.as_bytes()
