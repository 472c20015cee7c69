"""A campaign's GMs: handing the campaign to another user, and players asking the site's
admins for a new GM when every GM has gone quiet (campaign/people/gm_team.py)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Handover(models.Model):
    """A GM offers the campaign to another user, who accepts by the link mailed to them:
    they take the offering GM's seat."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        WITHDRAWN = "withdrawn", _("withdrawn")

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="handovers"
    )
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="handovers"
    )
    token = models.CharField(max_length=43, unique=True, default=secrets.token_urlsafe)
    status = models.CharField(max_length=10, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(status="pending"),
                name="one_pending_handover",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} to {self.to_user} ({self.status})"


class NewGmRequest(models.Model):
    """A player's request to the site's admins for a new GM, for a campaign whose GMs have
    all been inactive for longer than the site allows."""

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="new_gm_requests"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_new_gm_request"),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks for a new GM of {self.campaign}"
