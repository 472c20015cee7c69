"""The site's settings for the tests: one more ruleset, Beacons (tests/toy), which the
tests take through every page and service to show that a game plugs in through the
contract alone; and a fast password hasher (Django's default spends a quarter of a
second of CPU on every password set or checked, and the suite makes thousands)."""

from courier.settings import *  # noqa: F403
from courier.settings import COURIER_RULESETS, INSTALLED_APPS

TOY = "tests.toy"
INSTALLED_APPS = [*INSTALLED_APPS, TOY]
COURIER_RULESETS = [*COURIER_RULESETS, TOY]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The pages' caching is the same code on any backend; a per-process memory cache keeps the
# query counts of the tests to the pages' own (tests/unit/test_cache.py tries the others).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Mail links at settings.SITE_URL as set, not at the test client's "testserver": the tests
# of campaign.middleware.ServedOriginMiddleware turn it on for themselves.
SITE_URL_FROM_REQUESTS = False
