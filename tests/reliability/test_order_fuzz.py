"""Hypothesis-driven posts to the orders endpoint of each ruleset (and Virgin Queen's
decision endpoint, Pax Baltica's question endpoint), HTMX and not.

Each test builds one campaign at a phase (plus a second campaign, whose ids are
foreign here), then posts random form data as one of its players: field names from
the forms of both players plus junk and other campaigns' or sides' ids, values from the
fields' choices plus digits, huge numbers, unicode, empty strings, several values for
one name and foreign ids; the phase right, stale, another campaign's, malformed or
missing. Every request runs in a savepoint rolled back after it, so each meets the
same campaign. Asserted every time: never a 5xx; the status the envelope calls for
(400 malformed, 409 not this phase or not this power's, else accepted or 422); a
refused post writes nothing (no INSERT, UPDATE or DELETE ran: the snapshot cannot have
changed); an accepted post saves exactly one Order, the poster's power's, ready as
posted, with one log line, naming none but the power's own blocks or guerrillas, and
changes no other order. In Pax Baltica no response names the other side's blocks.

Examples: FUZZ_EXAMPLES in all (10,000 under HYPOTHESIS_PROFILE=ci, 200 otherwise; the
environment variable COURIER_FUZZ_EXAMPLES overrides), shared among the tests below.
"""

from __future__ import annotations

import logging
import math
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import urlencode

import pytest
from django import forms
from django.db import connection, transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.models import Area, Campaign, Event, Order, Phase, Power, Seat
from campaign.play import services
from campaign.views.context import load_state
from rules.dice import ScriptedDice
from rules.empires_in_arms.models import Corps, GuerrillaStack
from rules.pax_baltica.models import Block
from rules.virgin_queen.models import VqPending, VqUnits
from tests.factories import (
    make_eia_campaign,
    make_pb_campaign,
    make_vq_campaign,
    seat_users,
)
from tests.services.test_eia_phase_services import order, quarter_campaign

pytestmark = [pytest.mark.django_db, pytest.mark.first]

CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
FUZZ_EXAMPLES = int(os.environ.get("COURIER_FUZZ_EXAMPLES") or (10_000 if CI else 200))
HTMX = {"HTTP_HX_REQUEST": "true"}
# HTMX three times in four: a refused post without HTMX renders the whole campaign page,
# the slowest response, and differs from the HTMX one only by its template
HTMX_MOSTLY = st.sampled_from([True, True, True, False])
SHARES = {  # of FUZZ_EXAMPLES, by test
    "eia-revolt": 1.0,
    "eia-land": 1.0,
    "eia-economic": 1.0,
    "pb-recruitment": 1.2,
    "pb-actions": 1.2,
    "pb-forage": 0.8,
    "vq-impulse_spain": 1.0,
    "vq-impulse_protestant": 1.0,
    "vq-decision-sixes": 0.6,
    "vq-decision-flips": 0.6,
    "vq-decision-hits": 0.6,
    "pb-question": 0.6,
}
RUNS: Counter = Counter()  # examples run, by test


def examples(key: str) -> int:
    return max(10, math.ceil(FUZZ_EXAMPLES * SHARES[key] / sum(SHARES.values())))


def fuzz(key: str):
    """The hypothesis settings of one fuzz test: its share of the examples."""
    return settings(
        max_examples=examples(key),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        print_blob=True,
    )


