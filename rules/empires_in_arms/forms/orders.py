"""A player's order forms for Empires in Arms: one per phase, plus the standing order.

Each form offers only the choices legal.py allows the power now, names the rule it
applies, refuses anything else in plain words, and turns what it got into the
order payload the phase service reads (``payload()``).
"""

from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.empires_in_arms import legal
from rules.empires_in_arms.procedures import (
    DEPOT_SUCCESS,
    depot_attack_modifiers,
    depot_attack_needs,
    operation_needs,
    revolt_attempt_needs,
    three_months_ending,
)
from rules.empires_in_arms.services import set_standing_order
from rules.empires_in_arms.state import CLIENT, CONQUERED, Guerrilla, Revolt, World, option
from rules.engine import Actor
from rules.platform import BaseOrderForm, BaseStandingForm, Seat, WholeNumberField, localized

OPERATION_REFUSAL = gettext_lazy(
    "You cannot operate in %(value)s: you need an eligible corps there (one that has not "
    "fought this step and is neither besieged nor besieging) and guerrillas or a revolt "
    "there (EIA-4)."
)
DEPOT_REFUSAL = gettext_lazy(
    "Your guerrillas cannot attack depots in %(value)s: you need more than 6 guerrilla "
    "factors there and an enemy depot outside a port city (EIA-11)."
)


def die_needs(face: int) -> str:
    """ "needs 4 or more on the die" for a face from 2 to 6."""
    return _("needs %(face)s or more on the die") % {"face": face}


def success_needs(face: int) -> str:
    """What the die needs for an operation or an attack to succeed, for the least face
    its procedure computed (below 1: any face; above 6: none)."""
    if face <= 1:
        return _("succeeds whatever the roll")
    if face > 6:
        return _("cannot succeed (it would need %(face)s on the die)") % {"face": face}
    return die_needs(face)


class OrderForm(BaseOrderForm):
    """Base of the EIA order forms: the World's power, and labels of its areas."""

    def __init__(self, data=None, *, world: World, power_key: str, initial_payload=None):
        self.power = world.powers[power_key]
        super().__init__(data, world=world, power_key=power_key, initial_payload=initial_payload)

    # -- labels ----------------------------------------------------------------------
    def area_name(self, key: str) -> str:
        return self.world.areas[key].name

    def power_name(self, key: str | None) -> str:
        if key is None:
            return _("nobody")
        return self.world.powers[key].name if key in self.world.powers else key

    def revolt_label(self, revolt: Revolt) -> str:
        area = self.world.areas[revolt.area]
        factors = self.world.guerrilla_factors(revolt.area)
        return ngettext(
            "%(area)s (revolt number %(number)s, held by %(controller)s, %(factors)s guerrilla "
            "factor)",
            "%(area)s (revolt number %(number)s, held by %(controller)s, %(factors)s guerrilla "
            "factors)",
            factors,
        ) % {
            "area": area.name,
            "number": revolt.number,
            "controller": self.power_name(area.controller),
            "factors": factors,
        }


class PeaceOrderForm(OrderForm):
    """EIA-7: let revolts you sponsor lapse in the peace step."""

    rules = ("EIA-7",)
    nothing_to_order = gettext_lazy(
        "You sponsor no revolt, so there is nothing to let lapse (EIA-7)."
    )
    field_names = {"lapse": ""}

    def add_fields(self) -> None:
        revolts = legal.own_revolts(self.world, self.power_key)
        if not revolts:
            return
        self.fields["lapse"] = forms.MultipleChoiceField(
            label=_("Revolts to let lapse"),
            choices=[(r.area, self.revolt_label(r)) for r in revolts],
            widget=forms.CheckboxSelectMultiple,
            required=False,
            help_text=_(
                "EIA-7: a revolt you let lapse ends now and counts as a revolt you let down "
                "(−1 on your later revolt attempts in that minor)."
            ),
            error_messages={
                "invalid_choice": _(
                    "%(value)s is not a revolt you sponsor, so you cannot let it lapse (EIA-7)."
                )
            },
        )

    def initial_from(self, payload: dict) -> dict:
        return {"lapse": payload.get("lapse", [])}

    def payload(self) -> dict:
        return {"lapse": list(self.cleaned_data.get("lapse", []))}


