"""Log sentences that each reader gets in their own language.

The rule procedures write the campaign log in the rules' own words, English. A
``Text`` is that English sentence (it is a ``str``: tests, exports and the verify page
read it as before) and also what another language needs to say it: its ``msgid``, a
Python-format string the catalogs translate, and its parameters (names of powers and
areas, numbers, or other Texts). The log stores both (``message``) and shows each
reader the sentence in the active language (rules/translation.py: this module imports
no Django, so the pure procedures may use it).

    Text("%(power)s sponsors a revolt in %(area)s", power="Great Britain", area="Tyrol")
    Plural("%(count)s guerrilla factor", "%(count)s guerrilla factors", count=3)

``Text`` and ``Plural`` are extraction keywords of ``manage.py makemessages``
(campaign/management/commands/makemessages.py), so their literal msgids reach the
catalogs. A msgid that is not a literal (``Join`` of parts) is not translated itself,
only its parts.
"""

from __future__ import annotations

from typing import Any, Self


class Text(str):
    """An English log sentence with its msgid and parameters (see the module docstring)."""

    msgid: str
    plural: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> Text:
        return cls._make(msgid, "", params, msgid)

    @classmethod
    def _make(cls, msgid: str, plural: str, params: dict, english: str) -> Self:
        if params:  # without them the msgid is the text, and its % signs are literal
            english = english % {
                k: str.__str__(v) if isinstance(v, Text) else v for k, v in params.items()
            }
        text = super().__new__(cls, english)
        text.msgid, text.plural, text.params = msgid, plural, params
        return text

    def __reduce__(self):
        return _rebuild, (self.message(),)

    def message(self) -> dict:
        """The JSON form the log stores: {"id", "plural"?, "params"}."""
        out: dict[str, Any] = {"id": self.msgid}
        if self.plural:
            out["plural"] = self.plural
        out["params"] = {k: message_of(v) or v for k, v in self.params.items()}
        return out


def Plural(singular: str, plural: str, /, *, count: int, **params: Any) -> Text:  # noqa: N802
    """A Text whose msgid depends on ``count`` (ngettext)."""
    english = singular if count == 1 else plural
    return Text._make(singular, plural, {"count": count, **params}, english)


def Join(*parts: Any, sep: str = "") -> Text:  # noqa: N802
    """Parts (Texts or plain values) one after the other: each part is translated, and
    the joining too where ``sep`` is a Text (``CLAUSES``)."""
    keys = [f"p{i}" for i in range(len(parts))]
    params = dict(zip(keys, parts, strict=True))
    joint = "%(sep)s" if isinstance(sep, Text) else sep.replace("%", "%%")
    msgid = joint.join(f"%({k})s" for k in keys)  # no literal: nothing for the catalogs
    return Text(msgid, sep=sep, **params) if isinstance(sep, Text) else Text(msgid, **params)


# Translators: what separates the clauses of a log sentence ("2 hits; 1 miss"). Greek
# writes the ano teleia ("· "): its ";" is the question mark.
CLAUSES = Text("; ")


def message_of(text: Any) -> dict | None:
    """The stored form of a log text: its message if it is a Text, else None."""
    return text.message() if isinstance(text, Text) else None


def is_message(value: Any) -> bool:
    """Whether a stored value is a message (a Text's JSON form)."""
    return isinstance(value, dict) and "id" in value and "params" in value


def _rebuild(message: dict) -> Text:
    params = {k: _rebuild(v) if is_message(v) else v for k, v in message["params"].items()}
    if message.get("plural"):
        count = int(params.pop("count"))
        return Plural(message["id"], message["plural"], count=count, **params)
    return Text(message["id"], **params)