@pytest.fixture(autouse=True)
def quiet_refusals():
    """Thousands of 4xx warnings from django.request are only noise here (5xx errors
    are still logged, and fail the test anyway)."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def covered(key: str, outcomes: Counter, *kinds: str) -> None:
    """With enough examples (the CI profile), each kind of outcome was met."""
    if examples(key) >= 300:
        missing = [kind for kind in kinds if not outcomes[kind]]
        assert not missing, f"{key}: no example was {missing}: {dict(outcomes)}"


def test_the_shares_add_up_to_the_examples_asked_for():
    assert sum(examples(key) for key in SHARES) >= FUZZ_EXAMPLES


# -- values ---------------------------------------------------------------------------

TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)),  # no lone surrogates: not UTF-8
    max_size=12,
)
ODD = (
    "",
    " ",
    "0",
    "-1",
    "+2",
    "1.0",
    "1e3",
    "0x10",
    " 1",
    "٣",  # Arabic-Indic three
    "３",  # full-width three
    "9" * 18,
    "9" * 19,
    "9" * 40,
    "-" + "9" * 30,
    "None",
    "null",
    "true",
    "on",
    "yes",
    "keep",
    "\x00",
    "<script>",
    "' OR 1=1 --",
)


def field_values(field: forms.Field) -> st.SearchStrategy[str]:
    """Values this field may accept (and its edges)."""
    choices = getattr(field, "choices", None)
    if choices is not None:
        keys = [str(key) for key, _ in choices]
        if keys:
            return st.sampled_from(keys)
    if isinstance(field, forms.IntegerField):
        low = field.min_value if field.min_value is not None else -3
        high = field.max_value if field.max_value is not None else 10
        return st.integers(low - 2, min(high, low + 50) + 2).map(str)
    if isinstance(field, forms.BooleanField):
        return st.sampled_from(["on", "1", "", "false", "off"])
    return TEXT


def tidy_values(field: forms.Field) -> st.SearchStrategy:
    """A value the field takes as it is offered (not necessarily one the form accepts
    with the others)."""
    if isinstance(field, forms.MultipleChoiceField):
        keys = [str(key) for key, _ in field.choices]
        return st.lists(st.sampled_from(keys), unique=True, max_size=3) if keys else st.just([])
    if isinstance(field, forms.IntegerField) and field.min_value is not None:
        high = field.max_value if field.max_value is not None else field.min_value + 10
        return st.integers(field.min_value, min(high, field.min_value + 10)).map(str)
    if isinstance(field, forms.BooleanField):
        return st.sampled_from(["on", ""])
    return field_values(field)


@dataclass
class Vocabulary:
    """The names and values a post draws from (strategies built once, then reused)."""

    own: dict[str, dict[str, forms.Field]]  # each poster's form's fields, by role
    junk_names: list[str]
    foreign: list[str]  # other campaigns' and sides' ids and keys
    _cache: dict = field(default_factory=dict)

    @property
    def fields(self) -> dict[str, forms.Field]:
        return {name: f for fields in self.own.values() for name, f in fields.items()}

    def _cached(self, key, build):
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    def junk_value(self) -> st.SearchStrategy[str]:
        return self._cached(
            "junk", lambda: st.one_of(st.sampled_from(ODD), st.sampled_from(self.foreign), TEXT)
        )

    def values(self, name: str) -> st.SearchStrategy[str | list[str]]:
        """A value of the field's own kind (mostly) or junk; sometimes several."""

        def build():
            field_ = self.fields.get(name)
            junk = self.junk_value()
            one = st.one_of(field_values(field_), field_values(field_), junk) if field_ else junk
            return st.one_of(one, one, st.lists(one, min_size=2, max_size=4))

        return self._cached(("values", name), build)

    def tidy(self, role: str) -> st.SearchStrategy[dict]:
        """The poster's own fields, each filled in or not with a value it offers."""

        def build():
            entries = []
            for name, f in sorted(self.own.get(role, {}).items()):
                entry = st.tuples(st.just(name), tidy_values(f))
                entries.append(st.one_of(st.none(), entry, entry))  # given 2 times in 3
            return st.tuples(*entries).map(lambda parts: merge([e for e in parts if e]))

        return self._cached(("tidy", role), build)

    def messy(self) -> st.SearchStrategy[dict]:
        """Any fields of any poster's form, values of any kind, and junk names."""

        def build():
            known = [
                st.one_of(st.none(), st.none(), st.tuples(st.just(n), self.values(n)))
                for n in sorted(self.fields)
            ]
            junk_name = st.one_of(st.sampled_from(self.junk_names), TEXT)
            extra = st.lists(st.tuples(junk_name, self.junk_value()), max_size=3)
            return st.tuples(st.tuples(*known), extra).map(
                lambda parts: merge([*(e for e in parts[0] if e), *parts[1]])
            )

        return self._cached("messy", build)

    def form_data(self, role: str) -> st.SearchStrategy[dict]:
        return self._cached(("form", role), lambda: st.one_of(self.tidy(role), self.messy()))

    def posts(self, roles: list[str]) -> st.SearchStrategy[tuple[str, dict]]:
        """(poster's role, form data)."""
        return st.one_of(*(st.tuples(st.just(r), self.form_data(r)) for r in roles))


