"""Mutation testing of the pure rule modules: which small changes do the tests miss?

Each mutant changes one thing in one module:
- a comparison (``<`` to ``<=`` or ``>=``, ``==`` to ``!=``, ``in`` to ``not in`` …), an
  arithmetic or set operator (``+`` to ``-``, ``*`` to ``/`` …), an integer (``n`` to
  ``n + 1`` and ``n - 1``), a boolean, ``and`` / ``or``, ``min`` / ``max``, or drops a
  unary ``-`` or ``not``;
- deletes a statement (an expression, a call, an assignment or an augmented one, a
  ``raise``), leaving ``pass`` in its place: "delete `world.say(…)`";
- makes a ``return x`` return None (``return None`` and a bare ``return`` are left);
- drops one keyword argument of a call, or gives it None: ``f(a, power=p)`` to ``f(a)``
  and to ``f(a, power=None)``;
- negates a condition: of an ``if``, a ``while``, a conditional expression, an
  ``assert`` (not one that is a single comparison or a ``not``, whose negation the
  comparison's or the unary operator's mutant already is).
A mutant whose function reads the same as the original or as another mutant is left out.
Keys read "scope: before → after" (long code cut to "…"), "#n" telling apart mutants that
read alike in one function.

A mutant inside a function is applied by giving that function the mutated code object (a
method compiled in its class; the functions a nested ``def`` made earlier, such as each
state module's option reader, get theirs too), a module constant by rebinding the name
wherever it was imported, in a forked copy of one pytest session: the tests that ran the
mutated function (recorded once, at the start) run in the fork, fastest first, until one
fails (killed), the fork runs past its time limit (timeout: caught too) or none fails
(survived). A mutant whose code cannot replace the running function's (it changes the
names a closure keeps) is reported as not applied, apart. A test that fails before any
mutant is left out, and said.

The modules are those the registered rulesets declare pure (``Ruleset.pure_modules``, read
from the tests' settings, settings.COURIER_RULESETS: the toy's too; not the corpus
adapter, which is the tests' driver), then the modules directly in rules/ that those
import (how the rules say no, roll, word and log a line, read an option, take orders for
the GM). A module's score is caught / (caught + survived), listed equivalents and
unapplied mutants left out; the survivors are real gaps. Equivalent mutants are listed
once, with why, in bench/mutation-equivalents.toml. Tests that use hypothesis are left
out unless ``--hypothesis`` (they take minutes per mutant). Within a module the mutants
run in an order fixed by their keys but spread over the module, so that a run its budget
cuts short is a fair sample; the report says which modules it cut.

    bench/mutate                                   # every pure module, 15 min each at most
    bench/mutate rules/pax_baltica/supply.py       # one module
    bench/mutate --total 4200 --json out.json      # 70 min in all, shared by the mutants
    bench/mutate --list                            # the modules and their mutants
"""

from __future__ import annotations

import argparse
import ast
import copy
import gc
import hashlib
import importlib
import importlib.util
import json
import os
import signal
import sys
import time
import tomllib
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from _pytest.runner import runtestprotocol

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = "tests.settings"  # the settings the tests run with: their rulesets are the targets
TESTS = (
    "tests/corpus",
    "tests/unit",
    "tests/acceptance",
    "tests/services/test_toy_ruleset.py",  # the toy's whole life, its rules run by the site
)
LEFT_OUT = ("tests/unit/test_catalogs.py",)  # reads the .po catalogs, not the rules
EQUIVALENTS = ROOT / "bench" / "mutation-equivalents.toml"
COMPARISONS = {
    ast.Lt: (ast.LtE, ast.GtE),
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}
OPERATORS = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
}
SWAPPED_CALLS = {"min": "max", "max": "min"}
KILLED, SURVIVED, TIMEOUT, ERROR = "killed", "survived", "timeout", "error"
_SOURCES: dict[str, str] = {}  # each module's text as it was first read: others may edit it


