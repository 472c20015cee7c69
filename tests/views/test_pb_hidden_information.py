"""Pax Baltica's hidden information through every page: a player sees the other side's
blocks only as nation-coloured blocks, never their names or strengths.

The test plays part of 1700 so the log holds block events of both sides (recruitment
with a pool draw and a step, reinforcement by action, fleet moves, a battle, a siege
and its resolution, forage losses in Kurland, a GM move of a Coalition block), and at
every phase it scans every page and HTMX fragment a Swedish player, then a Russian
player, can reach: every URL name of the campaign URL conf, with the order POSTs of
the phase (valid and invalid, HTMX and not), the "Why?" question for every block id
of both sides and the dice verify page of every phase so far. No response may name a
block of the other side or show its strength next to its nation; the GM, who sees
everything, must (an observer sees what the GM chose: tests/views/test_watchers.py).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from html import unescape

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from campaign.api import tokens as api_tokens
from campaign.models import CalendarFeed, Event, Phase, PushSubscription, Seat
from campaign.notify.mail_tokens import unsubscribe_token
from campaign.play import services
from rules.pax_baltica.forms.edits import EDIT_FORMS
from rules.pax_baltica.models import Block, PbSide
from rules.pax_baltica.services import gm_edit
from tests.factories import make_pb_campaign, seat_users
from tests.push_receiver import Device, subscription_of
from tests.services.test_eia_phase_services import CyclingDice, order, resolve

pytestmark = [pytest.mark.django_db, pytest.mark.long]
HTMX = {"HTTP_HX_REQUEST": "true"}
# Recruitment: Saxony-Poland's draw rolls 1 → the first of its pool in the order of the
# campaign's secret (Schulenburg or Lubomirski).
# Siege of Narva: the garrison (C1, 2 dice) rolls 1 6 → 1 hit on Menshikov (3 → 2);
# Menshikov (C2, now 2 dice) rolls 1 2 → 2 hits: the garrison of 2 is captured.
FACES = (1, 6, 1, 2)
SIDE_OF = {"sweden": "sweden", "russia": "coalition", "saxony": "coalition", "denmark": "coalition"}
NATION_NAMES = {
    "sweden": "Sweden",
    "russia": "Russia",
    "saxony": "Saxony-Poland",
    "denmark": "Denmark",
}
KINDS = "army|regiment|fleet"
PHASE_PREFIXES = {
    "recruitment": ("reinforce_",),
    "actions": ("act_", "move_"),
    "siege": ("reinforce_",),
    "forage": ("loss_",),
}


def campaign_url_names() -> set[str]:
    """Every URL name of the campaign app, from the URL conf."""
    (resolver,) = (
        p
        for p in get_resolver().url_patterns
        if isinstance(p, URLResolver) and p.namespace == "campaign"
    )
    return {pattern.name for pattern in resolver.url_patterns}


def page_text(html: str) -> str:
    """The words of a page, without its tags."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@dataclass(frozen=True)
class Call:
    """One request a player can make."""

    url_name: str
    label: str
    method: str
    url: str
    data: dict = field(default_factory=dict)
    htmx: bool = False
    status: int | None = None  # expected final status, None: anything but a 5xx


@dataclass
class Secrets:
    """What one side must not read of the other side's blocks."""

    names: set[str]
    strengths: list[re.Pattern]

    @classmethod
    def of_blocks(cls, blocks: list[Block]) -> Secrets:
        patterns = []
        for nation in {b.power.key for b in blocks}:
            name = re.escape(NATION_NAMES[nation])
            # "(Russia army, 4/4)", "Russia army 4/4" in a table row, with any strengths
            patterns.append(re.compile(rf"\b{name}\W{{0,3}}(?:{KINDS})\W{{1,12}}\d+\s*/\s*\d+"))
        for b in blocks:
            name = re.escape(NATION_NAMES[b.power.key])
            # its own strength within the same label as its nation ("Russia …, 3/4")
            patterns.append(
                re.compile(rf"\b{name}[^;()<>]{{0,30}}?\b{b.strength}\s*/\s*{b.max_strength}\b")
            )
        return cls({b.name for b in blocks}, patterns)

    def found_in(self, html: str, public: set[str] = frozenset()) -> list[str]:
        raw, text = unescape(html), page_text(html)
        found = [f"name {n!r}" for n in sorted(self.names - public) if n in raw]
        for pattern in self.strengths:
            for where in (text, raw):
                match = pattern.search(where)
                if match:
                    found.append(f"strength {match.group(0)!r}")
                    break
        return found


