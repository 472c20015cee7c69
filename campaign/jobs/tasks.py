"""Background work run by `manage.py db_worker`: automatic resolution, the clock's check
of deadlines and reminders, and the press digests (mail and webhooks: campaign/notify/delivery.py).

Exactly one resolution per phase, whatever fires: resolve_open_phase locks the campaign
row and checks that the phase it was asked to resolve is still the open one, so a
second trigger (the "all ready" task and the deadline, or two workers) finds it resolved
and does nothing but say so in the worker's log. A resolution that fails is rolled back,
its error kept on the phase for the GM dashboard (which can retry), and never blocks
other campaigns: each waits for its campaign's lock at most RESOLUTION_LOCK_TIMEOUT_MS.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection, transaction
from django.dispatch import receiver
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from campaign.core import readiness
from campaign.core.changes import locked_campaign, log
from campaign.errors import Conflict, PhaseAlreadyResolved
from campaign.jobs import heartbeat
from campaign.models import Campaign, Event, Phase
from campaign.notify import reminders
from campaign.play import scheduling
from campaign.play.lifecycle import ready_to_resolve, runs_by_itself, settle
from campaign.play.services import resolve_open_phase
from campaign.press import press_mail
from courier import metrics
from rules.text import Text

logger = logging.getLogger(__name__)


DEADLINE = "deadline"


@task()
def resolve_phase(campaign_id: int, phase_id: int, reason: str, seed_hash: str = "") -> str:
    """Resolve the phase if it is still open and still due: at its deadline (``reason``
    DEADLINE) or with every power ready. What changed since the task was enqueued (a
    "ready" taken back, a deadline extended or paused, automatic resolution turned off,
    the phase resolved, rolled back and reopened with a fresh seed: ``seed_hash`` is the
    one it had when the task was enqueued) is checked under the campaign's lock."""
    try:
        with transaction.atomic():
            _limit_lock_wait()
            campaign = locked_campaign(campaign_id)
            if not _still_due(campaign, phase_id, reason, seed_hash):
                logger.info("Phase %s (%s): no longer due", phase_id, reason)
                return "skipped"
            deadline = campaign.phase.deadline if reason == DEADLINE else None
            resolve_open_phase(campaign_id=campaign_id, expected_phase_id=phase_id, actor=None)
    except (PhaseAlreadyResolved, Conflict) as error:
        logger.info("Phase %s (%s): nothing to do: %s", phase_id, reason, error)
        return "skipped"
    except Exception as error:  # kept for the GM to see and retry; other campaigns go on
        logger.exception("Phase %s (%s): resolution failed", phase_id, reason)
        _record_failure(campaign_id, phase_id, reason, error)
        return "failed"
    if deadline is not None:  # committed: how long after its deadline (courier/metrics.py)
        metrics.resolved_after_deadline(deadline)
    return "resolved"


def resolution_queued(phase_id: int) -> bool:
    """A resolution of the phase is waiting for the worker or running (one query)."""
    return DBTaskResult.objects.filter(
        task_path=resolve_phase.module_path,
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING],
        args_kwargs__args__1=phase_id,
    ).exists()


@receiver(ready_to_resolve)
def _resolve_when_ready(sender, *, campaign_id: int, phase_id: int, seed_hash: str, **kwargs):
    """A phase waits for nobody (lifecycle.resolve_when_everyone_is_ready): resolve it."""
    resolve_phase.enqueue(campaign_id, phase_id, "everyone is ready", seed_hash)


def _still_due(campaign: Campaign, phase_id: int, reason: str, seed_hash: str) -> bool:
    phase = campaign.phase
    if phase is None or phase.pk != phase_id or not runs_by_itself(campaign):
        return False
    if seed_hash and phase.seed_hash != seed_hash:  # resolved, rolled back and reopened
        return False
    if reason == DEADLINE:
        return phase.deadline is not None and phase.deadline <= timezone.now()
    return readiness.everyone_ready(campaign, phase)


def _limit_lock_wait() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = {int(settings.RESOLUTION_LOCK_TIMEOUT_MS)}")


def _record_failure(campaign_id: int, phase_id: int, reason: str, error: Exception) -> None:
    text = f"{type(error).__name__}: {error}"
    with transaction.atomic():
        _limit_lock_wait()
        if not Phase.objects.filter(pk=phase_id).exclude(failure=text).update(failure=text):
            return  # the same failure again (the clock retries it): logged once
        campaign = Campaign.objects.get(pk=campaign_id)
        log(
            campaign,
            Event.Kind.PHASE,
            Text(
                "Automatic resolution (%(reason)s) failed and was undone: %(error)s. "
                "The GM can retry from the dashboard.",
                reason=reason,
                error=text,
            ),
        )


@task()
def tick() -> int:
    """The clock: enqueue the resolution of every phase past its deadline (in a campaign
    that has started: lifecycle.runs_by_itself), and send the reminders that are due.
    Run by the worker, it first records that the worker runs (campaign/jobs/heartbeat.py).
    Returns how many resolutions were enqueued."""
    now = timezone.now()
    heartbeat.beat(heartbeat.WORKER, now)
    due = list(readiness.due_phases(now).values_list("campaign_id", "pk"))
    for campaign_id, phase_id in due:
        resolve_phase.enqueue(campaign_id, phase_id, DEADLINE)
    for campaign_id in scheduling.begun_away_periods(now):
        settle_campaign.enqueue(campaign_id)
    reminders.send_due(now)
    return len(due)


@task()
def settle_campaign(campaign_id: int) -> str:
    """A player's away period has begun: the open phase no longer waits for that power
    (lifecycle.settle: a decision asked of it gets its default answer, and a phase that
    waits for nobody any more is enqueued for resolution)."""
    try:
        with transaction.atomic():
            _limit_lock_wait()
            settle(locked_campaign(campaign_id))
    except Exception:  # the phase's deadline or the GM still moves it on
        logger.exception("Campaign %s: settling failed", campaign_id)
        return "failed"
    return "settled"


@task()
def send_press_digests() -> int:
    """Mail each user the press they have not read (campaign/press/press_mail.py); the clock
    enqueues it every press_mail.DIGEST_CHECK_SECONDS. Returns the number of mails."""
    return press_mail.send_digests()