def _source(module: str) -> str:
    if module not in _SOURCES:
        _SOURCES[module] = (ROOT / module).read_text(encoding="utf-8")
    return _SOURCES[module]


# -- targets -----------------------------------------------------------------------------


def targets() -> list[str]:
    """The pure modules of every registered ruleset (its ``pure_modules``), then the
    modules of rules/ they import, as repository paths."""
    os.environ.setdefault("DJANGO_DEBUG", "1")  # as the tests run (pytest-env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    from django.conf import settings

    rulesets = [importlib.import_module(f"{p}.ruleset").RULESET for p in settings.COURIER_RULESETS]
    declared = [
        _path(f"{ruleset.package}.{name}")
        for ruleset in rulesets
        for name in ruleset.pure_modules
        if name != ruleset.corpus_adapter  # the tests' driver, not rules
    ]
    shared: set[str] = set()
    pending = list(declared)
    while pending:
        for name in _shared_imports(pending.pop()):
            path = _path(name)
            if path not in shared:
                shared.add(path)
                pending.append(path)
    return [*declared, *sorted(shared - set(declared))]


def _path(module: str) -> str:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise SystemExit(f"no module {module}")
    return str(Path(spec.origin).resolve().relative_to(ROOT))


def _shared_imports(path: str) -> set[str]:
    """The modules directly in rules/ (not a ruleset's package) that a module imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "rules":
            found |= {f"rules.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {m for m in found if m.count(".") == 1 and (ROOT / f"{m.replace('.', '/')}.py").exists()}


# -- mutants ---------------------------------------------------------------------------


@dataclass
class Mutant:
    module: str  # repository path
    scope: str  # "Class.method", "function", or "" for a module constant
    target: str  # the constant's name, for a module constant
    line: int
    key: str  # "scope: before → after", stable while the code around it stays
    index: int  # the node's position in ast.walk of its scope
    change: tuple  # what to do to that node
    status: str = ""
    tests: int = 0  # how many tests ran it

    @property
    def label(self) -> str:
        return f"{self.module}:{self.line} {self.key}"


def _scopes(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Every function and method body to mutate, and every module constant."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    yield f"{node.name}.{item.name}", item
        elif isinstance(node, ast.Assign) and _constant(node):
            yield "", node


def _constant(node: ast.Assign) -> bool:
    """``NAME = 3`` or ``NAME = (1, 6)``: a literal of numbers bound to one name."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
        return False
    try:
        value = ast.literal_eval(node.value)
    except ValueError:
        return False
    items = value if isinstance(value, tuple) else (value,)
    return bool(items) and all(type(item) is int for item in items)


def _skipped(scope: ast.AST) -> set[int]:
    """ids of the nodes not to mutate: the function's decorators and defaults, and every
    annotation in it (strings at run time: ``from __future__ import annotations``)."""
    skip: list[ast.AST] = []
    if isinstance(scope, ast.FunctionDef):
        skip += scope.decorator_list + scope.args.defaults + scope.args.kw_defaults
    for node in ast.walk(scope):
        if isinstance(node, ast.AnnAssign):
            skip.append(node.annotation)
        elif isinstance(node, ast.FunctionDef):
            skip += [a.annotation for a in ast.walk(node.args) if isinstance(a, ast.arg)]
            skip.append(node.returns)
    return {id(n) for root in skip if root is not None for n in ast.walk(root)}


