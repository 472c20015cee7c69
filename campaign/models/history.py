"""A campaign's history as data: the state each phase opened with, the decisions
answered while a phase was under way, and the inputs that changed the state outside a
resolution (campaign/state/history.py takes and browses, campaign/records/rollback.py rolls back,
campaign/records/replay.py replays)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaign.models.core import Campaign, Phase


class PhaseSnapshot(models.Model):
    """The game state as it was when a phase opened, and what a rollback of the phase
    needs: the newest log line and roll then, and, once its resolution starts, the newest
    log line before it and, where it was not the opening state (the GM edited the state,
    or a player changed a standing order, meanwhile), the state it resolved from. States
    are raw (campaign/state/snapshots.py: ``decode`` gives them as
    ``archive.state_of(ids=True)``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="snapshots")
    phase = models.OneToOneField(Phase, on_delete=models.CASCADE, related_name="snapshot")
    state = models.JSONField(help_text=_("The raw state when the phase opened."))
    state_version = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "The campaign's state version the opening state is of: while the campaign is "
            "at it, the phase resolves from its opening state."
        ),
    )
    event_id = models.PositiveBigIntegerField(
        default=0, help_text=_("The campaign's newest log line once the phase was open.")
    )
    roll_id = models.PositiveBigIntegerField(
        default=0, help_text=_("The campaign's newest roll once the phase was open.")
    )
    resolution_event_id = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text=_("The newest log line when its resolution started; null: not started."),
    )
    before = models.JSONField(
        null=True,
        blank=True,
        help_text=_(
            "The raw state the phase resolved from; null: not started, or its opening state."
        ),
    )
    options = models.JSONField(
        null=True, blank=True, help_text=_("The rule options the phase resolved with.")
    )
    dice_mode = models.CharField(
        max_length=10, blank=True, help_text=_("The dice mode the phase resolved with.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["phase__turn", "phase__position"]

    def __str__(self) -> str:
        return f"Snapshot of phase #{self.phase_id}"


class DecisionRecord(models.Model):
    """One answer to a decision a procedure waited for, as it was accepted, in order: a
    replay feeds them back, a rollback of the phase removes them."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="decisions")
    power = models.CharField(
        max_length=40, blank=True, help_text=_("The answering seat's power key; empty: none.")
    )
    as_gm = models.BooleanField(default=False)
    answer = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Decision {self.pk} of phase #{self.phase_id}"


class InputRecord(models.Model):
    """An input given outside the orders that changed the state outside a resolution (a
    player's standing order), in order: what it changed, as ``changes`` (see
    ``campaign.state.history.record_input``), so that a replay applies it as it was made."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="inputs")
    kind = models.CharField(max_length=40, help_text=_("The ruleset's name for the input."))
    power = models.CharField(
        max_length=40, blank=True, help_text=_("The giving seat's power key; empty: none.")
    )
    changes = models.JSONField(
        default=list, help_text=_("The state rows it changed: table, row and values.")
    )
    answers = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "The answers to the phase's decisions given before it; null: given while the "
            "phase was open."
        ),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"Input {self.pk} ({self.kind}) of phase #{self.phase_id}"
