"""Hypothesis over every form and query parameter of the URL conf, as every role.

For a campaign of each ruleset (test_url_matrix's scenes: Empires in Arms, Pax Baltica,
Virgin Queen waiting for a decision, and in CI with its impulse open) and a second
campaign of the same ruleset, the pages each role reads are crawled (form_crawl.py): the
forms they hold (fields, offered values, hidden phases and versions, submit buttons) and
the links (path arguments, query parameters); every GM edit of the ruleset is added as
its form class renders it. Every route of the URL conf is a fuzz target: one per form
family (each GM edit is its own), one for a route without a form (its path, the names
its view reads, junk), one for all the admin's routes. Each gets hypothesis examples: a
role (anonymous, the GM, the GM who also plays a power, a player, another campaign's
player, an observer; those the route lets through more often), GET or POST, HTMX or not,
the form's own path arguments (one time in four one of them another campaign's,
missing, malformed or huge), and the form as a browser sends it, mutated: fields
dropped, values replaced by other offered ones, stale phases and versions, either
campaign's ids, huge, negative and non-numeric numbers, unicode, NUL bytes, long
strings, HTML, addresses, lists where one value is expected; junk fields and queries.

Every request runs in a savepoint rolled back after it. Asserted every time: never a
5xx; the status the route's guards call for (read from the view's decorators and seat
check: anonymous to the login page, no seat 404, the wrong seat 403, a method the view
does not take 405); a refused request (4xx, a redirect to a login page, a form
re-rendered with 200) and every GET change no row (every table the request wrote to is
compared, before and after); an accepted one changes no row of a campaign other than
the one it names; in Pax Baltica the Swedish player reads no Coalition block's name. A
route whose parameters nothing reveals must be listed in NOTHING_TO_POST
(test_every_url_is_fuzzed_or_listed).

Examples per target: COURIER_FORM_FUZZ_EXAMPLES (1 by default, 3 under
HYPOTHESIS_PROFILE=ci, which keeps the CI run within its 20 minutes), six times as many
for a form outside any campaign (accounts, sign-up, languages, the admin: cheaper
requests).
"""

from __future__ import annotations

import os
import re
import traceback
from collections import Counter, defaultdict
from contextlib import contextmanager
from copy import deepcopy
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache
from html import unescape
from urllib.parse import quote, urlencode, urlsplit

import pytest
from django.apps import apps
from django.contrib.auth.tokens import default_token_generator
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import MAX_URL_REDIRECT_LENGTH, urlsafe_base64_encode
from django_tasks_db.models import DBTaskResult
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from campaign.api import tokens as api_tokens
from campaign.models import Campaign, Profile, PushSubscription, Seat
from campaign.state.archive_rows import SITE_FIELDS
from campaign.views.context import load_state
from campaign.views.edit_panels import edit_forms
from rules.forms import row_item
from tests.factories import PASSWORD, seat_users
from tests.push_receiver import Device, subscription_of, vapid_keys
from tests.reliability.form_crawl import (
    Field,
    Form,
    Route,
    gate_of,
    parse_page,
    query_of,
    read_by_hand,
    route_name,
    routes,
    template_targets,
    view_reads,
)
from tests.reliability.test_order_fuzz import (  # noqa: F401 (fixtures)
    ODD,
    TEXT,
    Writes,
    foreign_ids,
    quiet_refusals,
)
from tests.reliability.test_url_matrix import (
    BUILDERS,
    HTMX_ENDPOINTS,
    OTHER,
    SCENES,
    login_redirect,
)

pytestmark = [pytest.mark.django_db, pytest.mark.first]

CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
PER_TARGET = int(os.environ.get("COURIER_FORM_FUZZ_EXAMPLES") or (3 if CI else 1))
SCENE_KEYS = ["eia", "pb", "vq_waiting", *(["vq_open"] if CI else [])]
ROLES = ("gm", "gm_player", "player", "observer", "foreign_player", "anonymous")
HTMX = {"HTTP_HX_REQUEST": "true"}
FORM = "application/x-www-form-urlencoded"
LOGIN = "a redirect to the login page"  # or 400 where it would be too long to follow
MISSING = str(10**17)  # an id no row has