def _changes(node: ast.AST, function: bool) -> Iterator[tuple]:
    """What may be done to a node; ``function``: it is in a function, not a constant."""
    if isinstance(node, ast.Compare):
        for position, op in enumerate(node.ops):
            for other in COMPARISONS.get(type(op), ()):
                yield ("compare", position, other)
    elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in OPERATORS:
        yield ("operator", OPERATORS[type(node.op)])
    elif isinstance(node, ast.BoolOp):
        yield ("boolean", ast.Or if isinstance(node.op, ast.And) else ast.And)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.Not):
        yield ("unary",)
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield ("value", not node.value)
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield ("value", node.value + 1)
        yield ("value", node.value - 1)
    elif isinstance(node, ast.Call) and getattr(node.func, "id", "") in SWAPPED_CALLS:
        yield ("call", SWAPPED_CALLS[node.func.id])
    if not function:
        return
    if _deletable(node):
        yield ("delete",)
    if isinstance(node, ast.Return) and not _is_none(node.value):
        yield ("none",)
    if isinstance(node, ast.Call):
        for position, keyword in enumerate(node.keywords):
            if keyword.arg is not None:  # not **mapping
                yield ("drop", position)
                if not _is_none(keyword.value):
                    yield ("keyword none", position)
    if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert) and _flippable(node.test):
        yield ("flip",)


def _deletable(node: ast.AST) -> bool:
    """A statement that does something and may go: not a docstring nor ``...``."""
    if isinstance(node, ast.Expr):
        return not isinstance(node.value, ast.Constant)
    if isinstance(node, ast.AnnAssign):
        return node.value is not None
    return isinstance(node, ast.Assign | ast.AugAssign | ast.Raise)


def _is_none(node: ast.AST | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and node.value is None)


def _flippable(test: ast.AST) -> bool:
    """Whether ``not test`` is a mutant of its own: a single comparison's negation is one
    of its comparison mutants (``a < b``: ``a >= b``), a ``not``'s is its unary one."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        return False
    return not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not))


def _apply(node: ast.AST, change: tuple) -> ast.AST:
    """The mutated node (a new one, or ``node`` changed in place)."""
    kind = change[0]
    if kind == "compare":
        node.ops[change[1]] = change[2]()
    elif kind in ("operator", "boolean"):
        node.op = change[1]()
    elif kind == "unary":
        return node.operand
    elif kind == "value":
        node.value = change[1]
    elif kind == "call":
        node.func.id = change[1]
    elif kind == "delete":
        return ast.copy_location(ast.Pass(), node)
    elif kind == "none":
        node.value = ast.copy_location(ast.Constant(None), node.value)
    elif kind == "drop":
        del node.keywords[change[1]]
    elif kind == "keyword none":
        keyword = node.keywords[change[1]]
        keyword.value = ast.copy_location(ast.Constant(None), keyword.value)
    elif kind == "flip":
        node.test = ast.copy_location(ast.UnaryOp(ast.Not(), node.test), node.test)
    return node


def _context(parents: dict[int, ast.AST], node: ast.AST) -> ast.AST:
    """What a mutant's key shows: the node, or for a number or name its expression."""
    if isinstance(node, ast.Constant | ast.Call):
        parent = parents.get(id(node))
        if isinstance(parent, ast.expr):
            return parent
    return node


def _brief(node: ast.AST, width: int = 60) -> str:
    """A node's code on one line, cut to ``width`` characters."""
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _statement_key(node: ast.AST, change: tuple) -> str | None:
    """The key of a mutant of the statement kinds ("delete `x = 1`"), None for the others."""
    kind = change[0]
    if kind == "delete":
        return f"delete `{_brief(node)}`"
    if kind == "none":
        return f"return {_brief(node.value)} → return None"
    if kind in ("drop", "keyword none"):
        keyword = node.keywords[change[1]]
        before = f"{_brief(node.func, 30)}(…, {keyword.arg}={_brief(keyword.value, 40)})"
        after = "(…)" if kind == "drop" else f"(…, {keyword.arg}=None)"
        return f"{before} → {_brief(node.func, 30)}{after}"
    if kind == "flip":
        test = _brief(node.test)
        if isinstance(node, ast.IfExp):
            return f"… if {test} else … → … if not ({test}) else …"
        word = {ast.If: "if", ast.While: "while", ast.Assert: "assert"}[type(node)]
        return f"{word} {test} → {word} not ({test})"
    return None


