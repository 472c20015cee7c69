"""Forms of the campaign pages that no ruleset owns: new campaign, resolve, options, seats."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from campaign.models import Campaign
from campaign.scenarios import available_scenarios
from rules.dice import parse_faces


class NewCampaignForm(forms.Form):
    name = forms.CharField(label="Campaign name", max_length=120)
    scenario = forms.ChoiceField(label="Scenario")
    dice_mode = forms.ChoiceField(
        label="Dice", choices=Campaign.DiceMode.choices, initial=Campaign.DiceMode.SEEDED
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.scenarios = available_scenarios()
        self.fields["scenario"].choices = [(s.key, s.name) for s in self.scenarios]


class AdvanceForm(forms.Form):
    """Close and resolve the open phase; GM-entered dice when the campaign uses them."""

    phase = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
    faces = forms.CharField(
        label="Dice faces, in the order the phase rolls them",
        required=False,
        help_text="Numbers from 1 to 6 separated by spaces or commas, e.g. 4 2 6.",
    )

    def __init__(self, *args, scripted: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.scripted = scripted
        if not scripted:
            del self.fields["faces"]

    def clean_faces(self) -> list[int]:
        try:
            return parse_faces(self.cleaned_data["faces"])
        except ValueError as error:
            raise forms.ValidationError(
                f"{error}: dice faces are whole numbers from 1 to 6, separated by spaces or commas."
            ) from None

    def dice_faces(self) -> list[int] | None:
        return self.cleaned_data.get("faces") if self.scripted else None


class OptionsForm(forms.Form):
    """The campaign's rule options (the rules page's Decisions) and its dice."""

    dice_mode = forms.ChoiceField(label="Dice", choices=Campaign.DiceMode.choices)

    def __init__(self, *args, ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        self.specs = {spec.key: spec for spec in ruleset.options}
        for spec in ruleset.options:
            decision = f"Decision {spec.decision}: " if spec.decision else ""
            self.fields[spec.key] = forms.ChoiceField(
                label=f"{decision}{spec.label}",
                choices=[(str(value), text) for value, text in spec.choices],
                help_text=spec.help,
            )

    @classmethod
    def for_campaign(cls, campaign: Campaign, data=None) -> OptionsForm:
        current = {key: str(value) for key, value in campaign.rule_options.items()}
        return cls(
            data,
            ruleset=campaign.rules,
            initial={**current, "dice_mode": campaign.dice_mode},
        )

    def options(self) -> dict:
        """The chosen values, typed as the ruleset declares them."""
        return {
            key: {str(value): value for value, _ in spec.choices}[self.cleaned_data[key]]
            for key, spec in self.specs.items()
        }


class AssignSeatForm(forms.Form):
    username = forms.CharField(
        label="User name",
        required=False,
        max_length=150,
        help_text="Leave empty to empty the seat.",
    )

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        if not name:
            return None
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(f"There is no user called “{name}”.")
        return user


class DeadlineForm(forms.Form):
    """The open phase's deadline, in the GM's time zone; empty clears it."""

    phase = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
    deadline = forms.DateTimeField(
        label="Deadline",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="Shown to every player; leave empty for no deadline.",
    )
