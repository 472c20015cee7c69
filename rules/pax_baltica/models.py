"""Pax Baltica state: nations and sides, territories and sea zones, blocks."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from rules.platform import Area, Campaign, Power


class Side(models.TextChoices):
    SWEDEN = "sweden", _("Sweden")
    COALITION = "coalition", _("Coalition")


class PbNation(models.Model):
    """A power as a Pax Baltica nation: its side, RP level and deployment areas."""

    power = models.OneToOneField(
        Power, primary_key=True, on_delete=models.CASCADE, related_name="pax_baltica"
    )
    side = models.CharField(max_length=10, choices=Side)
    rp_level = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Replacement points each recruitment (GNW-5).")
    )
    event_rp = models.SmallIntegerField(
        default=0, help_text=_("RP from events for the next recruitment phase only (GNW-12).")
    )
    deployment = models.JSONField(
        default=list, blank=True, help_text=_("Territory keys where new blocks may be placed.")
    )
    fleet_ports = models.JSONField(
        default=list, blank=True, help_text=_("Port keys where new fleets may be placed.")
    )
    forced_peace = models.BooleanField(
        default=False, help_text=_("Its capital was captured: peace is forced on it (10.2).")
    )

    class Meta:
        db_table = "campaign_pbnation"  # the table it had in the campaign app

    def __str__(self) -> str:
        return str(self.power)


class PbTerritory(models.Model):
    """A land territory's forage points, port, garrison marker and siege record."""

    area = models.OneToOneField(
        Area, primary_key=True, on_delete=models.CASCADE, related_name="pax_baltica"
    )
    forage_points = models.PositiveSmallIntegerField(default=0)
    port = models.BooleanField(default=False)
    transit = models.BooleanField(default=False, help_text=_("Lines may be traced through (1.5)."))
    in_poland = models.BooleanField(default=False, help_text=_("GNW-2's exception applies."))
    garrison = models.PositiveSmallIntegerField(
        default=0, help_text=_("Strength of the controller's garrison marker; 0: none.")
    )
    surrendered = models.BooleanField(
        default=False, help_text=_("Its garrison surrendered: its nation's RP level is −4.")
    )
    battle_winner = models.CharField(
        max_length=10,
        choices=Side,
        blank=True,
        help_text=_("The side that won a battle here this season (GNW-3)."),
    )

    class Meta:
        db_table = "campaign_pbterritory"  # the table it had in the campaign app

    def __str__(self) -> str:
        return str(self.area)


class PbSide(models.Model):
    """A side's actions: those left this season and those each season brings."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="pb_sides")
    key = models.CharField(max_length=10, choices=Side)
    sort = models.PositiveSmallIntegerField(default=0, help_text=_("Who acts first: lowest."))
    actions = models.PositiveSmallIntegerField(default=0)
    actions_per_season = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "campaign_pbside"  # the table it had in the campaign app
        ordering = ["sort", "key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="pb_side_unique"),
        ]

    def __str__(self) -> str:
        return self.get_key_display()


class Block(models.Model):
    """A wooden block: only its own side sees its name and strength."""

    class Kind(models.TextChoices):
        ARMY = "army", _("Army")
        REGIMENT = "regiment", _("Regiment")
        FLEET = "fleet", _("Fleet")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="blocks")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="blocks")
    kind = models.CharField(max_length=10, choices=Kind)
    name = models.CharField(max_length=60)
    strength = models.PositiveSmallIntegerField()
    max_strength = models.PositiveSmallIntegerField()
    rating = models.CharField(max_length=3, default="C1")
    supply_trains = models.PositiveSmallIntegerField(default=0)
    location = models.ForeignKey(
        Area,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="blocks",
        help_text=_("Empty while in the replacement pool."),
    )
    carried_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="cargo"
    )
    red_dot = models.BooleanField(default=False)
    places = models.JSONField(default=list, blank=True)
    galley = models.BooleanField(default=False)
    in_battle = models.BooleanField(default=False)
    besieging = models.BooleanField(default=False)
    nationality = models.CharField(
        max_length=30,
        blank=True,
        help_text=_(
            "When not its nation's own (a Polish block of Saxony-Poland); trains feed "
            "only regiments of their army's nationality (7.2)."
        ),
    )

    class Meta:
        db_table = "campaign_block"  # the table it had in the campaign app
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="block_name_unique"),
            models.CheckConstraint(
                condition=models.Q(strength__lte=models.F("max_strength")),
                name="block_strength_at_most_max",
            ),
        ]

    def __str__(self) -> str:
        return self.name
