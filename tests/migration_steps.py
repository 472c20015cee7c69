"""For the tests of one migration: the database is taken back to before it and on to
it, then left at the newest migrations, as every other test expects it."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def latest(app: str | None = None) -> list[tuple[str, str]]:
    """The app's newest migrations, as the code on disk has them; by default every app's
    (a game's migration may follow the campaign app's, and go back with it)."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes(app)


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    """Migrate to ``targets``; the executor, whose loader knows the states on the way."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor
