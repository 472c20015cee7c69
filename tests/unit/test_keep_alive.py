"""The compose file's gunicorn keeps idle connections alive as long as bench/scan's, the
run the attackers measured: gunicorn's default 2 s dropped a few connections under load."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEEP_ALIVE = re.compile(r"gunicorn\"? courier\.wsgi[^\n]*?--keep-alive (\d+)")


def keep_alive(text: str) -> int:
    found = KEEP_ALIVE.search(re.sub(r"\\\n\s*", " ", text))
    assert found, "gunicorn is started without --keep-alive"
    return int(found.group(1))


def test_the_compose_web_server_keeps_connections_alive_as_the_bench_does():
    compose = keep_alive((ROOT / "docker-compose.yml").read_text())
    assert compose == keep_alive((ROOT / "bench" / "scan").read_text()) == 30
