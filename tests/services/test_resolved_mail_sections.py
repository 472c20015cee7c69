"""The phase-resolved mail puts a heading only over lines: no "The whole phase:" without
a line under it (a phase that rolled nothing), in its text part and its HTML part."""

from __future__ import annotations

import re

import pytest

from campaign.notify import outgoing
from tests.services.test_notifications import (  # noqa: F401 (eia: a fixture)
    clock,  # noqa: F401 (a fixture)
    eia,
    mails,
    resolve,
)
from tests.services.test_scheduling import run_worker

pytestmark = pytest.mark.django_db
HEADINGS = ("Your rolls and results:", "The whole phase:")


def html_of(message) -> str:
    ((html, _kind),) = message.alternatives
    return html


def test_a_heading_always_has_lines_under_it(eia, django_capture_on_commit_callbacks):  # noqa: F811
    campaign, users = eia
    resolve(campaign, users, django_capture_on_commit_callbacks)  # the peace step
    run_worker(django_capture_on_commit_callbacks)
    resolved = [m for found in mails("is resolved").values() for m in found]
    assert resolved
    for message in resolved:
        for heading in HEADINGS:
            if heading in message.body:
                under = message.body.split(f"{heading}\n", 1)[1].split("\n", 1)[0]
                assert under.strip(), message.body
        assert not re.search(r"<h2>[^<]*</h2>\s*<ul></ul>", html_of(message))


def test_a_phase_without_a_line_has_no_heading(monkeypatch):
    letter = outgoing.Letter(
        subject="s", paragraphs=["p"], sections=[("The whole phase:", [])], link=""
    )
    html = outgoing.compose("a@example.org", letter)["html"]
    assert "The whole phase:" not in html and "<ul>" not in html
