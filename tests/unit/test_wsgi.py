"""The served process (courier/wsgi.py) loads every view before it serves, and keeps what
it loaded out of the garbage collector's reach."""

from __future__ import annotations

from tests.unit.test_settings_safety import PRODUCTION, clean_environment, run_python

CHECK = """
import sys, gc
import courier.wsgi
print(gc.get_freeze_count() > 10000, "campaign.views.gm" in sys.modules)
"""


def test_what_the_process_loaded_is_frozen_with_every_view():
    done = run_python(CHECK, clean_environment(**PRODUCTION, DJANGO_HTTPS="0"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
