"""The World the pages read, kept in the shared cache for the campaign's state version:
the readers of one version (a player's page, its polls, the GM's dashboard and forms)
build it once, and a player's orders, which the World does not hold, leave it as it is
(they bump the campaign's version, not its state version). A GM edit keeps the World it
wrote, once its transaction has committed, so that its answer and the pages after it do
not read the state again. A GM edit and a phase service start from the World kept for
the version they hold locked (persistence.loaded_for_change), since no change can come
between: every change of the state bumps the state version under that lock. A change
that bumps the state version but changes nothing a World holds (a power's absence)
carries the kept World over to its new version (``carry_over``).

Keyed by the state version, which every change of the state bumps, so a cached World is
never older than the campaign it is read for, with the stamp drawn anew at each (a
restore of an older backup brings the campaign back to a version the cache may hold a
World of from the history the restore undid), and by a digest of the code that loads it,
so that a World kept before a deploy (or by a node not yet updated) is not read by code
whose World classes or option defaults may differ; a cache that is down or cold builds
it as before. Kept compressed (a 400-area World: about 100 KB pickled, 23 KB compressed),
since a campaign leaves one a state version in the cache until it is culled.

Each process also keeps the last RECENT_WORLDS Worlds its pages read, unpacked (``recent``):
unpacking a 400-area World costs more than a tenth of its page. The pages of one version
share that World, so they read it and never change it (tests/conftest.py checks every
page of the suite); a change starts from a copy of its own (``kept_world``)."""

from __future__ import annotations

import hashlib
import pickle
import threading
import zlib
from collections import OrderedDict
from functools import cache as once
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.db import transaction

import rules
from campaign.models import Campaign
from rules.engine import folder_of

RECENT_WORLDS = 16  # a 400-area World takes about 0.9 MB unpacked


class RecentWorlds:
    """The Worlds this process's pages read last, by cache key, the oldest forgotten
    first; shared by the threads of a worker."""

    def __init__(self, size: int):
        self.size = size
        self.worlds: OrderedDict[str, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Any | None:
        with self.lock:
            world = self.worlds.get(key)
            if world is not None:
                self.worlds.move_to_end(key)
            return world

    def remember(self, key: str, world: Any) -> None:
        with self.lock:
            self.worlds[key] = world
            self.worlds.move_to_end(key)
            while len(self.worlds) > self.size:
                self.worlds.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.worlds.clear()


recent = RecentWorlds(RECENT_WORLDS)


def page_world(campaign: Campaign, rows: Any) -> Any:
    """The campaign's World at its current state version, for the pages to read and never
    change: the one this process read last for it, else from the cache, else loaded
    (through ``rows``, which then keep what they read) and kept."""
    key = _key(campaign)
    world = recent.get(key)
    if world is None:
        world = kept_world(campaign)
        if world is None:
            world = campaign.rules.load_world(campaign, rows)
            cache.set(key, _packed(world), None)
        recent.remember(key, world)
    return world


def kept_world(campaign: Campaign) -> Any | None:
    """The World kept for the campaign's state version, if the cache holds it: what its
    ruleset's ``load_world`` reads while the campaign is at that state version, a copy of
    the caller's own."""
    packed = cache.get(_key(campaign))
    return None if packed is None else pickle.loads(zlib.decompress(packed))


def keep(campaign: Campaign, world: Any) -> None:
    """Keep ``world`` (what the ruleset's ``load_world`` would now read) as the campaign's
    World at its current state version, when the caller's transaction commits: never if
    it rolls back, so no version holds a World that was not stored."""
    key, packed = _key(campaign), _packed(world)  # packed now: later changes are not kept
    transaction.on_commit(lambda: cache.set(key, packed, None))


def carry_over(campaign: Campaign, version: int, stamp: int) -> None:
    """Keep the World kept for the campaign's state version ``version`` (of ``stamp``) as
    its World at its current state version too, once the caller's transaction has
    committed: for a change that bumps the state version (the GM's open forms go stale)
    but changes nothing a World holds, such as a power's absence (its seat's, not its
    pieces'). A World kept for the current version meanwhile stays."""
    old, new = _key(campaign, version, stamp), _key(campaign)

    def carry() -> None:
        packed = cache.get(old)
        if packed is not None:
            cache.add(new, packed, None)

    transaction.on_commit(carry)


def _key(campaign: Campaign, version: int | None = None, stamp: int | None = None) -> str:
    # z: compressed; s: the state version, which a player's orders do not bump, and its
    # stamp, which another history of the campaign (a restore's) does not share
    if version is None:
        version, stamp = campaign.state_version, campaign.state_stamp
    code = loading_code(campaign.ruleset)
    return f"world-z:{campaign.pk}:s{version}.{stamp}:{campaign.ruleset}:{code}"


@once
def loading_code(ruleset: str) -> str:
    """A digest of the Python code a World of ``ruleset`` is loaded by: its game's package,
    the rules kit and this app (read once a process)."""
    kit, app = Path(rules.__file__).resolve().parent, Path(__file__).resolve().parents[1]
    return sources_digest({folder_of(ruleset), kit, app})


def sources_digest(folders: set[Path]) -> str:
    """A digest of the Python sources under ``folders``, each read once (a folder inside
    another is read with it)."""
    digest = hashlib.blake2b(digest_size=8)
    for folder in sorted(folders):
        if any(outer in folder.parents for outer in folders):
            continue
        for source in sorted(folder.rglob("*.py")):
            digest.update(str(source.relative_to(folder.parent)).encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()


def _packed(world: Any) -> bytes:
    return zlib.compress(pickle.dumps(world, pickle.HIGHEST_PROTOCOL), 1)
