"""Private notes are read by their writer alone, through every door.

In the role × URL matrix's campaigns of Empires in Arms, Pax Baltica and Virgin Queen
(waiting for a decision), the GM, both players, the observer and a replaced player (an
observer seat that remembers his power) each write a note on the campaign, on the open
phase and on a resolved phase, and a player of another campaign writes one there, each
with a marker of its own. Then every request the matrix builds for every URL of the
campaign app (GET and POST, HTMX fragments too: pages, the history, the press, the maps,
the downloads) is made as every role, and as the replaced player, in a savepoint rolled
back after it: no response holds a marker of anyone but the reader's own. The owner's
notes page holds all of theirs, the GM's download the GM's and nobody else's; and the
mail the phases send holds none.
"""

from __future__ import annotations

import uuid
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign import notes
from campaign.models import Seat
from tests.factories import make_eia_campaign, seat_users
from tests.reliability.test_url_matrix import (
    BUILDERS,
    OTHER,
    ROLES,
    SCENES,
    calls_of,
    campaign_url_names,
    request,
)
from tests.services.test_eia_phase_services import resolve
from tests.services.test_scheduling import run_worker

pytestmark = pytest.mark.django_db
WRITERS = ("player", "other_player", "observer", "gm", "replaced")
READERS = (*ROLES, "replaced")
User = get_user_model()


def replaced_player(campaign, power_key: str):
    """A user who played ``power_key`` until someone took the seat over: an observer seat
    that remembers the power (as campaign/replacements.py leaves him)."""
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


def foreign_note(other) -> str:
    """A note of a player of another campaign, on that campaign."""
    user = User.objects.create_user(f"foreign-{other.pk}")
    seat = Seat.objects.filter(campaign=other, role=Seat.Role.PLAYER).first()
    seat.user = user
    seat.save(update_fields=["user"])
    marker = f"NOTE-foreign-{uuid.uuid4().hex[:12]}"
    notes.save_note(campaign_id=other.pk, user=user, phase_id=other.phase_id, text=marker)
    return marker


def read_by(markers: dict[str, set[str]], foreign: str, reader: str) -> set[str]:
    """The markers ``reader`` must never read: everyone's but their own."""
    return {foreign} | {m for role, mine in markers.items() if role != reader for m in mine}


# Notes are the same for every game: one scene's doors, a game with hidden information
# (the others' pages come from the same views), keep the crawl within the suite's time.
@pytest.mark.parametrize("scene_key", ["pb"])
def test_no_door_shows_a_note_to_anyone_but_its_writer(scene_key, settings):
    settings.PRESS_RATE_LIMIT = 10**6
    scene = SCENES[scene_key]()
    scene.other = OTHER[scene.ruleset]()
    users = {**scene.users}
    player_power = Seat.objects.get(campaign=scene.campaign, user=users["player"]).power.key
    users["replaced"] = replaced_player(scene.campaign, player_power)
    markers = write_notes(scene.campaign, users, scene.resolved_phase)
    foreign = foreign_note(scene.other)
    clients = {}
    for role in READERS:
        clients[role] = Client(raise_request_exception=False)
        if role != "anonymous":
            clients[role].force_login(users[role])
    names = campaign_url_names() & set(BUILDERS)
    assert "notes" in names and "export" in names
    leaks, errors, count = [], [], 0
    for name in sorted(names):
        for call in calls_of(name, BUILDERS[name], scene):
            for role in READERS:
                with transaction.atomic():
                    response = request(clients[role], call)
                    transaction.set_rollback(True)
                count += 1
                where = f"{scene_key} · {role} · {call.method.upper()} {name} ({call.label})"
                if response.status_code >= 500:
                    errors.append(f"{where}: {response.status_code}")
                text = unescape(response.content.decode(errors="replace"))
                found = {m for m in read_by(markers, foreign, role) if m in text}
                leaks += [f"{where}: {sorted(found)}"] if found else []
    assert count > 300
    assert not errors, "\n".join(errors)
    assert not leaks, f"{len(leaks)} responses show another's note:\n" + "\n".join(leaks)
    for role in WRITERS:
        page = unescape(
            clients[role].get(reverse("campaign:notes", args=[scene.pk])).content.decode()
        )
        assert all(m in page for m in markers[role]), f"{role}'s notes page lacks a note"
    export = clients["gm"].get(reverse("campaign:export", args=[scene.pk])).content.decode()
    assert all(m in export for m in markers["gm"])


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
