"""What a ruleset provides, and the registry the campaign app looks them up in.

A ruleset is two declarations, each by direct reference:
- ``Ruleset`` (its package's ``ruleset.py``): the game as data, which phases a turn has
  and in which order, who gives orders in each, the rule options (the "Decisions" of its
  rules page), and the pure questions the campaign asks of its World;
- ``Hooks`` (its package's ``hooks.py``): its Django side, the World loader, each
  phase's service and order form, its tables, forms and ``Presenter``; its app (a
  ``rules.apps.RulesetConfig``) attaches them once the models are loaded.
Every member is typed, and each optional one has its default here: the platform reads a
member as it is, never asking whether a game has it. ``WorldT`` is a game's World, which
its hooks load and its presenter, decisions and questions read: a game declares
``Hooks[World]``, and the registry holds every game's as ``Hooks[object]``, since the
platform hands a game back only the World that game loaded. This module stays free of
Django: the Django types it names are imported for the type checker alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Generic, Protocol, TypeAlias, TypeVar

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
    from django_stubs_ext import StrPromise

    from campaign.models import Area, Campaign, Phase, Power
    from campaign.play.services import PhaseContext
    from campaign.records.state_rows import StateRows
    from campaign.state.storage import Storage
    from rules.dice import DrawCheck, DrawRoll
    from rules.forms import BaseDecisionForm, BaseEditForm, BaseOrderForm, BaseStandingForm
    from rules.marks import AreaMarks, OrderMark
    from rules.text import Text

WorldT = TypeVar("WorldT")  # a game's World, as its hooks load it

Label: TypeAlias = "str | StrPromise"  # words people read: a str, or a lazy translation
Viewer: TypeAlias = "frozenset[str] | None"  # whose secrets a reader sees; None: all
Setup: TypeAlias = "dict[str, object]"  # a campaign's scenario setup (Campaign.setup)
ScenarioData: TypeAlias = (
    "dict[str, object]"  # a scenario file, as campaign/play/scenarios.py reads it
)
Payload: TypeAlias = "dict[str, object]"  # an order's or an answer's JSON object
OptionValue: TypeAlias = "str | int | bool"
Actor: TypeAlias = "AbstractBaseUser | AnonymousUser | None"  # None: the site itself
# a phase service's answer: campaign.play.lifecycle.WAITING while a decision holds the phase
# open, else None
Resolution: TypeAlias = "str | None"
# a timeline's reading of one series: its key, name, colour and value (None: not shown)
Reading: TypeAlias = "tuple[str, Label, str, int | None]"


@dataclass(frozen=True)
class OptionSpec:
    """A campaign option: one decided ambiguity of the rules, with its default first."""

    key: str
    label: Label
    choices: tuple[tuple[OptionValue, Label], ...]
    decision: str = ""  # the rules page's Decision number(s), e.g. "1, 14"
    help: Label = ""

    @property
    def default(self) -> OptionValue:
        return self.choices[0][0]

    def choice_label(self, value: object) -> Label:
        return next((label for choice, label in self.choices if choice == value), str(value))


@dataclass(frozen=True)
class PhaseSpec(Generic[WorldT]):
    """One phase of a turn: what it resolves, under which rules, with whose orders."""

    key: str
    name: Label
    rules: tuple[str, ...]
    does: Label
    orders_from: str = "all"  # "all" seated powers, "none", or one power's key (an impulse)
    # owes(world, power_key) -> bool: whether a power the phase takes orders from has
    # anything to decide in it (a sponsor in a peace step); None: every such power has
    owes: Callable[[WorldT, str], bool] | None = None
    # phases of one kind share a default deadline (every impulse): its key and name;
    # empty: the phase is a kind of its own
    kind: str = ""
    kind_name: Label = ""
    # its orders are standing instructions: a power's last orders of this phase stand in
    # its later phases of the same key until it gives new ones (campaign/core/standing.py)
    standing: bool = False

    @property
    def takes_orders(self) -> bool:
        return self.orders_from != "none"

    def takes_orders_from(self, power_key: str | None) -> bool:
        """Whether this power gives orders in this phase."""
        return self.takes_orders and self.orders_from in ("all", power_key)

    def owes_orders(self, world: WorldT, power_key: str) -> bool:
        """Whether this power has something to order in this phase, seat aside."""
        if not self.takes_orders_from(power_key):
            return False
        return self.owes is None or bool(self.owes(world, power_key))

    @property
    def schedule_key(self) -> str:
        """Its key in the campaign's default deadlines (Campaign.deadline_hours)."""
        return self.kind or self.key

    @property
    def schedule_name(self) -> Label:
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
    help: Label = ""


def each_turn_a_year(turn: int, setup: Setup) -> int:
    return turn


