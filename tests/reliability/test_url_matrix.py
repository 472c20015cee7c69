"""The role × URL matrix, generated from the URL conf.

Every URL name of the campaign app gets requests from a builder below (a new URL name
without a builder fails the test), for a campaign of each ruleset — Empires in Arms,
Pax Baltica, and Virgin Queen both with its impulse open and waiting for a decision —
and for every role: anonymous, outsider (no seat), player, other_player, observer, GM.
Every URL is requested with GET and with POST; the HTMX endpoints (orders, standing,
question, decision) with HTMX too. Each request runs in a savepoint rolled back after
it, so every request meets the same campaign.

Asserted for every response: never a 5xx; the expected status for the role (anonymous:
the login page, outsider: 404, a player or observer at a GM page or action: 403, a
method the view does not take: 405); a refused request (4xx, or anonymous) and every
GET change nothing (tests.factories.snapshot, taken when the request wrote anything);
in Pax Baltica, nothing a Swedish player
receives names a Coalition block, and nothing a Russian player receives names a
Swedish block (the rules page's public examples excepted there); in every campaign, each
seated role keeps a private note (campaign/press/notes.py) that no other role ever receives.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from html import unescape

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse
from django.utils import timezone

from campaign.api import tokens as api_tokens
from campaign.models import CalendarFeed, Campaign, MailKind, Phase, Seat
from campaign.notify import mail_tokens
from campaign.play import services
from campaign.press import notes
from rules.dice import ScriptedDice
from rules.engine import ruleset_for
from rules.pax_baltica.models import Block
from tests.factories import (
    make_eia_campaign,
    make_pb_campaign,
    make_toy_campaign,
    make_vq_campaign,
    seat_users,
    snapshot,
)
from tests.services.test_eia_phase_services import order, resolve
from tests.toy.models import Lord

ROLES = ("anonymous", "outsider", "player", "other_player", "observer", "gm")
SEATED = ("player", "other_player", "observer", "gm")
PLAYERS = ("player", "other_player")
HTMX = {"HTTP_HX_REQUEST": "true"}
# the views that answer an HTMX post with a fragment (the GM's controls: their section)
HTMX_ENDPOINTS = {
    "orders",
    "standing",
    "question",
    "decision",
    "press",
    "press_channel",
    "edit",
    "deadline",
    "clock",
    "schedule",
    "webhook_test",
    "seat",
    "absent",
    "disorder",
    "player_rules",
    "plays",
    "observer",
    "refuse_away",
    "gm_add",
    "gm_open",
    "gm_remove",
    "handover_offer",
    "handover_withdraw",
    "take_extension",
    "extension_rules",
    "lobby_settings",
    "seat_request",
    "press_rules",
    "options",
    "gm_order_done",
    "gm_orders_reveal",
    "rollback",
    "end",
    "notes",
}
MISSING = 10**17  # an id no row has
LOGIN = "login"  # expected: a redirect to the login page

# Who may use a URL (the view's own refusals come after these):
PUBLIC = "public"  # anyone, logged in or not
SIGNUP = "signup"  # anonymous only; a logged-in user is sent on
ACCOUNT = "account"  # any logged-in user
SEAT = "seat"  # a seat in the campaign; no seat: 404
PLAYER = "player"  # a power's seat; no seat: 404, a seat without a power: 403
GM = "gm"  # the GM seat; no seat: 404, another seat: 403

ANY_METHOD = frozenset({"get", "post"})
GET_ONLY = frozenset({"get"})
POST_ONLY = frozenset({"post"})


def played_power(scene) -> int:
    """The id of the power the scene's "player" plays."""
    return Seat.objects.get(campaign=scene.campaign, user=scene.users["player"]).power_id


def campaign_url_names() -> set[str]:
    (resolver,) = (
        p
        for p in get_resolver().url_patterns
        if isinstance(p, URLResolver) and p.namespace == "campaign"
    )
    return {pattern.name for pattern in resolver.url_patterns}


# -- the campaigns ---------------------------------------------------------------------


@dataclass
class Scene:
    """A campaign in a given state, its users, and what its builders need to know."""

    key: str
    ruleset: str
    campaign: object
    users: dict
    open_power: str  # a power whose seat has no player
    valid_orders: dict  # a post the form accepts, when the phase takes the role's orders
    orders_ok: dict  # role -> status of that post
    resolved_phase: int
    waiting: bool = False
    secrets: dict = field(default_factory=dict)  # role -> names that role must never read
    other: object = None  # a second campaign of the ruleset: its ids are foreign here

    @property
    def pk(self) -> int:
        return self.campaign.pk

    @property
    def phase(self) -> Phase:
        return self.campaign.phase

    @property
    def open_seat(self) -> Seat:
        return Seat.objects.get(campaign=self.campaign, power__key=self.open_power)


def eia_scene() -> Scene:
    campaign = make_eia_campaign()
    users = seat_users(campaign)  # France, Great Britain
    resolved = campaign.phase_id
    resolve(campaign)  # the peace step: the revolt step is open
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    return Scene(
        "eia",
        "empires_in_arms",
        campaign,
        users,
        "spain",
        {},
        {"player": 302, "other_player": 302},
        resolved,
    )


def pb_scene() -> Scene:
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    resolved = campaign.phase_id
    resolve(campaign)  # recruitment: the actions are open
    campaign.refresh_from_db()
    assert campaign.phase.key == "actions"
    blocks = list(Block.objects.filter(campaign=campaign).select_related("power"))
    swedish = {b.name for b in blocks if b.power.key == "sweden"}
    coalition = {b.name for b in blocks if b.power.key != "sweden"}
    return Scene(
        "pb",
        "pax_baltica",
        campaign,
        users,
        "denmark",
        {},
        {"player": 302, "other_player": 302},
        resolved,
        secrets={"player": coalition, "other_player": swedish},
    )


def vq_scene(waiting: bool) -> Scene:
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    resolved = campaign.phase_id
    resolve(campaign)  # the Ottoman impulse: the Spanish one is open
    campaign.refresh_from_db()
    assert campaign.phase.key == "impulse_spain"
    ok = {"player": 302, "other_player": 409}  # the Protestant's impulse comes later
    if waiting:
        order(campaign, "spain", {"action": "conversion", "zones": ["netherlands"], "attempts": 4})
        original = services._dice_for
        services._dice_for = lambda *args: ScriptedDice([6, 4, 1, 5])
        try:
            resolve(campaign)
        finally:
            services._dice_for = original
        campaign.refresh_from_db()
        assert campaign.phase.status == Phase.Status.WAITING  # Spain's 6: keep or flip?
        ok = {"player": 409, "other_player": 409}
    return Scene(
        "vq_waiting" if waiting else "vq_open",
        "virgin_queen",
        campaign,
        users,
        "england",
        {"action": "pass"},
        ok,
        resolved,
        waiting=waiting,
    )


