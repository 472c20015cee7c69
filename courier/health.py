"""Liveness for the container health check: answers once the database answers, and says
whether the background processes are seen running (campaign/jobs/heartbeat.py).

``GET /healthz`` answers 200, its first line ``ok``, whatever the worker and the clock
do (the web container is healthy while it serves pages; the worker's and the clock's
containers wait for it), then one line for each::

    ok
    worker: ok (last seen 2026-03-01T09:00:02+00:00)
    clock: stale (last seen never)

``GET /healthz?strict=1`` answers the same lines, but 503 with a first line ``stale`` when
either is stale (not seen for more than heartbeat.STALE_PERIODS of its periods): for a
monitor that should page someone when deadlines stop resolving."""

from django.http import HttpResponse

from campaign.jobs import heartbeat
from campaign.query_forms import HealthQueryForm


def healthz(request):
    processes = heartbeat.liveness()  # one query: the database answers
    stale = any(process.stale for process in processes)
    strict = HealthQueryForm(request.GET).values["strict"] == "1"
    lines = ["stale" if strict and stale else "ok"]
    for process in processes:
        seen = process.seen_at.isoformat(timespec="seconds") if process.seen_at else "never"
        lines.append(f"{process.name}: {process.label} (last seen {seen})")
    return HttpResponse(
        "\n".join(lines) + "\n",
        content_type="text/plain",
        status=503 if strict and stale else 200,
    )
