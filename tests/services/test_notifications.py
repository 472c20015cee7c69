"""Mail and webhooks, sent by the worker after the commit: a phase opens (orders awaited
only from powers that owe them, its deadline in the reader's language and time zone),
reminders before a deadline (24 h and 2 h unless the reader chose other hours) to the
powers not ready (each once), the resolution with the reader's own rolls first and never
the other side's hidden lines, each user's choices for the campaign (MailChoice); a
webhook POSTs JSON to a local test server; a failed mail or webhook is retried later,
and given up after five attempts.

Mail is read from Django's test outbox (pytest-django's locmem backend).
"""

from __future__ import annotations

import json
import re
import smtplib
import socket
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core import mail
from django.core.mail.backends import locmem
from django_tasks_db.models import DBTaskResult

from campaign.models import Campaign, MailChoice, Profile, RollRecord, Seat
from campaign.notify import delivery, order_text, outgoing
from campaign.play import scheduling, services
from rules.pax_baltica.models import Block
from tests.factories import make_eia_campaign, make_pb_campaign, seat_users
from tests.services.test_eia_phase_services import CyclingDice
from tests.services.test_scheduling import (
    START,
    france_sponsors_a_revolt,
    give_orders,
    run_worker,
    set_deadline,
    tick,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def local_webhooks(settings):
    """The webhooks here go to a server on this machine, as in a private network."""
    settings.WEBHOOK_ALLOW_PRIVATE = True


def with_mail(users: dict) -> dict:
    """Give every test user a mail address: <role>@example.org."""
    for role, user in users.items():
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])
    return users


def mails(subject_part: str = "") -> dict[str, list[mail.EmailMessage]]:
    """The outbox by recipient (the role), for the subjects containing ``subject_part``."""
    found: dict[str, list] = {}
    for message in mail.outbox:
        if subject_part in message.subject:
            (to,) = message.to
            found.setdefault(to.split("@")[0], []).append(message)
    return found


def without_links(text: str) -> str:
    """The text, its links left out (a signed token may spell anything)."""
    return re.sub(r"https?://\S+", "", text)


def resolve(campaign, users, capture) -> None:
    """The GM resolves the open phase; its commit hands the notifications to the worker."""
    campaign.refresh_from_db()
    with capture(execute=True):
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
        )


@pytest.fixture
def clock(time_machine):
    """The frozen clock, at START; clock(hours=…) moves it on from START."""
    time_machine.move_to(START, tick=False)

    def move(**delta):
        time_machine.move_to(START + timedelta(**delta), tick=False)

    return move


@pytest.fixture
def eia(clock, db):
    campaign = make_eia_campaign()
    users = with_mail(seat_users(campaign))
    return campaign, users


@pytest.fixture
def hook_server():
    """A local HTTP server that records every request: (path, content type, JSON body)."""
    received: list[tuple[str, str, dict]] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((self.path, self.headers["Content-Type"], json.loads(body)))
            self.send_response(204)
            self.end_headers()

        def do_GET(self):  # a webhook is POSTed: a GET is recorded as one, to be seen
            received.append((self.path, "GET", {}))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hooks/courier", received
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"


# -- a phase opens ------------------------------------------------------------------


def revolt_step_open_48_hours(campaign, users) -> None:
    """The schedule: the revolt step is open 48 hours, and resolves itself."""
    scheduling.set_schedule(
        campaign_id=campaign.pk,
        auto_resolve=True,
        deadline_hours={"revolt": 48},
        webhook_url="",
        actor=users["gm"],
    )


