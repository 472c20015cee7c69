"""What a client could send to Courier, derived from the code and the pages: the URL conf's
routes, the parameters each view reads (literal ``request.GET``/``request.POST`` names,
the fields of the form classes it names), the routes the templates post or link to with
a query, and the forms and links of rendered pages (their fields, offered values and path
arguments). Used by test_form_fuzz.py."""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from django import forms
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

# -- the URL conf ----------------------------------------------------------------------

ARGUMENT = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")  # <id:pk>, (?P<pk>...)


@dataclass(frozen=True)
class Route:
    """One pattern of the URL conf, with its full name ("campaign:edit", "login")."""

    name: str
    pattern: str  # the pieces of the route, joined: "campaigns/<id:campaign_id>/..."
    callback: object

    @property
    def kwargs(self) -> list[str]:
        return [a or b for a, b in ARGUMENT.findall(self.pattern)]

    @property
    def namespace(self) -> str:
        return self.name.rpartition(":")[0]

    def path(self, values: dict[str, str]) -> str:
        """The path with each argument replaced by its value, quoted (a value the
        converter refuses makes a path the resolver does not match: a 404)."""

        def value(match: re.Match) -> str:
            return quote(str(values[match.group(1) or match.group(2)]), safe="")

        path = ARGUMENT.sub(value, self.pattern)
        return "/" + path.replace("^", "").replace("$", "")


def routes() -> list[Route]:
    """Every pattern of the URL conf (the admin's too)."""
    found = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                inner = f"{namespace}{p.namespace}:" if p.namespace else namespace
                walk(p.url_patterns, prefix + str(p.pattern), inner)
            elif isinstance(p, URLPattern):
                callback = p.callback  # unnamed: named as ResolverMatch.view_name names it
                unnamed = f"{callback.__module__}.{getattr(callback, '__name__', '')}"
                name = f"{namespace}{p.name or unnamed}"
                found.append(Route(name, prefix + str(p.pattern), p.callback))

    walk(get_resolver().url_patterns, "", "")
    return found


def route_name(path: str) -> tuple[str, dict] | None:
    """The full name and arguments of the route a path resolves to (None: a 404)."""
    try:
        match = resolve(unquote(urlsplit(path).path))  # as the server decodes it
    except Resolver404:
        return None
    return match.view_name, match.kwargs


# -- what the views read ---------------------------------------------------------------

READ = re.compile(r"request\.(?:GET|POST)(?:\.get|\.getlist)?\s*[\[(]\s*[\"']([\w-]+)[\"']")


def source_of(function) -> str:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


@cache
def read_by_hand(callback) -> frozenset[str]:
    """The names a function view reads from ``request.GET``/``POST`` itself (no form
    checks them for it)."""
    return frozenset(READ.findall(source_of(inspect.unwrap(callback))))


@cache
def view_reads(callback) -> frozenset[str]:
    """The parameter names a view reads: literal ``request.GET``/``POST`` names in its
    source, and the declared fields of the form classes it names (or its form_class)."""
    view_class = getattr(callback, "view_class", None)
    if view_class is not None:
        form_class = getattr(view_class, "form_class", None)
        return frozenset(form_class.base_fields if form_class else ())
    function = inspect.unwrap(callback)
    source = source_of(function)
    names = set(READ.findall(source))
    scope = getattr(function, "__globals__", {})
    for word in set(re.findall(r"\b([A-Z]\w*Form)\b", source)):
        form_class = scope.get(word)
        if isinstance(form_class, type) and issubclass(form_class, forms.BaseForm):
            names |= set(form_class.base_fields)
    return frozenset(names)


FORM_TAG = re.compile(r"<form\b[^>]*>", re.S)
URL_TAG = re.compile(r"\{%\s*url\s+'([^']+)'")
QUERY_LINK = re.compile(r"\{%\s*url\s+'([^']+)'[^%]*%\}\?")


@cache
def template_targets() -> frozenset[str]:
    """Route names the project's templates post a form to, or link to with a query."""
    folders = [Path(d) for t in settings.TEMPLATES for d in t.get("DIRS", ())]
    folders.append(Path(settings.BASE_DIR) / "campaign" / "templates")
    names = set()
    for folder in folders:
        for template in folder.rglob("*.html"):
            text = template.read_text()
            names.update(QUERY_LINK.findall(text))
            for tag in FORM_TAG.findall(text):
                names.update(URL_TAG.findall(tag))
    return frozenset(names)


# -- rendered pages ---------------------------------------------------------------------


@dataclass
class Field:
    """A named control of a form: its kind and the values the page offers for it."""

    name: str
    kind: str  # input type, "select", "multiple", "textarea", "submit"
    values: list[str] = field(default_factory=list)  # offered (options, a button's value)
    default: list[str] = field(default_factory=list)  # what the untouched form sends
    attrs: dict = field(default_factory=dict)


