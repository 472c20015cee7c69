"""Deadlines and automatic resolution on a frozen clock: a phase resolves when the last
power that owes orders is ready or at its deadline (through the clock's tick), pauses,
resumes and extensions move that moment, default orders are logged, and whatever fires
(the "all ready" task and the deadline, two workers at once, a worker blocked by a lock,
a resolution that fails) the phase is resolved exactly once or not at all.

The worker is the real `manage.py db_worker --batch` (django-tasks-db). Inside a test's
transaction its between-task check of old connections would close the test's connection,
so run_worker() turns that check off; on-commit callbacks (the enqueues and the mail
that a commit triggers) run when each pass of the worker ends, as at a real commit.
"""

from __future__ import annotations

import io
import logging
import signal
import threading
import time
from contextlib import nullcontext
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock
from uuid import uuid4

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from campaign import errors
from campaign.core import changes, readiness
from campaign.jobs import progress, tasks
from campaign.models import Campaign, Event, Phase
from campaign.play import scheduling, services
from campaign.records import rollback
from rules.dice import ScriptedDice
from rules.empires_in_arms.models import Revolt
from tests.factories import make_eia_campaign, make_vq_campaign, seat_users, snapshot, swap_resolver

START = datetime(2026, 1, 12, 9, 0, tzinfo=UTC)  # a Monday in winter (Athens: UTC+2)
RESOLVE = "campaign.jobs.tasks.resolve_phase"


# -- helpers (the notification and view tests use them too) ---------------------------


def run_worker(capture=None) -> list[tuple[str, Any]]:
    """Run `manage.py db_worker --batch` until no task is ready. ``capture``: pytest-
    django's django_capture_on_commit_callbacks, so that what a task's commit triggers
    (mail, the next enqueue) happens and runs in the next pass. Returns the (task name,
    return value) of every task this call ran, sorted."""
    worker_id = uuid4().hex
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)
    saved = {sig: signal.getsignal(sig) for sig in signals}
    try:
        with mock.patch.object(db_worker, "close_old_connections", lambda: None):
            for _ in range(20):
                with capture(execute=True) if capture else nullcontext():
                    call_command(
                        "db_worker",
                        "--batch",
                        "--no-startup-delay",
                        "--worker-id",
                        worker_id,
                        verbosity=0,
                    )
                if not DBTaskResult.objects.ready().exists():
                    break
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    ran = [row for row in DBTaskResult.objects.all() if worker_id in row.worker_ids]
    return sorted((row.task_path.rsplit(".", 1)[1], row.return_value) for row in ran)


def resolutions(outcomes: list[tuple[str, Any]]) -> list[str]:
    return sorted(value for name, value in outcomes if name == "resolve_phase")


def enqueued_resolutions(campaign=None) -> list[list]:
    """The args (campaign id, phase id, reason) of every resolve_phase task enqueued."""
    rows = DBTaskResult.objects.filter(task_path=RESOLVE).order_by("enqueued_at")
    args = [row.args_kwargs["args"] for row in rows]
    return [a for a in args if campaign is None or a[0] == campaign.pk]


def give_orders(campaign, key: str, *, ready: bool = True, payload: dict | None = None):
    campaign.refresh_from_db()
    seat = campaign.seats.select_related("power", "user").get(power__key=key)
    return services.submit_orders(
        seat=seat, phase_id=campaign.phase_id, payload=payload or {}, ready=ready, actor=seat.user
    )


def open_phase(campaign) -> Phase:
    campaign.refresh_from_db()
    return Phase.objects.get(pk=campaign.phase_id)


def resolved_lines(campaign, phase: Phase) -> list[str]:
    return list(
        Event.objects.filter(
            campaign=campaign, phase=phase, kind=Event.Kind.PHASE, text__endswith=" resolved."
        ).values_list("text", flat=True)
    )


def set_deadline(campaign, hours: float, users=None) -> Phase:
    campaign.refresh_from_db()
    services.set_deadline(
        campaign_id=campaign.pk,
        phase_id=campaign.phase_id,
        deadline=timezone.now() + timedelta(hours=hours),
        actor=users and users["gm"],
    )
    return open_phase(campaign)


def france_sponsors_a_revolt(campaign) -> Phase:
    """The GM gives France a revolt in Austrian Minor 001: in the peace step France then
    owes orders too (it may let it lapse). Returns the open phase."""
    Revolt.objects.create(
        campaign=campaign,
        sponsor=campaign.powers.get(key="france"),
        area=campaign.areas.get(key="minor-1"),
        number=3,
        started_turn=1,
    )
    scheduling.state_edited(Campaign.objects.get(pk=campaign.pk))
    return open_phase(campaign)