class RevoltOrderForm(OrderForm):
    """EIA-1: up to three revolt attempts, 1 PP each."""

    rules = ("EIA-1", "EIA-2")
    nothing_to_order = gettext_lazy(
        "No area may be a target now: a target must be a minor country or ceded province "
        "held by another major power and not already in revolt (EIA-1)."
    )
    field_names = {"targets": ""}

    def add_fields(self) -> None:
        targets = legal.revolt_targets(self.world, self.power_key)
        if not targets:
            return
        # each target's label sums its modifiers: worked out only where the form is shown
        # (a post that is accepted validates the keys alone)
        label = lazy(self.target_label, str)
        self.fields["targets"] = forms.MultipleChoiceField(
            label=_("Revolt attempts"),
            choices=[(key, label(key)) for key in targets],
            widget=forms.CheckboxSelectMultiple,
            required=False,
            help_text=_(
                "EIA-1: at most %(max)s attempts; each costs 1 PP whatever the result. Roll "
                "d6 + your national modifier + your political status modifier − revolts you "
                "let down there; 6 or more and the revolt breaks out. You have %(pp)s PP."
            )
            % {"max": legal.MAX_ATTEMPTS, "pp": self.power.political_points},
            error_messages={
                "invalid_choice": _(
                    "%(value)s cannot be a target: it must be a minor country or ceded "
                    "province held by another major power and not already in revolt (EIA-1)."
                )
            },
        )
        if self.per_target:
            self.fields["repeat"] = WholeNumberField(
                label=_("Attempts on each chosen target"),
                min_value=1,
                max_value=legal.MAX_ATTEMPTS,
                initial=1,
                help_text=_(
                    "Under this campaign's options the limit is %(max)s attempts per target "
                    "(Decision 7): further attempts on a target are made only while the "
                    "earlier ones fail."
                )
                % {"max": legal.MAX_ATTEMPTS},
                error_messages={
                    "min_value": _("Make at least 1 attempt on each target you chose (EIA-1)."),
                    "max_value": _("At most %(max)s attempts per target (EIA-1).")
                    % {"max": legal.MAX_ATTEMPTS},
                    "invalid": _("The number of attempts must be a whole number (EIA-1)."),
                },
            )

    @property
    def per_target(self) -> bool:
        return option(self.world.options, "attempt_limit") == "per_target"

    def target_label(self, key: str) -> str:
        area = self.world.areas[key]
        kind = _("ceded province") if area.ceded else _("minor")
        modifier = self.world.national_modifier(self.power_key, key)
        let_downs = self.world.let_downs.get((self.power_key, key), 0)
        extra = (
            ngettext(
                ", %(count)s revolt you let down",
                ", %(count)s revolts you let down",
                let_downs,
            )
            % {"count": let_downs}
            if let_downs
            else ""
        )
        return _(
            "%(area)s (%(kind)s, held by %(controller)s; your national modifier "
            "%(modifier)s, your political status modifier %(status)s%(extra)s: %(needs)s)"
        ) % {
            "area": area.name,
            "kind": kind,
            "controller": self.power_name(area.controller),
            "modifier": f"{modifier:+d}",
            "status": f"{self.power.status_modifier:+d}",
            "extra": extra,
            "needs": self.attempt_needs(area, modifier, let_downs),
        }

    def attempt_needs(self, area, modifier: int, let_downs: int) -> str:
        """What the die needs for the revolt to break out, from the procedure's own sum."""
        face = revolt_attempt_needs(self.power, area, modifier, let_downs)
        if face <= 1:
            return _("breaks out whatever the roll")
        if face > 6:
            return _("cannot break out (it would need %(face)s on the die)") % {"face": face}
        return die_needs(face)

    def clean_targets(self) -> list[str]:
        targets = list(dict.fromkeys(self.cleaned_data["targets"]))
        if len(targets) > legal.MAX_ATTEMPTS and not self.per_target:
            raise forms.ValidationError(
                _(
                    "You may make at most %(max)s revolt attempts in a revolt step; you chose "
                    "%(chosen)s (EIA-1)."
                )
                % {"max": legal.MAX_ATTEMPTS, "chosen": len(targets)}
            )
        # Decision 8: the default minimum, 0, is no minimum at all (PP may go negative).
        minimum = option(self.world.options, "attempt_pp_minimum")
        points_before_last = self.power.political_points - len(targets) + 1
        if minimum and targets and points_before_last < minimum:
            raise forms.ValidationError(
                _(
                    "Each attempt needs at least %(minimum)s PP under this campaign's options "
                    "and you have %(pp)s PP (EIA-1)."
                )
                % {"minimum": minimum, "pp": self.power.political_points}
            )
        return targets

    def initial_from(self, payload: dict) -> dict:
        targets = payload.get("targets", [])
        distinct = list(dict.fromkeys(targets))
        repeat = max((targets.count(t) for t in distinct), default=1)
        return {"targets": distinct, "repeat": repeat}

    def payload(self) -> dict:
        """The attempts in order; each target repeated when the limit is per target."""
        repeat = self.cleaned_data.get("repeat") or 1
        targets = self.cleaned_data.get("targets", [])
        return {"targets": [t for t in targets for _ in range(repeat)]}


