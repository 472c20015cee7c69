"""Courier's Prometheus metrics, served at /metrics to whoever shows the bearer token
COURIER_METRICS_TOKEN, or asks from this machine (loopback, through no proxy); anyone
else is answered 404. docs/observability.md lists them with queries to ask of them.

- Requests: django-prometheus's middleware (courier/settings.py), counted and timed per
  route by its URL pattern's name (``view="campaign:detail"``), never by its raw path.
- Database: every query counted and timed by Django's own instrumentation hook
  (``connection.execute_wrappers``), under django-prometheus's metric names. Its
  database backends are not used: they would replace the engine that
  courier/settings.py builds from DATABASE_URL (PostgreSQL through psycopg 3 and its
  connection pool, or SQLite with its own options), and its PostgreSQL one reaches into
  how Django hands psycopg its cursor class, which moved between Django releases.
- Cache: reads counted as hits and misses by wrapping the get and get_many of whichever
  backend courier/cache.py chose, again under django-prometheus's names. Its cache
  backends are not used either: there is none for the database's table, and its Redis
  one needs django-redis and would drop FailSafeRedisCache's answer to a Redis that is
  down (a cold cache, never an error).
- Ours: the task queue (read from django-tasks-db's table when scraped, one query), the
  connection pool, each task run, the time from a phase's deadline to its resolution,
  mail and Web Push deliveries.

Each process counts its own. The web app's workers (gunicorn --workers) and the task
worker share their counts through prometheus_client's multiprocess mode when
PROMETHEUS_MULTIPROC_DIR names a directory they all write (on one machine); a worker
elsewhere (its own container) serves its own on COURIER_METRICS_PORT.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import threading
import time
from contextvars import ContextVar
from functools import cache, wraps
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from django.conf import settings
from django.db import DatabaseError
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily

log = logging.getLogger(__name__)
disable_created_metrics()  # no "_created" twin of every counter: half the scrape to read

MAILS = Counter(
    "courier_mails",
    "Mail delivery attempts by outcome: sent, retrying (failed, tried again later), "
    "failed (given up), dropped (its reader deleted his account meanwhile)",
    ["outcome"],
)
PUSHES = Counter(
    "courier_pushes",
    "Web Push deliveries by outcome: sent, retrying, failed, gone (the device was "
    "forgotten), refused, removed",
    ["outcome"],
)
DEADLINE_TO_RESOLUTION = Histogram(
    "courier_deadline_to_resolution_seconds",
    "From a phase's deadline to its automatic resolution, committed",
    buckets=(0.5, 1, 2, 3, 5, 10, 30, 60, 120, 300, 900, 3600, float("inf")),
)
TASK_RUNS = Histogram(
    "courier_task_duration_seconds",
    "Background task runs by task and status (SUCCESSFUL, FAILED)",
    ["task", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, float("inf")),
)
for outcome in ("sent", "retrying", "failed"):
    MAILS.labels(outcome)
    PUSHES.labels(outcome)
MAILS.labels("dropped")


def mail_delivered(outcome: str) -> None:
    """A mail delivery attempt ended: "sent", "retrying", "failed" or
    "dropped" (its reader deleted his account meanwhile)."""
    MAILS.labels(outcome).inc()


def push_delivered(outcome: str) -> None:
    """A Web Push delivery ended (campaign/notify/push.py deliver_push's outcome)."""
    PUSHES.labels(outcome).inc()


def resolved_after_deadline(deadline) -> None:
    """A phase was resolved at its deadline: how long after it the resolution committed."""
    DEADLINE_TO_RESOLUTION.observe(max(0.0, (timezone.now() - deadline).total_seconds()))


def task_ran(task: str, status: str, seconds: float) -> None:
    TASK_RUNS.labels(task, status).observe(seconds)


# -- what is read when scraped ----------------------------------------------------------


class TaskQueueCollector:
    """The task queue as django-tasks-db's table holds it, in one query: the tasks ready
    to run (due, waiting for a worker), the age of the oldest of them (since it became
    due: enqueued, or its run_after for a retry), those scheduled later, those running."""

    def collect(self):
        from django.db.models import Count, Min, Q
        from django_tasks import TaskResultStatus
        from django_tasks_db.models import DBTaskResult, get_date_max

        now = timezone.now()
        ready, running = TaskResultStatus.READY, TaskResultStatus.RUNNING
        unscheduled = Q(run_after=get_date_max())
        due = unscheduled | Q(run_after__lte=now)
        try:
            figures = DBTaskResult.objects.filter(status__in=[ready, running]).aggregate(
                ready=Count("pk", filter=Q(status=ready) & due),
                scheduled=Count("pk", filter=Q(status=ready) & ~due),
                running=Count("pk", filter=Q(status=running)),
                enqueued=Min("enqueued_at", filter=Q(status=ready) & unscheduled),
                retried=Min("run_after", filter=Q(status=ready, run_after__lte=now)),
            )
        except DatabaseError as error:
            log.warning("task queue not measured: %s", error)
            return
        oldest = min(filter(None, (figures["enqueued"], figures["retried"])), default=None)
        age = max(0.0, (now - oldest).total_seconds()) if oldest else 0.0
        for name, documentation, value in (
            ("courier_task_queue_ready", "Tasks due and waiting for a worker", figures["ready"]),
            ("courier_task_queue_oldest_ready_age_seconds", "Age of the oldest due task", age),
            ("courier_task_queue_scheduled", "Tasks to run later (retries)", figures["scheduled"]),
            ("courier_task_queue_running", "Tasks a worker is running", figures["running"]),
        ):
            yield GaugeMetricFamily(name, documentation, value=value)


class PoolCollector:
    """psycopg's connection pool of this process, where the database has one."""

    def collect(self):
        from django.db import connections

        size = GaugeMetricFamily("courier_db_pool_size", "Pool connections open", labels=["alias"])
        idle = GaugeMetricFamily(
            "courier_db_pool_available", "Pool connections idle", labels=["alias"]
        )
        waiting = GaugeMetricFamily(
            "courier_db_pool_requests_waiting",
            "Requests waiting for a connection",
            labels=["alias"],
        )
        for alias in connections:
            pool = getattr(connections[alias], "pool", None)
            if pool is None:
                continue
            stats = pool.get_stats()
            size.add_metric([alias], stats.get("pool_size", 0))
            idle.add_metric([alias], stats.get("pool_available", 0))
            waiting.add_metric([alias], stats.get("requests_waiting", 0))
        yield from (size, idle, waiting)


class _Together:
    def __init__(self, *collectors):
        self.collectors = collectors

    def collect(self):
        for collector in self.collectors:
            yield from collector.collect()


def exposition(*, with_database: bool = True) -> bytes:
    """The metrics as Prometheus reads them: this process's (or, in multiprocess mode,
    every process's), and, ``with_database``, the queue and the pool."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        counted = CollectorRegistry()
        multiprocess.MultiProcessCollector(counted)
    else:
        counted = REGISTRY
    extra = (TaskQueueCollector(), PoolCollector()) if with_database else ()
    return generate_latest(_Together(counted, *extra))


# -- who may read them --------------------------------------------------------------------

FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


def allowed(environ: dict) -> bool:
    """The bearer token COURIER_METRICS_TOKEN, or a request from loopback that no proxy
    forwarded (a proxy on this machine connects from loopback too, for anyone)."""
    token = settings.METRICS_TOKEN
    scheme, _, given = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
    bearer = scheme.lower() == "bearer"
    if token and bearer and hmac.compare_digest(given.strip().encode(), token.encode()):
        return True
    if any(environ.get(header) for header in FORWARDED):
        return False
    try:
        return ipaddress.ip_address(environ.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


@never_cache
def metrics_view(request):
    """/metrics: the metrics, or a 404 for whoever may not read them."""
    if not allowed(request.META):
        raise Http404
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)


# -- a process without the web app: its own port ------------------------------------------


def _metrics_app(environ, start_response):
    if environ.get("PATH_INFO", "/") not in ("/", "/metrics") or not allowed(environ):
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"Not Found\n"]
    start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST)])
    return [exposition(with_database=False)]


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # each scrape is not worth a line
        pass


def serve_port(port: int, address: str) -> WSGIServer | None:
    """Serve this process's metrics on ``address``:``port`` from a thread of its own (the
    task worker's, COURIER_METRICS_PORT), with /metrics's rule of who may read them."""
    try:
        server = make_server(address, port, _metrics_app, handler_class=_QuietHandler)
    except OSError as error:
        log.warning("metrics not served on %s:%s: %s", address, port, error)
        return None
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    log.info("metrics served on %s:%s", address, port)
    return server


# -- the database and the cache -----------------------------------------------------------


@cache
def _query_metrics(alias: str, vendor: str):
    from django_prometheus.db import metrics

    return (
        metrics.execute_total.labels(alias, vendor),
        metrics.execute_many_total.labels(alias, vendor),
        metrics.query_duration_seconds.labels(alias, vendor),
    )


def timed_query(execute, sql, params, many, context):
    """Django's execute wrapper: counts and times each query, and its errors by type."""
    db = context["connection"]
    executed, bulk, duration = _query_metrics(db.alias, db.vendor)
    executed.inc()
    if many:
        bulk.inc()
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    except Exception as error:
        from django_prometheus.db import metrics

        metrics.errors_total.labels(db.alias, db.vendor, type(error).__name__).inc()
        raise
    finally:
        duration.observe(time.perf_counter() - started)


def connection_created(sender, connection, **kwargs) -> None:
    """django.db's connection_created (with the pool: a connection taken from it): count
    it, and time its queries. The wrapper goes first in the list, so that another one
    pushed and popped around a block (connection.execute_wrapper) pops its own."""
    from django_prometheus.db import metrics

    metrics.connections_total.labels(connection.alias, connection.vendor).inc()
    if timed_query not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, timed_query)


