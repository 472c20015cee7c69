"""Forms of the accounts and the lobby: sign-up, login, the password reset, the user's
preferences, and the lobby's settings and the GM's answers to seat requests."""

from __future__ import annotations

import re

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.exceptions import NON_FIELD_ERRORS
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign import time_zones
from campaign.core import watching
from campaign.models import Campaign, Profile
from campaign.notify import delivery, outgoing
from campaign.people import usernames
from courier import throttling


class ReminderHoursField(forms.CharField):
    """Hours before a deadline, written "24, 8, 1": whole hours from 1 to a week, at most
    REMINDERS_MOST of them; cleaned to a list, latest reminder last."""

    REMINDERS_MOST = 6
    WEEK = 7 * 24

    def prepare_value(self, value):
        return ", ".join(map(str, value)) if isinstance(value, list) else value

    def to_python(self, value) -> list[int]:
        words = [w for w in re.split(r"[\s,;]+", str(value or "").strip()) if w]
        if not all(w.isascii() and w.isdigit() and 1 <= int(w) <= self.WEEK for w in words):
            raise forms.ValidationError(
                _("Write whole hours from 1 to %(most)s, separated by commas: “24, 2”.")
                % {"most": self.WEEK}
            )
        hours = sorted({int(w) for w in words}, reverse=True)
        if len(hours) > self.REMINDERS_MOST:
            raise forms.ValidationError(
                _("At most %(count)s reminders a deadline.") % {"count": self.REMINDERS_MOST}
            )
        return hours