@dataclass(frozen=True)
class Ruleset(Generic[WorldT]):
    """A game: its phases, the order they come in each turn, and its options."""

    key: str
    name: Label
    # its package (rules/<key>): where its scenarios/ and corpus/ are
    package: str
    phases: tuple[PhaseSpec[WorldT], ...]
    options: tuple[OptionSpec, ...]
    sequence: Callable[[int, Setup], list[str]]
    # the turn's name ("April 1805"): a rules.text Text, so that the log stores it and
    # shows it in each reader's language (rules.translation.localized for a page)
    turn_label: Callable[[int, Setup], Text]
    # hidden draws (rules.dice.secret_draw): the rule of their rolls, and
    # check_draws(world, rolls, secret, context) -> [rules.dice.DrawCheck], which
    # recomputes them from the state the phase resolved from once the secret is revealed
    draw_rule: str = ""
    draw_checks: Callable[[WorldT, Sequence[DrawRoll], str, str], list[DrawCheck]] | None = None
    # what the rules leave to the GM, as lines a player may order (free text only: none)
    gm_orders: GmOrders = GmOrders()
    procedures: Mapping[str, tuple[Label, Label]] = field(default_factory=dict)
    # the pure module of its package, by name, that runs its corpus (rules/corpus.py):
    # every procedure above has its cases there; "": a game without a corpus
    corpus_adapter: str = ""
    default_orders: Label = "it does nothing this phase"  # what a power without orders does
    # the campaign year a turn belongs to (a budget per year counts by it, e.g. the
    # deadline extensions): by default, each turn is a year
    year_of: Callable[[int, Setup], int] = each_turn_a_year
    # its pure modules, by name in its package ("procedures", "phases", …): each loads no
    # Django (tests/unit/test_import_contracts.py) and bench/mutate mutates each
    pure_modules: tuple[str, ...] = ()

    @property
    def folder(self) -> Path:
        """Its package's folder."""
        return package_folder(self.package)

    @property
    def hooks(self) -> Hooks[object]:
        """Its Django side; LookupError before its app has attached it."""
        try:
            return _hooks[self.key]
        except KeyError:
            raise LookupError(f"ruleset {self.key!r} has no hooks: is its app installed?") from None

    def phase(self, key: str) -> PhaseSpec[WorldT]:
        for spec in self.phases:
            if spec.key == key:
                return spec
        raise KeyError(f"{self.key} has no phase {key!r}")

    def turn_phases(self, turn: int, setup: Setup) -> list[PhaseSpec[WorldT]]:
        return [self.phase(key) for key in self.sequence(turn, setup)]

    def load_world(self, campaign: Campaign, rows: StateRows | None = None) -> object:
        """The campaign's World; ``rows``: read from there instead of the database (a
        past phase's snapshot, campaign/state/snapshots.py)."""
        return self.hooks.load_world(campaign, rows)

    @property
    def has_secrets(self) -> bool:
        """Whether some of its state is hidden from some players."""
        return self.hooks.sees is not None

    def viewer(self, world: object, power_key: str | None) -> frozenset[str] | None:
        """Whose secrets the player of ``power_key`` sees; None: everything (the GM and
        observers, or a game without hidden information)."""
        if self.hooks.sees is None or power_key is None:
            return None
        return frozenset(self.hooks.sees(world, power_key))

    def options_with_defaults(self, options: Mapping[str, object] | None) -> dict[str, object]:
        values: dict[str, object] = {spec.key: spec.default for spec in self.options}
        values.update({k: v for k, v in (options or {}).items() if k in values})
        return values


@dataclass(frozen=True)
class PhaseHooks:
    """How one phase is played: ``resolve(context)`` resolves it and answers
    campaign.play.lifecycle.WAITING when a decision holds it open, else None;
    ``order_form``: the form a power's orders are given with, for a phase that takes
    orders, else None."""

    resolve: Callable[[PhaseContext], Resolution]
    order_form: type[BaseOrderForm] | None = None


class Decide(Protocol):
    """Takes a power's (or the GM's) answer to the decision under way; WAITING while
    more is asked, else None."""

    def __call__(
        self,
        *,
        campaign: Campaign,
        phase: Phase,
        power_key: str | None,
        answer: Payload,
        actor: Actor,
        as_gm: bool,
    ) -> Resolution: ...


@dataclass(frozen=True)
class Decisions(Generic[WorldT]):
    """Procedures that wait for a power's decision in mid-phase: ``decide`` takes an
    answer, ``form`` asks it; ``default(world)`` -> (power_key, answer) or None: whom the
    decision under way waits for and the answer it gets when that power has no player."""

    decide: Decide
    form: type[BaseDecisionForm]
    default: Callable[[WorldT], tuple[str, Payload] | None]


@dataclass(frozen=True)
class ScenarioHooks:
    """The ruleset's own section of a scenario file: ``validate(data)`` lists its
    problems; ``load(campaign, data, powers_by_key, areas_by_key)`` writes its rows."""

    validate: Callable[[ScenarioData], list[str]]
    load: Callable[[Campaign, ScenarioData, dict[str, Power], dict[str, Area]], None]


class GmEdit(Protocol):
    """Makes one GM edit (campaign.play.gm_edits.edit_service builds it): the log's Text."""

    def __call__(
        self,
        *,
        campaign_id: int,
        actor: Actor,
        edit: str,
        carrying_out: Text | None = None,
        **fields: object,
    ) -> Text: ...


