"""Fixtures of the real-browser tests: Debian's Chromium driven by Playwright (sync API).

Playwright's own browser download is not used: the tests launch /usr/bin/chromium and
skip (a failure under COURIER_NO_SKIPS, where CI installs it) when it is missing.
"""

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"
TIMEOUT_MS = 15_000


@pytest.fixture
def browser(monkeypatch):
    """A headless Chromium for one test.

    While Playwright's sync API runs, the test's code runs in another context than the
    fixtures (Playwright switches greenlets), and Django keeps its database connections
    per context: ORM calls made in the test get a connection of their own. It is closed
    here, before Playwright stops; left open, PostgreSQL could not drop the test database.
    """
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(f"needs Debian's Chromium at {CHROMIUM} (apt-get install chromium)")
    from django.db import connections
    from playwright.sync_api import expect, sync_playwright

    # Playwright's sync API marks an asyncio event loop as running in the test's thread;
    # Django refuses ORM calls there unless told that this is safe (it is: the test's ORM
    # calls are plain synchronous code). Only for as long as this fixture lives.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            connections.close_all()
            chromium.close()


@pytest.fixture
def artifacts() -> Path:
    """Where the browser tests save screenshots (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
