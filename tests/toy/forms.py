"""Beacons' order form; it has no GM edits."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from rules.forms import BaseOrderForm
from tests.toy.procedures import targets


class SignalForm(BaseOrderForm):
    """Which area to light, of those next to the power's beacons."""

    rules = ("TOY-1",)

    def add_fields(self) -> None:
        choices = targets(self.world, self.power_key)
        if choices:
            self.fields["area"] = forms.ChoiceField(
                label=gettext_lazy("Light"),
                choices=[("", "—"), *((a, self.world.names[a]) for a in choices)],
                required=False,
            )

    def initial_from(self, payload: dict) -> dict:
        return {"area": payload.get("area", "")}

    def payload(self) -> dict:
        area = self.cleaned_data.get("area")
        return {"area": area} if area else {}