def toy_scene() -> Scene:
    """Beacons (tests/toy), which the site knows through the ruleset contract alone: the
    first night's raid phase open; each lord's reserve of wood is its own (hidden from
    the other lords and from watchers)."""
    campaign = make_toy_campaign()
    users = seat_users(campaign, "north", "south")
    reserves = {"north": 1, "south": 4, "west": 5}
    for key, wood in reserves.items():
        Lord.objects.filter(power__campaign=campaign, power__key=key).update(wood=wood)
    resolved = campaign.phase_id
    resolve(campaign)  # the first night's signal: its raid phase is open
    campaign.refresh_from_db()
    assert campaign.phase.key == "raid"
    ok = {"player": 302, "other_player": 302}
    told = {key: f"{wood} wood" for key, wood in reserves.items()}
    secrets = {
        "player": {told["south"], told["west"]},
        "other_player": {told["north"], told["west"]},
        "observer": set(told.values()),
    }
    valid = {"action": "gather"}
    return Scene("toy", "toy", campaign, users, "west", valid, ok, resolved, secrets=secrets)


OTHER = {
    "empires_in_arms": make_eia_campaign,
    "pax_baltica": make_pb_campaign,
    "virgin_queen": make_vq_campaign,
    "toy": make_toy_campaign,
}

SCENES: dict[str, Callable[[], Scene]] = {
    "eia": eia_scene,
    "pb": pb_scene,
    "vq_open": lambda: vq_scene(waiting=False),
    "vq_waiting": lambda: vq_scene(waiting=True),
    "toy": toy_scene,
}


