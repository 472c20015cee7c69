"""What a campaign's webhook posts, in the shape the chat at its end reads: a Discord
embed, Slack blocks, a Matrix hookshot message, or Courier's own JSON fields (the
format Campaign.WebhookFormat names). Pure: a ChatMessage in, a JSON-ready dict out.

Nothing in a message may ping anyone: Discord is told to parse no mention, Slack's
control characters are escaped, and Matrix's room-wide "@room" is broken by a word
joiner. Each text is cut, with "…", to the limits of the chat that reads it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

USERNAME = "Courier"
ELLIPSIS = "…"
# Discord's limits on an embed, counted in UTF-16 code units (never fewer than characters)
DISCORD_TITLE, DISCORD_DESCRIPTION, DISCORD_FIELD_NAME, DISCORD_FIELD_VALUE = 256, 4096, 256, 1024
SLACK_SECTION, SLACK_TEXT = 3000, 40000  # a section block's text, the fallback text
DISCORD_COLOURS = {"phase_opened": 0x2E7D32, "phase_resolved": 0x1D4F91}
DISCORD_OTHER_COLOUR = 0x757575
WORD_JOINER = "\u2060"


@dataclass(frozen=True)
class ChatMessage:
    """One public piece of news of a campaign, in the site's language.

    ``event``: phase_opened, phase_resolved, press or test; ``deadline``: aware, or None;
    ``at``: when it happened (aware); ``deadline_label``: the word for a deadline;
    ``extra``: more of Courier's own JSON fields (a press message's channel and author),
    which the chats do not read."""

    event: str
    campaign: str
    turn: str
    phase: str
    deadline: datetime | None
    url: str
    text: str
    at: datetime
    deadline_label: str
    extra: tuple[tuple[str, str | None], ...] = ()

    @property
    def title(self) -> str:
        return f"{self.campaign} · {self.phase}" if self.phase else self.campaign


def payload(format: str, message: ChatMessage) -> dict:
    """The body to POST for ``message`` in ``format`` (a Campaign.WebhookFormat value)."""
    try:
        shape = FORMATS[format]
    except KeyError:
        raise ValueError(f"Unknown webhook format {format!r}") from None
    return shape(message)


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` UTF-16 code units, ending with "…" when it was cut."""
    if _units(text) <= limit:
        return text
    kept, room = [], limit - _units(ELLIPSIS)
    for char in text:
        room -= _units(char)
        if room < 0:
            break
        kept.append(char)
    return "".join(kept) + ELLIPSIS


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def utc_moment(moment: datetime) -> str:
    """A moment as every reader can read it without a time zone: 2025-03-01 20:00 UTC."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _unix(moment: datetime) -> int:
    return int(moment.timestamp())


# -- the formats -----------------------------------------------------------------------


def discord(message: ChatMessage) -> dict:
    """An embed; no mention is parsed, whatever the text says."""
    embed = {
        "title": cut(message.title, DISCORD_TITLE),
        "description": cut(message.text, DISCORD_DESCRIPTION),
        "url": message.url,
        "timestamp": message.at.isoformat(),
        "color": DISCORD_COLOURS.get(message.event, DISCORD_OTHER_COLOUR),
    }
    if message.deadline is not None:
        unix = _unix(message.deadline)
        embed["fields"] = [
            {
                "name": cut(message.deadline_label, DISCORD_FIELD_NAME),
                "value": cut(f"<t:{unix}:F> (<t:{unix}:R>)", DISCORD_FIELD_VALUE),
            }
        ]
    return {"username": USERNAME, "embeds": [embed], "allowed_mentions": {"parse": []}}


def slack_escape(text: str) -> str:
    """Slack's escaping of its control characters: &, < and >."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(message: ChatMessage) -> dict:
    """The fallback ``text`` and blocks: the linked title and text, the deadline as a
    date Slack shows in each reader's time zone."""
    title, text = slack_escape(message.title), slack_escape(message.text)
    link = f"<{message.url}|{title}>"
    blocks = [
        {
            "type": "section",
            "text": {"type": "mrkdwn", "text": cut(f"{link}\n{text}", SLACK_SECTION)},
        }
    ]
    if message.deadline is not None:
        label = slack_escape(message.deadline_label)
        when = slack_date(message.deadline)
        blocks.append(
            {"type": "context", "elements": [{"type": "mrkdwn", "text": f"{label}: {when}"}]}
        )
    return {"text": cut(f"{title}: {text}", SLACK_TEXT), "blocks": blocks}


def slack_date(moment: datetime) -> str:
    """Slack's date markup: shown in each reader's time zone, else in UTC."""
    return f"<!date^{_unix(moment)}^{{date_long_pretty}} {{time}}|{utc_moment(moment)}>"


ROOM_MENTION = re.compile(r"@(room)", re.IGNORECASE)  # Matrix reads @room in any case


def _no_room_mention(text: str) -> str:
    return ROOM_MENTION.sub(f"@{WORD_JOINER}\\1", text)


def matrix(message: ChatMessage) -> dict:
    """A hookshot generic webhook's message: plain text, its HTML, the sender's name."""
    lines = [message.title, message.text]
    if message.deadline is not None:
        lines.append(f"{message.deadline_label}: {utc_moment(message.deadline)}")
    plain = "\n".join([*lines, message.url])
    title, *rest = (html.escape(line) for line in lines)
    link = f'<a href="{html.escape(message.url)}"><strong>{title}</strong></a>'
    marked = "<br>".join([link, *rest])
    return {
        "text": _no_room_mention(plain),
        "html": _no_room_mention(marked),
        "username": USERNAME,
    }


def courier_json(message: ChatMessage) -> dict:
    """Courier's own fields, as every integration written for them reads them."""
    return {
        "event": message.event,
        "campaign": message.campaign,
        "turn": message.turn,
        "phase": message.phase,
        "deadline": message.deadline.isoformat() if message.deadline else None,
        "url": message.url,
        "text": message.text,
        **dict(message.extra),
    }


FORMATS: dict[str, Callable[[ChatMessage], dict]] = {
    "discord": discord,
    "slack": slack,
    "matrix": matrix,
    "json": courier_json,
}
