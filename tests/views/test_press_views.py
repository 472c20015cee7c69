"""The press pages with every role: the GM, the GM who also plays, a player, another
player, a third player outside a private channel, an observer, an outsider, anonymous.
A private message of two powers never reaches anyone else's pages, fragments, history
pages or downloads; bad messages are refused with their reason and change nothing; posts
work with HTMX and as pages; unread counts; a page costs the same queries at 50 and at
5,000 messages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, Channel, MailChoice, Message, PressMail, Seat
from campaign.play.services import resolve_open_phase
from campaign.press import press
from tests.factories import make_eia_campaign, seat_users

pytestmark = pytest.mark.django_db

SECRET = "SECRET-PACT-7f3a"
HTMX = {"HTTP_HX_REQUEST": "true"}
READERS = ("gm", "player", "other_player", "third", "observer")


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def users(campaign):
    """The conftest's roles, and third: Prussia's player."""
    found = seat_users(campaign)
    found["third"] = get_user_model().objects.create_user(f"third-{campaign.pk}")
    Seat.objects.filter(campaign=campaign, power__key="prussia").update(user=found["third"])
    return found


def url(campaign, channel: str | None = None, query: str = "") -> str:
    if channel is None:
        return reverse("campaign:press", args=[campaign.pk]) + query
    return reverse("campaign:press_channel", args=[campaign.pk, channel]) + query


def write(client: Client, campaign, text: str, *, to="public", powers=(), htmx=False, **data):
    extra = HTMX if htmx else {}
    body = {"to": to, "powers": list(powers), "text": text, "view": "all", **data}
    return client.post(url(campaign), body, **extra)


@pytest.fixture
def pact(campaign, client_as):
    """France and Great Britain agree in private; France also writes in public."""
    france = client_as("player")
    assert (
        write(france, campaign, SECRET, to="private", powers=["great_britain"]).status_code == 302
    )
    assert write(france, campaign, "Public bulletin").status_code == 302
    return campaign


# -- reading, by role ------------------------------------------------------------------

READS = {
    "public": dict.fromkeys(READERS, 200),
    "france+great_britain": {"player": 200, "other_player": 200, "gm": 404, "third": 404},
    "gm-france": {"player": 200, "gm": 200, "other_player": 404, "third": 404, "observer": 404},
    "gm-prussia": {"third": 200, "gm": 200, "player": 404},
}


@pytest.mark.parametrize("channel", [None, *READS])
@pytest.mark.parametrize("role", ["anonymous", "outsider", *READERS])
def test_who_reads_which_channel(pact, client_as, role, channel):
    response = client_as(role).get(url(pact, channel))
    if role == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    elif role == "outsider":
        assert response.status_code == 404
    else:
        expected = 200 if channel is None else READS[channel].get(role, 404)
        assert response.status_code == expected


def test_the_gm_reads_private_press_when_the_campaign_says_so(pact, client_as):
    Campaign.objects.filter(pk=pact.pk).update(gm_reads_private=True)
    response = client_as("gm").get(url(pact, "france+great_britain"))
    assert response.status_code == 200 and SECRET in response.content.decode()
    assert "The GM reads the private press" in response.content.decode()


def test_a_gm_who_plays_reads_their_powers_channels(campaign, users, client_as):
    Seat.objects.filter(campaign=campaign, power__key="spain").delete()
    Seat.objects.filter(campaign=campaign, role=Seat.Role.GM).update(
        power=campaign.powers.get(key="spain")
    )
    gm = client_as("gm")
    assert write(gm, campaign, "Hola", to="private", powers=["france"]).status_code == 302
    assert write(gm, campaign, "Signed", as_gm="on").status_code == 302
    assert write(gm, campaign, "As Spain").status_code == 302
    html = client_as("player").get(url(campaign)).content.decode()
    assert "Hola" in html and "Signed" in html
    authors = dict(Message.objects.values_list("text", "power__key"))
    assert authors == {"Hola": "spain", "Signed": None, "As Spain": "spain"}
    assert client_as("gm").get(url(campaign, "gm-france")).status_code == 200
    assert client_as("gm").get(url(campaign, "france+spain")).status_code == 200


def test_another_campaigns_channel_is_not_found(pact, client_as):
    other = make_eia_campaign()
    seat_users(other)
    assert client_as("player").get(url(other, "public")).status_code == 404
    assert client_as("player").get(url(pact, "france+sweden")).status_code == 404
    assert client_as("player").get(url(pact, "great_britain+france")).status_code == 404
    assert client_as("player").get(url(pact) + "no%20such/").status_code == 404


# -- a private message of two powers reaches no one else ---------------------------------


def every_page(campaign, client: Client) -> list[str]:
    """Every page and fragment of the press a reader may ask for, and the campaign page."""
    pages = [
        url(campaign),
        url(campaign, "public"),
        url(campaign, query="?part=panel"),
        url(campaign, query="?part=channels&stamp=x"),
        url(campaign, query="?part=messages&stamp=x"),
        url(campaign, "public", "?part=messages&stamp=x"),
        reverse("campaign:detail", args=[campaign.pk]),
    ]
    bodies = []
    for page in pages:
        for extra in ({}, HTMX):
            response = client.get(page, **extra)
            assert response.status_code in (200, 204), page
            bodies.append(response.content.decode())
    return bodies


@pytest.mark.parametrize("role", ["third", "observer", "gm"])
def test_no_one_else_reads_a_private_message(pact, client_as, role):
    client = client_as(role)
    for body in every_page(pact, client):
        assert SECRET not in body
    phase = pact.phase_id
    resolve_open_phase(campaign_id=pact.pk, expected_phase_id=phase, actor=None)
    history = client.get(reverse("campaign:history", args=[pact.pk, phase])).content.decode()
    assert "Public bulletin" in history and SECRET not in history


def test_the_members_read_it_in_the_history_of_its_phase(pact, client_as):
    phase = pact.phase_id
    resolve_open_phase(campaign_id=pact.pk, expected_phase_id=phase, actor=None)
    history = reverse("campaign:history", args=[pact.pk, phase])
    assert SECRET in client_as("other_player").get(history).content.decode()


def test_the_gms_download_holds_no_private_press_the_gm_does_not_read(pact, client_as):
    response = client_as("gm").get(reverse("campaign:export", args=[pact.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Public bulletin" in body and SECRET not in body


def test_the_third_players_poll_does_not_notice_a_private_message(pact, client_as, users):
    third = client_as("third")
    seat = Seat.objects.select_related("campaign", "power").get(user=users["third"])
    powers = press.campaign_powers(pact)
    stamp = press.stamp(press.entries(seat, users["third"], powers))
    write(client_as("player"), pact, "Another secret", to="private", powers=["great_britain"])
    polled = third.get(url(pact, query=f"?part=channels&stamp={stamp}"), **HTMX)
    assert polled.status_code == 204


# -- writing ---------------------------------------------------------------------------


def test_a_page_post_goes_to_the_messages_channel(campaign, users, client_as):
    client = client_as("player")
    response = write(client, campaign, "To the GM", to="gm")
    assert response.status_code == 302
    assert response["Location"] == url(campaign, "gm-france")
    page = client.get(response["Location"]).content.decode()
    assert "Message sent." in page and "To the GM" in page and "France" in page
    assert campaign.turn_label in page


def test_an_htmx_post_answers_the_form_and_the_channels(campaign, users, client_as):
    response = write(client_as("player"), campaign, "Hello", htmx=True, view="panel")
    body = response.content.decode()
    assert response.status_code == 200  # from the panel: the panel, in its place
    assert body.lstrip().startswith('<section id="press-panel"') and "Message sent." in body
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#press-panel", "outerHTML")
    assert "Hello" in body and 'id="press-messages"' not in body
    from_page = write(client_as("player"), campaign, "Again", htmx=True, view="all")
    assert 'id="press-messages"' in from_page.content.decode()
    assert "Again" in from_page.content.decode()


def test_a_post_on_a_channels_page_goes_to_that_channel(pact, client_as):
    response = client_as("other_player").post(
        url(pact, "france+great_britain"), {"text": "Agreed", "view": "france+great_britain"}
    )
    assert response.status_code == 302
    message = Message.objects.get(text="Agreed")
    assert (message.channel.key, message.power.key) == ("france+great_britain", "great_britain")


def test_html_is_escaped_and_links_are_not_made(campaign, client_as):
    text = '<script>alert("x")</script> <a href="https://evil.example">click</a>'
    write(client_as("player"), campaign, text)
    html = client_as("other_player").get(url(campaign, "public")).content.decode()
    assert "<script>alert" not in html and 'href="https://evil.example"' not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html


def test_times_are_in_the_readers_time_zone(campaign, client_as):
    write(client_as("player"), campaign, "When?")
    message = Message.objects.get()
    Message.objects.update(created_at=message.created_at.replace(hour=12, minute=0))
    client = client_as("other_player")
    client.cookies["tz"] = "Asia/Tokyo"
    html = client.get(url(campaign, "public")).content.decode()
    assert " 21:00</time>" in html and '+0900">' in html


# -- bad input -------------------------------------------------------------------------

BAD = {
    "a channel the writer is not in": (
        "third",
        {"to": "france+great_britain"},
        403,
        "only to channels your power is in",
    ),
    "another power's channel with the GM": (
        "third",
        {"to": "gm-france"},
        403,
        "your own channel with the GM",
    ),
    "a power of another campaign": (
        "player",
        {"to": "private", "powers": ["sweden"]},
        422,
        "sweden is not one of the available choices",
    ),
    "a power named twice": (
        "player",
        {"to": "private", "powers": ["prussia", "prussia"]},
        422,
        "Prussia is named twice",
    ),
    "only the writer's own power": (
        "player",
        {"to": "private", "powers": ["france"]},
        422,
        "at least one other power",
    ),
    "no such channel": ("player", {"to": "france+atlantis"}, 422, "no such channel"),
    "an empty message": ("player", {"text": "   "}, 422, "this one is empty"),
    "a message too long": (
        "player",
        {"text": "x" * 5001},
        422,
        "at most 5000 characters (it has 5001)",
    ),
    "a null character": ("player", {"text": "a\x00b"}, 422, "Null characters are not allowed"),
    "an observer": ("observer", {}, 403, "Observers read the public press"),
}


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize("case", BAD)
def test_a_bad_message_is_refused_with_its_reason(campaign, users, client_as, case, htmx):
    role, data, status, reason = BAD[case]
    body = {"to": "public", "text": "Hello", "view": "all", **data}
    extra = HTMX if htmx else {}
    response = client_as(role).post(url(campaign), body, **extra)
    assert response.status_code == status
    html = response.content.decode()
    assert reason in html.replace("&quot;", '"').replace("&#x27;", "'")
    if htmx:  # the reason alone: the form keeps what was written
        assert html.startswith('<p class="notice error" role="alert">')
    else:
        assert 'id="press-compose"' in html
        assert ('name="text"' in html) == (role != "observer")
    assert not Message.objects.exists() and not Channel.objects.exists()


@pytest.mark.parametrize(
    ("rules", "data", "reason"),
    [
        ("none", {"to": "public"}, "gunboat"),
        ("none", {"to": "private", "powers": ["great_britain"]}, "gunboat"),
        ("public", {"to": "private", "powers": ["great_britain"]}, "public press only"),
    ],
)
def test_press_the_rules_forbid_is_refused(campaign, users, client_as, rules, data, reason):
    Campaign.objects.filter(pk=campaign.pk).update(press=rules)
    response = write(client_as("player"), campaign, "Hello", **data)
    assert response.status_code == 403 and reason in response.content.decode()
    assert not Message.objects.exists()
    assert write(client_as("player"), campaign, "To the GM", to="gm").status_code == 302


def test_a_flood_is_answered_429(campaign, users, client_as, settings):
    settings.PRESS_RATE_LIMIT = 3
    client = client_as("player")
    for n in range(3):
        assert write(client, campaign, f"n{n}", htmx=True).status_code == 200
    response = write(client, campaign, "one too many", htmx=True)
    assert response.status_code == 429
    assert "3 messages a minute" in response.content.decode()
    assert Message.objects.count() == 3
    assert write(client_as("other_player"), campaign, "mine").status_code == 302


def test_posting_to_an_unreadable_channels_page_is_not_found(pact, client_as):
    response = client_as("third").post(url(pact, "france+great_britain"), {"text": "Hi"})
    assert response.status_code == 404
    assert not Message.objects.filter(text="Hi").exists()


def test_observers_are_told_they_read_only(campaign, users, client_as):
    html = client_as("observer").get(url(campaign)).content.decode()
    assert "Observers read the public press; they do not write." in html
    assert 'name="text"' not in html


# -- unread counts and polling ---------------------------------------------------------


def test_unread_counts_follow_what_the_reader_opened(pact, client_as):
    client = client_as("other_player")
    channels = url(pact, query="?part=channels&stamp=x")  # the list alone marks nothing
    assert client.get(channels, **HTMX).content.decode().count("1 unread") == 2
    client.get(url(pact, "france+great_britain"))
    assert client.get(channels, **HTMX).content.decode().count("1 unread") == 1
    client.get(url(pact))  # every channel
    assert "unread" not in client.get(channels, **HTMX).content.decode()


def test_the_poll_answers_204_until_something_changes(pact, client_as, users):
    client = client_as("other_player")
    first = client.get(url(pact, "public", "?part=messages&stamp=old"), **HTMX)
    assert first.status_code == 200
    stamp = first.content.decode().split("stamp=")[1].split('"')[0]
    unchanged = client.get(url(pact, "public", f"?part=messages&stamp={stamp}"), **HTMX)
    assert unchanged.status_code == 204
    write(client_as("player"), pact, "Fresh news")
    changed = client.get(url(pact, "public", f"?part=messages&stamp={stamp}"), **HTMX)
    assert changed.status_code == 200 and "Fresh news" in changed.content.decode()
    assert 'id="press-channels"' in changed.content.decode()


def test_the_campaign_page_loads_the_panel(campaign, users, client_as):
    html = client_as("player").get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    assert 'id="press-panel"' in html and "?part=panel" in html and 'data-hx-trigger="load"' in html


# -- pages -----------------------------------------------------------------------------


def many(campaign, count: int, author) -> None:
    seat = Seat.objects.get(campaign=campaign, user=author)
    channel = Channel.objects.create(campaign=campaign, kind="public", key="public")
    Message.objects.bulk_create(
        Message(
            campaign=campaign,
            channel=channel,
            author=author,
            power_id=seat.power_id,
            turn=1,
            phase_id=campaign.phase_id,
            text=f"message {n}",
        )
        for n in range(count)
    )


def test_pages_of_fifty(campaign, users, client_as):
    many(campaign, 120, users["player"])
    client = client_as("other_player")
    first = client.get(url(campaign, "public")).content.decode()
    assert first.count('<li class="press-line') == 50 and "message 119" in first
    third = client.get(url(campaign, "public", "?page=3")).content.decode()
    assert third.count('<li class="press-line') == 20 and "message 0<" in third
    assert client.get(url(campaign, "public", "?page=zz")).status_code == 200
    assert client.get(url(campaign, "public", "?page=99")).status_code == 200


def queries(campaign, client: Client, page: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(page)
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    "page",
    [
        lambda c: url(c),
        lambda c: url(c, "public"),
        lambda c: url(c, query="?part=panel"),
        lambda c: reverse("campaign:detail", args=[c.pk]),
    ],
    ids=["every channel", "one channel", "panel", "campaign page"],
)
def test_a_page_costs_the_same_queries_at_50_and_5000_messages(client_as, page):
    counts = []
    for count in (50, 5000):
        campaign = make_eia_campaign()
        users = seat_users(campaign)
        many(campaign, count, users["player"])
        client = Client()
        client.force_login(users["other_player"])
        queries(campaign, client, page(campaign))  # the first visit marks the page read
        counts.append(queries(campaign, client, page(campaign)))
    assert counts[0] == counts[1]


# -- the GM's press rules ----------------------------------------------------------------


def test_the_gm_sets_the_press_rules(campaign, users, client_as):
    rules = reverse("campaign:press_rules", args=[campaign.pk])
    response = client_as("gm").post(rules, {"press": "public", "gm_reads_private": "on"})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.press, campaign.gm_reads_private) == ("public", True)
    assert client_as("player").post(rules, {"press": "none"}).status_code == 403
    assert client_as("outsider").post(rules, {"press": "none"}).status_code == 404
    campaign.refresh_from_db()
    assert campaign.press == "public"


@pytest.mark.raw_gm_posts
def test_a_stale_press_rules_form_is_refused(campaign, users, client_as):
    rules = reverse("campaign:press_rules", args=[campaign.pk])
    data = {"press": "none", "state_version": campaign.state_version - 1 or 99}
    assert client_as("gm").post(rules, data).status_code == 409
    campaign.refresh_from_db()
    assert campaign.press == "full"


def test_a_user_turns_the_press_digest_off(campaign, users, client_as):
    client, page = client_as("player"), reverse("campaign:mail_settings", args=[campaign.pk])
    html = client.get(page).content.decode()
    assert 'name="press" value="digest"' in html and 'name="press" value="off"' in html
    assert MailChoice.of(users["player"].pk, campaign.pk).press == PressMail.DIGEST
    assert client.post(page, {"your_turn": "on", "press": "off"}).status_code == 302
    choice = MailChoice.objects.get(user=users["player"], campaign=campaign)
    assert (choice.press, choice.your_turn, choice.reminders) == (PressMail.OFF, True, False)
    assert not MailChoice.objects.exclude(pk=choice.pk).exists()  # the player's, this campaign's