def test_a_phase_opening_is_mailed_to_seated_users_and_asks_orders_of_those_who_owe_them(
    eia, django_capture_on_commit_callbacks
):
    campaign, users = eia
    users["observer"].email = ""  # no address: no mail
    users["observer"].save(update_fields=["email"])
    revolt_step_open_48_hours(campaign, users)
    resolve(campaign, users, django_capture_on_commit_callbacks)
    assert mail.outbox == []  # nothing is sent inside the request: the worker sends
    assert DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_mail").exists()
    run_worker(django_capture_on_commit_callbacks)

    opened = mails("is open")
    assert sorted(opened) == ["gm", "other_player", "player"]  # not the outsider
    for role, (message,) in opened.items():
        awaited = role != "gm"
        assert message.subject == f"[{campaign.name}] Political phase · revolt step is open"
        paragraphs = message.body.split("\n\n")
        assert "The deadline is Jan. 14, 2026, 09:00 (UTC)." in paragraphs
        assert f"/campaigns/{campaign.pk}/" in message.body
        assert ("Your orders are awaited." in paragraphs) == awaited
        # the orders awaited come in plain text, to be answered by mail
        assert (order_text.READY in message.body) == awaited
        assert bool(message.reply_to) == awaited
        html, kind = message.alternatives[0]
        assert kind == "text/html"
        assert "The deadline is Jan. 14, 2026, 09:00 (UTC)." in html
        assert ("Your orders are awaited." in html) == awaited