def mutants_of(module: str) -> list[Mutant]:
    """Every mutant of a module, in source order, with keys made unique by ``#n``; a
    mutant whose scope reads as the original's or an earlier mutant's is left out."""
    tree = ast.parse(_source(module))
    found: list[Mutant] = []
    for scope_name, scope in _scopes(tree):
        skip = _skipped(scope)
        nodes = list(ast.walk(scope))
        parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
        target = scope.targets[0].id if isinstance(scope, ast.Assign) else ""
        function = isinstance(scope, ast.FunctionDef)
        texts = {ast.unparse(scope)}
        for index, node in enumerate(nodes):
            if id(node) in skip:
                continue
            for change in _changes(node, function):
                shown = _context(parents, node)
                mutated, after = _mutated_text(scope, index, change, nodes.index(shown))
                if mutated in texts:
                    continue
                texts.add(mutated)
                described = _statement_key(node, change)
                if described is None:
                    described = f"{ast.unparse(shown)} → {after}"
                key = f"{scope_name or target}: {described}"
                line = getattr(node, "lineno", scope.lineno)
                found.append(Mutant(module, scope_name, target, line, key, index, change))
    seen: dict[str, int] = {}
    for mutant in found:
        seen[mutant.key] = seen.get(mutant.key, 0) + 1
        if seen[mutant.key] > 1:
            mutant.key += f" #{seen[mutant.key]}"
    return found


def _mutated_text(scope: ast.AST, index: int, change: tuple, shown: int) -> tuple[str, str]:
    """The mutated scope's code, and the code of the node its key shows."""
    twin = copy.deepcopy(scope)
    nodes = list(ast.walk(twin))
    parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
    new = _apply(nodes[index], change)
    if new is not nodes[index]:
        _replace(parents[id(nodes[index])], nodes[index], new)
    return ast.unparse(twin), ast.unparse(new if shown == index else nodes[shown])


def _replace(parent: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for name, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, name, new)
        elif isinstance(value, list):
            parent_list = value
            for position, item in enumerate(parent_list):
                if item is old:
                    parent_list[position] = new


def _mutated_scope(mutant: Mutant) -> ast.AST:
    tree = ast.parse(_source(mutant.module))
    scope = dict(_scopes(tree))[mutant.scope] if mutant.scope else _named(tree, mutant.target)
    nodes = list(ast.walk(scope))
    parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
    new = _apply(nodes[mutant.index], mutant.change)
    if new is not nodes[mutant.index]:
        _replace(parents[id(nodes[mutant.index])], nodes[mutant.index], new)
    return scope


def _named(tree: ast.Module, name: str) -> ast.Assign:
    return next(s for n, s in _scopes(tree) if not n and s.targets[0].id == name)


def apply_mutant(mutant: Mutant, module: types.ModuleType) -> None:
    """Give the running code the mutant: a function its new code, a constant its value."""
    scope = _mutated_scope(mutant)
    if not mutant.scope:
        old, new = getattr(module, mutant.target), ast.literal_eval(scope.value)
        for loaded in list(sys.modules.values()):
            ours = getattr(loaded, "__name__", "").startswith(("rules", "tests", "bench"))
            if ours and vars(loaded).get(mutant.target) is old:
                setattr(loaded, mutant.target, new)
        return
    scope.decorator_list = []
    owner = mutant.scope.rpartition(".")[0]
    body: list[ast.stmt] = [scope]
    if owner:  # a method compiled in its class: ``super()`` needs the class's cell
        body = [ast.ClassDef(owner, [], [], body, [])]
    tree = ast.fix_missing_locations(ast.Module(body, []))
    code = compile(tree, str(ROOT / mutant.module), "exec")
    new_code = next(c for c in _nested(code) if c.co_qualname == mutant.scope)
    function = _function(module, mutant.scope)
    if new_code.co_freevars != function.__code__.co_freevars:
        raise RuntimeError(f"cannot swap the code of {mutant.scope}")
    if any(isinstance(node, ast.FunctionDef) for node in ast.walk(scope) if node is not scope):
        _swap_closures(function.__code__, new_code)
    function.__code__ = new_code


