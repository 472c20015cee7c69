"""What a ruleset provides, and the registry the campaign app looks them up in.

A ruleset is two declarations, each by direct reference:
- ``Ruleset`` (its package's ``ruleset.py``): the game as data, which phases a turn has
  and in which order, who gives orders in each, the rule options (the "Decisions" of its
  rules page), and the pure questions the campaign asks of its World;
- ``Hooks`` (its package's ``hooks.py``): its Django side, the World loader, each
  phase's service and order form, its tables, forms and presenter; its app
  (``rules.apps.RulesetConfig``) attaches them once the models are loaded.
This module stays free of Django: it only says what each hook is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import Any


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
    orders_from: str = "all"  # "all" seated powers, "none", or one power's key (an impulse)
    # owes(world, power_key) -> bool: whether a power the phase takes orders from has
    # anything to decide in it (a sponsor in a peace step); None: every such power has
    owes: Callable[[Any, str], bool] | None = None
    # phases of one kind share a default deadline (every impulse): its key and name;
    # empty: the phase is a kind of its own
    kind: str = ""
    kind_name: str = ""
    # its orders are standing instructions: a power's last orders of this phase stand in
    # its later phases of the same key until it gives new ones (campaign/standing.py)
    standing: bool = False

    @property
    def takes_orders(self) -> bool:
        return self.orders_from != "none"

    def takes_orders_from(self, power_key: str | None) -> bool:
        """Whether this power gives orders in this phase."""
        return self.takes_orders and self.orders_from in ("all", power_key)

    def owes_orders(self, world: Any, power_key: str) -> bool:
        """Whether this power has something to order in this phase, seat aside."""
        if not self.takes_orders_from(power_key):
            return False
        return self.owes is None or bool(self.owes(world, power_key))

    @property
    def schedule_key(self) -> str:
        """Its key in the campaign's default deadlines (Campaign.deadline_hours)."""
        return self.kind or self.key

    @property
    def schedule_name(self) -> str:
        return self.kind_name or self.name


@dataclass(frozen=True)
class GmOrders:
    """What a ruleset leaves to the GM, as lines a player gives with a phase's orders
    (rules/gm_orders.py): the kinds of structured line it offers (free text always), and
    the pure module with ``pieces(world, power_key)``, ``places(world)`` and
    ``carry_out(world, line)``; ``rules``: the rules the GM applies to them, ``help``:
    what the order form says of them."""

    kinds: tuple[str, ...] = ()
    module: ModuleType | None = None
    rules: tuple[str, ...] = ()
    help: str = ""


@dataclass(frozen=True)
class Ruleset:
    """A game: its phases, the order they come in each turn, and its options."""

    key: str
    name: str
    # its package (rules/<key>): where its scenarios/ and corpus/ are
    package: str
    phases: tuple[PhaseSpec, ...]
    options: tuple[OptionSpec, ...]
    sequence: Callable[[int, dict], list[str]]
    # the turn's name ("April 1805"): a rules.text Text, so that the log stores it and
    # shows it in each reader's language (rules.translation.localized for a page)
    turn_label: Callable[[int, dict], Any]
    # hidden draws (rules.dice.secret_draw): the rule of their rolls, and
    # check_draws(world, rolls, secret, context) -> [rules.dice.DrawCheck], which
    # recomputes them from the state the phase resolved from once the secret is revealed
    draw_rule: str = ""
    draw_checks: Callable[..., list] | None = None
    # what the rules leave to the GM, as lines a player may order (free text only: none)
    gm_orders: GmOrders = GmOrders()
    procedures: dict[str, tuple[str, str]] = field(default_factory=dict)
    default_orders: str = "it does nothing this phase"  # what a power without orders does
    # the campaign year a turn belongs to (a budget per year counts by it, e.g. the
    # deadline extensions): by default, each turn is a year
    year_of: Callable[[int, dict], int] = field(default=lambda turn, setup: turn)

    @property
    def folder(self) -> Path:
        """Its package's folder."""
        return package_folder(self.package)

    @property
    def hooks(self) -> Hooks:
        """Its Django side; LookupError before its app has attached it."""
        try:
            return _hooks[self.key]
        except KeyError:
            raise LookupError(f"ruleset {self.key!r} has no hooks: is its app installed?") from None

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
            return self.hooks.load_world(campaign)
        return self.hooks.load_world(campaign, rows=rows)

    @property
    def has_secrets(self) -> bool:
        """Whether some of its state is hidden from some players."""
        return self.hooks.sees is not None

    def viewer(self, world: Any, power_key: str | None) -> frozenset[str] | None:
        """Whose secrets the player of ``power_key`` sees; None: everything (the GM and
        observers, or a game without hidden information)."""
        if self.hooks.sees is None or power_key is None:
            return None
        return frozenset(self.hooks.sees(world, power_key))

    def options_with_defaults(self, options: dict | None) -> dict:
        values = {spec.key: spec.default for spec in self.options}
        values.update({k: v for k, v in (options or {}).items() if k in values})
        return values


@dataclass(frozen=True)
class PhaseHooks:
    """How one phase is played: ``resolve(context)`` (campaign.services.PhaseContext)
    resolves it and answers lifecycle.WAITING when a decision holds it open, else None;
    ``order_form``: the form a power's orders are given with (rules.forms.BaseOrderForm),
    for a phase that takes orders, else None."""

    resolve: Callable[[Any], Any]
    order_form: type | None = None


