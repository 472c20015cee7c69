"""Watching the site (courier/metrics.py, courier/request_id.py): /metrics only for its
bearer token or from loopback, its figures (requests per route, the queries, the cache,
the task queue, mail and Web Push, the time from a deadline to its resolution), and the
request id: answered in X-Request-ID, in the request's log line, and carried into the
tasks the request enqueued, whose log lines in the worker carry it too."""

from __future__ import annotations

import json
import logging
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client, override_settings
from django.urls import path, reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from campaign.jobs import tasks
from campaign.notify import delivery, outgoing, push
from courier import request_id
from courier.jsonlog import JSONFormatter
from courier.urls import urlpatterns as site_urlpatterns
from tests.factories import make_eia_campaign, seat_users
from tests.services.test_scheduling import START, run_worker, set_deadline

pytestmark = pytest.mark.django_db

TOKEN = "a-metrics-token-of-the-tests"
AWAY = {"REMOTE_ADDR": "203.0.113.9"}  # a client that is not this machine
BEARER = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}", **AWAY}


@pytest.fixture(autouse=True)
def token(settings):
    settings.METRICS_TOKEN = TOKEN


def value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scraped(client: Client) -> dict[tuple[str, frozenset], float]:
    """The samples /metrics answers, by name and labels."""
    response = client.get("/metrics", **BEARER)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    families = text_string_to_metric_families(response.content.decode())
    return {(s.name, frozenset(s.labels.items())): s.value for f in families for s in f.samples}


# -- who may read them -----------------------------------------------------------------


def test_metrics_are_a_404_without_the_token_and_served_with_it(client):
    assert client.get("/metrics", **AWAY).status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong", **AWAY).status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION=TOKEN, **AWAY).status_code == 404
    served = client.get("/metrics", **BEARER)
    assert served.status_code == 200
    assert b"courier_task_queue_ready" in served.content
    assert "no-cache" in served["Cache-Control"]


def test_no_token_set_opens_nothing(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ", **AWAY).status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer", **AWAY).status_code == 404


def test_loopback_reads_them_unless_a_proxy_forwarded_the_request(client):
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200
    # a proxy on this machine connects from loopback for anyone: not a local reader
    forwarded = client.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert forwarded.status_code == 404
    assert client.get("/metrics", REMOTE_ADDR="10.0.0.5").status_code == 404


# -- what they say -----------------------------------------------------------------------


def test_requests_are_counted_and_timed_per_route_not_per_path(client):
    campaign = make_eia_campaign()
    before = scraped(client)  # the process's counters, which earlier tests moved
    for pk in (campaign.pk, campaign.pk + 1000):  # one found, one missing: the same route
        client.get(reverse("campaign:detail", args=[pk]))
    client.get("/no/such/page/")
    samples = scraped(client)

    def sample(name: str, **labels) -> float:
        key = (name, frozenset(labels.items()))
        return samples.get(key, 0.0) - before.get(key, 0.0)

    by_view = "django_http_requests_total_by_view_transport_method_total"
    assert sample(by_view, view="campaign:detail", transport="http", method="GET") == 2
    assert not any(
        name == by_view and str(campaign.pk) in dict(labels)["view"] for name, labels in samples
    )
    latency = "django_http_requests_latency_seconds_by_view_method_count"
    assert sample(latency, view="campaign:detail", method="GET") == 2
    statuses = "django_http_responses_total_by_status_view_method_total"
    assert sample(statuses, status="404", view="<unnamed view>", method="GET") >= 1


def test_the_queue_depth_and_the_age_of_its_oldest_ready_task(client):
    before = scraped(client)
    assert before[("courier_task_queue_ready", frozenset())] == 0
    assert before[("courier_task_queue_oldest_ready_age_seconds", frozenset())] == 0
    tasks.tick.enqueue()
    tasks.tick.enqueue()
    tasks.tick.using(run_after=timezone.now() + timedelta(hours=1)).enqueue()  # a retry, later
    DBTaskResult.objects.filter(pk=DBTaskResult.objects.earliest("enqueued_at").pk).update(
        enqueued_at=timezone.now() - timedelta(minutes=10)
    )
    samples = scraped(client)
    assert samples[("courier_task_queue_ready", frozenset())] == 2
    assert samples[("courier_task_queue_scheduled", frozenset())] == 1
    assert samples[("courier_task_queue_running", frozenset())] == 0
    age = samples[("courier_task_queue_oldest_ready_age_seconds", frozenset())]
    assert 600 <= age < 660


def test_the_queue_is_read_in_one_query(client, django_assert_num_queries):
    from courier.metrics import TaskQueueCollector

    with django_assert_num_queries(1):
        names = [family.name for family in TaskQueueCollector().collect()]
    assert "courier_task_queue_ready" in names


