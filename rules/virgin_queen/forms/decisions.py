"""The decisions a Virgin Queen procedure waits for, asked of the power concerned (or the
GM): only legal choices, the eligible spaces highlighted on the map.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from rules.platform import BaseDecisionForm, localized
from rules.virgin_queen import procedures as vq
from rules.virgin_queen.forms.orders import SpaceChoiceField, SpaceMultipleChoiceField
from rules.virgin_queen.services import CANCEL, Loaded
from rules.virgin_queen.state import PROTESTANT_POWER, power_title


class DecisionForm(BaseDecisionForm):
    """The decision the procedure under way waits for, its questions as fields. A posted
    field it did not ask, or two answers to one question, is refused."""

    def __init__(self, data=None, *, world: Loaded, power_key: str | None, as_gm: bool):
        super().__init__(data, world=world, power_key=power_key, as_gm=as_gm)
        pending = world.pending
        assert pending is not None  # the form asks the decision under way
        self.prompt = vq.prompt(world.world, pending)
        self.pending = pending
        self.yours = power_key == self.prompt.waiting_for  # the reader's own decision
        self.answerable = as_gm or self.yours
        spaces = frozenset(world.world.spaces)
        for question in self.prompt.questions:
            field = self._field(question)
            field.spaces = spaces
            # the GM may cancel instead of answering; the procedure checks what is missing
            field.required &= not as_gm
            self.fields[question.name] = field
        if as_gm:
            if pending.kind == "revolt":
                cancel = _(
                    "Cancel the revolt instead: the impulse ends as it stands (after a "
                    "change at the table made it impossible to finish)"
                )
            else:
                cancel = _(
                    "Cancel the conversion instead: the impulse ends as it stands (after a "
                    "change at the table made it impossible to finish)"
                )
            self.fields[CANCEL] = forms.BooleanField(label=cancel, required=False)

    @property
    def waiting_for(self) -> str:
        return localized(power_title(self.prompt.waiting_for))

    @property
    def waits(self) -> str:
        """Who is waiting for whom: the procedure's power, and the power that decides."""
        pending = self.pending
        actor = localized(power_title(pending.data.get("power", PROTESTANT_POWER)))
        rule = vq.RULES[pending.kind]
        if pending.kind == "conversion":
            if self.yours:
                text = _("The conversion of %(actor)s (%(rule)s) waits for your decision.")
            else:
                text = _(
                    "The conversion of %(actor)s (%(rule)s) waits for the decision of %(power)s."
                )
        elif self.yours:
            text = _("The revolt of %(actor)s (%(rule)s) waits for your decision.")
        else:
            text = _("The revolt of %(actor)s (%(rule)s) waits for the decision of %(power)s.")
        return text % {"actor": actor, "rule": rule, "power": self.waiting_for}

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
    def _field(question: vq.Question) -> SpaceChoiceField | SpaceMultipleChoiceField:
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