def tick() -> int:
    """One run of the clock's task (what `manage.py clock` enqueues)."""
    return tasks.tick.call()


@pytest.fixture
def clock(time_machine):
    """The frozen clock, at START; clock(hours=…) moves it on from START."""
    time_machine.move_to(START, tick=False)

    def move(**delta):
        time_machine.move_to(START + timedelta(**delta), tick=False)

    return move


@pytest.fixture
def eia(clock, db):
    """A started Empires in Arms campaign (peace step open): France (player) and Great
    Britain (other_player) are seated; the five other powers have no player."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    return campaign, users


# -- resolution when everyone is ready ----------------------------------------------


@pytest.mark.django_db
def test_the_phase_resolves_when_the_last_owing_power_is_ready_and_not_before(
    eia, django_capture_on_commit_callbacks
):
    campaign, _ = eia
    peace = open_phase(campaign)
    owing = readiness.owing_powers(campaign, peace)
    assert [p.key for p in owing] == ["great_britain"]  # the only sponsor, so the only one
    peace = france_sponsors_a_revolt(campaign)
    owing = readiness.owing_powers(campaign, peace)
    assert sorted(p.key for p in owing) == ["france", "great_britain"]  # seated sponsors only

    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "france")
    assert enqueued_resolutions() == []
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == []
    assert open_phase(campaign).pk == peace.pk

    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "great_britain", ready=False)  # a draft owes still
    assert enqueued_resolutions() == []

    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "great_britain")
    assert enqueued_resolutions() == [[campaign.pk, peace.pk, "everyone is ready", peace.seed_hash]]
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["resolved"]
    peace.refresh_from_db()
    assert peace.status == Phase.Status.RESOLVED and peace.resolved_by is None
    assert open_phase(campaign).key == "revolt"
    assert resolved_lines(campaign, peace) == ["Political phase · peace step resolved."]


@pytest.mark.django_db
def test_a_power_marked_absent_owes_no_orders(eia, django_capture_on_commit_callbacks):
    campaign, users = eia
    peace = open_phase(campaign)
    britain = campaign.powers.get(key="great_britain")
    scheduling.set_absent(
        campaign_id=campaign.pk, power_id=britain.pk, absent=True, actor=users["gm"]
    )
    # France sponsors no revolt: with Great Britain absent nobody owes orders any more
    assert readiness.owing_powers(campaign, peace) == []
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "france")
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["resolved"]
    lines = Event.objects.filter(phase=peace, kind=Event.Kind.ORDER, power=britain)
    assert [e.text for e in lines] == [
        "Great Britain (absent) gave no orders: it does nothing this phase; its standing "
        "order on bad rolls stands."
    ]


@pytest.mark.django_db
def test_a_phase_nobody_owes_orders_in_waits_for_its_deadline(eia):
    campaign, _ = eia
    campaign.seats.filter(power__isnull=False).update(user=None)  # nobody seated
    assert not readiness.everyone_ready(campaign, open_phase(campaign))


# -- the deadline, pause, resume, extension ------------------------------------------


@pytest.mark.django_db
def test_the_phase_resolves_at_its_deadline_through_the_clock_and_not_before(
    eia, clock, django_capture_on_commit_callbacks
):
    campaign, users = eia
    peace = set_deadline(campaign, 2, users)
    assert peace.deadline == START + timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "france")  # Great Britain gives none

    clock(hours=1, minutes=59, seconds=59)
    assert tick() == 0
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == []
    assert open_phase(campaign).pk == peace.pk

    clock(hours=2)
    assert tick() == 1
    assert enqueued_resolutions() == [[campaign.pk, peace.pk, "deadline"]]
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["resolved"]
    peace.refresh_from_db()
    assert peace.status == Phase.Status.RESOLVED
    assert peace.resolved_at == START + timedelta(hours=2)
    assert open_phase(campaign).key == "revolt"
    assert tick() == 0  # the next phase has no deadline


@pytest.mark.django_db
def test_default_orders_are_logged_for_each_seated_power_that_gave_none(eia, clock):
    campaign, users = eia
    peace = set_deadline(campaign, 1, users)
    give_orders(campaign, "france", ready=False)
    clock(hours=1)
    assert tick() == 1
    assert resolutions(run_worker()) == ["resolved"]
    lines = dict(
        Event.objects.filter(phase=peace, kind=Event.Kind.ORDER)
        .exclude(text__contains="saved its orders")
        .values_list("power__key", "text")
    )
    default = "gave no orders: it does nothing this phase; its standing order on bad rolls stands."
    assert lines["great_britain"] == f"Great Britain {default}"
    assert (
        lines["france"]
        == "France's orders were saved but not marked ready; they are used as saved."
    )
    assert "spain" not in lines  # no player: nothing to tell (the phase does nothing for it)


@pytest.mark.django_db
def test_no_resolution_while_paused_and_resume_restores_the_time_left(eia, clock):
    campaign, users = eia
    peace = set_deadline(campaign, 10, users)
    clock(hours=4)
    scheduling.pause_deadline(campaign_id=campaign.pk, phase_id=peace.pk, actor=users["gm"])
    peace.refresh_from_db()
    assert (peace.deadline, peace.paused_remaining) == (None, timedelta(hours=6))
    assert "Deadline paused with 6 h 00 min left." in Event.objects.filter(
        campaign=campaign, kind=Event.Kind.GM
    ).values_list("text", flat=True)

    clock(hours=500)  # long past the old deadline
    assert tick() == 0
    assert resolutions(run_worker()) == []
    assert open_phase(campaign).pk == peace.pk

    scheduling.resume_deadline(campaign_id=campaign.pk, phase_id=peace.pk, actor=users["gm"])
    peace.refresh_from_db()
    assert peace.deadline == START + timedelta(hours=506)
    assert peace.paused_remaining is None
    clock(hours=505, minutes=59)
    assert tick() == 0
    clock(hours=506)
    assert tick() == 1
    assert resolutions(run_worker()) == ["resolved"]


@pytest.mark.django_db
def test_an_extension_moves_the_deadline_on(eia, clock):
    campaign, users = eia
    peace = set_deadline(campaign, 2, users)
    scheduling.extend_deadline(
        campaign_id=campaign.pk, phase_id=peace.pk, hours=3, actor=users["gm"]
    )
    peace.refresh_from_db()
    assert peace.deadline == START + timedelta(hours=5)
    clock(hours=2)
    assert tick() == 0
    clock(hours=4, minutes=59)
    assert tick() == 0
    clock(hours=5)
    assert tick() == 1
    assert resolutions(run_worker()) == ["resolved"]

    # without a deadline, an extension counts from now
    revolt = open_phase(campaign)
    assert revolt.deadline is None
    scheduling.extend_deadline(
        campaign_id=campaign.pk, phase_id=revolt.pk, hours=24, actor=users["gm"]
    )
    assert open_phase(campaign).deadline == START + timedelta(hours=29)


def save_schedule(campaign, users, deadline_hours: dict, **options) -> str:
    """The GM saves the schedule: resolution at deadlines, these hours, no webhook."""
    return scheduling.set_schedule(
        campaign_id=campaign.pk,
        auto_resolve=True,
        deadline_hours=deadline_hours,
        webhook_url="",
        actor=users["gm"],
        **options,
    )


@pytest.mark.django_db
def test_each_phase_kind_opens_with_its_default_deadline(eia, clock):
    campaign, users = eia
    save_schedule(campaign, users, {"revolt": 48, "land": 72})
    clock(hours=1)
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
    )
    revolt = open_phase(campaign)
    assert (revolt.key, revolt.deadline) == ("revolt", START + timedelta(hours=49))
    clock(hours=3)
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=revolt.pk, actor=users["gm"]
    )
    land = open_phase(campaign)
    assert (land.key, land.deadline) == ("land", START + timedelta(hours=75))
    clock(hours=5)
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=land.pk, actor=users["gm"]
    )
    conquest = open_phase(campaign)
    assert (conquest.key, conquest.deadline) == ("conquest", None)


# -- campaigns that do not resolve themselves ---------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["scripted dice", "automatic resolution off"])
def test_gm_dice_or_manual_campaigns_never_resolve_themselves(
    kind, clock, django_capture_on_commit_callbacks
):
    campaign = make_eia_campaign(dice_mode="scripted" if kind == "scripted dice" else "seeded")
    users = seat_users(campaign)
    if kind == "automatic resolution off":
        Campaign.objects.filter(pk=campaign.pk).update(auto_resolve=False)
        campaign.refresh_from_db()
    assert not readiness.resolves_itself(campaign)
    peace = set_deadline(campaign, 1, users)
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "france")
        give_orders(campaign, "great_britain")
    clock(hours=30)
    assert tick() == 0
    assert enqueued_resolutions() == []
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == []
    assert open_phase(campaign).pk == peace.pk


# -- exactly once -------------------------------------------------------------------


@pytest.mark.django_db
def test_all_ready_and_deadline_tasks_both_run_and_the_phase_resolves_once(
    eia, clock, django_capture_on_commit_callbacks, caplog
):
    campaign, users = eia
    peace = set_deadline(campaign, 1, users)
    clock(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "france")
        give_orders(campaign, "great_britain")
    assert tick() == 1
    assert sorted(a[2] for a in enqueued_resolutions()) == ["deadline", "everyone is ready"]
    with caplog.at_level(logging.INFO, logger="campaign.jobs.tasks"):
        outcomes = run_worker(django_capture_on_commit_callbacks)
    assert resolutions(outcomes) == ["resolved", "skipped"]
    assert resolved_lines(campaign, peace) == ["Political phase · peace step resolved."]
    assert Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED).count() == 1
    assert Phase.objects.filter(campaign=campaign, status=Phase.Status.OPEN).count() == 1
    skipped = [
        r.getMessage()
        for r in caplog.records
        if "nothing to do" in r.getMessage() or "no longer due" in r.getMessage()
    ]
    assert len(skipped) == 1 and str(peace.pk) in skipped[0]


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_resolve_the_phase_once(on_postgresql):
    campaign = make_eia_campaign()
    expected = campaign.phase_id
    Phase.objects.filter(pk=expected).update(deadline=timezone.now() - timedelta(minutes=1))
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def work() -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(tasks.resolve_phase.call(campaign.pk, expected, "deadline"))
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["resolved", "skipped"]
    assert Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED).count() == 1
    assert Phase.objects.filter(campaign=campaign, status=Phase.Status.OPEN).count() == 1
    assert len(resolved_lines(campaign, Phase.objects.get(pk=expected))) == 1
    assert not Phase.objects.get(pk=expected).failure


@pytest.mark.django_db
def test_a_ready_taken_back_before_the_worker_runs_does_not_resolve(
    eia, django_capture_on_commit_callbacks
):
    """The "all ready" task runs some time after the commit that enqueued it (the worker
    may be busy with mail and webhooks): if a power has meanwhile taken its orders back
    to a draft, nobody is ready any more and the phase must stay open."""
    campaign, _ = eia
    peace = open_phase(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "france")
        give_orders(campaign, "great_britain")
    assert len(enqueued_resolutions()) == 1
    give_orders(campaign, "great_britain", ready=False)
    run_worker(django_capture_on_commit_callbacks)
    assert open_phase(campaign).pk == peace.pk


@pytest.mark.django_db
def test_an_all_ready_task_does_not_resolve_the_phase_a_rollback_reopened(
    eia, django_capture_on_commit_callbacks
):
    """Everyone is ready and the task waits in the queue; meanwhile the GM resolves the
    phase and rolls it back (to correct something before it resolves again). The stale
    task must leave the reopened phase alone: it has a fresh seed."""
    campaign, users = eia
    peace = open_phase(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(campaign, "france")
        give_orders(campaign, "great_britain")
    assert enqueued_resolutions() == [[campaign.pk, peace.pk, "everyone is ready", peace.seed_hash]]
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=peace.pk, actor=users["gm"]
    )
    rollback.roll_back(campaign_id=campaign.pk, actor=users["gm"])
    reopened = open_phase(campaign)
    assert reopened.pk == peace.pk and reopened.seed_hash != peace.seed_hash
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["skipped"]
    assert open_phase(campaign).status == Phase.Status.OPEN
    assert resolved_lines(campaign, peace) == []


@pytest.mark.django_db
def test_a_deadline_task_enqueued_before_an_extension_does_not_resolve(eia, clock):
    """The clock enqueued the resolution at the deadline; before the worker ran it the GM
    extended the deadline by a day: the phase must wait for the new deadline."""
    campaign, users = eia
    peace = set_deadline(campaign, 1, users)
    clock(hours=1)
    assert tick() == 1
    scheduling.extend_deadline(
        campaign_id=campaign.pk, phase_id=peace.pk, hours=24, actor=users["gm"]
    )
    run_worker()
    assert open_phase(campaign).pk == peace.pk


# -- failures -----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_failed_resolution_is_undone_recorded_shown_and_cleared_by_a_gm_retry(
    clock, monkeypatch, django_capture_on_commit_callbacks
):
    broken = make_eia_campaign()
    users = seat_users(broken)
    healthy = make_eia_campaign()
    healthy_users = seat_users(healthy)
    fail = {"on": True}

    def peace(context):
        if fail["on"] and context.campaign.pk == broken.pk:
            real(context)  # half the work done, then the failure
            raise RuntimeError("the rules engine broke")
        return real(context)

    real = swap_resolver(monkeypatch, "empires_in_arms", "peace", peace)
    failing = set_deadline(broken, 1, users)
    set_deadline(healthy, 1, healthy_users)
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(broken, "france", ready=False)
    before = snapshot(broken)

    clock(hours=1)
    assert tick() == 2
    outcomes = run_worker(django_capture_on_commit_callbacks)
    assert resolutions(outcomes) == ["failed", "resolved"]
    assert open_phase(healthy).key == "revolt"  # the other campaign went on

    after = snapshot(broken)
    failing.refresh_from_db()
    assert failing.status == Phase.Status.OPEN
    assert failing.failure == "RuntimeError: the rules engine broke"
    assert {k for k in before if before[k] != after[k]} == {"phases", "events"}
    new_events = Event.objects.filter(campaign=broken).exclude(
        pk__in=[dict(row)["id"] for row in before["events"]]
    )
    (line,) = new_events
    assert line.kind == Event.Kind.PHASE and line.phase_id == failing.pk
    assert line.text == (
        "Automatic resolution (deadline) failed and was undone: RuntimeError: the rules "
        "engine broke. The GM can retry from the dashboard."
    )
    assert not Event.objects.filter(phase=failing, kind=Event.Kind.ORDER, text__contains="gave no")

    gm = Client()
    gm.force_login(users["gm"])
    dashboard = reverse("campaign:gm", args=[broken.pk])
    html = gm.get(dashboard).content.decode()
    assert "The last automatic resolution failed and was undone" in html
    assert "RuntimeError: the rules engine broke" in html

    fail["on"] = False
    response = gm.post(reverse("campaign:advance", args=[broken.pk]), {"phase": failing.pk})
    assert response.status_code == 302
    failing.refresh_from_db()
    assert failing.status == Phase.Status.RESOLVED and failing.failure == ""
    assert failing.resolved_by == users["gm"]
    assert "automatic resolution failed" not in gm.get(dashboard).content.decode()


@pytest.mark.django_db
def test_a_phase_that_keeps_failing_is_retried_by_the_clock_but_logged_once(
    eia, clock, monkeypatch
):
    """The clock re-enqueues a due phase at every tick (every 30 s by default) until it
    resolves: the same failure must not add a line to the players' log each time."""
    campaign, users = eia

    def broken(context):
        raise RuntimeError("the rules engine broke")

    swap_resolver(monkeypatch, "empires_in_arms", "peace", broken)
    peace = set_deadline(campaign, 1, users)
    for minute in range(3):
        clock(hours=1, minutes=minute)
        assert tick() == 1
        assert resolutions(run_worker()) == ["failed"]
    lines = Event.objects.filter(campaign=campaign, text__contains="failed and was undone")
    assert lines.count() == 1
    peace.refresh_from_db()
    assert peace.failure == "RuntimeError: the rules engine broke"