def blocks_of(campaign, side: str) -> list[Block]:
    return [
        b
        for b in Block.objects.filter(campaign=campaign).select_related("power")
        if SIDE_OF[b.power.key] == side
    ]


def block_ids(campaign) -> dict[str, int]:
    return dict(Block.objects.filter(campaign=campaign).values_list("name", "pk"))


# -- the requests a player can make ---------------------------------------------------


def calls_for(campaign, me: str, valid: dict | None) -> list[Call]:
    """Every request the player of ``me`` can make now, per URL name of the campaign app.
    ``valid``: an order the form accepts in the open phase (None: it takes no orders)."""
    campaign.refresh_from_db()
    pk, phase = campaign.pk, campaign.phase
    seat = Seat.objects.get(campaign=campaign, power__key=me)
    blocks = list(Block.objects.filter(campaign=campaign).select_related("power"))
    mine = [b for b in blocks if SIDE_OF[b.power.key] == SIDE_OF[me]]
    theirs = [b for b in blocks if SIDE_OF[b.power.key] != SIDE_OF[me]]
    calls = [
        Call("list", "list", "get", reverse("campaign:list"), status=200),
        Call("new", "new", "get", reverse("campaign:new"), status=200),
        Call(
            "new",
            "new, bad scenario",
            "post",
            reverse("campaign:new"),
            {"name": "x", "scenario": "nope", "dice_mode": "seeded"},
            status=422,
        ),
        Call("signup", "signup", "get", reverse("campaign:signup"), status=200),
        Call(
            "confirm_email",
            "confirm a mail address, forged link",
            "get",
            reverse("campaign:confirm_email", args=["forged"]),
            status=410,
        ),
        Call("rules", "rules", "get", reverse("campaign:rules", args=["pax_baltica"]), status=200),
        Call(
            "rules",
            "rules, htmx",
            "get",
            reverse("campaign:rules", args=["pax_baltica"]),
            htmx=True,
            status=200,
        ),
        Call("join", "join", "get", reverse("campaign:join", args=[seat.invite_token]), status=200),
        Call("join", "join, post", "post", reverse("campaign:join", args=[seat.invite_token])),
        Call("gm", "gm", "get", reverse("campaign:gm", args=[pk]), status=403),
        Call("export", "export", "get", reverse("campaign:export", args=[pk]), status=403),
        Call(
            "mail_settings",
            "mail settings",
            "get",
            reverse("campaign:mail_settings", args=[pk]),
            status=200,
        ),
        Call(
            "unsubscribe",
            "turn the press mail off",
            "get",
            reverse("campaign:unsubscribe", args=[unsubscribe_token(seat.user_id, pk, "press")]),
            status=200,
        ),
    ]
    for past in Phase.objects.filter(campaign=campaign).order_by("turn", "position"):
        url = reverse("campaign:verify", args=[pk, past.pk])
        status = 409 if past.is_open else 200  # an open phase's seed is secret
        calls.append(Call("verify", f"verify {past.key} T{past.turn}", "get", url, status=status))
    url = reverse("campaign:verify", args=[pk, 10**17])
    calls.append(Call("verify", "verify, no such phase", "get", url, status=404))
    for past in Phase.objects.filter(campaign=campaign).order_by("turn", "position"):
        url = reverse("campaign:history", args=[pk, past.pk])
        status = 409 if past.is_open else 200  # an open phase has no history yet
        calls.append(Call("history", f"history {past.key} T{past.turn}", "get", url, status=status))
    url = reverse("campaign:history", args=[pk, 10**17])
    calls.append(Call("history", "history, no such phase", "get", url, status=404))
    for past in Phase.objects.filter(campaign=campaign).order_by("turn", "position"):
        url = reverse("campaign:phase_map_svg", args=[pk, past.pk])
        status = 404 if past.is_open else 200  # an open phase has no map of its own yet
        calls.append(
            Call("phase_map_svg", f"map {past.key} T{past.turn}", "get", url, status=status)
        )
    url = reverse("campaign:map_svg", args=[pk])
    calls.append(Call("map_svg", "map now", "get", url, status=200))
    url = reverse("campaign:map", args=[pk])
    calls.append(Call("map", "map panel, htmx", "get", url, htmx=True, status=200))
    calls.append(Call("map", "map panel: the map's page", "get", url, status=200))
    url = reverse("campaign:area_table", args=[campaign.pk])
    calls.append(Call("area_table", "areas", "get", url, status=200))
    calls.append(Call("area_table", "areas, htmx", "get", url, htmx=True, status=200))
    for htmx in (False, True):
        how = ", htmx" if htmx else ""
        calls.append(
            Call(
                "detail",
                f"detail{how}",
                "get",
                reverse("campaign:detail", args=[pk]),
                {},
                htmx,
                200,
            )
        )
        # the panel of every area, and the full page of one area in five (the same panel)
        keys = campaign.areas.order_by("key").values_list("key", flat=True)
        for index, key in enumerate(keys):
            if htmx or index % 5 == 0:
                url = reverse("campaign:area", args=[pk, key])
                calls.append(Call("area", f"area {key}{how}", "get", url, {}, htmx, 200))
        calls.append(
            Call(
                "standing",
                f"standing{how}",
                "post",
                reverse("campaign:standing", args=[pk]),
                {"pays_bad_roll": "no"},
                htmx,
                404,  # Pax Baltica has no standing order
            )
        )
        for b in mine:
            url = reverse("campaign:question", args=[pk, "line", b.pk])
            calls.append(
                Call(
                    "question",
                    f"why {b.name}{how}",
                    "get",
                    url,
                    {},
                    htmx,
                    404 if b.location_id is None else 200,
                )
            )
        for b in theirs:
            url = reverse("campaign:question", args=[pk, "line", b.pk])
            calls.append(Call("question", f"why #{b.pk}{how}", "get", url, {}, htmx, 404))
        for item in ("nope", "line"):
            url = reverse(
                "campaign:question", args=[pk, item, 10**17 if item == "line" else mine[0].pk]
            )
            calls.append(Call("question", f"ask {item}{how}", "get", url, {}, htmx, 404))
        calls += order_calls(campaign, phase, theirs, valid, htmx)
        url = reverse("campaign:decision", args=[pk])
        data = {"phase": phase.pk, "answer": "yes"}
        # Pax Baltica waits for no decision in mid-phase: "no longer asked"
        calls.append(Call("decision", f"decision{how}", "post", url, data, htmx, 409))
    gm_posts = {
        "start": [],
        "advance": [{"phase": phase.pk}],
        "seat": [],
        "options": [{"dice_mode": "scripted"}],
        "deadline": [{"phase": phase.pk, "deadline": "2999-01-01T20:00"}],
        "observer": [],
        "clock": [{"phase": phase.pk, "action": "extend", "hours": "1"}],
        "schedule": [{"auto_resolve": "on"}],
        "plays": [{"power": "denmark"}],
        "absent": [{"absent": "on"}],
        "rollback": [{"confirm": "on"}],
        "end": [{"confirm": "on"}],
    }
    args_of = {"seat": [pk, seat.pk], "absent": [pk, seat.power_id]}
    calls.append(Call("preferences", "preferences", "get", reverse("campaign:preferences"), {}))
    url = reverse("campaign:token_make")
    calls.append(Call("token_make", "an API token", "post", url, {"name": "bot"}, status=200))
    url = reverse("campaign:token_revoke", args=[10**17])
    calls.append(Call("token_revoke", "revoke no token", "post", url, status=404))
    url = reverse("campaign:personal_data")
    calls.append(Call("personal_data", "own data, as a file", "get", url, status=200))
    url, data = reverse("campaign:delete_account"), {"password": "not-the-password"}
    calls.append(Call("delete_account", "delete, wrong password", "post", url, data, status=422))
    calls.append(Call("privacy", "privacy", "get", reverse("campaign:privacy"), status=200))
    status = reverse("campaign:status", args=[pk]) + f"?phase={phase.pk}&status={phase.status}"
    calls.append(Call("status", "status", "get", status, {}, True, 204))
    for name, posts in gm_posts.items():
        args = args_of.get(name, [pk])
        for data in posts or [{}]:
            calls.append(
                Call(name, name, "post", reverse(f"campaign:{name}", args=args), data, status=403)
            )
    for key in (*EDIT_FORMS, "nope"):
        url = reverse("campaign:edit", args=[pk, key])
        data = {"block": theirs[0].pk, "location": "narva"}
        calls.append(Call("edit", f"edit {key}", "post", url, data, status=403))
        url = reverse("campaign:edit_item", args=[pk, key]) + f"?item={theirs[0].pk}"
        calls.append(Call("edit_item", f"edit {key}, their block", "get", url, {}, status=403))
        url = reverse("campaign:edit_panel", args=[pk, key])
        calls.append(Call("edit_panel", f"edit {key}, the panel", "get", url, {}, status=403))
    calls.append(Call("timeline", "timeline", "get", reverse("campaign:timeline", args=[pk])))
    calls += press_and_lobby_calls(campaign, me, seat)
    calls += calendar_calls(seat)
    calls += device_and_app_calls(seat)
    return calls