class LandOrderForm(OrderForm):
    """EIA-9/10 guerrilla moves, EIA-4 operations and EIA-11 depot attacks."""

    rules = ("EIA-9", "EIA-4", "EIA-11")
    nothing_to_order = gettext_lazy(
        "You have no guerrillas that can move, no eligible corps where there are guerrillas "
        "or a revolt (EIA-4), and no guerrillas strong enough to attack a depot (EIA-11)."
    )
    move_prefix = "move_"
    field_names = {"operations": OPERATION_REFUSAL, "depot_attacks": DEPOT_REFUSAL}
    field_prefixes = {
        move_prefix: gettext_lazy(
            "You have no guerrilla stack #%(value)s that can move this step (EIA-9)."
        )
    }

    def add_fields(self) -> None:
        for stack in legal.movable_stacks(self.world, self.power_key):
            self.fields[f"{self.move_prefix}{stack.id}"] = self.move_field(stack)
        self.add_areas_field(
            "operations",
            legal.operation_areas(self.world, self.power_key),
            label=_("Anti-guerrilla operations"),
            describe=self.operation_label,
            help_text=_(
                "EIA-4: roll d6 (+1 with two or more eligible corps); higher than the area's "
                "guerrilla value eliminates its unbesieged guerrillas and lowers a revolt by 1. "
                "A corps is eligible if it fought no land combat this step and is neither "
                "besieged nor besieging."
            ),
            refused=OPERATION_REFUSAL,
        )
        self.add_areas_field(
            "depot_attacks",
            legal.depot_attack_areas(self.world, self.power_key),
            label=_("Guerrilla depot attacks"),
            describe=self.depot_attack_label,
            help_text=_(
                "EIA-11: with %(minimum)s or more guerrilla factors that start no other battle, "
                "attack the enemy depots outside port cities; a modified %(success)s or more "
                "destroys them."
            )
            % {"minimum": legal.DEPOT_ATTACK_MINIMUM, "success": DEPOT_SUCCESS},
            refused=DEPOT_REFUSAL,
        )

    def move_field(self, stack: Guerrilla) -> forms.ChoiceField:
        here = self.area_name(stack.area)
        choices = [("", _("Stay in %(area)s") % {"area": here})]
        destinations = legal.guerrilla_destinations(self.world, stack)
        choices += [(key, self.area_name(key)) for key in destinations]
        return forms.ChoiceField(
            label=ngettext(
                "%(count)s guerrilla factor in %(area)s",
                "%(count)s guerrilla factors in %(area)s",
                stack.factors,
            )
            % {"count": stack.factors, "area": here},
            choices=choices,
            required=False,
            help_text=_(
                "EIA-9/EIA-10: one adjacent area per land movement step, never out of the area "
                "of origin (Spanish guerrillas stay within Spain)."
            ),
            error_messages={
                # %(value)s stays for the form to fill in with the refused choice
                "invalid_choice": _(
                    "These guerrillas cannot move to %(value)s: they move one adjacent area "
                    "and never leave their area of origin (%(area)s) (EIA-9)."
                )
                % {"value": "%(value)s", "area": here}
            },
        )

    def add_areas_field(self, name, keys, *, label, describe, help_text, refused) -> None:
        if not keys:
            return
        self.fields[name] = forms.MultipleChoiceField(
            label=label,
            choices=[(key, describe(key)) for key in keys],
            widget=forms.CheckboxSelectMultiple,
            required=False,
            help_text=help_text,
            error_messages={"invalid_choice": refused},
        )

    def operation_label(self, key: str) -> str:
        corps = len(legal.eligible_corps(self.world, self.power_key, key))
        factors = self.world.guerrilla_factors(key)
        revolt = self.world.active_revolt(key)
        in_revolt = _(", revolt number %(number)s") % {"number": revolt.number} if revolt else ""
        return _(
            "%(area)s (%(corps)s eligible corps, %(factors)s guerrilla factors%(in_revolt)s: "
            "%(needs)s)"
        ) % {
            "area": self.area_name(key),
            "corps": corps,
            "factors": factors,
            "in_revolt": in_revolt,
            "needs": self.operation_needs(key, revolt, corps),
        }

    def operation_needs(self, key: str, revolt: Revolt | None, corps: int) -> str:
        """What the die needs for the operation to succeed, from the procedure's own sum."""
        area = self.world.areas[key]
        return success_needs(operation_needs(self.power, area, revolt, corps, self.world.options))

    def depot_attack_label(self, key: str) -> str:
        """The area, what its attack adds to the die and the face it needs, from the
        procedure's own modifiers."""
        forces = legal.depot_attack_forces(self.world, self.power_key, key)
        options = self.world.options
        applied = [m for m in depot_attack_modifiers(*forces, options) if m.value]
        modifiers = ", ".join(
            _("%(modifier)s %(value)s") % {"modifier": localized(m.label), "value": f"{m.value:+d}"}
            for m in applied
        )
        return _("%(area)s (%(modifiers)s: %(needs)s)") % {
            "area": self.area_name(key),
            "modifiers": modifiers or _("no modifier"),
            "needs": success_needs(depot_attack_needs(*forces, options)),
        }

    def initial_from(self, payload: dict) -> dict:
        initial = {f"{self.move_prefix}{m['stack']}": m["to"] for m in payload.get("moves", [])}
        initial["operations"] = payload.get("operations", [])
        initial["depot_attacks"] = payload.get("depot_attacks", [])
        return initial

    def payload(self) -> dict:
        moves = [
            {"stack": int(name.removeprefix(self.move_prefix)), "to": to}
            for name, to in self.cleaned_data.items()
            if name.startswith(self.move_prefix) and to
        ]
        return {
            "moves": moves,
            "operations": list(self.cleaned_data.get("operations", [])),
            "depot_attacks": list(self.cleaned_data.get("depot_attacks", [])),
        }