@pytest.mark.django_db
def test_a_phase_waiting_for_a_decision_is_never_resolved_by_the_clock(
    clock, monkeypatch, django_capture_on_commit_callbacks
):
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )  # the Ottoman passes
    monkeypatch.setattr(services, "_dice_for", lambda *a: ScriptedDice([6, 4, 1]))
    with django_capture_on_commit_callbacks(execute=True):
        give_orders(
            campaign, "spain", payload={"action": "conversion", "zones": ["france"], "attempts": 3}
        )
    impulse = open_phase(campaign)
    assert impulse.key == "impulse_spain"
    # Spain was the only power owing orders: the worker resolves as far as the decision
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["resolved"]
    impulse.refresh_from_db()
    assert impulse.status == Phase.Status.WAITING
    assert open_phase(campaign).pk == impulse.pk

    Phase.objects.filter(pk=impulse.pk).update(deadline=START - timedelta(hours=1))
    before = snapshot(campaign)
    clock(hours=100)
    assert tick() == 0
    assert tasks.resolve_phase.call(campaign.pk, impulse.pk, "deadline") == "skipped"
    assert run_worker(django_capture_on_commit_callbacks) == []
    assert snapshot(campaign) == before
    assert users  # the decision is Spain's player's to give


@pytest.mark.django_db(transaction=True)
def test_a_worker_gives_up_on_a_locked_campaign_after_the_lock_timeout(on_postgresql, settings):
    """Another transaction holds the campaign row (a long GM action, a stuck job): the
    worker waits RESOLUTION_LOCK_TIMEOUT_MS at most, records the failure and goes on to
    other work; it does not wait for the lock to be released."""
    settings.RESOLUTION_LOCK_TIMEOUT_MS = 200
    campaign = make_eia_campaign()
    phase_id = campaign.phase_id
    Phase.objects.filter(pk=phase_id).update(deadline=timezone.now() - timedelta(minutes=1))
    locked, release = threading.Event(), threading.Event()
    held_for = 5.0

    def hold() -> None:
        try:
            with transaction.atomic():
                changes.locked_campaign(campaign.pk)
                locked.set()
                release.wait(timeout=held_for)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(timeout=10)
        started = time.monotonic()
        outcome = tasks.resolve_phase.call(campaign.pk, phase_id, "deadline")
        elapsed = time.monotonic() - started
    finally:
        release.set()
        holder.join(timeout=30)
    assert outcome == "failed"
    assert elapsed < 2, f"the worker waited {elapsed:.1f} s for a lock held {held_for} s"
    phase = Phase.objects.get(pk=phase_id)
    assert phase.status == Phase.Status.OPEN
    assert "lock timeout" in phase.failure
    campaign.refresh_from_db()
    assert campaign.phase_id == phase_id


