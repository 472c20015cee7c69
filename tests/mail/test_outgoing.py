"""Every mail is one multipart message read back by Python's own mail parser: a text part
and an HTML part saying the same (escaped, no remote image), in the reader's language
and time zone, threaded per campaign (Message-ID, In-Reply-To, References), marked
automatic, and carrying a one-click unsubscribe link (RFC 8058) that a mail provider's
POST follows without logging in, while a person who opens it is asked first."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email import policy
from email.utils import parseaddr

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from campaign.models import MailChoice, MailKind, PressMail, Profile
from campaign.notify import mail_tokens, outgoing
from campaign.notify.delivery import deliver_mail
from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign_and_player():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    player = users["player"]
    player.email = "player@example.org"
    player.save(update_fields=["email"])
    return campaign, player


def sent_mail(user, campaign, letter, **options) -> email.message.EmailMessage:
    """Send ``letter`` through outgoing and the worker's task; the message as a mail
    client parses it."""
    mail.outbox.clear()
    DBTaskResult.objects.all().delete()
    outgoing.send(user, lambda: letter, campaign=campaign, **options)
    (queued,) = DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_mail")
    deliver_mail.call(*queued.args_kwargs["args"])
    (message,) = mail.outbox
    return email.message_from_bytes(message.message().as_bytes(), policy=policy.default)


def letter(text: str = "A paragraph <b>with markup</b> & more.") -> outgoing.Letter:
    return outgoing.Letter(
        subject="[Test] Subject",
        paragraphs=[text],
        sections=[("Heading", ["one", "two"])],
        orders="France: peace\n# a comment",
        link="https://courier.example/campaigns/1/",
    )


def test_a_mail_is_multipart_with_the_same_content_in_text_and_html(campaign_and_player):
    campaign, player = campaign_and_player
    parsed = sent_mail(player, campaign, letter(), kind=MailKind.RESOLVED)
    assert parsed.get_content_type() == "multipart/alternative"
    text = parsed.get_body(("plain",)).get_content()
    html = parsed.get_body(("html",)).get_content()
    for part in ("A paragraph <b>with markup</b> & more.", "Heading", "one", "France: peace"):
        assert part in text
    assert "A paragraph &lt;b&gt;with markup&lt;/b&gt; &amp; more." in html  # escaped
    assert "<li>two</li>" in html and "<pre>France: peace" in html
    assert "prefers-color-scheme: dark" in html and 'content="light dark"' in html
    assert "<img" not in html and "src=" not in html  # nothing remote to load
    assert text.rstrip().endswith(reverse("campaign:mail_settings", args=[campaign.pk]))


def test_campaign_mails_thread_together_and_say_they_are_automatic(campaign_and_player):
    campaign, player = campaign_and_player
    first = sent_mail(player, campaign, letter(), kind=MailKind.RESOLVED)
    second = sent_mail(player, campaign, letter(), kind=MailKind.YOUR_TURN)
    root = outgoing.thread_id(campaign)
    for parsed in (first, second):
        assert parsed["In-Reply-To"] == root
        assert parsed["References"] == root
        assert parsed["Auto-Submitted"] == "auto-generated"
        assert parsed["List-Id"] == f"<campaign-{campaign.pk}.127.0.0.1>"
    assert first["Message-ID"] != second["Message-ID"]
    assert first["Message-ID"].startswith("<") and first["Message-ID"].endswith(">")


def test_a_mail_of_a_kind_carries_a_one_click_unsubscribe_link(campaign_and_player):
    campaign, player = campaign_and_player
    parsed = sent_mail(player, campaign, letter(), kind=MailKind.PRESS)
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = str(parsed["List-Unsubscribe"]).strip().strip("<>")
    assert link.startswith("http") and "/mail/off/" in link
    path = link.split("127.0.0.1:8000", 1)[1]
    MailChoice.objects.create(user=player, campaign=campaign, press=PressMail.EACH)

    # A mail provider's POST: no session, no CSRF token, the RFC 8058 body.
    provider = Client(enforce_csrf_checks=True)
    response = provider.post(
        path,
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert MailChoice.of(player.pk, campaign.pk).press == PressMail.OFF
    assert MailChoice.of(player.pk, campaign.pk).resolved  # other kinds stay on


def test_opening_the_unsubscribe_link_asks_first(campaign_and_player):
    campaign, player = campaign_and_player
    token = mail_tokens.unsubscribe_token(player.pk, campaign.pk, MailKind.RESOLVED)
    url = reverse("campaign:unsubscribe", args=[token])
    page = Client().get(url)
    assert page.status_code == 200
    assert b"<form" in page.content and campaign.name.encode() in page.content
    assert MailChoice.of(player.pk, campaign.pk).resolved  # a GET changes nothing
    assert Client().post(url).status_code == 200
    assert not MailChoice.of(player.pk, campaign.pk).resolved


@pytest.mark.parametrize(
    "token",
    ["garbage", "W1sxLDEsInByZXNzIl1d:forged", None],
    ids=["garbage", "forged", "unknown kind"],
)
def test_a_bad_unsubscribe_link_is_refused_and_changes_nothing(campaign_and_player, token):
    campaign, player = campaign_and_player
    if token is None:
        token = mail_tokens.unsubscribe_token(player.pk, campaign.pk, "everything")
    response = Client().post(reverse("campaign:unsubscribe", args=[token]))
    assert response.status_code == 400
    assert not MailChoice.objects.exists()


def test_dates_are_written_in_the_readers_language_and_time_zone(campaign_and_player):
    campaign, player = campaign_and_player
    Profile.objects.update_or_create(
        user=player, defaults={"language": "el", "time_zone": "Europe/Athens"}
    )
    moment = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    with outgoing.reading_as(player):
        written = outgoing.moment(moment)
    assert "14:00" in written and "(Europe/Athens)" in written  # UTC+2 in winter
    assert written == "06/12/2026, 14:00 (Europe/Athens)"


def test_a_user_without_an_address_is_sent_nothing(campaign_and_player):
    campaign, player = campaign_and_player
    player.email = ""
    outgoing.send(player, letter, campaign=campaign, kind=MailKind.RESOLVED)
    assert not mail.outbox


def test_the_reply_address_is_signed_short_and_read_back(campaign_and_player, settings):
    _, player = campaign_and_player
    settings.MAIL_REPLY_DOMAIN = "mail.example.org"
    address = mail_tokens.reply_address(mail_tokens.Purpose.ORDERS, 12345, player.pk)
    local, domain = parseaddr(address)[1].split("@")
    assert domain == "mail.example.org" and len(local) <= 64 and local == local.lower()
    token = mail_tokens.reply_token(["someone@else.org", address.upper()])
    assert (token.purpose, token.target, token.user_id) == ("o", 12345, player.pk)
    forged = address.replace("-o-", "-p-", 1) if "-o-" in address else "x" + address
    with pytest.raises(mail_tokens.TokenRefused):
        mail_tokens.reply_token([forged.replace("+o-", "+p-")])


def test_without_a_reply_domain_no_mail_shows_orders_to_answer(campaign_and_player, settings):
    campaign, player = campaign_and_player
    settings.MAIL_REPLY_DOMAIN = ""
    answer = outgoing.Answer(mail_tokens.Purpose.ORDERS, 1, lambda: "Answer this mail.")
    parsed = sent_mail(player, campaign, letter(), kind=MailKind.YOUR_TURN, answer=answer)
    text = parsed.get_body(("plain",)).get_content()
    assert parsed["Reply-To"] is None
    assert "France: peace" not in text and "Answer this mail." not in text
