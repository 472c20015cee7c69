"""Test-suite settings: the profiles, and no silent skips where CI forbids them.

The CI profile (HYPOTHESIS_PROFILE=ci, set by .ci/run) runs the long runs: more
hypothesis examples, the full fuzz, the browser walks, the HTML validator and the long
walks (every page as every role: the role × URL matrix, the pseudo-locale, Pax Baltica's
hidden information, the demo's pages and mail; the demo campaigns played through; every
map rebuilt; the schema migrated back and forth) and every case of the matrices marked
``sampled``, which the default profile leaves out (or samples) unless asked for by marker
(``-m browser``, ``-m validator``, ``-m long``, ``-m "long or not long"`` for everything).
The default profile also builds its test databases from the models, not the migrations.
COURIER_NO_SKIPS=1 (set by .ci/run) turns every skipped test into a failure of the run,
so an optional test (the browser walk, the validator, the PostgreSQL races) cannot
quietly not run.
"""

import copy
import os
import zlib
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, settings

# The default profile is for a quick answer (bin/test): every property runs, on fewer
# examples than in CI, which runs six times as many.
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
CI_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") == "ci"

NO_SKIPS = os.environ.get("COURIER_NO_SKIPS") == "1"
_skipped: list[str] = []


CI_ONLY_MARKERS = ("browser", "validator", "long")


def pytest_configure(config):
    """The default profile builds the test databases from the models (pytest-django's
    --nomigrations), a few seconds less per worker; the CI profile, or --migrations, builds
    them by running every migration, as a deployment does."""
    if not CI_PROFILE and "--migrations" not in config.invocation_params.args:
        config.option.nomigrations = True


def pytest_collection_modifyitems(config, items):
    """The default profile leaves the browser walks, the validator and the long walks of
    every page out, and runs one case in ``every`` of a matrix marked ``sampled`` (the
    same cases each time, spread over its parameters): deselected, not skipped. The CI
    profile runs them all, the long ones first (see ``long_first``)."""
    if CI_PROFILE:
        items.sort(key=long_first)
        return
    if config.getoption("markexpr"):
        return
    ci_only = [item for item in items if any(map(item.get_closest_marker, CI_ONLY_MARKERS))]
    ci_only += [item for item in items if not in_the_sample(item)]
    if ci_only:
        config.hook.pytest_deselected(items=ci_only)
        items[:] = [item for item in items if item not in ci_only]


def long_first(item) -> bool:
    """Sort key: the tests of a minute or so in the CI profile (the browser walks, the
    validator, the long walks, those marked ``first``) before the others, so that the
    workers start them while the many short tests can still fill in around them, and the
    run does not end on one long test alone."""
    return not any(map(item.get_closest_marker, (*CI_ONLY_MARKERS, "first")))


def in_the_sample(item) -> bool:
    """Whether the default profile runs this case of a ``sampled(every=N)`` matrix."""
    marker = item.get_closest_marker("sampled")
    if marker is None or not hasattr(item, "callspec"):
        return True
    return zlib.crc32(item.callspec.id.encode()) % marker.kwargs["every"] == 0