# -- the clock command --------------------------------------------------------------


@pytest.mark.django_db
def test_clock_once_enqueues_one_tick():
    call_command("clock", "--once")
    rows = DBTaskResult.objects.all()
    assert [row.task_path for row in rows] == ["campaign.jobs.tasks.tick"]
    assert run_worker() == [("tick", 0)]


# -- a new campaign's schedule and start ---------------------------------------------


def new_eia(gm, *, start_when=Campaign.StartWhen.GM, pace="standard") -> Campaign:
    """The shipped 1805 campaign as the new-campaign form makes it: at ``pace``, waiting
    to start (``start_when``); its first phase, the peace step, owes nobody's orders."""
    from campaign.play.scenarios import create_campaign
    from rules.engine import registry

    return create_campaign(
        scenario_key="eia-1805",
        name="Not yet",
        gm=gm,
        deadline_hours=scheduling.pace_hours(registry()["empires_in_arms"], pace),
        start_when=start_when,
    )


def join(campaign, key: str, name: str):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(f"{name}-{campaign.pk}")
    token = campaign.seats.get(power__key=key).invite_token
    return services.claim_seat(token=token, user=user)


def phase_lines(campaign) -> list[str]:
    return list(
        Event.objects.filter(campaign=campaign, kind__in=[Event.Kind.PHASE, Event.Kind.GM])
        .order_by("pk")
        .values_list("text", flat=True)
    )