# Routes that read nothing but their path: fuzzed with hostile path arguments and junk
# parameters all the same.
VAPID_KEYS = vapid_keys()
NOTHING_TO_POST = {
    "metrics": "Prometheus's figures, for its bearer token or loopback (a 404 otherwise)",
    "favicon": "the way to the icon",
    "password_change_done": "a page saying so",
    "password_reset_done": "a page saying so",
    "password_reset_complete": "a page saying so",
    "campaign:list": "the user's campaigns",
    "campaign:detail": "the campaign page (its forms post elsewhere)",
    "campaign:gm": "the GM dashboard (its forms post elsewhere)",
    "campaign:edit_panel": "an edit panel's forms (they post to campaign:edit)",
    "campaign:area_table": "the map's areas as a table",
    "campaign:export": "the archive of the campaign",
    "campaign:rules": "the rules page of a ruleset",
    "campaign:verify": "a resolved phase's rolls",
    "campaign:history": "a resolved phase as it was",
    "campaign:map_svg": "the map as a file",
    "campaign:phase_map_svg": "the map after a resolved phase, as a file",
    "campaign:timeline": "the chart over the turns",
    "campaign:area": "an area's panel",
    "campaign:question": "a ruleset's answer about one item",
    "campaign:lobby": "the campaigns open to new players (its forms post elsewhere)",
    "campaign:confirm_email": "the link mailed to an address (its button posts nothing more)",
    "campaign:profile": "a user's record and campaigns",
    "campaign:calendar_feed": "a user's calendar of deadlines, read by its secret address",
    "campaign:personal_data": "the user's own data as a file",
    "campaign:privacy": "a page saying what Courier keeps",
    "outbox:list": "the development outbox's mails (each answered on its own page)",
    "outbox:html": "a kept mail's HTML part",
    "campaign:manifest": "the installable app's manifest",
    "campaign:service_worker": "the service worker's script",
    "campaign:offline": "the page shown when Courier cannot be reached",
    "api:campaigns": "the API: my campaigns",
    "api:orders_due": "the API: the orders I owe",
    "api:campaign": "the API: a campaign's state",
    "api:log": "the API: a campaign's log (its after and limit: tests/views/test_api.py)",
    "api:openapi-json": "the API's OpenAPI document",
    "api:api-root": "the API's root: no page",
}
ADMIN = "admin"  # Django's admin: one target over all its routes (no role here is staff)

HOSTILE = {  # by kind, each kind as likely as another
    "numbers": (*ODD[:15], "NaN", "1e309", str(2**31), str(2**63), str(-(2**63) - 1)),
    "words": ("None", "null", "true", "on", "yes", "keep", "home", "id", "campaign:list"),
    "addresses": (
        "//evil.example/",
        "https://evil.example/x",
        "javascript:alert(1)",
        "/\\evil.example",
        "/admin/",
        "/accounts/logout/",
    ),
    "long": ("x" * 5000, "9" * 3000, "𝕏 ∑ ß" * 40, "a,b;c " * 500),
    "nasty": (
        "\x00",
        "a\x00b",
        "<script>alert(1)</script>",
        '"><img src=x onerror=alert(1)>',
        "{{ campaign }}",
        "%s%n",
        "../../etc/passwd",
        "' OR 1=1 --",
    ),
    "dates": ("2999-01-01T20:00", "0000-00-00T00:00", "2024-02-30T25:61", "1-1-1", "2000"),
}
PATH_HOSTILE = (MISSING, "0", "9" * 18, "9" * 19, "-1", "x", "é", "<script>", "\x00", "a" * 300)


# -- the stage: two campaigns, a user and a client per role ----------------------------


@dataclass
class Stage:
    scene: object  # test_url_matrix.Scene: the campaign fuzzed (X)
    other: Campaign  # a second campaign of the ruleset (Y): its player is foreign_player
    users: dict
    clients: dict[str, Client]
    seats: dict[str, dict[int, str]]  # role -> {campaign pk: seat kind there}
    pool: list[str]  # ids, keys, names and versions, both campaigns'
    foreign: dict[str, list[str]]  # path argument -> the other campaign's values
    strategies: dict = field(default_factory=dict)  # built once, drawn from many times

    def cached(self, key, build):
        if key not in self.strategies:
            self.strategies[key] = build()
        return self.strategies[key]

    @property
    def campaign(self) -> Campaign:
        return self.scene.campaign

    def seat_kind(self, role: str, campaign_id) -> str:
        if role == "anonymous":
            return "anonymous"
        return self.seats[role].get(campaign_id, "none")


def due_later(campaign: Campaign) -> None:
    """The open phase due in two days: its page offers the deadline's controls (a
    player's extension among them)."""
    open_phase = campaign.phases.filter(pk=campaign.phase_id, status="open")
    open_phase.update(deadline=timezone.now() + timedelta(days=2))


def away_in_preferences(user) -> None:
    """An away period for every campaign in the user's preferences, not yet on his seat:
    the preferences page offers it as saved, and saving it again gives it to his seat."""
    start = timezone.now().replace(second=0, microsecond=0)
    period = {"away_from": start, "away_until": start + timedelta(days=3)}
    Profile.objects.update_or_create(user=user, defaults=period)


def a_device(user) -> PushSubscription:
    """A device the user gets notices on: the preferences page offers its test and removal."""
    endpoint = f"https://push.example.org/send/{user.pk}"
    return PushSubscription.objects.create(user=user, **subscription_of(Device(), endpoint))