def merge(entries) -> dict:
    """(name, value) entries to POST data; a name given twice gets every value."""
    data: dict[str, list[str]] = {}
    for name, value in entries:
        data.setdefault(name, []).extend(value if isinstance(value, list) else [value])
    return {name: values[0] if len(values) == 1 else values for name, values in data.items()}


ENVELOPE = ("phase", "ready", "version", "csrfmiddlewaretoken")


def foreign_ids(*campaigns: Campaign) -> list[str]:
    """Ids and keys of another campaign's pieces."""
    ids = []
    for model in (Block, GuerrillaStack, Corps, Seat, Phase, Power, Area):
        ids += [
            str(pk)
            for pk in model.objects.filter(campaign__in=campaigns).values_list("pk", flat=True)
        ]
    ids += list(Area.objects.filter(campaign__in=campaigns).values_list("key", flat=True))
    return sorted(set(ids))


def junk_names(prefixes, ids: list[str]) -> list[str]:
    names = [f"{prefix}{i}" for prefix in prefixes for i in [*ids[:40], "x", "-1", "9" * 25]]
    return [*names, "version", "csrfmiddlewaretoken", "power", "seat", "campaign", "payload"]


PREFIXES = (
    "reinforce_",
    "act_",
    "move_",
    "siege_",
    "loss_",
    "place_",
    "fleet_place_",
    "aid_",
    "choice_",
    "unit:",
    "die_",
)


# -- the campaigns -------------------------------------------------------------------


@dataclass
class Poster:
    role: str
    client: Client
    seat: Seat
    power_key: str | None


@dataclass
class Target:
    campaign: Campaign
    posters: list[Poster]
    vocabulary: Vocabulary
    secrets: dict[str, set[str]] = field(default_factory=dict)  # role -> names never shown

    def poster(self, role: str) -> Poster:
        return next(p for p in self.posters if p.role == role)


def posters(campaign, users, roles) -> list[Poster]:
    found = []
    for role in roles:
        client = Client(raise_request_exception=False)
        client.force_login(users[role])
        seat = Seat.objects.select_related("campaign__phase", "power").get(
            campaign=campaign, user=users[role]
        )
        found.append(Poster(role, client, seat, seat.power.key if seat.power_id else None))
    return found


def order_target(campaign, users, foreign: list[Campaign]) -> Target:
    who = posters(campaign, users, ("player", "other_player"))
    own = {}
    for p in who:
        form = load_state(p.seat).order_form()
        own[p.role] = dict(form.fields) if form is not None else {}
    ids = foreign_ids(*foreign)
    return Target(campaign, who, Vocabulary(own, junk_names(PREFIXES, ids), ids))


def seeded_to(campaign, key: str) -> None:
    for _ in range(12):
        campaign.refresh_from_db()
        if campaign.phase.key == key:
            return
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
        )
    raise AssertionError(key)


def eia_target(key: str) -> Target:
    campaign = quarter_campaign()
    users = seat_users(campaign)  # France, Great Britain
    seeded_to(campaign, key)
    return order_target(campaign, users, [make_pb_campaign()])


def pb_target(key: str) -> Target:
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    seeded_to(campaign, key)
    other = make_pb_campaign()
    target = order_target(campaign, users, [other])
    blocks = list(Block.objects.filter(campaign=campaign).select_related("power"))
    swedish = {b for b in blocks if b.power.key == "sweden"}
    coalition = set(blocks) - swedish
    # the other side's block ids, under every prefix
    for theirs in (swedish, coalition):
        target.vocabulary.foreign += [str(b.pk) for b in theirs]
        target.vocabulary.junk_names += [f"{p}{b.pk}" for p in PREFIXES[:5] for b in theirs]
    target.secrets = {
        "player": {b.name for b in coalition},
        "other_player": {b.name for b in swedish},
    }
    return target


