"""The GM's edit forms for Empires in Arms: the state the seeds do not automate.

EDIT_FORMS maps each gm_edit key to its form. A form is built from the World (its
choices are what exists now), validates one edit, and ``edit_fields()`` gives the
keyword arguments of ``gm_edit``. ``instances(world)`` gives the forms the GM
dashboard shows for that edit: one per row (prefilled) or a single blank form.
"""

from __future__ import annotations

from django import forms

from rules.empires_in_arms.services import gm_edit
from rules.empires_in_arms.state import MINOR, PROVINCE, SPAIN, ZONE_MODIFIERS, World

NEUTRAL = ""


def power_choices(world: World) -> list[tuple[str, str]]:
    return [(key, power.name) for key, power in world.powers.items()]


def area_choices(world: World) -> list[tuple[str, str]]:
    areas = sorted(world.areas.values(), key=lambda area: area.name)
    return [(area.key, area.name) for area in areas]


def id_field(label: str, choices: list[tuple[int, str]], what: str, *, hidden=False):
    """A choice of one object by its database id."""
    return forms.TypedChoiceField(
        label=label,
        choices=[(str(pk), text) for pk, text in choices],
        coerce=int,
        widget=forms.HiddenInput if hidden else forms.Select,
        error_messages={
            "invalid_choice": f"There is no such {what} any more: reload the page.",
            "required": f"Choose the {what}.",
        },
    )


def number_field(label: str, low: int, high: int, **kwargs) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        error_messages={"invalid": f"{label}: enter a whole number from {low} to {high}."},
        **kwargs,
    )


def row_auto_id(cls: type, pk) -> str:
    """HTML ids unique per form on a page with many forms of one kind."""
    return f"id_{cls.__name__}_{pk}_%s"


def flag(label: str) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False)


class EditForm(forms.Form):
    """One GM edit, its choices built from the World."""

    edit_key = ""
    title = ""
    submit_label = "Save"
    rule = ""

    def __init__(self, data=None, *, world: World, caption: str = "", **kwargs):
        self.world = world
        self.caption = caption
        super().__init__(data, **kwargs)
        self.add_choices()

    def add_choices(self) -> None:
        """Set the choice fields from the World."""

    def edit_fields(self) -> dict:
        return dict(self.cleaned_data)

    def apply(self, *, campaign_id: int, actor) -> str:
        """Make the edit (call after is_valid()); returns what the log says."""
        return gm_edit(
            campaign_id=campaign_id, actor=actor, edit=self.edit_key, **self.edit_fields()
        )

    @classmethod
    def instances(cls, world: World) -> list[EditForm]:
        """The forms the dashboard shows: by default one blank form, if it has choices."""
        form = cls(world=world, auto_id=row_auto_id(cls, "new"))
        return [form] if form.offers_choices else []

    @property
    def offers_choices(self) -> bool:
        """Every required choice has something to choose from."""
        return all(getattr(f, "choices", True) for f in self.fields.values() if f.required)

    @classmethod
    def current(cls, world: World) -> list[str]:
        """Lines describing the current state this edit changes, if the rows do not."""
        return []


class PowerForm(EditForm):
    edit_key = "power"
    title = "Powers: political status, PP, treasury"
    rule = "EIA-1"
    zone = forms.ChoiceField(label="Zone", choices=[(z, z) for z in ZONE_MODIFIERS])
    political_points = number_field("PP", -99, 999)
    treasury = number_field("Treasury $", -999, 9999)
    pays_bad_roll = flag("Pays $d6 on a bad roll")

    def add_choices(self) -> None:
        self.fields["power"] = forms.ChoiceField(
            choices=power_choices(self.world),
            widget=forms.HiddenInput,
            error_messages={"invalid_choice": "There is no such power."},
        )

    @classmethod
    def instances(cls, world: World) -> list[EditForm]:
        return [
            cls(
                world=world,
                caption=power.name,
                initial={
                    "power": key,
                    "zone": power.zone,
                    "political_points": power.political_points,
                    "treasury": power.treasury,
                    "pays_bad_roll": power.pays_bad_roll,
                },
                auto_id=row_auto_id(cls, key),
            )
            for key, power in world.powers.items()
        ]


