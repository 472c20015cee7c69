"""The decision a raid waits for (TOY-2), asked of the lord whose beacon it reached (or of
the GM for it): burn wood to keep the beacon, or let it be doused. Only its lord and the
GM read what its reserve allows; the others read whom the raid waits for."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.platform import BaseDecisionForm
from tests.toy.state import World

KEEP, LET_GO = "keep", "let_go"


class DefenceForm(BaseDecisionForm):
    """Keep the beacon the raid reached, or let it go: the choice to keep it offered only
    when the reserve pays. A posted field it did not ask is refused."""

    rule = "TOY-2"

    def __init__(self, data=None, *, world: World, power_key: str | None, as_gm: bool):
        super().__init__(data, world=world, power_key=power_key, as_gm=as_gm)
        self.raid = world.asked
        self.lord = world.defender(self.raid)
        self.yours = power_key == self.lord
        self.answerable = as_gm or self.yours
        if self.answerable:
            self.fields["keep"] = forms.ChoiceField(
                label=_("The beacon"),
                choices=self._choices(),
                widget=forms.RadioSelect,
                error_messages={
                    "invalid_choice": _("That is not one of the choices: reload the page.")
                },
            )

    def _choices(self) -> list[tuple[str, str]]:
        cost = self.raid.cost
        keep = ngettext(
            "Burn %(count)s wood and keep it", "Burn %(count)s wood and keep it", cost
        ) % {"count": cost}
        choices = [(LET_GO, _("Let it be doused"))]
        if self.world.wood.get(self.lord, 0) >= cost:
            choices.insert(0, (KEEP, keep))
        return choices

    @property
    def waiting_for(self) -> str:
        return str(self.world.powers[self.lord])

    @property
    def waits(self) -> str:
        """Whose raid waits for whose decision."""
        names = {"raider": self.world.powers[self.raid.raider], "lord": self.waiting_for}
        if self.yours:
            return _("The raid of %(raider)s (TOY-2) waits for your decision.") % names
        return _("The raid of %(raider)s (TOY-2) waits for the decision of %(lord)s.") % names

    @property
    def text(self) -> str:
        """The raid and its die; what the reserve holds, for its lord and the GM alone."""
        said = _(
            "%(raider)s's raid reached the beacon in %(area)s with a %(face)s: keeping it "
            "costs %(cost)s wood."
        ) % {
            "raider": self.world.powers[self.raid.raider],
            "area": self.world.names[self.raid.area],
            "face": self.raid.face,
            "cost": self.raid.cost,
        }
        if not self.answerable:
            return said
        wood = self.world.wood.get(self.lord, 0)
        return said + " " + _("The reserve holds %(count)s wood.") % {"count": wood}

    @property
    def highlight(self) -> tuple[str, ...]:
        """None to choose on the map: the raided beacon is striped there already."""
        return ()

    def clean(self) -> dict:
        cleaned = super().clean()
        for name in self.data:
            if name not in self.fields:
                raise forms.ValidationError(
                    _("This decision asks nothing called “%(name)s”: reload the page.")
                    % {"name": name}
                )
        return cleaned

    def answer(self) -> dict:
        """The answer as the raid reads it (call after is_valid())."""
        return {"keep": self.cleaned_data["keep"] == KEEP}
