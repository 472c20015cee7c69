"""Every word a person reads comes through the catalogs: read in the pseudo-locale
(tests/pseudo.py), no page, fragment, form error, log line or mail shows a letter the
catalogs did not write, apart from the data people typed or chose.

The pages are those of the role × URL matrix (tests/reliability/test_url_matrix.py): each
URL name's calls for a campaign of each ruleset, as every role the URL lets in, GET and
POST (form errors), HTMX fragments included; a post that succeeds is followed to the page
it leads to (its message). A refused request's page (403, 404, 405) is read once per
status. What is read: HTML and SVG; the campaign's download (JSON, for programs) is not.
The rules pages are read by a test of their own, once per ruleset. The readers ask for
the pseudo-locale in their Profile, their session and their browser, so that a page they
leave to the browser's language (a preferences form posted without one) is read in it too.

The turn: the factories' campaign of each ruleset (tests/factories.py) played until its
first turn ends or a decision is awaited (every power's default orders), its log read on
the campaign page and on each resolved phase's history and verify pages, as every seat;
and every mail the turn sends (a phase opened, a phase resolved), read from the outbox:
its subject, its text part and what its HTML part shows.

What may show untranslated, because no catalog holds it (``Allowed``): what a person
typed or chose (user names, campaign names, press messages, the fields and values a
form post carried and its error repeats, the campaign's links in a mail: its page, its
mail settings, the signed link that turns a kind of mail off), the word that marks orders
given by mail ready (``MAIL_KEYWORDS``, the same in every language), the languages'
own names in the switcher, the time zone picker's place names (IANA's), names that are no
word (``NOT_WORDS``), dice seeds and their hashes, rule numbers and Pax Baltica's combat
ratings (``CODES``), and the proper names of Pax Baltica's blocks, Empires in Arms'
corps and Virgin Queen's leaders, which the scenario file gives or the GM types
(``UNIT_NAMES``). The powers' and areas' names are not allowed: they are words of the
catalogs (each ruleset's names.py), shown through them.
The rules pages quote the rulebook in its own language: a quotation marked with its
``lang`` is not read (tests/pseudo.py), and neither is code (a case's data, a script).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.test import Client

from campaign.models import Campaign, Phase, Profile
from campaign.notify import order_text
from campaign.time_zones import grouped_choices
from tests import pseudo
from tests.factories import (
    make_eia_campaign,
    make_pb_campaign,
    make_toy_campaign,
    make_vq_campaign,
    seat_users,
)
from tests.reliability.test_url_matrix import (
    BUILDERS,
    LOGIN,
    OTHER,
    ROLES,
    SCENES,
    Call,
    calls_of,
    campaign_url_names,
    expected,
    request,
    u,
)
from tests.services.test_eia_phase_services import resolve
from tests.services.test_scheduling import run_worker

pytestmark = [pytest.mark.django_db, pytest.mark.long]

REFUSED = (403, 404, 405)
READ = ("text/html", "image/svg+xml")


@pytest.fixture(autouse=True)
def pseudo_locale(settings):
    """The pseudo-locale installed, and a language the site speaks: a browser that asks
    for it gets it, as one asking for Greek gets Greek (so that a reader who leaves the
    language to the browser, as a preferences form posted without one does, still reads
    in it)."""
    settings.LANGUAGES = [*settings.LANGUAGES, (pseudo.CODE, pseudo.NAME)]
    with pseudo.installed():
        yield


# -- what may show untranslated -----------------------------------------------------------


def unit_names(campaign: Campaign) -> set[str]:
    """The names of the campaign's blocks, corps and leaders (UNIT_NAMES): proper names
    of people and formations ("Karl XII"), which the scenario file gives or the GM types
    (a new block, a new corps) and no names.py lists. The powers' and areas' names are
    words of the catalogs (each ruleset's names.py) and must be shown through them."""
    names = set()
    for model, column in UNIT_NAMES:
        names |= set(model.objects.filter(campaign=campaign).values_list(column, flat=True))
    return names


def _unit_models():
    from rules.empires_in_arms.models import Corps
    from rules.pax_baltica.models import Block
    from rules.virgin_queen.models import VqLeader

    return ((Block, "name"), (Corps, "name"), (VqLeader, "name"))


UNIT_NAMES = _unit_models()


@dataclass
class Allowed:
    """The values a reader may see as they are (see the module docstring)."""

    patterns: tuple[re.Pattern, ...]

    @classmethod
    def of(cls, *campaigns: Campaign) -> Allowed:
        values = {name for _, name in settings.LANGUAGES} | {"English"} | time_zone_places()
        values |= NOT_WORDS
        values |= set(get_user_model().objects.values_list("username", flat=True))
        values |= set(Campaign.objects.values_list("name", flat=True))
        for campaign in campaigns:
            values |= unit_names(campaign) | {link(campaign)}
        return cls((pseudo.allowing(values),))

    def also(self, values) -> Allowed:
        return Allowed((self.patterns[0], pseudo.allowing(values)))


def link(campaign: Campaign) -> str:
    """The campaign's address, as the mails give it."""
    return settings.SITE_URL.rstrip("/") + u("detail", campaign.pk)


# A word a mail names as it is, in every language: the line that marks orders answered by
# mail ready (campaign/notify/order_text.py).
MAIL_KEYWORDS = {order_text.READY}


def mail_links(campaign: Campaign) -> re.Pattern:
    """The links the campaign's mail carries besides its page: its mail settings page, and
    the signed link that turns one kind of mail off."""
    site = re.escape(settings.SITE_URL.rstrip("/"))
    choices = site + re.escape(u("mail_settings", campaign.pk))
    off = site + re.escape(u("unsubscribe", "TOKEN")).replace("TOKEN", r"[\w:-]+")
    return re.compile(f"{choices}|{off}")


def mail_texts(message) -> list[str]:
    """What a person reads of a mail: its subject, its text part line by line and what its
    HTML part shows."""
    (html,) = [content for content, kind in message.alternatives if kind == "text/html"]
    return [message.subject, *message.body.splitlines(), *pseudo.shown(html)]


def time_zone_places() -> set[str]:
    """The time zone picker's places (IANA's names, as tz data spells them)."""
    return {place for _, zones in grouped_choices() for _, place in zones}


def typed(call: Call) -> set[str]:
    """What a post carried, its fields' names (a tampered post makes them up) and their
    values: a person typed or chose it, and an error may repeat it."""
    values = set(call.data or {})
    for value in (call.data or {}).values():
        values |= {str(v) for v in value} if isinstance(value, list) else {str(value)}
    return values


# Names that are no word of any language: the site's, the image formats', and the
# scenario key the campaigns of the factories are made from.
NOT_WORDS = {"Courier", "SVG", "PNG", "test"}
# A dice seed or its SHA-256 (hexadecimal), a rule number ("EIA-4", "GNW-6.2"; not the
# end of a path: "Etc/GMT-9", a time zone, is allowed whole), and a Pax Baltica combat
# rating ("B2": the letter and number printed on the block, which the game's players
# read in every language; the blocks panel says it in words too).
CODES = re.compile(r"(?<![\w/])(?:[0-9a-f]{32,}|[A-Z]{2,4}-\d+(?:\.\d+)*[a-z]?|[A-E][1-6])(?!\w)")


def escapes_in(response, allowed: Allowed) -> list[str]:
    kind = response.get("Content-Type", "").split(";")[0]
    if kind not in READ:
        return []
    found = []
    for text in pseudo.shown(response.content.decode()):
        if pseudo.escapes(text, CODES, *allowed.patterns):
            found.append(" ".join(text.split())[:160])
    return found


# -- the URL conf for each role and ruleset ---------------------------------------------


def speak_pseudo(*users) -> None:
    """The users' chosen language: the pseudo-locale (their pages and their mail)."""
    for user in users:
        Profile.objects.update_or_create(user=user, defaults={"language": pseudo.CODE})


def pseudo_client(user=None) -> Client:
    """A client reading in the pseudo-locale (the session's language, as a login from a
    Profile that chose it leaves it, and its browser's)."""
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=pseudo.CODE)
    if user is not None:
        client.force_login(user)
    session = client.session
    session["language"] = pseudo.CODE
    session.save()
    return client


