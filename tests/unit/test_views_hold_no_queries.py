"""The views read through selectors and parse through forms: no module of campaign/views
builds a query (a manager, a QuerySet method, django.db.models, a paginator over rows)
or reads a request's parameters but as the data of a form it binds
(``SomeForm(request.POST)``). The objects a URL names are found in access.py alone
(``get_object_or_404``). Each rule is shown catching a planted example."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "campaign" / "views"
ACCESS = "access.py"  # where the objects a URL names are found

# QuerySet and manager methods that no other object a view handles has.
QUERY_METHODS = frozenset(
    {
        "aggregate",
        "alias",
        "all",
        "annotate",
        "bulk_create",
        "bulk_update",
        "dates",
        "datetimes",
        "defer",
        "distinct",
        "earliest",
        "exclude",
        "exists",
        "explain",
        "extra",
        "filter",
        "first",
        "get_or_create",
        "in_bulk",
        "iterator",
        "last",
        "latest",
        "none",
        "only",
        "order_by",
        "prefetch_related",
        "raw",
        "refresh_from_db",
        "select_for_update",
        "select_related",
        "update_or_create",
        "using",
        "values_list",
    }
)
MANAGERS = frozenset({"objects", "_default_manager", "_base_manager"})
QUERY_MODULES = ("django.db.models", "django.core.paginator")
QUERY_NAMES = {"django.db": {"models", "connection", "connections"}}
LOOKUPS = frozenset({"get_object_or_404", "get_list_or_404"})
PARAMETERS = frozenset({"GET", "POST", "body", "FILES"})


def words(name: str) -> set[str]:
    """The lower-case words of a snake_case or CamelCase name."""
    return {w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name)}


def binds_a_form(call: ast.Call) -> bool:
    """Whether the call makes a form: ``SomeForm(…)``, ``SomeForm.for_campaign(…)``,
    ``state.order_form(…)``, ``form_class(…)``."""
    func, names = call.func, []
    if isinstance(func, ast.Name):
        names = [func.id]
    elif isinstance(func, ast.Attribute):
        names = [func.attr]
        if isinstance(func.value, ast.Name):
            names.append(func.value.id)
    return any("form" in words(name) for name in names)


def is_parameters(node: ast.AST) -> bool:
    """``request.POST``, ``request.GET`` (…) of a ``request`` or ``self.request``."""
    if not (isinstance(node, ast.Attribute) and node.attr in PARAMETERS):
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id == "request") or (
        isinstance(owner, ast.Attribute) and owner.attr == "request"
    )


def form_data(call: ast.Call) -> list[ast.AST]:
    """The arguments a form is bound to: each one, or the operands of ``x or None`` and
    of ``x if … else None``."""
    found, todo = [], [*call.args, *(kw.value for kw in call.keywords)]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.BoolOp):
            todo += node.values
        elif isinstance(node, ast.IfExp):
            todo += [node.body, node.orelse]
        else:
            found.append(node)
    return found


def ambiguous_query(call: ast.Call) -> bool:
    """A QuerySet call whose method a dict or list also has, told apart by its arguments:
    ``.get(pk=…)``, ``.count()``, ``.values("key")``, ``.update(x=…)``, ``.create(x=…)``."""
    name, args, keywords = call.func.attr, call.args, call.keywords
    if name in ("get", "update", "create"):
        return not args and bool(keywords)
    if name == "count":
        return not args and not keywords
    return name == "values" and bool(args or keywords)


def refusals(source: str, *, access: bool = False) -> list[str]:
    """What in a view module's ``source`` builds a query or reads a request's parameters
    outside a form, as "line: what"; ``access``: the module where URLs' objects are found."""
    tree = ast.parse(source)
    bound = {
        id(node)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and binds_a_form(call)
        for node in form_data(call)
        if is_parameters(node)
    }
    found = []
    for node in ast.walk(tree):
        said = refusal(node, bound, access)
        if said:
            found.append(f"{node.lineno}: {said}")
    return sorted(found)