def _swap_closures(old: types.CodeType, new: types.CodeType) -> None:
    """The functions a nested ``def`` of ``old`` made before the mutant was applied (the
    option reader each state module makes at import) get their mutated code too;
    RuntimeError when one cannot (the mutant changes the names it closes over)."""
    news = {(c.co_qualname, c.co_firstlineno): c for c in _nested(new)}
    swap = {id(c): news.get((c.co_qualname, c.co_firstlineno)) for c in _nested(old)}
    for item in gc.get_objects():
        if isinstance(item, types.FunctionType) and swap.get(id(item.__code__)) is not None:
            code = swap[id(item.__code__)]
            if code.co_freevars != item.__code__.co_freevars:
                raise RuntimeError(f"cannot swap the code of {item.__qualname__}")
            item.__code__ = code


def _nested(code: types.CodeType) -> Iterator[types.CodeType]:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested(const)


def _function(module: types.ModuleType, scope: str) -> types.FunctionType:
    owner, _, name = scope.rpartition(".")
    found = vars(getattr(module, owner))[name] if owner else vars(module)[name]
    if isinstance(found, property):
        return found.fget
    return getattr(found, "__func__", found)


# -- equivalents -------------------------------------------------------------------------


def load_equivalents() -> dict[tuple[str, str], str]:
    """(module, mutant key) → why the mutant cannot change what the rules do."""
    if not EQUIVALENTS.exists():
        return {}
    data = tomllib.loads(EQUIVALENTS.read_text(encoding="utf-8"))
    return {(e["module"], e["mutant"]): e["why"] for e in data.get("equivalent", [])}


# -- running -----------------------------------------------------------------------------


@dataclass
class Coverage:
    """What the baseline run saw: per test, the scopes it ran and its duration."""

    scopes: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def _top_scope(code: types.CodeType) -> str:
    qualname = code.co_qualname.split(".<locals>")[0]
    return qualname.replace(".<lambda>", "")


class Runner:
    """A pytest plugin that replaces the test loop: baseline, then one fork per mutant."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.results: dict[str, list[Mutant]] = {}
        self.seconds: dict[str, tuple[int, int]] = {}  # per module: (spent, budget)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        for module in self.options.modules:  # as imported: others may edit the files
            _source(module)
        if session.testsfailed:
            print(f"{session.testsfailed} test files failed to load", file=sys.stderr)
        items = [i for i in session.items if self._wanted(i)]
        files = {str(ROOT / m): m for m in self.options.modules}
        coverage = self._baseline(items, files)
        items = [i for i in items if i.nodeid in coverage.scopes]
        found = {module: mutants_of(module) for module in self.options.modules}
        deadline = time.monotonic() + (self.options.total or 0)
        left = sum(len(mutants) for mutants in found.values())
        for module, mutants in found.items():
            budget = self.options.budget
            if self.options.total:  # the time left, shared in proportion to the mutants left
                budget = max(0.0, deadline - time.monotonic()) * len(mutants) / max(left, 1)
            left -= len(mutants)
            started = time.monotonic()
            self._mutate(module, mutants, items, coverage, budget)
            self.results[module] = mutants
            self.seconds[module] = (round(time.monotonic() - started), round(budget))
        return True

    def _wanted(self, item: pytest.Item) -> bool:
        if any(item.nodeid.startswith(path) for path in LEFT_OUT):
            return False
        hypothesis = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
        return self.options.hypothesis or not hypothesis

    def _baseline(self, items: list[pytest.Item], files: dict[str, str]) -> Coverage:
        """Each test run once, traced; one that fails here is left out of the mutants'."""
        coverage = Coverage()
        print(f"baseline: {len(items)} tests", file=sys.stderr)
        for position, item in enumerate(items):
            seen: set[tuple[str, str]] = set()

            def trace(frame, event, arg, seen=seen):
                module = files.get(frame.f_code.co_filename)
                if module is not None:
                    seen.add((module, _top_scope(frame.f_code)))

            nextitem = items[position + 1] if position + 1 < len(items) else None
            start = time.perf_counter()
            sys.setprofile(trace)
            try:
                reports = runtestprotocol(item, log=False, nextitem=nextitem)
            finally:
                sys.setprofile(None)
            if any(r.failed for r in reports):
                print(f"baseline failure, left out: {item.nodeid}", file=sys.stderr)
                continue
            coverage.scopes[item.nodeid] = seen
            coverage.seconds[item.nodeid] = time.perf_counter() - start
        return coverage

    def _mutate(
        self,
        module: str,
        mutants: list[Mutant],
        items: list[pytest.Item],
        coverage: Coverage,
        budget: float,
    ) -> None:
        """Run the module's mutants until its budget is spent, in an order fixed by their
        keys but spread over the module, so that a run cut short is a fair sample."""
        loaded = importlib.import_module(module.removesuffix(".py").replace("/", "."))
        started = time.monotonic()
        spread = sorted(mutants, key=lambda m: hashlib.sha256(m.key.encode()).digest())
        for number, mutant in enumerate(spread, 1):
            if time.monotonic() - started > budget:
                print(f"{module}: budget of {budget:.0f} s spent", file=sys.stderr)
                break
            chosen = [
                i for i in items if _covers(coverage.scopes[i.nodeid], module, mutant, loaded)
            ]
            chosen.sort(key=lambda i: coverage.seconds[i.nodeid])
            mutant.tests = len(chosen)
            limit = 10 + 5 * sum(coverage.seconds[i.nodeid] for i in chosen)
            mutant.status = _run_fork(mutant, loaded, chosen, limit) if chosen else SURVIVED
            if mutant.status in (SURVIVED, ERROR) or number % 50 == 0:
                print(f"{number}/{len(mutants)} {mutant.status}: {mutant.label}", file=sys.stderr)


