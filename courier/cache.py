"""The shared cache: what the pages render once per campaign version and view (the map,
the area table, the state panels, a power's part of its orders for the GM) and the
counters of the rate limits, shared by every process.

Redis when ``COURIER_CACHE_URL`` names one (docker-compose starts it), otherwise a table of
the database, which every process shares too. A Redis that is down is a cold cache:
reads miss and writes are dropped, so a page is rendered as if nothing were cached, never
refused, and never given what another reader's key holds."""

from __future__ import annotations

import logging
from functools import wraps

from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

DATABASE_TABLE = "courier_cache"


def caches(url: str) -> dict:
    """The CACHES setting for ``url`` ("redis://…", or "" for the database's table)."""
    if url.startswith(("redis://", "rediss://", "unix://")):
        backend = {"BACKEND": "courier.cache.FailSafeRedisCache", "LOCATION": url}
    else:
        backend = {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": DATABASE_TABLE,
            # entries are keyed by a campaign's version and never expire: a third of them,
            # the oldest first, goes when there are more than this
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    return {"default": {**backend, "KEY_PREFIX": "courier"}}


def _cold_when_down(fallback):
    """Answer ``fallback(*args)`` instead of raising while Redis cannot be reached."""

    def decorate(method):
        @wraps(method)
        def guarded(self, *args, **kwargs):
            from redis.exceptions import ConnectionError, TimeoutError

            try:
                return method(self, *args, **kwargs)
            except (ConnectionError, TimeoutError) as error:
                log.warning("cache unreachable (%s): %s answered as a miss", error, method.__name__)
                return fallback(*args, **kwargs)

        return guarded

    return decorate


def _default(key, default=None, *args, **kwargs):
    return default


def _nothing(*args, **kwargs):
    return None


def _false(*args, **kwargs):
    return False


def _empty(*args, **kwargs):
    return {}


def _missing(key, *args, **kwargs):
    raise ValueError(f"Key '{key}' not found")  # as a cold cache answers incr


class FailSafeRedisCache(RedisCache):
    """Django's Redis cache, cold while Redis is down (see the module)."""

    get = _cold_when_down(_default)(RedisCache.get)
    get_many = _cold_when_down(_empty)(RedisCache.get_many)
    has_key = _cold_when_down(_false)(RedisCache.has_key)
    set = _cold_when_down(_nothing)(RedisCache.set)
    set_many = _cold_when_down(lambda *args, **kwargs: [])(RedisCache.set_many)
    add = _cold_when_down(_false)(RedisCache.add)
    touch = _cold_when_down(_false)(RedisCache.touch)
    incr = _cold_when_down(_missing)(RedisCache.incr)
    delete = _cold_when_down(_false)(RedisCache.delete)
    delete_many = _cold_when_down(_nothing)(RedisCache.delete_many)
    clear = _cold_when_down(_false)(RedisCache.clear)