def no_order_marks(
    world: object, orders: Mapping[str, Payload], viewer: Viewer
) -> Sequence[OrderMark]:
    """A presenter that draws no order on the map."""
    return ()


@dataclass(frozen=True)
class Presenter(Generic[WorldT]):
    """What the pages show of a game's World (campaign/presenters.py draws it): pure
    functions over it, each for a ``viewer`` (Ruleset.viewer) where some is hidden."""

    columns: tuple[Label, ...]  # headers of its map-table columns
    map_key: Label  # what the map's badges mean
    # per area key: its badges, cells (one per column) and remarks
    area_marks: Callable[[WorldT, Viewer], Mapping[str, AreaMarks]]
    # its state panels, as its templates (templates/campaign/<key>/) read them
    panels: Callable[[WorldT, Viewer], Mapping[str, object]]
    # area_refs(world, key): the keys (the area's, a zone's it lies in) and the ids (of
    # the pieces that stand in it) an order may name the area by
    area_refs: Callable[[WorldT, str], tuple[frozenset[str], frozenset[int]]]
    # the badge kinds a drawn map shows as a pattern over the area instead of a counter
    # ("hatch", "cross", "dots", or "" for none: the usual state, e.g. Catholic)
    map_patterns: Mapping[str, str] = field(default_factory=dict)
    # the style sheets of its pieces on the map, as static paths (its app's static/),
    # which the pages that draw its map load after static/courier/map.css
    map_styles: tuple[str, ...] = ()
    # the orders a viewer may read (payloads by power key) as arrows and markers
    order_marks: Callable[[WorldT, Mapping[str, Payload], Viewer], Sequence[OrderMark]] = (
        no_order_marks
    )
    # order_text(world, power_key, payload): a power's order as sentences in the active
    # language, its lines for the GM aside; None: its fields and values as they are
    order_text: Callable[[WorldT, str, Payload], list[str]] | None = None
    # timeline(state, powers): per series its Reading of a state (as campaign/state/snapshots.py
    # ``decode`` gives it), only what every seat may see; ``powers``: the campaign's
    # Power rows in order. None: the game has no timeline
    timeline: Callable[[dict[str, object], Sequence[Power]], list[Reading]] | None = None
    timeline_title: Label = ""  # what the timeline chart shows
    timeline_caption: Label = ""  # how its values are read


@dataclass(frozen=True)
class Hooks(Generic[WorldT]):
    """The Django side of a ruleset, by direct reference; what is left out has the
    default said beside it."""

    # load_world(campaign, rows) -> the World its forms, services and pages read; rows:
    # a snapshot's (campaign/records/state_rows.py), None: the database's
    load_world: Callable[[Campaign, StateRows | None], WorldT]
    # each phase's key -> how it is played (every phase of the Ruleset has one)
    phases: Mapping[str, PhaseHooks]
    # its tables; None: no tables of its own
    storage: Storage | None = None
    # its scenario section; None: a scenario holds only the core powers and areas
    scenario: ScenarioHooks | None = None
    # {edit key: GM edit form class}; empty: no GM edits
    edit_forms: Mapping[str, type[BaseEditForm]] = field(default_factory=dict)
    # makes those forms' edits; None: no GM edits
    gm_edit: GmEdit | None = None
    # a player's standing orders form; None: none
    standing_form: type[BaseStandingForm] | None = None
    # map badges, table columns and state panels; None: the plain map, coloured by
    # controller, and no timeline
    presenter: Presenter[WorldT] | None = None
    # sees(world, power_key) -> the power keys whose hidden state that power's player may
    # see; None: a game without hidden information
    sees: Callable[[WorldT, str], Iterable[str]] | None = None
    # {topic: answer(world, viewer, item_id) -> the context of the template
    # "campaign/<ruleset>/<topic>.html"}, raising LookupError for what the viewer may not
    # ask about (e.g. "why can't I reinforce this block?"); empty: none
    questions: Mapping[str, Callable[[WorldT, Viewer, int], dict[str, object]]] = field(
        default_factory=dict
    )
    # decisions asked in mid-phase; None: every phase resolves at once
    decisions: Decisions[WorldT] | None = None
    # turn_started(campaign, turn, actor) when a turn's first phase opens; None: nothing
    turn_started: Callable[[Campaign, int, Actor], None] | None = None

    def phase(self, key: str) -> PhaseHooks:
        return self.phases[key]


_registry: dict[str, Ruleset[object]] = {}
_hooks: dict[str, Hooks[object]] = {}


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


def attach(key: str, hooks: Hooks[object]) -> None:
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


def phase_problems(spec: PhaseSpec[object], played: PhaseHooks | None) -> list[str]:
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


def registry() -> dict[str, Ruleset[object]]:
    """Every installed ruleset by key."""
    if not _registry:
        for package in _packages:
            ruleset = import_module(f"{package}.ruleset").RULESET
            _registry[ruleset.key] = ruleset
    return _registry


def ruleset_for(key: str) -> Ruleset[object]:
    """The ruleset with this key; KeyError when there is none."""
    return registry()[key]