def test_a_mails_deadline_is_in_the_readers_language_and_time_zone(
    eia, django_capture_on_commit_callbacks
):
    campaign, users = eia
    Profile.objects.create(user=users["player"], language="ru", time_zone="Europe/Moscow")
    Profile.objects.create(user=users["other_player"], language="el", time_zone="Europe/Athens")
    revolt_step_open_48_hours(campaign, users)
    resolve(campaign, users, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    russian = [without_links(m.body) for m in mail.outbox if m.to == [users["player"].email]]
    assert russian and all("Jan" not in body for body in russian)
    assert any("14 января 2026 г., 12:00 (Europe/Moscow)" in body for body in russian)
    greek = [without_links(m.body) for m in mail.outbox if m.to == [users["other_player"].email]]
    assert greek and all("Jan" not in body for body in greek)
    assert any("14/01/2026, 11:00 (Europe/Athens)" in body for body in greek)


def test_a_power_that_owes_no_orders_is_not_told_its_orders_are_awaited(
    eia, django_capture_on_commit_callbacks
):
    """Great Britain's player is marked absent: the phase does not wait for his orders,
    and the mail must not say it does."""
    campaign, users = eia
    britain = campaign.powers.get(key="great_britain")
    scheduling.set_absent(
        campaign_id=campaign.pk, power_id=britain.pk, absent=True, actor=users["gm"]
    )
    resolve(campaign, users, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    opened = mails("is open")
    assert "Your orders are awaited." in opened["player"][0].body
    assert "Your orders are awaited." not in opened["other_player"][0].body


# -- reminders ----------------------------------------------------------------------


def test_reminders_24_h_and_2_h_before_go_once_to_owing_powers_not_ready(
    eia, clock, django_capture_on_commit_callbacks
):
    campaign, users = eia
    france_sponsors_a_revolt(campaign)  # so that France owes orders in the peace step
    absent_user = Seat.objects.get(campaign=campaign, power__key="spain")
    absent_user.user = users["outsider"]  # Spain seated, then marked absent
    absent_user.save(update_fields=["user"])
    scheduling.set_absent(
        campaign_id=campaign.pk, power_id=absent_user.power_id, absent=True, actor=users["gm"]
    )
    set_deadline(campaign, 48, users)
    give_orders(campaign, "great_britain")  # ready: no reminder
    give_orders(campaign, "france", ready=False)  # a draft: reminded

    def tick_and_send() -> dict:
        mail.outbox.clear()
        tick()
        run_worker(django_capture_on_commit_callbacks)
        return mails("left")

    clock(hours=23, minutes=59)
    assert tick_and_send() == {}  # 24 h 01 min left
    clock(hours=24)
    sent = tick_and_send()
    assert list(sent) == ["player"]
    (message,) = sent["player"]
    assert message.subject == f"[{campaign.name}] Political phase · peace step: 24 hours left"
    assert (
        "closes at Jan. 14, 2026, 09:00 (UTC) and your orders are not marked ready" in message.body
    )
    assert order_text.READY in message.body and message.reply_to  # to be answered by mail
    clock(hours=30)
    assert tick_and_send() == {}
    clock(hours=45, minutes=59)
    assert tick_and_send() == {}
    clock(hours=46)
    sent = tick_and_send()
    assert list(sent) == ["player"]
    assert sent["player"][0].subject.endswith(": 2 hours left")
    clock(hours=47, minutes=30)
    assert tick_and_send() == {}


def test_a_first_tick_within_the_last_two_hours_sends_one_reminder(eia, clock):
    campaign, users = eia
    france_sponsors_a_revolt(campaign)  # so that France owes orders in the peace step
    set_deadline(campaign, 48, users)
    clock(hours=47, minutes=30)
    tick()
    run_worker()
    assert [m.subject.rsplit(": ", 1)[1] for m in mails("left")["player"]] == ["30 minutes left"]
    assert sorted(mails("left")) == ["other_player", "player"]
    mail.outbox.clear()
    clock(hours=47, minutes=45)  # both offsets are covered by that one mail
    tick()
    run_worker()
    assert mails("left") == {}


def test_each_user_is_reminded_at_the_hours_they_chose(eia, clock):
    campaign, users = eia
    france_sponsors_a_revolt(campaign)  # so that France owes orders in the peace step
    Profile.objects.create(user=users["player"], reminder_hours=[8])
    Profile.objects.create(user=users["other_player"], reminder_hours=[])  # never
    set_deadline(campaign, 48, users)

    def left_at(hours: int) -> dict[str, list[str]]:
        mail.outbox.clear()
        clock(hours=hours)
        tick()
        run_worker()
        return {
            role: [m.subject.rsplit(": ", 1)[1] for m in found]
            for role, found in mails("left").items()
        }

    assert left_at(24) == {}
    assert left_at(40) == {"player": ["8 hours left"]}
    assert left_at(46) == {}


# -- a phase is resolved ------------------------------------------------------------


def test_the_resolution_mail_puts_the_readers_own_rolls_first(
    eia, django_capture_on_commit_callbacks
):
    campaign, users = eia
    resolve(campaign, users, django_capture_on_commit_callbacks)  # the peace step
    run_worker(django_capture_on_commit_callbacks)
    give_orders(campaign, "great_britain", payload={"targets": ["minor-0", "minor-2"]})
    mail.outbox.clear()
    resolve(campaign, users, django_capture_on_commit_callbacks)  # the revolt step
    run_worker(django_capture_on_commit_callbacks)
    resolved = mails("is resolved")
    assert sorted(resolved) == ["gm", "observer", "other_player", "player"]

    britain = resolved["other_player"][0].body
    own, _, whole = britain.partition("The whole phase:\n")
    assert own.startswith("January 1805: Political phase · revolt step is resolved.")
    assert "Your rolls and results:\nEIA-1 Great Britain incites a revolt in Minor 000" in own
    assert "Minor 002" in own
    assert "EIA-1 Great Britain incites a revolt in Minor 000" in whole

    france = resolved["player"][0].body
    assert "Your rolls and results" not in france  # France rolled nothing
    assert "EIA-1 Great Britain incites a revolt in Minor 000" in france


def test_the_gm_and_observers_get_no_own_rolls_block(
    clock, monkeypatch, django_capture_on_commit_callbacks
):
    """The GM and observers hold no power: no line of the log is "their own", not even
    the lines that concern no power (Denmark's lost RP in Pax Baltica)."""
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice((1, 6, 1, 2)))
    campaign = make_pb_campaign(territories=14)
    users = with_mail(seat_users(campaign, "sweden", "russia"))
    resolve(campaign, users, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    resolved = mails("is resolved")
    for role in ("gm", "observer"):
        assert "Your rolls and results" not in resolved[role][0].body, resolved[role][0].body


def test_a_swedish_reader_never_reads_the_coalitions_hidden_lines(
    clock, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice((1, 6, 1, 2)))
    campaign = make_pb_campaign(territories=14)
    users = with_mail(seat_users(campaign, "sweden", "russia"))
    ids = dict(Block.objects.filter(campaign=campaign).values_list("name", "pk"))

    def recruitment(**fields) -> dict:
        return {"reinforce": [], "draws": 0, "steps_each": 0, "places": [], "fleet_places": []} | (
            fields
        )

    give_orders(campaign, "saxony", payload=recruitment(draws=1, places=["lausitz"]))
    give_orders(
        campaign,
        "sweden",
        payload=recruitment(reinforce=[{"block": ids["Wachtmeister"], "steps": 1}]),
    )
    give_orders(campaign, "russia", payload=recruitment())
    resolve(campaign, users, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    resolved = {role: found[0].body for role, found in mails("is resolved").items()}

    coalition = set(
        Block.objects.filter(campaign=campaign)
        .exclude(power__key="sweden")
        .values_list("name", flat=True)
    )
    sweden = resolved["player"]
    assert not [name for name in coalition if name in sweden], sweden
    assert "Saxony-Poland places a new block in Lausitz." in sweden  # the redacted line
    own = sweden.partition("The whole phase:")[0]
    assert "Wachtmeister (fleet) in Livland gains 1 step (3 → 4)" in own
    # the Coalition's players and the GM read the draw (the campaign's secret picks it)
    drawn = RollRecord.objects.get(campaign=campaign, rule="GNW-10").outcome
    assert drawn in ("Schulenburg drawn", "Lubomirski drawn")
    assert f"{drawn.removesuffix(' drawn')} (army) drawn" in resolved["other_player"]
    assert f"{drawn.removesuffix(' drawn')} (army) drawn" in resolved["gm"]
    assert "Wachtmeister" not in resolved["other_player"]


# -- each user's choices ------------------------------------------------------------


def test_each_user_receives_only_the_mail_they_chose(
    eia, clock, django_capture_on_commit_callbacks
):
    campaign, users = eia
    MailChoice.objects.create(
        user=users["player"], campaign=campaign, your_turn=False, reminders=False, resolved=False
    )
    MailChoice.objects.create(user=users["other_player"], campaign=campaign, resolved=False)
    elsewhere = make_eia_campaign()  # a choice is the campaign's: another one's changes nothing
    MailChoice.objects.create(
        user=users["gm"], campaign=elsewhere, your_turn=False, reminders=False, resolved=False
    )
    set_deadline(campaign, 48, users)
    clock(hours=47)
    tick()
    resolve(campaign, users, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    assert "player" not in mails()
    assert sorted(mails("left")) == ["other_player"]
    assert sorted(mails("is open")) == ["gm", "observer", "other_player"]
    assert sorted(mails("is resolved")) == ["gm", "observer"]


# -- webhooks -----------------------------------------------------------------------


def test_the_webhook_receives_json_when_a_phase_resolves_and_opens(
    eia, hook_server, django_capture_on_commit_callbacks
):
    campaign, users = eia
    url, received = hook_server
    Campaign.objects.filter(pk=campaign.pk).update(webhook_url=url)  # the form refuses local
    set_deadline(campaign, 10, users)
    campaign.refresh_from_db()
    resolve(campaign, users, django_capture_on_commit_callbacks)
    outcomes = run_worker(django_capture_on_commit_callbacks)
    assert [v for name, v in outcomes if name == "deliver_webhook"] == ["sent", "sent"]
    assert {(path, kind) for path, kind, _ in received} == {("/hooks/courier", "application/json")}
    payloads = sorted((body for *_, body in received), key=lambda body: body["event"])
    link = f"http://127.0.0.1:8000/campaigns/{campaign.pk}/"
    assert payloads == [
        {
            "event": "phase_opened",
            "campaign": campaign.name,
            "turn": "January 1805",
            "phase": "Political phase · revolt step",
            "deadline": None,
            "url": link,
            "text": "January 1805: Political phase · revolt step is open.",
        },
        {
            "event": "phase_resolved",
            "campaign": campaign.name,
            "turn": "January 1805",
            "phase": "Political phase · peace step",
            "deadline": (START + timedelta(hours=10)).isoformat(),
            "url": link,
            "text": "January 1805: Political phase · peace step is resolved.",
        },
    ]


def test_a_webhook_redirect_is_not_followed_to_another_address(
    hook_server, django_capture_on_commit_callbacks
):
    """The webhook's address was checked when the GM saved it (no local or private
    address); a redirect from it must not take the worker to an address that would have
    been refused (here the local recorder stands for an internal service)."""
    internal_url, internal = hook_server

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self):
            self.send_response(302)
            self.send_header("Location", internal_url)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        outcome = delivery.deliver_webhook.call(url, {"event": "phase_opened"})
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
    assert internal == [], "the worker followed the redirect"
    assert outcome != "sent"


def test_a_failing_webhook_is_retried_later_and_given_up_after_five_attempts(clock):
    url = closed_port_url()
    delivery.deliver_webhook.enqueue(url, {"event": "phase_opened"})
    waited = timedelta(0)
    for attempt, delay in enumerate((1, 2, 4, 8), start=1):
        assert run_worker() == [("deliver_webhook", "retrying")]
        (retry,) = DBTaskResult.objects.filter(status="READY")
        waited += timedelta(minutes=delay)
        assert retry.run_after == START + waited
        assert retry.args_kwargs == {
            "args": [url, {"event": "phase_opened"}],
            "kwargs": {"attempt": attempt + 1},
        }
        assert run_worker() == []  # not before its time
        clock(minutes=waited.total_seconds() / 60)
    assert run_worker() == [("deliver_webhook", "failed")]
    assert not DBTaskResult.objects.filter(status="READY").exists()
    assert (
        DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_webhook").count()
        == 5
    )


def mail_server_down(monkeypatch) -> None:
    """Every mail sent from now on fails as with an SMTP server that hangs up."""

    def down(*args, **kwargs):
        raise smtplib.SMTPServerDisconnected("the mail server is down")

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", down)


def a_mail() -> dict:
    return outgoing.compose("player@example.org", outgoing.Letter("Subject", ["Body"]))


def test_a_failed_mail_is_retried_and_then_sent(eia, clock, monkeypatch):
    campaign, users = eia
    with monkeypatch.context() as server:
        mail_server_down(server)
        written = a_mail()
        delivery.deliver_mail.enqueue(written)
        assert run_worker() == [("deliver_mail", "retrying")]
        (retry,) = DBTaskResult.objects.filter(status="READY")
        assert retry.run_after == START + timedelta(minutes=1)
        assert retry.args_kwargs == {"args": [written], "kwargs": {"attempt": 2}}
        assert mail.outbox == []

    clock(minutes=1)
    assert run_worker() == [("deliver_mail", "sent")]
    (message,) = mail.outbox
    assert (message.to, message.subject, message.body) == (
        ["player@example.org"],
        "Subject",
        written["text"],
    )
    assert message.body.startswith("Body\n\n-- \n")
    assert message.alternatives[0] == (written["html"], "text/html")
    # the same mail, under the same Message-ID: a reader's client sees one mail
    assert message.extra_headers["Message-ID"] == written["headers"]["Message-ID"]


def test_a_mail_that_always_fails_is_given_up_after_five_attempts(clock, monkeypatch):
    mail_server_down(monkeypatch)
    delivery.deliver_mail.enqueue(a_mail())
    outcomes = []
    for minutes in (0, 1, 3, 7, 15, 60):
        clock(minutes=minutes)
        outcomes += [value for _, value in run_worker()]
    assert outcomes == ["retrying"] * 4 + ["failed"]
    assert not DBTaskResult.objects.filter(status="READY").exists()
    assert mail.outbox == []


def test_a_webhook_to_a_private_address_is_not_sent(settings, hook_server):
    """Without WEBHOOK_ALLOW_PRIVATE the worker looks the host up and refuses a local or
    private address, whatever the URL looked like when the GM saved it."""
    settings.WEBHOOK_ALLOW_PRIVATE = False
    url, _ = hook_server
    assert delivery.deliver_webhook.call(url, {"event": "phase_opened"}) == "refused"
