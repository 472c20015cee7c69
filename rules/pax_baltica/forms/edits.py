"""The GM's edit forms for Pax Baltica: land moves, battles and every value the rules
do not automate. EDIT_FORMS maps each gm_edit key to its form (see rules/forms.py)."""

from __future__ import annotations

from collections.abc import Iterator

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.pax_baltica import edits
from rules.pax_baltica.state import KIND_NAMES, SEA, SIDES, TERRITORY, World
from rules.platform import (
    BaseEditForm,
    Row,
    RowEditForm,
    flag,
    id_field,
    localized,
    number_field,
    row_key,
)

POOL, NOBODY = "", ""


def kind_choices() -> list[tuple[str, str]]:
    """The block kinds, named in the reader's language (the names the log uses)."""
    return [(kind, localized(name)) for kind, name in KIND_NAMES.items()]


def area_choices(world: World, kind: str | None = None) -> list[tuple[str, str]]:
    areas = sorted(
        (a for a in world.territories.values() if kind is None or a.kind == kind),
        key=lambda a: a.name,
    )
    return [
        (a.key, _("%(area)s (sea)") % {"area": a.name} if a.kind == SEA else a.name) for a in areas
    ]


def nation_choices(world: World) -> list[tuple[str, str]]:
    return [(key, n.name) for key, n in world.nations.items()]


def block_choices(world: World) -> list[tuple[int, str]]:
    return [
        (b.id, f"{b.name} ({world.nations[b.nation].name})")
        for b in sorted(world.blocks.values(), key=lambda b: (b.nation, b.name))
        if b.id is not None
    ]


def optional(choices: list[tuple[str, str]], blank: str) -> list[tuple[str, str]]:
    return [("", blank), *choices]


class BlockForm(RowEditForm):
    edit_key = "block"
    title = gettext_lazy("Blocks: land moves, strength, carried by a fleet, in a battle")
    rule = "GNW-3"
    strength = number_field(gettext_lazy("Strength"), edits.STRENGTH_RANGE)
    max_strength = number_field(gettext_lazy("Max"), edits.MAX_STRENGTH_RANGE)
    rating = forms.RegexField(
        label=gettext_lazy("Rating"),
        regex=edits.RATING,
        max_length=2,
        error_messages={"invalid": gettext_lazy("a letter A–D and a number 1–6, like C1.")},
    )
    supply_trains = number_field(gettext_lazy("Trains"), edits.TRAINS_RANGE)
    in_battle = flag(gettext_lazy("In a battle this season"))

    def add_choices(self) -> None:
        world = self.world
        self.fields["block"] = id_field(_("Block"), block_choices(world), _("block"), hidden=True)
        self.fields["location"] = forms.ChoiceField(
            label=_("Where"), choices=optional(area_choices(world), _("the pool")), required=False
        )
        fleets = [(b.id, b.name) for b in world.blocks.values() if b.kind == "fleet" and b.id]
        self.fields["carried_by"] = forms.TypedChoiceField(
            label=_("Carried by"),
            choices=[("", "—"), *((str(i), n) for i, n in fleets)],
            coerce=int,
            required=False,
            empty_value=None,
        )
        self.order_fields(["block", "location", "strength", "max_strength", "rating"])

    def edit_fields(self) -> dict:
        data = dict(self.cleaned_data)
        data["location"] = data["location"] or None
        return data

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        fields = ("strength", "max_strength", "rating", "supply_trains", "carried_by", "in_battle")
        for b in sorted(world.blocks.values(), key=lambda b: (b.nation, b.name)):
            if b.id is not None:
                caption = _("%(block)s (%(nation)s %(kind)s)") % {
                    "block": b.name,
                    "nation": world.nations[b.nation].name,
                    "kind": localized(KIND_NAMES[b.kind]),
                }
                yield Row.of(b.id, caption, b, *fields, location=b.location or POOL)


class BlockAddForm(BaseEditForm):
    edit_key = "block_add"
    title = gettext_lazy("Add a block")
    submit_label = gettext_lazy("Add")
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=kind_choices)
    strength = number_field(gettext_lazy("Strength"), (1, edits.MAX_STRENGTH_RANGE[1]))
    max_strength = number_field(gettext_lazy("Max"), edits.MAX_STRENGTH_RANGE)
    rating = forms.RegexField(
        label=gettext_lazy("Rating"),
        regex=edits.RATING,
        max_length=2,
        error_messages={"invalid": gettext_lazy("a letter A–D and a number 1–6, like C1.")},
    )
    supply_trains = number_field(gettext_lazy("Trains"), edits.TRAINS_RANGE)

    def add_choices(self) -> None:
        self.fields["nation"] = forms.ChoiceField(
            label=_("Nation"), choices=nation_choices(self.world)
        )
        self.fields["location"] = forms.ChoiceField(
            label=_("Where"),
            choices=optional(area_choices(self.world), _("the pool")),
            required=False,
        )
        self.order_fields(["nation", "name", "kind", "location"])

    def edit_fields(self) -> dict:
        data = dict(self.cleaned_data)
        data["location"] = data["location"] or None
        return data