def pytest_runtest_logreport(report):
    # an expected failure (xfail, strict: it fails the run once it passes) ran: not a skip
    if NO_SKIPS and report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    if _skipped:
        print(f"\n{len(_skipped)} test(s) skipped while COURIER_NO_SKIPS=1:")
        for nodeid in _skipped:
            print(f"  {nodeid}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def gm_posts_carry_the_state_version(request, monkeypatch):
    """See tests/gm_forms.py."""
    if request.node.get_closest_marker("raw_gm_posts") is None:
        from tests.gm_forms import patch_client

        patch_client(monkeypatch)


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: a rolled-back test's campaign ids come back
    in the next test, and the cached map is keyed by them (campaign/views/context.py)."""
    from django.core.cache import cache

    from campaign.state import world_cache

    cache.clear()
    world_cache.recent.clear()


@pytest.fixture(autouse=True)
def pages_leave_the_shared_worlds_unchanged(monkeypatch):
    """The pages of one state version share the World their process keeps unpacked
    (campaign/state/world_cache.py ``recent``): every page of the suite must leave each of
    them as it was when kept, or the next reader would see another state."""
    import pickle

    from campaign.state import world_cache

    kept = []
    remember = world_cache.recent.remember

    def remembered(key, world):
        kept.append((key, world, pickle.dumps(world, pickle.HIGHEST_PROTOCOL)))
        remember(key, world)

    monkeypatch.setattr(world_cache.recent, "remember", remembered)
    yield
    for key, world, as_kept in kept:
        assert pickle.dumps(world, pickle.HIGHEST_PROTOCOL) == as_kept, f"a page changed {key}"


@pytest.fixture(autouse=True)
def english_after_each_test():
    """Each test starts in the default language: a request in Greek or Russian leaves its
    language active in the thread (LocaleMiddleware activates it and never deactivates)."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture
def on_postgresql(settings):
    """Skip (or, under COURIER_NO_SKIPS, fail) a test that needs real PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")


@pytest.fixture(autouse=True)
def kept_worlds_are_as_stored(monkeypatch):
    """Every World a GM edit keeps for the pages (campaign/state/world_cache.py ``keep``) must
    be the one its ruleset's ``load_world`` reads from the rows just written, and every
    World an edit or a phase starts from, kept for the version it locked, the one it reads
    from the rows under that lock, and every World a change carries over to its new
    version (``carry_over``) the one the changed rows give: checked on every edit, phase
    and absence of the suite, since a difference would be shown to every reader and
    written back by the next change."""
    from campaign.play import gm_edits
    from campaign.state import persistence, world_cache

    def checked_keep(campaign, world):
        read = campaign.rules.load_world(campaign)
        assert world == read, f"the World kept for {campaign} is not the one stored"
        world_cache.keep(campaign, world)

    def checked_kept_world(campaign):
        kept = world_cache.kept_world(campaign)
        if kept is not None:
            read = campaign.rules.load_world(campaign)
            assert kept == read, f"the World kept for {campaign} is not the one it locked"
        return kept

    checked = SimpleNamespace(keep=checked_keep, kept_world=checked_kept_world)
    monkeypatch.setattr(gm_edits, "world_cache", checked)
    monkeypatch.setattr(persistence, "world_cache", checked)

    carry_over = world_cache.carry_over

    def checked_carry_over(campaign, version, stamp):
        locked = copy.copy(campaign)
        locked.state_version, locked.state_stamp = version, stamp
        kept = world_cache.kept_world(locked)
        if kept is not None:
            read = campaign.rules.load_world(campaign)
            assert kept == read, f"the change of {campaign} changed what its World holds"
        carry_over(campaign, version, stamp)

    monkeypatch.setattr(world_cache, "carry_over", checked_carry_over)


@pytest.fixture(autouse=True)
def unchanged_states_are_as_opened(monkeypatch):
    """A phase that resolves at the state version its snapshot is of keeps no state it
    resolved from (campaign/state/history.py ``resolution_starts``): its opening state
    must then be the state now, checked on every resolution of the suite, since a rollback
    would restore it."""
    from campaign.models import PhaseSnapshot
    from campaign.state import history, snapshots

    resolution_starts = history.resolution_starts

    def checked_resolution_starts(campaign, phase):
        opened = PhaseSnapshot.objects.filter(phase=phase, state_version=campaign.state_version)
        snapshot = opened.first()
        if snapshot is not None:
            now = snapshots.read_state(campaign)
            assert now == history.opening_state(snapshot, campaign.ruleset), (
                f"{campaign} changed since {phase} opened without a new state version"
            )
        resolution_starts(campaign, phase)

    monkeypatch.setattr(history, "resolution_starts", checked_resolution_starts)
