"""Virgin Queen forms: an impulse's action, the decisions a procedure waits for, and
the GM's edits. Each offers only the legal choices and says why anything else is
refused. ``world`` here is the services' Loaded: the World and the procedure under way.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.forms import BaseEditForm, BaseOrderForm, flag, id_field, number_field, row_auto_id
from rules.translation import localized
from rules.virgin_queen import edits
from rules.virgin_queen import procedures as vq
from rules.virgin_queen.services import CANCEL, gm_edit
from rules.virgin_queen.state import (
    AUTOMATIC_SIX_EVENTS,
    CATHOLIC,
    MERCENARY,
    NAVAL,
    PROTESTANT,
    PROTESTANT_POWER,
    REGULAR,
    TURN_TRACK,
    power_name,
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
    return [(key, power_title(key)) for key in world.markers]


class ImpulseOrderForm(BaseOrderForm):
    """The impulse's action: only those the power may take now are offered."""

    rules = ("VQ-1", "VQ-2", "VQ-3")

    def add_fields(self) -> None:
        world = self.world.world
        self.fields["action"] = forms.ChoiceField(
            label=_("Action"),
            choices=[(key, ACTION_LABELS[key]) for key in self.actions()],
            error_messages={"invalid_choice": self.action_refusal()},
        )
        if "conversion" in self.actions():
            self.fields["zones"] = forms.MultipleChoiceField(
                label=_("Struggle zones targeted"),
                choices=[(key, zone_name(key)) for key in sorted(world.capitals)],
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            self.fields["attempts"] = forms.TypedChoiceField(
                label=_("Conversion attempts (dice)"),
                choices=[(n, str(n)) for n in range(1, MAX_ATTEMPTS + 1)],
                coerce=int,
                required=False,
            )
            self.fields["event"] = forms.ChoiceField(
                label=_("Played as the event"),
                choices=[(NO_EVENT, _("— (an action)"))] + [(e, e) for e in AUTOMATIC_SIX_EVENTS],
                required=False,
                help_text=_("These events make the first die an automatic 6."),
            )
        if "revolt" in self.actions():
            self.fields["target"] = SpaceChoiceField(
                label=_("Target"),
                choices=[("", "—")] + space_choices(world, lambda s: s.key in self.targets()),
                required=False,
                error_messages={
                    "invalid_choice": _(
                        "“%(value)s” cannot be the target of a revolt: it must be a Protestant "
                        "space of France under French control, or of the Netherlands under "
                        "Spanish control, not besieged (VQ-2)."
                    )
                },
            )
            self.fields["target"].spaces = frozenset(world.spaces)
            self.fields["cp"] = forms.TypedChoiceField(
                label=_("CP spent"),
                choices=[(n, str(n)) for n in CP_CHOICES],
                coerce=int,
                required=False,
                error_messages={"invalid_choice": _("A revolt costs 2 to 5 CP (VQ-2).")},
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
        if not vq.espionage_refusal(world.turn):
            offered.append("espionage")
        return offered + ["other", "pass"]

    def action_refusal(self) -> str:
        turn = self.world.world.turn
        reasons = localized(vq.espionage_refusal(turn) or "")
        return (
            _(
                "That action is not open to you: only Catholic powers attempt conversions, "
                "only the Protestant revolts. %(reasons)s"
            )
            % {"reasons": reasons}
        ).strip()

    def targets(self) -> list[str]:
        """Spaces a revolt may target now (VQ-2 step 1)."""
        world = self.world.world
        return [key for key in world.spaces if not vq.revolt_refusal(world, key, CP_CHOICES[0])]

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
            refusal = vq.revolt_refusal(self.world.world, cleaned["target"], cleaned["cp"])
            if refusal:
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


class SpaceChoiceMixin:
    """A choice that also lets through any space of the map, so that the procedure says
    why a space that is not offered cannot be chosen (which condition it fails)."""

    spaces: frozenset[str] = frozenset()

    def valid_value(self, value) -> bool:
        return value in self.spaces or super().valid_value(value)


class SpaceChoiceField(SpaceChoiceMixin, forms.ChoiceField):
    pass


class SpaceMultipleChoiceField(SpaceChoiceMixin, forms.MultipleChoiceField):
    pass


class DecisionForm(forms.Form):
    """The decision the procedure under way waits for, its questions as fields. A posted
    field it did not ask, or two answers to one question, is refused."""

    def __init__(self, data=None, *, world, power_key: str | None, as_gm: bool):
        super().__init__(data)
        self.prompt = vq.prompt(world.world, world.pending)
        self.yours = power_key == self.prompt.waiting_for  # the reader's own decision
        self.answerable = as_gm or self.yours
        spaces = frozenset(world.world.spaces)
        for question in self.prompt.questions:
            self.fields[question.name] = self._field(question)
            self.fields[question.name].spaces = spaces
            # the GM may cancel instead of answering; the procedure checks what is missing
            self.fields[question.name].required &= not as_gm
        if as_gm:
            self.fields[CANCEL] = forms.BooleanField(
                label=_(
                    "Cancel the %(kind)s instead: the impulse ends as it stands (after a "
                    "change at the table made it impossible to finish)"
                )
                % {"kind": world.pending.kind},
                required=False,
            )

    @property
    def waiting_for(self) -> str:
        return localized(power_title(self.prompt.waiting_for))

    @property
    def text(self) -> str:
        return localized(self.prompt.text)

    @property
    def rule(self) -> str:
        return self.prompt.rule

    @property
    def highlight(self) -> tuple[str, ...]:
        return self.prompt.highlight

    @staticmethod
    def _field(question: vq.Question) -> forms.Field:
        refusal = _("“%(value)s” is not one of the choices offered: reload the page.")
        label = localized(question.label)
        options = [(value, localized(text)) for value, text in question.options]
        if question.many:
            return SpaceMultipleChoiceField(
                label=label,
                choices=options,
                required=question.min > 0,
                widget=forms.CheckboxSelectMultiple,
                error_messages={"invalid_choice": refusal},
            )
        return SpaceChoiceField(
            label=label,
            choices=[("", _("— choose —") if question.min else _("— none —")), *options],
            required=question.min > 0,
            error_messages={"invalid_choice": refusal, "required": _("Choose one.")},
        )

    def clean(self) -> dict:
        cleaned = super().clean()
        for name in self.data:
            if name not in self.fields:
                raise forms.ValidationError(
                    _("This decision asks nothing called “%(name)s”: reload the page.")
                    % {"name": name}
                )
        for question in self.prompt.questions:
            if not question.many and len(self._posted(question.name)) > 1:
                raise forms.ValidationError(
                    _("%(question)s: give one answer only.")
                    % {"question": localized(question.label)}
                )
            chosen = cleaned.get(question.name)
            if (
                question.many
                and chosen is not None
                and not (question.min <= len(chosen) <= question.max)
            ):
                raise forms.ValidationError(
                    _("%(question)s: choose from %(min)s to %(max)s.")
                    % {
                        "question": localized(question.label),
                        "min": question.min,
                        "max": question.max,
                    }
                )
        return cleaned

    def _posted(self, name: str) -> list:
        return self.data.getlist(name) if hasattr(self.data, "getlist") else [self.data[name]]

    def answer(self) -> dict:
        """The answer as the procedure reads it (call after is_valid())."""
        return {name: value for name, value in self.cleaned_data.items()}


# -- GM edits -----------------------------------------------------------------------


class EditForm(BaseEditForm):
    gm_edit = staticmethod(gm_edit)

    def __init__(self, data=None, *, world, caption: str = "", **kwargs):
        super().__init__(data, world=world.world, caption=caption, **kwargs)


class SpaceForm(EditForm):
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
        self.fields["space"] = forms.ChoiceField(
            choices=space_choices(self.world), widget=forms.HiddenInput
        )
        powers = [("", _("nobody")), *power_choices(self.world)]
        self.fields["controller"] = forms.ChoiceField(
            label=_("Political control"), choices=powers, required=False
        )
        self.fields["zone"] = forms.ChoiceField(
            label=_("Struggle zone"),
            choices=[("", _("none")), *((z, zone_name(z)) for z in sorted(self.world.capitals))],
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
    def instances(cls, world) -> list[BaseEditForm]:
        """One prefilled row per space, so that an edit never clears what it leaves."""
        fields = ("religion", "unrest", "fortified", "besieged", "zone", "key_space", "port")
        return [
            cls(
                world=world,
                caption=space.name,
                initial={
                    "space": space.key,
                    "controller": space.controller or "",
                    "capital_of": space.capital_of or "",
                    "protestant_home": space.protestant_home,
                    **{name: getattr(space, name) for name in fields},
                },
                auto_id=row_auto_id(cls, space.key),
            )
            for space in sorted(world.world.spaces.values(), key=lambda s: s.name)
        ]


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
            _("%(count)s %(power)s %(kind)s in %(space)s")
            % {
                "count": u.count,
                "power": power_name(u.power),
                "kind": u.kind,
                "space": world.world.spaces[u.space].name,
            }
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
                _("%(count)s %(power)s %(kind)s in %(space)s")
                % {
                    "count": u.count,
                    "power": localized(power_name(u.power)),
                    "kind": localized(edits.KINDS[u.kind]),
                    "space": self.world.spaces[u.space].name,
                },
            )
            for u in sorted(self.world.units.values(), key=lambda u: (u.power, u.space, u.kind))
            if u.id is not None
        ]
        self.fields["stack"] = id_field(_("Units"), stacks, _("unit stack"))
        self.fields["to"] = forms.ChoiceField(label=_("To"), choices=space_choices(self.world))
        self.order_fields(["stack", "to", "count"])


class LeaderForm(EditForm):
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
    def instances(cls, world) -> list[BaseEditForm]:
        return [
            cls(
                world=world,
                caption=f"{leader.name} ({power_name(leader.power)})",
                initial={"leader": key, "space": leader.space or "", "can_enter": leader.can_enter},
                auto_id=row_auto_id(cls, key),
            )
            for key, leader in world.world.leaders.items()
            if leader.id is not None
        ]


class ZoneForm(EditForm):
    edit_key = "zone"
    title = gettext_lazy("Struggle zones: the Protestant capital and regulars left")
    rule = "VQ-2"
    regulars = number_field(gettext_lazy("Regulars available"), edits.COUNT_RANGE)

    def add_choices(self) -> None:
        self.fields["zone"] = forms.ChoiceField(
            choices=[(z, z) for z in self.world.capitals], widget=forms.HiddenInput
        )
        self.fields["capital"] = forms.ChoiceField(
            label=_("Capital"),
            choices=[("", _("none")), (TURN_TRACK, _("on the turn track"))]
            + space_choices(self.world),
            required=False,
        )

    def edit_fields(self) -> dict:
        return {**self.cleaned_data, "capital": self.cleaned_data["capital"] or None}

    @classmethod
    def instances(cls, world) -> list[BaseEditForm]:
        return [
            cls(
                world=world,
                caption=zone_name(zone),
                initial={
                    "zone": zone,
                    "capital": capital or "",
                    "regulars": world.world.counter_mix.get(zone, 0),
                },
                auto_id=row_auto_id(cls, zone),
            )
            for zone, capital in world.world.capitals.items()
        ]


class PowerForm(EditForm):
    edit_key = "power"
    title = gettext_lazy("Catholic powers (their regulars and naval units are Catholic units)")
    rule = "VQ-1"
    catholic = flag(gettext_lazy("Catholic"))

    def add_choices(self) -> None:
        self.fields["power"] = forms.ChoiceField(
            choices=power_choices(self.world), widget=forms.HiddenInput
        )

    @classmethod
    def instances(cls, world) -> list[BaseEditForm]:
        return [
            cls(
                world=world,
                caption=power_title(key),
                initial={"power": key, "catholic": key in world.world.catholic_powers},
                auto_id=row_auto_id(cls, key),
            )
            for key in world.world.markers
        ]


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
                "first": min(power_name(k) for k in pair),
                "second": max(power_name(k) for k in pair),
            }
            for pair in world.world.wars
        )


class MarkersForm(EditForm):
    edit_key = "markers"
    title = gettext_lazy("Espionage markers")
    rule = "VQ-3"
    informant = number_field(gettext_lazy("Informant"), edits.MARKER_RANGE)
    assassination_used = number_field(gettext_lazy("Assassination Used"), edits.MARKER_RANGE)
    cipher_key = number_field(gettext_lazy("Cipher Key"), edits.MARKER_RANGE)

    def add_choices(self) -> None:
        self.fields["power"] = forms.ChoiceField(
            choices=power_choices(self.world), widget=forms.HiddenInput
        )

    @classmethod
    def instances(cls, world) -> list[BaseEditForm]:
        return [
            cls(
                world=world,
                caption=power_title(key),
                initial={
                    "power": key,
                    "informant": m.informant,
                    "assassination_used": m.assassination_used,
                    "cipher_key": m.cipher_key,
                },
                auto_id=row_auto_id(cls, key),
            )
            for key, m in world.world.markers.items()
        ]


EDIT_FORMS: dict[str, type[EditForm]] = {
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
