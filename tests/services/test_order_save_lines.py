"""Saving orders logs one line per power for what it last did: three draft saves in a
row make one line, not three, and the line is the latest save (its time, who made it);
a change between a draft and ready is a line of its own. Nothing is lost: the power's
latest save is in the log, which the player and the GM read."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Event
from campaign.play import services
from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db
DRAFT = "saved its orders as a draft"
READY = "marked its orders ready"


@pytest.fixture
def eia(db):
    campaign = make_eia_campaign()
    return campaign, seat_users(campaign)


def save(campaign, key: str, *, ready=False, actor=None) -> None:
    campaign.refresh_from_db()
    seat = campaign.seats.select_related("power").get(power__key=key)
    services.submit_orders(
        seat=seat, phase_id=campaign.phase_id, payload={}, ready=ready, actor=actor
    )


def order_lines(campaign) -> list[str]:
    found = Event.objects.filter(campaign=campaign, kind="order", phase_id=campaign.phase_id)
    return list(found.order_by("pk").values_list("text", flat=True))


def test_three_draft_saves_make_one_line(eia):
    campaign, users = eia
    for _ in range(3):
        save(campaign, "france", actor=users["player"])
    lines = order_lines(campaign)
    assert len(lines) == 1 and "France " + DRAFT in lines[0]


def test_the_line_is_the_latest_save(eia, time_machine):
    campaign, users = eia
    time_machine.move_to(timezone.now(), tick=False)
    save(campaign, "france", actor=users["player"])
    first = Event.objects.filter(campaign=campaign, kind="order").get()
    time_machine.shift(600)
    save(campaign, "france", actor=users["player"])
    latest = Event.objects.filter(campaign=campaign, kind="order").get()
    assert latest.pk > first.pk and latest.created_at > first.created_at
    assert latest.actor == users["player"]
    assert Event.objects.filter(campaign=campaign).latest("pk") == latest  # it ends the log


def test_a_change_between_draft_and_ready_is_its_own_line(eia):
    campaign, users = eia
    save(campaign, "france", actor=users["player"])
    save(campaign, "france", ready=True, actor=users["player"])
    save(campaign, "france", ready=True, actor=users["player"])
    save(campaign, "france", actor=users["player"])
    lines = order_lines(campaign)
    assert [DRAFT in line for line in lines] == [True, False, True]
    assert READY in lines[1]


def test_each_power_keeps_its_own_line(eia):
    campaign, users = eia
    save(campaign, "france", actor=users["player"])
    save(campaign, "great_britain", actor=users["other_player"])
    save(campaign, "france", actor=users["player"])
    lines = order_lines(campaign)
    assert len(lines) == 2
    assert lines[0].startswith("Great Britain") and lines[1].startswith("France")


@pytest.mark.parametrize("role", ["player", "gm"])
def test_the_player_and_the_gm_read_the_latest_save(eia, client, role):
    campaign, users = eia
    for _ in range(3):
        save(campaign, "france", actor=users["player"])
    client.force_login(users[role])
    name = "detail" if role == "player" else "gm"
    page = client.get(reverse(f"campaign:{name}", args=[campaign.pk])).content.decode()
    assert page.count(f"France {DRAFT}") == 1


def test_a_save_by_another_user_keeps_the_earlier_line(eia):
    """The GM saving a player's orders as they were does not take the player's line away:
    who saved what stays in the log."""
    campaign, users = eia
    save(campaign, "france", actor=users["player"])
    save(campaign, "france", actor=users["gm"])
    actors = Event.objects.filter(campaign=campaign, kind="order").order_by("pk")
    assert [event.actor for event in actors] == [users["player"], users["gm"]]