class AreaForm(EditForm):
    edit_key = "area"
    title = "Areas: controller and ceded status (a neutral minor has no controller)"
    rule = "EIA-7"
    ceded = flag("Ceded province")

    def add_choices(self) -> None:
        self.fields["area"] = forms.ChoiceField(label="Area", choices=area_choices(self.world))
        self.fields["controller"] = forms.ChoiceField(
            label="Controller",
            choices=[(NEUTRAL, "Nobody (a neutral minor)"), *power_choices(self.world)],
            required=False,
        )
        self.order_fields(["area", "controller", "ceded"])

    def edit_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "area": data["area"],
            "controller": data["controller"] or None,
            "ceded": data["ceded"],
        }


class CorpsAddForm(EditForm):
    edit_key = "corps_add"
    title = "Place a corps"
    submit_label = "Place"
    rule = "EIA-4"
    name = forms.CharField(label="Name", max_length=60, required=False)

    def add_choices(self) -> None:
        minors = [(a.key, a.name) for a in self.world.areas.values() if a.kind == MINOR]
        self.fields["power"] = forms.ChoiceField(label="Power", choices=power_choices(self.world))
        self.fields["area"] = forms.ChoiceField(label="Area", choices=area_choices(self.world))
        self.fields["minor"] = forms.ChoiceField(
            label="Minor's corps",
            choices=[("", "The power's own"), *sorted(minors, key=lambda c: c[1])],
            required=False,
        )
        self.order_fields(["power", "area", "name", "minor"])

    def edit_fields(self) -> dict:
        return {**self.cleaned_data, "minor": self.cleaned_data["minor"] or None}


class CorpsForm(EditForm):
    edit_key = "corps"
    title = "Corps: where, and whether fought this step / besieged / besieging"
    rule = "EIA-4"
    fought = flag("Fought this step")
    besieged = flag("Besieged")
    besieging = flag("Besieging")

    def add_choices(self) -> None:
        corps = [(c.id, c.name) for c in self.world.corps if c.id is not None]
        self.fields["corps"] = id_field("Corps", corps, "corps", hidden=True)
        self.fields["area"] = forms.ChoiceField(label="Area", choices=area_choices(self.world))
        self.order_fields(["corps", "area", "fought", "besieged", "besieging"])

    @classmethod
    def instances(cls, world: World) -> list[EditForm]:
        return [
            cls(
                world=world,
                caption=f"{world.powers[c.power].name} {c.name}".strip(),
                initial={
                    "corps": c.id,
                    "area": c.area,
                    "fought": c.fought,
                    "besieged": c.besieged,
                    "besieging": c.besieging,
                },
                auto_id=row_auto_id(cls, c.id),
            )
            for c in world.corps
            if c.id is not None
        ]


class CorpsRemoveForm(EditForm):
    edit_key = "corps_remove"
    title = "Remove a corps"
    submit_label = "Remove"

    def add_choices(self) -> None:
        corps = [
            (c.id, f"{self.world.powers[c.power].name} {c.name} in {self.world.areas[c.area].name}")
            for c in self.world.corps
            if c.id is not None
        ]
        self.fields["corps"] = id_field("Corps", corps, "corps")


class RelationForm(EditForm):
    edit_key = "relation"
    title = "War and alliance between powers"
    rule = "EIA-7"
    kind = forms.ChoiceField(
        label="Relation",
        choices=[("war", "At war"), ("alliance", "Allied"), ("peace", "At peace")],
    )

    def add_choices(self) -> None:
        self.fields["a"] = forms.ChoiceField(label="Power", choices=power_choices(self.world))
        self.fields["b"] = forms.ChoiceField(label="and", choices=power_choices(self.world))
        self.order_fields(["a", "b", "kind"])

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("a") and cleaned.get("a") == cleaned.get("b"):
            raise forms.ValidationError("Choose two different powers.")
        return cleaned

    @classmethod
    def current(cls, world: World) -> list[str]:
        def names(pair):
            return " and ".join(sorted(world.powers[key].name for key in pair))

        wars = [f"{names(pair)}: at war" for pair in world.wars]
        allies = [f"{names(pair)}: allied" for pair in world.alliances]
        return sorted(wars) + sorted(allies)


