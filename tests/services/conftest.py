"""Fixtures of the service tests."""

from __future__ import annotations

import pytest

from campaign.notify import outgoing


@pytest.fixture
def mailed(monkeypatch, django_capture_on_commit_callbacks):
    """The mails handed to the worker, as (recipient, subject, text) in ``mailed.sent``;
    each test's commit callbacks run as it ends its ``with mailed.sending():`` block."""
    sent: list[tuple[str, str, str]] = []

    class Deliver:
        @staticmethod
        def enqueue(mail: dict):
            sent.append((mail["to"], mail["subject"], mail["text"]))

    monkeypatch.setattr(outgoing.delivery, "deliver_mail", Deliver)

    class Outbox(list):
        def sending(self):
            return django_capture_on_commit_callbacks(execute=True)

    outbox = Outbox()
    outbox.sent = sent
    return outbox
