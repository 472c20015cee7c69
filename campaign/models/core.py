"""The campaign as every ruleset sees it: powers, seats, map, phases, orders, rolls, log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Case, F, Q, When
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules.dice import new_seed, seed_hash
from rules.engine import Ruleset, ruleset_for
from rules.translation import Name, localized


def imported_name(name: str) -> str:
    """How a person an imported archive named, but nobody confirmed as a user of this
    site, is shown: "(imported) name" (campaign/records/archive.py)."""
    return _("(imported) %(name)s") % {"name": name} if name else ""


# An open phase (not yet resolved, not waiting for a decision): the clock's indexes.
OPEN_PHASE = Q(status="open")
# An open phase's deadline; null for every other phase. The clock compares it with the
# time (readiness.due_phases) through an index on the expression, not on the column: a
# partial index's rows would be the open phases, but the planner would judge
# "deadline <= now" by the whole column, where the resolved phases' deadlines, all past,
# make it look true of nearly every row; an expression index has statistics of its own,
# those of the open phases.
OPEN_DEADLINE = Case(When(OPEN_PHASE, then=F("deadline")))
# A campaign the lobby lists whatever its seats: its GM lists its free seats or lets anyone
# watch (a power in civil disorder lists it too: the index on Power).
IN_LOBBY = Q(ended_at__isnull=True) & (Q(lobby_open=True) | Q(lobby_watch=True))
# A seat's away period that the clock has not noticed yet (nor the GM refused).
AWAY_TO_NOTICE = Q(away_from__isnull=False, away_noticed=False, away_refused=False)
# A campaign changed since the clock last looked for its due reminders: its version or a
# change of its players' reminder choices is past what the clock saw (campaign/notify/
# reminders.py).
REMINDERS_UNCHECKED = Q(reminders_checked__lt=F("version") + F("reminder_changes"))


def new_state_stamp() -> int:
    """A state version's stamp, drawn anew with each: two histories of a campaign that
    reach the same state version (one before the restore of an older backup, one after)
    never share one, so nothing kept for the one is read for the other
    (campaign/state/world_cache.py)."""
    return secrets.randbits(62)


class Campaign(models.Model):
    class DiceMode(models.TextChoices):
        SEEDED = "seeded", _("Seeded dice (verifiable)")
        SCRIPTED = "scripted", _("GM-entered dice")

    class Press(models.TextChoices):
        FULL = "full", _("Full press: public and private")
        PUBLIC = "public", _("Public press only")
        NONE = "none", _("No press between powers (gunboat)")

    class StartWhen(models.TextChoices):
        GM = "gm", _("when the GM says so")
        SEATS = "seats", _("when every seat is taken")

    class WebhookFormat(models.TextChoices):
        """What the chat a webhook posts to reads (campaign/notify/chat_formats.py)."""

        DISCORD = "discord", _("Discord (an embed)")
        SLACK = "slack", _("Slack")
        MATRIX = "matrix", _("Matrix (a hookshot webhook)")
        JSON = "json", _("JSON (Courier's own fields)")

    name = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=40)
    scenario = models.CharField(max_length=60)
    setup = models.JSONField(default=dict, blank=True, help_text=_("Scenario constants."))
    options = models.JSONField(default=dict, blank=True, help_text=_("Rule options."))
    dice_mode = models.CharField(max_length=10, choices=DiceMode, default=DiceMode.SEEDED)
    turn = models.PositiveIntegerField(default=1)
    phase = models.OneToOneField(
        "Phase", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    version = models.PositiveIntegerField(default=1, help_text=_("Bumped on every change."))
    state_version = models.PositiveIntegerField(
        default=1,
        help_text=_(
            "Bumped on every change but a player's orders: the GM's forms carry it, so a "
            "repeated or stale GM action is refused."
        ),
    )
    state_stamp = models.PositiveBigIntegerField(default=new_state_stamp, editable=False)
    reminder_changes = models.PositiveIntegerField(
        default=1,  # above reminders_checked: a campaign made or imported is looked at
        editable=False,
        help_text=_(
            "Bumped when one of its players changes what may bring a reminder forward: "
            "his reminder hours, a mail address, a device, his mail choices."
        ),
    )
    reminders_checked = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text=_(
            "The version plus the reminder changes when the clock last looked for the "
            "campaign's due reminders; lower: it looks again at its next tick."
        ),
    )
    secret = models.CharField(
        max_length=64,
        default=new_seed,
        editable=False,
        help_text=_(
            "Orders the hidden random draws; its SHA-256 is published when the campaign "
            "starts, the secret itself when it ends."
        ),
    )
    ended_at = models.DateTimeField(null=True, blank=True, editable=False)
    started_at = models.DateTimeField(
        null=True,
        blank=True,
        default=timezone.now,
        editable=False,
        help_text=_(
            "When the campaign started; empty: not yet, and no phase resolves by itself "
            "(campaign/lifecycle.py). The new-campaign form leaves it empty; a campaign "
            "made otherwise (a script's, an older archive's) has started as it is made."
        ),
    )
    start_when = models.CharField(
        max_length=10,
        choices=StartWhen,
        default=StartWhen.GM,
        help_text=_("What starts the campaign: the GM, or the last player seat taken."),
    )
    auto_resolve = models.BooleanField(
        default=True,
        help_text=_(
            "Resolve a phase as soon as every power that owes orders is ready, or at its "
            "deadline (seeded dice only: GM-entered dice need the GM)."
        ),
    )
    deadline_hours = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("Default deadline of each phase kind, in hours from its opening."),
    )
    reveal_gm_orders = models.BooleanField(
        default=True,
        help_text=_(
            "The log shows each power's orders for the GM once the phase is over; off: they "
            "stay between the GM and each power."
        ),
    )
    webhook_url = models.URLField(
        blank=True, help_text=_("Receives a JSON POST when a phase opens or resolves.")
    )
    webhook_format = models.CharField(
        _("webhook format"),
        max_length=10,
        choices=WebhookFormat,
        default=WebhookFormat.JSON,
        help_text=_("What the chat the webhook posts to reads."),
    )
    paused_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the GM paused every deadline of the campaign; empty: the clock runs."),
    )
    press = models.CharField(
        max_length=10,
        choices=Press,
        default=Press.FULL,
        help_text=_(
            "Who may write to whom (campaign/press.py): full press (the default), public "
            "press only, or none between powers (gunboat). Each power may always write to "
            "the GM, and the GM to everyone."
        ),
    )
    gm_reads_private = models.BooleanField(
        default=False,
        help_text=_("The GM reads the private press between powers (default: no)."),
    )
    lobby_open = models.BooleanField(
        _("list its free seats in the lobby"),
        default=False,
        help_text=_("Any logged-in user may ask for a free power's seat from the lobby."),
    )
    lobby_at_once = models.BooleanField(
        _("seat players from the lobby at once"),
        default=False,
        help_text=_("A seat asked for in the lobby is taken at once, without the GM's answer."),
    )
    lobby_watch = models.BooleanField(
        _("let anyone logged in watch"),
        default=False,
        help_text=_(
            "Anyone logged in may take an observer seat from the lobby. Observers read the "
            "state and the public press; of a game with hidden information, what the GM "
            "chooses below."
        ),
    )
    watchers_see = models.CharField(
        _("watchers see"),
        max_length=40,
        blank=True,
        default="",
        help_text=_(
            "In a game with hidden information, what observers see while the campaign goes "
            "on: empty, no power's hidden state (all of it once the campaign ends); a "
            "power's key, what that power's player sees (campaign/watching.py)."
        ),
    )
    disorder_after = models.PositiveSmallIntegerField(
        _("missed deadlines before civil disorder"),
        default=2,
        validators=[MaxValueValidator(20)],
        help_text=_(
            "A power whose player misses this many deadlines in a row falls into civil "
            "disorder, and its seat is offered to a new player in the lobby; 0: never."
        ),
    )
    replacements_need_gm = models.BooleanField(
        _("the GM accepts each replacement"),
        default=True,
        help_text=_(
            "A user who asks for the seat of a power in civil disorder waits for the GM's "
            "answer; off: they take it at once."
        ),
    )
    min_on_time = models.PositiveSmallIntegerField(
        _("lowest on-time rate for a seat request (%)"),
        default=0,
        validators=[MaxValueValidator(100)],
        help_text=_(
            "A user whose orders came in on time less often than this, in percent of the "
            "phases they owed, cannot ask for a seat from the lobby; 0: anyone."
        ),
    )
    extensions_per_year = models.PositiveSmallIntegerField(
        _("deadline extensions per power and year"),
        default=2,
        validators=[MaxValueValidator(20)],
        help_text=_(
            "How many times each power's player may move a deadline back in one campaign "
            "year; 0: never."
        ),
    )
    extension_hours = models.PositiveSmallIntegerField(
        _("hours each extension adds"),
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(168)],
    )
    extension_cap_hours = models.PositiveSmallIntegerField(
        _("most hours extensions add to one phase"),
        default=48,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 14)],
        help_text=_("The players' extensions never move a phase's deadline further than this."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    imports = models.JSONField(
        default=list,
        blank=True,
        editable=False,
        help_text=_(
            "What each import from an archive renewed, oldest first: the secret and the "
            "dice seeds of the phases not yet resolved (campaign/archive.py)."
        ),
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # the lobby (campaign/people/lobby.py): the campaigns whose GM lists them there
            models.Index(fields=["name", "id"], condition=IN_LOBBY, name="campaign_in_lobby"),
            # the clock (campaign/notify/reminders.py): the campaigns changed since it looked
            models.Index(
                fields=["id"], condition=REMINDERS_UNCHECKED, name="campaign_reminders_unchecked"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign:detail", args=[self.pk])

    @property
    def rules(self) -> Ruleset:
        return ruleset_for(self.ruleset)

    @property
    def rule_options(self) -> dict:
        return self.rules.options_with_defaults(self.options)

    @property
    def turn_label(self) -> str:
        """The current turn's name in the active language."""
        return localized(self.rules.turn_label(self.turn, self.setup))

    @property
    def secret_hash(self) -> str:
        """The SHA-256 of ``secret``: published from the start, so the secret that orders
        the hidden draws cannot change afterwards."""
        return seed_hash(self.secret)

    def bump_version(self, *, state: bool = True) -> None:
        """Mark the campaign as changed (cache keys, ETags) inside the caller's transaction;
        ``state`` False: only a player's orders changed, so the GM's forms stay current."""
        changes = {"version": F("version") + 1}
        if state:
            stamp = new_state_stamp()
            changes.update(state_version=F("state_version") + 1, state_stamp=stamp)
            self.state_stamp = stamp
        Campaign.objects.filter(pk=self.pk).update(**changes)
        self.version += 1
        self.state_version += state


