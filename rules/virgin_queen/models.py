"""Virgin Queen state: spaces, units, leaders, struggle zones, espionage markers, and
the procedure under way while it waits for a power's decision."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from rules.platform import Area, Campaign, Phase, Power


class Religion(models.TextChoices):
    CATHOLIC = "catholic", _("Catholic")
    PROTESTANT = "protestant", _("Protestant")


class VqPower(models.Model):
    """A power's religion for the procedures and its espionage markers (VQ-3)."""

    power = models.OneToOneField(
        Power, primary_key=True, on_delete=models.CASCADE, related_name="virgin_queen"
    )
    catholic = models.BooleanField(
        default=False, help_text=_("Its regulars and naval units are Catholic units.")
    )
    informant = models.PositiveSmallIntegerField(default=0)
    assassination_used = models.PositiveSmallIntegerField(default=0)
    cipher_key = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "campaign_vqpower"  # the table it had in the campaign app

    def __str__(self) -> str:
        return str(self.power)


class VqZone(models.Model):
    """A religious struggle zone: the Protestant's capital there and its counter mix."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="vq_zones")
    key = models.SlugField(max_length=30)
    name = models.CharField(max_length=60)
    capital = models.ForeignKey(
        Area,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The Protestant's capital for this zone."),
    )
    capital_on_turn_track = models.BooleanField(
        default=False, help_text=_("Captured earlier this turn: no new capital (VQ-2 step 7).")
    )
    regulars_available = models.PositiveSmallIntegerField(
        default=0, help_text=_("Protestant regulars left in the counter mix (VQ-2 step 5).")
    )

    class Meta:
        db_table = "campaign_vqzone"  # the table it had in the campaign app
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="vq_zone_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class VqSpace(models.Model):
    area = models.OneToOneField(
        Area, primary_key=True, on_delete=models.CASCADE, related_name="virgin_queen"
    )
    zone = models.SlugField(max_length=30, blank=True)
    religion = models.CharField(max_length=10, choices=Religion, default=Religion.CATHOLIC)
    unrest = models.BooleanField(default=False)
    fortified = models.BooleanField(default=False)
    key_space = models.BooleanField(default=False)
    port = models.BooleanField(default=False)
    protestant_home = models.BooleanField(default=False)
    besieged = models.BooleanField(default=False)
    capital_of = models.ForeignKey(
        Power, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        db_table = "campaign_vqspace"  # the table it had in the campaign app

    def __str__(self) -> str:
        return str(self.area)


class VqUnits(models.Model):
    """A stack of one power's units of one kind in one space."""

    class Kind(models.TextChoices):
        REGULAR = "regular", _("Regular")
        MERCENARY = "mercenary", _("Mercenary")
        NAVAL = "naval", _("Naval")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="vq_units")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind)
    area = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="vq_units")
    count = models.PositiveSmallIntegerField()

    class Meta:
        db_table = "campaign_vqunits"  # the table it had in the campaign app
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["power", "kind", "area"], name="vq_units_stack"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.power} {self.kind} in {self.area}"


class VqLeader(models.Model):
    class Kind(models.TextChoices):
        MILITARY = "military", _("Military")
        NAVAL = "naval", _("Naval")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="vq_leaders")
    name = models.CharField(max_length=60)
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.MILITARY)
    area = models.ForeignKey(
        Area,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("Empty while off the map."),
    )
    zone = models.SlugField(max_length=30, blank=True)
    can_enter = models.BooleanField(default=False, help_text=_("May enter play now."))

    class Meta:
        db_table = "campaign_vqleader"  # the table it had in the campaign app
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name


class VqPending(models.Model):
    """A conversion or revolt under way, waiting for one power's decision."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="vq_pending")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12)
    stage = models.CharField(max_length=20)
    waiting_for = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    data = models.JSONField(default=dict)
    since = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "campaign_vqpending"  # the table it had in the campaign app

    def __str__(self) -> str:
        return f"{self.kind} · {self.stage}: waiting for {self.waiting_for}"