class BattleForm(BaseEditForm):
    edit_key = "battle"
    title = gettext_lazy("Record a battle (before the sieges)")
    submit_label = gettext_lazy("Record")
    rule = "GNW-3"

    def add_choices(self) -> None:
        self.fields["territory"] = forms.ChoiceField(
            label=_("Territory"), choices=area_choices(self.world, TERRITORY)
        )
        self.fields["winner"] = forms.ChoiceField(
            label=_("Won by"), choices=[(key, localized(name)) for key, name in SIDES.items()]
        )
        self.fields["fought"] = forms.TypedMultipleChoiceField(
            label=_("Blocks that fought"),
            choices=[(str(i), n) for i, n in block_choices(self.world)],
            coerce=int,
            required=False,
            widget=forms.SelectMultiple(attrs={"size": 6}),
        )


class NationForm(RowEditForm):
    edit_key = "nation"
    title = gettext_lazy("Nations: RP level, event RP, forced peace, deployment")
    rule = "GNW-5"
    rp_level = number_field(gettext_lazy("RP level"), edits.RP_RANGE, required=False)
    event_rp = number_field(gettext_lazy("Event RP (next recruitment)"), edits.EVENT_RP_RANGE)
    forced_peace = flag(gettext_lazy("Peace forced (capital captured)"))

    def add_choices(self) -> None:
        world = self.world
        self.fields["nation"] = row_key(nation_choices(world))
        self.fields["deployment"] = forms.MultipleChoiceField(
            label=_("Deployment areas"),
            choices=area_choices(world, TERRITORY),
            required=False,
            widget=forms.SelectMultiple(attrs={"size": 5}),
        )
        ports = [(k, n) for k, n in area_choices(world, TERRITORY) if world.territories[k].port]
        self.fields["fleet_ports"] = forms.MultipleChoiceField(
            label=_("Ports for new fleets"),
            choices=ports,
            required=False,
            widget=forms.SelectMultiple(attrs={"size": 4}),
        )

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        fields = ("rp_level", "event_rp", "forced_peace", "deployment", "fleet_ports")
        for n in world.nations.values():
            yield Row.of(n.key, n.name, n, *fields)


class TerritoryForm(BaseEditForm):
    edit_key = "territory"
    title = gettext_lazy("A territory: control, garrison marker, forage points, port")
    rule = "GNW-2"
    garrison = number_field(gettext_lazy("Garrison"), edits.GARRISON_RANGE)
    forage_points = number_field(gettext_lazy("FP"), edits.FORAGE_RANGE)
    port = flag(gettext_lazy("Port"))
    transit = flag(gettext_lazy("Transit"))
    in_poland = flag(gettext_lazy("In Poland"))
    surrendered = flag(gettext_lazy("Surrendered (its nation's RP −4)"))

    def add_choices(self) -> None:
        self.fields["territory"] = forms.ChoiceField(
            label=_("Territory"), choices=area_choices(self.world, TERRITORY)
        )
        self.fields["controller"] = forms.ChoiceField(
            label=_("Held by"),
            choices=optional(nation_choices(self.world), _("nobody")),
            required=False,
        )
        self.order_fields(["territory", "controller"])

    def edit_fields(self) -> dict:
        data = dict(self.cleaned_data)
        data["controller"] = data["controller"] or None
        return data

    @classmethod
    def current(cls, world: World) -> list[str]:
        held = [t for t in world.territories.values() if t.kind == TERRITORY]
        return [
            _("%(territory)s: %(controller)s, garrison %(garrison)s, FP %(fp)s")
            % {
                "territory": t.name,
                "controller": world.nations[t.controller].name if t.controller else _("nobody"),
                "garrison": t.garrison,
                "fp": t.forage_points,
            }
            + (_(", surrendered") if t.surrendered else "")
            for t in sorted(held, key=lambda t: t.name)
        ]


class SideForm(RowEditForm):
    edit_key = "side"
    title = gettext_lazy("Actions per side (the season's action roll)")
    actions = number_field(gettext_lazy("Left this season"), edits.ACTIONS_RANGE)
    actions_per_season = number_field(gettext_lazy("Each season"), edits.ACTIONS_RANGE)
    first = flag(gettext_lazy("Acts first"))

    def add_choices(self) -> None:
        self.fields["side"] = row_key(list(SIDES.items()))

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        for side, left in world.actions.items():
            yield Row(
                side,
                localized(SIDES[side]),
                {
                    "actions": left,
                    "actions_per_season": world.season_actions.get(side, 0),
                    "first": side == next(iter(world.actions)),
                },
            )


EDIT_FORMS: dict[str, type[BaseEditForm]] = {
    form.edit_key: form
    for form in (SideForm, BattleForm, BlockForm, BlockAddForm, NationForm, TerritoryForm)
}