def test_queries_and_cache_reads_are_counted(client):
    from django.db import connection

    executed = value("django_db_execute_total", alias="default", vendor=connection.vendor)
    DBTaskResult.objects.count()
    assert value("django_db_execute_total", alias="default", vendor=connection.vendor) > executed
    misses, hits = (
        value(f"django_cache_get_{kind}_total", backend="locmem") for kind in ("misses", "hits")
    )
    cache.get("nothing-here")
    cache.set("something", 1)
    assert cache.get("something") == 1
    assert cache.get_many(["something", "nothing"]) == {"something": 1}
    assert value("django_cache_get_misses_total", backend="locmem") == misses + 2
    assert value("django_cache_get_hits_total", backend="locmem") == hits + 2
    assert cache.get("nothing-here", "default") == "default"  # the caller's default, kept


class BrokenBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise OSError("the mail server is down")


def a_mail() -> dict:
    return outgoing.compose("player@example.org", outgoing.Letter("Subject", ["Hello."]))


def test_mail_sent_and_failed_are_counted(settings):
    sent, retrying, failed = (
        value("courier_mails_total", outcome=o) for o in ("sent", "retrying", "failed")
    )
    assert delivery.deliver_mail.call(a_mail()) == "sent"
    assert value("courier_mails_total", outcome="sent") == sent + 1
    settings.EMAIL_BACKEND = f"{__name__}.BrokenBackend"
    assert delivery.deliver_mail.call(a_mail()) == "retrying"
    assert delivery.deliver_mail.call(a_mail(), attempt=delivery.RETRIES) == "failed"
    assert value("courier_mails_total", outcome="retrying") == retrying + 1
    assert value("courier_mails_total", outcome="failed") == failed + 1
    assert value("courier_mails_total", outcome="sent") == sent + 1


def test_pushes_are_counted_by_outcome():
    removed = value("courier_pushes_total", outcome="removed")
    assert push.deliver_push.call(10**9, {"title": "t"}) == "removed"  # no such device
    assert value("courier_pushes_total", outcome="removed") == removed + 1


def test_the_time_from_a_deadline_to_its_resolution_is_observed(time_machine):
    time_machine.move_to(START, tick=False)
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    set_deadline(campaign, 1, users)
    count = value("courier_deadline_to_resolution_seconds_count")
    total = value("courier_deadline_to_resolution_seconds_sum")
    time_machine.move_to(START + timedelta(hours=1, seconds=7), tick=False)
    assert tasks.tick.call() == 1
    assert ("resolve_phase", "resolved") in run_worker()
    assert value("courier_deadline_to_resolution_seconds_count") == count + 1
    assert value("courier_deadline_to_resolution_seconds_sum") == pytest.approx(total + 7)


# -- the request id -------------------------------------------------------------------------


def test_each_response_carries_a_request_id_and_a_proxys_valid_one_is_kept(client, settings):
    made = client.get(reverse("login"))["X-Request-ID"]
    assert request_id.SAFE.fullmatch(made) and len(made) == 32
    assert client.get(reverse("login"))["X-Request-ID"] != made
    settings.TRUSTED_PROXIES = 1
    kept = client.get(reverse("login"), HTTP_X_REQUEST_ID="lb-2f1c.9A_x")
    assert kept["X-Request-ID"] == "lb-2f1c.9A_x"


def test_a_client_without_a_trusted_proxy_cannot_choose_its_id(client, settings):
    settings.TRUSTED_PROXIES = 0
    answered = client.get(reverse("login"), HTTP_X_REQUEST_ID="lb-2f1c.9A_x")["X-Request-ID"]
    assert answered != "lb-2f1c.9A_x" and request_id.SAFE.fullmatch(answered)


@pytest.mark.parametrize(
    "sent", ["two words", "x" * 65, "<script>", "a\x00b", "ünïcode", "a/b", "id;drop"]
)
def test_an_unsafe_request_id_is_replaced(client, settings, sent):
    settings.TRUSTED_PROXIES = 1
    answered = client.get(reverse("login"), HTTP_X_REQUEST_ID=sent)["X-Request-ID"]
    assert answered != sent and request_id.SAFE.fullmatch(answered)