@dataclass
class Form:
    method: str
    action: str  # a path
    fields: list[Field] = field(default_factory=list)


SUBMITS = ("submit", "image")
LINK_ATTRIBUTES = ("href", "data-hx-get", "data-hx-post", "action")
TEXT_URL = re.compile(r"https?://testserver(/[^\s\"'<>]*)")


class PageParser(HTMLParser):
    """The forms of a page and the URLs it links to."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[Form] = []
        self.links: list[str] = []
        self._form: Form | None = None
        self._select: Field | None = None
        self._option: tuple[str | None, bool] | None = None
        self._text: Field | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        self.links += [a[k] for k in LINK_ATTRIBUTES if a.get(k)]
        self.links += TEXT_URL.findall(a.get("value", ""))
        if tag == "form":
            method = "post" if a.get("data-hx-post") else a.get("method", "get").lower()
            action = a.get("action") or a.get("data-hx-post") or a.get("data-hx-get") or self.page
            self._form = Form(method, urlsplit(action).path)
            self.forms.append(self._form)
            return
        if self._form is None or not a.get("name"):
            if tag == "option" and self._select is not None:
                self.option(a)
            return
        name, value = a["name"], a.get("value", "")
        if tag == "input":
            kind = a.get("type", "text").lower()
            checked = "checked" in a
            if kind in SUBMITS:
                self.add(Field(name, "submit", [value], [], a))
            elif kind in ("checkbox", "radio"):
                self.add(Field(name, kind, [value or "on"], [value or "on"] if checked else [], a))
            else:
                self.add(Field(name, kind, [value] if value else [], [value], a))
        elif tag == "button" and a.get("type", "submit") == "submit":
            self.add(Field(name, "submit", [value], [], a))
        elif tag == "select":
            kind = "multiple" if "multiple" in a else "select"
            self._select = self.add(Field(name, kind, [], [], a))
        elif tag == "textarea":
            self._text = self.add(Field(name, "textarea", [], [""], a))

    def option(self, a: dict) -> None:
        self._option = (a.get("value"), "selected" in a)
        if a.get("value") is not None:
            self.close_option("")

    def close_option(self, text: str) -> None:
        value, selected = self._option
        value = text.strip() if value is None else value
        self._select.values.append(value)
        if selected:
            self._select.default.append(value)
        self._option = None

    def add(self, control: Field) -> Field:
        self._form.fields.append(control)
        return control

    def handle_data(self, data):
        self.links += TEXT_URL.findall(data)
        if self._option is not None:
            self.close_option(data)
        elif self._text is not None:
            self._text.default = [data]

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            field_ = self._select
            if field_ is not None and field_.kind == "select" and not field_.default:
                field_.default = field_.values[:1]
            self._select = None
        elif tag == "textarea":
            self._text = None
        elif tag == "option" and self._option is not None:
            self.close_option("")


def parse_page(html: str, page: str) -> PageParser:
    parser = PageParser(page)
    parser.feed(html)
    parser.close()
    return parser


def query_of(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


# -- who may use a route -----------------------------------------------------------------


@dataclass(frozen=True)
class Gate:
    """A view's guards, outermost first: "login" (login_required), "methods" (the
    methods it takes); and whose seat it asks for."""

    checks: tuple[str, ...]
    methods: frozenset[str]
    scope: str  # "gm", "player", "seat" (any seat), "account" (logged in), "public"

    @property
    def login(self) -> bool:
        return "login" in self.checks


SCOPES = (("gm_seat(", "gm"), ("player_seat(", "player"), ("seat_for(", "seat"))
SCOPES += (("reader_seat(", "seat"),)


def closure(function) -> dict:
    cells = getattr(function, "__closure__", None) or ()
    names = getattr(getattr(function, "__code__", None), "co_freevars", ())
    return {name: cell.cell_contents for name, cell in zip(names, cells, strict=False)}


@cache
def gate_of(callback) -> Gate:
    """The guards of a function view, read from its decorators' closures (login_required
    keeps a ``test_func``, require_http_methods a ``request_method_list``) and its seat
    check from its source."""
    checks, methods, function = [], frozenset(), callback
    while function is not None:
        scope = closure(function)
        if "test_func" in scope:
            checks.append("login")
        if "request_method_list" in scope:
            checks.append("methods")
            methods = frozenset(scope["request_method_list"])
        function = getattr(function, "__wrapped__", None)
    source = source_of(inspect.unwrap(callback))
    default = "account" if "login" in checks else "public"
    scope = next((s for marker, s in SCOPES if marker in source), default)
    return Gate(tuple(checks), methods, scope)