@dataclass(frozen=True)
class Decisions:
    """Procedures that wait for a power's decision in mid-phase.

    ``decide(campaign=, phase=, power_key=, answer=, actor=, as_gm=)`` takes an answer
    and answers lifecycle.WAITING while more is asked, else None; ``form`` asks it:
    ``form(data, world=, power_key=, as_gm=)``; ``default(world)`` -> (power_key,
    answer) or None: whom the decision under way waits for and the answer it gets when
    that power has no player."""

    decide: Callable[..., Any]
    form: type
    default: Callable[[Any], tuple[str, Any] | None]


@dataclass(frozen=True)
class ScenarioHooks:
    """The ruleset's own section of a scenario file: ``validate(data)`` lists its
    problems; ``load(campaign, data, powers_by_key, areas_by_key)`` writes its rows."""

    validate: Callable[[dict], list[str]]
    load: Callable[..., None]


@dataclass(frozen=True)
class Hooks:
    """The Django side of a ruleset, by direct reference; what is left out has the
    default said beside it."""

    # load_world(campaign, rows=None) -> the World its forms, services and pages read
    load_world: Callable[..., Any]
    # each phase's key -> how it is played (every phase of the Ruleset has one)
    phases: Mapping[str, PhaseHooks]
    # its tables (campaign.storage.Storage); None: no tables of its own
    storage: Any = None
    # its scenario section; None: a scenario holds only the core powers and areas
    scenario: ScenarioHooks | None = None
    # {edit key: GM edit form class} (rules.forms.BaseEditForm); empty: no GM edits
    edit_forms: Mapping[str, type] = field(default_factory=dict)
    # gm_edit(campaign_id=, actor=, edit=, carrying_out=None, **fields) -> the log's Text,
    # which makes those forms' edits (campaign.gm_edits.edit_service); None: no GM edits
    gm_edit: Callable[..., Any] | None = None
    # a player's standing orders form, form(data, world=, power_key=); None: none
    standing_form: type | None = None
    # map badges, table columns and state panels (campaign.presenters.RulesetPresenter);
    # None: the plain map, coloured by controller
    presenter: Any = None
    # sees(world, power_key) -> the power keys whose hidden state that power's player may
    # see; None: a game without hidden information
    sees: Callable[[Any, str], Iterable[str]] | None = None
    # {topic: answer(world, viewer, item_id) -> dict for the template
    # "campaign/<ruleset>/<topic>.html"}, raising LookupError for what the viewer may not
    # ask about (e.g. "why can't I reinforce this block?"); empty: none
    questions: Mapping[str, Callable[..., dict]] = field(default_factory=dict)
    # decisions asked in mid-phase; None: every phase resolves at once
    decisions: Decisions | None = None
    # turn_started(campaign, turn, actor) when a turn's first phase opens; None: nothing
    turn_started: Callable[..., None] | None = None

    def phase(self, key: str) -> PhaseHooks:
        return self.phases[key]


_registry: dict[str, Ruleset] = {}
_hooks: dict[str, Hooks] = {}


def shipped_packages() -> list[str]:
    """The ruleset packages shipped in rules/: each of its folders with a ``ruleset``
    module (its RULESET), named by its ruleset's key; being a Django app too, it has a
    ``hooks`` module (its HOOKS) and the tables of its state. A game added there is
    found without being named anywhere else."""
    here = Path(__file__).resolve().parent
    return sorted(f"{__package__}.{path.parent.name}" for path in here.glob("*/ruleset.py"))


# The site's ruleset packages: the shipped ones until Django installs those of its
# settings (settings.COURIER_RULESETS, by campaign/apps.py).
_packages: list[str] = shipped_packages()


def install(packages: Iterable[str]) -> None:
    """Use these ruleset packages (the site's settings.COURIER_RULESETS) from now on."""
    _packages[:] = packages
    _registry.clear()
    _hooks.clear()


def attach(key: str, hooks: Hooks) -> None:
    """Give the ruleset ``key`` its Django side; ValueError when the hooks do not play
    its phases (one per phase, an order form exactly where the phase takes orders), or
    give GM edit forms without the service that makes their edits (or the reverse)."""
    ruleset = ruleset_for(key)
    problems = [
        f"phase {spec.key!r}: {problem}"
        for spec in ruleset.phases
        for problem in phase_problems(spec, hooks.phases.get(spec.key))
    ]
    extra = set(hooks.phases) - {spec.key for spec in ruleset.phases}
    problems += [f"no phase {phase!r}" for phase in sorted(extra)]
    if bool(hooks.edit_forms) != (hooks.gm_edit is not None):
        problems.append("edit forms and gm_edit go together")
    if problems:
        raise ValueError(f"{key} hooks: " + "; ".join(problems))
    _hooks[key] = hooks


def phase_problems(spec: PhaseSpec, played: PhaseHooks | None) -> list[str]:
    """What is wrong with how ``played`` plays the phase ``spec`` (empty: nothing)."""
    if played is None:
        return ["no hooks"]
    if spec.takes_orders and played.order_form is None:
        return ["takes orders but has no order form"]
    if not spec.takes_orders and played.order_form is not None:
        return ["takes no orders but has an order form"]
    return []


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
