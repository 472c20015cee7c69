"""Empires in Arms state: political status, corps, revolts, guerrillas, depots, the chart."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from rules.platform import Area, Campaign, Power


class EiaPowerStatus(models.Model):
    class Zone(models.TextChoices):
        FIASCO = "Fiasco", _("Fiasco (−2)")
        INSTABILITY = "Instability", _("Instability (−1)")
        NEUTRAL = "Neutral", _("Neutral (0)")
        DOMINANT = "Dominant", _("Dominant (+1)")

    power = models.OneToOneField(
        Power, primary_key=True, on_delete=models.CASCADE, related_name="eia"
    )
    zone = models.CharField(max_length=12, choices=Zone, default=Zone.NEUTRAL)
    treasury = models.IntegerField(default=0)
    political_points = models.IntegerField(default=0)
    pays_bad_roll = models.BooleanField(
        default=True, help_text=_("Standing order: pay $d6 to stop a bad-roll rise (EIA-4).")
    )
    militia_due = models.PositiveIntegerField(default=0, help_text=_("EIA-12 militia factors."))

    class Meta:
        db_table = "campaign_eiapowerstatus"  # the table it had in the campaign app

    def __str__(self) -> str:
        return f"{self.power}: {self.zone}"


class EiaArea(models.Model):
    area = models.OneToOneField(
        Area, primary_key=True, on_delete=models.CASCADE, related_name="eia"
    )
    ceded = models.BooleanField(default=False)
    manpower = models.PositiveSmallIntegerField(default=0)
    guerrilla_value = models.PositiveSmallIntegerField(null=True, blank=True)
    islamic = models.BooleanField(default=False)
    minor_status = models.CharField(
        max_length=10,
        blank=True,
        choices=[
            ("allied", _("Allied minor")),
            ("client", _("Client state")),
            ("conquered", _("Conquered minor")),
        ],
        help_text=_("How its controller holds a minor country."),
    )

    class Meta:
        db_table = "campaign_eiaarea"  # the table it had in the campaign app

    def __str__(self) -> str:
        return str(self.area)


class NationalModifier(models.Model):
    """One cell of the Minor Country Chart: NM(power, minor)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="national_modifiers")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    value = models.SmallIntegerField()

    class Meta:
        db_table = "campaign_nationalmodifier"  # the table it had in the campaign app
        constraints = [
            models.UniqueConstraint(fields=["area", "power"], name="nm_cell_unique"),
        ]

    def __str__(self) -> str:
        return f"NM({self.power}, {self.area}) = {self.value:+d}"


class Corps(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="corps")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="corps")
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="corps")
    minor = models.ForeignKey(
        Area,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="minor_corps",
        help_text=_("The minor country whose corps this is, if not the power's own."),
    )
    name = models.CharField(max_length=60, blank=True)
    fought = models.BooleanField(default=False, help_text=_("Fought this land combat step."))
    besieged = models.BooleanField(default=False)
    besieging = models.BooleanField(default=False)

    class Meta:
        db_table = "campaign_corps"  # the table it had in the campaign app
        verbose_name_plural = "corps"
        ordering = ["power__sort", "name"]

    def __str__(self) -> str:
        return f"{self.power} corps {self.name} in {self.area}"


class Revolt(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="revolts")
    sponsor = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="sponsored_revolts")
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="revolts")
    number = models.SmallIntegerField()
    months_without_guerrillas = models.PositiveSmallIntegerField(default=0)
    capital_held_months = models.PositiveSmallIntegerField(default=0)
    active = models.BooleanField(default=True)
    end_reason = models.CharField(max_length=200, blank=True)
    conquest_choice = models.CharField(max_length=10, blank=True)
    started_turn = models.PositiveIntegerField()
    ended_turn = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        db_table = "campaign_revolt"  # the table it had in the campaign app
        constraints = [
            models.UniqueConstraint(
                fields=["area"], condition=models.Q(active=True), name="one_active_revolt_per_area"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sponsor} revolt in {self.area} ({self.number})"


class GuerrillaStack(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="guerrillas")
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="guerrillas")
    origin = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+")
    nationality = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    factors = models.PositiveSmallIntegerField()
    revolt = models.BooleanField(default=True, help_text=_("Revolt guerrillas; else Spanish."))
    besieged = models.BooleanField(default=False)

    class Meta:
        db_table = "campaign_guerrillastack"  # the table it had in the campaign app

    def __str__(self) -> str:
        return f"{self.factors} {self.nationality} guerrilla factor(s) in {self.area}"


class Depot(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="depots")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="depots")
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="depots")
    port_city = models.BooleanField(default=False)
    garrison = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "campaign_depot"  # the table it had in the campaign app

    def __str__(self) -> str:
        return f"{self.power} depot in {self.area}"


class LetDown(models.Model):
    """Revolts a power let down in a minor (EIA-1's −L)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+")
    count = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "campaign_letdown"  # the table it had in the campaign app
        constraints = [
            models.UniqueConstraint(fields=["power", "area"], name="letdown_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.power} let down {self.count} revolt(s) in {self.area}"
