"""Fixtures of the real-browser tests: Debian's Chromium driven by Playwright (sync API).

Playwright's own browser download is not used: the tests launch /usr/bin/chromium and
skip (a failure under COURIER_NO_SKIPS, where CI installs it) when it is missing.
"""

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an asyncio event loop in the test thread; Django refuses ORM
# calls from a thread with a running loop unless told that this is safe (it is: the ORM
# calls of fixtures and of the test database teardown are plain synchronous code).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

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


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Accounts made in the browser need no slow password hashing (the live server thread
    reads the same settings)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def browser():
    """A headless Chromium for one test."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(f"needs Debian's Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def artifacts() -> Path:
    """Where the browser tests save screenshots (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