class ConquestOrderForm(OrderForm):
    """EIA-8: client state or conquered minor, chosen in advance for a revolt at war."""

    rules = ("EIA-8",)
    nothing_to_order = gettext_lazy(
        "You have no revolt in a minor held by a power you are at war with, so there is "
        "no client-state or conquered choice to make (EIA-8)."
    )
    prefix_choice = "choice_"
    field_prefixes = {
        prefix_choice: gettext_lazy(
            "%(value)s is not a revolt of yours in a minor held by a power you are at war "
            "with, so there is no choice to make there (EIA-8)."
        )
    }

    def add_fields(self) -> None:
        for revolt in legal.conquest_choice_revolts(self.world, self.power_key):
            self.fields[f"{self.prefix_choice}{revolt.area}"] = forms.ChoiceField(
                label=_("If the revolt in %(area)s succeeds")
                % {"area": self.area_name(revolt.area)},
                choices=[
                    ("", _("Not decided yet")),
                    (CLIENT, _("Client state: its guerrilla factors become its infantry")),
                    (CONQUERED, _("Conquered minor: its guerrilla factors are removed")),
                ],
                required=False,
                help_text=self.choice_help(revolt),
                error_messages={
                    "invalid_choice": _("Choose client state or conquered minor (EIA-8).")
                },
            )

    def choice_help(self, revolt: Revolt) -> str:
        """The rule, whether the revolt succeeds in this step, and the answer kept."""
        text = _(
            "EIA-8: at war with the controller, a successful revolt in a minor makes it "
            "your client state or a conquered minor. Your answer is kept for the later "
            "months until you change it."
        )
        if legal.succeeds_now(self.world, revolt):
            text += " " + _("The revolt succeeds in this conquest step.")
        else:
            text += " " + _(
                "It cannot succeed in this step (it needs the capital held for a month, a "
                "revolt number of %(number)s or more and unbesieged guerrillas there): "
                "nothing is needed from you now."
            ) % {"number": legal.SUCCESS_NUMBER}
        if revolt.conquest_choice:
            text += " " + _("Kept from your earlier orders: %(choice)s.") % {
                "choice": self.choice_name(revolt.conquest_choice)
            }
        return text

    @staticmethod
    def choice_name(choice: str) -> str:
        return _("client state") if choice == CLIENT else _("conquered minor")

    @property
    def owes(self) -> bool:
        """Only a revolt that succeeds now with no answer kept asks for one
        (legal.has_conquest_choice); the others' answers are standing ones."""
        return legal.has_conquest_choice(self.world, self.power_key)

    def initial_from(self, payload: dict) -> dict:
        kept = {
            f"{self.prefix_choice}{r.area}": r.conquest_choice
            for r in legal.conquest_choice_revolts(self.world, self.power_key)
            if r.conquest_choice
        }
        given = {f"{self.prefix_choice}{k}": v for k, v in payload.get("choices", {}).items()}
        return kept | given

    def payload(self) -> dict:
        return {
            "choices": {
                name.removeprefix(self.prefix_choice): value
                for name, value in self.cleaned_data.items()
                if value
            }
        }


