"""`manage.py receive_mail` as an MTA's pipe runs it: the raw reply on standard input,
the envelope sender and recipient as options. A reply giving a power's orders saves them
marked ready, and the player's campaign page then shows them saved and ready.

In-process on any database; also as a real subprocess on PostgreSQL (where the test
database is one the subprocess can open: SQLite's test database is in this process's
memory), as CI runs it.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from campaign.jobs import mail_replies
from campaign.models import Order
from tests.factories import make_eia_campaign, seat_users
from tests.mail.test_replies import reply, taken
from tests.services.test_notifications import resolve, with_mail

ROOT = Path(__file__).resolve().parents[2]
ORDERS = "Revolt attempts: Minor 003\nREADY"


def revolt_step_mail(capture):
    """An EIA campaign whose revolt step has opened; France's player and the mail that
    awaits his orders."""
    campaign = make_eia_campaign()
    users = with_mail(seat_users(campaign))
    resolve(campaign, users, capture)
    campaign.refresh_from_db()
    player = users["player"]
    (mail,) = [mail for mail in taken() if mail["to"] == player.email and mail["reply_to"]]
    return campaign, player, mail


def shows_orders_saved_and_ready(campaign, player) -> None:
    """The order is saved ready, and the player's campaign page says so."""
    order = Order.objects.get(phase_id=campaign.phase_id, power__key="france")
    assert order.ready and order.payload == {"targets": ["minor-3"]}
    page = Client()
    page.force_login(player)
    html = page.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "and <strong>marked ready</strong>" in html
    checked = r'<input type="checkbox" name="targets" value="minor-3"[^>]*\bchecked\b'
    assert re.search(checked, html), "the page's form does not show Minor 003 chosen"


@pytest.mark.django_db
def test_receive_mail_reads_the_reply_on_standard_input(
    monkeypatch, django_capture_on_commit_callbacks
):
    campaign, player, mail = revolt_step_mail(django_capture_on_commit_callbacks)
    stdin = io.TextIOWrapper(io.BytesIO(reply(mail, ORDERS)))
    monkeypatch.setattr(sys, "stdin", stdin)
    out = io.StringIO()
    call_command(
        "receive_mail", "--sender", player.email, "--recipient", mail["reply_to"], stdout=out
    )
    assert out.getvalue().strip() == "orders saved"
    shows_orders_saved_and_ready(campaign, player)


def test_a_mail_not_acted_on_is_left_to_the_mta_to_hand_over_again(monkeypatch):
    """The database gave up: exit 75 (EX_TEMPFAIL), so that the MTA keeps the mail and
    tries again, instead of bouncing it to the player."""

    def fails(raw, **envelope):
        raise OperationalError("the database is down")

    monkeypatch.setattr(mail_replies, "receive", fails)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"From: a@b.example\n\nx")))
    with pytest.raises(SystemExit) as exited:
        call_command("receive_mail")
    assert exited.value.code == 75


def database_url() -> str:
    """The URL of the test database this process uses (PostgreSQL)."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}{port}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)  # committed, for the subprocess to read
def test_an_mta_pipes_the_reply_to_manage_py_receive_mail(
    on_postgresql, django_capture_on_commit_callbacks
):
    campaign, player, mail = revolt_step_mail(django_capture_on_commit_callbacks)
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DJANGO_DEBUG": "1",
        "COURIER_MAIL_REPLY_DOMAIN": settings.MAIL_REPLY_DOMAIN,
        "COURIER_MAIL_REPLY_LOCAL": settings.MAIL_REPLY_LOCAL,
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "receive_mail", "--sender", player.email]
        + ["--recipient", mail["reply_to"]],
        input=reply(mail, ORDERS),
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == "orders saved"
    shows_orders_saved_and_ready(campaign, player)
