"""The GM's edit forms for Empires in Arms: the state the seeds do not automate.

EDIT_FORMS maps each gm_edit key to its form. A form is built from the World (its
choices are what exists now), validates one edit, and ``edit_fields()`` gives the
keyword arguments of ``gm_edit``. ``instances(world)`` gives the forms the GM
dashboard shows for that edit: one per row (prefilled) or a single blank form.
"""

from __future__ import annotations

from collections.abc import Iterator

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.empires_in_arms import edits
from rules.empires_in_arms.state import MINOR, PROVINCE, SPAIN, ZONE_NAMES, World
from rules.engine import Label
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

NEUTRAL = ""
KEEP, NO_STATUS = "", "none"  # the area-details form: leave as it is, or clear
PP_RANGE = (-1000, 1000)  # Decision 8: PP may go negative; well inside the DB column
TREASURY_RANGE = (-999, 9999)
REVOLT_GUERRILLAS, SPANISH_GUERRILLAS = "revolt", "spanish"
# The labels of edits.MINOR_STATUSES (whose words are the log's) on the forms.
MINOR_STATUS_LABELS = {
    edits.ALLIED: gettext_lazy("Allied minor"),
    edits.CLIENT: gettext_lazy("Client state"),
    edits.CONQUERED: gettext_lazy("Conquered minor"),
}
STATUS_REFUSAL = gettext_lazy("Choose allied minor, client state or conquered minor.")


def power_choices(world: World) -> list[tuple[str, str]]:
    return [(key, power.name) for key, power in world.powers.items()]


def area_choices(world: World, keep=lambda area: True) -> list[tuple[str, str]]:
    areas = sorted((a for a in world.areas.values() if keep(a)), key=lambda area: area.name)
    return [(area.key, area.name) for area in areas]


def zone_choices() -> list[tuple[str, str]]:
    """The political status zones, in the reader's language."""
    return [(zone, localized(name)) for zone, name in ZONE_NAMES.items()]


def minor_choices(world: World) -> list[tuple[str, str]]:
    return area_choices(world, lambda area: area.kind == MINOR)


def status_field(blank: Label) -> forms.ChoiceField:
    """How a power holds a minor: allied, client state or conquered (or ``blank``)."""
    return forms.ChoiceField(
        label=gettext_lazy("Minor held as"),
        choices=[(NEUTRAL, blank), *((k, MINOR_STATUS_LABELS[k]) for k in edits.MINOR_STATUSES)],
        required=False,
        error_messages={"invalid_choice": STATUS_REFUSAL},
    )


class PowerRowForm(RowEditForm):
    """An edit of a power's row."""

    row_field = "power"

    def add_choices(self) -> None:
        self.fields["power"] = row_key(power_choices(self.world), _("There is no such power."))


class PowerForm(PowerRowForm):
    edit_key = "power"
    title = gettext_lazy("Powers: political status, PP, treasury")
    rule = "EIA-1"
    zone = forms.ChoiceField(label=gettext_lazy("Zone"), choices=zone_choices)
    political_points = number_field(gettext_lazy("PP"), PP_RANGE)
    treasury = number_field(gettext_lazy("Treasury $"), TREASURY_RANGE)
    pays_bad_roll = flag(gettext_lazy("Pays $d6 on a bad roll"))

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        fields = ("zone", "political_points", "treasury", "pays_bad_roll")
        for key, power in world.powers.items():
            yield Row.of(key, power.name, power, *fields)


class MilitiaForm(PowerRowForm):
    """Spain's row only (EIA-12 militia is Spain's only)."""

    edit_key = "militia"
    title = gettext_lazy("Militia owed to Spain (Spanish guerrillas gone home: one per 3)")
    rule = "EIA-12"
    militia = number_field(gettext_lazy("Militia factors due"), edits.MILITIA_RANGE)

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        if SPAIN in world.powers:
            yield Row(SPAIN, world.powers[SPAIN].name, {"militia": world.militia_due.get(SPAIN, 0)})


