"""Fixtures of the view tests: a started campaign, a user per role, a client per role."""

import pytest
from django.test import Client

from tests.factories import make_eia_campaign, seat_users

ROLES = ("anonymous", "outsider", "other_player", "player", "observer", "gm")


@pytest.fixture
def campaign(db):
    return make_eia_campaign()


@pytest.fixture
def users(campaign):
    return seat_users(campaign)


@pytest.fixture
def client_as(users):
    """A test client logged in as a role ("anonymous": not logged in)."""

    def make(role: str) -> Client:
        client = Client()
        if role != "anonymous":
            client.force_login(users[role])
        return client

    return make


@pytest.fixture
def advance_to(users):
    """Resolve phases (seeded dice, no orders) until the campaign's open phase is ``key``."""
    from campaign.play.services import resolve_open_phase

    def advance(campaign, key: str, limit: int = 12):
        for _ in range(limit):
            campaign.refresh_from_db()
            if campaign.phase.key == key:
                return campaign.phase
            resolve_open_phase(
                campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
            )
        raise AssertionError(f"phase {key!r} not reached")

    return advance
