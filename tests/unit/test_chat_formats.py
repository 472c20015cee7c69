"""The webhook's chat formats (campaign/notify/chat_formats.py): each format's shape, its
escaping, the chat's limits cut with "…", mentions never parsed, a message without a
deadline."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.notify import chat_formats
from campaign.notify.chat_formats import ChatMessage, cut, payload

DEADLINE = datetime(1805, 3, 1, 20, 0, tzinfo=UTC)
AT = datetime(2025, 3, 1, 8, 30, tzinfo=UTC)
URL = "https://courier.example.org/campaigns/7/"


def message(**changes) -> ChatMessage:
    fields = {
        "event": "phase_opened",
        "campaign": "Vienna 1805",
        "turn": "March 1805",
        "phase": "Naval phase",
        "deadline": DEADLINE,
        "url": URL,
        "text": "March 1805: Naval phase is open.",
        "at": AT,
        "deadline_label": "Deadline",
    }
    return ChatMessage(**(fields | changes))


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


UNIX = int(DEADLINE.timestamp())


# -- Discord ---------------------------------------------------------------------------


def test_discord_is_an_embed_by_courier_that_pings_nobody():
    body = payload("discord", message())
    assert body["username"] == "Courier"
    assert body["allowed_mentions"] == {"parse": []}
    assert "content" not in body
    (embed,) = body["embeds"]
    assert embed["title"] == "Vienna 1805 · Naval phase"
    assert embed["description"] == "March 1805: Naval phase is open."
    assert embed["url"] == URL
    assert datetime.fromisoformat(embed["timestamp"]) == AT
    assert embed["fields"] == [
        {"name": "Deadline", "value": f"<t:{UNIX}:F> (<t:{UNIX}:R>)"},
    ]


def test_discord_colours_each_event():
    colours = {
        event: payload("discord", message(event=event))["embeds"][0]["color"]
        for event in ("phase_opened", "phase_resolved", "test")
    }
    assert len(set(colours.values())) == 3
    assert all(0 <= colour <= 0xFFFFFF for colour in colours.values())


def test_discord_reads_the_deadline_in_unix_seconds_whatever_the_time_zone():
    athens = DEADLINE.astimezone(timezone(timedelta(hours=2)))
    (field,) = payload("discord", message(deadline=athens))["embeds"][0]["fields"]
    assert field["value"].startswith(f"<t:{UNIX}:F>")


def test_discord_everyone_in_a_campaign_name_pings_nobody():
    body = payload("discord", message(campaign="@everyone @here <@&123>"))
    assert body["allowed_mentions"] == {"parse": []}
    assert body["embeds"][0]["title"].startswith("@everyone @here <@&123>")


# -- Slack -----------------------------------------------------------------------------


def test_slack_has_a_fallback_text_a_linked_section_and_the_deadline_in_context():
    body = payload("slack", message())
    assert body["text"] == "Vienna 1805 · Naval phase: March 1805: Naval phase is open."
    section, context = body["blocks"]
    assert section == {
        "type": "section",
        "text": {
            "type": "mrkdwn",
            "text": f"<{URL}|Vienna 1805 · Naval phase>\nMarch 1805: Naval phase is open.",
        },
    }
    assert context["type"] == "context"
    (element,) = context["elements"]
    assert element == {
        "type": "mrkdwn",
        "text": f"Deadline: <!date^{UNIX}^{{date_long_pretty}} {{time}}|1805-03-01 20:00 UTC>",
    }


def test_slack_escapes_its_control_characters_so_no_mention_or_link_is_made():
    body = payload("slack", message(campaign="<!channel> & <@U1|x>", text="a > b <!here>"))
    title = "&lt;!channel&gt; &amp; &lt;@U1|x&gt; · Naval phase"
    assert body["text"] == f"{title}: a &gt; b &lt;!here&gt;"
    section = body["blocks"][0]["text"]["text"]
    assert re.findall(r"<([^>]*)>", section) == [f"{URL}|{title}"]  # Courier's link alone


# -- Matrix ----------------------------------------------------------------------------


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_matrix_is_hookshots_text_html_and_username():
    body = payload("matrix", message())
    assert set(body) == {"text", "html", "username"}
    assert body["username"] == "Courier"
    assert body["text"] == (
        "Vienna 1805 · Naval phase\nMarch 1805: Naval phase is open.\n"
        f"Deadline: 1805-03-01 20:00 UTC\n{URL}"
    )
    parsed = Tags()
    parsed.feed(body["html"])
    assert ("a", {"href": URL}) in parsed.tags
    assert parsed.text == [
        "Vienna 1805 · Naval phase",
        "March 1805: Naval phase is open.",
        "Deadline: 1805-03-01 20:00 UTC",
    ]


def test_matrix_escapes_html_and_breaks_room_mentions():
    body = payload("matrix", message(campaign='<b onclick="x">@room</b>', text="@room & more"))
    parsed = Tags()
    parsed.feed(body["html"])
    assert [tag for tag, _ in parsed.tags] == ["a", "strong", "br", "br"]
    assert "@room" not in body["text"] and "@room" not in body["html"]
    assert "@\u2060room & more" in body["text"]
    shouted = payload("matrix", message(text="@Room, @ROOM!"))
    assert "@room" not in (shouted["text"] + shouted["html"]).lower()


# -- Courier's JSON --------------------------------------------------------------------


def test_json_keeps_exactly_couriers_fields():
    assert payload("json", message()) == {
        "event": "phase_opened",
        "campaign": "Vienna 1805",
        "turn": "March 1805",
        "phase": "Naval phase",
        "deadline": "1805-03-01T20:00:00+00:00",
        "url": URL,
        "text": "March 1805: Naval phase is open.",
    }


# -- every format ----------------------------------------------------------------------


FORMATS = ("discord", "slack", "matrix", "json")


def test_every_format_of_the_model_has_a_shape():
    from campaign.models import Campaign

    assert set(Campaign.WebhookFormat.values) == set(chat_formats.FORMATS) == set(FORMATS)


def test_an_unknown_format_is_refused():
    with pytest.raises(ValueError, match="xml"):
        payload("xml", message())


def test_without_a_deadline_no_format_speaks_of_one():
    bodies = {f: payload(f, message(deadline=None)) for f in FORMATS}
    assert "fields" not in bodies["discord"]["embeds"][0]
    assert [block["type"] for block in bodies["slack"]["blocks"]] == ["section"]
    assert "Deadline" not in bodies["matrix"]["text"] + bodies["matrix"]["html"]
    assert bodies["json"]["deadline"] is None


def test_a_message_of_no_phase_is_titled_by_the_campaign_alone():
    body = payload("discord", message(phase="", turn=""))
    assert body["embeds"][0]["title"] == "Vienna 1805"


# -- the limits ------------------------------------------------------------------------


def test_cut_keeps_what_fits_and_marks_what_it_cut():
    assert cut("abc", 3) == "abc"
    assert cut("abcd", 3) == "ab…"
    assert cut("ab😀d", 4) == "ab…"  # the emoji is two UTF-16 units: it does not fit with "…"
    assert cut("ab😀de", 5) == "ab😀…"


ODD = st.text(
    st.characters(codec="utf-8") | st.sampled_from("😀&<>@*_`|\n"),
    max_size=300,
)
LONG = st.builds(lambda part, n: part * n, ODD.filter(bool), st.integers(1, 400)) | ODD


@given(text=LONG, name=LONG, label=LONG)
def test_discord_keeps_within_its_limits(text, name, label):
    body = payload("discord", message(text=text, campaign=name or "x", deadline_label=label))
    (embed,) = body["embeds"]
    (field,) = embed["fields"]
    limits = {
        embed["title"]: 256,
        embed["description"]: 4096,
        field["name"]: 256,
        field["value"]: 1024,
    }
    for value, limit in limits.items():
        assert units(value) <= limit
    assert units(embed["title"] + embed["description"] + field["name"] + field["value"]) <= 6000
    title = f"{name or 'x'} · Naval phase"
    for value, whole in ((embed["description"], text), (embed["title"], title)):
        assert value == whole or (value.endswith("…") and whole.startswith(value[:-1]))
    assert body["allowed_mentions"] == {"parse": []}


@given(text=LONG, name=LONG)
def test_slack_keeps_within_its_limits_and_makes_no_mention(text, name):
    body = payload("slack", message(text=text, campaign=name or "x"))
    assert units(body["blocks"][0]["text"]["text"]) <= 3000
    assert units(body["text"]) <= 40000
    for shown in (body["text"], body["blocks"][0]["text"]["text"]):
        assert "<!" not in shown and "<@" not in shown and "<#" not in shown


@given(text=LONG, name=LONG)
def test_matrix_html_holds_only_couriers_tags(text, name):
    body = payload("matrix", message(text=text, campaign=name or "x"))
    parsed = Tags()
    parsed.feed(body["html"])
    assert {tag for tag, _ in parsed.tags} <= {"a", "strong", "br"}
    assert [attrs for tag, attrs in parsed.tags if tag == "a"] == [{"href": URL}]
    assert "@room" not in (body["text"] + body["html"]).lower()