class RevoltForm(EditForm):
    edit_key = "revolt"
    title = "Revolts: months the guerrillas have held the capital"
    rule = "EIA-8"
    capital_held_months = number_field("Months capital held", 0, 120)

    def add_choices(self) -> None:
        revolts = [(r.id, r.area) for r in self.world.revolts if r.active and r.id is not None]
        self.fields["revolt"] = id_field("Revolt", revolts, "active revolt", hidden=True)
        self.order_fields(["revolt", "capital_held_months"])

    @classmethod
    def instances(cls, world: World) -> list[EditForm]:
        return [
            cls(
                world=world,
                caption=f"{world.areas[r.area].name} (revolt number {r.number}, "
                f"{world.powers[r.sponsor].name})",
                initial={"revolt": r.id, "capital_held_months": r.capital_held_months},
                auto_id=row_auto_id(cls, r.id),
            )
            for r in world.revolts
            if r.active and r.id is not None
        ]


class SpanishFieldLossForm(EditForm):
    edit_key = "spanish_field_loss"
    title = "Spain lost a field combat in an unceded Spanish province"
    submit_label = "Create a Spanish guerrilla factor"
    rule = "EIA-10"

    def add_choices(self) -> None:
        provinces = [
            (a.key, a.name)
            for a in self.world.areas.values()
            if a.kind == PROVINCE and a.home_power == SPAIN and not a.ceded
        ]
        self.fields["area"] = forms.ChoiceField(
            label="Province",
            choices=sorted(provinces, key=lambda c: c[1]),
            error_messages={"invalid_choice": "That is not an unceded Spanish home province."},
        )


class GuerrillaForm(EditForm):
    edit_key = "guerrilla"
    title = "Guerrillas: besieged in a city or not"
    rule = "EIA-9"
    besieged = flag("Besieged")

    def add_choices(self) -> None:
        stacks = [(g.id, g.area) for g in self.world.guerrillas if g.id is not None]
        self.fields["stack"] = id_field("Stack", stacks, "guerrilla stack", hidden=True)
        self.order_fields(["stack", "besieged"])

    @classmethod
    def instances(cls, world: World) -> list[EditForm]:
        return [
            cls(
                world=world,
                caption=f"{g.factors} {world.powers[g.nationality].name} factor(s) in "
                f"{world.areas[g.area].name}",
                initial={"stack": g.id, "besieged": g.besieged},
                auto_id=row_auto_id(cls, g.id),
            )
            for g in world.guerrillas
            if g.id is not None
        ]


class DepotAddForm(EditForm):
    edit_key = "depot_add"
    title = "Place a depot"
    submit_label = "Place"
    rule = "EIA-11"
    port_city = flag("In a port city")
    garrison = number_field("Garrison factors", 0, 99, initial=0)

    def add_choices(self) -> None:
        self.fields["power"] = forms.ChoiceField(label="Power", choices=power_choices(self.world))
        self.fields["area"] = forms.ChoiceField(label="Area", choices=area_choices(self.world))
        self.order_fields(["power", "area", "port_city", "garrison"])


class DepotRemoveForm(EditForm):
    edit_key = "depot_remove"
    title = "Remove a depot"
    submit_label = "Remove"
    rule = "EIA-11"

    def add_choices(self) -> None:
        depots = [
            (d.id, f"{self.world.powers[d.power].name} in {self.world.areas[d.area].name}")
            for d in self.world.depots
            if d.id is not None
        ]
        self.fields["depot"] = id_field("Depot", depots, "depot")


EDIT_FORMS: dict[str, type[EditForm]] = {
    form.edit_key: form
    for form in (
        PowerForm,
        AreaForm,
        RelationForm,
        CorpsForm,
        CorpsAddForm,
        CorpsRemoveForm,
        RevoltForm,
        GuerrillaForm,
        SpanishFieldLossForm,
        DepotAddForm,
        DepotRemoveForm,
    )
}
