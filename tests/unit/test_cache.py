"""The shared cache (courier/cache.py): the database's table by default, Redis when
named, and a Redis that is down answers as a cold cache, never with an error."""

from __future__ import annotations

import socket

import pytest
from django.core.cache import caches as django_caches
from django.core.management import call_command
from django.template import engines

from courier.cache import DATABASE_TABLE, FailSafeRedisCache, caches


def test_the_database_table_is_the_default_and_redis_is_used_when_named():
    assert caches("")["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    assert caches("")["default"]["LOCATION"] == DATABASE_TABLE
    redis = caches("redis://cache:6379/0")["default"]
    assert redis["BACKEND"] == "courier.cache.FailSafeRedisCache"
    assert redis["LOCATION"] == "redis://cache:6379/0"


def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def down_redis():
    return FailSafeRedisCache(f"redis://127.0.0.1:{closed_port()}/0", {})


def test_a_redis_that_is_down_is_a_cold_cache(down_redis):
    assert down_redis.get("map", "cold") == "cold"
    assert down_redis.get_many(["a", "b"]) == {}
    assert down_redis.set("map", "<svg/>") is None
    assert down_redis.add("count", 0) is False
    assert not down_redis.has_key("map")
    with pytest.raises(ValueError):  # as a cold cache answers: the rate limits start again
        down_redis.incr("count")
    down_redis.delete("map")
    down_redis.clear()


def test_a_cached_fragment_renders_while_redis_is_down(settings, down_redis):
    location = down_redis._servers[0]
    settings.CACHES = {
        "default": {"BACKEND": "courier.cache.FailSafeRedisCache", "LOCATION": location}
    }
    template = engines["django"].from_string(
        "{% load cache %}{% cache None courier_map key %}<svg>{{ map }}</svg>{% endcache %}"
    )
    assert template.render({"key": "1:2", "map": "drawn"}) == "<svg>drawn</svg>"


@pytest.mark.django_db
def test_the_database_cache_keeps_a_fragment_for_every_process(settings):
    settings.CACHES = caches("")
    call_command("createcachetable", verbosity=0)  # what every migrate does (campaign/apps.py)
    cache = django_caches["default"]
    cache.set("courier_map:1:2", "<svg/>", None)
    assert cache.get("courier_map:1:2") == "<svg/>"
