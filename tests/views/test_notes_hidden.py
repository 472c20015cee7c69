"""Private notes are read by their writer alone: the mail the phases send holds none.
(Every page, fragment and download: the role × URL matrix, whose roles each keep a note
that no other role receives, tests/reliability/test_url_matrix.py.)
"""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from campaign.models import Seat
from campaign.press import notes
from tests.factories import make_eia_campaign, seat_users
from tests.services.test_eia_phase_services import resolve
from tests.services.test_scheduling import run_worker

pytestmark = pytest.mark.django_db
WRITERS = ("player", "other_player", "observer", "gm", "replaced")
User = get_user_model()


def replaced_player(campaign, power_key: str):
    """A user who played ``power_key`` until someone took the seat over: an observer seat
    that remembers the power (as campaign/play/replacements.py leaves him)."""
    user = User.objects.create_user(f"replaced-{campaign.pk}")
    power = campaign.powers.get(key=power_key)
    Seat.objects.create(
        campaign=campaign,
        role=Seat.Role.OBSERVER,
        user=user,
        former_power=power,
        left_at=timezone.now(),
    )
    return user


def write_notes(campaign, users: dict, resolved_phase: int) -> dict[str, set[str]]:
    """Each writer's notes on the campaign, the open phase and a resolved phase: their
    markers, by writer."""
    markers = {}
    for role in WRITERS:
        mine = set()
        for where in (None, campaign.phase_id, resolved_phase):
            marker = f"NOTE-{role}-{uuid.uuid4().hex[:12]}"
            text = f"{marker} <b>plans</b>"
            notes.save_note(campaign_id=campaign.pk, user=users[role], phase_id=where, text=text)
            mine.add(marker)
        markers[role] = mine
    return markers


def test_the_mail_of_the_phases_holds_no_note(django_capture_on_commit_callbacks):
    """Every mail the phases send every seat (phases opened and resolved, orders owed) is
    read: none holds a note of its reader's or anyone else's."""
    capture = django_capture_on_commit_callbacks
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    users["replaced"] = replaced_player(campaign, "spain")
    for role, user in users.items():
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])
    first = campaign.phase_id
    with capture(execute=True):
        resolve(campaign)
    campaign.refresh_from_db()
    markers = write_notes(campaign, users, first)
    mail.outbox.clear()
    for _ in range(3):
        with capture(execute=True):
            resolve(campaign)
        campaign.refresh_from_db()
    run_worker(capture)
    assert mail.outbox, "the turn sent no mail"
    every = {m for mine in markers.values() for m in mine}
    for message in mail.outbox:
        texts = [message.subject, message.body, *(c for c, _ in message.alternatives)]
        assert not any(m in text for m in every for text in texts), message.subject
