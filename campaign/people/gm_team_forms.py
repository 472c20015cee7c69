"""The GM team's forms (campaign/people/gm_team.py): a user named to become a GM or to take the
campaign over, and the invited user's answer to a handover."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _


class GmUserForm(forms.Form):
    """A user of the site, by user name."""

    username = forms.CharField(label=_("User name"), max_length=150)

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name, is_active=True).first()
        if user is None:
            raise forms.ValidationError(
                _("There is no user called “%(name)s”."), code="unknown", params={"name": name}
            )
        return user


class HandoverAnswerForm(forms.Form):
    """Accept or decline the offer of a campaign."""

    ACCEPT, DECLINE = "accept", "decline"
    answer = forms.ChoiceField(choices=[(ACCEPT, _("Accept")), (DECLINE, _("Decline"))])

    @property
    def accepts(self) -> bool:
        return self.cleaned_data["answer"] == self.ACCEPT
