"""Virgin Queen's GM edits: each offers only the legal choices and says why anything else
is refused.
"""

from __future__ import annotations

from collections.abc import Iterator

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
from rules.text import Text
from rules.virgin_queen import edits
from rules.virgin_queen.forms.orders import power_choices, space_choices
from rules.virgin_queen.procedures import stack_text
from rules.virgin_queen.state import (
    CATHOLIC,
    MERCENARY,
    NAVAL,
    PROTESTANT,
    REGULAR,
    TURN_TRACK,
    power_name,
    power_title,
    zone_name,
)


class EditForm(BaseEditForm):
    """A Virgin Queen edit: built from the loaded state (load_world), it reads its World."""

    def __init__(self, data=None, *, world, caption: str = "", **kwargs):
        super().__init__(data, world=world.world, caption=caption, **kwargs)


class RowForm(EditForm, RowEditForm):
    """A Virgin Queen edit of one row: ``rows`` reads the loaded state."""


class SpaceForm(RowForm):
    edit_key = "space"
    title = gettext_lazy(
        "Spaces: religion, control, unrest, fortified, besieged, zone, key, port, home"
    )
    rule = "VQ-1"
    religion = forms.ChoiceField(
        label=gettext_lazy("Religious influence"),
        choices=[(CATHOLIC, gettext_lazy("Catholic")), (PROTESTANT, gettext_lazy("Protestant"))],
    )
    unrest = flag(gettext_lazy("Unrest"))
    fortified = flag(gettext_lazy("Fortified"))
    besieged = flag(gettext_lazy("Besieged"))
    key_space = flag(gettext_lazy("Key"))
    port = flag(gettext_lazy("Port"))
    protestant_home = flag(gettext_lazy("Protestant home"))

    def add_choices(self) -> None:
        self.fields["space"] = row_key(space_choices(self.world))
        powers = [("", _("nobody")), *power_choices(self.world)]
        self.fields["controller"] = forms.ChoiceField(
            label=_("Political control"), choices=powers, required=False
        )
        self.fields["zone"] = forms.ChoiceField(
            label=_("Struggle zone"),
            choices=[
                ("", _("none")),
                *((z, localized(zone_name(z))) for z in sorted(self.world.capitals)),
            ],
            required=False,
        )
        self.fields["capital_of"] = forms.ChoiceField(
            label=_("Capital of"), choices=powers, required=False
        )
        self.order_fields(["space", "religion", "controller", "zone", "capital_of"])

    def edit_fields(self) -> dict:
        data = self.cleaned_data
        return {
            **data,
            "controller": data["controller"] or None,
            "capital_of": data["capital_of"] or None,
        }

    @classmethod
    def rows(cls, world) -> Iterator[Row]:
        fields = ("religion", "unrest", "fortified", "besieged", "zone", "key_space", "port")
        for space in sorted(world.world.spaces.values(), key=lambda s: s.name):
            yield Row.of(
                space.key,
                space.name,
                space,
                "protestant_home",
                *fields,
                controller=space.controller or "",
                capital_of=space.capital_of or "",
            )


class UnitsForm(EditForm):
    edit_key = "units"
    title = gettext_lazy("Units in a space (0 removes them)")
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        choices=[
            (REGULAR, gettext_lazy("regular")),
            (MERCENARY, gettext_lazy("mercenary")),
            (NAVAL, gettext_lazy("naval")),
        ],
    )
    count = number_field(gettext_lazy("Count"), edits.COUNT_RANGE)

    def add_choices(self) -> None:
        self.fields["power"] = forms.ChoiceField(
            label=_("Power"), choices=power_choices(self.world)
        )
        self.fields["space"] = forms.ChoiceField(
            label=_("Space"), choices=space_choices(self.world)
        )
        self.order_fields(["power", "kind", "space", "count"])

    @classmethod
    def current(cls, world) -> list[str]:
        return [
            stack_in(u, world.world.spaces[u.space].name)
            for u in sorted(world.world.units.values(), key=lambda u: (u.space, u.power))
        ]


class UnitsMoveForm(EditForm):
    edit_key = "units_move"
    title = gettext_lazy("Move units (a move played at the table)")
    submit_label = gettext_lazy("Move")
    count = number_field(gettext_lazy("How many"), (1, edits.COUNT_RANGE[1]))

    def add_choices(self) -> None:
        stacks = [
            (
                u.id,
                stack_in(u, self.world.spaces[u.space].name),
            )
            for u in sorted(self.world.units.values(), key=lambda u: (u.power, u.space, u.kind))
            if u.id is not None
        ]
        self.fields["stack"] = id_field(_("Units"), stacks, _("unit stack"))
        self.fields["to"] = forms.ChoiceField(label=_("To"), choices=space_choices(self.world))
        self.order_fields(["stack", "to", "count"])


