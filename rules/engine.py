"""Rulesets described as data, and the registry the campaign app looks them up in.

A ruleset says which phases a turn has and in which order, who gives orders in each,
which form takes those orders and which service resolves the phase, and which rule
options (the "Decisions" of its rules page) a campaign can switch. Forms and services
are named by dotted path so that this module stays free of Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any

# Each is a package named by its ruleset's key, with a ``ruleset`` module (its RULESET)
# and, being a Django app too (courier/settings.py installs them), the tables of its state.
RULESET_PACKAGES = (
    "rules.empires_in_arms",
    "rules.pax_baltica",
    "rules.virgin_queen",
)


@dataclass(frozen=True)
class OptionSpec:
    """A campaign option: one decided ambiguity of the rules, with its default first."""

    key: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    decision: str = ""  # the rules page's Decision number(s), e.g. "1, 14"
    help: str = ""

    @property
    def default(self) -> Any:
        return self.choices[0][0]

    def choice_label(self, value: Any) -> str:
        return dict(self.choices).get(value, str(value))


@dataclass(frozen=True)
class PhaseSpec:
    """One phase of a turn: what it resolves, under which rules, with whose orders."""

    key: str
    name: str
    rules: tuple[str, ...]
    does: str
    service: str
    order_form: str | None = None
    orders_from: str = "all"  # "all" seated powers, "none", or one power's key (an impulse)
    # dotted path: owes(world, power_key) -> bool, whether a power the phase takes orders
    # from has anything to decide in it (a sponsor in a peace step); empty: every such power
    owes: str = ""
    # phases of one kind share a default deadline (every impulse): its key and name;
    # empty: the phase is a kind of its own
    kind: str = ""
    kind_name: str = ""

    @property
    def takes_orders(self) -> bool:
        return self.order_form is not None and self.orders_from != "none"

    def takes_orders_from(self, power_key: str | None) -> bool:
        """Whether this power gives orders in this phase."""
        return self.takes_orders and self.orders_from in ("all", power_key)

    def owes_orders(self, world: Any, power_key: str) -> bool:
        """Whether this power has something to order in this phase, seat aside."""
        if not self.takes_orders_from(power_key):
            return False
        return not self.owes or bool(load(self.owes)(world, power_key))

    @property
    def schedule_key(self) -> str:
        """Its key in the campaign's default deadlines (Campaign.deadline_hours)."""
        return self.kind or self.key

    @property
    def schedule_name(self) -> str:
        return self.kind_name or self.name

    def form_class(self) -> type:
        return load(self.order_form)

    def resolver(self) -> Callable[..., Any]:
        return load(self.service)


@dataclass(frozen=True)
class GmOrders:
    """What a ruleset leaves to the GM, as lines a player gives with a phase's orders
    (rules/gm_orders.py): the kinds of structured line it offers (free text always), and
    the module with ``pieces(world, power_key)``, ``places(world)`` and
    ``carry_out(world, line)``; ``rules``: the rules the GM applies to them, ``help``:
    what the order form says of them."""

    kinds: tuple[str, ...] = ()
    module: str = ""
    rules: tuple[str, ...] = ()
    help: str = ""


