"""Is the worker alive? /healthz answers 200 "ok" for the container health check, with a
line for the worker and one for the clock; ``?strict=1`` answers 503 while either is
stale. The GM dashboard of a campaign that resolves by itself warns its GM when one is;
a campaign the GM resolves, and every other page, says nothing of it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse

from campaign.jobs import heartbeat
from campaign.models import Campaign

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
WORKER_UNSEEN = "Deadlines will not resolve: the task worker has not been seen since"
CLOCK_UNSEEN = "Deadlines will not resolve: the clock has not been seen since"
NEVER_SEEN = "Deadlines will not resolve: the task worker has never been seen running."


@pytest.fixture
def now(time_machine):
    time_machine.move_to(NOW, tick=False)
    return NOW


def both_seen(at: datetime) -> None:
    heartbeat.beat(heartbeat.CLOCK, at)
    heartbeat.beat(heartbeat.WORKER, at)


def test_healthz_answers_ok_and_says_both_are_running(now):
    both_seen(now - timedelta(seconds=3))
    for url in ("/healthz", "/healthz?strict=1"):
        response = Client().get(url)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/plain")
        assert response.content.decode().splitlines() == [
            "ok",
            "worker: ok (last seen 2026-03-01T08:59:57+00:00)",
            "clock: ok (last seen 2026-03-01T08:59:57+00:00)",
        ]


def test_healthz_stays_ok_for_the_container_when_they_are_stale(now):
    heartbeat.beat(heartbeat.CLOCK, now - timedelta(minutes=3))
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.content.decode().splitlines() == [
        "ok",
        "worker: stale (last seen never)",
        "clock: stale (last seen 2026-03-01T08:57:00+00:00)",
    ]


def test_strict_healthz_is_503_when_either_is_stale(now):
    heartbeat.beat(heartbeat.CLOCK, now)
    heartbeat.beat(heartbeat.WORKER, now - timedelta(minutes=2, seconds=1))
    response = Client().get("/healthz?strict=1")
    assert response.status_code == 503
    assert response.content.decode().splitlines() == [
        "stale",
        "worker: stale (last seen 2026-03-01T08:57:59+00:00)",
        "clock: ok (last seen 2026-03-01T09:00:00+00:00)",
    ]
    assert Client().get("/healthz?strict=0").status_code == 200


def test_the_gm_is_warned_while_the_worker_is_not_seen(campaign, client_as, now):
    heartbeat.beat(heartbeat.CLOCK, now)
    heartbeat.beat(heartbeat.WORKER, now - timedelta(minutes=3))
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert f"{WORKER_UNSEEN} 1 Mar 2026 08:57 UTC." in html
    assert CLOCK_UNSEEN not in html
    assert 'id="stalled"' in html and 'role="alert"' in html


def test_the_gm_is_warned_of_a_clock_never_started(campaign, client_as, now):
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    # the worker is not seen either, but the clock that feeds it is what to start first
    assert "Deadlines will not resolve: the clock has never been seen running." in html
    assert NEVER_SEEN not in html


def test_no_warning_while_both_run(campaign, client_as, now):
    both_seen(now - timedelta(seconds=9))
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert "Deadlines will not resolve" not in html


@pytest.mark.parametrize(
    "change",
    [
        {"auto_resolve": False},
        {"dice_mode": Campaign.DiceMode.SCRIPTED},
        {"started_at": None},
        {"ended_at": NOW},
    ],
    ids=["automatic resolution off", "GM-entered dice", "not started", "ended"],
)
def test_no_warning_where_the_gm_resolves_the_phases(campaign, client_as, now, change):
    Campaign.objects.filter(pk=campaign.pk).update(**change)
    html = client_as("gm").get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert "Deadlines will not resolve" not in html


@pytest.mark.parametrize("role", ["player", "observer"])
def test_only_the_gm_is_warned(campaign, client_as, now, role):
    html = client_as(role).get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "Deadlines will not resolve" not in html
