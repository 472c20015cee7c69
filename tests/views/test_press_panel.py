"""The campaign page's press panel (press/?part=panel): the newest messages of each
channel a reader may read, those new to them labelled, with a reply box where they may
write. Every role reads in it what the press pages let them read, no more (a replaced
player: their old power's channels up to when they left); replies go through the press
post and its rules, with HTMX (the panel in place) and without (a redirect); bad ones
are refused with their reason and change nothing; a new message shows at the next poll;
the panel costs the same queries however many channels and messages there are."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Channel, Message, ReadMarker, Seat
from campaign.press import press
from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PACT = "france+great_britain"
MAX_PANEL_QUERIES = 6  # the session, user, seat, powers, channels, messages
User = get_user_model()


@pytest.fixture(autouse=True)
def fresh_rate_limit(settings):
    settings.PRESS_RATE_LIMIT = 1000
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def users(campaign):
    """The conftest's roles; third: Prussia's player; replaced: France's player until
    the present one took the seat over (an observer's seat that remembers France)."""
    found = seat_users(campaign)
    found["third"] = User.objects.create_user(f"third-{campaign.pk}")
    Seat.objects.filter(campaign=campaign, power__key="prussia").update(user=found["third"])
    found["replaced"] = User.objects.create_user(f"replaced-{campaign.pk}")
    return found


def panel_url(campaign, query: str = "") -> str:
    return reverse("campaign:press", args=[campaign.pk]) + "?part=panel" + query


def channel_url(campaign, key: str) -> str:
    return reverse("campaign:press_channel", args=[campaign.pk, key])


def write(client: Client, campaign, key: str, message: str, *, htmx=False, **data):
    """A reply from the panel's box of channel ``key`` (``data`` may change its fields)."""
    body = {"to": key, "text": message, "view": "panel", **data}
    return client.post(channel_url(campaign, key), body, **(HTMX if htmx else {}))


def panel(client: Client, campaign, query: str = "") -> str:
    response = client.get(panel_url(campaign, query), **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def block(html: str, campaign, key: str) -> str:
    """A channel's part of the panel."""
    heading = f'<a href="{channel_url(campaign, key)}">'
    return next(a for a in html.split("<article")[1:] if heading in a.split("</h3>")[0])


def replies(html: str) -> set[str]:
    """The channels the panel offers a reply box for (their forms' addresses)."""
    return set(re.findall(r'<form method="post" action="/campaigns/\d+/press/([^/]+)/"', html))


@pytest.fixture
def scene(campaign, users, client_as):
    """Before France's first player left: a pact of France and Great Britain, the GM to
    France, a public message. After: more of each."""
    player, gm = client_as("player"), client_as("gm")
    assert write(player, campaign, "public", "PUBLIC-BEFORE").status_code == 302
    assert write(player, campaign, PACT, "PACT-BEFORE").status_code == 302
    assert write(gm, campaign, "gm-france", "GM-BEFORE").status_code == 302
    Seat.objects.create(
        campaign=campaign,
        role=Seat.Role.OBSERVER,
        user=users["replaced"],
        former_power=campaign.powers.get(key="france"),
        left_at=timezone.now(),
    )
    assert write(player, campaign, "public", "PUBLIC-AFTER").status_code == 302
    assert write(player, campaign, PACT, "PACT-AFTER").status_code == 302
    assert write(player, campaign, "gm-france", "FRANCE-AFTER").status_code == 302
    return campaign


MARKERS = {"PUBLIC-BEFORE", "PUBLIC-AFTER", "PACT-BEFORE", "PACT-AFTER", "GM-BEFORE"}
MARKERS |= {"FRANCE-AFTER"}
PUBLIC = {"PUBLIC-BEFORE", "PUBLIC-AFTER"}
READS = {
    "player": (MARKERS, {"public", PACT, "gm-france"}),
    "other_player": (PUBLIC | {"PACT-BEFORE", "PACT-AFTER"}, {"public", PACT}),
    "third": (PUBLIC, {"public"}),
    "observer": (PUBLIC, set()),
    "gm": (PUBLIC | {"GM-BEFORE", "FRANCE-AFTER"}, {"public", "gm-france"}),
    "replaced": (PUBLIC | {"PACT-BEFORE", "GM-BEFORE"}, set()),
}


# -- who reads what ----------------------------------------------------------------------


@pytest.mark.parametrize("role", READS)
def test_each_role_reads_and_answers_only_what_it_may(scene, client_as, role):
    shown, answered = READS[role]
    html = panel(client_as(role), scene)
    assert {m for m in MARKERS if m in html} == shown
    assert replies(html) == answered
    assert ('name="text"' in html) == (role not in ("observer", "replaced"))


def test_a_replaced_player_learns_nothing_of_what_was_written_since(scene, client_as):
    html = panel(client_as("replaced"), scene)
    assert "2 unread" in html  # the public channel: both messages
    assert html.count("1 unread") == 2  # the pact and the channel with the GM: one each
    assert "earlier unread" not in html


def test_the_gm_reads_private_press_when_the_campaign_says_so_but_does_not_answer_it(
    scene, client_as
):
    Campaign.objects.filter(pk=scene.pk).update(gm_reads_private=True)
    html = panel(client_as("gm"), scene)
    assert "PACT-BEFORE" in html and "PACT-AFTER" in html
    assert replies(html) == {"public", "gm-france"}


@pytest.mark.parametrize("role", ["anonymous", "outsider"])
def test_no_seat_no_panel(scene, client_as, role):
    response = client_as(role).get(panel_url(scene), **HTMX)
    if role == "anonymous":  # sent to log in: HTMX is told to load the login page
        assert response["HX-Redirect"].startswith(reverse("login"))
        response = client_as(role).get(panel_url(scene))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 404
    assert "PUBLIC-BEFORE" not in response.content.decode()


def test_the_campaign_page_loads_the_panel_and_holds_no_message(scene, client_as):
    html = client_as("player").get(reverse("campaign:detail", args=[scene.pk])).content.decode()
    assert "?part=panel" in html and 'data-hx-trigger="load"' in html
    assert not {m for m in MARKERS if m in html}


# -- the newest messages, and what is new ------------------------------------------------


def test_the_three_newest_of_each_channel_oldest_first(campaign, users, client_as):
    player = client_as("player")
    for n in range(5):
        write(player, campaign, "public", f"news {n}.")
    html = panel(client_as("other_player"), campaign)
    assert "news 0." not in html and "news 1." not in html
    assert html.index("news 2.") < html.index("news 3.") < html.index("news 4.")
    assert "2 earlier unread messages: read the whole channel" in html
    assert html.count('<span class="press-new">new</span>') == 3


def test_unread_messages_are_labelled_new_until_the_channel_is_read(scene, users, client_as):
    """The panel marks nothing read (it loads and polls unseen, in a phone's hidden
    section or a background tab): the channel's own page does."""
    client = client_as("other_player")
    first = panel(client, scene)
    assert first.count('<span class="press-new">new</span>') == 4  # public 2, the pact 2
    assert re.search(r'class="press-line new">\s*<p class="meta">\s*<strong class="author">', first)
    assert not ReadMarker.objects.filter(user=users["other_player"]).exists()
    again = panel(client, scene)
    assert again.count('<span class="press-new">new</span>') == 4
    client.get(channel_url(scene, PACT))  # the whole channel, read
    pact = Channel.objects.get(key=PACT)
    marker = ReadMarker.objects.get(user=users["other_player"], channel=pact)
    assert marker.last_read == Message.objects.filter(channel=pact).latest("pk").pk
    read = panel(client, scene)
    assert "press-new" not in block(read, scene, PACT)
    write(client_as("player"), scene, PACT, "PACT-THIRD")
    third = panel(client, scene)
    assert block(third, scene, PACT).count('<span class="press-new">new</span>') == 1


def test_ones_own_messages_are_never_new(scene, client_as):
    html = panel(client_as("player"), scene)
    assert "press-new" not in block(html, scene, PACT)  # all France's
    assert "press-new" in block(html, scene, "gm-france")  # the GM's
    assert 'class="press-line own' in html


def test_more_unread_than_shown_stays_unread(campaign, users, client_as):
    player = client_as("player")
    for n in range(5):
        write(player, campaign, "public", f"news {n}.")
    client = client_as("other_player")
    panel(client, campaign)
    assert not ReadMarker.objects.filter(user=users["other_player"]).exists()
    client.get(channel_url(campaign, "public"))  # the whole channel
    assert "unread" not in panel(client, campaign)


# -- polling: a new message shows --------------------------------------------------------


def test_the_panel_polls_and_a_new_message_shows(scene, client_as):
    client = client_as("other_player")
    stamp = re.search(r"stamp=(\w+)", panel(client, scene)).group(1)
    assert client.get(panel_url(scene, f"&stamp={stamp}"), **HTMX).status_code == 204
    write(client_as("player"), scene, "public", "FRESH NEWS")
    polled = client.get(panel_url(scene, f"&stamp={stamp}"), **HTMX)
    assert polled.status_code == 200 and "FRESH NEWS" in polled.content.decode()


def test_a_message_the_reader_may_not_read_does_not_wake_the_poll(scene, client_as):
    client = client_as("third")
    stamp = re.search(r"stamp=(\w+)", panel(client, scene)).group(1)
    write(client_as("player"), scene, PACT, "ANOTHER SECRET")
    assert client.get(panel_url(scene, f"&stamp={stamp}"), **HTMX).status_code == 204


# -- replying ----------------------------------------------------------------------------


def test_an_htmx_reply_answers_the_panel_in_place(scene, client_as):
    response = write(client_as("other_player"), scene, PACT, "Agreed, mon ami", htmx=True)
    assert response.status_code == 200
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#press-panel", "outerHTML")
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="press-panel"')
    assert '<p class="notice success" role="status" tabindex="-1">Message sent.</p>' in html
    assert "Agreed, mon ami" in html
    message = Message.objects.latest("pk")
    assert (message.channel.key, message.power.key) == (PACT, "great_britain")


def test_a_reply_without_htmx_is_a_post_and_a_redirect(scene, client_as):
    client = client_as("gm")
    response = write(client, scene, "gm-france", "Noted, France")
    assert response.status_code == 302 and response["Location"] == channel_url(scene, "gm-france")
    page = client.get(response["Location"]).content.decode()
    assert "Message sent." in page and "Noted, France" in page
    assert Message.objects.latest("pk").power is None  # signed by the GM


def test_the_reply_boxes_post_what_the_panel_renders(scene, client_as):
    """Each reply box's own fields, as the browser would send them, post its message."""
    client = client_as("player")
    html = panel(client, scene)
    for key in (PACT, "gm-france", "public"):
        form = html.split(f'action="{channel_url(scene, key)}"')[1].split("</form>")[0]
        fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
        assert fields["to"] == key and fields["view"] == "panel"
        response = client.post(channel_url(scene, key), {**fields, "text": f"via {key}"}, **HTMX)
        assert response.status_code == 200
        assert Message.objects.get(text=f"via {key}").channel.key == key


BAD = {
    "another channel's address": ("player", PACT, {"to": "public"}, 422, "another channel"),
    "an empty message": ("player", PACT, {"text": "  \n "}, 422, "this one is empty"),
    "a message too long": ("player", PACT, {"text": "x" * 5001}, 422, "at most 5000"),
    "a channel of others": ("third", PACT, {}, 404, ""),
    "a channel the GM reads but is not in": ("gm", PACT, {}, 403, "channels your power is in"),
    "another power's channel with the GM": ("third", "gm-france", {}, 404, ""),
    "an observer": ("observer", "public", {}, 403, "Observers read the public press"),
    "a replaced player": ("replaced", "gm-france", {}, 403, "Observers read the public press"),
    "a channel of no campaign": ("player", "france+atlantis", {}, 404, ""),
}


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize("case", BAD)
def test_a_bad_reply_is_refused_with_its_reason_and_changes_nothing(scene, client_as, case, htmx):
    Campaign.objects.filter(pk=scene.pk).update(gm_reads_private=True)
    role, key, data, status, reason = BAD[case]
    before = (Message.objects.count(), Channel.objects.count())
    response = write(client_as(role), scene, key, "Hello", htmx=htmx, **data)
    assert response.status_code == status
    html = response.content.decode().replace("&#x27;", "'")
    assert reason in html
    if htmx and status != 404:  # the reason alone, for the box's notice: the text stays
        assert html.startswith('<p class="notice error" role="alert">')
        assert "HX-Retarget" not in response
    assert (Message.objects.count(), Channel.objects.count()) == before


def test_a_flood_of_replies_is_answered_429(scene, client_as, settings):
    settings.PRESS_RATE_LIMIT = 2
    cache.clear()
    client = client_as("other_player")
    assert write(client, scene, PACT, "one", htmx=True).status_code == 200
    assert write(client, scene, PACT, "two", htmx=True).status_code == 200
    refused = write(client, scene, PACT, "three", htmx=True)
    assert refused.status_code == 429 and "2 messages a minute" in refused.content.decode()
    assert not Message.objects.filter(text="three").exists()


def test_press_the_rules_forbid_has_no_reply_box(scene, client_as):
    Campaign.objects.filter(pk=scene.pk).update(press=Campaign.Press.NONE)
    html = panel(client_as("player"), scene)
    assert replies(html) == {"gm-france"}
    assert write(client_as("player"), scene, PACT, "Psst").status_code == 403


def test_a_gm_who_plays_may_sign_a_public_reply_as_the_gm(campaign, users, client_as):
    Seat.objects.filter(campaign=campaign, power__key="spain").delete()
    Seat.objects.filter(campaign=campaign, role=Seat.Role.GM).update(
        power=campaign.powers.get(key="spain")
    )
    write(client_as("player"), campaign, "public", "Hello all")
    gm = client_as("gm")
    assert 'name="as_gm"' in panel(gm, campaign)
    assert write(gm, campaign, "public", "Signed", as_gm="on", htmx=True).status_code == 200
    assert Message.objects.get(text="Signed").power is None


# -- queries -----------------------------------------------------------------------------


def fill(campaign, author, channels: int, messages: int) -> None:
    """``messages`` messages by ``author`` in the public channel and in private channels
    of France's with each other power, ``channels`` channels in all."""
    powers = press.campaign_powers(campaign)
    addresses = [press.PUBLIC_ADDRESS] + [
        press.Address(Channel.Kind.PRIVATE, (powers["france"], power))
        for key, power in powers.items()
        if key != "france"
    ]
    for address in addresses[:channels]:
        channel = press.channel_for(campaign, address)
        Message.objects.bulk_create(
            Message(
                campaign=campaign,
                channel=channel,
                author=author,
                power=address.powers[-1] if address.powers else None,
                turn=1,
                phase_id=campaign.phase_id,
                text=f"{address.key} {n}",
            )
            for n in range(messages)
        )


def panel_queries(channels: int, messages: int) -> tuple[int, str]:
    """The queries of France's player's first look at the panel, and what it showed."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    fill(campaign, users["other_player"], channels, messages)
    client = Client()
    client.force_login(users["player"])
    with CaptureQueriesContext(connection) as captured:
        response = client.get(panel_url(campaign), **HTMX)
    assert response.status_code == 200
    return len(captured), response.content.decode()


@pytest.mark.parametrize(
    ("few", "many"),
    [((1, 1), (7, press.LATEST)), ((1, 20), (7, 60))],
    ids=["every unread shown", "more unread than shown"],
)
def test_the_panel_costs_the_same_queries_for_few_and_many_channels_and_messages(few, many):
    """Channels by messages: the same queries for one channel of one message as for
    seven of many (the newest of every channel in one query)."""
    small, _ = panel_queries(*few)
    large, html = panel_queries(*many)
    assert small == large <= MAX_PANEL_QUERIES
    assert html.count('<li class="press-line') == 7 * press.LATEST
