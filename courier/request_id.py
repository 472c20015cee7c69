"""Each request's id, and the log lines that carry it: one JSON line per request and per
task run (under the production settings: courier/jsonlog.py), every other line of the
request or the task tagged with it too.

The id is the request's X-Request-ID when it comes through a trusted proxy
(settings.TRUSTED_PROXIES: a proxy or a load balancer names its requests so) and is a
short token of safe characters, otherwise a new one: a client cannot choose the id its
lines are found by; it is answered in
the response's X-Request-ID and kept in a context variable while the request is served.
RequestIdFilter, on the log handler, writes it into every record. A task enqueued while
it is set keeps it in its row (beside its arguments, which stay as they were): the
worker sets it again while it runs that task, so the worker's lines about a mail say
which request asked for it, and the tasks it enqueues in turn (a mail's retry) carry it
on. A task run that no request caused (the clock's) gets an id of its own for its lines,
which the tasks it enqueues do not carry: their rows stay as they were.
"""

from __future__ import annotations

import logging
import os
import re
import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.utils.functional import empty

HEADER = "X-Request-ID"
STORED = "request_id"  # the key beside "args" and "kwargs" in a task row's args_kwargs
SAFE = re.compile(r"[A-Za-z0-9._-]{1,64}")

# the current id, and whether the tasks enqueued meanwhile carry it (a request's: yes)
_current: ContextVar[tuple[str, bool]] = ContextVar("request_id", default=("", False))
requests_log = logging.getLogger("courier.requests")
tasks_log = logging.getLogger("courier.tasks")


def current() -> str:
    """The id of the request (or task run) being served, "" outside one."""
    return _current.get()[0]


def new() -> str:
    """A new id: 32 hex digits (as random as a UUID 4's, at a fifth of its cost)."""
    return os.urandom(16).hex()


def accepted(value: str | None) -> str:
    """``value`` when it is a short token of safe characters, else a new id."""
    return value if value and SAFE.fullmatch(value) else new()


@contextmanager
def bound(request_id: str, carried: bool = True):
    """Within: log records carry ``request_id``, and, ``carried``, enqueued tasks too."""
    token = _current.set((request_id, carried))
    try:
        yield request_id
    finally:
        _current.reset(token)


class RequestIdFilter(logging.Filter):
    """Writes the current id into each record as ``request_id`` (kept when the record
    already names one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", ""):
            record.request_id = _current.get()[0]
        return True


class RequestIdMiddleware:
    """First of the middleware: the request's id (see the module), answered in
    X-Request-ID, and one log line per request ("courier.requests", INFO): method, route
    name (the URL pattern's, never the path), status, duration in milliseconds, user id."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        sent = request.META.get("HTTP_X_REQUEST_ID") if settings.TRUSTED_PROXIES else None
        request_id = accepted(sent)
        request.request_id = request_id
        started = time.perf_counter()
        with bound(request_id):
            response = self.get_response(request)
            response[HEADER] = request_id
            if requests_log.isEnabledFor(logging.INFO):
                _log_request(request, response, (time.perf_counter() - started) * 1000)
        return response


def _log_request(request, response, duration_ms: float) -> None:
    match = getattr(request, "resolver_match", None)
    route = match.view_name if match is not None else ""
    requests_log.info(
        "%s %s %s",
        request.method,
        route or "-",
        response.status_code,
        extra={
            "method": request.method,
            "route": route,
            "status_code": response.status_code,
            "duration_ms": round(duration_ms, 2),
            "user_id": _user_id(request),
        },
    )


def _user_id(request) -> int | None:
    """The signed-in user's id, when the request already looked him up: never a query of
    its own (the session and the user are read lazily, and a page that needed neither
    must not pay for them here)."""
    user = getattr(request, "user", None)
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return user.pk if getattr(user, "is_authenticated", False) else None


# -- tasks ----------------------------------------------------------------------------

_runs: dict[str, tuple[float, object]] = {}  # task result id: (start, context token)


def stamp_task(sender, instance, raw: bool = False, **kwargs) -> None:
    """pre_save of a task's row (django-tasks-db's DBTaskResult): a row being enqueued
    while a request's id is current keeps it beside its arguments."""
    request_id, carried = _current.get()
    if carried and not raw and instance._state.adding and isinstance(instance.args_kwargs, dict):
        instance.args_kwargs.setdefault(STORED, request_id)


def task_started(sender, task_result, **kwargs) -> None:
    """django-tasks' task_started: the id the task was enqueued with is current while it
    runs (and carried on); else the current request's (a task run at once, in the
    request); else a new one, for the run's own lines only."""
    row = getattr(task_result, "db_result", None)
    stored = row.args_kwargs.get(STORED) if row is not None else None
    if isinstance(stored, str) and SAFE.fullmatch(stored):
        token = _current.set((stored, True))
    elif _current.get()[1]:
        token = _current.set(_current.get())
    else:
        token = _current.set((new(), False))
    _runs[str(task_result.id)] = (time.perf_counter(), token)


def task_finished(sender, task_result, **kwargs) -> None:
    """django-tasks' task_finished: one line for the run ("courier.tasks", INFO): the
    task's name, how long it ran, its outcome (its status, and its return value when it
    is a word: "sent", "resolved", "skipped"…); then the id is no longer current."""
    from courier import metrics

    started, token = _runs.pop(str(task_result.id), (None, None))
    duration_ms = (time.perf_counter() - started) * 1000 if started is not None else None
    status = str(getattr(task_result.status, "value", task_result.status))
    if duration_ms is not None:
        metrics.task_ran(task_result.task.name, status, duration_ms / 1000)
    try:
        value = task_result.return_value if status == "SUCCESSFUL" else None
    except Exception:  # no value kept for it
        value = None
    outcome = value if isinstance(value, str) and len(value) <= 40 else status.lower()
    try:
        tasks_log.log(
            logging.INFO if status == "SUCCESSFUL" else logging.WARNING,
            "task %s %s",
            task_result.task.name,
            outcome,
            extra={
                "task": task_result.task.module_path,
                "task_id": str(task_result.id),
                "status": status,
                "outcome": outcome,
                "duration_ms": round(duration_ms, 2) if duration_ms is not None else None,
            },
        )
    finally:
        if token is not None:
            try:
                _current.reset(token)
            except ValueError:  # started in another context: no longer current here
                _current.set(("", False))


def connect() -> None:
    """Connect the task hooks (courier.apps.CourierConfig.ready, in every process)."""
    from django.db.models.signals import pre_save
    from django_tasks.signals import task_finished as finished
    from django_tasks.signals import task_started as started
    from django_tasks_db.models import DBTaskResult

    pre_save.connect(stamp_task, sender=DBTaskResult, dispatch_uid="courier.request_id")
    started.connect(task_started, dispatch_uid="courier.request_id")
    finished.connect(task_finished, dispatch_uid="courier.request_id")