class Records(logging.Handler):
    """The records of some loggers, each given its request id as the production handler
    does; caught at those loggers themselves, whatever the root logger's handlers are."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []
        self.addFilter(request_id.RequestIdFilter())

    def emit(self, record):
        self.records.append(record)


@contextmanager
def logged(*names: str):
    """The INFO records the loggers ``names`` write within (at each logger itself: in
    the whole suite, a record does not always reach a parent's handler)."""
    handler = Records()
    loggers = [logging.getLogger(name) for name in names]
    kept = [(lg.level, lg.disabled) for lg in loggers]
    logging.disable(logging.NOTSET)
    for lg in loggers:
        lg.setLevel(logging.INFO)
        lg.disabled = False
        lg.addHandler(handler)
    try:
        yield handler.records
    finally:
        for lg, (level, disabled) in zip(loggers, kept, strict=True):
            lg.removeHandler(handler)
            lg.setLevel(level)
            lg.disabled = disabled


def json_lines(records) -> list[dict]:
    formatter = JSONFormatter()
    lines = [formatter.format(record) for record in records]
    assert all("\n" not in line for line in lines)
    return [json.loads(line) for line in lines]


def test_a_request_is_logged_as_one_json_line_with_its_id(client_as, users):
    client = client_as("player")
    campaign = users["player"].seats.first().campaign
    with logged("courier.requests") as records:
        response = client.get(reverse("campaign:detail", args=[campaign.pk]))
    assert response.status_code == 200
    (line,) = json_lines(r for r in records if r.name == "courier.requests")
    assert {
        "request_id": response["X-Request-ID"],
        "logger": "courier.requests",
        "level": "INFO",
        "method": "GET",
        "route": "campaign:detail",
        "status_code": 200,
        "user_id": users["player"].pk,
    }.items() <= line.items()
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] > 0
    assert str(campaign.pk) not in line["route"]


def test_every_record_of_a_request_carries_its_id(client, settings):
    settings.TRUSTED_PROXIES = 1
    with logged("courier.requests", "campaign") as records:
        response = client.get(reverse("login"), HTTP_X_REQUEST_ID="from-the-proxy-1")
        logging.getLogger("campaign").info("outside any request")
    (line,) = json_lines(r for r in records if r.name == "courier.requests")
    assert line["request_id"] == response["X-Request-ID"] == "from-the-proxy-1"
    (outside,) = [r for r in records if r.getMessage() == "outside any request"]
    assert outside.request_id == ""


def mail_in_a_request(request):
    """A view that mails its user (outgoing.send enqueues the worker's task)."""
    from django.http import HttpResponse

    outgoing.send(request.user, lambda: outgoing.Letter("Subject", ["Hello."]))
    return HttpResponse("sent")


urlpatterns = [path("mail-me/", mail_in_a_request, name="mail-me"), *site_urlpatterns]


@override_settings(ROOT_URLCONF=__name__)
def test_a_task_a_request_enqueued_logs_the_requests_id_in_the_worker(client_as, users, settings):
    users["player"].email = "player@example.org"
    users["player"].save()
    response = client_as("player").get("/mail-me/")
    sent_by = response["X-Request-ID"]
    (row,) = DBTaskResult.objects.filter(task_path="campaign.notify.delivery.deliver_mail")
    assert row.args_kwargs["request_id"] == sent_by
    assert set(row.args_kwargs) == {"args", "kwargs", "request_id"}  # its arguments as they were

    settings.EMAIL_BACKEND = f"{__name__}.BrokenBackend"  # the first attempt fails
    with logged("courier.tasks", "campaign.notify.delivery") as records:
        assert ("deliver_mail", "retrying") in run_worker()
    (retry,) = DBTaskResult.objects.filter(status="READY")
    assert retry.args_kwargs["request_id"] == sent_by  # the retry carries it on
    (run,) = json_lines(r for r in records if r.name == "courier.tasks")
    assert {
        "task": "campaign.notify.delivery.deliver_mail",
        "status": "SUCCESSFUL",
        "outcome": "retrying",
        "request_id": sent_by,
    }.items() <= run.items()
    assert run["duration_ms"] >= 0
    (warning,) = [r for r in records if r.name == "campaign.notify.delivery"]
    assert warning.request_id == sent_by  # the task's own lines too
    assert request_id.current() == ""  # and none left current after the run


def test_a_task_run_outside_any_request_gets_an_id_of_its_own():
    tasks.tick.enqueue()
    with logged("courier.tasks") as records:
        run_worker()
    (run,) = json_lines(r for r in records if r.name == "courier.tasks")
    assert request_id.SAFE.fullmatch(run["request_id"])
    assert run["task"] == "campaign.jobs.tasks.tick" and run["outcome"] == "successful"


def test_a_process_given_a_port_serves_its_own_metrics_there_by_the_same_rule():
    import urllib.error
    import urllib.request

    from courier.metrics import serve_port

    server = serve_port(0, "127.0.0.1")  # any free port
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"

        def status(path: str, **headers) -> tuple[int, bytes]:
            try:
                with urllib.request.urlopen(
                    urllib.request.Request(base + path, headers=headers)
                ) as r:
                    return r.status, r.read()
            except urllib.error.HTTPError as refused:
                return refused.code, b""

        code, body = status("/metrics")  # loopback
        assert code == 200 and b"courier_mails_total" in body
        assert b"courier_task_queue_ready" not in body  # the web app's /metrics reads the queue
        assert status("/metrics", **{"X-Forwarded-For": "198.51.100.7"})[0] == 404
        forwarded = {"X-Forwarded-For": "198.51.100.7", "Authorization": f"Bearer {TOKEN}"}
        assert status("/metrics", **forwarded)[0] == 200
        assert status("/elsewhere")[0] == 404
    finally:
        server.shutdown()
        server.server_close()
