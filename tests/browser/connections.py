"""One database connection for the test and the live server's request threads with
in-memory SQLite (tests/browser/test_*.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections


@contextmanager
def one_connection(live_server) -> Iterator[None]:
    """With in-memory SQLite, the test and every request thread of the live server use one
    connection, as in Django's LiveServerTestCase: two connections to one in-memory
    database lock each other's tables ("database table is locked" as soon as one writes
    while the other reads: here, whenever a page polls while the worker resolves).
    Playwright runs the test in a context of its own, with a connection of its own; and
    pytest-django's session-wide live server shares the fixtures' connection only when the
    test database existed before it started (another test ran first), else none at all."""
    mine = connections[DEFAULT_DB_ALIAS]
    shared = live_server.thread.connections_override  # the dict the request threads read
    if mine.vendor != "sqlite" or not mine.is_in_memory_db():
        yield  # PostgreSQL: a connection each, as in production
    elif DEFAULT_DB_ALIAS in shared:
        connections[DEFAULT_DB_ALIAS] = shared[DEFAULT_DB_ALIAS]
        try:
            yield
        finally:
            connections[DEFAULT_DB_ALIAS] = mine
    else:
        with shared_with_the_server(mine, shared):
            yield


@contextmanager
def shared_with_the_server(connection, shared: dict) -> Iterator[None]:
    """The live server's request threads use ``connection`` meanwhile."""
    connection.inc_thread_sharing()
    shared[DEFAULT_DB_ALIAS] = connection
    try:
        yield
    finally:
        for thread in threading.enumerate():  # requests still closing their connections
            if "process_request_thread" in thread.name:
                thread.join(timeout=5)
        del shared[DEFAULT_DB_ALIAS]
        connection.dec_thread_sharing()
