"""The development outbox (campaign/notify/outbox.py, campaign/views/outbox.py): every mail kept as
a file, whole, however many are sent at once; each user reads only the mails sent to his
own address (any other id, a path among them, is not found), their text and their HTML
(sandboxed), and answers one as a mail client would: the answer is handed to
mail_replies.receive from his address to the mail's Reply-To. Bad requests change nothing.
"""

from __future__ import annotations

import email
import shutil
from concurrent.futures import ThreadPoolExecutor
from html import unescape
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives, get_connection
from django.urls import reverse

from campaign.jobs import mail_replies
from campaign.notify import outbox

pytestmark = pytest.mark.django_db

REPLY_TO = "courier+token123@courier.localhost"
UNSUBSCRIBE = "https://courier.example/preferences/"
SANDBOX = "sandbox; default-src 'none'; style-src 'unsafe-inline'"


@pytest.fixture(autouse=True)
def outbox_dir(settings, tmp_path):
    settings.MAIL_OUTBOX_DIR = tmp_path / "outbox"
    settings.EMAIL_BACKEND = "campaign.notify.outbox.OutboxBackend"
    return settings.MAIL_OUTBOX_DIR


@pytest.fixture
def alice(client):
    user = get_user_model().objects.create_user("alice", "alice@example.org")
    client.force_login(user)
    return user


@pytest.fixture
def received(monkeypatch) -> list[dict]:
    """What mail_replies.receive is handed."""
    calls: list[dict] = []

    def receive(raw, *, envelope_sender=None, envelope_recipient=""):
        calls.append({"raw": raw, "sender": envelope_sender, "recipient": envelope_recipient})
        return "press"

    monkeypatch.setattr(mail_replies, "receive", receive)
    return calls


def send(to, subject="Your orders", *, cc=(), reply_to=REPLY_TO, html=True) -> str:
    """Send one mail through the configured backend; returns its id in the outbox."""
    before = set(outbox.outbox_dir().glob("*.eml"))
    message = EmailMultiAlternatives(
        subject,
        "Spring 1805 is open.\n\nGive your orders before Friday.",
        "Courier <courier@localhost>",
        [to],
        cc=list(cc),
        reply_to=[REPLY_TO] if reply_to else [],
        headers={"List-Unsubscribe": f"<{UNSUBSCRIBE}>, <javascript:alert(1)>"},
    )
    if html:
        message.attach_alternative(
            "<p>Spring 1805 is <b>open</b>.</p><script>x()</script>", "text/html"
        )
    assert message.send() == 1
    (path,) = set(outbox.outbox_dir().glob("*.eml")) - before
    return path.name


def page(client, name: str, *args) -> str:
    return " ".join(unescape(client.get(reverse(name, args=args)).content.decode()).split())


def test_the_outbox_is_mounted_in_development():
    assert reverse("outbox:list") == "/outbox/"


def test_the_backend_keeps_each_mail_as_one_parsable_file(outbox_dir):
    mail_id = send("alice@example.org")
    assert [path.name for path in outbox_dir.iterdir()] == [mail_id]
    message = email.message_from_bytes((outbox_dir / mail_id).read_bytes())
    assert message["Subject"] == "Your orders"
    assert message["Reply-To"] == REPLY_TO
    assert message["Message-ID"]
    assert message.get_content_type() == "multipart/alternative"


def test_mails_sent_at_once_do_not_collide(outbox_dir, monkeypatch):
    monkeypatch.setattr(outbox.time, "time_ns", lambda: 1_700_000_000_000_000_000)
    mails = [
        EmailMultiAlternatives(f"Mail {n}", "Text", None, ["alice@example.org"]) for n in range(40)
    ]

    def send_four(start: int) -> int:
        return get_connection().send_messages(mails[start : start + 4])

    with ThreadPoolExecutor(max_workers=10) as pool:
        assert sum(pool.map(send_four, range(0, 40, 4))) == 40
    files = list(outbox_dir.iterdir())
    assert all(outbox.KEPT_NAME.fullmatch(path.name) for path in files)  # no temporary left
    subjects = {email.message_from_bytes(path.read_bytes())["Subject"] for path in files}
    assert subjects == {f"Mail {n}" for n in range(40)}


def test_a_user_sees_his_own_mails_the_newest_first(client, alice):
    first = send("Alice@Example.ORG", "First")
    send("bob@example.org", "For Bob")
    copied = send("bob@example.org", "Copied", cc=["alice@example.org"])
    assert [mail.id for mail in outbox.mails_for("alice@example.org")] == [copied, first]
    html = page(client, "outbox:list")
    assert "only in development" in html
    assert html.index("Copied") < html.index("First")
    assert "For Bob" not in html
    assert reverse("outbox:mail", args=[first]) in html


def test_a_user_without_an_address_is_told_why(client):
    client.force_login(get_user_model().objects.create_user("nomail"))
    send("alice@example.org")
    html = page(client, "outbox:list")
    assert "Your account has no mail address" in html
    assert "Your orders" not in html


def test_another_users_mail_is_not_found_and_not_answered(client, alice, received):
    mail_id = send("bob@example.org")
    assert client.get(reverse("outbox:mail", args=[mail_id])).status_code == 404
    assert client.get(reverse("outbox:html", args=[mail_id])).status_code == 404
    answer = client.post(reverse("outbox:answer", args=[mail_id]), {"text": "Mine now"})
    assert answer.status_code == 404
    assert received == []


@pytest.mark.parametrize(
    "mail_id", ["../x", "..", "/etc/passwd", "a/b.eml", "nothing.eml", f"{0:020d}-{0:032d}.eml"]
)
def test_ids_other_than_a_kept_mails_name_are_not_found(client, alice, mail_id):
    send("alice@example.org")
    for name in ("mail", "html"):
        url = reverse(f"outbox:{name}", args=["ID"]).replace("ID", quote(mail_id, safe=""))
        assert client.get(url).status_code == 404
    with pytest.raises(outbox.MailNotKept):
        outbox.read(mail_id, "alice@example.org")


def test_a_mail_outside_the_outbox_is_not_read(outbox_dir, tmp_path):
    mail_id = send("alice@example.org")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(outbox_dir / mail_id, elsewhere / mail_id)
    for path in (f"../elsewhere/{mail_id}", str(elsewhere / mail_id)):
        with pytest.raises(outbox.MailNotKept):
            outbox.read(path, "alice@example.org")


def test_the_mail_page_shows_its_headers_its_text_and_the_answer_box(client, alice):
    mail_id = send("alice@example.org")
    response = client.get(reverse("outbox:mail", args=[mail_id]))
    html = " ".join(unescape(response.content.decode()).split())
    assert "Courier <courier@localhost>" in html
    assert "alice@example.org" in html
    assert REPLY_TO in html
    assert f'<a href="{UNSUBSCRIBE}">' in html
    assert "javascript:" not in html
    assert "Spring 1805 is open. Give your orders before Friday.</pre>" in html
    assert f'href="{reverse("outbox:html", args=[mail_id])}"' in html
    assert f'action="{reverse("outbox:answer", args=[mail_id])}"' in html
    assert "<script>" not in html


def test_the_html_part_is_its_own_sandboxed_response(client, alice):
    mail_id = send("alice@example.org")
    response = client.get(reverse("outbox:html", args=[mail_id]))
    assert response.status_code == 200
    assert response["Content-Security-Policy"] == SANDBOX
    assert response.content.decode().startswith("<p>Spring 1805 is <b>open</b>.</p>")


def test_a_mail_without_html_has_no_html_view(client, alice):
    mail_id = send("alice@example.org", html=False)
    assert "as HTML" not in page(client, "outbox:mail", mail_id)
    assert client.get(reverse("outbox:html", args=[mail_id])).status_code == 404


def test_the_answer_is_handed_to_mail_replies_as_a_mail_client_would_send_it(
    client, alice, received, outbox_dir
):
    mail_id = send("alice@example.org")
    kept = email.message_from_bytes((outbox_dir / mail_id).read_bytes())
    response = client.post(
        reverse("outbox:answer", args=[mail_id]), {"text": "Hold in Paris.\r\nMarch on Ulm."}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("outbox:mail", args=[mail_id])
    (call,) = received
    assert call["sender"] == "alice@example.org"
    assert call["recipient"] == REPLY_TO
    answer = email.message_from_bytes(call["raw"], policy=email.policy.default)
    assert answer["From"] == "alice@example.org"
    assert answer["To"] == REPLY_TO
    assert answer["Subject"] == "Re: Your orders"
    assert answer["In-Reply-To"] == kept["Message-ID"]
    assert answer["References"] == kept["Message-ID"]
    assert answer["Message-ID"] not in (None, kept["Message-ID"])
    assert answer["Date"]
    body = answer.get_body(("plain",))
    assert body.get_content_charset() == "utf-8"
    lines = body.get_content().splitlines()
    assert lines[:3] == ["Hold in Paris.", "March on Ulm.", ""]
    assert lines[3] == f"On {kept['Date']}, Courier <courier@localhost> wrote:"
    assert lines[4:] == ["> Spring 1805 is open.", ">", "> Give your orders before Friday."]
    followed = " ".join(unescape(client.get(response["Location"]).content.decode()).split())
    assert "Your answer was handed to Courier" in followed
    assert "will be in your outbox" in followed


def test_bad_answers_are_refused_and_hand_nothing_over(client, alice, received):
    mail_id = send("alice@example.org")
    url = reverse("outbox:answer", args=[mail_id])
    empty = client.post(url, {"text": "   "})
    assert empty.status_code == 400
    assert "This field is required." in empty.content.decode()
    assert client.get(url).status_code == 405
    unknown = reverse("outbox:answer", args=["nothing.eml"])
    assert client.post(unknown, {"text": "Hi"}).status_code == 404
    assert received == []


def test_a_mail_without_reply_to_has_no_answer_box_and_takes_no_answer(client, alice, received):
    mail_id = send("alice@example.org", reply_to=False)
    html = page(client, "outbox:mail", mail_id)
    assert "Send the answer" not in html
    assert "<textarea" not in html
    refused = client.post(reverse("outbox:answer", args=[mail_id]), {"text": "Hello?"})
    assert refused.status_code == 400
    assert "This mail invites no answer" in refused.content.decode()
    assert received == []


def test_a_signed_out_user_is_sent_to_login(client, received):
    mail_id = send("alice@example.org")
    urls = [reverse("outbox:list")] + [
        reverse(f"outbox:{name}", args=[mail_id]) for name in ("mail", "html", "answer")
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert client.post(urls[-1], {"text": "Hi"})["Location"].startswith(reverse("login"))
    assert received == []
