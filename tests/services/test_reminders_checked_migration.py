"""Campaigns that run when the site upgrades are looked at by the clock's first tick
after it: migration 0036 starts every campaign unchecked (campaign/notify/reminders.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign.notify import reminders
from tests.migration_steps import latest, migrate

BEFORE = [("campaign", "0035_hot_path_indexes")]
AFTER = [("campaign", "0036_reminders_checked")]


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_every_campaign_is_unchecked_after_the_upgrade():
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        Campaign = executor.loader.project_state(BEFORE).apps.get_model("campaign", "Campaign")
        running = Campaign.objects.create(name="Running", ruleset="toy", scenario="s", version=7)
        migrate(AFTER)
        assert [pk for pk, *_ in reminders.unchecked_campaigns()] == [running.pk]
    finally:
        migrate(latest())