@pytest.fixture(autouse=True)
def push_on(settings):
    """The site sends notices: the preferences page offers a browser's subscription form."""
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = VAPID_KEYS


def build_stage(key: str) -> Stage:
    scene = SCENES[key]()
    x = scene.campaign
    due_later(x)
    away_in_preferences(scene.users["player"])
    a_device(scene.users["player"])
    powers = dict(Seat.objects.filter(campaign=x).values_list("user", "power__key"))
    y = OTHER[scene.ruleset]()
    y_users = seat_users(
        y, powers[scene.users["player"].pk], powers[scene.users["other_player"].pk]
    )
    users = {role: scene.users[role] for role in ("gm", "player", "observer")}
    users |= {"gm_player": scene.users["gm"], "foreign_player": y_users["player"]}
    clients = {"anonymous": Client(raise_request_exception=False)}
    for role, user in users.items():
        # the API (campaign/api/) reads a token of the user's, the pages the session
        _, token = api_tokens.make_token(user=user, name=f"fuzz {role}")
        headers = {"Authorization": f"Bearer {token}"}
        clients[role] = Client(raise_request_exception=False, headers=headers)
        clients[role].force_login(user)
    seats = {r: {x.pk: r} for r in ("gm", "gm_player", "player", "observer")}
    seats["foreign_player"] = {y.pk: "player"}
    foreign = {
        "campaign_id": [str(y.pk)],
        "phase_id": [str(pk) for pk in y.phases.values_list("pk", flat=True)],
        "seat_id": [str(pk) for pk in y.seats.values_list("pk", flat=True)],
        "power_id": [str(pk) for pk in y.powers.values_list("pk", flat=True)],
        "token": list(y.seats.values_list("invite_token", flat=True)),
        "device_id": [str(a_device(y_users["player"]).pk)],
    }
    x.refresh_from_db()
    versions = [x.version, getattr(x, "state_version", x.version)]
    pool = [
        *foreign_ids(x, y),
        *(str(v + d) for v in versions for d in (-1, 0, 1)),
        str(scene.resolved_phase),
        *foreign["token"],
        *(u.username for u in (*users.values(), *y_users.values())),
        PASSWORD,
    ]
    return Stage(scene, y, users, clients, seats, pool, foreign)


@contextmanager
def acting(stage: Stage, role: str):
    """A savepoint rolled back afterwards, in which the GM plays the open power when the
    role is gm_player; the role's client keeps its cookies (a logout, a login, a
    language switch last only the request)."""
    client = stage.clients[role]
    cookies = deepcopy(client.cookies)
    try:
        with transaction.atomic():
            if role == "gm_player":
                gm_plays(stage)
            yield client
            transaction.set_rollback(True)
    finally:
        client.cookies = cookies


def gm_plays(stage: Stage) -> None:
    """The GM plays the open power, as if they had taken it before this phase (the service
    refuses it once other powers have given orders: services.gm_plays)."""
    seats = Seat.objects.filter(campaign=stage.campaign)
    power = seats.get(role=Seat.Role.PLAYER, power__key=stage.scene.open_power).power
    seats.filter(power=power).delete()
    seats.filter(role=Seat.Role.GM).update(power=power)


# -- the crawl -------------------------------------------------------------------------


@dataclass
class Target:
    """What the fuzz sends to one route: its forms (one family), the parameters the
    route's views read, and path arguments and query parameters seen in links."""

    route: Route
    key: tuple = ()  # the family: its forms' non-id path arguments (an edit's key)
    forms: list[tuple[dict, Form]] = field(default_factory=list)  # (path arguments, form)

    @property
    def label(self) -> str:
        return "/".join([self.route.name, *self.key])


@dataclass
class Crawl:
    forms: dict[tuple, list[tuple[dict, Form]]] = field(default_factory=lambda: defaultdict(list))
    path_values: dict[tuple, set[str]] = field(default_factory=lambda: defaultdict(set))
    query: dict[str, dict[str, set[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set))
    )
    fetched: set[str] = field(default_factory=set)
    links: dict[str, tuple[str, str]] = field(default_factory=dict)  # route -> (role, path)
    problems: list[str] = field(default_factory=list)

    def see(self, url: str, role: str) -> tuple[str, dict] | None:
        found = route_name(url)
        if found is None:
            return None
        name, kwargs = found
        for arg, value in kwargs.items():
            self.path_values[(name, arg)].add(str(value))
            self.path_values[("", arg)].add(str(value))
        for arg, value in query_of(url).items():
            self.query[name][arg].add(value)
        self.links.setdefault(name, (role, urlsplit(url).path + ("?" + urlsplit(url).query)))
        return name, {k: str(v) for k, v in kwargs.items()}

    def page(self, client: Client, path: str, role: str, **extra) -> None:
        self.fetched.add((route_name(path) or (path,))[0])
        response = client.get(path, follow=True, **extra)
        if response.status_code >= 500:
            error = server_error(response)
            self.problems.append(f"crawl: {role} GET {path}: {response.status_code}\n{error}")
            return
        if "html" not in response.get("Content-Type", ""):
            return
        final = response.redirect_chain[-1][0] if response.redirect_chain else path
        page = parse_page(response.content.decode(errors="replace"), urlsplit(final).path)
        for link in page.links:
            self.see(link, role)
        for form in page.forms:
            self.form(form, role)

    def form(self, form: Form, role: str) -> None:
        seen = self.see(form.action, role)
        if seen is None:
            return
        name, kwargs = seen
        family = tuple(sorted(v for k, v in kwargs.items() if not is_id(name, k)))
        same = [(kwargs, form) == known for known in self.forms[(name, family)]]
        if not any(same):
            self.forms[(name, family)].append((kwargs, form))
        if form.method == "get":
            for control in form.fields:
                self.query[name][control.name].update(control.values or control.default)


