"""The lobby: a user's request for a free power's seat, which the GM accepts or refuses
(campaign/people/lobby.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaign.models.core import Campaign, Power


class SeatRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the GM's answer")
        ACCEPTED = "accepted", _("Accepted")
        REFUSED = "refused", _("Refused")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="seat_requests")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="seat_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_requests"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"],
                condition=Q(status="pending"),
                name="one_pending_request_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks for {self.power} ({self.status})"