def vq_target(key: str) -> Target:
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    seeded_to(campaign, key)
    return order_target(campaign, users, [make_vq_campaign(), make_eia_campaign()])


# -- fingerprints ----------------------------------------------------------------------


class Writes:
    """Counts INSERT, UPDATE and DELETE statements."""

    def __init__(self):
        self.statements: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        if sql.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE"):
            self.statements.append(sql)
        return execute(sql, params, many, context)


def orders_of(campaign) -> dict:
    return {
        (phase, power): (payload, ready, by)
        for phase, power, payload, ready, by in Order.objects.filter(campaign=campaign).values_list(
            "phase_id", "power__key", "payload", "ready", "submitted_by_id"
        )
    }


def fingerprint(campaign) -> tuple[dict, int, int]:
    version = Campaign.objects.filter(pk=campaign.pk).values_list("version", flat=True).get()
    return orders_of(campaign), Event.objects.filter(campaign=campaign).count(), version


# -- posting ---------------------------------------------------------------------------


MESSAGE = r'class="(?:message [^"]*|errorlist[^"]*)"[^>]*>(.*?)</(?:li|ul)>'


def shown(response) -> str:
    html = response.content.decode(errors="replace")
    found = re.findall(MESSAGE, html, re.S)
    text = " | ".join(" ".join(re.sub(r"<[^>]+>", " ", f).split()) for f in found)
    return unescape(text)[:300]


FORM = "application/x-www-form-urlencoded"  # as a browser, and HTMX, post a form


def form_encoded(data: dict) -> str:
    return urlencode(data, doseq=True)


def send(poster: Poster, url: str, data: dict, htmx: bool):
    """Post in a savepoint rolled back afterwards; the response, the writes it made and
    the fingerprint of the state it left (None when it wrote nothing)."""
    writes = Writes()
    with transaction.atomic():
        with connection.execute_wrapper(writes):
            response = poster.client.post(url, form_encoded(data), FORM, **(HTMX if htmx else {}))
        after = fingerprint(poster.seat.campaign) if writes.statements else None
        transaction.set_rollback(True)
    return response, writes, after


def check_common(target: Target, poster: Poster, response, data, where: str) -> None:
    status = response.status_code
    if status >= 500:
        error = getattr(response, "exc_info", None)
        raise AssertionError(f"{where}: {status} {error[1] if error else ''!r} for {data!r}")
    text = unescape(response.content.decode(errors="replace"))
    leaked = [n for n in target.secrets.get(poster.role, ()) if n in text]
    assert not leaked, f"{where}: shows the other side's blocks {leaked} for {data!r}"


def phase_values(campaign: Campaign, stale: int, foreign: int) -> st.SearchStrategy:
    right = str(campaign.phase_id)
    return st.one_of(
        st.just(right),
        st.just(right),
        st.just(right),
        st.sampled_from(
            [str(stale), str(foreign), "0" + right, "", "x", " " + right, "٣", "9" * 30]
        ),
        st.none(),
    )


PIECE_KEYS = {"block": Block, "fleet": Block, "blocks": Block, "loss_order": Block}
PIECE_KEYS |= {"stack": GuerrillaStack}


def pieces_named(payload) -> list[tuple[str, int]]:
    """The blocks and guerrilla stacks an order payload names, as (model, id)."""
    found = []
    if isinstance(payload, dict):
        for name, value in payload.items():
            model = PIECE_KEYS.get(name)
            ids = value if isinstance(value, list) else [value]
            if model is not None:
                found += [(model.__name__, i) for i in ids if isinstance(i, int)]
            else:
                found += pieces_named(value)
    elif isinstance(payload, list):
        for item in payload:
            found += pieces_named(item)
    return found