def refusal(node: ast.AST, bound: set[int], access: bool) -> str:
    """Why ``node`` is refused; "" when it is not."""
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module.startswith(QUERY_MODULES):
            return f"imports {node.module}"
        names = QUERY_NAMES.get(node.module, set()) & {alias.name for alias in node.names}
        return f"imports {', '.join(sorted(names))} from {node.module}" if names else ""
    if isinstance(node, ast.Import):
        modules = [alias.name for alias in node.names if alias.name.startswith(QUERY_MODULES)]
        return f"imports {', '.join(modules)}" if modules else ""
    if isinstance(node, ast.Attribute) and node.attr in MANAGERS:
        return f"reads the manager .{node.attr}"
    if is_parameters(node) and id(node) not in bound:
        return f"reads request.{node.attr} outside a form"
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    if name in LOOKUPS and not access:
        return f"calls {name} outside {ACCESS}"
    if isinstance(func, ast.Attribute) and (name in QUERY_METHODS or ambiguous_query(node)):
        return f"calls the QuerySet method .{name}()"
    return ""


def view_modules() -> list[Path]:
    return sorted(VIEWS.glob("*.py"))


def test_every_view_module_is_read():
    names = {path.name for path in view_modules()}
    assert {"context.py", "gm.py", "history.py", "orders.py", "pages.py", ACCESS} <= names
    assert len(names) > 30


@pytest.mark.parametrize("path", view_modules(), ids=lambda path: path.name)
def test_a_view_module_builds_no_query_and_parses_through_forms(path):
    source = path.read_text(encoding="utf-8")
    assert refusals(source, access=path.name == ACCESS) == []


PLANTED = {
    "a manager": "rows = Seat.objects.all()",
    "a QuerySet chain": "rows = Power.objects.filter(campaign=c).order_by('key')",
    "a related manager": "powers = list(campaign.powers.all())",
    "a related manager's values": "areas = campaign.areas.values('key', 'name')",
    "a lookup by keywords": "seat = campaign.seats.get(pk=seat_id)",
    "a count": "n = phase.orders.count()",
    "an update": "Campaign.objects.filter(pk=1).update(version=2)",
    "a row read again": "offer.refresh_from_db()",
    "an existence check": "found = state.campaign.events.filter(pk=3).exists()",
    "a query expression": "from django.db.models import Q",
    "a query function": "from django.db.models.functions import Coalesce",
    "the models module": "from django.db import models",
    "a paginator": "from django.core.paginator import Paginator",
    "a 404 lookup outside access.py": "seat = get_object_or_404(Seat, pk=1)",
    "a posted value": "phase = request.POST.get('phase', '')",
    "a query value": "page = request.GET['page']",
    "a class view's query": "page = self.request.GET.get('page')",
    "parameters handed to a helper": "fields = order_fields(request.POST)",
    "parameters beside a form": "form = NoteForm(request.POST, key=key_sent(request.POST))",
    "the raw body": "data = json.loads(request.body)",
}

ALLOWED = {
    "a form": "form = AwayForm(request.POST)",
    "a form or none": "form = ProfileForm(request.POST or None, instance=profile)",
    "a form on POST": "form = AnswerForm(request.POST if request.method == 'POST' else None)",
    "a form's class method": "form = OptionsForm.for_campaign(campaign, request.POST)",
    "a state's form": "form = state.order_form(request.POST)",
    "a form class": "form = form_class(request.POST, world=world)",
    "a query's form": "part = PressQueryForm(request.GET).values['part']",
    "a dict's get": "label = names.get(key, '')",
    "a dict's values": "rows = list(found.values())",
    "a dict's update": "panel.update(body)",
    "a list's count": "n = keys.count('x')",
    "transaction": "from django.db import IntegrityError, transaction",
    "a selector": "phases = campaign_phases(campaign)",
}


@pytest.mark.parametrize("source", PLANTED.values(), ids=PLANTED.keys())
def test_a_planted_query_or_parameter_is_refused(source):
    assert refusals(source)


@pytest.mark.parametrize("source", ALLOWED.values(), ids=ALLOWED.keys())
def test_a_form_or_a_plain_value_is_not(source):
    assert refusals(source) == []


def test_a_view_module_with_one_query_planted_is_refused():
    source = (VIEWS / "gm.py").read_text(encoding="utf-8")
    planted = source + "\n\ndef seats(c):\n    return Seat.objects.filter(campaign=c)\n"
    assert refusals(source) == []
    assert refusals(planted) == [
        f"{len(source.splitlines()) + 4}: calls the QuerySet method .filter()",
        f"{len(source.splitlines()) + 4}: reads the manager .objects",
    ]


def test_the_lookups_of_access_py_are_its_own():
    assert refusals("seat = get_object_or_404(Seat, pk=1)", access=True) == []
    assert refusals("seat = Seat.objects.get(pk=1)", access=True)