def read(scene, role, client, name, spec, call, allowed, refused_seen) -> list[str]:
    """The escapes of one call's page (and of the page a success leads to), in a
    savepoint rolled back afterwards."""
    want = expected(spec, call, role)
    if want == LOGIN or (want in REFUSED and want in refused_seen):
        return []
    refused_seen.add(want)
    where = f"{scene.key} · {role} · {call.method.upper()} {name} ({call.label})"
    allowed = allowed.also(typed(call))
    found = []
    with transaction.atomic():
        response = request(client, call)
        found += [f"{where}: {text}" for text in escapes_in(response, allowed)]
        if response.status_code == 302 and call.method == "post":
            after = client.get(response["Location"])
            found += [f"{where} → {text}" for text in escapes_in(after, allowed)]
        transaction.set_rollback(True)
    return found


RULES = "rules"  # the rules pages' URL name: read by a test of their own, per ruleset


def escapes_of_urls(scene_key: str, names, settings) -> list[str]:
    """The escapes of the calls of the URL ``names`` in the scene ``scene_key``, as
    every role."""
    settings.PRESS_RATE_LIMIT = 10**6
    scene = SCENES[scene_key]()
    scene.other = OTHER[scene.ruleset]()
    speak_pseudo(*scene.users.values())
    clients = {role: pseudo_client(scene.users.get(role)) for role in ROLES}
    allowed = Allowed.of(scene.campaign, scene.other)
    refused_seen: set = set()
    found = []
    for name in sorted(names):
        spec = BUILDERS[name]
        for call in calls_of(name, spec, scene):
            for role in ROLES:
                found += read(scene, role, clients[role], name, spec, call, allowed, refused_seen)
    return found