def pieces_of(campaign, power_key: str) -> set[tuple[str, int]]:
    """The pieces a power may name in its orders: its own blocks, and the guerrilla
    stacks of its nationality."""
    blocks = Block.objects.filter(campaign=campaign, power__key=power_key)
    stacks = GuerrillaStack.objects.filter(campaign=campaign, nationality__key=power_key)
    return {("Block", pk) for pk in blocks.values_list("pk", flat=True)} | {
        ("GuerrillaStack", pk) for pk in stacks.values_list("pk", flat=True)
    }


def run_order_fuzz(key: str, target: Target) -> Counter:
    campaign = target.campaign
    campaign.refresh_from_db()
    url = f"/campaigns/{campaign.pk}/orders/"
    phase = campaign.phase
    takes = {p.role: load_state(p.seat).takes_orders for p in target.posters}
    before = fingerprint(campaign)
    stale = Phase.objects.filter(campaign=campaign).exclude(pk=phase.pk).order_by("-pk").first()
    foreign = Phase.objects.exclude(campaign=campaign).order_by("pk").first()
    outcomes: Counter = Counter()
    own_pieces = {p.role: pieces_of(campaign, p.power_key) for p in target.posters}

    @fuzz(key)
    @given(
        post=target.vocabulary.posts([p.role for p in target.posters]),
        htmx=HTMX_MOSTLY,
        phase_value=phase_values(campaign, stale.pk if stale else 1, foreign.pk if foreign else 2),
        ready=st.sampled_from(["1", "1", "0", "", "yes", None]),
    )
    def post(post, htmx, phase_value, ready):
        RUNS[key] += 1
        role, fields = post
        poster = target.poster(role)
        data = {k: v for k, v in fields.items() if k not in ENVELOPE[:2]}
        if phase_value is not None:
            data["phase"] = phase_value
        if ready is not None:
            data["ready"] = ready
        response, writes, after = send(poster, url, data, htmx)
        status = response.status_code
        where = f"{key} · {role} · {'htmx' if htmx else 'page'} · {status}"
        check_common(target, poster, response, data, where)
        if phase_value is None or not (phase_value.isascii() and phase_value.isdigit()):
            wanted = {400}
        elif phase_value != str(phase.pk) or not takes[role]:
            wanted = {409}
        else:
            wanted = {200 if htmx else 302, 422}
        assert status in wanted, f"{where}, not {wanted}: {shown(response)} for {data!r}"
        accepted = status in (200, 302)
        outcomes["accepted" if accepted else str(status)] += 1
        if not accepted:
            assert not writes.statements, f"{where}: a refused post wrote {writes.statements[:3]}"
            return
        if not htmx:
            assert response["Location"] == f"/campaigns/{campaign.pk}/", where
        orders, events, version = after
        mine = (phase.pk, poster.power_key)
        others = {k: v for k, v in orders.items() if k != mine}
        assert others == {k: v for k, v in before[0].items() if k != mine}, where
        assert mine in orders, f"{where}: no order saved for {poster.power_key}"
        assert orders[mine][1] == (ready == "1"), f"{where}: ready {orders[mine][1]} for {ready!r}"
        assert orders[mine][2] == poster.seat.user_id, where
        assert events == before[1] + 1 and version == before[2] + 1, where
        foreign_pieces = set(pieces_named(orders[mine][0])) - own_pieces[role]
        assert not foreign_pieces, f"{where}: saved orders for pieces {foreign_pieces}: {data!r}"

    try:
        post()
    finally:
        print(f"{key}: {RUNS[key]} examples, {dict(outcomes)}")
    return outcomes


@pytest.mark.parametrize("key", ["revolt", "land", "economic"])
def test_fuzzed_eia_orders(key):
    outcomes = run_order_fuzz(f"eia-{key}", eia_target(key))
    covered(f"eia-{key}", outcomes, "accepted", "422", "409", "400")


@pytest.mark.parametrize("key", ["recruitment", "actions", "forage"])
def test_fuzzed_pb_orders(key):
    outcomes = run_order_fuzz(f"pb-{key}", pb_target(key))
    covered(f"pb-{key}", outcomes, "accepted", "422", "409", "400")