# -- the requests ----------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One request; ``ok``: its status for a role the URL's scope lets through (an int
    for all of them, or per role)."""

    method: str
    url: str
    data: dict | None = None
    ok: int | dict = 200
    label: str = ""
    htmx: bool = False

    def ok_for(self, role: str) -> int:
        return self.ok[role] if isinstance(self.ok, dict) else self.ok


def get(url, ok=200, label=""):
    return Call("get", url, None, ok, label)


def post(url, data, ok, label=""):
    return Call("post", url, data, ok, label)


def u(name: str, *args) -> str:
    return reverse(f"campaign:{name}", args=args)


def in_days(days: int) -> str:
    """A datetime-local value ``days`` from now (UTC, the test users' zone)."""
    return (timezone.now() + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M")


def seated(**by_role) -> dict:
    return {role: by_role.get(role, by_role.get("default")) for role in SEATED}


def orders_calls(s: Scene) -> list[Call]:
    url, phase = u("orders", s.pk), s.phase.pk
    valid = {"phase": phase, "ready": "1", **s.valid_orders}
    junk = {**valid, "junk": "1"}
    junk_ok = {role: 422 if status == 302 else status for role, status in s.orders_ok.items()}
    return [
        post(url, valid, s.orders_ok, "valid"),
        post(url, {**valid, "ready": "0"}, s.orders_ok, "draft"),
        post(url, junk, junk_ok, "a field the form does not offer"),
        post(url, {**valid, "phase": s.resolved_phase}, 409, "a resolved phase"),
        post(url, {**valid, "phase": s.other.phase_id}, 409, "another campaign's phase"),
        post(url, {**valid, "phase": "x1"}, 400, "a phase that is no number"),
        post(url, {"ready": "1"}, 400, "no phase"),
    ]


def standing_calls(s: Scene) -> list[Call]:
    url = u("standing", s.pk)
    if s.ruleset != "empires_in_arms":
        return [post(url, {"pays_bad_roll": "no"}, 404, "no standing order in this game")]
    return [
        post(url, {"pays_bad_roll": "no"}, 302, "valid"),
        post(url, {"pays_bad_roll": "maybe"}, 422, "not a choice"),
    ]


def decision_calls(s: Scene) -> list[Call]:
    url, phase = u("decision", s.pk), s.phase.pk
    if not s.waiting:
        return [post(url, {"phase": phase, "answer": "yes"}, 409, "nothing is asked")]
    # Spain's 6: keep it for the major conversion, or flip a space now
    return [
        post(url, {"phase": phase, "die_1": "keep"}, seated(default=403, player=302, gm=302)),
        post(
            url,
            {"phase": phase, "die_1": "paris"},
            seated(default=403, player=422, gm=422),
            "not an eligible space",
        ),
        post(url, {"phase": phase, "nope": "1"}, seated(default=403, player=422, gm=422)),
        post(url, {"phase": s.resolved_phase, "die_1": "keep"}, 409, "another phase"),
        post(url, {"phase": s.other.phase_id, "die_1": "keep"}, 409, "another campaign's"),
    ]


def question_calls(s: Scene) -> list[Call]:
    if s.ruleset != "pax_baltica":
        return [get(u("question", s.pk, "line", 1), 404, "no questions in this game")]
    ids = dict(Block.objects.filter(campaign=s.campaign).values_list("name", "pk"))
    # an observer sees no side's blocks until the campaign ends (campaign/core/watching.py)
    return [
        get(
            u("question", s.pk, "line", ids["Karl XII"]),
            seated(default=200, other_player=404, observer=404),
            "a Swedish block",
        ),
        get(
            u("question", s.pk, "line", ids["Pyotr I"]),
            seated(default=200, player=404, observer=404),
            "a Russian block",
        ),
        get(u("question", s.pk, "line", MISSING), 404, "no such block"),
        get(u("question", s.pk, "line", ids["Dalregementet"]), 404, "a block in the pool"),
        get(
            u("question", s.pk, "line", Block.objects.filter(campaign=s.other).first().pk),
            404,
            "another campaign's block",
        ),
        get(u("question", s.pk, "nope", ids["Karl XII"]), 404, "no such topic"),
    ]


AREA_KEYS = {
    "empires_in_arms": ("palatinate", "andalusia"),
    "pax_baltica": ("kurland", "lietuva", "narva", "lausitz", "central_baltic"),
    "virgin_queen": ("antwerp", "lyon", "north_sea"),
    "toy": ("crag", "fell"),
}


def area_calls(s: Scene) -> list[Call]:
    """Each area, as a page and as the side panel HTMX loads; keys the campaign lacks."""
    calls = []
    for key in AREA_KEYS[s.ruleset]:
        url = u("area", s.pk, key)
        calls += [get(url, label=key), Call("get", url, label=f"{key}, htmx", htmx=True)]
    return calls + [
        get(u("area", s.pk, "atlantis"), 404, "no such area"),
        get(u("area", s.pk, "<script>"), 404, "not a key"),
    ]


def verify_calls(s: Scene) -> list[Call]:
    return [
        get(u("verify", s.pk, s.resolved_phase), 200, "a resolved phase"),
        get(u("verify", s.pk, s.phase.pk), 409, "the open phase"),
        get(u("verify", s.pk, MISSING), 404, "no such phase"),
        get(u("verify", s.pk, s.other.phase_id), 404, "another campaign's phase"),
    ]


def status_calls(s: Scene) -> list[Call]:
    url = u("status", s.pk)
    return [
        get(f"{url}?phase={s.phase.pk}&status={s.phase.status}", 204, "unchanged"),
        get(f"{url}?phase={s.resolved_phase}&status=open", 200, "moved on"),
    ]


def timeline_calls(s: Scene) -> list[Call]:
    """The timeline draws the presenter's readings of each turn: none without them."""
    presenter = ruleset_for(s.ruleset).hooks.presenter
    ok = 200 if presenter and presenter.timeline else 404
    return [get(u("timeline", s.pk), ok), post(u("timeline", s.pk), {}, ok)]


def edit_calls(s: Scene) -> list[Call]:
    valid = {
        "empires_in_arms": (
            "power",
            {"power": "spain", "zone": "Fiasco", "political_points": "3", "treasury": "9"},
        ),
        "pax_baltica": ("side", {"side": "sweden", "actions": "2", "actions_per_season": "3"}),
        "virgin_queen": ("war", {"first": "spain", "second": "england", "at_war": "on"}),
        "toy": ("lord", {"lord": "west", "wood": "2"}),
    }
    no_such_edit = post(u("edit", s.pk, "nope"), {}, 404, "no such edit")
    if s.ruleset not in valid:
        return [no_such_edit]  # a game without GM edits
    key, data = valid[s.ruleset]
    return [
        # a Virgin Queen edit waits until the decision under way is made
        post(u("edit", s.pk, key), data, 422 if s.waiting else 302, f"edit {key}"),
        post(u("edit", s.pk, key), {}, 422, f"edit {key}, empty"),
        post(u("edit", s.pk, "nope"), data, 404, "no such edit"),
    ]


EDIT_ITEMS = {"empires_in_arms": ("power", "spain"), "pax_baltica": ("side", "sweden")}
EDIT_ITEMS["virgin_queen"] = ("space", "lyon")
EDIT_ITEMS["toy"] = ("beacon", "crag")


def edit_item_calls(s: Scene) -> list[Call]:
    """The prefilled form of one item of an edit list, alone (HTMX) or in the dashboard."""
    if s.ruleset not in EDIT_ITEMS:
        return [get(f"{u('edit_item', s.pk, 'nope')}?item=crag", 404, "no such edit")]
    key, item = EDIT_ITEMS[s.ruleset]
    url = u("edit_item", s.pk, key)
    return [
        get(f"{url}?item={item}", label=f"{key} {item}"),
        Call("get", f"{url}?item={item}", label=f"{key} {item}, htmx", htmx=True),
        get(f"{url}?item=atlantis", 404, "no such item"),
        get(url, 404, "no item"),
        get(f"{u('edit_item', s.pk, 'nope')}?item={item}", 404, "no such edit"),
    ]


def edit_panel_calls(s: Scene) -> list[Call]:
    """One kind of edit's forms, alone (HTMX) or in the dashboard with that panel open."""
    if s.ruleset not in EDIT_ITEMS:
        return [get(u("edit_panel", s.pk, "nope"), 404, "no such edit")]
    url = u("edit_panel", s.pk, EDIT_ITEMS[s.ruleset][0])
    return [
        get(url, label="panel"),
        Call("get", url, label="panel, htmx", htmx=True),
        get(u("edit_panel", s.pk, "nope"), 404, "no such edit"),
    ]


def foreign_seat_request(s: Scene):
    """A request for a seat of the other campaign of the ruleset (its ids are foreign here)."""
    from campaign.models import SeatRequest

    power = Seat.objects.filter(campaign=s.other, user__isnull=True, role="player").first().power
    return SeatRequest.objects.get_or_create(
        campaign=s.other, power=power, user=s.users["outsider"]
    )[0]


def mail_settings_calls(s: Scene) -> list[Call]:
    """The mail the campaign sends the reader: saved, or refused (a press mail that is no
    choice); a campaign that does not exist. Any user may ask (the view reads the seat):
    one with no seat or request in the campaign finds no page."""
    url = u("mail_settings", s.pk)
    choice = {"your_turn": "on", "reminders": "on", "resolved": "on", "press": "each"}

    def ok(status: int) -> dict:
        return {**seated(default=status), "outsider": 404}

    return [
        get(url, ok(200)),
        post(url, choice, ok(302), "saved"),
        post(url, {**choice, "press": "sometimes"}, ok(422), "not a choice"),
        get(u("mail_settings", MISSING), 404, "no such campaign"),
    ]


def unsubscribe_calls(s: Scene) -> list[Call]:
    """The link every mail of a kind carries: whoever holds it may use it (a mail provider
    posts to it without logging in, RFC 8058); a link Courier did not sign is refused."""
    player = s.users["player"].pk

    def link(*target) -> str:
        return u("unsubscribe", mail_tokens.unsubscribe_token(*target))

    return [
        get(link(player, s.pk, MailKind.PRESS)),
        post(link(player, s.pk, MailKind.PRESS), {}, 200, "one click"),
        get(u("unsubscribe", "forged:token"), 400, "a link Courier did not sign"),
        post(u("unsubscribe", "forged:token"), {}, 400, "a link Courier did not sign"),
        get(link(player, s.pk, "spam"), 400, "no kind of mail"),
        get(link(player, MISSING, MailKind.PRESS), 404, "no such campaign"),
    ]


def press_calls(s: Scene) -> list[Call]:
    """The press pages and fragments; messages to everyone, empty, to nowhere."""
    url = u("press", s.pk)
    writers, refused = seated(default=302, observer=403), seated(default=422, observer=403)
    return [
        get(url),
        get(f"{url}?part=panel", label="the campaign page's panel"),
        get(f"{url}?part=channels&stamp=x", label="the channels, polled"),
        get(f"{url}?page=x", label="a page that is no number"),
        post(url, {"to": "public", "text": "Hear ye"}, writers, "to everyone"),
        post(url, {"to": "public", "text": " "}, refused, "empty"),
        post(url, {"to": "nowhere", "text": "x"}, refused, "no such channel"),
        post(
            url,
            {"to": "private", "powers": ["atlantis"], "text": "x"},
            seated(default=422, observer=403, gm=403),
            "a power of no campaign",
        ),
    ]


def press_channel_calls(s: Scene) -> list[Call]:
    """A channel: public, the two players' private one, the player's with the GM."""
    keys = {
        role: Seat.objects.get(campaign=s.campaign, user=s.users[role]).power.key
        for role in PLAYERS
    }
    pair = "+".join(sorted(keys.values()))
    private = seated(default=404, player=200, other_player=200)
    return [
        get(u("press_channel", s.pk, "public")),
        get(u("press_channel", s.pk, pair), private, "the players' private channel"),
        get(
            u("press_channel", s.pk, f"gm-{keys['player']}"),
            seated(default=404, player=200, gm=200),
            "the player's channel with the GM",
        ),
        get(u("press_channel", s.pk, "atlantis+nowhere"), 404, "no such channel"),
        post(u("press_channel", s.pk, "public"), {"text": "x"}, seated(default=302, observer=403)),
        post(
            u("press_channel", s.pk, pair),
            {"text": "x"},
            seated(default=404, player=302, other_player=302),
            "the players' private channel",
        ),
    ]


def notes_calls(s: Scene) -> list[Call]:
    """The reader's notes: the page; a note on the campaign, the open phase, a past one;
    an empty one (deleted); phases of no campaign, of another, not a number; too long."""
    url = u("notes", s.pk)
    return [
        get(url),
        post(url, {"phase": "", "text": "On the campaign"}, 302, "the campaign's note"),
        post(url, {"phase": s.phase.pk, "text": "Now"}, 302, "the open phase's note"),
        post(url, {"phase": s.resolved_phase, "text": "Then"}, 302, "a past phase's note"),
        post(url, {"phase": s.phase.pk, "text": " "}, 302, "emptied: deleted"),
        post(url, {"phase": MISSING, "text": "x"}, 422, "no such phase"),
        post(url, {"phase": s.other.phase_id, "text": "x"}, 422, "another campaign's phase"),
        post(url, {"phase": "x1", "text": "x"}, 422, "a phase that is no number"),
        post(url, {"text": "x" * 20_001}, 422, "too long"),
    ]


def calendar_feed_calls(s: Scene) -> list[Call]:
    """The player's calendar feed: anyone with its address reads it, without a login (the
    seated roles read the player's deadlines, nothing else); an address of no feed."""
    feed, _ = CalendarFeed.objects.get_or_create(user=s.users["player"])
    return [
        get(u("calendar_feed", feed.secret), 200, "the player's feed"),
        get(u("calendar_feed", "not-a-secret"), 404, "no such feed"),
        post(u("calendar_feed", feed.secret), {}, 405),
    ]


def take_extension_calls(s: Scene) -> list[Call]:
    """A deadline extension: the scenes' phases have no deadline to extend (a phase under
    way has none that applies); another campaign's phase; a moment that is none."""
    url, later = u("take_extension", s.pk), "2999-01-01T20:00"
    return [
        post(url, {"phase": s.phase.pk, "seen_deadline": later}, 409 if s.waiting else 422),
        post(url, {"phase": s.other.phase_id, "seen_deadline": later}, 409, "another campaign's"),
        post(url, {"phase": s.phase.pk, "seen_deadline": "soon"}, 422, "not a moment"),
    ]


def gm_seat_of(s: Scene) -> Seat:
    return Seat.objects.get(campaign=s.campaign, role=Seat.Role.GM)


def gm_team_calls(name: str, s: Scene) -> list[Call]:
    """Make a user a GM or offer them the campaign: an outsider; a player (refused); no
    such user."""
    url = u(name, s.pk)
    return [
        post(url, {"username": s.users["outsider"].username}, 302, "a user"),
        post(url, {"username": s.users["player"].username}, 422, "a player"),
        post(url, {"username": "nobody-here"}, 422, "no such user"),
        post(url, {}, 422, "no user named"),
    ]


def gm_remove_calls(s: Scene) -> list[Call]:
    """The only GM (refused: a campaign keeps one), a player's seat, another campaign's GM
    seat, no seat."""
    remove = lambda seat_id: u("gm_remove", s.pk, seat_id)  # noqa: E731
    other = Seat.objects.get(campaign=s.other, role=Seat.Role.GM)
    return [
        post(remove(gm_seat_of(s).pk), {}, 422, "the last GM"),
        post(remove(s.open_seat.pk), {}, 422, "a player's seat"),
        post(remove(other.pk), {}, 422, "another campaign's GM seat"),
        post(remove(MISSING), {}, 422, "no such seat"),
    ]


def gm_join_calls(s: Scene) -> list[Call]:
    """The GM seat's invitation (taken: its GM holds it, anyone else is refused); a
    player seat's invitation is none; a token of nothing."""
    taken = u("gm_join", s.pk, gm_seat_of(s).invite_token)
    refused = {role: 409 for role in ("outsider", *SEATED)}
    return [
        get(taken, 200, "a taken GM seat"),
        post(taken, {}, {**refused, "gm": 302}, "a taken GM seat"),
        get(u("gm_join", s.pk, s.open_seat.invite_token), 404, "a player seat's invitation"),
        post(u("gm_join", s.pk, "not-a-token"), {}, 404, "no such invitation"),
    ]


def foreign_gm_order(s: Scene):
    """An order for the GM of the other campaign of the ruleset (its ids are foreign here)."""
    from campaign.models import Order
    from rules.gm_orders import KEY

    lines = {KEY: {"lines": [{"kind": "card", "text": "Armada"}], "note": ""}}
    return Order.objects.get_or_create(
        campaign=s.other,
        phase_id=s.other.phase_id,
        power=s.other.powers.first(),
        defaults={"payload": lines},
    )[0]


def carry_out_calls(s: Scene) -> list[Call]:
    """The edit prefilled from an order for the GM (GET), or made at once (POST): none
    here, another campaign's, or (a phase under way) one of a phase no longer open for
    them."""
    digest = "0" * 16
    posted = {"digest": digest, "state_version": s.campaign.state_version}
    calls = []
    for order_id, status, label in [
        (MISSING, 404, "no such order"),
        (foreign_gm_order(s).pk, 404, "another campaign's"),
        *((order_.pk, 409, "a phase under way") for order_ in s.phase.orders.all()),
    ]:
        url = u("carry_out", s.pk, order_id, 1)
        calls += [get(f"{url}?digest={digest}", status, label), post(url, posted, status, label)]
    return calls


def gm_order_done_calls(s: Scene) -> list[Call]:
    named = {"carry_line": 1, "carry_digest": "0" * 16}
    return [
        post(u("gm_order_done", s.pk), {**named, "carry_order": MISSING}, 404, "no such order"),
        post(
            u("gm_order_done", s.pk),
            {**named, "carry_order": foreign_gm_order(s).pk},
            404,
            "another campaign's order",
        ),
        post(u("gm_order_done", s.pk), {}, 422, "no order named"),
    ]


def options_data(s: Scene) -> dict:
    current = {key: str(value) for key, value in s.campaign.rule_options.items()}
    return {**current, "dice_mode": "seeded"}


API = "/api/"  # the read-only API (campaign/api/): a token per role, not a session


def api_url_names() -> set[str]:
    (resolver,) = (
        p
        for p in get_resolver().url_patterns
        if isinstance(p, URLResolver) and p.namespace == "api"
    )
    return {pattern.name for pattern in resolver.url_patterns}


def a(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def token_clients(scene: Scene) -> dict[str, Client]:
    """A client per role sending a token of its user's (anonymous: none)."""
    clients = {"anonymous": Client(raise_request_exception=False)}
    for role in ROLES[1:]:
        _, token = api_tokens.make_token(user=scene.users[role], name="matrix")
        headers = {"Authorization": f"Bearer {token}"}
        clients[role] = Client(raise_request_exception=False, headers=headers)
    return clients


def token_revoke_calls(s: Scene) -> list[Call]:
    """The GM's token (revoked by the GM, 404 to anyone else), and no token."""
    gm = s.users["gm"]
    row, _ = api_tokens.make_token(user=gm, name=gm.get_username())
    theirs = {role: 404 for role in ROLES} | {"gm": 302}
    return [
        post(u("token_revoke", row.pk), {}, theirs, "the GM's token"),
        post(u("token_revoke", MISSING), {}, 404, "no such token"),
    ]


def log_calls(s: Scene) -> list[Call]:
    url = a("log", s.pk)
    return [
        get(url, 200, "the log"),
        get(f"{url}?after={s.resolved_phase}&limit=1", 200, "a page of one line"),
        get(a("log", s.other.pk), 404, "another campaign's"),
        get(a("log", MISSING), 404, "no such campaign"),
    ]


@dataclass(frozen=True)
class Spec:
    scope: str
    methods: frozenset[str]
    calls: Callable[[Scene], list[Call]]


BUILDERS: dict[str, Spec] = {
    "list": Spec(ACCOUNT, ANY_METHOD, lambda s: [get(u("list")), post(u("list"), {}, 200)]),
    "new": Spec(
        ACCOUNT,
        ANY_METHOD,
        lambda s: [get(u("new")), post(u("new"), {"name": "x", "scenario": "nope"}, 422)],
    ),
    "detail": Spec(
        SEAT, ANY_METHOD, lambda s: [get(u("detail", s.pk)), post(u("detail", s.pk), {}, 200)]
    ),
    "orders": Spec(PLAYER, POST_ONLY, orders_calls),
    "status": Spec(SEAT, ANY_METHOD, status_calls),
    "area": Spec(SEAT, GET_ONLY, area_calls),
    "standing": Spec(PLAYER, POST_ONLY, standing_calls),
    "decision": Spec(SEAT, POST_ONLY, decision_calls),
    "question": Spec(SEAT, ANY_METHOD, question_calls),
    "gm": Spec(GM, ANY_METHOD, lambda s: [get(u("gm", s.pk)), post(u("gm", s.pk), {}, 200)]),
    "start": Spec(GM, POST_ONLY, lambda s: [post(u("start", s.pk), {}, 409, "started")]),
    "advance": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("advance", s.pk), {"phase": s.phase.pk}, 409 if s.waiting else 302),
            post(u("advance", s.pk), {"phase": s.resolved_phase}, 409, "a resolved phase"),
            post(u("advance", s.pk), {"phase": "x"}, 422, "no phase"),
            post(u("advance", s.pk), {"phase": s.other.phase_id}, 409, "another campaign's"),
        ],
    ),
    "edit": Spec(GM, POST_ONLY, edit_calls),
    "edit_item": Spec(GM, GET_ONLY, edit_item_calls),
    "edit_panel": Spec(GM, GET_ONLY, edit_panel_calls),
    "carry_out": Spec(GM, ANY_METHOD, carry_out_calls),
    "gm_order_done": Spec(GM, POST_ONLY, gm_order_done_calls),
    "gm_orders_reveal": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("gm_orders_reveal", s.pk), {"reveal": "on"}, 302, "revealed"),
            post(u("gm_orders_reveal", s.pk), {}, 302, "kept private"),
        ],
    ),
    "timeline": Spec(SEAT, ANY_METHOD, lambda s: timeline_calls(s)),
    "seat": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("seat", s.pk, s.open_seat.pk), {"username": ""}, 302),
            post(u("seat", s.pk, s.open_seat.pk), {"username": "nobody-here"}, 422),
            post(u("seat", s.pk, MISSING), {"username": ""}, 404, "no such seat"),
            post(
                u("seat", s.pk, Seat.objects.filter(campaign=s.other).first().pk),
                {"username": ""},
                404,
                "another campaign's seat",
            ),
        ],
    ),
    "options": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("options", s.pk), options_data(s), 302),
            post(u("options", s.pk), {**options_data(s), "dice_mode": "loaded"}, 422),
        ],
    ),
    "deadline": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(
                u("deadline", s.pk),
                {"phase": s.phase.pk, "deadline": "2999-01-01T20:00"},
                409 if s.waiting else 302,  # a phase under way has no deadline
            ),
            post(
                u("deadline", s.pk),
                {"phase": s.phase.pk, "deadline": "2000-01-01T20:00"},
                409 if s.waiting else 422,
            ),
            post(
                u("deadline", s.pk),
                {"phase": s.other.phase_id, "deadline": "2999-01-01T20:00"},
                409,
                "another campaign's phase",
            ),
        ],
    ),
    "observer": Spec(GM, POST_ONLY, lambda s: [post(u("observer", s.pk), {}, 302)]),
    "clock": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(
                u("clock", s.pk),
                {"phase": s.phase.pk, "action": "extend", "hours": "24"},
                409 if s.waiting else 302,  # a phase under way has no deadline
            ),
            post(u("clock", s.pk), {"phase": s.phase.pk, "action": "rewind"}, 422),
            post(
                u("clock", s.pk),
                {"phase": s.other.phase_id, "action": "pause"},
                409,
                "another campaign's phase",
            ),
        ],
    ),
    "plays": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(
                u("plays", s.pk),
                {"power": s.open_power},
                409 if s.waiting else 302,  # the waiting phase's orders are given and read
                "a free power",
            ),
            post(u("plays", s.pk), {"power": "atlantis"}, 422),
        ],
    ),
    "schedule": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("schedule", s.pk), {"auto_resolve": "on", "webhook_url": ""}, 302),
            post(u("schedule", s.pk), {"webhook_url": "not a url"}, 422),
            post(u("schedule", s.pk), {"webhook_format": "xml"}, 422, "an unknown format"),
        ],
    ),
    "webhook_test": Spec(
        GM,
        POST_ONLY,
        lambda s: [post(u("webhook_test", s.pk), {}, 422, "no webhook URL is saved")],
    ),
    "absent": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("absent", s.pk, s.open_seat.power_id), {"absent": "on"}, 302),
            post(
                u("absent", s.pk, s.other.powers.first().pk),
                {"absent": "on"},
                422,
                "another campaign's power",
            ),
        ],
    ),
    "disorder": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("disorder", s.pk, played_power(s)), {"disorder": "on"}, 302),
            post(u("disorder", s.pk, played_power(s)), {}, 422, "not in civil disorder"),
            post(u("disorder", s.pk, s.open_seat.power_id), {"disorder": "on"}, 422, "no player"),
            post(
                u("disorder", s.pk, s.other.powers.first().pk),
                {"disorder": "on"},
                422,
                "another campaign's power",
            ),
        ],
    ),
    "player_rules": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("player_rules", s.pk), {"disorder_after": "3", "min_on_time": "50"}, 302),
            post(u("player_rules", s.pk), {"disorder_after": "-1", "min_on_time": "0"}, 422),
            post(u("player_rules", s.pk), {"disorder_after": "2", "min_on_time": "101"}, 422),
        ],
    ),
    "away": Spec(
        PLAYER,
        POST_ONLY,
        lambda s: [
            post(u("away", s.pk), {"end": in_days(3)}, 302),
            post(u("away", s.pk), {"end": in_days(90)}, 422, "longer than 60 days"),
            post(u("away", s.pk), {"start": "2000-01-01T20:00", "end": in_days(3)}, 422),
            post(u("away", s.pk), {"action": "back"}, 422, "no period to end"),
        ],
    ),
    "refuse_away": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("refuse_away", s.pk, s.open_seat.pk), {}, 422, "no period to refuse"),
            post(u("refuse_away", s.pk, MISSING), {}, 404, "no such seat"),
            post(
                u("refuse_away", s.pk, Seat.objects.filter(campaign=s.other).first().pk),
                {},
                404,
                "another campaign's seat",
            ),
        ],
    ),
    "take_extension": Spec(PLAYER, POST_ONLY, take_extension_calls),
    "extension_rules": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(
                u("extension_rules", s.pk),
                {"extensions_per_year": "3", "extension_hours": "12", "extension_cap_hours": "36"},
                302,
            ),
            post(
                u("extension_rules", s.pk),
                {"extensions_per_year": "2", "extension_hours": "24", "extension_cap_hours": "12"},
                422,
                "a cap under one extension",
            ),
        ],
    ),
    "export": Spec(GM, GET_ONLY, lambda s: [get(u("export", s.pk))]),
    "gm_add": Spec(GM, POST_ONLY, lambda s: gm_team_calls("gm_add", s)),
    "gm_open": Spec(GM, POST_ONLY, lambda s: [post(u("gm_open", s.pk), {}, 302)]),
    "gm_remove": Spec(GM, POST_ONLY, gm_remove_calls),
    "handover_offer": Spec(GM, POST_ONLY, lambda s: gm_team_calls("handover_offer", s)),
    "handover_withdraw": Spec(
        GM, POST_ONLY, lambda s: [post(u("handover_withdraw", s.pk), {}, 409, "no offer")]
    ),
    "gm_join": Spec(ACCOUNT, ANY_METHOD, gm_join_calls),
    "handover": Spec(
        ACCOUNT,
        ANY_METHOD,
        lambda s: [
            get(u("handover", "forged-token"), 404, "no such offer"),
            post(u("handover", "forged-token"), {"answer": "accept"}, 404, "no such offer"),
        ],
    ),
    "new_gm_request": Spec(
        PLAYER,
        POST_ONLY,
        lambda s: [post(u("new_gm_request", s.pk), {}, 422, "the GMs have acted lately")],
    ),
    "join": Spec(
        PUBLIC,  # anyone reads an invitation; taking it needs a login
        ANY_METHOD,
        lambda s: [
            get(u("join", s.open_seat.invite_token)),
            post(
                u("join", s.open_seat.invite_token),
                {},
                {"anonymous": LOGIN, "outsider": 302, **dict.fromkeys(SEATED, 409)},
            ),
            get(u("join", "not-a-token"), 404, "no such invitation"),
        ],
    ),
    "lobby": Spec(PUBLIC, GET_ONLY, lambda s: [get(u("lobby")), post(u("lobby"), {}, 405)]),
    # the installable app (campaign/views/app_shell.py): the same for everyone
    **{
        name: Spec(PUBLIC, GET_ONLY, lambda s, name=name: [get(u(name)), post(u(name), {}, 405)])
        for name in ("manifest", "service_worker", "offline")
    },
    "lobby_ask": Spec(
        ACCOUNT,
        POST_ONLY,
        lambda s: [
            post(u("lobby_ask", s.pk, s.open_seat.power_id), {}, 422, "not in the lobby"),
            post(u("lobby_ask", MISSING, s.open_seat.power_id), {}, 422, "no such campaign"),
        ],
    ),
    "lobby_watch": Spec(
        ACCOUNT, POST_ONLY, lambda s: [post(u("lobby_watch", s.pk), {}, 422, "not watchable")]
    ),
    "lobby_settings": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("lobby_settings", s.pk), {"lobby_open": "on", "lobby_watch": "on"}, 302),
            post(u("lobby_settings", s.pk), {}, 302, "closed"),
        ],
    ),
    "seat_request": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("seat_request", s.pk, MISSING), {"answer": "accept"}, 422, "no such request"),
            post(
                u("seat_request", s.pk, foreign_seat_request(s).pk),
                {"answer": "accept"},
                422,
                "another campaign's request",
            ),
            post(u("seat_request", s.pk, MISSING), {"answer": "maybe"}, 422, "not an answer"),
        ],
    ),
    "signup": Spec(
        SIGNUP,
        ANY_METHOD,
        lambda s: [get(u("signup")), post(u("signup"), {"username": "x", "password1": "y"}, 422)],
    ),
    "preferences": Spec(
        ACCOUNT,
        ANY_METHOD,
        lambda s: [
            get(u("preferences")),
            post(u("preferences"), {"time_zone": "UTC"}, 302),
        ],
    ),
    "token_make": Spec(
        ACCOUNT,
        POST_ONLY,
        lambda s: [
            post(u("token_make"), {"name": "x"}, 302),
            post(u("token_make"), {"name": " "}, 302, "no name: refused with a message"),
        ],
    ),
    "token_revoke": Spec(ACCOUNT, POST_ONLY, lambda s: token_revoke_calls(s)),
    # the user's own data as a file; the deletion of the account, refused here (a wrong
    # password, or none: a success would end the role's session; tests/views/test_personal_data.py)
    "personal_data": Spec(ACCOUNT, GET_ONLY, lambda s: [get(u("personal_data"))]),
    "delete_account": Spec(
        ACCOUNT,
        POST_ONLY,
        lambda s: [
            post(u("delete_account"), {"password": "not-the-password"}, 422, "a wrong password"),
            post(u("delete_account"), {"erase_press": "on"}, 422, "no password"),
        ],
    ),
    "privacy": Spec(PUBLIC, GET_ONLY, lambda s: [get(u("privacy")), post(u("privacy"), {}, 405)]),
    "away_everywhere": Spec(
        ACCOUNT,
        POST_ONLY,
        lambda s: [
            post(u("away_everywhere"), {"end": in_days(3)}, 302),
            post(u("away_everywhere"), {"end": in_days(90)}, 422, "longer than 60 days"),
            post(u("away_everywhere"), {"start": "2000-01-01T20:00", "end": in_days(3)}, 422),
            post(u("away_everywhere"), {"action": "back"}, 422, "no period to end"),
        ],
    ),
    # a browser's push subscription (the site here has no VAPID keys: refused with a message)
    "push_subscribe": Spec(
        ACCOUNT,
        POST_ONLY,
        lambda s: [post(u("push_subscribe"), {"endpoint": "https://push.example.org/x"}, 302)],
    ),
    **{
        name: Spec(
            ACCOUNT,
            POST_ONLY,
            lambda s, name=name: [post(u(name, MISSING), {}, 404, "no such device")],
        )
        for name in ("push_test", "push_remove")
    },
    "calendar_feed": Spec(PUBLIC, GET_ONLY, calendar_feed_calls),  # the secret is the key
    "calendar_rotate": Spec(
        ACCOUNT,
        POST_ONLY,
        lambda s: [
            post(u("calendar_rotate"), {"action": "make"}, 302),
            post(u("calendar_rotate"), {"action": "rotate"}, 302, "a new secret"),
            post(u("calendar_rotate"), {"action": "burn"}, 302, "no such action: a message"),
        ],
    ),
    "profile": Spec(
        ACCOUNT,
        GET_ONLY,
        lambda s: [
            get(u("profile", s.users["player"].get_username())),
            get(u("profile", "nobody-here"), 404, "no such user"),
        ],
    ),
    "mail_settings": Spec(ACCOUNT, ANY_METHOD, mail_settings_calls),
    "notes": Spec(SEAT, ANY_METHOD, notes_calls),
    "unsubscribe": Spec(PUBLIC, ANY_METHOD, unsubscribe_calls),
    "confirm_email": Spec(
        PUBLIC,  # the link mailed to an address: anyone who holds it, logged in or not
        ANY_METHOD,
        lambda s: [
            get(u("confirm_email", "forged:token"), 410, "a link Courier did not mail"),
            post(u("confirm_email", "forged:token"), {}, 410, "a link Courier did not mail"),
        ],
    ),
    "rules": Spec(
        PUBLIC,
        ANY_METHOD,
        lambda s: [
            get(u("rules", s.ruleset)),
            post(u("rules", s.ruleset), {}, 200),
            get(u("rules", "chess"), 404, "no such ruleset"),
        ],
    ),
    "verify": Spec(SEAT, ANY_METHOD, verify_calls),
    "history": Spec(
        SEAT,
        ANY_METHOD,
        lambda s: [
            get(u("history", s.pk, s.resolved_phase), 200, "a resolved phase"),
            get(u("history", s.pk, s.phase.pk), 409, "the open phase"),
            get(u("history", s.pk, MISSING), 404, "no such phase"),
            get(u("history", s.pk, s.other.phase_id), 404, "another campaign's phase"),
        ],
    ),
    "map_svg": Spec(SEAT, ANY_METHOD, lambda s: [get(u("map_svg", s.pk), 200, "the map now")]),
    "map": Spec(
        SEAT,
        GET_ONLY,
        lambda s: [
            Call("get", u("map", s.pk), label="the map panel, htmx", htmx=True),
            Call("get", u("map", s.pk) + "?k=forged", label="a forged key, htmx", htmx=True),
            get(u("map", s.pk), 302, "without htmx: the map's page"),
        ],
    ),
    "area_table": Spec(
        SEAT,
        GET_ONLY,
        lambda s: [
            get(u("area_table", s.pk), 200, "the areas"),
            Call("get", u("area_table", s.pk), label="the areas, htmx", htmx=True),
        ],
    ),
    "phase_map_svg": Spec(
        SEAT,
        ANY_METHOD,
        lambda s: [
            get(u("phase_map_svg", s.pk, s.resolved_phase), 200, "after a resolved phase"),
            get(u("phase_map_svg", s.pk, s.phase.pk), 404, "the open phase"),
            get(u("phase_map_svg", s.pk, MISSING), 404, "no such phase"),
            get(u("phase_map_svg", s.pk, s.other.phase_id), 404, "another campaign's phase"),
        ],
    ),
    "press": Spec(SEAT, ANY_METHOD, press_calls),
    "press_channel": Spec(SEAT, ANY_METHOD, press_channel_calls),
    "press_rules": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("press_rules", s.pk), {"press": "public"}, 302),
            post(u("press_rules", s.pk), {"press": "loud"}, 422, "not a press rule"),
        ],
    ),
    "rollback": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(
                u("rollback", s.pk),
                {"confirm": "on"},
                409 if s.waiting else 302,  # a decision under way is answered first
                "the last resolved phase",
            ),
            post(u("rollback", s.pk), {}, 422, "not confirmed"),
        ],
    ),
    "end": Spec(
        GM,
        POST_ONLY,
        lambda s: [
            post(u("end", s.pk), {"confirm": "on", **state_version(s)}, 302, "it goes on"),
            post(u("end", s.pk), state_version(s), 422, "not confirmed"),
        ],
    ),
}


