"""Under the production settings (each case in a fresh process, as in
test_settings_safety.py): a request is one JSON line on standard error carrying its id,
as is every line written while it is served; Sentry is neither imported nor started
without a DSN, and with one (fake: its transport is replaced, nothing leaves the
process) an exception in a view is captured, without personal data."""

from __future__ import annotations

import json
import subprocess
import textwrap

import pytest

from tests.unit.test_settings_safety import PRODUCTION, clean_environment, run_python

FAKE_DSN = "https://0123456789abcdef@o1.ingest.sentry.invalid/42"

# A page that logs a line and one whose view raises, served by Django's handler as in
# production, through the site's middleware.
SITE = textwrap.dedent(
    """
    import json, logging, sys, types

    import django
    from django.http import HttpResponse
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import path

    django.setup()

    def page(request):
        logging.getLogger("campaign.notify.delivery").warning("a line of the request")
        return HttpResponse("ok")

    def boom(request):
        raise RuntimeError("the view broke")

    urls = types.ModuleType("site_urls")
    urls.urlpatterns = [path("page/", page, name="page"), path("boom/", boom, name="boom")]
    sys.modules["site_urls"] = urls
    client = Client(raise_request_exception=False)
    """
)


def run(script: str, tmp_path, **env: str) -> subprocess.CompletedProcess:
    environment = clean_environment(
        **PRODUCTION,
        DJANGO_SETTINGS_MODULE="courier.settings",
        DJANGO_HTTPS="0",
        DJANGO_ALLOWED_HOSTS="testserver",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        **env,
    )
    environment.pop("SENTRY_DSN", None)
    environment.update(env)
    done = run_python(SITE + textwrap.dedent(script), environment)
    assert done.returncode == 0, done.stderr
    return done


def test_a_request_is_one_json_line_with_its_id_and_so_is_each_line_it_writes(tmp_path):
    done = run(
        """
        with override_settings(ROOT_URLCONF="site_urls"):
            sent = client.get("/page/?secret=1", HTTP_X_REQUEST_ID="edge-42.a_b")
            made = client.get("/page/", HTTP_X_REQUEST_ID="not a token")
        print(json.dumps([sent["X-Request-ID"], made["X-Request-ID"]]))
        """,
        tmp_path,
        COURIER_TRUSTED_PROXIES="1",  # behind a proxy, which names its requests
    )
    sent, made = json.loads(done.stdout)
    assert sent == "edge-42.a_b" and made != "not a token" and len(made) == 32
    entries = [json.loads(line) for line in done.stderr.splitlines()]  # each one object
    requests = [e for e in entries if e["logger"] == "courier.requests"]
    assert [e["request_id"] for e in requests] == [sent, made]
    first = requests[0]
    assert {
        "level": "INFO",
        "message": "GET page 200",
        "method": "GET",
        "route": "page",
        "status_code": 200,
    }.items() <= first.items()
    assert isinstance(first["duration_ms"], float)
    assert "user_id" not in first  # nobody signed in (and nothing read to know it)
    assert "secret" not in json.dumps(entries)  # the route's name, never the path or query
    lines = [e for e in entries if e["logger"] == "campaign.notify.delivery"]
    assert [e["request_id"] for e in lines] == [sent, made]


def test_without_a_dsn_sentry_is_neither_imported_nor_started(tmp_path):
    done = run(
        """
        with override_settings(ROOT_URLCONF="site_urls"):
            assert client.get("/boom/").status_code == 500
        print("sentry_sdk" in sys.modules)
        """,
        tmp_path,
    )
    assert done.stdout.strip() == "False"


CAPTURE = """
    import sentry_sdk
    from sentry_sdk.transport import Transport

    class Kept(Transport):
        envelopes = []

        def capture_envelope(self, envelope):
            self.envelopes.append(envelope)

    sentry = sentry_sdk.get_client()
    sentry.transport.kill()
    sentry.transport = Kept(sentry.options)
    with override_settings(ROOT_URLCONF="site_urls"):
        response = client.get("/boom/", HTTP_X_REQUEST_ID="req-7", HTTP_COOKIE="sessionid=abc")
    sentry_sdk.flush()
    events = [item.payload.json for e in Kept.envelopes for item in e.items if item.type == "event"]
    print(json.dumps({
        "active": sentry.is_active(),
        "options": {
            k: sentry.options[k] for k in ("send_default_pii", "traces_sample_rate", "release")
        },
        "status": response.status_code,
        "events": events,
    }, default=str))
"""


@pytest.mark.parametrize("variable", ["COURIER_SENTRY_DSN", "SENTRY_DSN"])
def test_with_a_dsn_an_exception_in_a_view_is_captured(tmp_path, variable):
    done = run(CAPTURE, tmp_path, COURIER_TRUSTED_PROXIES="1", **{variable: FAKE_DSN})
    report = json.loads(done.stdout)
    assert report["active"] and report["status"] == 500
    assert report["options"] == {
        "send_default_pii": False,
        "traces_sample_rate": 0.0,
        "release": "courier@0.1.0",
    }
    (event,) = [e for e in report["events"] if e.get("exception")]
    (exception,) = event["exception"]["values"]
    assert (exception["type"], exception["value"]) == ("RuntimeError", "the view broke")
    assert event["tags"]["request_id"] == "req-7"
    assert event["release"] == "courier@0.1.0"
    assert "user" not in event  # no personal data
    assert "sessionid" not in json.dumps(event["request"])