def device_and_app_calls(seat: Seat) -> list[Call]:
    """The player's devices (a browser's subscription refused: no VAPID keys here; a device
    of his tried and removed), the GM's webhook test (refused), the installable app's
    files."""
    device = PushSubscription.objects.create(
        user=seat.user, **subscription_of(Device(), f"https://push.example.org/{uuid.uuid4()}")
    )
    subscribe, data = reverse("campaign:push_subscribe"), {"endpoint": "https://push.example.org"}
    test, remove = (
        reverse(f"campaign:{n}", args=[device.pk]) for n in ("push_test", "push_remove")
    )
    webhook = reverse("campaign:webhook_test", args=[seat.campaign_id])
    calls = [
        Call("push_subscribe", "a device, refused", "post", subscribe, data, status=200),
        Call("push_test", "a device's test notice", "post", test, {}, status=200),
        Call("push_remove", "a device removed", "post", remove, {}, status=200),
        Call("webhook_test", "the GM's webhook test", "post", webhook, {}, status=403),
    ]
    for name in ("manifest", "service_worker", "offline"):
        calls.append(Call(name, name, "get", reverse(f"campaign:{name}"), status=200))
    return calls


def calendar_calls(seat: Seat) -> list[Call]:
    """The player's calendar feed, then a new secret for it (the preferences page)."""
    feed, _ = CalendarFeed.objects.get_or_create(user=seat.user)
    url = reverse("campaign:calendar_feed", args=[feed.secret])
    rotate, data = reverse("campaign:calendar_rotate"), {"action": "rotate"}
    return [
        Call("calendar_feed", "calendar", "get", url, status=200),
        Call("calendar_rotate", "calendar, new secret", "post", rotate, data, status=200),
    ]