def is_id(name: str, arg: str) -> bool:
    route = ROUTES[name]
    return f"<id:{arg}>" in route.pattern or f"<int:{arg}>" in route.pattern


def seeds(stage: Stage) -> dict[str, list[str]]:
    """The pages that show each role its forms (the links they hold are followed once)."""
    x = stage.campaign.pk
    player = stage.users["player"]
    reset = reverse(
        "password_reset_confirm",
        args=[
            urlsafe_base64_encode(force_bytes(player.pk)),
            default_token_generator.make_token(player),
        ],
    )
    accounts = ["campaign:list", "campaign:new", "campaign:preferences", "password_change"]
    anonymous = ["campaign:signup", "login", "password_reset", "admin:login"]
    return {
        "gm": [reverse("campaign:gm", args=[x])],
        "gm_player": [reverse("campaign:detail", args=[x])],
        "player": [reverse("campaign:detail", args=[x]), *map(reverse, accounts)],
        "foreign_player": [reverse("campaign:detail", args=[stage.other.pk])],
        "anonymous": [*map(reverse, anonymous), reset],
    }


def crawl(stage: Stage) -> Crawl:
    """The seeds' pages, then once each page their links lead to (as HTMX asks for it:
    the form alone where the view can send it so)."""
    found = Crawl()
    for role, paths in seeds(stage).items():
        with acting(stage, role) as client:
            for path in paths:
                found.page(client, path, role)
    add_edit_items(stage, found)
    for name, (role, path) in sorted(found.links.items()):
        route = ROUTES[name]
        gate = gate_of(route.callback)
        if name in found.fetched or route.namespace == ADMIN:
            continue
        if not gate.methods or "GET" in gate.methods:
            with acting(stage, role) as client:
                found.page(client, path, role, **HTMX)
    return found


EDIT = "campaign:edit"


def add_edit_items(stage: Stage, found: Crawl) -> None:
    """Every edit of the ruleset: its panel's forms, as the GM opening it loads them; the
    items of its list, as its picker offers them
    (``edit_item?item=``), and, for an edit the dashboard shows no form of (nothing to
    choose from now), its blank form as the form class renders it, with the hidden
    fields the dashboard's edit forms carry."""
    state = load_state(Seat.objects.get(campaign=stage.campaign, role=Seat.Role.GM))
    with acting(stage, "gm") as client:
        for key in edit_forms(state):
            panel = reverse("campaign:edit_panel", args=[stage.campaign.pk, key])
            found.page(client, panel, "gm", **HTMX)
    edits = [form for (name, _), forms in found.forms.items() for _, form in forms if name == EDIT]
    hidden = [{c.name: c for c in form.fields if c.kind == "hidden"} for form in edits]
    envelope = [c for name, c in (hidden or [{}])[0].items() if all(name in h for h in hidden)]
    for key, form_class in edit_forms(state).items():
        url = reverse("campaign:edit_item", args=[stage.campaign.pk, key])
        for form in form_class.instances(state.world):
            found.see(f"{url}?{urlencode({'item': row_item(form)})}", "gm")
        if (EDIT, (key,)) not in found.forms:
            action = reverse("campaign:edit", args=[stage.campaign.pk, key])
            html = f'<form method="post" action="{action}">{form_class(world=state.world)}</form>'
            (blank,) = parse_page(html, action).forms
            names = {c.name for c in blank.fields}
            blank.fields[:0] = [c for c in envelope if c.name not in names]
            found.form(blank, "gm")


# -- the targets -----------------------------------------------------------------------

ROUTES = {route.name: route for route in routes()}


def first(pair: tuple):
    return pair[0]