def test_a_pace_gives_each_phase_kind_the_hours_of_orders_or_of_a_gm_step():
    from rules.engine import registry

    orders, gm_step = scheduling.PACES["standard"]
    seen = set()
    for rules in registry().values():
        hours = scheduling.pace_hours(rules, "standard")
        assert set(hours) == {spec.schedule_key for spec in rules.phases}
        for spec in rules.phases:
            takes = any(s.takes_orders for s in rules.phases if s.schedule_key == spec.schedule_key)
            assert hours[spec.schedule_key] == (orders if takes else gm_step)
            seen.add(spec.takes_orders)
        assert scheduling.pace_hours(rules, "none") == {}
        own = scheduling.pace_hours(rules, "none", orders_hours=30)
        assert set(own.values()) == {30}
        assert len(own) == len({s.schedule_key for s in rules.phases if s.takes_orders})
    assert seen == {True, False}  # phases with orders and GM steps are both there
    with pytest.raises(errors.ServiceError, match="no pace"):
        scheduling.pace_hours(rules, "glacial")
    with pytest.raises(errors.ServiceError, match="whole number of hours from 1 to 1440"):
        scheduling.pace_hours(rules, "fast", gm_hours=-2)


@pytest.mark.django_db
def test_a_new_campaign_waits_for_the_gm_then_its_deadline_runs_from_the_start(
    clock, django_capture_on_commit_callbacks
):
    gm = get_user_model().objects.create_user("gm")
    campaign = new_eia(gm)
    peace = open_phase(campaign)
    hours = readiness.default_hours(campaign, peace.key)
    assert campaign.deadline_hours and hours == scheduling.PACES["standard"][0]
    assert campaign.started_at is None and peace.deadline is None  # no clock before the start

    with django_capture_on_commit_callbacks(execute=True):
        join(campaign, "france", "first")  # the peace step now waits for nobody
    assert readiness.everyone_ready(campaign, peace)
    assert enqueued_resolutions() == []  # but the campaign has not started
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == []
    assert open_phase(campaign).pk == peace.pk

    clock(hours=5)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_running(campaign_id=campaign.pk, actor=gm)
    campaign.refresh_from_db()
    peace.refresh_from_db()
    assert campaign.started_at == START + timedelta(hours=5)
    assert peace.deadline == START + timedelta(hours=5 + hours)
    assert phase_lines(campaign)[-1] == (
        "GM gm starts the campaign: Political phase · peace step is open until "
        "14 January 2026, 14:00 UTC."
    )
    assert enqueued_resolutions() == [[campaign.pk, peace.pk, "everyone is ready", peace.seed_hash]]
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["resolved"]
    assert open_phase(campaign).pk != peace.pk

    with pytest.raises(errors.Conflict, match="already started"):
        services.start_running(campaign_id=campaign.pk, actor=gm)


