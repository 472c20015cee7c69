"""A line of a campaign's log as the rule resolvers write it, before it is stored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.modifiers import RollReport

GM = "GM"  # the rule of a log line written for a GM edit


@dataclass(frozen=True)
class LogLine:
    """One line of the campaign log: which rule, what happened, and the roll if any.

    ``audience`` limits the full text to these powers (and the GM and observers); every
    other player reads ``redacted`` instead, or nothing when it is empty. An empty
    audience is everyone: hidden-information games name their secrets only this way.
    """

    rule: str
    text: str
    power: str | None = None
    area: str | None = None
    roll: RollReport | None = None
    audience: tuple[str, ...] = ()
    redacted: str = ""


@dataclass(frozen=True)
class Change:
    """What a GM edit logs (campaign/play/gm_edits.py): its sentence, and for an edit of hidden
    state, the powers who read it in full and what the others read instead."""

    text: str
    audience: tuple[str, ...] = ()  # empty: everyone reads the text
    redacted: str = ""


class Logbook:
    """What every ruleset's World does with its log (its dataclass declares ``log``)."""

    log: list[LogLine]

    def say(self, rule: str, text: str, **fields: Any) -> None:
        """Add a log line (``power``, ``area``, ``roll``, ``audience``, ``redacted``)."""
        self.log.append(LogLine(rule, text, **fields))