@dataclass(frozen=True)
class Ruleset:
    """A game: its phases, the order they come in each turn, and its options."""

    key: str
    name: str
    # its package (rules/<key>): where its scenarios/, corpus/ and scenario_loader are
    package: str
    phases: tuple[PhaseSpec, ...]
    options: tuple[OptionSpec, ...]
    sequence: Callable[[int, dict], list[str]]
    # the turn's name ("April 1805"): a rules.text Text, so that the log stores it and
    # shows it in each reader's language (rules.translation.localized for a page)
    turn_label: Callable[[int, dict], Any]
    # dotted path: load_world(campaign, rows=None) -> the state forms and pages read
    world_loader: str
    edit_forms: str  # dotted path: {edit key: GM edit form class}
    standing_form: str = ""  # dotted path: a player's standing orders form, if any
    presenter: str = ""  # module path: map badges, table columns and state panels for pages
    # dotted path: its campaign.storage.Storage, the tables of its state (none: no tables)
    storage: str = ""
    # dotted path: sees(world, power_key) -> the power keys whose hidden state that
    # power's player may see; empty for a game without hidden information
    secrets: str = ""
    # dotted path: {topic: answer(world, viewer, item_id) -> dict for the template
    # "campaign/<ruleset>/<topic>.html"}, raising LookupError for what the viewer may
    # not ask about; e.g. "why can't I reinforce this block?"
    questions: str = ""
    # dotted paths, for procedures that wait for a power's decision in mid-phase:
    # decide(campaign=, phase=, power_key=, answer=, actor=, as_gm=) -> WAITING or None,
    # and the form that asks it: DecisionForm(data, world=, power_key=)
    decision_service: str = ""
    decision_form: str = ""
    # dotted path: default_decision(world) -> (power_key, answer) or None: the power the
    # decision under way waits for and the answer it gets when its player is not there
    default_decision: str = ""
    # dotted path: turn_started(campaign, turn, actor) when a turn's first phase opens
    turn_started: str = ""
    # hidden draws (rules.dice.secret_draw): the rule of their rolls, and the dotted path
    # of check_draws(world, rolls, secret, context) -> [rules.dice.DrawCheck], which
    # recomputes them from the state the phase resolved from once the secret is revealed
    draw_rule: str = ""
    draw_checks: str = ""
    # what the rules leave to the GM, as lines a player may order (free text only: none)
    gm_orders: GmOrders = GmOrders()
    procedures: dict[str, tuple[str, str]] = field(default_factory=dict)
    default_orders: str = "it does nothing this phase"  # what a power without orders does

    @property
    def folder(self) -> Path:
        """Its package's folder."""
        return package_folder(self.package)

    def phase(self, key: str) -> PhaseSpec:
        for spec in self.phases:
            if spec.key == key:
                return spec
        raise KeyError(f"{self.key} has no phase {key!r}")

    def turn_phases(self, turn: int, setup: dict) -> list[PhaseSpec]:
        return [self.phase(key) for key in self.sequence(turn, setup)]

    def load_world(self, campaign: Any, rows: Any = None) -> Any:
        """The campaign's World; ``rows``: read from there instead of the database (a
        past phase's snapshot, campaign/snapshots.py)."""
        if rows is None:
            return load(self.world_loader)(campaign)
        return load(self.world_loader)(campaign, rows=rows)

    def viewer(self, world: Any, power_key: str | None) -> frozenset[str] | None:
        """Whose secrets the player of ``power_key`` sees; None: everything (the GM and
        observers, or a game without hidden information)."""
        if not self.secrets or power_key is None:
            return None
        return frozenset(load(self.secrets)(world, power_key))

    def options_with_defaults(self, options: dict | None) -> dict:
        values = {spec.key: spec.default for spec in self.options}
        values.update({k: v for k, v in (options or {}).items() if k in values})
        return values


def load(dotted: str) -> Any:
    """Import ``package.module.Name``."""
    module, _, name = dotted.rpartition(".")
    return getattr(import_module(module), name)


_registry: dict[str, Ruleset] = {}
_packages: list[str] = list(RULESET_PACKAGES)


def install(packages: Iterable[str]) -> None:
    """Use these ruleset packages (the site's settings.COURIER_RULESETS) from now on."""
    _packages[:] = packages
    _registry.clear()


def package_folder(package: str) -> Path:
    """A package's folder, found without importing it (nor what it imports)."""
    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise KeyError(f"no ruleset package {package!r}")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def folder_of(key: str) -> Path:
    """The folder of the installed ruleset ``key`` (its package's last name), without
    loading the ruleset: for the pure modules that read its data files."""
    for package in _packages:
        if package.rpartition(".")[2] == key:
            return package_folder(package)
    raise KeyError(f"no ruleset {key!r}")


def registry() -> dict[str, Ruleset]:
    """Every installed ruleset by key."""
    if not _registry:
        for package in _packages:
            ruleset = import_module(f"{package}.ruleset").RULESET
            _registry[ruleset.key] = ruleset
    return _registry


def ruleset_for(key: str) -> Ruleset:
    """The ruleset with this key; KeyError when there is none."""
    return registry()[key]
