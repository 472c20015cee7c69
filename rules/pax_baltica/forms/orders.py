"""A player's order forms for Pax Baltica: recruitment, actions and forage.

Each form offers only what the nation may do now, names the rule, refuses anything else
in plain words (another side's block is simply "not one of yours": its existence is not
confirmed), and turns what it got into the payload the phase resolver reads.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.pax_baltica import legal, supply
from rules.pax_baltica import procedures as gnw
from rules.pax_baltica.phases import FULL_STRENGTH, forage_checks
from rules.pax_baltica.presenters import reinforce_obstacle
from rules.pax_baltica.state import (
    ARMY,
    FLEET,
    KIND_NAMES,
    REGIMENT,
    STEP_COST,
    Block,
    World,
    option,
)
from rules.platform import BaseOrderForm, WholeNumberField, localized

NOT_YOURS = gettext_lazy("Block #%(value)s is not one of your blocks.")
PLACE_PREFERENCES = 3
NO_PLACE = ""


def steps_field(label: str, most: int, help_text: str = "") -> WholeNumberField:
    message = _("enter a whole number from 0 to %(most)s.") % {"most": most}
    return WholeNumberField(
        label=label,
        min_value=0,
        max_value=most,
        required=False,
        help_text=help_text,
        error_messages={k: message for k in ("invalid", "min_value", "max_value")},
    )


class PaxBalticaOrderForm(BaseOrderForm):
    """Base: the nation, its blocks on the map, and refusals naming what went wrong."""

    field_prefixes = {
        "reinforce_": NOT_YOURS,
        "act_": NOT_YOURS,
        "loss_": NOT_YOURS,
        "move_": gettext_lazy(
            "Block #%(value)s is not one of your fleets that can move now (GNW-13)."
        ),
        "siege_": gettext_lazy(
            "You cannot besiege “%(value)s”: you need army or regiment blocks in an "
            "enemy-held territory (GNW-1)."
        ),
    }

    def __init__(
        self, data=None, *, world: World, power_key: str, initial_payload=None, saved_orders=None
    ):
        self.nation = world.nations[power_key]
        self.saved_orders = dict(saved_orders or {})  # the others' (reads_saved_orders)
        super().__init__(data, world=world, power_key=power_key, initial_payload=initial_payload)

    def own_blocks(self, keep=lambda block: True) -> list[Block]:
        return sorted(
            (
                b
                for b in self.world.blocks.values()
                if b.nation == self.power_key and not b.in_pool and keep(b)
            ),
            key=lambda b: b.name,
        )

    def block_label(self, block: Block) -> str:
        where = self.world.territories[block.location].name
        return _("%(block)s (%(kind)s, %(strength)s/%(max_strength)s) in %(territory)s") % {
            "block": block.name,
            "kind": localized(KIND_NAMES[block.kind]),
            "strength": block.strength,
            "max_strength": block.max_strength,
            "territory": where,
        }

    def refuse_unoffered_blocks(self, prefix: str) -> None:
        """A posted block field that was not offered: say why that block cannot, if it is
        the nation's own; otherwise only that it is not one of its blocks."""
        for name in self.data:
            if not name.startswith(prefix) or name in self.fields:
                continue
            block = self.world.blocks.get(_digits(name.removeprefix(prefix)))
            if block is None or block.nation != self.power_key or block.in_pool:
                raise forms.ValidationError(NOT_YOURS % {"value": name.removeprefix(prefix)})
            reason = reinforce_obstacle(self.world, block) or _("it cannot take this order now")
            raise forms.ValidationError(
                _("%(block)s cannot be reinforced: %(reason)s.")
                % {"block": block.name, "reason": reason}
            )


def _forages(block: Block) -> bool:
    """An army or regiment block on the map that eats forage (GNW-4)."""
    return block.kind in (ARMY, REGIMENT) and block.carried_by is None


