"""The mail each user wants from each campaign, the reminders already sent, and the mails
received as answers (campaign/notify/outgoing.py, reminders.py, mail_replies.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MailKind(models.TextChoices):
    """The kinds of mail a user may turn off, each for one campaign."""

    YOUR_TURN = "your_turn", _("a phase opens (your turn, when your orders are awaited)")
    REMINDERS = "reminders", _("reminders before a deadline, while your orders are not ready")
    RESOLVED = "resolved", _("a phase is resolved (with your rolls)")
    PRESS = "press", _("press")
    LOBBY = "lobby", _("the lobby: requests for a seat and their answers")


class PressMail(models.TextChoices):
    """How a campaign's press reaches a user by mail."""

    EACH = "each", _("each message as it is written")
    DIGEST = "digest", _("the unread messages, gathered in one mail every few hours at most")
    OFF = "off", _("none")


class MailChoice(models.Model):
    """What mail one user wants from one campaign. Without a row, every kind is on and
    the press comes as a digest."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="mail_choices"
    )
    your_turn = models.BooleanField(MailKind.YOUR_TURN.label, default=True)
    reminders = models.BooleanField(MailKind.REMINDERS.label, default=True)
    resolved = models.BooleanField(MailKind.RESOLVED.label, default=True)
    press = models.CharField(
        MailKind.PRESS.label, max_length=8, choices=PressMail.choices, default=PressMail.DIGEST
    )
    lobby = models.BooleanField(MailKind.LOBBY.label, default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "campaign"], name="one_mail_choice_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user}'s mail from {self.campaign}"

    @classmethod
    def of(cls, user_id: int, campaign_id: int) -> MailChoice:
        """The user's choice for the campaign: the saved one, else the default (unsaved)."""
        found = cls.objects.filter(user_id=user_id, campaign_id=campaign_id).first()
        return found or cls(user_id=user_id, campaign_id=campaign_id)

    @classmethod
    def of_users(cls, campaign_id: int, user_ids) -> dict[int, MailChoice]:
        """Each user's choice for the campaign, in one query."""
        rows = cls.objects.filter(campaign_id=campaign_id, user__in=user_ids)
        saved = {choice.user_id: choice for choice in rows}
        return {pk: saved.get(pk) or cls(user_id=pk, campaign_id=campaign_id) for pk in user_ids}

    def wants(self, kind: str) -> bool:
        """Whether this kind of mail goes to the user (press: each message or a digest)."""
        value = getattr(self, MailKind(kind).value)
        return value != PressMail.OFF if kind == MailKind.PRESS else value

    def turn_off(self, kind: str) -> None:
        """Stop this kind of mail, saved at once."""
        field = MailKind(kind).value
        setattr(self, field, PressMail.OFF if kind == MailKind.PRESS else False)
        MailChoice.objects.update_or_create(  # two first saves at once: one row
            user_id=self.user_id,
            campaign_id=self.campaign_id,
            defaults={field: getattr(self, field)},
        )


def default_reminder_hours() -> list[int]:
    """The hours before a deadline a user is reminded at, until he chooses others."""
    return [24, 2]


class ReminderSent(models.Model):
    """A reminder counted for one user, phase and offset, with the deadline it was for:
    written in the same transaction as the mail's task, so that it goes exactly once,
    whatever the workers. A deadline moved so far that the offset is no longer due counts
    it again (campaign/notify/reminders.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    phase = models.ForeignKey("campaign.Phase", on_delete=models.CASCADE)
    deadline = models.DateTimeField()
    hours = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "phase", "hours"], name="one_reminder_per_offset"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.hours} h before {self.deadline}"


class ReceivedMail(models.Model):
    """A mail received as an answer, by its Message-ID (or its bytes' digest): one received
    again (a replay, a redelivery) is not acted on twice."""

    key = models.CharField(max_length=64, unique=True)
    sender = models.CharField(max_length=254)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    outcome = models.CharField(max_length=32)
    received_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.sender}: {self.outcome}"


class RefusalAnswered(models.Model):
    """The day a sender was last answered that his mail could not be acted on: at most one
    such answer a day, so that a robot that answers cannot start a loop."""

    sender = models.CharField(max_length=254)
    day = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sender", "day"], name="one_refusal_answer_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.sender} on {self.day}"
