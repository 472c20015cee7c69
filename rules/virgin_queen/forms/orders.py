"""Virgin Queen's order form: an impulse's action, offering only the legal choices and
saying why anything else is refused. ``world`` here is the services' Loaded: the World
and the procedure under way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.platform import BaseOrderForm, localized
from rules.refusals import reason_for
from rules.virgin_queen import procedures as vq
from rules.virgin_queen.state import (
    AUTOMATIC_SIX_EVENTS,
    PROTESTANT_POWER,
    power_title,
    zone_name,
)

CP_CHOICES = tuple(range(2, 6))  # VQ-2 step 1
MAX_ATTEMPTS = 6
NO_EVENT = ""
ACTION_LABELS = {
    "conversion": gettext_lazy("Catholic conversion attempt (VQ-1)"),
    "revolt": gettext_lazy("Protestant revolt (VQ-2)"),
    "espionage": gettext_lazy("Espionage action (VQ-3), played at the table"),
    "other": gettext_lazy("Another action, played at the table (the GM records it)"),
    "pass": gettext_lazy("Pass"),
}


def space_choices(world, keep=lambda space: True) -> list[tuple[str, str]]:
    spaces = sorted((s for s in world.spaces.values() if keep(s)), key=lambda s: s.name)
    return [(s.key, s.name) for s in spaces]


def power_choices(world) -> list[tuple[str, str]]:
    return [(key, localized(power_title(key))) for key in world.markers]


if TYPE_CHECKING:
    ChoiceBase = forms.ChoiceField  # the mixin's fields are choice fields
else:
    ChoiceBase = object


class SpaceChoiceMixin(ChoiceBase):
    """A choice that also lets through any space of the map, so that the procedure says
    why a space that is not offered cannot be chosen (which condition it fails)."""

    spaces: frozenset[str] = frozenset()

    def valid_value(self, value: object) -> bool:
        return value in self.spaces or super().valid_value(value)


class SpaceChoiceField(SpaceChoiceMixin, forms.ChoiceField):
    pass


class SpaceMultipleChoiceField(SpaceChoiceMixin, forms.MultipleChoiceField):
    pass


class ImpulseOrderForm(BaseOrderForm):
    """The impulse's action: only those the power may take now are offered."""

    rules = ("VQ-1", "VQ-2", "VQ-3")

    def add_fields(self) -> None:
        world = self.world.world
        self.fields["action"] = forms.ChoiceField(
            label=_("Action"),
            choices=[(key, ACTION_LABELS[key]) for key in self.actions()],
            error_messages={"invalid_choice": self.closed_action_message()},
        )
        if "conversion" in self.actions():
            self.fields["zones"] = forms.MultipleChoiceField(
                label=_("Struggle zones targeted"),
                choices=[(key, localized(zone_name(key))) for key in sorted(world.capitals)],
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            self.fields["attempts"] = forms.TypedChoiceField(
                label=_("Conversion attempts (dice)"),
                choices=[(n, str(n)) for n in range(1, MAX_ATTEMPTS + 1)],
                coerce=int,
                required=False,
                help_text=_("VQ-1: a die per attempt: %(needs)s.")
                % {"needs": localized(vq.conversion_needs())},
            )
            self.fields["event"] = forms.ChoiceField(
                label=_("Played as the event"),
                choices=[
                    (NO_EVENT, _("— (an action)")),
                    *((event, localized(name)) for event, name in AUTOMATIC_SIX_EVENTS.items()),
                ],
                required=False,
                help_text=_("These events make the first die an automatic 6."),
            )
        if "revolt" in self.actions():
            target = SpaceChoiceField(
                label=_("Target"),
                choices=[("", "—")] + self.target_choices(),
                required=False,
                error_messages={
                    "invalid_choice": _(
                        "“%(value)s” cannot be the target of a revolt: it must be a Protestant "
                        "space of France under French control, or of the Netherlands under "
                        "Spanish control, not besieged (VQ-2)."
                    )
                },
            )
            target.spaces = frozenset(world.spaces)
            self.fields["target"] = target
            self.fields["cp"] = forms.TypedChoiceField(
                label=_("CP spent"),
                choices=[(n, str(n)) for n in CP_CHOICES],
                coerce=int,
                required=False,
                error_messages={"invalid_choice": _("A revolt costs 2 to 5 CP (VQ-2).")},
                help_text=_(
                    "VQ-2: %(low)s to %(high)s CP; a die per CP spent, and the spaces it flips, "
                    "the target included, are at most the CP spent."
                )
                % {"low": CP_CHOICES[0], "high": CP_CHOICES[-1]},
            )
        self.fields["note"] = forms.CharField(
            label=_("What is played at the table"), max_length=200, required=False
        )

    def actions(self) -> list[str]:
        world = self.world.world
        offered = []
        if self.power_key in world.catholic_powers:
            offered.append("conversion")
        if self.power_key == PROTESTANT_POWER:
            offered.append("revolt")
        if reason_for(vq.check_espionage, world.turn) is None:
            offered.append("espionage")
        return offered + ["other", "pass"]

    def closed_action_message(self) -> str:
        """Why an action that is not offered is refused, espionage's reason included."""
        turn = self.world.world.turn
        reasons = localized(reason_for(vq.check_espionage, turn) or "")
        return (
            _(
                "That action is not open to you: only Catholic powers attempt conversions, "
                "only the Protestant revolts. %(reasons)s"
            )
            % {"reasons": reasons}
        ).strip()

    def target_choices(self) -> list[tuple[str, str]]:
        """The spaces a revolt may target, each with what its dice need (VQ-2 step 2)."""
        world = self.world.world
        targets = set(self.targets())
        return [
            (key, self.target_label(key, name))
            for key, name in space_choices(world, lambda s: s.key in targets)
        ]

    def target_label(self, key: str, name: str) -> str:
        needs = localized(vq.revolt_needs(self.world.world, key))
        return _("%(space)s (%(needs)s)") % {"space": name, "needs": needs}

    def targets(self) -> list[str]:
        """Spaces a revolt may target now (VQ-2 step 1)."""
        world = self.world.world
        cp = CP_CHOICES[0]
        return [key for key in world.spaces if reason_for(vq.check_revolt, world, key, cp) is None]

    def initial_from(self, payload: dict) -> dict:
        return dict(payload)

    def clean(self) -> dict:
        cleaned = super().clean()
        action = cleaned.get("action")
        if action == "conversion" and not (cleaned.get("zones") and cleaned.get("attempts")):
            raise forms.ValidationError(
                _("A conversion needs the struggle zones it targets and the number of attempts.")
            )
        if action == "revolt" and not (cleaned.get("target") and cleaned.get("cp")):
            raise forms.ValidationError(_("A revolt needs its target and the CP spent (2 to 5)."))
        if action == "revolt":
            refusal = reason_for(
                vq.check_revolt, self.world.world, cleaned["target"], cleaned["cp"]
            )
            if refusal is not None:
                raise forms.ValidationError(localized(refusal))
        return cleaned

    def payload(self) -> dict:
        data = self.cleaned_data
        action = data["action"]
        if action == "conversion":
            return {
                "action": action,
                "zones": data["zones"],
                "attempts": data["attempts"],
                "event": data.get("event", NO_EVENT),
            }
        if action == "revolt":
            return {"action": action, "target": data["target"], "cp": data["cp"]}
        return {"action": action, "note": data.get("note", "")}