_MISS = object()
_counting: ContextVar[bool] = ContextVar("cache_read_counted", default=False)


def meter_cache(backend_class: type) -> None:
    """Count the reads of ``backend_class`` (hits and misses), once per read however its
    get and get_many call each other (the database's get is its get_many)."""
    if backend_class.__dict__.get("_courier_metered"):
        return
    from django_prometheus.cache import metrics

    name = backend_class.__name__.lower().removesuffix("cache").removeprefix("failsafe")
    gets, hits, misses, fails = (
        counter.labels(backend=name or "cache")
        for counter in (
            metrics.django_cache_get_total,
            metrics.django_cache_hits_total,
            metrics.django_cache_misses_total,
            metrics.django_cache_get_fail_total,
        )
    )

    def counted(read, tally):
        @wraps(read)
        def wrapper(self, *args, **kwargs):
            if _counting.get():
                return read(self, *args, **kwargs)
            token = _counting.set(True)
            try:
                return tally(read, self, *args, **kwargs)
            except Exception:
                fails.inc()
                raise
            finally:
                _counting.reset(token)

        return wrapper

    def tally_get(read, self, key, default=None, version=None):
        value = read(self, key, _MISS, version=version)
        gets.inc()
        (misses if value is _MISS else hits).inc()
        return default if value is _MISS else value

    def tally_get_many(read, self, keys, version=None):
        keys = list(keys)
        found = read(self, keys, version=version)
        gets.inc(len(keys))
        hits.inc(len(found))
        misses.inc(len(keys) - len(found))
        return found

    backend_class.get = counted(backend_class.get, tally_get)
    backend_class.get_many = counted(backend_class.get_many, tally_get_many)
    backend_class._courier_metered = True


def install() -> None:
    """In every process (courier.apps.CourierConfig.ready): time the queries, count the
    cache's reads, and in a process given COURIER_METRICS_PORT serve the metrics there."""
    from django.core.cache import caches
    from django.db.backends.signals import connection_created as created

    created.connect(connection_created, dispatch_uid="courier.metrics")
    meter_cache(type(caches["default"]))
    if settings.METRICS_PORT:
        serve_port(settings.METRICS_PORT, settings.METRICS_ADDRESS)