class EconomicOrderForm(OrderForm):
    """EIA-5: $1 to $6 of aid to each of your revolts."""

    rules = ("EIA-5",)
    nothing_to_order = gettext_lazy("You have no revolt you may aid (EIA-5).")
    prefix_aid = "aid_"
    field_prefixes = {
        prefix_aid: gettext_lazy(
            "%(value)s is not a revolt you may aid: only the sponsor aids its revolt (EIA-5)."
        )
    }

    def add_fields(self) -> None:
        low, high = legal.AID_RANGE
        for revolt in legal.aidable_revolts(self.world, self.power_key):
            self.fields[f"{self.prefix_aid}{revolt.area}"] = WholeNumberField(
                label=_("Aid to %(revolt)s") % {"revolt": self.revolt_label(revolt)},
                min_value=low,
                max_value=high,
                required=False,
                help_text=_(
                    "EIA-5: spend $%(low)s to $%(high)s; roll d6, at most the amount and the "
                    "revolt number rises by 1. The money is spent either way. Leave empty to "
                    "give no aid. Your treasury holds $%(treasury)s for all your aid."
                )
                % {"low": low, "high": high, "treasury": self.power.treasury},
                error_messages={
                    "invalid": _(
                        "Enter the aid as a whole number of dollars, from $%(low)s to $%(high)s."
                    )
                    % {"low": low, "high": high},
                    "min_value": _(
                        "Aid is at least $%(low)s; leave the box empty to give none (EIA-5)."
                    )
                    % {"low": low},
                    "max_value": _("Aid is at most $%(high)s per revolt (EIA-5).") % {"high": high},
                },
            )

    def warnings(self) -> list[str]:
        """EIA-7: aid to a revolt that ends before the next guerrilla rolls changes nothing,
        and its money is spent all the same (EIA-5)."""
        return [
            self.ending_warning(revolt)
            for revolt in legal.aidable_revolts(self.world, self.power_key)
            if three_months_ending(revolt, self.world.areas[revolt.area])
        ]

    def ending_warning(self, revolt: Revolt) -> str:
        count = revolt.months_without_guerrillas
        return ngettext(
            "Aid to the revolt in %(area)s can no longer matter: no guerrillas there for "
            "%(count)s month in a row, so it ends next month before its guerrilla rolls "
            "(EIA-7), and aid is spent whatever the roll (EIA-5).",
            "Aid to the revolt in %(area)s can no longer matter: no guerrillas there for "
            "%(count)s months in a row, so it ends next month before its guerrilla rolls "
            "(EIA-7), and aid is spent whatever the roll (EIA-5).",
            count,
        ) % {"area": self.area_name(revolt.area), "count": count}

    def clean(self) -> dict:
        cleaned = super().clean()
        total = sum(amount for amount in cleaned.values() if amount)
        if total and total > self.power.treasury:
            raise forms.ValidationError(
                _("Your aid totals $%(total)s but your treasury holds $%(treasury)s.")
                % {"total": total, "treasury": self.power.treasury}
            )
        return cleaned

    def initial_from(self, payload: dict) -> dict:
        return {f"{self.prefix_aid}{k}": v for k, v in payload.get("aid", {}).items()}

    def payload(self) -> dict:
        return {
            "aid": {
                name.removeprefix(self.prefix_aid): amount
                for name, amount in self.cleaned_data.items()
                if amount
            }
        }


class StandingOrderForm(BaseStandingForm):
    """Decision 5: whether to pay $d6 to stop a bad-roll rise in a revolt you hold."""

    rules = ("EIA-4",)
    pays_bad_roll = forms.TypedChoiceField(
        label=gettext_lazy("When an anti-guerrilla operation in an area you control rolls badly"),
        choices=[
            ("yes", gettext_lazy("Pay $d6 at once so the revolt number does not rise")),
            ("no", gettext_lazy("Do not pay; the revolt number rises by 1")),
        ],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "EIA-4: asynchronous play cannot stop to ask you, so this standing order answers "
            "for you (Decision 5)."
        ),
        error_messages={"invalid_choice": gettext_lazy("Choose whether to pay or not.")},
    )

    def __init__(self, data=None, *, world: World, power_key: str):
        pays = world.powers[power_key].pays_bad_roll
        initial = {"pays_bad_roll": "yes" if pays else "no"}
        super().__init__(data, world=world, power_key=power_key, initial=initial)

    def save(self, *, seat: Seat, actor: Actor) -> None:
        """Record the standing order (call after is_valid())."""
        set_standing_order(seat=seat, pays_bad_roll=self.cleaned_data["pays_bad_roll"], actor=actor)