@pytest.mark.parametrize("key", ["impulse_spain", "impulse_protestant"])
def test_fuzzed_vq_orders(key):
    outcomes = run_order_fuzz(f"vq-{key}", vq_target(key))
    covered(f"vq-{key}", outcomes, "accepted", "422", "409", "400")


# -- Virgin Queen's decisions ----------------------------------------------------------

CONVERSION = {
    "action": "conversion",
    "zones": ["netherlands", "france"],
    "attempts": 4,
    "event": "",
}


def waiting_campaign(stage: str, monkeypatch) -> tuple[Campaign, dict]:
    """A Virgin Queen campaign waiting for a decision: Spain's conversion (6 4 1 5) at
    its sixes or its flips, Spain playing; or a Protestant revolt in Lyon (4 CP, two
    hits) waiting for France's losses, France playing. The other player: the Protestant."""
    seeded = services._dice_for
    if stage == "hits":
        faces = {"impulse_protestant": [1, 2, 5, 6]}
    else:
        faces = {"impulse_spain": [6, 4, 1, 5]}

    def dice(c, p, entered):
        return ScriptedDice(faces[p.key]) if p.key in faces else seeded(c, p, entered)

    monkeypatch.setattr(services, "_dice_for", dice)
    campaign = make_vq_campaign()
    acting = "france" if stage == "hits" else "spain"
    users = seat_users(campaign, acting, "protestant")
    if stage == "hits":
        lyon = Area.objects.get(campaign=campaign, key="lyon")
        VqUnits.objects.filter(campaign=campaign, area=lyon, kind="regular").update(count=2)
        VqUnits.objects.create(
            campaign=campaign, power=lyon.controller, kind="naval", area=lyon, count=1
        )
        seeded_to(campaign, "impulse_protestant")
        order(campaign, "protestant", {"action": "revolt", "target": "lyon", "cp": 4})
    else:
        seeded_to(campaign, "impulse_spain")
        order(campaign, "spain", CONVERSION)
    campaign.refresh_from_db()
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    if stage == "flips":
        spain = Seat.objects.select_related("power").get(campaign=campaign, power__key="spain")
        services.decide(
            seat=spain, phase_id=campaign.phase_id, answer={"die_1": "keep"}, actor=None
        )
    pending = VqPending.objects.select_related("waiting_for").get(campaign=campaign)
    assert (pending.stage, pending.waiting_for.key) == (stage, acting)
    campaign.refresh_from_db()
    return campaign, users