def _covers(scopes: set[tuple[str, str]], module: str, mutant: Mutant, loaded) -> bool:
    """Whether a test ran the mutated function (any function of the module, for a
    constant)."""
    if mutant.scope:
        return (module, mutant.scope) in scopes
    return any(m == module for m, _ in scopes)


def _run_fork(mutant: Mutant, module: types.ModuleType, items: list, limit: float) -> str:
    pid = os.fork()
    if pid == 0:
        os._exit(_child(mutant, module, items, limit))
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG | os.WUNTRACED)
        if done and os.WIFSTOPPED(status):  # stopped from outside: let it go on
            os.kill(pid, signal.SIGCONT)
        elif done:
            code = os.waitstatus_to_exitcode(status)
            return {0: SURVIVED, 1: KILLED, 3: ERROR}.get(code, TIMEOUT)
        time.sleep(0.005)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return TIMEOUT


def _child(mutant: Mutant, module: types.ModuleType, items: list, limit: float) -> int:
    """In the fork: apply the mutant, run the tests until one fails. 0 survived, 1 killed,
    3 the mutant could not be applied."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:
        apply_mutant(mutant, module)
    except Exception:  # noqa: BLE001 - any failure to build the mutant is reported as such
        return 3
    for position, item in enumerate(items):
        nextitem = items[position + 1] if position + 1 < len(items) else None
        try:
            reports = runtestprotocol(item, log=False, nextitem=nextitem)
        except BaseException:  # noqa: BLE001 - a mutant may break pytest's own machinery
            return 1
        if any(r.failed for r in reports):
            return 1
    return 0


# -- report ------------------------------------------------------------------------------


def summary(
    results: dict[str, list[Mutant]], equivalents: dict, seconds: dict | None = None
) -> dict:
    """Per module: counts, score and the survivors that are not listed equivalents.
    Caught: killed (a test failed) or timed out. A mutant the tool could not apply (its
    code cannot replace the running function's: it changes the names a closure keeps) is
    counted apart, neither caught nor survived. The score is caught over the mutants run
    that are neither listed equivalents nor unapplied (a listed one that is caught counts
    as caught)."""
    report = {}
    for module, mutants in results.items():
        run = [m for m in mutants if m.status]
        listed = [m for m in run if (module, m.key) in equivalents]
        caught = [m for m in run if m.status in (KILLED, TIMEOUT)]
        unapplied = sorted((m for m in run if m.status == ERROR), key=lambda m: m.line)
        real = [m for m in run if m.status == SURVIVED and m not in listed]
        real.sort(key=lambda m: m.line)
        listed_caught = [m.key for m in listed if m.status in (KILLED, TIMEOUT)]
        keys = {m.key for m in mutants}
        stale = [k for (mod, k) in equivalents if mod == module and k not in keys]
        equivalent = [m for m in listed if m.status == SURVIVED]
        counted = len(caught) + len(real)
        spent, budget = (seconds or {}).get(module, (0, 0))
        report[module] = {
            "mutants": len(mutants),
            "run": len(run),
            "equivalent": len(equivalent),
            "killed": sum(m.status == KILLED for m in run),
            "timeouts": sum(m.status == TIMEOUT for m in run),
            "survived": len(real),
            "unapplied": len(unapplied),
            "score": round(100 * len(caught) / counted, 1) if counted else 100.0,
            "budget_hit": len(run) < len(mutants),
            "seconds": spent,
            "budget": budget,
            "survivors": [f"{m.label} ({m.tests} tests)" for m in real],
            "not_applied": [m.label for m in unapplied],
            "listed_but_killed": listed_caught,
            "listed_but_gone": stale,
        }
    return report


def print_report(report: dict, seconds: float) -> None:
    print(f"\nmutation run: {seconds:.0f} s")
    print("| module | mutants | run | equivalent | killed | timeouts | survived | caught |")
    print("|---|---|---|---|---|---|---|---|")
    for module, r in report.items():
        keys = ("mutants", "run", "equivalent", "killed", "timeouts", "survived")
        row = " | ".join(str(r[k]) for k in keys)
        notes = [f"budget hit: {r['budget']} s" if r["budget_hit"] else ""]
        notes.append(f"{r['unapplied']} not applied" if r["unapplied"] else "")
        note = "; ".join(n for n in notes if n)
        print(f"| {module}{f' ({note})' if note else ''} | {row} | {r['score']}% |")
    for module, r in report.items():
        for label in r["survivors"]:
            print(f"survived: {label}")
        for label in r["not_applied"]:
            print(f"not applied: {label}")
        for key in r["listed_but_killed"]:
            print(f"listed as equivalent but killed (remove it): {module} {key}")
        for key in r["listed_but_gone"]:
            print(f"listed as equivalent but no longer a mutant (remove it): {module} {key}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="repository paths (default: every target)")
    parser.add_argument("--budget", type=float, default=900, help="seconds per module")
    parser.add_argument(
        "--total",
        type=float,
        help="seconds for the whole run instead, shared among the modules by their mutants",
    )
    parser.add_argument("--hypothesis", action="store_true", help="run hypothesis tests too")
    parser.add_argument("--json", type=Path, help="write the results here too")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    options = parser.parse_args(argv)
    os.chdir(ROOT)
    if str(ROOT) not in sys.path:  # run as a script: its own folder is first on the path
        sys.path.insert(0, str(ROOT))
    options.modules = [str(Path(m)) for m in options.modules] or targets()
    if options.list:
        for module in options.modules:
            mutants = mutants_of(module)
            print(f"{module}: {len(mutants)} mutants")
            for mutant in mutants:
                print(f"  {mutant.label}")
        return 0
    runner = Runner(options)
    start = time.monotonic()
    tests = [path for path in TESTS if (ROOT / path).exists()]
    args = [*tests, "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "no:randomly"]
    pytest.main(args, plugins=[runner])
    report = summary(runner.results, load_equivalents(), runner.seconds)
    print_report(report, time.monotonic() - start)
    if options.json:
        options.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