def gm_join(campaign_id: int, token: str) -> str:
    return reverse("campaign:gm_join", args=[campaign_id, token])


def press_and_lobby_calls(campaign, me: str, seat: Seat) -> list[Call]:
    """The press pages and posts, an away period, the lobby, the GM team's links, and
    the GM's forms for press, orders for the GM, the lobby, away periods and the GM team
    (refused to a player)."""
    pk, other = campaign.pk, "russia" if me == "sweden" else "sweden"
    press = reverse("campaign:press", args=[pk])

    def channel(key: str) -> str:
        return reverse("campaign:press_channel", args=[pk, key])

    calls = [
        Call("press", "press", "get", press, status=200),
        Call("press", "press panel", "get", f"{press}?part=panel", htmx=True, status=200),
        Call("press", "press, to everyone", "post", press, {"to": "public", "text": "Hear ye"}),
        Call("press_channel", "public channel", "get", channel("public"), status=200),
        Call("press_channel", "own GM channel", "get", channel(f"gm-{me}"), status=200),
        Call("press_channel", "their GM channel", "get", channel(f"gm-{other}"), status=404),
        Call("away", "away, back", "post", reverse("campaign:away", args=[pk]), {"action": "back"}),
        Call(
            "away_everywhere",
            "away everywhere, back",
            "post",
            reverse("campaign:away_everywhere"),
            {"action": "back"},
            status=422,
        ),
        Call(
            "profile",
            "own profile",
            "get",
            reverse("campaign:profile", args=[seat.user.get_username()]),
            status=200,
        ),
        Call("lobby", "lobby", "get", reverse("campaign:lobby"), status=200),
        Call("lobby_ask", "lobby ask", "post", reverse("campaign:lobby_ask", args=[pk, 1])),
        Call("lobby_watch", "lobby watch", "post", reverse("campaign:lobby_watch", args=[pk])),
        Call("notes", "notes", "get", reverse("campaign:notes", args=[pk]), status=200),
        Call("notes", "a note", "post", reverse("campaign:notes", args=[pk]), {"text": "x"}),
        Call("gm_join", "a GM invitation", "get", gm_join(pk, seat.invite_token), status=404),
        Call("handover", "a handover", "get", reverse("campaign:handover", args=["x"]), status=404),
        Call("new_gm_request", "a new GM", "post", reverse("campaign:new_gm_request", args=[pk])),
        Call(
            "take_extension",
            "an extension",
            "post",
            reverse("campaign:take_extension", args=[pk]),
            {"phase": 1, "seen_deadline": "2999-01-01T20:00"},
        ),
    ]
    gm_only = {
        "press_rules": [pk],
        "gm_order_done": [pk],
        "gm_orders_reveal": [pk],
        "lobby_settings": [pk],
        "seat_request": [pk, 10**17],
        "refuse_away": [pk, seat.pk],
        "gm_add": [pk],
        "gm_open": [pk],
        "gm_remove": [pk, seat.pk],
        "handover_offer": [pk],
        "handover_withdraw": [pk],
        "extension_rules": [pk],
        "player_rules": [pk],
        "disorder": [pk, seat.power_id],
    }
    for name, args in gm_only.items():
        calls.append(Call(name, name, "post", reverse(f"campaign:{name}", args=args), status=403))
    url = reverse("campaign:carry_out", args=[pk, 10**17, 1])
    calls.append(Call("carry_out", "carry out", "get", url, status=403))
    return calls


