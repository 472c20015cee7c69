"""Who played which power when, and how reliable each user has been (campaign/play/disorder.py,
campaign/play/replacements.py, campaign/play/reliability.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Tenure(models.Model):
    """One user's time as one power's player: from the turn they took the seat to the turn
    they left it (empty while they still play it)."""

    class Ended(models.TextChoices):
        REPLACED = "replaced", _("replaced after civil disorder")
        LEFT = "left", _("left the seat")
        FINISHED = "finished", _("played to the end")

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="tenures"
    )
    power = models.ForeignKey("campaign.Power", on_delete=models.CASCADE, related_name="tenures")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="tenures"
    )
    user_name = models.CharField(
        max_length=150, help_text=_("The player's user name as it was: kept if the user goes.")
    )
    first_turn = models.PositiveIntegerField()
    last_turn = models.PositiveIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended = models.CharField(max_length=10, choices=Ended, blank=True)

    class Meta:
        ordering = ["power__sort", "started_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["power"], condition=Q(ended_at__isnull=True), name="one_open_tenure"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_name} plays {self.power} from turn {self.first_turn}"


class Reliability(models.Model):
    """A user's record, kept by this site: the phases whose orders they owed, those they
    gave in time and those they missed, the seats they left, the seats they took over and
    the campaigns they played to the end."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="reliability",
    )
    owed = models.PositiveIntegerField(_("phases owed"), default=0)
    on_time = models.PositiveIntegerField(_("orders in on time"), default=0)
    missed = models.PositiveIntegerField(_("deadlines missed"), default=0)
    seats_left = models.PositiveIntegerField(_("seats left"), default=0)
    replaced_in = models.PositiveIntegerField(_("seats taken over"), default=0)
    finished = models.PositiveIntegerField(_("campaigns finished"), default=0)

    def __str__(self) -> str:
        return f"{self.user}'s record"

    @property
    def on_time_rate(self) -> int | None:
        """The orders in on time, in percent of the phases owed; None before any."""
        return round(100 * self.on_time / self.owed) if self.owed else None


class Turnout(models.Model):
    """What a resolved phase counted of one power whose orders it waited for
    (campaign/play/disorder.py): whether they were missed, for whom it counted them, the
    power's missed deadlines in a row before, and whether it fell into civil disorder; a
    rollback of the phase undoes exactly that."""

    phase = models.ForeignKey("campaign.Phase", on_delete=models.CASCADE, related_name="+")
    power = models.ForeignKey("campaign.Power", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    missed = models.BooleanField()
    missed_before = models.PositiveSmallIntegerField()
    fell = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["phase", "power"], name="one_turnout_per_power")
        ]

    def __str__(self) -> str:
        return f"{self.power} {'missed' if self.missed else 'in time'} in {self.phase_id}"