class AreaForm(BaseEditForm):
    edit_key = "area"
    title = gettext_lazy("Areas: controller and ceded status (only a minor may be neutral)")
    rule = "EIA-7"
    ceded = flag(gettext_lazy("Ceded province"))
    minor_status = status_field(gettext_lazy("As before (none if the controller changes)"))

    def add_choices(self) -> None:
        self.fields["area"] = forms.ChoiceField(label=_("Area"), choices=area_choices(self.world))
        self.fields["controller"] = forms.ChoiceField(
            label=_("Controller"),
            choices=[(NEUTRAL, _("Nobody (a neutral minor)")), *power_choices(self.world)],
            required=False,
        )
        self.order_fields(["area", "controller", "ceded", "minor_status"])

    def edit_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "area": data["area"],
            "controller": data["controller"] or None,
            "ceded": data["ceded"],
            "minor_status": data["minor_status"] or None,
        }


class AreaDetailsForm(BaseEditForm):
    """One area's manpower, printed Spanish guerrilla value and how a minor is held; a
    field left blank keeps its value (the map table shows the current ones)."""

    edit_key = "area_details"
    title = gettext_lazy("Areas: manpower, Spanish guerrilla value, how a minor is held")
    rule = "EIA-3"
    manpower = number_field(gettext_lazy("Manpower"), edits.MANPOWER_RANGE, required=False)
    guerrilla_value = number_field(
        gettext_lazy("Guerrilla value"), edits.GUERRILLA_VALUE_RANGE, required=False
    )
    minor_status = forms.ChoiceField(
        label=gettext_lazy("Minor held as"),
        choices=[(KEEP, gettext_lazy("(as it is)")), (NO_STATUS, gettext_lazy("No status"))]
        + [(k, MINOR_STATUS_LABELS[k]) for k in edits.MINOR_STATUSES],
        required=False,
        error_messages={"invalid_choice": STATUS_REFUSAL},
    )

    def add_choices(self) -> None:
        self.fields["area"] = forms.ChoiceField(
            label=_("Area"),
            choices=area_choices(self.world),
            error_messages={"invalid_choice": _("There is no such area.")},
        )
        self.order_fields(["area", "manpower", "guerrilla_value", "minor_status"])

    def edit_fields(self) -> dict:
        data = self.cleaned_data
        area = self.world.areas[data["area"]]
        status = data["minor_status"]
        return {
            "area": area.key,
            "manpower": area.manpower if data["manpower"] is None else data["manpower"],
            "guerrilla_value": data["guerrilla_value"] or area.guerrilla_value,
            "minor_status": area.minor_status if status == KEEP else status.replace(NO_STATUS, ""),
        }


class NationalModifierForm(BaseEditForm):
    edit_key = "national_modifier"
    title = gettext_lazy("Minor Country Chart: a power's national modifier in a minor")
    rule = "EIA-1"
    value = number_field(gettext_lazy("NM"), edits.NATIONAL_MODIFIER_RANGE, initial=0)

    def add_choices(self) -> None:
        self.fields["area"] = forms.ChoiceField(
            label=_("Minor"),
            choices=minor_choices(self.world),
            error_messages={"invalid_choice": _("That is not a minor country on the chart.")},
        )
        self.fields["power"] = forms.ChoiceField(
            label=_("Power"), choices=power_choices(self.world)
        )
        self.order_fields(["area", "power", "value"])

    @classmethod
    def current(cls, world: World) -> list[str]:
        """Each minor's non-zero cells, e.g. "Bavaria: France +2, Austria −1"."""
        lines = []
        for key, name in minor_choices(world):
            cells = [
                f"{power.name} {world.national_modifiers[(key, pkey)]:+d}"
                for pkey, power in world.powers.items()
                if world.national_modifiers.get((key, pkey))
            ]
            if cells:
                lines.append(f"{name}: {', '.join(cells)}")
        return lines