def order_calls(campaign, phase, theirs: list[Block], valid: dict | None, htmx: bool) -> list[Call]:
    """The orders POSTs of the open phase: a valid order; one with each of the other
    side's block ids; bad values and ids; no phase or a stale one."""
    url = reverse("campaign:orders", args=[campaign.pk])
    how = ", htmx" if htmx else ""
    refused = 422 if valid is not None else 409  # a phase without orders: closed to them

    def post(label: str, data: dict, status: int, phase_id=phase.pk) -> Call:
        envelope = {"ready": "1"} if phase_id is None else {"phase": phase_id, "ready": "1"}
        return Call("orders", f"{label}{how}", "post", url, {**envelope, **data}, htmx, status)

    calls = [
        post("valid", valid or {}, 200 if valid is not None else 409),
        post("no phase", valid or {}, 400, phase_id=None),
        post("stale phase", valid or {}, 409, phase_id=phase.pk - 1),
    ]
    for name in valid or {}:
        if name.startswith(("reinforce_", "act_", "loss_", "move_", "draws")):
            for bad in ("abc", "9" * 40, "atlantis"):
                calls.append(post(f"{name}={bad[:9]}", {**valid, name: bad}, 422))
    for prefix in PHASE_PREFIXES[phase.key]:
        for odd in ("abc", "9" * 25, "-1", "٣") if htmx else ("abc",):
            calls.append(post(f"{prefix}{odd}", {f"{prefix}{odd}": "1"}, refused))
        for b in theirs if htmx else theirs[:2]:  # whole pages: two suffice
            value = "livland" if prefix == "move_" else "1"
            calls.append(post(f"{prefix}#{b.pk}", {f"{prefix}{b.pk}": value}, refused))
    return calls


def perform(client: Client, call: Call):
    extra = HTMX if call.htmx else {}
    if call.method == "get":
        return client.get(call.url, follow=not call.htmx, **extra)
    return client.post(call.url, call.data, follow=not call.htmx, **extra)


