"""The deadline extensions each power's player takes from its budget
(campaign/play/extensions.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Extension(models.Model):
    """One extension: the open phase's deadline moved by ``hours`` for everyone, taken
    from the budget ``power`` has for the campaign year ``year``."""

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="extensions"
    )
    phase = models.ForeignKey("campaign.Phase", on_delete=models.CASCADE, related_name="extensions")
    power = models.ForeignKey("campaign.Power", on_delete=models.CASCADE, related_name="extensions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    year = models.IntegerField()
    hours = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["power", "year"])]

    def __str__(self) -> str:
        return f"{self.power} +{self.hours} h"
