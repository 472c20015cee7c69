"""Heartbeats (campaign/jobs/heartbeat.py): the clock records its own at each tick, the
worker its own when it runs the check the clock enqueued, each with one query; a
process unseen for more than STALE_PERIODS of its periods (the clock's interval), and
two minutes at least, is stale, one never seen too."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import call_command

from campaign.jobs import heartbeat
from campaign.models import Heartbeat
from tests.services.test_scheduling import run_worker

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def seen() -> dict[str, datetime]:
    return dict(Heartbeat.objects.values_list("name", "seen_at"))


def test_a_clock_tick_records_the_clock_and_the_worker_records_itself_running_it():
    with time_machine.travel(NOW, tick=False):
        call_command("clock", "--once")
    assert seen() == {"clock": NOW}  # the worker has not run the check yet
    later = NOW + timedelta(seconds=3)
    with time_machine.travel(later, tick=False):
        assert run_worker() == [("tick", 0)]
    assert seen() == {"clock": NOW, "worker": later, "reminders": later}  # looked up to then


def test_each_tick_writes_over_the_same_row_in_one_query(django_assert_num_queries):
    heartbeat.beat(heartbeat.CLOCK, NOW)
    with django_assert_num_queries(1):
        heartbeat.beat(heartbeat.CLOCK, NOW + timedelta(seconds=2))
    assert seen() == {"clock": NOW + timedelta(seconds=2)}
    assert Heartbeat.objects.count() == 1


def test_a_process_is_stale_after_five_of_its_periods_and_two_minutes_at_least(
    settings, django_assert_num_queries
):
    settings.CLOCK_INTERVAL_SECONDS = 2  # five periods are 10 s: a busy worker is not gone
    assert heartbeat.stale_after() == timedelta(minutes=2)
    heartbeat.beat(heartbeat.CLOCK, NOW)
    heartbeat.beat(heartbeat.WORKER, NOW - timedelta(seconds=4))
    at = NOW + timedelta(minutes=2)
    with django_assert_num_queries(1):
        states = heartbeat.liveness(at)
    assert [(p.name, p.seen_at, p.stale) for p in states] == [
        ("worker", NOW - timedelta(seconds=4), True),
        ("clock", NOW, False),  # two minutes exactly: not more
    ]
    assert [p.name for p in heartbeat.stale(at + timedelta(milliseconds=1))] == ["worker", "clock"]


def test_the_thresholds_follow_the_clocks_interval(settings):
    settings.CLOCK_INTERVAL_SECONDS = 60
    heartbeat.beat(heartbeat.CLOCK, NOW)
    heartbeat.beat(heartbeat.WORKER, NOW)
    assert heartbeat.stale(NOW + timedelta(minutes=5)) == []
    assert len(heartbeat.stale(NOW + timedelta(minutes=5, seconds=1))) == 2


def test_a_process_never_seen_is_stale():
    heartbeat.beat(heartbeat.CLOCK, NOW)
    assert [(p.name, p.seen_at, p.label) for p in heartbeat.liveness(NOW)] == [
        ("worker", None, "stale"),
        ("clock", NOW, "ok"),
    ]


def test_time_moves_on_without_the_processes():
    """Seen now, stale three minutes later with nothing more recorded (the real clock)."""
    with time_machine.travel(NOW, tick=False):
        call_command("clock", "--once")
        run_worker()
        assert heartbeat.stale() == []
    with time_machine.travel(NOW + timedelta(minutes=3), tick=False):
        assert [p.name for p in heartbeat.stale()] == ["worker", "clock"]