class LetDownForm(BaseEditForm):
    edit_key = "let_downs"
    title = gettext_lazy("Revolts a power has let down in a minor (−1 each on its attempts there)")
    rule = "EIA-1"
    count = number_field(gettext_lazy("Revolts let down"), edits.LET_DOWN_RANGE, initial=0)

    def add_choices(self) -> None:
        self.fields["power"] = forms.ChoiceField(
            label=_("Power"), choices=power_choices(self.world)
        )
        self.fields["area"] = forms.ChoiceField(
            label=_("Minor"),
            choices=minor_choices(self.world),
            error_messages={"invalid_choice": _("Let-downs count in minor countries only.")},
        )
        self.order_fields(["power", "area", "count"])

    @classmethod
    def current(cls, world: World) -> list[str]:
        return sorted(
            _("%(power)s in %(area)s: %(count)s")
            % {"power": world.powers[power].name, "area": world.areas[area].name, "count": count}
            for (power, area), count in world.let_downs.items()
            if count and power in world.powers and area in world.areas
        )


class CorpsAddForm(BaseEditForm):
    edit_key = "corps_add"
    title = gettext_lazy("Place a corps")
    submit_label = gettext_lazy("Place")
    rule = "EIA-4"
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60, required=False)

    def add_choices(self) -> None:
        minors = [(a.key, a.name) for a in self.world.areas.values() if a.kind == MINOR]
        self.fields["power"] = forms.ChoiceField(
            label=_("Power"), choices=power_choices(self.world)
        )
        self.fields["area"] = forms.ChoiceField(label=_("Area"), choices=area_choices(self.world))
        self.fields["minor"] = forms.ChoiceField(
            label=_("Minor's corps"),
            choices=[("", _("The power's own")), *sorted(minors, key=lambda c: c[1])],
            required=False,
        )
        self.order_fields(["power", "area", "name", "minor"])

    def edit_fields(self) -> dict:
        return {**self.cleaned_data, "minor": self.cleaned_data["minor"] or None}


class CorpsForm(RowEditForm):
    edit_key = "corps"
    title = gettext_lazy("Corps: where, and whether fought this step / besieged / besieging")
    rule = "EIA-4"
    fought = flag(gettext_lazy("Fought this step"))
    besieged = flag(gettext_lazy("Besieged"))
    besieging = flag(gettext_lazy("Besieging"))

    def add_choices(self) -> None:
        corps = [(c.id, c.name) for c in self.world.corps if c.id is not None]
        self.fields["corps"] = id_field(_("Corps"), corps, _("corps"), hidden=True)
        self.fields["area"] = forms.ChoiceField(label=_("Area"), choices=area_choices(self.world))
        self.order_fields(["corps", "area", "fought", "besieged", "besieging"])

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        for c in world.corps:
            if c.id is not None:
                caption = f"{world.powers[c.power].name} {c.name}".strip()
                yield Row.of(c.id, caption, c, "area", "fought", "besieged", "besieging")


class CorpsRemoveForm(BaseEditForm):
    edit_key = "corps_remove"
    title = gettext_lazy("Remove a corps")
    submit_label = gettext_lazy("Remove")

    def add_choices(self) -> None:
        corps = [
            (
                c.id,
                _("%(power)s %(corps)s in %(area)s")
                % {
                    "power": self.world.powers[c.power].name,
                    "corps": c.name,
                    "area": self.world.areas[c.area].name,
                },
            )
            for c in self.world.corps
            if c.id is not None
        ]
        self.fields["corps"] = id_field(_("Corps"), corps, _("corps"))


