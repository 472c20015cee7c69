"""WSGI entry point (gunicorn courier.wsgi).

What a process loads to serve (the apps, and every view through the URLconf) is loaded
here, then frozen out of the garbage collector's reach: it lives as long as the process,
and a full collection, which a request that builds a large World sets off now and then,
would otherwise walk all of it again (at 400 areas, one GM edit in four took twice as
long: bench/FINDINGS.md). The youngest generation is collected after 20,000 allocations
instead of 700: a request that reads a World allocates tens of thousands of objects
that live until its end, and collecting them every 700 made one GM edit in ten take
1.4 times the median (bench/FINDINGS.md, "A GM edit at 400 areas")."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "courier.settings")
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018  (imports every view)
gc.freeze()
gc.set_threshold(20_000, 10, 10)