@pytest.mark.django_db
def test_the_clock_resolves_nothing_before_the_start(clock, django_capture_on_commit_callbacks):
    gm = get_user_model().objects.create_user("gm")
    campaign = new_eia(gm)
    join(campaign, "france", "first")
    peace = set_deadline(campaign, 1, {"gm": gm})  # the GM's own deadline, before the start
    clock(hours=2)
    assert tick() == 0
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == []
    assert open_phase(campaign).pk == peace.pk
    now = progress.polled(campaign, peace)  # not "being resolved": it waits for the start
    assert (now.pace, now.gm_step) == (progress.WITH_GM, progress.START)

    with django_capture_on_commit_callbacks(execute=True):
        services.start_running(campaign_id=campaign.pk, actor=gm)
    peace.refresh_from_db()
    assert peace.deadline == START + timedelta(hours=1)  # the GM's deadline stays
    assert tick() == 1


@pytest.mark.django_db
def test_the_join_that_takes_the_last_seat_starts_the_campaign(
    clock, django_capture_on_commit_callbacks
):
    gm = get_user_model().objects.create_user("gm")
    campaign = new_eia(gm, start_when=Campaign.StartWhen.SEATS, pace="fast")
    keys = list(campaign.powers.order_by("sort").values_list("key", flat=True))
    peace = open_phase(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        for number, key in enumerate(keys[:-1]):
            join(campaign, key, f"player{number}")
    campaign.refresh_from_db()
    assert campaign.started_at is None and enqueued_resolutions() == []

    clock(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        join(campaign, keys[-1], "last")
    campaign.refresh_from_db()
    peace.refresh_from_db()
    assert campaign.started_at == START + timedelta(hours=1)
    assert peace.deadline == START + timedelta(hours=1 + scheduling.PACES["fast"][0])
    assert phase_lines(campaign)[-1].startswith(
        "Every seat is taken: the campaign starts, and Political phase · peace step is open until "
    )
    assert enqueued_resolutions() == [[campaign.pk, peace.pk, "everyone is ready", peace.seed_hash]]
    assert resolutions(run_worker(django_capture_on_commit_callbacks)) == ["resolved"]


@pytest.mark.django_db
def test_the_gm_taking_the_last_free_power_starts_a_campaign_that_waits_for_every_seat(clock):
    gm = get_user_model().objects.create_user("gm")
    campaign = new_eia(gm, start_when=Campaign.StartWhen.SEATS)
    keys = list(campaign.powers.order_by("sort").values_list("key", flat=True))
    for number, key in enumerate(keys[:-1]):
        join(campaign, key, f"player{number}")
    services.gm_plays(campaign_id=campaign.pk, power_key=keys[-1], actor=gm)
    campaign.refresh_from_db()
    assert campaign.started_at == START


@pytest.mark.django_db
def test_a_campaign_made_by_a_script_has_started(clock):
    from campaign.play.scenarios import create_campaign

    campaign = create_campaign(scenario_key="eia-1805", name="Script", gm=None)
    assert campaign.started_at == START
    assert make_eia_campaign().started_at is not None  # a factory's, by the model default


# -- saving the schedule: the open phase's deadline, applied or kept ------------------


@pytest.mark.django_db
def test_a_phase_paused_on_its_own_stays_paused_when_the_schedule_is_applied(eia, clock):
    """Applying the schedule to the open phase changes how long it has, not whether its
    clock runs: the GM paused it, and resumes it."""
    campaign, users = eia
    peace = open_phase(campaign)
    scheduling.extend_deadline(
        campaign_id=campaign.pk, phase_id=peace.pk, hours=5, actor=users["gm"]
    )
    scheduling.pause_deadline(campaign_id=campaign.pk, phase_id=peace.pk, actor=users["gm"])
    said = save_schedule(campaign, users, {peace.key: 10}, apply_to_open=True)
    peace.refresh_from_db()
    assert (peace.deadline, peace.paused_remaining) == (None, timedelta(hours=10))
    assert said == "The open phase's deadline is paused with 10 h 00 min left."


@pytest.mark.django_db
def test_saving_the_schedule_can_set_the_open_phase_deadline_from_it(eia, clock):
    campaign, users = eia
    peace = open_phase(campaign)  # opened at START, no deadline
    clock(hours=3)
    said = save_schedule(campaign, users, {peace.key: 10}, apply_to_open=True)
    peace.refresh_from_db()
    assert peace.deadline == START + timedelta(hours=10)  # from when it opened
    assert said == "The open phase's deadline is now 12 January 2026, 19:00 UTC."
    assert gm_texts(campaign)[-1] == said

    clock(hours=12)  # ten hours from the opening have passed: from now, then
    save_schedule(campaign, users, {peace.key: 10}, apply_to_open=True)
    peace.refresh_from_db()
    assert peace.deadline == START + timedelta(hours=22)

    said = save_schedule(campaign, users, {}, apply_to_open=True)
    peace.refresh_from_db()
    assert peace.deadline is None
    assert said == "The open phase now has no deadline: the GM closes it."


@pytest.mark.django_db
def test_saving_the_schedule_without_applying_it_keeps_the_open_phase_deadline(eia, clock):
    campaign, users = eia
    peace = set_deadline(campaign, 5, users)
    said = save_schedule(campaign, users, {peace.key: 48})
    peace.refresh_from_db()
    assert peace.deadline == START + timedelta(hours=5)
    assert said == "The open phase keeps its deadline, 12 January 2026, 14:00 UTC."

    said = save_schedule(campaign, users, {peace.key: 48}, paused=True, apply_to_open=True)
    peace.refresh_from_db()
    assert (peace.deadline, peace.paused_remaining) == (None, timedelta(hours=48))
    assert said == "The open phase's deadline is paused with 48 h 00 min left."
    with pytest.raises(errors.ServiceError, match="whole number of hours"):
        save_schedule(campaign, users, {peace.key: -1})


def gm_texts(campaign) -> list[str]:
    return list(
        Event.objects.filter(campaign=campaign, kind=Event.Kind.GM)
        .order_by("pk")
        .values_list("text", flat=True)
    )


# -- the demo ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_demo_leaves_no_campaign_waiting_for_nobody(django_capture_on_commit_callbacks):
    """Every demo campaign is seated and started: a first phase that waits for nobody
    (the peace step of 1805) is resolved, so each open phase waits for a power's orders
    or decision, or is a GM step."""
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=io.StringIO())
    run_worker(django_capture_on_commit_callbacks)
    demos = Campaign.objects.filter(name__startswith="Demo — ")
    assert demos.count() >= 3
    for campaign in demos:
        assert campaign.started_at is not None
        phase = open_phase(campaign)
        spec = campaign.rules.phase(phase.key)
        owing = readiness.owing_powers(campaign, phase)
        waits = (
            phase.status == Phase.Status.WAITING
            or not spec.takes_orders
            or any(not power.ready for power in owing)
        )
        assert waits, f"{campaign.name}: {phase.key} waits for nobody"
    eia_demo = demos.get(ruleset="empires_in_arms")
    assert eia_demo.phases.filter(key="peace", status=Phase.Status.RESOLVED).exists()