class RelationForm(BaseEditForm):
    edit_key = "relation"
    title = gettext_lazy("War and alliance between powers")
    rule = "EIA-7"
    kind = forms.ChoiceField(
        label=gettext_lazy("Relation"),
        choices=[
            ("war", gettext_lazy("At war")),
            ("alliance", gettext_lazy("Allied")),
            ("peace", gettext_lazy("At peace")),
        ],
    )

    def add_choices(self) -> None:
        self.fields["a"] = forms.ChoiceField(label=_("Power"), choices=power_choices(self.world))
        self.fields["b"] = forms.ChoiceField(label=_("and"), choices=power_choices(self.world))
        self.order_fields(["a", "b", "kind"])

    def clean(self) -> dict:
        cleaned = super().clean()
        if cleaned.get("a") and cleaned.get("a") == cleaned.get("b"):
            raise forms.ValidationError(_("Choose two different powers."))
        return cleaned

    @classmethod
    def current(cls, world: World) -> list[str]:
        def names(pair):
            names = sorted(world.powers[key].name for key in pair)
            first, second = names[0], names[-1]
            return _("%(first)s and %(second)s") % {"first": first, "second": second}

        wars = [_("%(powers)s: at war") % {"powers": names(pair)} for pair in world.wars]
        allies = [_("%(powers)s: allied") % {"powers": names(pair)} for pair in world.alliances]
        return sorted(wars) + sorted(allies)


class RevoltForm(RowEditForm):
    edit_key = "revolt"
    title = gettext_lazy("Revolts: months the guerrillas have held the capital")
    rule = "EIA-8"
    capital_held_months = number_field(gettext_lazy("Months capital held"), (0, 120))

    def add_choices(self) -> None:
        revolts = [(r.id, r.area) for r in self.world.revolts if r.active and r.id is not None]
        self.fields["revolt"] = id_field(_("Revolt"), revolts, _("active revolt"), hidden=True)
        self.order_fields(["revolt", "capital_held_months"])

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        for r in world.revolts:
            if r.active and r.id is not None:
                caption = _("%(area)s (revolt number %(number)s, %(sponsor)s)") % {
                    "area": world.areas[r.area].name,
                    "number": r.number,
                    "sponsor": world.powers[r.sponsor].name,
                }
                yield Row.of(r.id, caption, r, "capital_held_months")


class SpanishFieldLossForm(BaseEditForm):
    edit_key = "spanish_field_loss"
    title = gettext_lazy("Spain lost a field combat in an unceded Spanish province")
    submit_label = gettext_lazy("Create a Spanish guerrilla factor")
    rule = "EIA-10"

    def add_choices(self) -> None:
        provinces = [
            (a.key, a.name)
            for a in self.world.areas.values()
            if a.kind == PROVINCE and a.home_power == SPAIN and not a.ceded
        ]
        provinces.sort(key=lambda c: c[1])
        self.fields["area"] = forms.ChoiceField(
            label=_("Province"),
            choices=provinces,
            error_messages={"invalid_choice": _("That is not an unceded Spanish home province.")},
        )


class GuerrillaForm(RowEditForm):
    edit_key = "guerrilla"
    row_field = "stack"
    title = gettext_lazy("Guerrillas: factors, and besieged in a city or not")
    rule = "EIA-9"
    factors = number_field(gettext_lazy("Factors"), edits.FACTORS_RANGE)
    besieged = flag(gettext_lazy("Besieged"))

    def add_choices(self) -> None:
        stacks = [(g.id, g.area) for g in self.world.guerrillas if g.id is not None]
        self.fields["stack"] = id_field(_("Stack"), stacks, _("guerrilla stack"), hidden=True)
        self.order_fields(["stack", "factors", "besieged"])

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        for g in world.guerrillas:
            if g.id is not None:
                yield Row.of(g.id, stack_label(world, g), g, "factors", "besieged")


def stack_label(world: World, stack) -> str:
    template = (
        _("%(power)s revolt guerrillas in %(area)s")
        if stack.revolt
        else _("%(power)s Spanish guerrillas in %(area)s")
    )
    return template % {
        "power": world.powers[stack.nationality].name,
        "area": world.areas[stack.area].name,
    }