def _digits(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


class RecruitmentOrderForm(PaxBalticaOrderForm):
    """GNW-6 to GNW-11: steps for blocks on the map, then pool draws and where to place
    them. The draws are random, so the order is a standing instruction the resolver
    follows draw by draw."""

    rules = ("GNW-6", "GNW-7", "GNW-10", "GNW-11")

    def add_fields(self) -> None:
        if legal.rp_to_spend(self.world, self.power_key) <= 0:
            return
        for block in legal.reinforceable(self.world, self.power_key):
            cost = gnw.step_cost(block, gnw.friendly_garrison(self.world, block))
            self.fields[f"reinforce_{block.id}"] = steps_field(
                self.block_label(block),
                block.max_strength - block.strength,
                _("%(cost)s RP a step (GNW-7)") % {"cost": cost},
            )
        pool = self.world.pool(self.power_key)
        if not pool:
            return
        self.fields["draws"] = steps_field(
            _("Blocks to draw from the pool"),
            len(pool),
            ngettext(
                "%(count)s in your pool; each is placed before the next draw (GNW-10)",
                "%(count)s in your pool; each is placed before the next draw (GNW-10)",
                len(pool),
            )
            % {"count": len(pool)},
        )
        self.fields["steps_each"] = forms.TypedChoiceField(
            label=_("Steps to buy for each drawn block"),
            choices=[(FULL_STRENGTH, _("As many as the RP allow, up to full strength"))]
            + [(n, _("%(steps)s (the first costs double)") % {"steps": n}) for n in range(1, 5)],
            coerce=int,
            initial=FULL_STRENGTH,
        )
        for kind, prefix, label in (
            (None, "place", _("Place new blocks in")),
            (FLEET, "fleet_place", _("Place new fleets in")),
        ):
            places = self._places(kind)
            if kind == FLEET and not any(b.kind == FLEET for b in pool):
                continue
            for rank in range(1, PLACE_PREFERENCES + 1):
                self.fields[f"{prefix}_{rank}"] = forms.ChoiceField(
                    label=_("%(label)s (choice %(rank)s)") % {"label": label, "rank": rank},
                    choices=[(NO_PLACE, "—")] + places,
                    required=False,
                    error_messages={
                        "invalid_choice": _(
                            "New blocks cannot be placed in “%(value)s”: not one of your "
                            "deployment areas, or it holds enemy blocks or an enemy garrison "
                            "(GNW-11)."
                        )
                    },
                )

    def budget(self) -> list[str]:
        """GNW-6 and GNW-10: the RP to spend and what a step costs."""
        return [
            _(
                "%(nation)s has %(available)s RP to spend this recruitment phase, lost if "
                "unspent (GNW-6). A step costs %(army)s RP for an army, %(fleet)s for a fleet, "
                "%(regiment)s for a regiment, double outside a friendly garrison (GNW-7); a "
                "drawn block's first step costs double (GNW-10)."
            )
            % {
                "nation": self.nation.name,
                "available": gnw.rp_available(self.nation),
                "army": STEP_COST[ARMY],
                "fleet": STEP_COST[FLEET],
                "regiment": STEP_COST[REGIMENT],
            }
        ]

    def _places(self, kind: str | None) -> list[tuple[str, str]]:
        probe = Block(0, self.power_key, kind or ARMY, "", 1, 1)
        return [
            (key, self.world.territories[key].name)
            for key in gnw.placement_choices(self.world, probe)
        ]

    def initial_from(self, payload: dict) -> dict:
        initial = {f"reinforce_{i['block']}": i["steps"] for i in payload.get("reinforce", [])}
        initial["draws"] = payload.get("draws", 0)
        initial["steps_each"] = payload.get("steps_each", FULL_STRENGTH)
        for prefix, key in (("place", "places"), ("fleet_place", "fleet_places")):
            for rank, place in enumerate(payload.get(key, []), start=1):
                initial[f"{prefix}_{rank}"] = place
        return initial

    def clean(self) -> dict:
        self.refuse_unoffered_blocks("reinforce_")
        cleaned = super().clean()
        cost = sum(
            gnw.step_cost(block, gnw.friendly_garrison(self.world, block)) * steps
            for block, steps in self._reinforcements(cleaned)
        )
        available = gnw.rp_available(self.nation)
        if cost > available:
            raise forms.ValidationError(
                _("These steps cost %(cost)s RP and %(nation)s has %(available)s (GNW-6).")
                % {"cost": cost, "nation": self.nation.name, "available": available}
            )
        return cleaned

    def _reinforcements(self, cleaned: dict) -> list[tuple[Block, int]]:
        return [
            (self.world.blocks[int(name.removeprefix("reinforce_"))], cleaned[name])
            for name in self.fields
            if name.startswith("reinforce_") and cleaned.get(name)
        ]

    def payload(self) -> dict:
        data = self.cleaned_data
        return {
            "reinforce": [{"block": b.id, "steps": n} for b, n in self._reinforcements(data)],
            "draws": data.get("draws") or 0,
            "steps_each": data.get("steps_each", FULL_STRENGTH),
            "places": self._preferences(data, "place"),
            "fleet_places": self._preferences(data, "fleet_place"),
        }

    def _preferences(self, data: dict, prefix: str) -> list[str]:
        ranked = [data.get(f"{prefix}_{rank}") for rank in range(1, PLACE_PREFERENCES + 1)]
        return list(dict.fromkeys(key for key in ranked if key))


class ActionOrderForm(PaxBalticaOrderForm):
    """A season's actions: steps by action (GNW-8), fleet moves (GNW-13), sieges."""

    rules = ("GNW-8", "GNW-13", "GNW-1")
    reads_saved_orders = True  # its allies' saved orders spend the same actions

    def add_fields(self) -> None:
        if not legal.actions_left(self.world, self.power_key):
            return
        for block in legal.reinforceable(self.world, self.power_key):
            self.fields[f"act_{block.id}"] = steps_field(
                self.block_label(block),
                block.max_strength - block.strength,
                _("Steps to add, one action each (GNW-8)"),
            )
        for fleet in legal.movable_fleets(self.world, self.power_key):
            reach = supply.fleet_destinations(self.world, fleet)
            if reach:
                self.fields[f"move_{fleet.id}"] = forms.ChoiceField(
                    label=_("Move %(block)s to") % {"block": self.block_label(fleet)},
                    choices=[(NO_PLACE, _("— stays"))]
                    + [
                        (key, self.destination_label(key, zones))
                        for key, zones in sorted(reach.items(), key=lambda kv: (kv[1], kv[0]))
                    ],
                    required=False,
                    help_text=_("1 action (GNW-13)"),
                    error_messages={
                        # %(value)s stays for the form to fill in with the refused choice
                        "invalid_choice": _(
                            "%(fleet)s cannot end a move in “%(value)s”: too far (%(reach)s "
                            "zones for this fleet), a territory without a port, or an enemy "
                            "port (GNW-13)."
                        )
                        % {
                            "fleet": fleet.name,
                            "value": "%(value)s",
                            "reach": supply.fleet_reach(fleet),
                        }
                    },
                )
        for key, blocks in self._siege_targets().items():
            names = ", ".join(b.name for b in blocks)
            self.fields[f"siege_{key}"] = forms.BooleanField(
                label=_("Besiege %(territory)s with %(blocks)s")
                % {"territory": self.world.territories[key].name, "blocks": names},
                required=False,
                help_text=_("1 action (GNW-1)"),
            )

    def budget(self) -> list[str]:
        """GNW-8, GNW-13, GNW-1: the side's actions left and what each order costs."""
        left = self.world.actions.get(self.nation.side, 0)
        if option(self.world.options, "action_doubling") == "two_actions":
            step = _("a step added costs 1 action, 2 outside a friendly garrison (Decision 8)")
        else:
            step = _("a step added costs 1 action")
        return [
            ngettext(
                "Your side has %(count)s action left this season: %(step)s (GNW-8); a fleet "
                "move costs 1 (GNW-13), a siege 1 (GNW-1).",
                "Your side has %(count)s actions left this season: %(step)s (GNW-8); a fleet "
                "move costs 1 (GNW-13), a siege 1 (GNW-1).",
                left,
            )
            % {"count": left, "step": step}
        ] + self.shared_budget()

    def allies_committed(self) -> list[tuple[str, int]]:
        """Each ally of the side (the same actions, GNW-8) and the actions its saved orders
        of this phase spend, drafts and ready alike; allies with none are left out."""
        committed = []
        for key in self.world.side_powers(self.nation.side):
            cost = legal.actions_ordered(self.saved_orders.get(key) or {})
            if key != self.power_key and cost:
                committed.append((self.world.nations[key].name, cost))
        return committed

    def commitments(self) -> str:
        """ "Russia has committed 2 actions in its saved orders", one clause an ally."""
        return "; ".join(
            ngettext(
                "%(nation)s has committed %(count)s action in its saved orders",
                "%(nation)s has committed %(count)s actions in its saved orders",
                cost,
            )
            % {"nation": name, "count": cost}
            for name, cost in self.allies_committed()
        )

    def left_for_me(self) -> int:
        """The side's actions its allies' saved orders leave for this nation."""
        total = self.world.actions.get(self.nation.side, 0)
        return max(0, total - sum(cost for _, cost in self.allies_committed()))

    def overspent(self, needed: int, total: int) -> str:
        """Why orders the allies' saved orders leave too few actions for are refused."""
        return ngettext(
            "These orders need %(needed)s action, and your side has %(total)s this season: "
            "%(commitments)s, which leaves %(left)s for you. Your orders were not saved: give "
            "fewer, or agree with your allies.",
            "These orders need %(needed)s actions, and your side has %(total)s this season: "
            "%(commitments)s, which leaves %(left)s for you. Your orders were not saved: give "
            "fewer, or agree with your allies.",
            needed,
        ) % {
            "needed": needed,
            "total": total,
            "commitments": self.commitments(),
            "left": self.left_for_me(),
        }

    def shared_budget(self) -> list[str]:
        """What the allies' saved orders already spend of the side's actions (as of this
        page), and what they leave."""
        if not self.allies_committed():
            return []
        left = self.left_for_me()
        return [
            ngettext(
                "%(commitments)s; %(count)s action is left for you.",
                "%(commitments)s; %(count)s actions are left for you.",
                left,
            )
            % {"commitments": self.commitments(), "count": left}
        ]

    def destination_label(self, key: str, zones: int) -> str:
        """A fleet's destination and the zones of movement it counts (GNW-13)."""
        territory = self.world.territories[key].name
        if not zones:
            return _("%(territory)s (out of port: no zone counted)") % {"territory": territory}
        return ngettext(
            "%(territory)s (%(count)s zone)", "%(territory)s (%(count)s zones)", zones
        ) % {"territory": territory, "count": zones}

    def _siege_targets(self) -> dict[str, list[Block]]:
        return legal.siege_targets(self.world, self.power_key)

    def initial_from(self, payload: dict) -> dict:
        initial = {f"act_{i['block']}": i["actions"] for i in payload.get("reinforce", [])}
        initial |= {f"move_{m['fleet']}": m["path"][-1] for m in payload.get("fleet_moves", [])}
        initial |= {f"siege_{s['territory']}": True for s in payload.get("sieges", [])}
        return initial

    def clean(self) -> dict:
        self.refuse_unoffered_blocks("act_")
        cleaned = super().clean()
        needed = self._actions_needed(cleaned)
        left = self.world.actions.get(self.nation.side, 0)
        if self.allies_committed() and needed > self.left_for_me():
            raise forms.ValidationError(self.overspent(needed, left))
        if needed > left:
            raise forms.ValidationError(
                _(
                    "These orders need %(needed)s actions and your side has %(left)s left this "
                    "season."
                )
                % {"needed": needed, "left": left}
            )
        return cleaned

    def _actions_for(self, name: str, steps: int) -> int:
        """Actions for ``steps`` steps on a block: two a step outside a friendly garrison
        under Decision 8's other reading, else one."""
        block = self.world.blocks[int(name.removeprefix("act_"))]
        doubled = option(self.world.options, "action_doubling") == "two_actions"
        return steps * (2 if doubled and not gnw.friendly_garrison(self.world, block) else 1)

    def _actions_needed(self, cleaned: dict) -> int:
        total = 0
        for name, value in cleaned.items():
            if value and name.startswith("act_"):
                total += self._actions_for(name, value)
            elif value and name.startswith(("move_", "siege_")):
                total += 1
        return total

    def payload(self) -> dict:
        data = self.cleaned_data
        fleet_moves = []
        for name, value in data.items():
            if name.startswith("move_") and value:
                fleet = self.world.blocks[int(name.removeprefix("move_"))]
                route = supply.fleet_route(self.world, fleet, value)
                assert route is not None  # its field offers only the fleet's destinations
                fleet_moves.append({"fleet": fleet.id, "path": list(route)})
        targets = self._siege_targets()
        return {
            "reinforce": [
                {"block": int(name.removeprefix("act_")), "actions": self._actions_for(name, value)}
                for name, value in data.items()
                if name.startswith("act_") and value
            ],
            "fleet_moves": fleet_moves,
            "sieges": [
                {"territory": key, "blocks": [b.id for b in targets[key]]}
                for key in targets
                if data.get(f"siege_{key}")
            ],
        }


class ForageOrderForm(PaxBalticaOrderForm):
    """GNW-4: the order in which the nation's blocks take forage losses after the first
    (which falls on the strongest), offered only where it can change them
    (legal.forage_loss_choices)."""

    rules = ("GNW-4",)

    def add_fields(self) -> None:
        choices = legal.forage_loss_choices(self.world, self.power_key)
        blocks = sorted((b for own in choices.values() for b in own), key=lambda b: b.name)
        for block in blocks:
            self.fields[f"loss_{block.id}"] = steps_field(
                self.block_label(block),
                len(blocks),
                _("1 loses first; blank: after the numbered ones, strongest first"),
            )

    @property
    def nothing_to_order(self) -> str:
        if not self.own_blocks(_forages):
            return _("You have no army or regiment on the map.")
        if option(self.world.options, "forage_further_losses") != "owner_order":
            return _("Forage losses always fall on the strongest block (Decision 2).")
        return _(
            "Your loss order would change nothing this season: the first loss in a territory "
            "falls on its strongest block, and nowhere can a further loss fall on another of "
            "your blocks (GNW-4)."
        )

    def warnings(self) -> list[str]:
        """GNW-4: each territory where the nation's blocks will go short of forage, and by
        how much, as the forage phase will count it; or that none will."""
        shortages = []
        for group, check in forage_checks(self.world):
            if not any(block.nation == self.power_key for block in group):
                continue
            if legal.eats_after_the_enemy(self.world, self.power_key, check.territory):
                shortages.append(self.shared_note(check.territory))
            elif check.deficit:
                shortages.append(self.shortage(check))
        if shortages or not self.own_blocks(_forages):
            return shortages
        return [_("None of your territories is short of forage: no block loses a step (GNW-4).")]

    def clean(self) -> dict:
        """A loss rank for one of the nation's blocks where its order changes nothing (a
        page from before the state changed) is refused with why."""
        for name in self.data:
            block = self.world.blocks.get(_digits(name.removeprefix("loss_")))
            own = block is not None and block.nation == self.power_key and _forages(block)
            if name.startswith("loss_") and name not in self.fields and own:
                raise forms.ValidationError(
                    _(
                        "%(block)s's place in the loss order would change nothing: reload the "
                        "page to see where your loss order counts (GNW-4)."
                    )
                    % {"block": block.name}
                )
        return super().clean()

    def shared_note(self, territory: str) -> str:
        return _(
            "In %(territory)s your blocks share the forage points with the other side's, "
            "which eat first there: the forage phase counts what is left for yours "
            "(GNW-4, Decision 7)."
        ) % {"territory": self.world.territories[territory].name}

    def shortage(self, check) -> str:
        return ngettext(
            "%(territory)s is short of forage by %(count)s point: demand %(demand)s FP, supply "
            "%(supply)s FP, so its blocks lose %(count)s step, if any is above strength 1 "
            "(GNW-4).",
            "%(territory)s is short of forage by %(count)s points: demand %(demand)s FP, "
            "supply %(supply)s FP, so its blocks lose %(count)s steps, as far as they are "
            "above strength 1 (GNW-4).",
            check.deficit,
        ) % {
            "territory": self.world.territories[check.territory].name,
            "count": check.deficit,
            "demand": check.demand,
            "supply": check.supply,
        }

    def initial_from(self, payload: dict) -> dict:
        return {f"loss_{i}": rank for rank, i in enumerate(payload.get("loss_order", []), 1)}

    def payload(self) -> dict:
        ranked = [
            (value, int(name.removeprefix("loss_")))
            for name, value in self.cleaned_data.items()
            if name.startswith("loss_") and value
        ]
        return {"loss_order": [block_id for _, block_id in sorted(ranked)]}