def scan(campaign, users, role: str, me: str, valid: dict | None, public: set[str]):
    """Every request of the player of ``me``: the URL names covered, the leaks, and the
    responses of an unexpected status."""
    client = Client(raise_request_exception=False)
    client.force_login(users[role])
    secrets = Secrets.of_blocks(blocks_of(campaign, "coalition" if me == "sweden" else "sweden"))
    own = {b.name for b in blocks_of(campaign, SIDE_OF[me]) if b.location_id}
    covered, leaks, wrong = set(), [], []
    for call in calls_for(campaign, me, valid):
        covered.add(call.url_name)
        response = perform(client, call)
        html = response.content.decode()
        where = f"{me} · {campaign.phase.key} T{campaign.turn} · {call.label}"
        if response.status_code >= 500 or call.status not in (None, response.status_code):
            wrong.append(
                f"{where}: {response.status_code}, not {call.status}: {page_text(html)[:400]}"
            )
        exempt = public if call.url_name == "rules" else set()
        leaks += [f"{where}: {found}" for found in secrets.found_in(html, exempt)]
        if call.url_name == "detail":
            missing = {n for n in own if n not in html}
            assert not missing, f"{where}: its own blocks are not shown: {missing}"
    for label, response in api_answers(campaign, users[role]):
        where = f"{me} · {campaign.phase.key} T{campaign.turn} · API {label}"
        if response.status_code != 200:
            wrong.append(f"{where}: {response.status_code}")
        leaks += [f"{where}: {found}" for found in secrets.found_in(response.content.decode())]
    return covered, leaks, wrong


def api_answers(campaign, user) -> list[tuple[str, object]]:
    """Every route of the API (campaign/api/), through a token of ``user``'s: the log a
    line at a time too. Its JSON escapes no name, so the scan reads it as it reads a page."""
    _, token = api_tokens.make_token(user=user, name=f"scan {uuid.uuid4().hex[:8]}")
    client = Client(headers={"Authorization": f"Bearer {token}"})
    log = reverse("api:log", args=[campaign.pk])
    answers = [
        ("campaigns", client.get(reverse("api:campaigns"))),
        ("orders due", client.get(reverse("api:orders_due"))),
        ("state", client.get(reverse("api:campaign", args=[campaign.pk]))),
        ("log", client.get(log, {"limit": 500})),
    ]
    after = 0
    while after is not None:
        page = client.get(log, {"after": after, "limit": 1})
        answers.append((f"log after {after}", page))
        after = page.json()["next_after"] if page.status_code == 200 else None
    return answers


# -- the year -------------------------------------------------------------------------


@pytest.fixture
def dice(monkeypatch):
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice(FACES))


def recruitment_orders(**fields) -> dict:
    return {"reinforce": [], "draws": 0, "steps_each": 0, "places": [], "fleet_places": []} | fields


STAGES = ("recruitment", "actions", "sieges", "forage", "summer")