class Power(models.Model):
    """A major power, nation or faction of one campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="powers")
    key = models.SlugField(max_length=40)
    name = models.CharField(max_length=60)
    color = models.CharField(max_length=7, default="#888888")
    sort = models.PositiveSmallIntegerField(default=0)
    absent = models.BooleanField(
        default=False,
        help_text=_("Its player is away: it owes no orders and gets its default orders."),
    )
    missed_in_row = models.PositiveSmallIntegerField(
        default=0, help_text=_("The deadlines its player has missed in a row.")
    )
    disorder_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "In civil disorder since then: it owes no orders, plays its default orders, and "
            "its seat is offered to a new player."
        ),
    )

    class Meta:
        ordering = ["sort", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="power_key_unique"),
        ]
        indexes = [
            # the lobby: the campaigns with a power in civil disorder, which wants a player
            models.Index(
                fields=["campaign"],
                condition=Q(disorder_since__isnull=False),
                name="power_in_disorder",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def display_name(self) -> Name:
        """Its name as people read it: in the active language where the catalogs hold
        the scenario's word, and as a word of the log's sentences (rules.translation.Name)."""
        return Name(self.name)

    @property
    def in_disorder(self) -> bool:
        """It is in civil disorder (campaign/play/disorder.py)."""
        return self.disorder_since is not None


class Seat(models.Model):
    """Who takes part: the GM (who may also play a power), a power's player, or an
    observer."""

    class Role(models.TextChoices):
        GM = "gm", _("Game master")
        PLAYER = "player", _("Player")
        OBSERVER = "observer", _("Observer")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="seats",
    )
    role = models.CharField(max_length=10, choices=Role, default=Role.PLAYER)
    power = models.ForeignKey(
        Power, null=True, blank=True, on_delete=models.CASCADE, related_name="seats"
    )
    invite_token = models.CharField(max_length=43, unique=True, default=secrets.token_urlsafe)
    user_placeholder = models.CharField(
        max_length=150,
        blank=True,
        help_text=_(
            "The user name an imported archive gave this seat, not confirmed as a user of "
            "this site: shown as “(imported) name” while the seat waits for its invitation."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    away_from = models.DateTimeField(null=True, blank=True)
    away_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "The player's away period: meanwhile the power owes no orders and gets its "
            "default orders and answers."
        ),
    )
    away_refused = models.BooleanField(
        default=False, help_text=_("The GM refused the away period: it does not count.")
    )
    away_noticed = models.BooleanField(
        default=False,
        help_text=_("The open phase has stopped waiting for the power since its period began."),
    )
    former_power = models.ForeignKey(
        Power,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="former_seats",
        help_text=_(
            "A replaced player's seat (an observer's): they read what they could read as "
            "this power's player until they left, and act no more."
        ),
    )
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["role", "power__sort"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"],
                condition=Q(user__isnull=False),
                name="one_seat_per_user",
            ),
            models.UniqueConstraint(
                fields=["campaign", "power"],
                condition=Q(power__isnull=False),
                name="one_seat_per_power",
            ),
            models.CheckConstraint(
                condition=Q(role="player", power__isnull=False)
                | Q(role="gm")
                | Q(role="observer", power__isnull=True),
                name="player_seat_has_power",
            ),
        ]
        indexes = [
            # the clock (scheduling.begun_away_periods): the away periods not yet noticed
            models.Index(
                fields=["away_from"], condition=AWAY_TO_NOTICE, name="seat_away_to_notice"
            ),
            # the clock's reminders: the away periods that end, after which a power owes again
            models.Index(
                fields=["away_until"], condition=Q(away_until__isnull=False), name="seat_away_until"
            ),
        ]

    def __str__(self) -> str:
        if self.user_id:
            who = self.user.get_username()
        else:
            who = imported_name(self.user_placeholder) or _("(open)")
        return f"{who}: {self.power or self.get_role_display()}"

    @property
    def is_gm(self) -> bool:
        return self.role == self.Role.GM

    AWAY_FIELDS = ("away_from", "away_until", "away_refused", "away_noticed")

    @property
    def wants_player(self) -> bool:
        """Its invitation may be taken: it has no user, or its power is in civil disorder
        and a new player may take it over (campaign/play/replacements.py)."""
        return self.user_id is None or (self.power_id is not None and self.power.in_disorder)

    def clear_away(self) -> None:
        """No away period any more (to be saved with AWAY_FIELDS)."""
        self.away_from = self.away_until = None
        self.away_refused = self.away_noticed = False

    def away_at(self, moment) -> bool:
        """Its player is away at ``moment`` (a period the GM has not refused)."""
        return (
            self.away_from is not None
            and not self.away_refused
            and self.away_from <= moment < self.away_until
        )


class Area(models.Model):
    """A map space: province, minor country, territory, sea zone or space."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="areas")
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=20)
    home_power = models.ForeignKey(
        Power, null=True, blank=True, on_delete=models.SET_NULL, related_name="home_areas"
    )
    controller = models.ForeignKey(
        Power, null=True, blank=True, on_delete=models.SET_NULL, related_name="controlled_areas"
    )
    capital = models.CharField(max_length=80, blank=True)
    x = models.FloatField(default=0)
    y = models.FloatField(default=0)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="area_key_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def display_name(self) -> Name:
        """Its name as people read it (see Power.display_name)."""
        return Name(self.name)


