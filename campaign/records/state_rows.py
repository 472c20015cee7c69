"""The state rows a ruleset's loader (``load_state(campaign, rows=)``) reads: from the
database (``LiveRows``), or from a snapshot as unsaved model instances built in memory
(``SnapshotRows``: the identity of each power and area, which no phase changes, read
live), so that a past phase's World is built by the ruleset's own loader without
touching the live rows.
"""

from __future__ import annotations

from campaign.models import Area, Campaign, Phase, Power
from campaign.records import archive
from campaign.state import archive_rows
from campaign.state.snapshots import AREA_FIELDS, POWER_FIELDS
from campaign.state.storage import scopes, state_tables


class LiveRows:
    """The campaign's state rows as the database holds them now: what a ruleset's
    ``load_state`` reads by default."""

    def __init__(self, campaign: Campaign):
        self.campaign = campaign

    def powers(self, *related: str) -> list[Power]:
        return list(Power.objects.filter(campaign=self.campaign).select_related(*related))

    def areas(self, *related: str) -> list[Area]:
        return list(Area.objects.filter(campaign=self.campaign).select_related(*related))

    def of(self, model, *, order: tuple[str, ...] = (), related: tuple[str, ...] = (), **where):
        """The rows of a state table (``where``: equality filters), in ``order`` or the
        model's own: named tuples of its columns (``pk`` and attnames such as
        ``area_id``), cheaper than model instances; instances when ``related`` asks for
        related rows."""
        rows = model.objects.filter(**{scopes()[model]: self.campaign}, **where)
        if order:
            rows = rows.order_by(*order)
        if related:
            return list(rows.select_related(*related))
        columns = ["pk" if f.primary_key else f.attname for f in model._meta.concrete_fields]
        return list(rows.values_list(*columns, named=True))


class SnapshotRows:
    """A snapshot's state as unsaved model instances, for a ruleset's loader: the powers
    and areas (their identity read live, their state from the snapshot) with their
    ruleset rows attached as ``select_related`` would, and every state table's rows with
    the ids they had. Nothing is written. Three queries (powers, areas, phases)."""

    def __init__(self, campaign: Campaign, state: dict):
        self.campaign = campaign
        self._powers = list(Power.objects.filter(campaign=campaign))
        self._areas = list(Area.objects.filter(campaign=campaign))
        phases = Phase.objects.filter(campaign=campaign).values_list("turn", "position", "pk")
        check = archive.Checker(campaign.ruleset)
        check.known[Power] = {p.key: p.pk for p in self._powers}
        check.known[Area] = {a.key: a.pk for a in self._areas}
        check.known[Phase] = {(t, p): pk for t, p, pk in phases}
        plan = check.state(state)
        if check.problems or plan is None:
            raise archive.ArchiveError(check.problems)
        writer = archive.Writer(campaign, {})
        for model in (Power, Area, Phase):
            writer.ids[model] = check.known[model]
        self._apply(self._powers, plan.powers, POWER_FIELDS, writer)
        self._apply(self._areas, plan.areas, AREA_FIELDS, writer)
        self.tables: dict[type, list] = {}
        for t in state_tables():
            fields = archive_rows.archived_fields(t.model)
            keep = plan.with_ids and archive_rows.has_auto_id(t.model)
            rows = plan.tables.get(t.key, [])
            objs = [
                writer.obj(t.model, fields, row, **({"pk": row["id"]} if keep else {}))
                for row in rows
            ]
            own = [f for f in fields if f.is_relation and f.related_model is t.model]
            if own:
                by_name = {o.name: o.pk for o in objs}
                for o, row in zip(objs, rows, strict=True):
                    for f in own:
                        setattr(o, f.attname, by_name.get(row[f.name]))
            self.tables[t.model] = objs
        self._attach()

    @staticmethod
    def _apply(objs: list, rows: list[dict], fields: list, writer) -> None:
        by_key = {row["key"]: row for row in rows}
        for obj in objs:
            row = by_key.get(obj.key)
            if row is None:
                continue
            for f in fields:
                value = row[f.name]
                if f.is_relation:
                    value = None if value is None else writer.ids[f.related_model].get(value)
                setattr(obj, f.attname, value)

    def _attach(self) -> None:
        """Each power's and area's ruleset row (or None) in the caches ``select_related``
        fills, and every row's power and area, so that no attribute reads the database."""
        powers = {p.pk: p for p in self._powers}
        areas = {a.pk: a for a in self._areas}
        for model, objs in self.tables.items():
            pk = model._meta.pk
            if pk.is_relation and pk.related_model in (Power, Area):
                owners = powers if pk.related_model is Power else areas
                accessor = pk.remote_field.get_accessor_name()
                attached = {o.pk: o for o in objs}
                for owner_pk, owner in owners.items():
                    owner._state.fields_cache[accessor] = attached.get(owner_pk)
            for f in model._meta.concrete_fields:
                if f.is_relation and f.related_model in (Power, Area) and not f.primary_key:
                    found = powers if f.related_model is Power else areas
                    for o in objs:
                        o._state.fields_cache[f.name] = found.get(getattr(o, f.attname))

    def powers(self, *related: str) -> list[Power]:
        return list(self._powers)

    def areas(self, *related: str) -> list[Area]:
        return list(self._areas)

    def of(self, model, *, order: tuple[str, ...] = (), related: tuple[str, ...] = (), **where):
        rows = [
            o
            for o in self.tables.get(model, [])
            if all(getattr(o, name) == value for name, value in where.items())
        ]
        for name in reversed(order or model._meta.ordering or ("pk",)):
            field = name.lstrip("-")
            if "__" not in field:
                rows.sort(key=lambda o, f=field: getattr(o, f), reverse=name.startswith("-"))
        return rows


StateRows = LiveRows | SnapshotRows
