"""Mutation testing of the pure rule modules: which one-token changes do the tests miss?

Each mutant changes one thing in one module: a comparison (``<`` to ``<=`` or ``>=``,
``==`` to ``!=``, ``in`` to ``not in`` …), an arithmetic or set operator (``+`` to
``-``, ``*`` to ``/`` …), an integer (``n`` to ``n + 1`` and ``n - 1``), a boolean,
``and`` / ``or``, ``min`` / ``max``, or drops a unary ``-`` or ``not``. A mutant inside
a function is applied by giving that function the mutated code object, a module
constant by rebinding the name wherever it was imported, in a forked copy of one
pytest session: the tests that ran the mutated function (recorded once, at the start)
run in the fork, fastest first, until one fails (killed) or none does (survived).

The score of a module is killed / (mutants − listed equivalents); the survivors left
are real gaps. Equivalent mutants are listed once, with why, in
bench/mutation-equivalents.toml. Tests that use hypothesis are left out unless
``--hypothesis`` (they take minutes per mutant).

    bench/mutate                                   # every pure module, 15 min each at most
    bench/mutate rules/pax_baltica/supply.py       # one module
    bench/mutate --budget 120 --json out.json      # a shorter run, results as JSON
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib
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
MODULES = (
    *(
        f"rules/{ruleset}/{name}.py"
        for ruleset, names in (
            ("empires_in_arms", ("procedures", "phases", "legal", "edits")),
            ("pax_baltica", ("procedures", "phases", "legal", "supply", "edits")),
            ("virgin_queen", ("procedures", "edits")),
        )
        for name in names
    ),
    "rules/refusals.py",  # the refusals and the bounds check every ruleset's edits share
)
TESTS = ("tests/corpus", "tests/unit", "tests/acceptance")
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


def _changes(node: ast.AST) -> Iterator[tuple]:
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
    return node


def _context(parents: dict[int, ast.AST], node: ast.AST) -> ast.AST:
    """What a mutant's key shows: the node, or for a number or name its expression."""
    if isinstance(node, ast.Constant | ast.Call):
        parent = parents.get(id(node))
        if isinstance(parent, ast.expr):
            return parent
    return node


def mutants_of(module: str) -> list[Mutant]:
    """Every mutant of a module, in source order, with keys made unique by ``#n``."""
    tree = ast.parse(_source(module))
    found: list[Mutant] = []
    for scope_name, scope in _scopes(tree):
        skip = _skipped(scope)
        nodes = list(ast.walk(scope))
        parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
        target = scope.targets[0].id if isinstance(scope, ast.Assign) else ""
        for index, node in enumerate(nodes):
            if id(node) in skip:
                continue
            for change in _changes(node):
                shown = _context(parents, node)
                before = ast.unparse(shown)
                after = _mutated_text(scope, index, change, nodes.index(shown))
                key = f"{scope_name or target}: {before} → {after}"
                line = getattr(node, "lineno", scope.lineno)
                found.append(Mutant(module, scope_name, target, line, key, index, change))
    seen: dict[str, int] = {}
    for mutant in found:
        seen[mutant.key] = seen.get(mutant.key, 0) + 1
        if seen[mutant.key] > 1:
            mutant.key += f" #{seen[mutant.key]}"
    return found


