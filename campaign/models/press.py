"""Press: what the powers and the GM write to each other in a campaign (campaign/press/press.py).

A channel is a set of powers: the public channel (no members: everyone seated reads it),
a power's channel with the GM (that power alone), or a private channel between two or
more powers. Its ``key`` names the set ("public", "gm-france", "france+prussia", the
power keys in order), so the same powers always meet in the same channel.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaign.models.core import Campaign, Phase, Power


class Channel(models.Model):
    class Kind(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private")
        GM = "gm", _("With the GM")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="channels")
    kind = models.CharField(max_length=10, choices=Kind)
    key = models.CharField(
        max_length=800,
        help_text=_("The member powers' keys: one channel per campaign and set of powers."),
    )
    members = models.ManyToManyField(Power, blank=True, related_name="channels")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="channel_per_member_set"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign}: {self.key}"


class Message(models.Model):
    """One message, as its author's power (null: the GM) wrote it, in a turn and phase."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="messages", db_index=False
    )
    channel = models.ForeignKey(
        Channel, on_delete=models.CASCADE, related_name="messages", db_index=False
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    author_placeholder = models.CharField(
        max_length=150,
        blank=True,
        help_text=_("The author's user name in an imported archive, not confirmed here."),
    )
    power = models.ForeignKey(
        Power,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text=_("The power it was written as; empty: the GM."),
    )
    turn = models.PositiveIntegerField()
    phase = models.ForeignKey(
        Phase, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [
            models.Index(fields=["channel", "id"], name="message_channel_id"),
            models.Index(fields=["campaign", "id"], name="message_campaign_id"),
            models.Index(fields=["campaign", "created_at"], name="message_campaign_created"),
        ]

    def __str__(self) -> str:
        return self.text[:80]


class ReadMarker(models.Model):
    """How far a user has read a channel: the newest message id they have seen."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel = models.ForeignKey(Channel, on_delete=models.CASCADE, related_name="markers")
    last_read = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "channel"], name="one_marker_per_channel"),
        ]

    def __str__(self) -> str:
        return f"{self.user} read {self.channel} up to {self.last_read}"