class Adjacency(models.Model):
    class Kind(models.TextChoices):
        LAND = "land", _("Land")
        PASS = "pass", _("Mountain pass")
        STRAIT = "strait", _("Strait")
        SEA = "sea", _("Sea")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="adjacencies")
    a = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Area, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.LAND)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["a", "b", "kind"], name="adjacency_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.a} – {self.b} ({self.kind})"


class PowerRelation(models.Model):
    """War or alliance between two powers (stored once, lower id first)."""

    class Kind(models.TextChoices):
        WAR = "war", _("At war")
        ALLIANCE = "alliance", _("Allied")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="relations")
    a = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="one_relation_per_pair"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="relation_pair_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.a} – {self.b}: {self.get_kind_display()}"


class Phase(models.Model):
    """One phase of one turn, open for orders until it is resolved."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        WAITING = "waiting", _("Waiting for a decision")
        RESOLVED = "resolved", _("Resolved")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="phases")
    turn = models.PositiveIntegerField()
    position = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=40)
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    deadline = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seed = models.CharField(max_length=64, blank=True)
    seed_hash = models.CharField(max_length=64, blank=True)
    dice_context = models.CharField(
        max_length=120, blank=True, help_text=_("What each die's HMAC is computed over, with n.")
    )
    paused_remaining = models.DurationField(
        null=True, blank=True, help_text=_("Paused: the time that was left before the deadline.")
    )
    failure = models.TextField(
        blank=True, help_text=_("Why the last automatic resolution failed, until one succeeds.")
    )
    owing = models.JSONField(
        null=True,
        blank=True,
        help_text=_(
            "The keys of the powers with something to order in it, as the state stood when "
            "it opened (or was last edited); empty: every power it takes orders from."
        ),
    )
    gm_stopped_playing = models.BooleanField(
        default=False,
        help_text=_(
            "The GM stopped playing a power while it was open: the GM has read every order "
            "of it since, so nobody is seated as a power that acts in it (campaign/sealing.py)."
        ),
    )

    class Meta:
        ordering = ["turn", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "turn", "position"], name="phase_position_unique"
            ),
        ]
        # The clock reads open phases only, not the resolved ones, a campaign's whole
        # history (readiness.due_phases).
        indexes = [models.Index(OPEN_DEADLINE, name="phase_open_deadline")]

    def __str__(self) -> str:
        campaign = self.campaign
        month = localized(campaign.rules.turn_label(self.turn, campaign.setup))
        return f"{campaign.rules.phase(self.key).name} ({month})"

    @property
    def is_open(self) -> bool:
        return self.status != self.Status.RESOLVED

    def waits_for(self, spec, power_key: str) -> bool:
        """Whether it waits for this power's orders while its player is there (``spec``:
        its PhaseSpec): it takes orders from it, and the power has something to order."""
        owing = self.owing is None or power_key in self.owing
        return spec.takes_orders_from(power_key) and owing

    @staticmethod
    def context_for(campaign_id: int, turn: int, position: int, key: str) -> str:
        """The dice context a phase is given when it opens (kept with it, so that an
        imported copy of the campaign still verifies and replays its rolls)."""
        return f"{campaign_id}/{turn}/{position}/{key}"


class Order(models.Model):
    """A power's orders for a phase: a draft until marked ready, editable while open."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="orders")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="orders")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="orders")
    payload = models.JSONField(default=dict)
    ready = models.BooleanField(default=False)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["phase", "power"], name="one_order_per_power"),
        ]

    def __str__(self) -> str:
        return f"{self.power} orders ({'ready' if self.ready else 'draft'})"


