"""Beacons' tables: a beacon in each area, each lord's reserve, the raids under way."""

from django.db import models

from rules.platform import Area, Campaign, Power


class Beacon(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    area = models.OneToOneField(Area, on_delete=models.CASCADE, related_name="beacon")
    lit_by = models.ForeignKey(
        Power, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"beacon of {self.area}"


class Lord(models.Model):
    """A power's reserve of wood, which its player alone (and the GM) may read."""

    power = models.OneToOneField(
        Power, primary_key=True, on_delete=models.CASCADE, related_name="lord"
    )
    wood = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"reserve of {self.power}"


class Raid(models.Model):
    """A raid that reached its beacon and waits to be settled: the first in ``position``
    waits for its defender's decision."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    raider = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+")
    face = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ("position",)

    def __str__(self) -> str:
        return f"raid of {self.raider} on {self.area}"