def targets(found: Crawl) -> list[Target]:
    """A target per form family of each route, or one for a route without forms; one
    for all the admin's routes."""
    made = []
    for route in ROUTES.values():
        if route.namespace == ADMIN:
            continue
        families = [
            (key, forms) for (name, key), forms in found.forms.items() if name == route.name
        ]
        if not families:
            made.append(Target(route))
        made += [Target(route, key, forms) for key, forms in sorted(families, key=first)]
    admin = Route(ADMIN, "", None)
    return [*made, Target(admin)]


def field_values(control: Field, stage: Stage) -> st.SearchStrategy[str]:
    """A value for a control: one the page offers, a typed edge (a number next to an
    offered one, just past a bound), an id or key of either campaign, a stale version,
    or a hostile value of any kind."""
    return stage.cached(("values", id(control)), lambda: build_values(control, stage))


def build_values(control: Field, stage: Stage) -> st.SearchStrategy[str]:
    offered = [v for v in (*control.values, *control.default) if v is not None]
    numbers = [v for v in offered if v.isdigit()]
    edges = [str(int(v) + d) for v in numbers for d in (-1, 1)]
    for bound in ("min", "max", "maxlength"):
        if control.attrs.get(bound, "").lstrip("-").isdigit():
            limit = int(control.attrs[bound])
            edges += [str(limit - 1), str(limit + 1), "x" * (limit + 1)]
    mine = st.sampled_from(offered) if offered else st.just("")
    kinds = [st.sampled_from(values) for values in (edges, stage.pool) if values]
    kinds += [st.sampled_from(values) for values in HOSTILE.values()]
    return st.one_of(mine, mine, *kinds, TEXT)


def browser_post(draw, form: Form) -> dict[str, list[str]]:
    """The form as a browser sends it: defaults, a choice of each select, a button."""
    data: dict[str, list[str]] = defaultdict(list)
    buttons = [c for c in form.fields if c.kind == "submit"]
    if buttons:
        button = draw(st.sampled_from(buttons))
        data[button.name].append(button.values[0])
    for control in form.fields:
        if control.kind == "select" and control.values:
            data[control.name].append(draw(st.sampled_from(control.values)))
        elif control.kind == "multiple":
            data[control.name] += draw(
                st.lists(st.sampled_from(control.values or [""]), max_size=2)
            )
        elif control.kind in ("checkbox", "radio"):
            data[control.name] += control.values[:1] if draw(st.booleans()) else []
        elif control.kind != "submit":
            data[control.name] += control.default
    return dict(data)


def mutate(draw, data: dict, names: list[str], controls: dict, stage: Stage) -> dict:
    """Change one or two parameters (those the view reads by hand more often), or each
    with an even chance: drop it, give it another value, or several; add junk ones."""
    if draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2))
    else:
        chosen = [name for name in dict.fromkeys(names) if draw(st.booleans())]
    junk = stage.cached(("junk",), lambda: st.one_of(st.sampled_from(stage.pool), TEXT))
    for name in chosen + draw(st.lists(junk, max_size=2)):
        control = controls.get(name) or text_field(stage, name)
        how = draw(st.sampled_from(["drop", "one", "one", "several"]))
        if how == "drop":
            data.pop(name, None)
        elif how == "one":
            data[name] = [draw(field_values(control, stage))]
        else:
            data[name] = draw(st.lists(field_values(control, stage), min_size=2, max_size=3))
    return data


def text_field(stage: Stage, name: str) -> Field:
    """A control for a name no form has."""
    return stage.cached(("field", name), lambda: Field(name, "text"))


ENVELOPE = ["phase", "version", "state_version", "ready", "next", "csrfmiddlewaretoken"]


def target_names(target: Target, found: Crawl) -> tuple[list[str], dict]:
    """The parameter names of a target (those its view reads by hand three times), and
    the controls its forms have."""
    controls = {c.name: c for _, form in target.forms for c in form.fields}
    callback = target.route.callback
    reads = view_reads(callback) if callback else set()
    names = sorted({*controls, *reads, *found.query.get(target.route.name, {}), *ENVELOPE})
    by_hand = sorted(read_by_hand(callback)) * 2 if callback else []
    return names + by_hand, controls


def path_args(draw, route: Route, own: dict, found: Crawl, stage: Stage) -> dict:
    """The form's own path arguments (or ones seen in links), one of them hostile one
    time in four: another campaign's, missing, malformed, huge."""
    args = {}
    for arg in route.kwargs:
        seen = sorted(found.path_values.get((route.name, arg)) or found.path_values[("", arg)])
        if arg == "campaign_id":
            seen = [str(stage.campaign.pk)]
        args[arg] = own[arg] if arg in own else draw(st.sampled_from(seen or ["1"]))
    if route.kwargs and draw(st.integers(0, 3)) == 3:  # not in the first example
        spoilt = draw(st.sampled_from(route.kwargs))
        hostile = [*stage.foreign.get(spoilt, []), *PATH_HOSTILE, *stage.pool]
        args[spoilt] = draw(st.one_of(st.sampled_from(hostile), TEXT.filter(bool)))
    return args