class RollRecord(models.Model):
    """A die roll as made: purpose, faces, labelled modifiers, total, outcome."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="rolls")
    index = models.PositiveIntegerField(help_text=_("Index of the first die in the phase."))
    rule = models.CharField(max_length=20)
    purpose = models.CharField(max_length=200)
    power = models.ForeignKey(Power, null=True, on_delete=models.SET_NULL, related_name="+")
    area = models.ForeignKey(Area, null=True, on_delete=models.SET_NULL, related_name="+")
    faces = models.JSONField(default=list)
    modifiers = models.JSONField(default=list, help_text=_("[label, value] pairs."))
    total = models.IntegerField()
    outcome = models.CharField(max_length=300)
    explanation = models.TextField()
    purpose_message = models.JSONField(
        null=True, blank=True, help_text=_("The purpose as a message (rules/text.py); null: as is.")
    )
    explanation_message = models.JSONField(
        null=True, blank=True, help_text=_("The explanation as a message; null: as is.")
    )

    class Meta:
        ordering = ["phase", "index"]

    def __str__(self) -> str:
        return f"{self.rule} {self.purpose}: {self.explanation}"


class Event(models.Model):
    """A line of the campaign log."""

    class Kind(models.TextChoices):
        ROLL = "roll", _("Roll")
        RULE = "rule", _("Rule")
        ORDER = "order", _("Orders")
        GM = "gm", _("GM edit")
        PHASE = "phase", _("Phase")
        SEAT = "seat", _("Seat")

    # indexed with the id (Meta.indexes): a second index of its own would only slow writes
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    phase = models.ForeignKey(Phase, null=True, on_delete=models.SET_NULL, related_name="events")
    turn = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind)
    rule = models.CharField(max_length=20, blank=True)
    text = models.TextField()
    audience = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Power keys who read the full text (with the GM and observers); empty: all."),
    )
    redacted = models.TextField(
        blank=True, help_text=_("What the other players read instead; empty: nothing.")
    )
    message = models.JSONField(
        null=True,
        blank=True,
        help_text=_("The text as each reader's language says it (rules/text.py); null: as is."),
    )
    redacted_message = models.JSONField(
        null=True, blank=True, help_text=_("The redacted text as a message; null: as is.")
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_placeholder = models.CharField(
        max_length=150,
        blank=True,
        db_default="",  # a phase's log lines are inserted without it (campaign/state/json_rows.py)
        help_text=_("The actor's user name in an imported archive, not confirmed here."),
    )
    power = models.ForeignKey(
        Power, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    roll = models.OneToOneField(RollRecord, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["campaign", "-id"])]

    def __str__(self) -> str:
        return self.text

    @property
    def actor_label(self) -> str:
        """Who did it, as the log shows it: the user, "(imported) name", or nobody."""
        if self.actor_id:
            return self.actor.get_username()
        return imported_name(self.actor_placeholder)