def _mutated_text(scope: ast.AST, index: int, change: tuple, shown: int) -> str:
    twin = copy.deepcopy(scope)
    nodes = list(ast.walk(twin))
    parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
    new = _apply(nodes[index], change)
    if shown == index:
        return ast.unparse(new)
    if new is not nodes[index]:
        _replace(parents[id(nodes[index])], nodes[index], new)
    return ast.unparse(nodes[shown])


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
    code = compile(ast.Module([scope], []), str(ROOT / mutant.module), "exec")
    new_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    function = _function(module, mutant.scope)
    if new_code.co_freevars != function.__code__.co_freevars:
        raise RuntimeError(f"cannot swap the code of {mutant.scope}")
    function.__code__ = new_code


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

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        for module in self.options.modules:  # as imported: others may edit the files
            _source(module)
        items = [i for i in session.items if self._wanted(i)]
        files = {str(ROOT / m): m for m in self.options.modules}
        coverage = self._baseline(items, files)
        if coverage is None:
            return True
        for module in self.options.modules:
            self.results[module] = self._mutate(module, items, coverage)
        return True

    def _wanted(self, item: pytest.Item) -> bool:
        if any(item.nodeid.startswith(path) for path in LEFT_OUT):
            return False
        hypothesis = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
        return self.options.hypothesis or not hypothesis

    def _baseline(self, items: list[pytest.Item], files: dict[str, str]) -> Coverage | None:
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
                print(f"baseline failure, stopping: {item.nodeid}", file=sys.stderr)
                return None
            coverage.scopes[item.nodeid] = seen
            coverage.seconds[item.nodeid] = time.perf_counter() - start
        return coverage

    def _mutate(self, module: str, items: list[pytest.Item], coverage: Coverage) -> list[Mutant]:
        loaded = importlib.import_module(module.removesuffix(".py").replace("/", "."))
        mutants = mutants_of(module)
        started = time.monotonic()
        for number, mutant in enumerate(mutants, 1):
            if time.monotonic() - started > self.options.budget:
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
        return mutants


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


def summary(results: dict[str, list[Mutant]], equivalents: dict) -> dict:
    """Per module: counts, score and the survivors that are not listed equivalents."""
    report = {}
    for module, mutants in results.items():
        run = [m for m in mutants if m.status]
        equivalent = [m for m in run if (module, m.key) in equivalents]
        killed = [m for m in run if m.status in (KILLED, TIMEOUT)]
        real = [m for m in run if m.status in (SURVIVED, ERROR) and m not in equivalent]
        real.sort(key=lambda m: m.line)
        listed_killed = [m.key for m in equivalent if m.status in (KILLED, TIMEOUT)]
        keys = {m.key for m in mutants}
        stale = [k for (mod, k) in equivalents if mod == module and k not in keys]
        counted = len(run) - len(equivalent) + len(listed_killed)
        report[module] = {
            "mutants": len(mutants),
            "run": len(run),
            "killed": len(killed),
            "timeouts": sum(m.status == TIMEOUT for m in run),
            "equivalent": len(equivalent) - len(listed_killed),
            "survivors": [m.label for m in real],
            "score": round(100 * len(killed) / counted, 1) if counted else 100.0,
            "listed_but_killed": listed_killed,
            "listed_but_gone": stale,
        }
    return report


def print_report(report: dict, seconds: float) -> None:
    print(f"\nmutation run: {seconds:.0f} s")
    print("| module | mutants | run | killed | equivalent | survived | score |")
    print("|---|---|---|---|---|---|---|")
    for module, r in report.items():
        survived = len(r["survivors"])
        row = (module, r["mutants"], r["run"], r["killed"], r["equivalent"], survived)
        print("| {} | {} | {} | {} | {} | {} |".format(*row), f"{r['score']}% |")
    for module, r in report.items():
        for label in r["survivors"]:
            print(f"survived: {label}")
        for key in r["listed_but_killed"]:
            print(f"listed as equivalent but killed (remove it): {module} {key}")
        for key in r["listed_but_gone"]:
            print(f"listed as equivalent but no longer a mutant (remove it): {module} {key}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", default=list(MODULES))
    parser.add_argument("--budget", type=float, default=900, help="seconds per module")
    parser.add_argument("--hypothesis", action="store_true", help="run hypothesis tests too")
    parser.add_argument("--json", type=Path, help="write the results here too")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    options = parser.parse_args(argv)
    options.modules = [str(Path(m)) for m in options.modules]
    if options.list:
        for module in options.modules:
            for mutant in mutants_of(module):
                print(mutant.label)
        return 0
    os.chdir(ROOT)
    runner = Runner(options)
    start = time.monotonic()
    tests = [path for path in TESTS if (ROOT / path).exists()]
    args = [*tests, "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "no:randomly"]
    pytest.main(args, plugins=[runner])
    report = summary(runner.results, load_equivalents())
    print_report(report, time.monotonic() - start)
    if options.json:
        options.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
