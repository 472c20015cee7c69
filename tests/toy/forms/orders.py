"""Beacons' order forms: a beacon to light (and the wood to feed it), then a raid or the
gathering of wood. Each offers only what the rules allow the lord now."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from rules.platform import BaseOrderForm
from tests.toy import procedures
from tests.toy.phases import GATHERING, RAIDING
from tests.toy.state import MOST_FED

RAID_PREFIX = "raid:"  # the raid phase's choice of a beacon to raid: "raid:<area>"


class SignalForm(BaseOrderForm):
    """Which area to light, of those next to the lord's beacons, and the wood fed."""

    rules = ("TOY-1",)

    def add_fields(self) -> None:
        choices = procedures.light_targets(self.world, self.power_key)
        if not choices:
            return
        self.fields["area"] = forms.ChoiceField(
            label=_("Light"),
            choices=[("", "—"), *((a, self.world.names[a]) for a in choices)],
            required=False,
        )
        most = min(MOST_FED, self.world.wood.get(self.power_key, 0))
        if most:
            self.fields["feed"] = forms.TypedChoiceField(
                label=_("Wood fed to the fire (+1 each)"),
                choices=[(str(n), str(n)) for n in range(most + 1)],
                coerce=int,
                required=False,
                empty_value=0,
            )

    def initial_from(self, payload: dict) -> dict:
        return {"area": payload.get("area", ""), "feed": str(payload.get("feed", 0))}

    def payload(self) -> dict:
        area = self.cleaned_data.get("area")
        if not area:
            return {}
        feed = self.cleaned_data.get("feed") or 0
        return {"area": area, "feed": feed} if feed else {"area": area}

    def budget(self) -> list[str]:
        return reserve_line(self.world, self.power_key)


def reserve_line(world, power: str) -> list[str]:
    """The lord's reserve, which only its player and the GM read."""
    wood = world.wood.get(power, 0)
    return [_("Your reserve: %(count)s wood (only you and the GM see it).") % {"count": wood}]


def raid_choices(world, power: str) -> list[tuple[str, str]]:
    """The raid phase's choices: gathering wood (TOY-3), and each beacon to raid (TOY-2)."""
    choices = []
    if procedures.gathered(world, power):
        count = procedures.gathered(world, power)
        choices.append((GATHERING, _("Gather wood (%(count)s)") % {"count": count}))
    for area in procedures.raid_targets(world, power):
        lord = world.powers[world.lit[area]]
        label = _("Raid the beacon of %(lord)s in %(area)s") % {
            "lord": lord,
            "area": world.names[area],
        }
        choices.append((RAID_PREFIX + area, label))
    return choices


class RaidForm(BaseOrderForm):
    """A raid on a beacon next to the lord's own, or the gathering of wood."""

    rules = ("TOY-2", "TOY-3")

    def add_fields(self) -> None:
        choices = raid_choices(self.world, self.power_key)
        if choices:
            self.fields["action"] = forms.ChoiceField(
                label=_("Tonight"),
                choices=[("", _("nothing")), *choices],
                required=False,
            )

    def initial_from(self, payload: dict) -> dict:
        if payload.get("action") == RAIDING:
            return {"action": RAID_PREFIX + payload.get("area", "")}
        return {"action": payload.get("action", "")}

    def payload(self) -> dict:
        action = self.cleaned_data.get("action") or ""
        if action.startswith(RAID_PREFIX):
            return {"action": RAIDING, "area": action.removeprefix(RAID_PREFIX)}
        return {"action": action} if action else {}

    def budget(self) -> list[str]:
        return reserve_line(self.world, self.power_key)
