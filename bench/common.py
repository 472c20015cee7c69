"""What the benchmark scripts share: Django setup, statistics, the servers they start,
and the JSON files bench/report.py turns into RESULTS.md.

Every figure is printed, never asserted: bench/ measures, the tests decide.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = Path(os.environ.get("BENCH_OUT", BENCH / ".out"))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/courier_bench"
RUN_KEY = secrets.token_urlsafe(50)
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable

# Targets of issue 6 (bench/report.py marks each met or missed).
PHASE_MAX_QUERIES = 40
PHASE_MAX_MS = 150
PHASE_MAX_RATIO = 3
PAGE_MAX_QUERIES = 15
PAGE_MIN_RATIO = 0.2
SUBMIT_MAX_P95_MS = 150
READY_MAX_S = 1
DEADLINE_MAX_S = 5
# Targets of issue 15.
PAGE_MIN_RPS = 50
PAGE_MAX_KIB = 150
DASHBOARD_MIN_RPS = 20
EDIT_MAX_MS = 100


def environment() -> dict[str, str]:
    """The environment every benchmark process runs with (also the servers it starts)."""
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    env["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    env.setdefault("DJANGO_DEBUG", "0")
    env.setdefault("DJANGO_HTTPS", "0")
    env.setdefault("DJANGO_SECRET_KEY", RUN_KEY)  # a production build needs a real key
    env.setdefault("COURIER_EMAIL_CONSOLE", "1")  # and a mail choice: the console here
    env.setdefault("BENCH_STATIC_ROOT", "/tmp/courier-bench-static")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    return env


def setup_django() -> None:
    """Configure Django for a script run from anywhere (python bench/<script>.py), as a
    served process is (courier/wsgi.py: what it loaded kept from the garbage collector)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ.update(environment())
    import courier.wsgi  # noqa: F401


# -- statistics -------------------------------------------------------------------------


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (fraction 0.95 for p95)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, round(fraction * len(ordered) + 0.5 - 1e-9))
    return ordered[min(len(ordered), rank) - 1]


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table (also readable as printed text)."""
    cells = [[str(c) for c in headers]] + [[fmt(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
        for row in cells
    ]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def run_wrk(
    url: str, *, headers: Sequence[str], duration: int, connections: int, script_args=()
) -> dict:
    """One wrk run (2 threads) through bench/wrk.lua, which prints its figures as JSON:
    requests, latencies (µs), statuses and errors, with requests a second added."""
    args = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{duration}s", "--timeout", "30s"]
    for header in headers:
        args += ["-H", header]
    args += ["-s", str(BENCH / "wrk.lua"), url]
    if script_args:
        args += ["--", *script_args]
    output = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith("WRK_JSON "))
    data = json.loads(line.removeprefix("WRK_JSON "))
    data["rps"] = data["requests"] / (data["duration_us"] / 1e6)
    data["errors_total"] = sum(data["errors"].values())
    return data


def print_run(name: str, data: dict, width: int = 34) -> None:
    """One wrk run's line: requests a second, p50 and p99, statuses, errors if any."""
    lat = data["latency_us"]
    print(
        f"  {name:<{width}} {data['rps']:8.1f} req/s   p50 {lat['p50'] / 1000:7.1f} ms   "
        f"p99 {lat['p99'] / 1000:7.1f} ms   statuses {data['statuses']}"
        + (f"   errors {data['errors']}" if data["errors_total"] else "")
    )


def against_constant(runs: dict[str, dict]) -> float:
    """Give each wrk run (measured between a "constant (before)" and a "constant (after)"
    run) its ratio to their mean, print them as a table, and return that mean."""
    yardstick = (runs["constant (before)"]["rps"] + runs["constant (after)"]["rps"]) / 2
    rows = []
    for name, data in runs.items():
        data["ratio"] = data["rps"] / yardstick
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(data["statuses"].items()))
        latency = data["latency_us"]
        p50, p99 = latency["p50"] / 1000, latency["p99"] / 1000
        rows.append([name, data["rps"], p50, p99, f"{data['ratio']:.3f}", statuses])
    print()
    print(table(["request", "req/s", "p50 ms", "p99 ms", "× constant", "statuses"], rows))
    return yardstick


def fmt(value: object) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "–"
        return f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"
    return str(value)


def verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


STATEMENT = re.compile(r'^(SELECT|INSERT INTO|UPDATE|DELETE FROM)\b.*?"(\w+)"', re.S)


def shape(sql: str) -> str:
    """What a statement does, without its values: "SELECT campaign_area"."""
    if sql.startswith("SELECT"):
        table = re.search(r'\bFROM "(\w+)"', sql)
        return f"SELECT {table.group(1) if table else '?'}"
    match = STATEMENT.match(sql)
    return f"{match.group(1).split()[0]} {match.group(2)}" if match else " ".join(sql.split()[:2])


# -- results ----------------------------------------------------------------------------


def save(name: str, data: dict) -> Path:
    """Write one benchmark's figures to bench/.out/<name>.json for the report."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.json"
    path.write_text(json.dumps(data, indent=2, default=str))
    print(f"\n[{name}] figures written to {path}")
    return path


def load(name: str) -> dict | None:
    path = OUT / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


# -- processes --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def default_workers() -> int:
    """gunicorn's recommendation: 2 × cores + 1 sync workers."""
    return 2 * (os.cpu_count() or 1) + 1


@contextlib.contextmanager
def process(args: list[str], *, name: str, env: dict | None = None) -> Iterator[subprocess.Popen]:
    """Run a child process for the duration of the block; its output goes to
    bench/.out/<name>.log. Stopped (SIGTERM, then SIGKILL) by its own id at the end."""
    OUT.mkdir(parents=True, exist_ok=True)
    log = open(OUT / f"{name}.log", "wb")  # noqa: SIM115
    child = subprocess.Popen(
        args, cwd=ROOT, env=env or environment(), stdout=log, stderr=subprocess.STDOUT
    )
    try:
        yield child
    finally:
        stop(child)
        log.close()


def stop(child: subprocess.Popen, timeout: float = 10) -> None:
    if child.poll() is None:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


@contextlib.contextmanager
def gunicorn(workers: int | None = None) -> Iterator[str]:
    """Courier (bench settings) under gunicorn on a free loopback port; yields its base URL
    once /healthz answers."""
    workers = workers or default_workers()
    port = free_port()
    args = [
        PYTHON,
        "-m",
        "gunicorn",
        "courier.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--backlog",
        "2048",
        "--timeout",
        "120",
        "--no-control-socket",
    ]
    with process(args, name="gunicorn") as child:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            if child.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({child.returncode}): see {OUT}/gunicorn.log")
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not answer /healthz within 60 s")
            time.sleep(0.2)
        print(f"gunicorn: {workers} sync workers on {base}")
        yield base


def manage(*args: str) -> list[str]:
    return [PYTHON, str(ROOT / "manage.py"), *args]