class GuerrillaAddForm(BaseEditForm):
    edit_key = "guerrilla_add"
    title = gettext_lazy("Place guerrillas (in their area of origin)")
    submit_label = gettext_lazy("Place")
    rule = "EIA-9"
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[
            (
                REVOLT_GUERRILLAS,
                gettext_lazy("Revolt guerrillas of the sponsor of the revolt there"),
            ),
            (SPANISH_GUERRILLAS, gettext_lazy("Spanish guerrillas (Spain, in a Spanish province)")),
        ],
        error_messages={"invalid_choice": gettext_lazy("Choose revolt or Spanish guerrillas.")},
    )
    factors = number_field(gettext_lazy("Factors"), edits.FACTORS_RANGE, initial=1)

    def add_choices(self) -> None:
        """Areas in revolt and Spanish home provinces: the only places guerrillas appear."""
        self.fields["power"] = forms.ChoiceField(
            label=_("Power"), choices=power_choices(self.world)
        )
        places = area_choices(
            self.world,
            lambda a: self.world.active_revolt(a.key) is not None or edits.spanish_province(a),
        )
        self.fields["area"] = forms.ChoiceField(
            label=_("Area"),
            choices=places,
            error_messages={
                "invalid_choice": _(
                    "Guerrillas appear only in an area in revolt or a Spanish province."
                )
            },
        )
        self.order_fields(["kind", "power", "area", "factors"])

    def edit_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "power": data["power"],
            "area": data["area"],
            "factors": data["factors"],
            "revolt": data["kind"] == REVOLT_GUERRILLAS,
        }


class GuerrillaRemoveForm(BaseEditForm):
    edit_key = "guerrilla_remove"
    title = gettext_lazy("Remove guerrillas (destroyed in a field combat)")
    submit_label = gettext_lazy("Remove")
    rule = "EIA-9"

    def add_choices(self) -> None:
        stacks = [
            (
                g.id,
                ngettext("%(count)s %(stack)s", "%(count)s %(stack)s", g.factors)
                % {"count": g.factors, "stack": stack_label(self.world, g)},
            )
            for g in self.world.guerrillas
            if g.id is not None
        ]
        self.fields["stack"] = id_field(_("Stack"), stacks, _("guerrilla stack"))


class DepotAddForm(BaseEditForm):
    edit_key = "depot_add"
    title = gettext_lazy("Place a depot")
    submit_label = gettext_lazy("Place")
    rule = "EIA-11"
    port_city = flag(gettext_lazy("In a port city"))
    garrison = number_field(gettext_lazy("Garrison factors"), (0, 99), initial=0)

    def add_choices(self) -> None:
        self.fields["power"] = forms.ChoiceField(
            label=_("Power"), choices=power_choices(self.world)
        )
        self.fields["area"] = forms.ChoiceField(label=_("Area"), choices=area_choices(self.world))
        self.order_fields(["power", "area", "port_city", "garrison"])


class DepotRemoveForm(BaseEditForm):
    edit_key = "depot_remove"
    title = gettext_lazy("Remove a depot")
    submit_label = gettext_lazy("Remove")
    rule = "EIA-11"

    def add_choices(self) -> None:
        depots = [
            (
                d.id,
                _("%(power)s in %(area)s")
                % {"power": self.world.powers[d.power].name, "area": self.world.areas[d.area].name},
            )
            for d in self.world.depots
            if d.id is not None
        ]
        self.fields["depot"] = id_field(_("Depot"), depots, _("depot"))


EDIT_FORMS: dict[str, type[BaseEditForm]] = {
    form.edit_key: form
    for form in (
        PowerForm,
        MilitiaForm,
        AreaForm,
        AreaDetailsForm,
        NationalModifierForm,
        LetDownForm,
        RelationForm,
        CorpsForm,
        CorpsAddForm,
        CorpsRemoveForm,
        RevoltForm,
        GuerrillaForm,
        GuerrillaAddForm,
        GuerrillaRemoveForm,
        SpanishFieldLossForm,
        DepotAddForm,
        DepotRemoveForm,
    )
}