class ProfileForm(forms.ModelForm):
    """A user's own preferences: language, mail address, time zone, when to be reminded."""

    email = forms.EmailField(
        label=_("Mail address"),
        required=False,
        help_text=_("Every mail Courier sends you goes here. Empty: you receive none."),
    )
    reminder_hours = ReminderHoursField(
        label=_("Remind me this many hours before a deadline"),
        required=False,
        help_text=_(
            "While my orders are not marked ready, once for each: “24, 2” (the default), "
            "“8, 4, 1”; empty: never."
        ),
    )

    class Meta:
        model = Profile
        fields = ["language", "time_zone", "reminder_hours"]
        labels = {"language": _("Language"), "time_zone": _("Time zone")}
        error_messages = {
            "language": {
                "invalid_choice": _(
                    "“%(value)s” is not a language Courier speaks: pick one listed."
                )
            }
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [("", _("as the browser asks")), *settings.LANGUAGES]
        zone = self.fields["time_zone"]
        zone.choices = [("", _("as the browser tells")), *time_zones.grouped_choices()]
        zone.widget.attrs.update(
            {"data-search": _("Find a time zone"), "data-search-hint": _("a city or region")}
        )

    def save(self, commit: bool = True) -> Profile:
        """Write this form's fields only: the profile's other columns (the away period,
        the browser's language) may change meanwhile, by other requests."""
        profile = super().save(commit=False)
        if commit:
            profile.save(update_fields=self._meta.fields)
        return profile


class SignupForm(UserCreationForm):
    """A new account: user name, mail address (where the notifications go) and password."""

    email = forms.EmailField(
        label=_("Mail address"),
        max_length=254,
        help_text=_(
            "Courier mails you here when a phase opens, before a deadline and when a phase "
            "is resolved, once you have followed the link it mails you to confirm the "
            "address. You can change it, and choose what you receive, in your preferences."
        ),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str | None:
        """The name (NFKC), refused when it mixes alphabets or looks like or reads as a
        name already taken (campaign/people/usernames.py)."""
        name = super().clean_username()
        if name is None:  # taken, in this case or another: the error is set
            return None
        if usernames.mixes_scripts(name):
            raise forms.ValidationError(
                _("A user name is written in one alphabet: Latin, Cyrillic or Greek."),
                code="mixed_scripts",
            )
        if usernames.lookalike_taken(name):
            raise forms.ValidationError(
                _("This user name looks like one already taken. Choose another."),
                code="lookalike",
            )
        return usernames.normalized(name)

    def save(self, commit: bool = True):
        """The new user without a mail address: the one given waits on the profile for
        its link (account_mail.ask_confirmation), and no mail goes to it until then."""
        user = super().save(commit=False)
        user.email = ""
        if commit:
            user.save()
        return user


class RecipientsPasswordResetForm(PasswordResetForm):
    """Django's password reset, saved by the worker (account_mail.send_password_reset):
    its mail written in the language its recipient chose, not in that of whoever asked
    for it (anyone may ask, for any address), and a failure to send raised, for the
    worker to try again (Django's own only logs it)."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        with translation.override(Profile.language_of(context["user"])):
            subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
            body = loader.render_to_string(email_template_name, context).strip()
            paragraphs = [part.strip() for part in body.split("\n\n") if part.strip()]
            mail = outgoing.compose(to_email, outgoing.Letter(subject, paragraphs))
        delivery.multipart(mail).send()


class ThrottledLogin:
    """A login form that refuses, before checking anything, a client address that has
    failed too many logins lately whatever the user names (courier/throttling.py)."""

    THROTTLED = "throttled"

    def clean(self):
        if self.request is not None and throttling.client_refused(self.request):
            raise forms.ValidationError(
                gettext(
                    "Too many failed logins from your network address: logins from it are "
                    "refused for %(minutes)s minutes. No account is locked."
                ),
                code=self.THROTTLED,
                params={"minutes": throttling.CLIENT_FAILURE_WINDOW // 60},
            )
        return super().clean()

    def throttled(self) -> bool:
        return self.has_error(NON_FIELD_ERRORS, self.THROTTLED)


class LoginForm(ThrottledLogin, AuthenticationForm):
    """The site's login form, throttled per client address."""


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    """The admin's login form, throttled per client address like the site's."""


class LobbyForm(forms.ModelForm):
    """Whether the campaign's free seats are listed in the lobby, and how they are taken;
    whether anyone may watch and, in a game with hidden information, what watchers see
    (campaign/core/watching.py)."""

    class Meta:
        model = Campaign
        fields = ["lobby_open", "lobby_at_once", "lobby_watch", "watchers_see"]

    @classmethod
    def for_campaign(cls, campaign: Campaign, powers, data=None) -> LobbyForm:
        """The form for ``campaign`` (``powers``: its powers): what watchers see is asked
        only of a game with hidden information, among its powers."""
        form = (
            cls(data) if data is not None else cls(instance=campaign)
        )  # data: never the campaign's
        if campaign.rules.has_secrets:
            form.fields["watchers_see"] = forms.ChoiceField(
                label=_("Watchers see"),
                choices=watching.choices(campaign, powers),
                required=False,
                initial=campaign.watchers_see,
                help_text=_(
                    "Watchers are observers: those who watch from the lobby and those you "
                    "invite to an observer seat. Everything is shown to them once the "
                    "campaign ends."
                ),
            )
        else:
            del form.fields["watchers_see"]
        return form


class AnswerForm(forms.Form):
    """The GM's answer to a request for a seat."""

    answer = forms.ChoiceField(
        label=_("Answer"), choices=[("accept", _("Accept")), ("refuse", _("Refuse"))]
    )

    @property
    def accepts(self) -> bool:
        return self.cleaned_data["answer"] == "accept"


class DeleteAccountForm(forms.Form):
    """The deletion of one's own account (campaign/people/personal_data.py): confirmed by
    the account's password; the press kept, or erased when asked."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("To confirm that it is you who deletes the account."),
    )
    erase_press = forms.BooleanField(
        label=_("Erase my press too"),
        required=False,
        help_text=_(
            "Each message you wrote stays in its channel, its text replaced by “(erased at "
            "the author's request)”. Otherwise its text stays, under the power it was "
            "written as."
        ),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        """The account's password, of which only a few wrong tries are heard a while
        (throttling.PASSWORD_CHECK_*): a session left open does not let a stranger guess
        it here, where the login's own limits do not count."""
        password = self.cleaned_data["password"]
        tries = f"delete-account-failures:{self.user.pk}"
        if throttling.count_of(tries) >= throttling.PASSWORD_CHECK_LIMIT:
            raise forms.ValidationError(
                _("Too many wrong passwords: try again in 15 minutes."), code="throttled"
            )
        if not self.user.check_password(password):
            throttling.counted(tries, throttling.PASSWORD_CHECK_WINDOW)
            raise forms.ValidationError(
                _("This is not your password: your account was not deleted."),
                code="wrong_password",
            )
        return password
