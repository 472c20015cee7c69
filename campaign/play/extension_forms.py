"""The forms of the deadline extensions (campaign/play/extensions.py): the player's click, and
the GM's rules."""

from __future__ import annotations

from django import forms

from campaign.errors import reason_for
from campaign.models import Campaign
from campaign.play.extensions import RULE_FIELDS, check_cap


class TakeExtensionForm(forms.Form):
    """One extension of the open phase, from the page that showed its deadline."""

    phase = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
    seen_deadline = forms.DateTimeField(widget=forms.HiddenInput)


class ExtensionRulesForm(forms.ModelForm):
    """How many extensions each power has per campaign year, the hours of each, and the
    most hours the players' extensions add to one phase (the model's ranges)."""

    class Meta:
        model = Campaign
        fields = list(RULE_FIELDS)

    @classmethod
    def for_campaign(cls, campaign: Campaign, data=None) -> ExtensionRulesForm:
        """The form as the campaign stands, or bound to ``data`` (never the campaign's)."""
        return cls(data) if data is not None else cls(instance=campaign)

    def clean(self):
        cleaned = super().clean()
        hours, cap = cleaned.get("extension_hours"), cleaned.get("extension_cap_hours")
        if hours is not None and cap is not None:
            refusal = reason_for(check_cap, hours, cap)
            if refusal:
                raise forms.ValidationError(refusal, code="invalid")
        return cleaned
