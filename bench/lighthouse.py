"""Lighthouse (its mobile preset) in Debian's Chromium on the demo's pages: each
ruleset's player page and GM dashboard, served as in production (gunicorn, DEBUG off,
whitenoise's compressed static files) from a fresh SQLite demo database.

    python bench/lighthouse.py              # 2 runs a page
    python bench/lighthouse.py --runs 3

Lighthouse itself comes from the npm registry (bench/.lighthouse/, installed on the
first run; it needs node). Each page is audited --runs times in a fresh Chromium whose
cookie jar holds a signed-in session; the figure is the median score of each category
(0 to 100), with the audits of the worst run that fell short (score under 0.9).
Targets: performance ≥ 95, accessibility 100, best practices 100.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

DATABASE = Path(tempfile.gettempdir()) / "courier-lighthouse.sqlite3"

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ["DATABASE_URL"] = f"sqlite:///{DATABASE}"  # the demo's own database
    from bench.common import setup_django

    setup_django()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from bench import common  # noqa: E402
from campaign.models import Campaign  # noqa: E402

LIGHTHOUSE_VERSION = "12"
INSTALLED = common.BENCH / ".lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100}
CHROMIUM_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)
# a player of each demo campaign (bin/demo's logins)
PLAYERS = {"empires_in_arms": "france", "pax_baltica": "sweden", "virgin_queen": "spain"}


def lighthouse() -> Path:
    """The lighthouse command, installed from npm on the first run."""
    command = INSTALLED / "node_modules" / ".bin" / "lighthouse"
    if not command.exists():
        subprocess.run(
            [
                "npm",
                "install",
                "--silent",
                "--prefix",
                str(INSTALLED),
                f"lighthouse@{LIGHTHOUSE_VERSION}",
            ],
            check=True,
        )
    return command


def demo_database() -> None:
    DATABASE.unlink(missing_ok=True)
    env = common.environment()
    for args in (["collectstatic", "--noinput", "-v0"], ["migrate", "--noinput", "-v0"], ["demo"]):
        subprocess.run(common.manage(*args), env=env, check=True, stdout=subprocess.DEVNULL)


def session(username: str) -> str:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client.cookies["sessionid"].value


def audit(command: Path, url: str, cookie: str) -> dict:
    """One Lighthouse run of ``url`` signed in: its JSON report.

    The session is a cookie of the browser's own jar, set before Lighthouse connects, as a
    signed-in reader's browser has it: sent as an extra header instead, it reached the
    page but not the requests the page makes after it (the map and press panels), which
    were then answered with the login page."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report, signed_in(url, cookie) as port:
        subprocess.run(
            [
                str(command),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={report.name}",
                f"--only-categories={','.join(CATEGORIES)}",
                f"--port={port}",
            ],
            check=False,
            capture_output=True,
        )
        return json.loads(Path(report.name).read_text() or "{}")


@contextmanager
def signed_in(url: str, cookie: str):
    """A fresh Chromium with ``cookie`` ("sessionid=…") in its jar: its debugging port."""
    name, value = cookie.split("=", 1)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as profile:
        browser = subprocess.Popen(
            [
                "/usr/bin/chromium",
                *CHROMIUM_FLAGS.split(),
                f"--remote-debugging-port={port}",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with sync_playwright() as playwright:
                connected = connect(playwright, port)
                connected.contexts[0].add_cookies([{"name": name, "value": value, "url": url}])
                connected.close()
            yield port
        finally:
            browser.terminate()
            browser.wait()


def connect(playwright, port: int, attempts: int = 50):
    """The browser listening on ``port``, once it answers (the last attempt's error
    otherwise)."""
    url = f"http://127.0.0.1:{port}"
    for _ in range(attempts - 1):
        try:
            return playwright.chromium.connect_over_cdp(url)
        except PlaywrightError:
            time.sleep(0.1)
    return playwright.chromium.connect_over_cdp(url)


def scores(report: dict) -> dict[str, float | None]:
    categories = report.get("categories", {})
    return {
        name: None
        if categories.get(name, {}).get("score") is None
        else categories[name]["score"] * 100
        for name in CATEGORIES
    }


def short_of(report: dict) -> list[str]:
    """The weighted audits that scored under 0.9: "cumulative-layout-shift 0.56 (0.221)"."""
    found = []
    for category in report.get("categories", {}).values():
        for ref in category["auditRefs"]:
            result = report["audits"][ref["id"]]
            if ref["weight"] and result.get("score") is not None and result["score"] < 0.9:
                found.append(f"{ref['id']} {result['score']} ({result.get('displayValue', '')})")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    command = lighthouse()
    demo_database()
    pages = []
    for campaign in Campaign.objects.order_by("pk"):
        player = PLAYERS[campaign.ruleset]
        pages.append(
            (
                f"{campaign.ruleset} player page",
                reverse("campaign:detail", args=[campaign.pk]),
                player,
            )
        )
        pages.append(
            (f"{campaign.ruleset} GM dashboard", reverse("campaign:gm", args=[campaign.pk]), "gm")
        )
    cookies = {user: f"sessionid={session(user)}" for user in {user for *_, user in pages}}
    results = []
    with common.gunicorn(2) as base:
        for name, path, user in pages:
            runs = [audit(command, base + path, cookies[user]) for _ in range(args.runs)]
            figures = [scores(run) for run in runs]
            median = {
                category: common.median(
                    [f[category] for f in figures if f[category] is not None] or [0]
                )
                for category in CATEGORIES
            }
            worst = min(runs, key=lambda run: scores(run)["performance"] or 0)
            results.append(
                {"page": name, "median": median, "runs": figures, "short": short_of(worst)}
            )
            met = all(median[c] >= TARGETS[c] for c in CATEGORIES)
            print(f"  {name:<30} {median}  {'met' if met else 'missed'}")
            for line in results[-1]["short"]:
                print(f"      {line}")
    common.save("lighthouse", {"runs": args.runs, "version": LIGHTHOUSE_VERSION, "pages": results})


if __name__ == "__main__":
    main()