class LeaderForm(RowForm):
    edit_key = "leader"
    title = gettext_lazy("Leaders: where, and whether they may enter play")
    can_enter = flag(gettext_lazy("May enter play"))

    def add_choices(self) -> None:
        leaders = [(str(k), v.name) for k, v in self.world.leaders.items() if v.id is not None]
        self.fields["leader"] = forms.TypedChoiceField(
            choices=leaders, coerce=int, widget=forms.HiddenInput
        )
        self.fields["space"] = forms.ChoiceField(
            label=_("Where"),
            choices=[("", _("off the map")), *space_choices(self.world)],
            required=False,
        )

    def edit_fields(self) -> dict:
        return {**self.cleaned_data, "space": self.cleaned_data["space"] or None}

    @classmethod
    def rows(cls, world) -> Iterator[Row]:
        for key, leader in world.world.leaders.items():
            if leader.id is not None:
                values = {"space": leader.space or "", "can_enter": leader.can_enter}
                owner = localized(power_name(leader.power))
                yield Row(key, f"{leader.name} ({owner})", values)


class ZoneForm(RowForm):
    edit_key = "zone"
    title = gettext_lazy("Struggle zones: the Protestant capital and regulars left")
    rule = "VQ-2"
    regulars = number_field(gettext_lazy("Regulars available"), edits.COUNT_RANGE)

    def add_choices(self) -> None:
        self.fields["zone"] = row_key([(z, z) for z in self.world.capitals])
        self.fields["capital"] = forms.ChoiceField(
            label=_("Capital"),
            choices=[("", _("none")), (TURN_TRACK, _("on the turn track"))]
            + space_choices(self.world),
            required=False,
        )

    def edit_fields(self) -> dict:
        return {**self.cleaned_data, "capital": self.cleaned_data["capital"] or None}

    @classmethod
    def rows(cls, world) -> Iterator[Row]:
        for zone, capital in world.world.capitals.items():
            regulars = world.world.counter_mix.get(zone, 0)
            yield Row(zone, zone_name(zone), {"capital": capital or "", "regulars": regulars})


class PowerForm(RowForm):
    edit_key = "power"
    title = gettext_lazy("Catholic powers (their regulars and naval units are Catholic units)")
    rule = "VQ-1"
    catholic = flag(gettext_lazy("Catholic"))

    def add_choices(self) -> None:
        self.fields["power"] = row_key(power_choices(self.world))

    @classmethod
    def rows(cls, world) -> Iterator[Row]:
        for key in world.world.markers:
            yield Row(
                key, localized(power_title(key)), {"catholic": key in world.world.catholic_powers}
            )


class WarForm(EditForm):
    edit_key = "war"
    title = gettext_lazy("War and peace")
    at_war = flag(gettext_lazy("At war"))

    def add_choices(self) -> None:
        self.fields["first"] = forms.ChoiceField(
            label=_("Power"), choices=power_choices(self.world)
        )
        self.fields["second"] = forms.ChoiceField(label=_("and"), choices=power_choices(self.world))

    @classmethod
    def current(cls, world) -> list[str]:
        return sorted(
            _("%(first)s and %(second)s are at war")
            % {
                "first": min(localized(power_name(k)) for k in pair),
                "second": max(localized(power_name(k)) for k in pair),
            }
            for pair in world.world.wars
        )


class MarkersForm(RowForm):
    edit_key = "markers"
    row_field = "power"
    title = gettext_lazy("Espionage markers")
    rule = "VQ-3"
    informant = number_field(gettext_lazy("Informant"), edits.MARKER_RANGE)
    assassination_used = number_field(gettext_lazy("Assassination Used"), edits.MARKER_RANGE)
    cipher_key = number_field(gettext_lazy("Cipher Key"), edits.MARKER_RANGE)

    def add_choices(self) -> None:
        self.fields["power"] = row_key(power_choices(self.world))

    @classmethod
    def rows(cls, world) -> Iterator[Row]:
        for key, m in world.world.markers.items():
            fields = ("informant", "assassination_used", "cipher_key")
            yield Row.of(key, localized(power_title(key)), m, *fields)


EDIT_FORMS: dict[str, type[BaseEditForm]] = {
    form.edit_key: form
    for form in (
        SpaceForm,
        UnitsForm,
        UnitsMoveForm,
        LeaderForm,
        ZoneForm,
        PowerForm,
        WarForm,
        MarkersForm,
    )
}


def stack_in(units, space: str) -> str:
    """A unit stack and its space as the log names them ("2 French mercenaries in Lyon"),
    in the reader's language."""
    return localized(Text("%(piece)s in %(space)s", piece=stack_text(units), space=space))
