"""Forms of the pages of play: a new campaign, resolving, options, seats, the GM's
schedule and deadlines, away periods, civil disorder and the rules for missing players."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign.errors import reason_for
from campaign.models import Campaign, Profile, Seat
from campaign.play import away_everywhere
from campaign.play.scenarios import available_scenarios
from campaign.play.scheduling import (
    AWAY_MAX_DAYS,
    HOURS_RANGE,
    STANDARD_PACE,
    check_away,
    check_hours,
    pace_choices,
    pace_hours,
)
from rules.dice import parse_faces
from rules.engine import registry


class NewCampaignForm(forms.Form):
    name = forms.CharField(label=_("Campaign name"), max_length=120)
    scenario = forms.ChoiceField(label=_("Scenario"))
    dice_mode = forms.ChoiceField(
        label=_("Dice"), choices=Campaign.DiceMode.choices, initial=Campaign.DiceMode.SEEDED
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        initial=STANDARD_PACE,
        required=False,  # not sent: the standard pace (clean_pace)
        help_text=_(
            "The default deadline of each phase: a phase that takes orders gets the first, "
            "a GM step (a phase without orders) the second. You can change each phase's in "
            "the schedule on the GM dashboard."
        ),
        error_messages={
            "invalid_choice": _("“%(value)s” is not a pace Courier offers: pick one listed.")
        },
    )
    orders_hours = forms.IntegerField(
        label=_("Hours for a phase that takes orders"),
        required=False,
        help_text=_("Leave empty to take the pace's."),
    )
    gm_hours = forms.IntegerField(
        label=_("Hours for a GM step"),
        required=False,
        help_text=_("Leave empty to take the pace's."),
    )
    start_when = forms.ChoiceField(
        label=_("The campaign starts"),
        choices=Campaign.StartWhen.choices,
        initial=Campaign.StartWhen.GM,
        required=False,  # not sent: when the GM says so (clean_start_when)
        help_text=_(
            "Until it starts, players take their seats and may give orders, but no phase "
            "resolves by itself and the first deadline does not run."
        ),
        error_messages={"invalid_choice": _("“%(value)s” is not a way to start: pick one listed.")},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.scenarios = available_scenarios()
        self.fields["scenario"].choices = [(s.key, s.name) for s in self.scenarios]
        self.fields["pace"].choices = pace_choices()
        for name in ("orders_hours", "gm_hours"):  # the range: clean_…, one message
            self.fields[name].widget.attrs.update(min=HOURS_RANGE[0], max=HOURS_RANGE[1])

    def clean_pace(self) -> str:
        return self.cleaned_data["pace"] or STANDARD_PACE

    def clean_start_when(self) -> str:
        return self.cleaned_data["start_when"] or Campaign.StartWhen.GM

    def _hours(self, name: str) -> int | None:
        hours = self.cleaned_data.get(name)
        refusal = None if hours is None else reason_for(check_hours, hours)
        if refusal:
            raise forms.ValidationError(refusal, code="range")
        return hours

    def clean_orders_hours(self) -> int | None:
        return self._hours("orders_hours")

    def clean_gm_hours(self) -> int | None:
        return self._hours("gm_hours")

    def deadline_hours(self) -> dict[str, int]:
        """The new campaign's default deadline of each phase kind, by its scenario's
        ruleset (scheduling.pace_hours)."""
        ruleset = next(s.ruleset for s in self.scenarios if s.key == self.cleaned_data["scenario"])
        return pace_hours(
            registry()[ruleset],
            self.cleaned_data["pace"],
            orders_hours=self.cleaned_data["orders_hours"],
            gm_hours=self.cleaned_data["gm_hours"],
        )


class StateVersionForm(forms.Form):
    """The campaign's state version a GM form was shown at (changes.expecting_state)."""

    state_version = forms.IntegerField(
        label="",
        widget=forms.HiddenInput,
        min_value=1,
        max_value=2**31 - 1,
        error_messages=dict.fromkeys(
            ["required", "invalid", "min_value", "max_value"],
            _("This form is out of date: reload the page and try again."),
        ),
    )


