"""Reading a ruleset's state and writing what changed back in a fixed number of
queries, with its log.

Phase services load their World (from a Board: the powers, areas and map), let a pure
resolver change it, then write only the difference with these helpers: the same number
of queries for 10 areas or 400.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self, TypeVar

from django.utils import timezone

from campaign.models import Adjacency, Area, Campaign, Event, Phase, Power, RollRecord
from campaign.state import world_cache
from campaign.state.json_rows import insert_rows
from rules.log import GM, LogLine
from rules.text import message_of

if TYPE_CHECKING:
    from campaign.play.services import PhaseContext

Item = TypeVar("Item")  # a state dataclass of a ruleset's World
Key = TypeVar("Key")  # the key of a cell of a World (a dict item)
Value = TypeVar("Value")  # its value


@dataclass
class Board:
    """A campaign's powers and areas as a ruleset's loader reads them (with the rows of
    its own tables that ``related`` names attached), and the keys behind their ids."""

    powers: list[Power]
    areas: list[Area]

    def __post_init__(self) -> None:
        self.power_key = {p.pk: p.key for p in self.powers}
        self.area_key = {a.pk: a.key for a in self.areas}
        self.power_ids = {p.key: p.pk for p in self.powers}
        self.area_ids = {a.key: a.pk for a in self.areas}

    @classmethod
    def read(cls, rows: Any, *related: str) -> Board:
        """From a StateRows (campaign/state/snapshots.py): live rows or a snapshot's."""
        return cls(rows.powers(*related), rows.areas(*related))

    def links(self, campaign: Campaign) -> Iterable[tuple[str, str, str]]:
        """Each adjacency of the map once: (area key, area key, kind)."""
        pairs = Adjacency.objects.filter(campaign=campaign).values_list("a_id", "b_id", "kind")
        return ((self.area_key[a], self.area_key[b], kind) for a, b, kind in pairs)

    def adjacency(self, campaign: Campaign) -> dict[str, set[str]]:
        """Every area's neighbours, whatever the kind of link."""
        near: dict[str, set[str]] = {}
        for a, b, _ in self.links(campaign):
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
        return near


@dataclass
class Loaded:
    """A ruleset's World as its services load it: with the database ids behind its
    power and area keys, a copy to diff against when writing, and its campaign (None
    where the ruleset's writes are handed the campaign instead)."""

    world: Any
    before: Any
    power_ids: dict[str, int]
    area_ids: dict[str, int]
    campaign: Campaign | None = None

    @classmethod
    def of(cls, world: Any, board: Board, campaign: Campaign | None, **extra: Any) -> Self:
        """The World read from ``board``, with a deep copy to diff against."""
        before = copy.deepcopy(world)
        return cls(world, before, board.power_ids, board.area_ids, campaign, **extra)

    @classmethod
    def of_page(cls, world: Any, campaign: Campaign, before: Any = None) -> Self:
        """A World the pages read (campaign/state/world_cache.py), as the services load it:
        with the ids behind its keys (two queries) and ``before``, a copy to diff against
        (a deep copy if not given)."""
        power_ids = dict(Power.objects.filter(campaign=campaign).values_list("key", "pk"))
        area_ids = dict(Area.objects.filter(campaign=campaign).values_list("key", "pk"))
        before = copy.deepcopy(world) if before is None else before
        return cls(world, before, power_ids, area_ids, campaign)


def loaded_for_change(
    campaign: Campaign,
    load: Callable[[Campaign], Any],
    from_page: Callable[[Any, Campaign], Any] | None,
) -> Any:
    """What a change (a GM edit, a phase) of the locked ``campaign`` starts from, a
    ruleset's Loaded: the World kept for its state version (campaign/state/world_cache.py)
    as ``from_page`` makes it one, else ``load``ed from the database (a cold cache, or a
    ruleset without ``from_page``). No change comes between: every change of the state
    bumps the state version under the lock the caller holds."""
    kept = world_cache.kept_world(campaign) if from_page is not None else None
    return load(campaign) if kept is None else from_page(kept, campaign)


def phase_service(
    load: Callable[[Campaign], Loaded],
    resolver: Callable[..., object],
    write: Callable[[Loaded, PhaseContext], None],
    *,
    from_page: Callable[[Any, Campaign], Loaded] | None = None,
) -> Callable[[PhaseContext], None]:
    """A ruleset's phase service: ``load`` the campaign's World (or take the one the pages
    keep, through ``from_page``: loaded_for_change), let the pure ``resolver``
    change it with the orders and dice of the PhaseContext, ``write`` what changed. What
    the resolver answers (its outcomes) is in the log it wrote; the service answers None:
    the phase is resolved. It leaves the World it wrote in ``context.world``."""

    def service(context: PhaseContext) -> None:
        loaded = loaded_for_change(context.campaign, load, from_page)
        resolver(loaded.world, context.orders, context.dice)
        write(loaded, context)
        context.world = loaded.world

    service.__doc__ = f"Load, resolve with {resolver.__name__}, persist."
    return service