@pytest.mark.parametrize("stage", ["sixes", "flips", "hits"])
def test_fuzzed_vq_decisions(stage, monkeypatch):
    key = f"vq-decision-{stage}"
    campaign, users = waiting_campaign(stage, monkeypatch)
    who = posters(campaign, users, ("player", "other_player", "observer", "gm"))
    own = {p.role: dict(load_state(p.seat).decision_form().fields) for p in who}
    ids = foreign_ids(make_vq_campaign())
    spaces = list(Area.objects.filter(campaign=campaign).values_list("key", flat=True))
    ids += [str(pk) for pk in VqUnits.objects.values_list("pk", flat=True)]
    vocabulary = Vocabulary(
        own, junk_names(("die_", "unit:", "unrest", "extra"), ids), ids + spaces
    )
    target = Target(campaign, who, vocabulary)
    url = f"/campaigns/{campaign.pk}/decision/"
    phase = campaign.phase
    before = fingerprint(campaign)
    answerable = {"player", "gm"}
    outcomes: Counter = Counter()
    stale = Phase.objects.filter(campaign=campaign).exclude(pk=phase.pk).first()
    foreign = Phase.objects.exclude(campaign=campaign).first()
    versions = st.one_of(
        st.none(), st.none(), st.just(str(campaign.version)), st.sampled_from(["0", "x", "9" * 30])
    )

    @fuzz(key)
    @given(
        post=vocabulary.posts(sorted(p.role for p in who)),
        htmx=HTMX_MOSTLY,
        phase_value=phase_values(campaign, stale.pk, foreign.pk),
        version=versions,
    )
    def post(post, htmx, phase_value, version):
        RUNS[key] += 1
        role, fields = post
        poster = target.poster(role)
        data = {k: v for k, v in fields.items() if k not in ENVELOPE[:3]}
        if phase_value is not None:
            data["phase"] = phase_value
        if version is not None:
            data["version"] = version
        response, writes, after = send(poster, url, data, htmx)
        status = response.status_code
        where = f"{key} · {role} · {'htmx' if htmx else 'page'} · {status}"
        check_common(target, poster, response, data, where)
        if phase_value != str(phase.pk):
            wanted = {409}
        elif role not in answerable:
            wanted = {403}
        else:
            wanted = {200 if htmx else 302, 422, 409}
        assert status in wanted, f"{where}, not {wanted}: {shown(response)} for {data!r}"
        if status == 409 and phase_value == str(phase.pk):
            stale_version = (
                version not in (None, str(campaign.version))
                and version.isdigit()
                and len(version) < 19
            )
            assert stale_version, f"{where}: 409, no stale version: {shown(response)} for {data!r}"
        accepted = status in (200, 302)
        outcomes["accepted" if accepted else str(status)] += 1
        if not accepted:
            assert not writes.statements, f"{where}: a refused post wrote {writes.statements[:3]}"
            return
        if htmx:
            assert response.get("HX-Redirect"), where
        orders, events, version_after = after
        assert orders == before[0], f"{where}: orders changed by a decision"
        assert version_after > before[2], where

    try:
        post()
    finally:
        print(f"{key}: {RUNS[key]} examples, {dict(outcomes)}")
    covered(key, outcomes, "accepted", "422", "409", "403")


# -- Pax Baltica's question ----------------------------------------------------------


def test_fuzzed_pb_questions():
    key = "pb-question"
    target = pb_target("recruitment")
    campaign = target.campaign
    blocks = list(Block.objects.filter(campaign=campaign).select_related("power"))
    side = {"sweden": "sweden"}
    answerable = {
        p.role: {
            b.pk for b in blocks if side.get(b.power.key) == side.get(p.power_key) and b.location_id
        }
        for p in target.posters
    }
    ids = [b.pk for b in blocks] + [int(i) for i in target.vocabulary.foreign if i.isdigit()]
    items = st.one_of(
        st.sampled_from(ids), st.integers(0, 10**18 - 1), st.sampled_from([0, 10**17])
    )
    slugs = st.from_regex(r"[-a-zA-Z0-9_]{1,10}", fullmatch=True)
    topics = st.one_of(st.just("line"), st.just("line"), slugs)
    before = fingerprint(campaign)
    outcomes: Counter = Counter()

    @fuzz(key)
    @given(
        role=st.sampled_from(["player", "other_player"]),
        htmx=HTMX_MOSTLY,
        method=st.sampled_from(["get", "post"]),
        topic=topics,
        item=items,
        fields=target.vocabulary.messy(),
    )
    def ask(role, htmx, method, topic, item, fields):
        RUNS[key] += 1
        poster = target.poster(role)
        url = f"/campaigns/{campaign.pk}/ask/{topic}/{item}/"
        writes = Writes()
        with transaction.atomic():
            with connection.execute_wrapper(writes):
                extra = HTMX if htmx else {}
                if method == "get":
                    response = poster.client.get(url, fields, **extra)
                else:
                    response = poster.client.post(url, form_encoded(fields), FORM, **extra)
            transaction.set_rollback(True)
        status = response.status_code
        where = f"{key} · {role} · {method} {topic}/{item} · {status}"
        check_common(target, poster, response, fields, where)
        wanted = 200 if topic == "line" and item in answerable[role] else 404
        assert status == wanted, where
        outcomes[str(status)] += 1
        assert not writes.statements, f"{where}: a question wrote {writes.statements[:3]}"

    try:
        ask()
    finally:
        print(f"{key}: {RUNS[key]} examples, {dict(outcomes)}")
    assert fingerprint(campaign) == before
    covered(key, outcomes, "200", "404")