class AdvanceForm(forms.Form):
    """Close and resolve the open phase; GM-entered dice when the campaign uses them."""

    phase = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
    faces = forms.CharField(
        label=_("Dice faces, in the order the phase rolls them"),
        required=False,
        help_text=_("Numbers from 1 to 6 separated by spaces or commas, e.g. 4 2 6."),
    )

    def __init__(self, *args, scripted: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.scripted = scripted
        if not scripted:
            del self.fields["faces"]

    def clean_faces(self) -> list[int]:
        try:
            return parse_faces(self.cleaned_data["faces"])
        except ValueError as error:
            raise forms.ValidationError(
                _(
                    "%(error)s: dice faces are whole numbers from 1 to 6, "
                    "separated by spaces or commas."
                ),
                code="invalid",
                params={"error": error},
            ) from None

    def dice_faces(self) -> list[int] | None:
        return self.cleaned_data.get("faces") if self.scripted else None


class OptionsForm(forms.Form):
    """The campaign's rule options (the rules page's Decisions) and its dice."""

    dice_mode = forms.ChoiceField(label=_("Dice"), choices=Campaign.DiceMode.choices)

    def __init__(self, *args, ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        self.specs = {spec.key: spec for spec in ruleset.options}
        for spec in ruleset.options:
            self.fields[spec.key] = forms.ChoiceField(
                label=_option_label(spec),
                choices=[(str(value), text) for value, text in spec.choices],
                help_text=spec.help,
            )

    @classmethod
    def for_campaign(cls, campaign: Campaign, data=None) -> OptionsForm:
        current = {key: str(value) for key, value in campaign.rule_options.items()}
        return cls(
            data,
            ruleset=campaign.rules,
            initial={**current, "dice_mode": campaign.dice_mode},
        )

    def options(self) -> dict:
        """The chosen values, typed as the ruleset declares them."""
        return {
            key: {str(value): value for value, _ in spec.choices}[self.cleaned_data[key]]
            for key, spec in self.specs.items()
        }


def _option_label(spec) -> str:
    if spec.decision:
        return gettext("Decision %(decision)s: %(option)s") % {
            "decision": spec.decision,
            "option": spec.label,
        }
    return spec.label


class AssignSeatForm(forms.Form):
    username = forms.CharField(
        label=_("User name"),
        required=False,
        max_length=150,
        help_text=_("Leave empty to empty the seat."),
    )

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        if not name:
            return None
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(
                _("There is no user called “%(name)s”."), code="unknown", params={"name": name}
            )
        return user


def datetime_local() -> forms.DateTimeInput:
    """A date and time picker: its value in the one format such an input reads, not the
    reader's language's (a Greek or Russian date left the picker empty)."""
    return forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class DeadlineForm(forms.Form):
    """The open phase's deadline, in the GM's time zone; empty clears it. Its ids are its
    own (id_deadline-…): the dashboard's close-and-resolve form has a phase field too."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_deadline-%s")
        super().__init__(*args, **kwargs)

    phase = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
    deadline = forms.DateTimeField(
        label=_("Deadline"),
        required=False,
        widget=datetime_local(),
        help_text=_("Shown to every player; leave empty for no deadline."),
    )


class ClockForm(forms.Form):
    """Extend, pause or resume the open phase's deadline."""

    ACTIONS = (("extend", _("Extend")), ("pause", _("Pause")), ("resume", _("Resume")))
    phase = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**62)
    action = forms.ChoiceField(choices=ACTIONS, widget=forms.HiddenInput)
    hours = forms.IntegerField(label=_("Hours"), min_value=1, max_value=24 * 14, required=False)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("action") == "extend" and not cleaned.get("hours"):
            raise forms.ValidationError(
                _("Say by how many hours (1 to 336) to extend it."), code="required"
            )
        return cleaned


class ScheduleForm(forms.Form):
    """Automatic resolution, the default deadline of each phase kind, the webhook."""

    auto_resolve = forms.BooleanField(
        label=_("Resolve a phase as soon as everyone is ready, or at its deadline"),
        required=False,
        help_text=_("Seeded dice only: with GM-entered dice the GM always resolves."),
    )
    webhook_url = forms.URLField(
        label=_("Webhook URL"),
        required=False,
        assume_scheme="https",
        help_text=_(
            "Receives the news when a phase opens or resolves: a Discord, Slack or Matrix "
            "(hookshot) webhook, or your own service."
        ),
    )
    webhook_format = forms.ChoiceField(
        label=_("Webhook format"),
        choices=Campaign.WebhookFormat.choices,
        required=False,  # not sent: the format stays as it is
        help_text=_("What the chat at the webhook's end reads."),
    )
    paused = forms.BooleanField(
        label=_("Pause every deadline"),
        required=False,
        help_text=_(
            "The clock stops for the whole campaign: phases that open meanwhile keep the "
            "time the schedule gives them, and resuming gives the open phase the time it "
            "had left."
        ),
    )

    apply_to_open = forms.BooleanField(
        label=_("Also set the open phase's deadline from this schedule"),
        required=False,
        initial=False,  # a deadline the GM set or extended stays unless asked
        help_text=_(
            "Its kind's hours from when it opened (from now, if that moment has passed). "
            "Unticked, the open phase keeps its deadline and the schedule applies from the "
            "next phase."
        ),
    )

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        kinds = {spec.schedule_key: spec.schedule_name for spec in campaign.rules.phases}
        self.phase_keys = list(kinds)
        for key, name in kinds.items():
            self.fields[f"hours_{key}"] = forms.IntegerField(
                label=gettext("Deadline of %(phase)s (hours after it opens)") % {"phase": name},
                min_value=HOURS_RANGE[0],
                max_value=HOURS_RANGE[1],
                required=False,
            )
        self.fields["apply_to_open"] = self.fields.pop("apply_to_open")  # after the hours

    @classmethod
    def for_campaign(cls, campaign: Campaign, data=None) -> ScheduleForm:
        initial = {"auto_resolve": campaign.auto_resolve, "webhook_url": campaign.webhook_url}
        initial["webhook_format"] = campaign.webhook_format
        initial["paused"] = campaign.paused_at is not None
        initial |= {f"hours_{k}": v for k, v in campaign.deadline_hours.items()}
        return cls(data, campaign=campaign, initial=initial)

    def deadline_hours(self) -> dict[str, int]:
        return {
            key: self.cleaned_data[f"hours_{key}"]
            for key in self.phase_keys
            if self.cleaned_data.get(f"hours_{key}")
        }


class AbsentForm(forms.Form):
    absent = forms.BooleanField(required=False)


class DisorderForm(forms.Form):
    """Into civil disorder (checked) or out of it."""

    disorder = forms.BooleanField(required=False)


class AwayForm(forms.Form):
    """A player's away period, in the player's time zone. Each field's hint is drawn under
    that field (templates/campaign/away.html#fields): the start may be left empty, the
    end may not."""

    template_name = "campaign/away.html#fields"

    start = forms.DateTimeField(
        label=_("Away from"),
        required=False,
        widget=datetime_local(),
        help_text=_("Optional: leave it empty to be away from now."),
    )
    end = forms.DateTimeField(label=_("Until"), widget=datetime_local())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["end"].help_text = gettext(
            "Required: at most %(days)s days after the start."
        ) % {"days": AWAY_MAX_DAYS}

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("end") is not None:
            refusal = reason_for(self.check, cleaned.get("start"), cleaned["end"], timezone.now())
            if refusal:
                raise forms.ValidationError(refusal, code="invalid")
        return cleaned

    def check(self, start, end, now) -> None:
        """ServiceError saying why the period may not be saved; an empty start is now."""
        check_away(start or now, end, now)


class PlaysForm(forms.Form):
    """The power the GM also plays (among those without a player), or none."""

    power = forms.ChoiceField(
        label=_("The GM also plays"),
        required=False,
        error_messages={
            "invalid_choice": _(
                "“%(value)s” is not a power without a player: empty its seat first."
            )
        },
    )

    @classmethod
    def for_campaign(cls, campaign: Campaign, data=None) -> PlaysForm:
        form = cls(data)
        seats = campaign.seats.select_related("power").exclude(power=None)
        playing = next((s.power for s in seats if s.role == Seat.Role.GM), None)
        free = [s.power for s in seats if s.role == Seat.Role.PLAYER and s.user_id is None]
        form.fields["power"].choices = [("", gettext("no power"))] + [
            (p.key, p.display_name)
            for p in sorted([*free, *([playing] if playing else [])], key=lambda p: p.sort)
        ]
        form.initial = {"power": playing.key if playing else ""}
        return form


class AwayEverywhereForm(AwayForm):
    """The user's away period for every campaign (campaign/play/away_everywhere.py), in the
    user's time zone: shown as saved, so that saving it again keeps it."""

    def __init__(self, *args, profile: Profile, **kwargs):
        self.profile = profile
        period = away_everywhere.current(profile, timezone.now())
        if period is not None:
            kwargs.setdefault("initial", {"start": period[0], "end": period[1]})
        kwargs.setdefault("auto_id", "id_away-%s")
        super().__init__(*args, **kwargs)

    def check(self, start, end, now) -> None:
        away_everywhere.check_period(self.profile, start, end, now)


class PlayerRulesForm(forms.ModelForm):
    """What becomes of a power whose player misses deadlines, how a new player takes its
    seat, and whose seat requests the campaign takes (campaign/play/disorder.py)."""

    class Meta:
        model = Campaign
        fields = ["disorder_after", "replacements_need_gm", "min_on_time"]
