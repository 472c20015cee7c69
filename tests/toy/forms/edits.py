"""The GM's edit forms for Beacons: each area's beacon and each lord's reserve. EDIT_FORMS
maps each gm_edit key (tests/toy/edits.py) to its form (see rules/forms.py)."""

from __future__ import annotations

from collections.abc import Iterator

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.platform import BaseEditForm, Row, RowEditForm, number_field, row_key
from tests.toy.edits import WOOD_RANGE
from tests.toy.state import World

UNLIT = ""


def lord_choices(world: World) -> list[tuple[str, str]]:
    return list(world.powers.items())


def area_choices(world: World) -> list[tuple[str, str]]:
    return sorted(world.names.items(), key=lambda item: str(item[1]))


class BeaconForm(RowEditForm):
    edit_key = "beacon"
    title = gettext_lazy("Beacons: lit by a lord, or unlit")
    rule = "TOY-1"

    def add_choices(self) -> None:
        self.fields["beacon"] = row_key(area_choices(self.world))
        self.fields["lit_by"] = forms.ChoiceField(
            label=_("Lit by"),
            choices=[(UNLIT, _("nobody")), *lord_choices(self.world)],
            required=False,
        )

    def edit_fields(self) -> dict:
        return {
            "beacon": self.cleaned_data["beacon"],
            "lit_by": self.cleaned_data["lit_by"] or None,
        }

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        for key, name in area_choices(world):
            yield Row(key, name, {"lit_by": world.lit.get(key) or UNLIT})


class LordForm(RowEditForm):
    edit_key = "lord"
    title = gettext_lazy("Reserves of wood (hidden from the other lords)")
    rule = "TOY-3"
    wood = number_field(gettext_lazy("Wood"), WOOD_RANGE)

    def add_choices(self) -> None:
        self.fields["lord"] = row_key(lord_choices(self.world))
        self.order_fields(["lord", "wood"])

    @classmethod
    def rows(cls, world: World) -> Iterator[Row]:
        for key, name in lord_choices(world):
            yield Row(key, name, {"wood": world.wood.get(key, 0)})


EDIT_FORMS: dict[str, type[BaseEditForm]] = {form.edit_key: form for form in (BeaconForm, LordForm)}
