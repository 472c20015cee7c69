"""A task queued before the campaign app's modules moved into its subpackages runs after
the upgrade: migration 0033 gives every queued task the path of its new module, and
gives it back when the upgrade is undone."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult

from tests.migration_steps import latest, migrate

BEFORE = [("campaign", "0032_power_and_area_columns_to_their_ruleset")]
AFTER = [("campaign", "0033_task_paths_by_subpackage")]


def queue(path: str) -> DBTaskResult:
    return DBTaskResult.objects.create(
        status="READY",
        args_kwargs={"args": [], "kwargs": {}},
        task_path=path,
        queue_name="default",
        backend_name="default",
        run_after=timezone.now(),
    )


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_a_queued_task_follows_its_module_and_back():
    moved = import_module("campaign.migrations.0033_task_paths_by_subpackage").MOVED
    try:
        migrate(BEFORE)
        queued = {old: queue(old).pk for old in moved}
        other = queue("campaign.elsewhere.task").pk
        migrate(AFTER)
        paths = dict(DBTaskResult.objects.values_list("pk", "task_path"))
        assert {old: paths[pk] for old, pk in queued.items()} == moved
        assert paths[other] == "campaign.elsewhere.task"
        for new in moved.values():
            assert import_string(new).module_path == new
        migrate(BEFORE)
        paths = dict(DBTaskResult.objects.values_list("pk", "task_path"))
        assert {old: paths[pk] for old, pk in queued.items()} == {old: old for old in moved}
    finally:
        migrate(latest())
