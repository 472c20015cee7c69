"""Beacons' one table: a beacon in an area, lit by a power or not."""

from django.db import models

from campaign.models import Area, Campaign, Power


class Beacon(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    area = models.OneToOneField(Area, on_delete=models.CASCADE, related_name="beacon")
    lit_by = models.ForeignKey(
        Power, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"beacon of {self.area}"