def report(found: list[str]) -> str:
    return f"{len(found)} texts outside the catalogs:\n" + "\n".join(dict.fromkeys(found))


@pytest.mark.parametrize("scene_key", SCENES)
def test_every_url_reads_in_the_pseudo_locale(scene_key, settings):
    found = escapes_of_urls(scene_key, campaign_url_names() - {RULES}, settings)
    assert not found, report(found)


# Each ruleset's rules page, read in a scene of that ruleset.
RULES_SCENES = {
    "empires_in_arms": "eia",
    "pax_baltica": "pb",
    "virgin_queen": "vq_open",
    "toy": "toy",
}


@pytest.mark.parametrize("scene_key", RULES_SCENES.values(), ids=RULES_SCENES.keys())
def test_the_rules_page_reads_in_the_pseudo_locale(scene_key, settings):
    found = escapes_of_urls(scene_key, {RULES}, settings)
    assert not found, report(found)


# -- a turn of each ruleset: its log and its mail ---------------------------------------

FACTORIES = {
    "empires_in_arms": (make_eia_campaign, "france", "great_britain"),
    "pax_baltica": (make_pb_campaign, "sweden", "russia"),
    "virgin_queen": (make_vq_campaign, "spain", "protestant"),
    "toy": (make_toy_campaign, "north", "south"),
}
TURN_PHASES = 12  # at most: a turn ends before this many phases in every ruleset


def play_a_turn(campaign, capture) -> list:
    """Resolve the open phases (no orders: each power's defaults) until the turn moves on
    or a decision is awaited; the resolved phases."""
    resolved = []
    turn = campaign.phase.turn
    for _ in range(TURN_PHASES):
        campaign.refresh_from_db()
        if campaign.phase.turn != turn or campaign.phase.status != Phase.Status.OPEN:
            break
        resolved.append(campaign.phase_id)
        with capture(execute=True):
            resolve(campaign)
    return resolved


@pytest.mark.parametrize("ruleset", FACTORIES)
def test_a_turn_s_log_and_mail_read_in_the_pseudo_locale(
    ruleset, django_capture_on_commit_callbacks
):
    make, player, other = FACTORIES[ruleset]
    campaign = make()
    users = seat_users(campaign, player, other)
    for role, user in users.items():
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])
    speak_pseudo(*users.values())
    mail.outbox.clear()
    resolved = play_a_turn(campaign, django_capture_on_commit_callbacks)
    run_worker(django_capture_on_commit_callbacks)
    allowed = Allowed.of(campaign)
    links, in_mail = mail_links(campaign), allowed.also(MAIL_KEYWORDS).patterns
    found = []
    for message in mail.outbox:
        for text in mail_texts(message):
            if pseudo.escapes(text, links, CODES, *in_mail):  # a link whole: see pseudo.py
                found.append(f"mail to {message.to[0]}: {text[:160]}")
    assert mail.outbox, "the turn sent no mail"
    pages = [u("detail", campaign.pk)]
    for phase in resolved:
        pages += [u("history", campaign.pk, phase), u("verify", campaign.pk, phase)]
    for role in ("gm", "player", "other_player", "observer"):
        client = pseudo_client(users[role])
        for url in pages:
            response = client.get(url)
            found += [f"{role} {url}: {text}" for text in escapes_in(response, allowed)]
    assert not found, report(found)
