"""A mail queued in the old form (recipient, subject, body) before an upgrade is sent
after it: migration 0029 queues it again as the multipart mail the task now takes."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from campaign.notify.delivery import deliver_mail
from tests.migration_steps import latest, migrate

BEFORE = [("campaign", "0028_browser_reading")]
AFTER = [("campaign", "0029_queued_mail_as_multipart")]


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_an_old_queued_mail_is_sent_after_the_upgrade():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    queued = DBTaskResult.objects.create(  # the tasks' own tables are all migrated
        status="READY",
        args_kwargs={"args": ["p@example.org", "[C] Subject", "Line <1>\n\nLine 2"], "kwargs": {}},
        task_path="campaign.delivery.deliver_mail",
        queue_name="default",
        backend_name="default",
        run_after=timezone.now(),
    )
    migrate(AFTER)
    args = DBTaskResult.objects.get(pk=queued.pk).args_kwargs["args"]
    migrate(latest())
    assert DBTaskResult.objects.get(pk=queued.pk).task_path == deliver_mail.module_path
    assert deliver_mail.call(*args) == "sent"
    (message,) = mail.outbox
    assert (message.to, message.subject, message.body) == (
        ["p@example.org"],
        "[C] Subject",
        "Line <1>\n\nLine 2",
    )
    html, kind = message.alternatives[0]
    assert kind == "text/html" and "<p>Line &lt;1&gt;</p><p>Line 2</p>" in html
