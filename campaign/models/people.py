"""What each user chooses for themselves: language, time zone and when to be reminded
(what mail each campaign sends them: campaign/models/mail.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaign.models.mail import default_reminder_hours
from campaign.time_zones import TIME_ZONES


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="profile"
    )
    language = models.CharField(
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("Empty: the language the browser asks for."),
    )
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        choices=[(tz, tz) for tz in TIME_ZONES],
        help_text=_("Empty: the browser's time zone."),
    )
    # What the user's browser last said, for the mail of a user who chose neither: written
    # in the language and time zone he reads the site in (campaign/middleware.py).
    browser_language = models.CharField(max_length=8, blank=True, editable=False)
    browser_time_zone = models.CharField(max_length=64, blank=True, editable=False)
    reminder_hours = models.JSONField(
        _("remind me this many hours before a deadline"),
        default=default_reminder_hours,
        blank=True,
        help_text=_("While my orders are not marked ready; each campaign may turn them off."),
    )
    away_from = models.DateTimeField(_("away from"), null=True, blank=True)
    away_until = models.DateTimeField(
        _("away until"),
        null=True,
        blank=True,
        help_text=_("Applies to every campaign I sit in; each GM may refuse it for theirs."),
    )
    press_digest_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text=_("The press written up to this moment has been mailed in a digest."),
    )
    # The user's mail address (User.email) is only ever one its owner confirmed by the
    # link mailed to it (or one an administrator set), so that every mail, whoever sends
    # it, goes to a confirmed address. An address given at sign-up or in the preferences
    # waits here for its link (campaign/people/account_mail.py).
    unconfirmed_email = models.EmailField(
        _("mail address waiting for confirmation"),
        blank=True,
        editable=False,
        help_text=_("Mail goes to it once its owner follows the link mailed to it."),
    )

    def __str__(self) -> str:
        return f"{self.user}'s preferences"

    @staticmethod
    def address_taken(address: str, user=None) -> bool:
        """Whether an account other than ``user`` has ``address`` (in any case) as its mail
        address. An address waiting for confirmation takes nothing, so that nobody can
        keep an address from its owner by giving it first."""
        others = get_user_model().objects.filter(email__iexact=address.strip())
        return others.exclude(pk=getattr(user, "pk", None)).exists()

    @classmethod
    def language_of(cls, user) -> str:
        """The language to write to ``user`` in, whoever made the mail: their choice, else
        their browser's, else the site's."""
        return cls.reading_of(user)[0]

    @classmethod
    def reading_of(cls, user) -> tuple[str, str]:
        """The language and time zone a mail to ``user`` is written in: their choice, else
        what their browser last said, else the site's language and UTC."""
        found = cls.objects.filter(user=user).first()
        if found is None:
            return settings.LANGUAGE_CODE, "UTC"
        language = found.language or found.browser_language or settings.LANGUAGE_CODE
        return language, found.time_zone or found.browser_time_zone or "UTC"