# -- a request -------------------------------------------------------------------------


@dataclass
class Request:
    role: str
    method: str
    path: str
    query: dict
    data: dict
    htmx: bool

    def __str__(self) -> str:
        shown = {
            k: (v if len(repr(v)) < 200 else repr(v)[:200] + "…") for k, v in self.data.items()
        }
        query = f"?{urlencode(self.query, doseq=True)[:300]}" if self.query else ""
        htmx = " (htmx)" if self.htmx else ""
        return f"{self.role} {self.method.upper()} {self.path[:300]}{query}{htmx} {shown!r}"


def draw_request(draw, target: Target, found: Crawl, stage: Stage) -> Request:
    """A role, a method, the target's path and one of its forms, mutated."""
    names, controls = target_names(target, found)
    role = draw(st.sampled_from(roles_for(target)))
    route, own, form = draw_form(draw, target)
    get_form = form is not None and form.method == "get"
    usual = "get" if form is None or get_form else "post"
    method = draw(st.sampled_from([usual, usual, usual, {"get": "post", "post": "get"}[usual]]))
    base = browser_post(draw, form) if form is not None else {}
    query = {k: sorted(v)[:1] for k, v in found.query.get(route.name, {}).items()}
    if get_form:
        query, base = query | base, {}
    if method == "post":
        data = mutate(draw, base, names, controls, stage)
        query = mutate(draw, query, names, controls, stage) if draw(st.booleans()) else {}
    else:
        data, query = {}, mutate(draw, query | base, names, controls, stage)
    path = route.path(path_args(draw, route, own, found, stage))
    return Request(role, method, path, query, data, draw(st.booleans()))


def draw_form(draw, target: Target) -> tuple[Route, dict, Form | None]:
    """The route (any of the admin's for the admin target), and a form of the target
    with its path arguments."""
    if target.route.name == ADMIN:
        admin = [r for r in ROUTES.values() if r.namespace == ADMIN]
        return draw(st.sampled_from(admin)), {}, None
    if not target.forms:
        return target.route, {}, None
    own, form = draw(st.sampled_from(target.forms))
    return target.route, own, form


def examples(target: Target) -> int:
    """PER_TARGET, six times as many for a form outside any campaign (accounts, sign-up,
    languages, the admin: cheaper requests)."""
    gate = gate_of(target.route.callback) if target.route.callback else None
    cheap = (gate.scope if gate else "public") in ("public", "account")
    return PER_TARGET * (6 if cheap and target.route.name not in NOTHING_TO_POST else 1)


PERMITTED = {  # the roles a scope lets through, the first one first
    "gm": ("gm", "gm_player"),
    "player": ("player", "gm_player"),
    "seat": ("player", "gm_player", "gm", "observer"),
    "account": ("player", "gm", "foreign_player"),
}


def roles_for(target: Target) -> list[str]:
    """Every role, those the route lets through three times as often, the first one
    first (hypothesis's first example)."""
    gate = gate_of(target.route.callback) if target.route.callback else None
    permitted = PERMITTED.get(gate.scope if gate else "", ("anonymous", "player"))
    return [*permitted, *permitted, *permitted, *ROLES]


def send_path(request: Request) -> str:
    query = urlencode(request.query, doseq=True)
    return f"{request.path}?{query}" if query else request.path


def send(stage: Stage, request: Request, client: Client):
    path = send_path(request)
    extra = HTMX if request.htmx else {}
    if request.method == "get":
        return client.get(path, **extra)
    return client.post(path, urlencode(request.data, doseq=True), FORM, **extra)


# -- the fingerprint -------------------------------------------------------------------

# Bookkeeping, not state: a login's session, its throttle's count, how far a reader has
# read the press (reading a page, refused or not, moves it on), an API token's last use
IGNORED_TABLES = ("django_session", "axes_", "campaign_readmarker", "campaign_accesstoken")
WRITTEN = re.compile(r'^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)', re.I)
MODELS = {model._meta.db_table: model for model in apps.get_models(include_auto_created=True)}
TASKS = DBTaskResult._meta.db_table


def tables_written(statements: list[str]) -> set[str]:
    tables = {(WRITTEN.findall(statement) or ["?"])[0] for statement in statements}
    return {table for table in tables if not table.startswith(IGNORED_TABLES)}


def links(model) -> list:
    return [f for f in model._meta.concrete_fields if f.many_to_one or f.one_to_one]


@cache
def owner(model) -> str | None:
    """The lookup from a model's rows to the campaign they belong to (directly or
    through their area, power, phase...), None for rows of no campaign."""
    if model is Campaign:
        return "pk"
    for f in links(model):
        if f.related_model is Campaign:
            return f.attname
    for f in links(model):
        inner = [g.name for g in links(f.related_model) if g.related_model is Campaign]
        if inner:
            return f"{f.name}__{inner[0]}"
    return None