def sync_rows(
    model,
    before: Iterable[Item],
    after: Iterable[Item],
    fields: list[str],
    to_row: Callable[[Item, int | None], object],
) -> None:
    """Write the difference between two lists of state dataclasses that carry ids; the
    items created get the ids of their new rows, so that the World is as stored."""
    old = {item.id: item for item in before}
    after = list(after)
    kept = {item.id for item in after if item.id is not None}
    removed = [pk for pk in old if pk not in kept]
    if removed:
        model.objects.filter(pk__in=removed).delete()
    update_rows(
        model, [to_row(i, i.id) for i in after if i.id is not None and i != old.get(i.id)], fields
    )
    create_rows(model, [i for i in after if i.id is None], lambda i: to_row(i, None))


def create_rows(model, items: list[Item], to_row: Callable[[Item], object]) -> None:
    """Insert a row for each of these state dataclasses (in one query) and give each
    the id of its row."""
    if items:
        rows = model.objects.bulk_create([to_row(item) for item in items])
        for item, row in zip(items, rows, strict=True):
            item.id = row.pk


def by_id(items: Iterable[Item]) -> list[Item]:
    """State dataclasses that carry ids, in the order of their ids (as loaders read
    them)."""
    return sorted(items, key=lambda item: item.id)


def shared_fields(source: object, names: Iterable[str]) -> dict[str, Any]:
    """``source``'s values of the fields ``names``: what a table's row and the World's
    dataclass hold under the same names, read from either to make the other."""
    return {name: getattr(source, name) for name in names}


def changed_items(before: Mapping, after: Mapping) -> list:
    """The items of ``after`` that differ from ``before``'s item of the same key."""
    return [item for key, item in after.items() if item != before.get(key)]


def write_controllers(loaded: Loaded, areas: Iterable) -> None:
    """Each area's controller (items with ``key`` and ``controller``), in one query."""
    p, a = loaded.power_ids, loaded.area_ids
    rows = [Area(pk=a[area.key], controller_id=p.get(area.controller)) for area in areas]
    if rows:
        Area.objects.bulk_update(rows, ["controller"])


def update_rows(model, rows: list, fields: list[str]) -> None:
    """Write ``fields`` of these whole rows (each with its id) in one query: an INSERT …
    ON CONFLICT (id) DO UPDATE, much cheaper to build than bulk_update's CASE per field."""
    if rows:
        model.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["id"], update_fields=fields
        )


def upsert_changed(
    model,
    before: Mapping[Key, Value],
    after: Mapping[Key, Value],
    value_fields: list[str],
    unique: list[str],
    row: Callable[[Key, Value], object],
) -> None:
    """Insert or update, in one query, the cells whose value changed."""
    changed = {key: value for key, value in after.items() if before.get(key) != value}
    if changed:
        model.objects.bulk_create(
            [row(key, value) for key, value in changed.items()],
            update_conflicts=True,
            unique_fields=unique,
            update_fields=value_fields,
        )


def write_log(
    lines: list[LogLine],
    campaign: Campaign,
    phase: Phase | None,
    actor,
    power_ids: Mapping[str, int],
    area_ids: Mapping[str, int],
) -> None:
    """Every LogLine as an Event, and every roll as a RollRecord (two queries, whatever
    the number of lines: campaign/state/json_rows.py)."""
    if not lines:
        return
    rolls, index = [], 0
    for line in lines:
        if line.roll is None or phase is None:
            continue
        report = line.roll
        faces = [report.roll.face, *report.extra_faces]
        explanation = report.text  # made afresh at each reading
        rolls.append(
            {
                "campaign_id": campaign.pk,
                "phase_id": phase.pk,
                "index": index,
                "rule": report.rule,
                "purpose": report.purpose,
                "power_id": power_ids.get(line.power),
                "area_id": area_ids.get(line.area),
                "faces": faces,
                "modifiers": [[m.label, m.value] for m in report.roll.modifiers],
                "total": report.roll.total,
                "outcome": report.outcome,
                "explanation": explanation,
                "purpose_message": message_of(report.purpose),
                "explanation_message": message_of(explanation),
            }
        )
        index += len(faces)
    ids = insert_rows(RollRecord, rolls, key="index")
    roll_ids = iter([ids[roll["index"]] for roll in rolls])
    user_id = actor.pk if getattr(actor, "is_authenticated", False) else None
    now = timezone.now()
    events = [
        {
            "campaign_id": campaign.pk,
            "phase_id": phase.pk if phase else None,
            "turn": campaign.turn,
            "kind": _event_kind(line),
            "rule": "" if line.rule == GM else line.rule,
            "text": line.text,
            "message": message_of(line.text),
            "audience": list(line.audience),
            "redacted": line.redacted,
            "redacted_message": message_of(line.redacted),
            "actor_id": user_id,
            "power_id": power_ids.get(line.power),
            "roll_id": next(roll_ids) if line.roll is not None and phase is not None else None,
            "created_at": now,
        }
        for line in lines
    ]
    insert_rows(Event, events)


def _event_kind(line: LogLine) -> str:
    if line.rule == GM:
        return Event.Kind.GM
    return Event.Kind.ROLL if line.roll else Event.Kind.RULE
