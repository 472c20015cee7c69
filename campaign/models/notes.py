"""Each player's and GM's private notes on a campaign (campaign/press/notes.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Note(models.Model):
    """One user's note on one campaign (``phase`` empty) or on one of its phases: read
    by that user alone."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    phase = models.ForeignKey(
        "campaign.Phase", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    text = models.TextField(max_length=20000)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["phase_id", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"],
                condition=Q(phase__isnull=True),
                name="one_campaign_note_per_user",
            ),
            models.UniqueConstraint(fields=["user", "phase"], name="one_phase_note_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user}'s note on {self.campaign}"