def the_year(campaign, users, ids):
    """Plays spring 1700 to summer 1700 (each stage's orders, the GM's edits and the
    resolutions, checking what they did), yielding at the start of each of STAGES the
    orders a Swedish and a Russian player could give then (None: the phase takes none)."""
    # Recruitment, spring 1700
    yield (
        {
            f"reinforce_{ids['Wachtmeister']}": "1",
            "draws": "1",
            "steps_each": "0",
            "place_1": "livland",
        },
        {f"reinforce_{ids['Menshikov']}": "1"},
    )
    order(campaign, "saxony", recruitment_orders(draws=1, places=["lausitz"]))
    order(
        campaign,
        "sweden",
        recruitment_orders(reinforce=[{"block": ids["Wachtmeister"], "steps": 1}]),
    )
    order(campaign, "russia", recruitment_orders())
    resolve(campaign, users["gm"])
    drawn = Block.objects.filter(pk__in=[ids["Schulenburg"], ids["Lubomirski"]])
    assert [b.location.key for b in drawn if b.location] == ["lausitz"]

    # Actions
    PbSide.objects.filter(campaign=campaign, key="coalition").update(actions=4)
    campaign.bump_version()  # as every change of the state does (pages keep the World by it)
    yield (
        {f"act_{ids['Regiment 000']}": "1", f"move_{ids['Wachtmeister']}": "central_baltic"},
        {"siege_narva": "on"},
    )
    order(
        campaign,
        "sweden",
        {
            "reinforce": [{"block": ids["Regiment 000"], "actions": 1}],
            "fleet_moves": [{"fleet": ids["Wachtmeister"], "path": ["central_baltic"]}],
            "sieges": [],
        },
    )
    order(campaign, "saxony", {"reinforce": [{"block": ids["August II"], "actions": 2}]})
    order(
        campaign,
        "denmark",
        {"fleet_moves": [{"fleet": ids["Danish fleet"], "path": ["southern_baltic"]}]},
    )
    order(campaign, "russia", {"sieges": [{"territory": "narva", "blocks": [ids["Menshikov"]]}]})
    resolve(campaign, users["gm"])
    assert Block.objects.get(pk=ids["August II"]).strength == 3
    assert Block.objects.get(pk=ids["Menshikov"]).besieging

    # Battles and sieges: the GM records a battle at Narva first (GNW-3)
    gm_edit(
        campaign_id=campaign.pk,
        actor=users["gm"],
        edit="battle",
        territory="narva",
        winner="coalition",
        fought=[ids["Upplands"]],
    )
    yield None, None
    resolve(campaign, users["gm"])
    menshikov = Block.objects.select_related("location").get(pk=ids["Menshikov"])
    assert (menshikov.strength, menshikov.location.key) == (2, "narva")
    assert campaign.areas.get(key="narva").controller.key == "russia"

    # Forage: Kurland is one FP short (GNW-4), Pyotr I and Sheremetev as strong: Russia's
    # order breaks the tie; Sweden's loss order would change nothing: an empty order
    yield (
        {},
        {f"loss_{ids['Sheremetev']}": "1", f"loss_{ids['Pyotr I']}": "2"},
    )
    order(campaign, "russia", {"loss_order": [ids["Sheremetev"], ids["Pyotr I"]]})
    order(campaign, "sweden", {"loss_order": []})
    resolve(campaign, users["gm"])
    assert Block.objects.get(pk=ids["Sheremetev"]).strength == 3

    # Summer: the GM moves a Coalition block
    sheremetev = Block.objects.get(pk=ids["Sheremetev"])
    gm_edit(
        campaign_id=campaign.pk,
        actor=users["gm"],
        edit="block",
        block=sheremetev.pk,
        location="velikaya",
        strength=sheremetev.strength,
        max_strength=sheremetev.max_strength,
        rating=sheremetev.rating,
        supply_trains=sheremetev.supply_trains,
        carried_by=None,
        in_battle=False,
    )
    yield {f"move_{ids['Wachtmeister']}": "livland"}, {f"act_{ids['Menshikov']}": "1"}


def year_until(campaign, users, ids, stage: str):
    """The orders Sweden and Russia could give once the year has reached ``stage``."""
    for reached, orders in zip(STAGES, the_year(campaign, users, ids), strict=True):
        if reached == stage:
            return orders
    raise AssertionError(stage)


@pytest.mark.parametrize("stage", STAGES)
def test_no_page_or_fragment_shows_a_player_the_other_sides_blocks(dice, client, stage):
    """Every request of each side's player, at one stage of the year (each stage is a test
    of its own, the year played up to it): the other side's blocks never show."""
    campaign = make_pb_campaign(territories=14)  # a Russian regiment in Territory 004 too
    users = seat_users(campaign, "sweden", "russia")
    ids = block_ids(campaign)
    rules_html = client.get(reverse("campaign:rules", args=["pax_baltica"])).content.decode()
    public = {name for name in ids if name in unescape(rules_html)}  # the rules' examples
    covered: set[str] = set()
    leaks: list[str] = []
    wrong: list[str] = []
    valid_sweden, valid_russia = year_until(campaign, users, ids, stage)
    for role, me, valid in (
        ("player", "sweden", valid_sweden),
        ("other_player", "russia", valid_russia),
    ):
        names, found, bad = scan(campaign, users, role, me, valid, public)
        covered.update(names)
        leaks.extend(found)
        wrong.extend(bad)

    # Every URL of the campaign app was tried (a new one must be added above), and
    # nothing of the other side's blocks showed.
    assert covered == campaign_url_names()
    assert not leaks + wrong, "\n".join(leaks + wrong)