API_BUILDERS: dict[str, Spec] = {
    "campaigns": Spec(ACCOUNT, GET_ONLY, lambda s: [get(a("campaigns"), 200, "my campaigns")]),
    "orders_due": Spec(ACCOUNT, GET_ONLY, lambda s: [get(a("orders_due"), 200, "orders due")]),
    "campaign": Spec(
        SEAT,
        GET_ONLY,
        lambda s: [
            get(a("campaign", s.pk), 200, "the state"),
            get(a("campaign", s.other.pk), 404, "another campaign's"),
            get(a("campaign", MISSING), 404, "no such campaign"),
        ],
    ),
    "log": Spec(SEAT, GET_ONLY, log_calls),
    "openapi-json": Spec(PUBLIC, GET_ONLY, lambda s: [get(a("openapi-json"), 200, "OpenAPI")]),
    "api-root": Spec(PUBLIC, ANY_METHOD, lambda s: [get(API, 404, "no docs page")]),
}


def state_version(s: Scene) -> dict:
    """The state version the GM dashboard's forms carry."""
    return {"state_version": Campaign.objects.get(pk=s.pk).state_version}


def calls_of(name: str, spec: Spec, s: Scene) -> list[Call]:
    """The builder's calls, a bare request of each method it did not use (405 when the
    view does not take it), and HTMX twins for the HTMX endpoints."""
    calls = [replace(c, label=c.label or c.method) for c in spec.calls(s)]
    for method in sorted(ANY_METHOD - {c.method for c in calls}):
        first = calls[0]
        data = {} if method == "post" else None
        calls.append(Call(method, first.url, data, first.ok, f"{first.label} as {method}"))
    if name in HTMX_ENDPOINTS:
        twins = [
            replace(c, htmx=True, label=f"{c.label}, htmx", ok=htmx_status(c.ok)) for c in calls
        ]
        calls += twins
    return calls