def rows(table: str) -> dict:
    """A table's rows by the campaign they belong to (None: no campaign's), but for the
    clock's bookkeeping. A Profile row with the default preferences is as good as none
    (a page creates it on reading)."""
    model = MODELS.get(table)
    if model is None:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            return {None: sorted(map(repr, cursor.fetchall()))}
    skipped = SITE_FIELDS.get(model, ())  # the clock's bookkeeping
    fields = [f.attname for f in model._meta.concrete_fields if f.name not in skipped]
    lookup = owner(model)
    default = [getattr(model(), name) for name in fields[1:]] if model is Profile else None
    found = defaultdict(list)
    for key, *values in model._base_manager.values_list(lookup or "pk", *fields):
        if values[1:] != default:
            found[key if lookup else None].append(tuple(values))
    return {key: sorted(values, key=repr) for key, values in found.items()}


def may_change(stage: Stage, request: Request, response):
    """Which rows an accepted request may change, as a test of (table, campaign id): the
    campaign its path names (or its invitation's) and the task queue; any other
    accepted request, no existing campaign's rows (but, for the away period for every
    campaign, those where the user plays a power). A refused one, none."""
    if request.method != "post" or refused(request, response):
        return None
    found = route_name(request.path)
    name, kwargs = found if found else ("", {})
    if "campaign_id" in kwargs:
        named = {kwargs["campaign_id"]}
    elif name == "campaign:join":
        named = set(Seat.objects.filter(invite_token=kwargs["token"]).values_list("campaign"))
        named = {pk for (pk,) in named}
    else:
        existing = {stage.campaign.pk, stage.other.pk}
        if name == "campaign:away_everywhere":  # the campaigns where the user plays a power
            kinds = stage.seats.get(request.role, {})
            plays = {pk for pk, kind in kinds.items() if kind in ("player", "gm_player")}
            return lambda table, campaign: campaign not in existing or campaign in plays
        if name == "campaign:delete_account":  # the campaigns where the user sat
            sat = set(stage.seats.get(request.role, {}))
            return lambda table, campaign: campaign not in existing or campaign in sat
        return lambda table, campaign: campaign not in existing
    return lambda table, campaign: campaign in named or table == TASKS


def changes(stage: Stage, before: dict, after: dict, allowed) -> list[str]:
    """The rows that differ, by table and campaign, that the request may not change."""
    names = {stage.campaign.pk: "the campaign", stage.other.pk: "the other campaign"}
    found = []
    for table in sorted(after):
        for campaign in {*before[table], *after[table]}:
            if before[table].get(campaign) == after[table].get(campaign):
                continue
            if allowed is None or not allowed(table, campaign):
                found.append(f"{table} of {names.get(campaign, campaign or 'no campaign')}")
    return found


LOGIN_PATHS = ("/accounts/login/", "/admin/login/")


def refused(request: Request, response) -> bool:
    status = response.status_code
    if status >= 400 or urlsplit(login_redirect(response)).path in LOGIN_PATHS:
        return True
    if 300 <= status < 400:
        return False
    found = route_name(request.path)
    htmx_success = found and found[0].removeprefix("campaign:") in HTMX_ENDPOINTS
    return not (request.htmx and htmx_success)  # else a page or a re-rendered form


# -- the checks ------------------------------------------------------------------------


def expected_status(stage: Stage, request: Request) -> int | str | None:
    """The status the route's guards call for, before the view reads the request."""
    found = route_name(request.path)
    if found is None:
        return 404
    name, kwargs = found
    if name not in ROUTES:
        return None
    gate = gate_of(ROUTES[name].callback)
    seat = stage.seat_kind(request.role, kwargs.get("campaign_id"))
    for guard in gate.checks:
        if guard == "login" and seat == "anonymous":
            return LOGIN
        if guard == "methods" and request.method.upper() not in gate.methods:
            return 405
    if gate.scope in ("public", "account"):
        return None
    if seat in ("none", "anonymous"):
        return 404
    if gate.scope == "gm" and seat not in ("gm", "gm_player"):
        return 403
    if gate.scope == "player" and seat not in ("player", "gm_player"):
        return 403
    return None


def server_error(response) -> str:
    error = getattr(response, "exc_info", None)
    if not error:
        return ""
    return "".join(traceback.format_exception(*error)[-6:])


def meant_503(request: Request, response) -> bool:
    """/healthz?strict=1 answers 503 "stale" while the worker or the clock is not seen (none
    runs beside the tests): the answer it documents, not a server error."""
    healthz = request.path == reverse("healthz") and request.method == "get"
    return healthz and response.status_code == 503 and response.content.startswith(b"stale")


