"""Benchmark settings: Courier's own settings, plus a constant-response view (bench/urls.py).

Select with DJANGO_SETTINGS_MODULE=bench.settings. Everything else (middleware, the
session and CSRF machinery, the content security policy, login throttling, the psycopg
pool) is exactly what production runs, so the constant view measures the same stack
the pages go through. bench/run sets DJANGO_DEBUG=0 and DJANGO_HTTPS=0 (a production
build served over plain http on loopback) and collects the static files into
BENCH_STATIC_ROOT, which the manifest storage of a DEBUG=0 build needs.
"""

import os

from courier.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
STATIC_ROOT = os.environ.get("BENCH_STATIC_ROOT", "/tmp/courier-bench-static")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        # the worker says what each task did (resolved, skipped, failed)
        "campaign": {"handlers": ["console"], "level": "INFO"},
    },
}