def htmx_status(ok):
    """An HTMX success swaps a fragment (200) rather than redirecting."""
    if isinstance(ok, dict):
        return {role: 200 if status == 302 else status for role, status in ok.items()}
    return 200 if ok == 302 else ok


def expected(spec: Spec, call: Call, role: str) -> int | str:
    if call.url.startswith(API):  # the API: a method first, then the token (none: 401)
        if call.method not in spec.methods:
            return 405
        if role == "anonymous" and spec.scope != PUBLIC:
            return 401
    if role == "anonymous":
        return call.ok_for(role) if spec.scope in (PUBLIC, SIGNUP) else LOGIN
    if call.method not in spec.methods:
        return 405
    if spec.scope == SIGNUP:
        return 302
    if spec.scope in (PUBLIC, ACCOUNT):
        return call.ok_for(role)
    if role == "outsider":
        return 404
    if spec.scope == GM and role != "gm":
        return 403
    if spec.scope == PLAYER and role not in PLAYERS:
        return 403
    return call.ok_for(role)


# -- the matrix ------------------------------------------------------------------------


def differences(before: dict, after: dict) -> list[str]:
    return [table for table in before if before[table] != after.get(table)]


class WriteCounter:
    """Counts the INSERT, UPDATE and DELETE statements run: a request that ran none
    cannot have changed the snapshot, so only the others need one taken (a speed-up)."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        if sql.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE"):
            self.count += 1
        return execute(sql, params, many, context)


MESSAGE = r'class="(?:message [^"]*|errorlist[^"]*)"[^>]*>(.*?)</(?:li|ul)>'


def said(html: str) -> str:
    """The messages and form errors of a page, to say why it was refused."""
    found = re.findall(MESSAGE, html, re.S)
    text = " | ".join(" ".join(re.sub(r"<[^>]+>", " ", f).split()) for f in found)
    return unescape(text or " ".join(re.sub(r"<[^>]+>", " ", html).split()))[:300]


def request(client: Client, call: Call):
    extra = HTMX if call.htmx else {}
    if call.method == "get":
        return client.get(call.url, **extra)
    return client.post(call.url, call.data or {}, **extra)


def login_redirect(response) -> str:
    """Where a signed-out reader is sent: a page's redirect, or an HTMX request's
    HX-Redirect (campaign/people/login_redirect.py); "" when neither."""
    if response.status_code == 302:
        return response["Location"]
    if response.status_code == 200:
        return response.get("HX-Redirect", "")
    return ""


def check(scene: Scene, role: str, client: Client, name: str, spec: Spec, call: Call, before):
    """Make the request in a savepoint rolled back afterwards; the problems found."""
    problems = []
    where = f"{scene.key} · {role} · {call.method.upper()} {name} ({call.label})"
    want = expected(spec, call, role)
    writes = WriteCounter()
    with transaction.atomic():
        with connection.execute_wrapper(writes):
            response = request(client, call)
        status = response.status_code
        body = response.content.decode(errors="replace")
        if status >= 500:
            error = getattr(response, "exc_info", None)
            problems.append(f"{where}: {status} {error[1]!r}" if error else f"{where}: {status}")
        elif want == LOGIN:
            target = login_redirect(response)
            if not target.startswith(reverse("login")):
                problems.append(f"{where}: {status} {target!r}, not a redirect to log in")
        elif status != want:
            problems.append(f"{where}: {status}, not {want}: {said(body)}")
        refused = status >= 400 or role == "anonymous"
        if (refused or call.method == "get") and writes.count:
            changed = differences(before, snapshot(scene.campaign))
            if changed:
                problems.append(f"{where}: {status} changed {changed}")
        secrets = scene.secrets.get(role, set())
        if secrets:
            public = PUBLIC_NAMES.get(scene.ruleset, set()) if name == "rules" else set()
            text = unescape(body)
            leaked = sorted(n for n in secrets - public if n in text)
            if leaked:
                problems.append(f"{where}: shows what it may not read {leaked}")
        transaction.set_rollback(True)
    return problems


PUBLIC_NAMES: dict[str, set[str]] = {}


def notes_of_each_role(scene: Scene) -> dict[str, str]:
    """Each seated role's private notes on the campaign and its open phase, with a marker
    of its own, by role."""
    markers = {}
    for role in SEATED:
        markers[role] = f"NOTE-{role}-{uuid.uuid4().hex[:12]}"
        for phase_id in (None, scene.campaign.phase_id):
            text = f"{markers[role]} <b>plans</b>"
            user = scene.users[role]
            notes.save_note(campaign_id=scene.pk, user=user, phase_id=phase_id, text=text)
    return markers


def test_every_api_route_has_a_builder():
    missing = api_url_names() - set(API_BUILDERS)
    assert not missing, f"API routes without an argument builder in this matrix: {missing}"


def test_every_campaign_url_name_has_a_builder():
    missing = campaign_url_names() - set(BUILDERS)
    assert not missing, f"URL names without an argument builder in this matrix: {missing}"


@pytest.mark.long
@pytest.mark.django_db
@pytest.mark.parametrize("scene_key", SCENES)
def test_every_url_with_every_role(scene_key, settings):
    settings.PRESS_RATE_LIMIT = 10**6  # every role posts press many times a minute here
    names = campaign_url_names()
    assert names <= set(BUILDERS), f"no argument builder for {names - set(BUILDERS)}"
    scene = SCENES[scene_key]()
    scene.other = OTHER[scene.ruleset]()
    markers = notes_of_each_role(scene)
    for role in ROLES:
        others = {marker for writer, marker in markers.items() if writer != role}
        scene.secrets[role] = scene.secrets.get(role, set()) | others
    rules_html = Client().get(u("rules", scene.ruleset)).content.decode()
    all_names = set().union(*scene.secrets.values()) if scene.secrets else set()
    PUBLIC_NAMES[scene.ruleset] = {n for n in all_names if n in unescape(rules_html)}
    clients = {}
    for role in ROLES:
        clients[role] = Client(raise_request_exception=False)
        if role != "anonymous":
            clients[role].force_login(scene.users[role])
    before = snapshot(scene.campaign)
    problems, count = [], 0
    for name in sorted(names):
        spec = BUILDERS[name]
        calls = calls_of(name, spec, scene)
        for role in ROLES:
            for call in calls:
                problems += check(scene, role, clients[role], name, spec, call, before)
                count += 1
    bearers = token_clients(scene)  # the API's routes, each role through a token of theirs
    for name in sorted(api_url_names()):
        spec = API_BUILDERS[name]
        for role in ROLES:
            for call in calls_of(name, spec, scene):
                problems += check(scene, role, bearers[role], f"api:{name}", spec, call, before)
                count += 1
    print(f"{scene_key}: {count} requests ({len(names)} URL names × {len(ROLES)} roles)")
    assert snapshot(scene.campaign) == before
    assert count > 300
    assert not problems, f"{len(problems)} of {count} requests:\n" + "\n".join(problems)