def test_after_the_year_each_side_reads_its_own_lines_and_the_gm_reads_all(dice):
    campaign = make_pb_campaign(territories=14)
    users = seat_users(campaign, "sweden", "russia")
    ids = block_ids(campaign)
    for _ in the_year(campaign, users, ids):
        pass

    # The log holds the secret lines the scans had to keep to their side …
    secret_rules = set(
        Event.objects.filter(campaign=campaign).exclude(audience=[]).values_list("rule", flat=True)
    )
    assert {"GNW-7", "GNW-10", "GNW-8", "GNW-13", "GNW-1", "GNW-3", "GNW-4"} <= secret_rules
    # … and the other side reads what it would see across the table.
    sweden = Client()
    sweden.force_login(users["player"])
    html = sweden.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    for redacted in (
        "Saxony-Poland places a new block in Lausitz.",
        "Coalition spends 2 actions reinforcing a block in Lausitz.",
        "Coalition lays siege to Narva.",
        "Coalition blocks in Kurland go short of forage.",
        "a block of Russia moves from Kurland to Velikaya.",
    ):
        assert redacted in unescape(html), redacted

    # The GM sees both sides in full: the scan can fail. (An observer sees no side's
    # hidden state until the campaign ends, unless the GM lets watchers see one side.)
    siege = Phase.objects.get(campaign=campaign, key="siege", turn=1)
    for role in ("gm",):
        seer = Client()
        seer.force_login(users[role])
        html = seer.get(reverse("campaign:verify", args=[campaign.pk, siege.pk])).content.decode()
        assert "Menshikov" in html and "a roll of the other side" not in html, role
    watcher = Client()
    watcher.force_login(users["observer"])
    html = watcher.get(reverse("campaign:verify", args=[campaign.pk, siege.pk])).content.decode()
    assert "Menshikov" not in html
    actions = Phase.objects.get(campaign=campaign, key="actions", turn=1)
    for role in ("gm",):  # the history of a phase, too
        seer = Client()
        seer.force_login(users[role])
        html = seer.get(reverse("campaign:history", args=[campaign.pk, actions.pk])).content
        for side in ("sweden", "coalition"):
            names = {b.name for b in blocks_of(campaign, side) if b.location_id}
            assert names & set(Secrets.of_blocks(blocks_of(campaign, side)).names), side
            assert any(name in html.decode() for name in names), f"{role}: {side} history"
    for role, url in (("gm", "campaign:gm"),):
        seer = Client()
        seer.force_login(users[role])
        html = seer.get(reverse(url, args=[campaign.pk])).content.decode()
        for side in ("sweden", "coalition"):
            secrets = Secrets.of_blocks(blocks_of(campaign, side))
            assert not {n for n in secrets.names if n not in html}, f"{role}: {side}"
            shown = any(p.search(page_text(html)) for p in secrets.strengths)
            assert shown, f"{role} sees no {side} strength"


def test_the_garrisons_hits_do_not_name_the_besiegers_to_the_defender(dice):
    """GNW-1: the garrison's fire hits Menshikov (3 → 2); Sweden, whose garrison fired,
    reads the roll but not which block it hit, nor its strength."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    ids = block_ids(campaign)
    resolve(campaign, users["gm"])  # recruitment: no orders, no draws
    order(campaign, "russia", {"sieges": [{"territory": "narva", "blocks": [ids["Menshikov"]]}]})
    resolve(campaign, users["gm"])  # actions
    resolve(campaign, users["gm"])  # the siege of Narva
    assert Block.objects.get(pk=ids["Menshikov"]).strength == 2
    pages = {}
    for role in ("player", "other_player"):
        client = Client()
        client.force_login(users[role])
        pages[role] = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert "Garrison of Narva (C1, 2 dice)" in pages["player"]
    assert "Menshikov" not in pages["player"]
    assert "Menshikov 3 → 2" in pages["other_player"]