def check(stage: Stage, request: Request, outcomes: Counter) -> None:
    """Send the request in a savepoint rolled back afterwards, and check its answer and
    what it wrote (the rows of every table it wrote to, before and after)."""
    writes = Writes()
    with acting(stage, request.role) as client:
        with transaction.atomic():
            with connection.execute_wrapper(writes):
                response = send(stage, request, client)
            after = {table: rows(table) for table in tables_written(writes.statements)}
            transaction.set_rollback(True)
        before = {table: rows(table) for table in after}
        allowed = may_change(stage, request, response)
        body = unescape(response.content.decode(errors="replace"))
        status = response.status_code
        where = f"{request} → {status}"
        assert status < 500 or meant_503(request, response), f"{where}\n{server_error(response)}"
        wanted = expected_status(stage, request)
        if wanted == LOGIN:
            target = urlsplit(login_redirect(response)).path
            login = reverse("login")
            location = f"{login}?next={quote(send_path(request))}"
            too_long = status == 400 and len(location) > MAX_URL_REDIRECT_LENGTH
            assert too_long or target == login, f"{where}, not {wanted}"
        elif wanted is not None:
            assert status == wanted, f"{where}, not {wanted}"
        changed = changes(stage, before, after, allowed)
        assert not changed, f"{where} changed {changed}: {writes.statements[:3]}"
        leaked = secrets_read(stage, request, body)
        assert not leaked, f"{where} shows the other side's blocks {leaked}"
    outcomes["accepted" if allowed else str(status)] += 1


def secrets_read(stage: Stage, request: Request, body: str) -> list[str]:
    """The other side's block names a Pax Baltica player reads (not ones they sent)."""
    found = route_name(request.path)
    if request.role != "player" or not found or found[0] == "campaign:rules":
        return []
    sent = str(request)
    secret = stage.scene.secrets.get("player", ())
    return sorted(n for n in secret if n in body and n not in sent)


# -- the tests -------------------------------------------------------------------------


def test_the_guards_read_from_the_views_are_the_url_matrix_ones():
    """gate_of agrees with the scopes and methods test_url_matrix states by hand."""
    wrong = []
    for name, spec in BUILDERS.items():
        gate = gate_of(ROUTES[f"campaign:{name}"].callback)
        scope = "public" if spec.scope == "signup" else spec.scope
        methods = {m for m in ("get", "post") if not gate.methods or m.upper() in gate.methods}
        if (gate.scope, methods) != (scope, set(spec.methods)):
            wrong.append(f"{name}: {gate.scope} {sorted(methods)}, not {scope} {spec.methods}")
    assert not wrong, "\n".join(wrong)


def test_every_url_is_fuzzed_or_listed():
    """A route reveals its parameters (a form or query link in a template, the names
    its view reads) or is listed as having nothing to post; every route of the conf is
    fuzzed either way (the admin's as one target)."""
    problems = []
    for route in ROUTES.values():
        if route.namespace == ADMIN:
            continue
        known = view_reads(route.callback) or route.name in template_targets()
        listed = route.name in NOTHING_TO_POST
        if known and listed:
            reads = sorted(view_reads(route.callback)) or "a template's form"
            problems.append(f"{route.name} is listed as nothing to post but reads {reads}")
        if not known and not listed:
            problems.append(f"{route.name}: no form or parameter found: list it in NOTHING_TO_POST")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("key", SCENE_KEYS)
def test_fuzzed_forms(key):
    stage = build_stage(key)
    found = crawl(stage)
    problems, outcomes, fuzzed = list(found.problems), Counter(), set()
    for target in targets(found):
        fuzzed.add(target.label)
        problem = fuzz_target(stage, found, target, outcomes)
        if problem:
            problems.append(f"{target.label}: {problem}")
    print(f"{key}: {sum(outcomes.values())} requests, {dict(outcomes)}")
    gm = Seat.objects.get(campaign=stage.campaign, role=Seat.Role.GM)
    edits = {f"{EDIT}/{edit}" for edit in edit_forms(load_state(gm))}
    routes = {r.name for r in ROUTES.values() if r.namespace != ADMIN}
    missing = {*edits, *routes} - {*fuzzed, *(label.split("/")[0] for label in fuzzed)}
    assert not missing, f"not fuzzed: {sorted(missing)}"
    assert not problems, f"{len(problems)} targets failed:\n" + "\n\n".join(problems)


def fuzz_target(stage: Stage, found: Crawl, target: Target, outcomes: Counter) -> str:
    """Run the target's examples; the failure, if any, as text."""

    @settings(
        max_examples=examples(target),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking: minutes of posts
        print_blob=True,
    )
    @given(st.data())
    def requests(data):
        request = draw_request(data.draw, target, found, stage)
        check(stage, request, outcomes)

    try:
        requests()
    except Exception as error:  # noqa: BLE001 (each target's failure is reported)
        return f"{type(error).__name__}: {error}"
    return ""
