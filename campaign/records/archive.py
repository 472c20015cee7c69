"""Export and import of a whole campaign as one JSON document, and its game state alone.

The format ("courier-campaign", version 2)
==========================================

One JSON object, written by ``dumps()`` (sorted keys, two-space indent, UTF-8 text, a
final newline), so that export → import → export gives the same bytes::

    {
      "format": "courier-campaign",
      "version": 2,
      "campaign": {name, ruleset, scenario, setup, options, dice_mode, turn,
                   phase: [turn, position] | null, version, secret, ended_at,
                   auto_resolve, deadline_hours, reveal_gm_orders, created_by,
                   created_at},
      "powers":    [{key, name, color, sort, absent}],          # the cast
      "areas":     [{key, name, kind, x, y}],                   # the map
      "adjacency": [{a, b, kind}],
      "seats":     [{role, power, user, created_at}],
      "phases":    [{turn, position, key, status, opened_at, deadline, resolved_at,
                     resolved_by, seed, seed_hash, paused_remaining, failure}],
      "orders":    [{phase, power, payload, ready, submitted_by, updated_at}],
      "rolls":     [{phase, index, rule, purpose, power, area, faces, modifiers, total,
                     outcome, explanation, purpose_message, explanation_message}],
      "events":    [{phase, turn, kind, rule, text, audience, redacted, message,
                     redacted_message, actor, power, roll, created_at}],
      "channels":  [{kind, key, members, created_at}],              # the press
      "messages":  [{channel, author, author_placeholder, power, turn, phase, text,
                     created_at}],
      "state":     {...},                                       # see below
      "withheld":  {sealed_orders: {phase, powers}, private_press: true,
                    dice_seed: [turn, position]}  # if any
      "notes":     [{phase, text}]          # the reader's own, in a reader's download
    }

(Seats have a ``user_placeholder`` and events an ``actor_placeholder`` beside the user,
and the campaign its ``imports``: see "Import" below.)

A row's keys are its model's field names (campaign/models/), every concrete field but
the database id, the campaign it belongs to and the secrets below. A field added to a
model later is exported by the same rule; an archive without it imports with the field's
default. A field that moves to another row bumps the version, and a ruleset's storage
says how the state of an archive of an earlier version reads in the next
(``Storage.state_upgrades``, campaign/state/storage.py), so that every version from 1 imports:
version 2 moved the fields of ``state``'s powers and areas that were one ruleset's to
that ruleset's tables. Rows never carry database ids; they name each other by natural
keys:

==============  ===============================================================
a reference to  is written as
==============  ===============================================================
a power         its key: ``"france"``
an area         its key: ``"palatinate"``
a phase         ``[turn, position]``: ``[3, 1]``
a block         its name (unique in a campaign): a block's ``carried_by``
a roll          its position in ``rolls``, from 0: an event's ``roll``
a user          the username, or null (users are named, not exported)
==============  ===============================================================

Lists keep the order in which their rows were created (the log shows newest first by
that order). Times are ISO 8601 strings in UTC with microseconds, durations ISO 8601
durations (``"P0DT05H00M00S"``), restored exactly. JSON fields (``setup``, ``options``,
``payload``, ``faces``, ``modifiers``, ``data``…) are copied as they are, except where
an order's payload or a state row names a piece by its database id (where the
ruleset's storage module says: campaign/state/storage.py):
there the archive names it by its natural key (its table's ``ref`` fields, as a block by
its name, or else its position in its ``state`` list) and ``null`` for a piece no longer
in play.

Secrets. Seat invitation tokens are never exported (every imported seat gets a fresh
one), nor the campaign's webhook URL (it carries its channel's token: set it again
after an import). A phase's dice seed is exported once its dice are rolled (resolved,
or waiting for a decision); a phase still open exports ``"seed": null, "seed_hash":
null``, and so does a phase waiting for a decision in the GM's download (its answer rolls
on with that seed; the GM may play a power), which its ``withheld`` says. An archive
whose phase waits for a decision is imported only on the importer's word
(``--trust-waiting-seed``: the file's seed decides the dice after the answer). The
campaign's ``secret`` (64 hexadecimal digits: it orders the hidden draws, revealed only
when the campaign ends) is exported with its ``ended_at``. Whatever the
file says of them, an import draws what decides the future afresh (see "Import").
Everything else is in the file, every power's hidden state and orders included: only
the GM may download it.

What a file leaves out, it says (``withheld``, absent when nothing is): the GM's
download for a GM who plays and has not sealed their own orders leaves out the other
powers' orders of the open phase (``"sealed_orders": {"phase": [turn, position],
"powers": [keys]}``), and one for a GM who does not read the private press leaves out
its channels (``"private_press": true``). ``manage.py export_campaign`` leaves out nothing.

The press. ``channels`` lists each channel that has a message, with its member powers'
keys (``[]`` for the public channel, one for a power's channel with the GM, two or more
for a private one); its ``key`` names it as campaign/press/press.py does ("public",
"gm-<power>", the members' keys in order joined by "+"), and a message names its channel
by that key, its author by username and the power it was written as (null: the GM).
The GM's download from the dashboard holds only the channels the GM reads: when the GM
does not read the private press (Campaign.gm_reads_private, the default), the private
channels are left out, as the players are told; ``manage.py export_campaign`` (run by
whoever runs the server, who holds the database anyway) exports every channel. Read
markers are each user's own and are not exported: an imported campaign's press is all
unread.

Notes. A reader's download (the GM's, from the dashboard) holds that reader's own
private notes (campaign/press/notes.py), if any: ``notes`` lists them, the campaign's first
(``phase`` null), then each phase's in phase order, with their ``text``. Nobody else's
notes are in any file, nor are any in ``manage.py export_campaign``'s; an import reads
past them: they are their writer's, not the campaign's.

``state`` is the game state alone, everything the phases and the GM's edits change
(``state_of()``; the same object serves per-phase snapshots and rollback)::

    {
      "powers": [{key}],                                 # the rest of each power
      "areas":  [{key, home_power, controller, capital}],
      "relations": [{a, b, kind}],                       # war and alliance
      ...                                # each ruleset's tables: rules/<ruleset>/storage.py
    }

An export holds the tables of its campaign's ruleset (and any other that has rows); a
table left out of a state is empty. ``state_of(campaign, ids=True)`` — for snapshots
restored in the same database, never for a file — adds ``"ids": true`` and each row's
database ``id``, and leaves the ids inside a pending decision as they are:
``restore_state`` then gives every piece back its id, so that the ids inside saved
order payloads stay right.

Import
======

An archive is data, never authority: it may be forged, so nothing in it decides the
future of the copy, names a person of this site, or exhausts the server.

Reading (``read_archive``): a text larger than ``settings.ARCHIVE_MAX_BYTES`` (20 MiB by
default; environment ``COURIER_ARCHIVE_MAX_BYTES``) is refused before it is parsed, and
so is one whose arrays and objects nest deeper than ``MAX_DEPTH`` (64; an export nests
about 8 deep), which would otherwise exhaust the parser's recursion.

``import_archive(data, gm=None, name=None, users=None, by_name=False)`` (and
``import_campaign``, which returns only the campaign) checks the whole document first:
the format marker and version, a known ruleset, its phase keys and options, each field's
type, choices and limits, and that every reference resolves (powers, areas, phases,
rolls, audiences, the rows and keys a ruleset's tables name, the pieces in payloads).
``ArchiveError`` lists every problem found; nothing is created unless the whole campaign
is, in one transaction (a database constraint the checks missed is refused the same way).

Renewed on import: a new campaign ``secret`` (unless the campaign has ended: its secret
is public then, and its draws stay checkable), and a new seed, seed hash and dice
context for every phase still open for orders, whatever the file holds for them (a
forged seed would let its author predict every roll). Phases resolved, or waiting for a
decision (on the importer's word), keep theirs, so their dice still verify. A campaign
under way logs the new commitment (the secret's SHA-256 for a ruleset with hidden
draws, as the start does); the campaign page shows the open phase's new seed hash.
``Campaign.imports`` gains an entry ``{"at", "secret": renewed?, "seeds": [[turn,
position], ...]}``, exported with the campaign: export → import → export gives the
same file but for these, the new secret, the open phase's dice context and the log line.

People: users are never matched by user name alone. Each name the archive gives (a
seat's user, a log line's actor, a message's author, an order's submitter, a phase's
resolver, the creator, and the placeholders of an earlier import) goes to a user of
this site only when whoever imports confirms it: ``users`` maps archive names to users,
``by_name`` confirms every name that is also a user name here. A seat, actor or author
not confirmed becomes a placeholder: no user, the archive's name in its
``*_placeholder`` field, shown as "(imported) name"; each such seat waits for its fresh
invitation link (the GM dashboard lists them). A submitter, resolver or creator not
confirmed is left empty. With ``gm``, that user takes the GM seat (one is added if the
archive has none) and is the campaign's creator; a seat the archive gives the same user
stays open. ``name`` replaces the archive's campaign name. ``ImportReport`` says what was
mapped and what was not, with counts, the invitation links and what was renewed.

Collisions: an import is refused when a campaign of the same name (ignoring case)
already has the same GM user — the ``gm`` given, else the archive's GM if confirmed;
two campaigns without a GM user count as having the same GM. Give another ``name`` to
import a second copy.

A ruleset that keeps database ids inside JSON must say where in its storage module. Each
phase whose dice are rolled keeps the dice context it was given when it opened, so an
imported copy verifies and replays the rolls made before the export.

The per-phase snapshots and decision records (campaign/state/history.py) are not exported:
they hold this database's ids. An imported campaign's history pages, rollback and replay
begin at the import, which snapshots its open phase (unless it waits for a decision).
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_duration

from campaign.core import sealing
from campaign.core.changes import log
from campaign.errors import ServiceError
from campaign.models import (
    AccessToken,
    Adjacency,
    Area,
    CalendarFeed,
    Campaign,
    CampaignMap,
    Channel,
    DecisionRecord,
    Event,
    Extension,
    Handover,
    Heartbeat,
    InputRecord,
    MailChoice,
    Message,
    NewGmRequest,
    Note,
    Order,
    Phase,
    PhaseSnapshot,
    Power,
    PowerRelation,
    Profile,
    PushSubscription,
    ReadMarker,
    ReceivedMail,
    RefusalAnswered,
    Reliability,
    ReminderSent,
    RollRecord,
    Seat,
    SeatRequest,
    Tenure,
    Turnout,
)
from campaign.notify import outgoing
from campaign.press import notes, press
from campaign.state import history
from campaign.state.archive_rows import (
    AREA_IDENTITY,
    POWER_IDENTITY,
    archived_fields,
    auto_times,
    encode,
    encoded,
    has_auto_id,
    ref_key,
    row_ref,
    to_ref,
    translate,
    translate_rows,
)
from campaign.state.storage import (
    Table,
    key_fields,
    named_tables,
    piece_paths,
    state_tables,
    storage_of,
    table_of,
)
from rules.dice import new_seed, seed_hash
from rules.engine import registry
from rules.text import Text

FORMAT = "courier-campaign"
VERSION = 2
FIRST_VERSION = 1  # an earlier version's state reads as this one's: Storage.state_upgrades
MAX_PROBLEMS = 30  # listed in an ArchiveError's message; the rest are counted (``messages``)
MAX_DEPTH = 64  # arrays and objects inside each other: an export nests about 8 deep
DEFAULT_MAX_BYTES = 20 * 1024 * 1024

NULL_IN_ARCHIVE = {(Phase, "seed"), (Phase, "seed_hash")}  # secret: a fresh one on import


class ArchiveError(ServiceError):
    """An archive that cannot be imported (or a state that cannot be restored); ``messages``
    lists every problem found, the message says them all."""

    def __init__(self, problems: str | Iterable[str]):
        self.messages = [problems] if isinstance(problems, str) else list(problems)
        shown = self.messages[:MAX_PROBLEMS]
        more = len(self.messages) - len(shown)
        text = "; ".join(shown) + (f"; and {more} more" if more else "")
        if len(self.messages) > 1:
            text = f"{len(self.messages)} problems: {text}"
        super().__init__(text if text.endswith(".") else f"{text}.")


HISTORY = ("phases", "orders", "rolls", "events")
# Fields an archive of an earlier Courier may carry that no model has any more: read and
# ignored (a phase's reminders now count per reader: campaign/models/mail.py ReminderSent).
RETIRED_FIELDS = {Phase: {"reminders_sent"}}
TOP_LEVEL = ("format", "version", "campaign", "powers", "areas", "adjacency", "seats")
TOP_LEVEL += (*HISTORY, "state", "channels", "messages", "withheld")
TOP_LEVEL += ("notes",)  # the reader's own: not imported
# Every model of the campaign app is in the archive (with the state tables,
# archived_models()); a new one must be added, or listed here as deliberately left out,
# with the reason.
CORE_MODELS = {Campaign, Power, Area, Adjacency, Seat, Phase, Order, RollRecord, Event}
CORE_MODELS |= {Channel, Message}
NOT_ARCHIVED = {Profile: "a user's own preferences, not part of any campaign"}
NOT_ARCHIVED[ReadMarker] = "how far each user has read the press: their own, not the campaign's"
NOT_ARCHIVED[PhaseSnapshot] = (
    "this database's copies of the state (with its database ids) for the history pages, "
    "rollback and replay; an imported campaign's history starts at its import"
)
NOT_ARCHIVED[DecisionRecord] = "the answers a replay feeds back: they go with the snapshots"
NOT_ARCHIVED[InputRecord] = "the inputs a replay applies again: they go with the snapshots"
NOT_ARCHIVED[SeatRequest] = "requests from the lobby for a seat, between users and this site"
NOT_ARCHIVED[CampaignMap] = "drawn from the areas' points: build_map --campaign draws it again"
NOT_ARCHIVED[MailChoice] = "the mail each user wants from the campaign: their own choice"
NOT_ARCHIVED[ReminderSent] = "the reminders this site mailed, for deadlines of its own"
NOT_ARCHIVED[ReceivedMail] = "the answers by mail this site received, kept against replays"
NOT_ARCHIVED[RefusalAnswered] = "whom this site told it could not act on a mail, and when"
NOT_ARCHIVED[Tenure] = "which of this site's users played which power, and when"
NOT_ARCHIVED[Reliability] = "a user's record on this site, across campaigns"
NOT_ARCHIVED[Turnout] = "what this site counted in each user's record, to undo on a rollback"
NOT_ARCHIVED[Extension] = "the extensions taken on this site: an import starts the budgets anew"
NOT_ARCHIVED[Note] = "each user's private notes: in that user's own download only, not imported"
NOT_ARCHIVED[Handover] = "offers of the campaign between this site's users"
NOT_ARCHIVED[NewGmRequest] = "players' requests to this site's admins for a new GM"
NOT_ARCHIVED[PushSubscription] = "a user's devices on this site, not part of any campaign"
NOT_ARCHIVED[CalendarFeed] = "a user's secret calendar address on this site"
NOT_ARCHIVED[AccessToken] = "a user's API tokens on this site"
NOT_ARCHIVED[Heartbeat] = "when this site's clock and task worker were last seen running"


def archived_models() -> set[type[models.Model]]:
    """Every model an archive holds rows of: the core ones and the state tables'."""
    return CORE_MODELS | {table.model for table in state_tables()}


@functools.cache
def _key_fields() -> dict:
    """JSON lists and slugs that hold keys: (model, field) → what they name."""
    return {(Event, "audience"): Power, **key_fields()}


def dumps(data: dict) -> str:
    """The archive as text: the same data always gives the same bytes."""
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def max_bytes() -> int:
    """The largest archive this server reads, in bytes (settings.ARCHIVE_MAX_BYTES)."""
    return int(getattr(settings, "ARCHIVE_MAX_BYTES", DEFAULT_MAX_BYTES))


def refuse_size(size: int) -> None:
    """ArchiveError for an archive of ``size`` bytes larger than ``max_bytes()``: called
    before reading it, where its size is known (a file's), and by ``read_archive``."""
    if size > max_bytes():
        raise ArchiveError(
            f"The archive is {size:,} bytes, more than the {max_bytes():,} this server reads "
            "(settings.ARCHIVE_MAX_BYTES, COURIER_ARCHIVE_MAX_BYTES): nothing was read"
        )


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _refuse_depth(text: str) -> None:
    """ArchiveError for JSON text whose arrays and objects nest deeper than MAX_DEPTH
    (brackets inside strings do not count), before the parser recurses into it."""
    depth = 0
    for bracket in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ArchiveError(
                    f"The archive nests arrays and objects more than {MAX_DEPTH} deep (an "
                    "export nests about 8): it was not parsed"
                )
        else:
            depth -= 1


def read_archive(text: str | bytes) -> Any:
    """Archive data from its text (UTF-8 bytes, or str), refused with ArchiveError before
    it is parsed when it is larger than ``max_bytes()`` or nested deeper than MAX_DEPTH,
    and when it is not UTF-8 or not JSON. Nothing is written either way."""
    if isinstance(text, bytes):
        refuse_size(len(text))
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ArchiveError(f"The archive is not UTF-8 text (byte {error.start})") from None
    else:
        refuse_size(len(text.encode("utf-8")))
    _refuse_depth(text)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ArchiveError(
            f"The archive is not valid JSON (line {error.lineno}, column {error.colno}: "
            f"{error.msg})"
        ) from None
    except RecursionError:  # the depth check counts brackets: a parser's limit is lower
        raise ArchiveError("The archive nests arrays and objects too deep") from None


def archive_filename(campaign: Campaign) -> str:
    """``<slug>-turn<N>.json`` for a download."""
    from django.utils.text import slugify

    return f"{slugify(campaign.name) or 'campaign'}-turn{campaign.turn}.json"


# -- export -----------------------------------------------------------------------------


class _Reader:
    """Reads a campaign's rows in a fixed number of queries and encodes them."""

    def __init__(
        self,
        campaign: Campaign,
        withheld: frozenset[int] = frozenset(),
        press_reader: Seat | None = None,
    ):
        self.campaign = campaign
        self.withheld = withheld  # powers whose orders for the open phase are left out
        self.press_reader = press_reader  # None: every channel of the press
        self.private_left_out = False  # the press_reader's file leaves out private channels
        self.refs: dict = {}
        self.user_ids: set[int] = set()
        self.powers = self._raw(Power, "campaign", archived_fields(Power))
        self.areas = self._raw(Area, "campaign", archived_fields(Area))
        self.phases = self._raw(Phase, "campaign", archived_fields(Phase))
        self.refs[Power] = {r["pk"]: r["key"] for r in self.powers}
        self.refs[Area] = {r["pk"]: r["key"] for r in self.areas}
        self.refs[Phase] = {r["pk"]: (r["turn"], r["position"]) for r in self.phases}

    def _raw(self, model, scope: str, fields: list) -> list[dict]:
        rows = list(
            model.objects.filter(**{scope: self.campaign})
            .order_by("pk")
            .values("pk", *(f.attname for f in fields))
        )
        for f in fields:
            if f.is_relation and f.related_model is get_user_model():
                self.user_ids.update(r[f.attname] for r in rows if r[f.attname] is not None)
        return rows

    def load_users(self) -> None:
        User = get_user_model()
        missing = self.user_ids - set(self.refs.get(User, {}))
        if missing:
            names = User.objects.filter(pk__in=missing).values_list("pk", User.USERNAME_FIELD)
            self.refs.setdefault(User, {}).update(names)
        self.refs.setdefault(User, {})

    def tables(self) -> list[Table]:
        """The ruleset's tables and any other with rows."""
        return [
            t
            for t in state_tables()
            if t.ruleset in (None, self.campaign.ruleset)
            or t.model.objects.filter(**{t.scope: self.campaign}).exists()
        ]

    def state(self, *, ids: bool) -> tuple[dict, dict]:
        """The state object, and each piece table's {database id: reference}."""
        tables = self.tables()
        raw = {t.key: self._raw(t.model, t.scope, archived_fields(t.model)) for t in tables}
        for t in named_tables():
            self.refs[t.model] = {r["pk"]: r[t.names] for r in raw.get(t.key, [])}
        self.load_users()
        power_fields = archived_fields(Power, skip=POWER_IDENTITY[1:])
        area_fields = archived_fields(Area, skip=AREA_IDENTITY[1:])
        state: dict = {
            "powers": [encode(power_fields, r, self.refs) for r in self.powers],
            "areas": [encode(area_fields, r, self.refs) for r in self.areas],
        }
        pieces: dict[str, dict] = {}
        for t in tables:
            fields = archived_fields(t.model)
            rows = [encode(fields, r, self.refs) for r in raw[t.key]]
            pairs = enumerate(zip(raw[t.key], rows, strict=True))
            pieces[t.key] = {r["pk"]: row_ref(t, row, i) for i, (r, row) in pairs}
            if ids and has_auto_id(t.model):
                rows = [{"id": r["pk"], **row} for r, row in zip(raw[t.key], rows, strict=True)]
            state[t.key] = rows
        if ids:
            state["ids"] = True
        else:
            naming = to_ref(pieces)
            for t in tables:
                state[t.key] = translate_rows(state[t.key], self.campaign.ruleset, t.key, naming)
        return state, pieces

    def archive(self) -> dict:
        c = self.campaign
        campaign_fields = archived_fields(Campaign)
        (campaign_raw,) = Campaign.objects.filter(pk=c.pk).values(
            *(f.attname for f in campaign_fields)
        )
        if campaign_raw["created_by_id"] is not None:
            self.user_ids.add(campaign_raw["created_by_id"])
        adjacency_fields, seat_fields = archived_fields(Adjacency), archived_fields(Seat)
        order_fields, roll_fields, event_fields = (
            archived_fields(Order),
            archived_fields(RollRecord),
            archived_fields(Event),
        )
        adjacency = self._raw(Adjacency, "campaign", adjacency_fields)
        seats = self._raw(Seat, "campaign", seat_fields)
        orders = self._raw(Order, "campaign", order_fields)
        rolls = self._raw(RollRecord, "campaign", roll_fields)
        events = self._raw(Event, "campaign", event_fields)
        channels, messages = self.press()
        self.refs[RollRecord] = {r["pk"]: i for i, r in enumerate(rolls)}
        state, pieces = self.state(ids=False)
        phase_fields = archived_fields(Phase)
        phases = []
        for raw in self.phases:
            row = encode(phase_fields, raw, self.refs)
            if row["status"] == Phase.Status.OPEN or self.dice_ahead(row):
                row["seed"] = row["seed_hash"] = None  # secret while its dice are ahead
            phases.append(row)
        orders_out = []
        for raw in orders:
            if raw["phase_id"] == c.phase_id and raw["power_id"] in self.withheld:
                continue
            row = encode(order_fields, raw, self.refs)
            row["payload"] = translate(row["payload"], c.ruleset, "orders", to_ref(pieces))
            orders_out.append(row)
        return {
            "format": FORMAT,
            "version": VERSION,
            "campaign": encode(campaign_fields, campaign_raw, self.refs),
            "powers": [
                encode(archived_fields(Power, POWER_IDENTITY), r, self.refs) for r in self.powers
            ],
            "areas": [
                encode(archived_fields(Area, AREA_IDENTITY), r, self.refs) for r in self.areas
            ],
            "adjacency": [encode(adjacency_fields, r, self.refs) for r in adjacency],
            "seats": [encode(seat_fields, r, self.refs) for r in seats],
            "phases": phases,
            "orders": orders_out,
            "rolls": [encode(roll_fields, r, self.refs) for r in rolls],
            "events": [encode(event_fields, r, self.refs) for r in events],
            "channels": channels,
            "messages": messages(),
            "state": state,
            **self.withheld_mark(orders),
        }

    def dice_ahead(self, phase: dict) -> bool:
        """In the GM's download, a phase that waits for a decision, whose answer rolls on
        with its seed: left out, as the verify pages keep it (the GM may play a power)."""
        waiting = phase["status"] == Phase.Status.WAITING and self.campaign.ended_at is None
        return waiting and self.press_reader is not None

    def withheld_mark(self, orders: list[dict]) -> dict:
        """``{"withheld": …}`` saying what this file leaves out, or nothing."""
        mark: dict = {}
        waiting = [p for p in self.phases if self.dice_ahead(p)]
        if waiting:
            mark["dice_seed"] = [waiting[0]["turn"], waiting[0]["position"]]
        phase = self.campaign.phase_id
        left_out = {r["power_id"] for r in orders if r["phase_id"] == phase} & self.withheld
        if left_out:
            mark["sealed_orders"] = {
                "phase": list(self.refs[Phase][phase]),
                "powers": sorted(self.refs[Power][power] for power in left_out),
            }
        if self.private_left_out:
            mark["private_press"] = True
        return {"withheld": mark} if mark else {}

    def press(self) -> tuple[list[dict], Any]:
        """The channels (those ``press_reader`` reads, if given) with their members, and
        a function that gives their messages encoded once the users are loaded."""
        found = Channel.objects.filter(campaign=self.campaign)
        if self.press_reader is not None:
            every = found
            found = press.readable(self.press_reader)
            self.private_left_out = every.exclude(pk__in=found.values("pk")).exists()
        fields = archived_fields(Channel)
        rows = list(found.order_by("pk").values("pk", *(f.attname for f in fields)))
        self.refs[Channel] = {r["pk"]: r["key"] for r in rows}
        members: dict[int, list[str]] = {r["pk"]: [] for r in rows}
        links = Channel.members.through.objects.filter(channel_id__in=members)
        for channel_id, power_id in links.values_list("channel_id", "power_id"):
            members[channel_id].append(self.refs[Power][power_id])
        channels = [
            {**encode(fields, r, self.refs), "members": sorted(members[r["pk"]])} for r in rows
        ]
        message_fields = archived_fields(Message)
        raw = self._raw(Message, "campaign", message_fields)
        kept = [r for r in raw if r["channel_id"] in self.refs[Channel]]
        return channels, lambda: [encode(message_fields, r, self.refs) for r in kept]


def export_campaign(campaign: Campaign, *, reader: Seat | None = None) -> dict:
    """The whole campaign as archive data (format version 2, see the module docstring);
    for a ``reader`` (the GM's seat), without the open phase's orders it may not read yet
    (campaign/core/sealing.py) and without the press it does not read (campaign/press/press.py),
    which its ``withheld`` section says, and with the reader's own notes.

    Reads under the campaign's row lock, so a phase resolving meanwhile waits and the
    archive is one consistent moment of the campaign."""
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        withheld = sealing.withheld_powers(reader, locked.phase) if reader else frozenset()
        data = _Reader(locked, withheld, reader).archive()
        mine = notes.exported(locked.pk, reader.user_id) if reader and reader.user_id else []
        return {**data, "notes": mine} if mine else data


def state_of(campaign: Campaign, *, ids: bool = False) -> dict:
    """The campaign's game state (the archive's ``state``): powers' and areas' changing
    fields, relations and the ruleset's tables. ``ids``: with each piece's database id,
    for a snapshot to restore in this database."""
    reader = _Reader(campaign)
    state, _ = reader.state(ids=ids)
    return state


# -- reading an archive -----------------------------------------------------------------

_BAD = object()
TEXT_FIELDS = (models.CharField, models.TextField)


class Checker:
    """Checks archive rows against the models, collecting every problem.

    A decoded row maps field names to Python values; relations stay natural keys (phases
    as (turn, position) tuples) until ``Writer`` turns them into ids. ``known`` holds,
    per related model, the natural keys a reference may name."""

    def __init__(self, ruleset: str):
        self.ruleset = ruleset
        self.problems: list[str] = []
        self.known: dict = {}
        self.usernames: set[str] = set()  # every user named, to look up at once

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def rows(
        self, where: str, items: Any, model, fields: list, *, extra: Iterable[str] = ()
    ) -> list[dict]:
        if items is None:
            return []
        if not isinstance(items, list):
            self.problem(f"{where} must be a list")
            return []
        names = {f.name for f in fields} | set(extra)
        decoded = []
        for index, item in enumerate(items):
            row = self.row(f"{where}[{index}]", item, model, fields, names)
            if row is not None:
                decoded.append(row)
        return decoded

    def row(self, where: str, item: Any, model, fields: list, names: set | None = None):
        if not isinstance(item, dict):
            self.problem(f"{where} must be an object")
            return None
        names = names if names is not None else {f.name for f in fields}
        unknown = sorted(set(item) - names - RETIRED_FIELDS.get(model, set()))
        if unknown:
            self.problem(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}")
        row, bad = {}, False
        for f in fields:
            value = self.value(f"{where}.{f.name}", model, f, item)
            bad = bad or value is _BAD
            row[f.name] = value
        for name in set(item) & (names - {f.name for f in fields}):
            row[name] = item[name]
        return None if bad else row

    def value(self, where: str, model, f, item: dict) -> Any:
        if f.name not in item:
            if f.has_default() or f.null or f.blank and isinstance(f, TEXT_FIELDS):
                return f.get_default()
            if auto_times([f]):
                return timezone.now()
            self.problem(f"{where} is missing")
            return _BAD
        value = item[f.name]
        if value is None:
            if f.null or (model, f.name) in NULL_IN_ARCHIVE:
                return None
            self.problem(f"{where} may not be null")
            return _BAD
        if f.is_relation:
            return self.reference(where, f.related_model, value)
        value = self.typed(where, f, value)
        if value is _BAD:
            return _BAD
        target = _key_fields().get((model, f.name))
        if target is not None and not self.keys_known(where, target, value):
            return _BAD
        if f.choices and not (f.blank and value == "") and value not in dict(f.flatchoices):
            choices = ", ".join(repr(c) for c, _ in f.flatchoices)
            self.problem(f"{where}: {value!r} is not one of {choices}")
            return _BAD
        try:
            f.run_validators(value)
        except ValidationError as error:
            self.problem(f"{where}: {' '.join(error.messages)}")
            return _BAD
        return value

    def typed(self, where: str, f, value: Any) -> Any:
        """The value as the field holds it, or _BAD (a problem said why)."""
        if isinstance(f, models.JSONField):
            return value
        if isinstance(f, models.BooleanField):
            ok = isinstance(value, bool)
            kind = "true or false"
        elif isinstance(f, models.IntegerField):
            ok = isinstance(value, int) and not isinstance(value, bool)
            kind = "a whole number"
        elif isinstance(f, models.FloatField):
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            value = float(value) if ok else value
            kind = "a number"
        elif isinstance(f, models.DateTimeField):
            return self.moment(where, value)
        elif isinstance(f, models.DurationField):
            duration = parse_duration(value) if isinstance(value, str) else None
            ok, value = duration is not None, duration if duration is not None else value
            kind = "an ISO 8601 duration"
        elif isinstance(f, TEXT_FIELDS):
            ok = isinstance(value, str)
            kind = "text"
        else:  # dates, times, decimals…: as the field reads its text
            try:
                return f.to_python(value)
            except ValidationError as error:
                self.problem(f"{where}: {' '.join(error.messages)}")
                return _BAD
        if not ok:
            self.problem(f"{where} must be {kind}, not {value!r}")
            return _BAD
        return value

    def moment(self, where: str, value: Any) -> Any:
        try:
            moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None or moment.tzinfo is None:
            self.problem(f"{where} must be an ISO 8601 time with its UTC offset, not {value!r}")
            return _BAD
        return moment

    def reference(self, where: str, model, value: Any) -> Any:
        if model is get_user_model():
            if isinstance(value, str):
                self.usernames.add(value)
                return value
            self.problem(f"{where} must be a username or null, not {value!r}")
            return _BAD
        key = ref_key(value)
        if model is Phase and not (
            isinstance(key, tuple)
            and len(key) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in key)
        ):
            self.problem(f"{where} must be a phase as [turn, position], not {value!r}")
            return _BAD
        known = self.known.get(model, set())
        if key is None or isinstance(key, bool) or key not in known:
            self.problem(f"{where}: no {_noun(model)} {value!r}")
            return _BAD
        return key

    def keys_known(self, where: str, model, value: Any) -> bool:
        keys = value if isinstance(value, list) else [value]
        if isinstance(value, str) and value == "":
            return True
        if not all(isinstance(k, str) for k in keys):
            self.problem(f"{where} must hold {_noun(model)} keys, not {value!r}")
            return False
        unknown = [k for k in keys if k not in self.known.get(model, set())]
        for key in unknown:
            self.problem(f"{where}: no {_noun(model)} {key!r}")
        return not unknown

    def unique(self, where: str, rows: list[dict], names: tuple[str, ...]) -> None:
        seen = set()
        for row in rows:
            key = tuple(ref_key(row[n]) for n in names)
            if key in seen:
                shown = key[0] if len(key) == 1 else list(key)
                self.problem(f"{where}: {'/'.join(names)} {shown!r} is listed twice")
            seen.add(key)

    def pieces(self, where: str, obj: Any, kind: str, refs: dict[str, set]) -> None:
        """Check that the pieces a payload names (by reference) are in the state."""

        def check(value, table: str):
            key = ref_key(value)
            if value is not None and (key is None or key not in refs.get(table, set())):
                self.problem(f"{where}: no {_table_noun(table)} {value!r}")
            return value

        translate(obj, self.ruleset, kind, check)

    def state(self, state: Any) -> _StatePlan | None:
        """Check a state object; the decoded plan, or None (problems say why)."""
        if not isinstance(state, dict):
            self.problem("state must be an object")
            return None
        unknown = sorted(set(state) - {"powers", "areas", "ids", *(t.key for t in state_tables())})
        if unknown:
            self.problem(f"state: unknown table(s) {', '.join(map(repr, unknown))}")
        with_ids = state.get("ids", False)
        if not isinstance(with_ids, bool):
            self.problem("state.ids must be true or false")
            with_ids = False
        plan = _StatePlan(with_ids=with_ids)
        plan.powers = self._keyed(state, "powers", Power, POWER_IDENTITY[1:])
        plan.areas = self._keyed(state, "areas", Area, AREA_IDENTITY[1:])
        # the names and keys other state rows refer to, before those rows are read
        for t in named_tables():
            items = state.get(t.key) if isinstance(state.get(t.key), list) else []
            self.known[t.model] = {i.get(t.names) for i in items if isinstance(i, dict)}
        for t in state_tables():
            if t.key not in state:
                continue
            fields = archived_fields(t.model)
            needs_id = with_ids and has_auto_id(t.model)
            extra = ("id",) if needs_id else ()
            rows = self.rows(f"state.{t.key}", state[t.key], t.model, fields, extra=extra)
            for i, row in enumerate(rows):
                if needs_id and not (isinstance(row.get("id"), int) and row["id"] > 0):
                    self.problem(f"state.{t.key}[{i}].id must be a database id")
            plan.tables[t.key] = rows
            plan.refs[t.key] = {
                ref_key(row_ref(t, encoded(fields, row), i)) for i, row in enumerate(rows)
            }
        for t in named_tables():
            self.unique(f"state.{t.key}", plan.tables.get(t.key, []), (t.names,))
        if not with_ids:
            for key, rows in plan.tables.items():
                for i, row in enumerate(rows if piece_paths(self.ruleset, key) else ()):
                    self.pieces(f"state.{key}[{i}]", row, key, plan.refs)
        return plan

    def _keyed(self, state: dict, key: str, model, identity: tuple[str, ...]) -> list[dict]:
        """A power's or area's changing fields, by the key of one that exists."""
        rows = self.rows(
            f"state.{key}", state.get(key), model, archived_fields(model, skip=identity)
        )
        for i, row in enumerate(rows):
            if row["key"] not in self.known.get(model, set()):
                self.problem(f"state.{key}[{i}]: no {_noun(model)} {row['key']!r}")
        self.unique(f"state.{key}", rows, ("key",))
        return rows


def _noun(model) -> str:
    nouns = {Phase: "phase", RollRecord: "roll", **{t.model: t.row_noun for t in state_tables()}}
    return nouns.get(model, str(model._meta.verbose_name))


def _table_noun(table: str) -> str:
    return found.row_noun if (found := table_of(table)) else table


@dataclass
class _StatePlan:
    with_ids: bool = False

    def __post_init__(self):
        self.powers: list[dict] = []
        self.areas: list[dict] = []
        self.tables: dict[str, list[dict]] = {}
        self.refs: dict[str, set] = {}


# -- writing ----------------------------------------------------------------------------


class Writer:
    """Creates rows from decoded archive rows; ``ids`` maps each related model's natural
    keys to the new database ids, ``pieces`` each state table's references to them."""

    def __init__(self, campaign: Campaign | None, users: dict[str, int]):
        self.campaign = campaign
        self.ids: dict = {get_user_model(): users}
        self.pieces: dict[str, dict] = {}

    def obj(self, model, fields: list, row: dict, **extra) -> models.Model:
        kwargs = dict(extra)
        for f in fields:
            value = row[f.name]
            if not f.is_relation:
                kwargs[f.attname] = value
            elif f.related_model is not model:  # a carrier is set once every row exists
                kwargs[f.attname] = None if value is None else self.ids[f.related_model].get(value)
        if any(f.name == "campaign" for f in model._meta.concrete_fields):
            kwargs["campaign"] = self.campaign
        return model(**kwargs)

    def create(self, model, fields: list, rows: list[dict], *, keep_ids: bool = False) -> list:
        """bulk_create in the rows' order, then restore the times bulk_create stamped
        "now" and the references of rows to rows of the same table (by name)."""
        keep_ids = keep_ids and has_auto_id(model)
        objs = [
            self.obj(model, fields, row, **({"pk": row["id"]} if keep_ids else {})) for row in rows
        ]
        if model is PowerRelation:
            for o in objs:
                if o.a_id > o.b_id:  # stored once per pair, lower id first
                    o.a_id, o.b_id = o.b_id, o.a_id
        model.objects.bulk_create(objs)
        times = auto_times(fields)
        own = [f for f in fields if f.is_relation and f.related_model is model]
        by_name = {o.name: o.pk for o in objs} if own else {}
        for o, row in zip(objs, rows, strict=True):
            for f in times:
                setattr(o, f.attname, row[f.name])
            for f in own:
                setattr(o, f.attname, by_name.get(row[f.name]))
        if times or own:
            model.objects.bulk_update(objs, [f.name for f in (*times, *own)], batch_size=500)
        return objs

    def update(self, model, rows: list[dict], identity: tuple[str, ...]) -> None:
        """The changing fields of existing powers or areas, found by key."""
        fields = archived_fields(model, skip=identity)
        objs = [self.obj(model, fields, row, pk=self.ids[model][row["key"]]) for row in rows]
        names = [f.name for f in fields if f.name != "key"]
        if objs and names:
            model.objects.bulk_update(objs, names)

    def state(self, plan: _StatePlan, *, replace: bool, keep: Iterable[str] = ()) -> None:
        """Write a checked state; ``keep``: tables left as they are."""
        c = self.campaign
        self.update(Power, plan.powers, POWER_IDENTITY[1:])
        self.update(Area, plan.areas, AREA_IDENTITY[1:])
        tables = [
            t for t in state_tables() if t.key in plan.tables or t.ruleset in (None, c.ruleset)
        ]
        tables = [t for t in tables if t.key not in set(keep)]
        if replace:
            for t in reversed(tables):
                t.model.objects.filter(**{t.scope: c}).delete()
        for t in tables:
            rows = plan.tables.get(t.key, [])
            if not rows:
                continue
            fields = archived_fields(t.model)
            if not plan.with_ids:
                rows = translate_rows(rows, c.ruleset, t.key, self.to_id)
            objs = self.create(t.model, fields, rows, keep_ids=plan.with_ids)
            self.pieces[t.key] = {
                ref_key(row_ref(t, encoded(fields, row), i)): o.pk
                for i, (row, o) in enumerate(zip(rows, objs, strict=True))
            }

    def to_id(self, value, table: str):
        return None if value is None else self.pieces.get(table, {}).get(ref_key(value))


# -- import -----------------------------------------------------------------------------


def _check_archive(data: Any, *, name: str | None) -> tuple[Checker, dict]:
    """Every problem of an archive, and its decoded sections. What the rest is read by
    (the format, the version, the ruleset) is checked first: its problems, all of them,
    are refused before the rows are read."""
    if not isinstance(data, dict):
        raise ArchiveError("An archive is a JSON object")
    if data.get("format") != FORMAT:
        raise ArchiveError(
            f"Not a Courier campaign archive: its format is {data.get('format')!r}, "
            f"expected {FORMAT!r}"
        )
    header = []
    version = data.get("version")
    if version not in range(FIRST_VERSION, VERSION + 1) or isinstance(version, bool):
        header.append(
            f"Unknown archive version {version!r}: this Courier reads versions "
            f"{FIRST_VERSION} to {VERSION}"
        )
    section = data.get("campaign")
    if not isinstance(section, dict):
        header.append("campaign must be an object")
        section = {}
    ruleset = section.get("ruleset")
    if isinstance(data.get("campaign"), dict) and ruleset not in registry():
        header.append(
            f"Unknown ruleset {ruleset!r}: this Courier knows {', '.join(sorted(registry()))}"
        )
    if header:
        raise ArchiveError(header)
    data = _upgraded(data, version, ruleset)
    check = Checker(ruleset)
    unknown = sorted(set(data) - set(TOP_LEVEL))
    if unknown:
        check.problem(f"unknown section(s) {', '.join(map(repr, unknown))}")
    out: dict = {}
    out["powers"] = check.rows(
        "powers", data.get("powers"), Power, archived_fields(Power, POWER_IDENTITY)
    )
    out["areas"] = check.rows(
        "areas", data.get("areas"), Area, archived_fields(Area, AREA_IDENTITY)
    )
    for key in ("powers", "areas"):
        if not out[key]:
            check.problem(f"{key}: an archive needs at least one")
        check.unique(key, out[key], ("key",))
    # what references may name: every row's key, even a row refused for another field
    check.known[Power] = _keys(data.get("powers"), "key")
    check.known[Area] = _keys(data.get("areas"), "key")
    check.known[Phase] = _keys(data.get("phases"), "turn", "position")
    out["phases"] = check.rows("phases", data.get("phases"), Phase, archived_fields(Phase))
    check.unique("phases", out["phases"], ("turn", "position"))
    rules = registry()[ruleset]
    keys = {spec.key for spec in rules.phases}
    for i, phase in enumerate(out["phases"]):
        if phase["key"] not in keys:
            check.problem(f"phases[{i}].key: {ruleset} has no phase {phase['key']!r}")
        if phase["status"] != Phase.Status.OPEN and phase["seed"] is None:
            check.problem(f"phases[{i}].seed: a phase whose dice are rolled keeps its seed")
    campaign_fields = archived_fields(Campaign)
    if name is not None:
        section = {**section, "name": name}
    out["campaign"] = check.row("campaign", section, Campaign, campaign_fields)
    secret = out["campaign"]["secret"] if out["campaign"] is not None else None
    if secret is not None and not re.fullmatch(r"[0-9a-f]{64}", secret):
        check.problem("campaign.secret must be 64 hexadecimal digits (0-9, a-f)")
    imports = section.get("imports", [])
    if not (isinstance(imports, list) and all(isinstance(i, dict) for i in imports)):
        check.problem("campaign.imports must be a list of objects")
    if isinstance(section.get("name"), str) and not section["name"].strip():
        check.problem("campaign.name may not be empty")
    options = section.get("options", {})
    specs = {spec.key: spec for spec in rules.options}
    if not isinstance(options, dict):
        check.problem("campaign.options must be an object")
    else:
        for key, value in options.items():
            if key not in specs:
                check.problem(f"campaign.options: {ruleset} has no option {key!r}")
            elif value not in dict(specs[key].choices):
                check.problem(f"campaign.options.{key}: {value!r} is not a choice")
    if not isinstance(section.get("setup", {}), dict):
        check.problem("campaign.setup must be an object")
    out["adjacency"] = check.rows(
        "adjacency", data.get("adjacency"), Adjacency, archived_fields(Adjacency)
    )
    out["seats"] = check.rows("seats", data.get("seats"), Seat, archived_fields(Seat))
    usernames = [s["user"] for s in out["seats"] if s["user"] is not None]
    for username in {u for u in usernames if usernames.count(u) > 1}:
        check.problem(f"seats: user {username!r} has more than one seat")
    out["state"] = check.state(data.get("state", {}))
    refs = out["state"].refs if out["state"] is not None else {}
    out["orders"] = check.rows("orders", data.get("orders"), Order, archived_fields(Order))
    for i, order in enumerate(out["orders"]):
        check.pieces(f"orders[{i}].payload", order["payload"], "orders", refs)
    out["rolls"] = check.rows("rolls", data.get("rolls"), RollRecord, archived_fields(RollRecord))
    check.known[RollRecord] = set(range(len(out["rolls"])))
    out["events"] = check.rows("events", data.get("events"), Event, archived_fields(Event))
    out["channels"], out["messages"] = _check_press(check, data)
    out["withheld"] = _check_withheld(check, data.get("withheld", {}))
    return check, out


def _upgraded(data: dict, version: int, ruleset: str) -> dict:
    """An archive of an earlier version with its state as this version holds it: its
    ruleset's storage says how each version's state reads in the next, then the
    platform's own steps (PLATFORM_UPGRADES) follow."""
    state = data.get("state")
    for step in range(int(version), VERSION):
        upgrades = (storage_of(ruleset).state_upgrades.get(step), PLATFORM_UPGRADES.get(step))
        for upgrade in filter(None, upgrades):
            if isinstance(state, dict):
                state = upgrade(state)
    return data if state is data.get("state") else {**data, "state": state}


def _core_rows_of_version_1(state: dict) -> dict:
    """Version 1's powers and areas of ``state`` held, on every ruleset's rows, fields
    that version 2 gave to one ruleset's tables (its own upgrade has taken their values
    there): each row keeps the fields the core still has."""
    kept = {}
    for key, model, identity in (
        ("powers", Power, POWER_IDENTITY),
        ("areas", Area, AREA_IDENTITY),
    ):
        names = {f.name for f in archived_fields(model, skip=identity[1:])}
        rows = state.get(key)
        if isinstance(rows, list):
            kept[key] = [
                {k: v for k, v in row.items() if k in names} if isinstance(row, dict) else row
                for row in rows
            ]
    return {**state, **kept}


PLATFORM_UPGRADES = {1: _core_rows_of_version_1}


def _check_withheld(check: Checker, withheld: Any) -> dict:
    """What the file says it leaves out (see the module docstring)."""
    if not isinstance(withheld, dict):
        check.problem("withheld must be an object")
        return {}
    unknown = sorted(set(withheld) - {"sealed_orders", "private_press", "dice_seed"})
    if unknown:
        check.problem(f"withheld: unknown field(s) {', '.join(map(repr, unknown))}")
    if withheld.get("private_press", True) is not True:
        check.problem("withheld.private_press must be true")
    if "dice_seed" in withheld:
        check.reference("withheld.dice_seed", Phase, withheld["dice_seed"])
    sealed = withheld.get("sealed_orders")
    if sealed is not None:
        if not (isinstance(sealed, dict) and set(sealed) == {"phase", "powers"}):
            check.problem("withheld.sealed_orders must be an object with a phase and powers")
            return {}
        check.reference("withheld.sealed_orders.phase", Phase, sealed["phase"])
        if isinstance(sealed["powers"], list):
            check.keys_known("withheld.sealed_orders.powers", Power, sealed["powers"])
        else:
            check.problem("withheld.sealed_orders.powers must be a list of power keys")
    return withheld


def _check_press(check: Checker, data: dict) -> tuple[list[dict], list[dict]]:
    """The channels (each key must name its kind and members) and their messages."""
    channels = check.rows(
        "channels", data.get("channels"), Channel, archived_fields(Channel), extra=("members",)
    )
    for i, row in enumerate(channels):
        members = row.setdefault("members", [])
        if not (isinstance(members, list) and all(isinstance(k, str) for k in members)):
            check.problem(f"channels[{i}].members must be a list of power keys")
            continue
        check.keys_known(f"channels[{i}].members", Power, members)
        expected = press.key_of(row["kind"], members)
        if row["key"] != expected:
            check.problem(
                f"channels[{i}].key: {row['key']!r} does not name a {row['kind']} channel "
                f"between {members!r}"
            )
    check.unique("channels", channels, ("key",))
    check.known[Channel] = _keys(data.get("channels"), "key")
    messages = check.rows("messages", data.get("messages"), Message, archived_fields(Message))
    return channels, messages


def _keys(items: Any, *names: str) -> set:
    """The natural keys of a section's rows (a tuple for several fields), however else
    the rows are wrong, so that one bad row does not make every reference to it fail."""
    keys = set()
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and all(isinstance(item.get(n), str | int) for n in names):
            keys.add(item[names[0]] if len(names) == 1 else tuple(item[n] for n in names))
    return keys


# -- who is who -------------------------------------------------------------------------

# Where an archive names people, and the word the report counts them by: (section, field,
# its placeholder field or None: left empty when the name is not confirmed, word).
USER_REFS = (
    ("seats", "user", "user_placeholder", "seat"),
    ("events", "actor", "actor_placeholder", "log actor"),
    ("messages", "author", "author_placeholder", "message author"),
    ("orders", "submitted_by", None, "order submitter"),
    ("phases", "resolved_by", None, "phase resolver"),
    ("campaign", "created_by", None, "creator"),
)
GM_KEY = ("gm",)  # the importing GM among the confirmed names (a name is never a tuple)
OPEN = Phase.Status.OPEN


@dataclass
class Person:
    """A name an archive gives a person, and what became of it here."""

    name: str
    user: str = ""  # the username of this site it was confirmed as ("": none)
    how: str = ""  # "mapped" (named in ``users``) or "same name" (``by_name``)
    refs: Counter = field(default_factory=Counter)  # references by USER_REFS' word


@dataclass
class Invitation:
    """An imported seat without a user, and the link that seats whoever follows it."""

    seat: str  # the power's key, or the role
    placeholder: str  # the archive's name for its player ("": the archive left it open)
    url: str


@dataclass
class ImportReport:
    """What an import made of the archive's people and secrets."""

    campaign: Campaign
    people: list[Person]
    invitations: list[Invitation]
    gm: str  # the GM seat's user ("": nobody)
    secret_renewed: bool
    seeds_renewed: list[tuple[int, int]]  # the phases given a new seed, as (turn, position)
    withheld: dict  # what the file said it leaves out

    @property
    def mapped(self) -> list[Person]:
        return [person for person in self.people if person.user]

    @property
    def unconfirmed(self) -> list[Person]:
        return [person for person in self.people if not person.user]


def _name_of(row: dict, name: str, placeholder: str | None) -> str | None:
    """The person a decoded row names: its user, else the placeholder of an earlier import."""
    if row[name] is not None:
        return row[name]
    return (row.get(placeholder) or None) if placeholder else None


def _people(out: dict) -> dict[str, Counter]:
    """Every name the archive gives a person, with its references counted by kind."""
    found: dict[str, Counter] = {}
    for section, name, placeholder, word in USER_REFS:
        rows = [out[section]] if section == "campaign" else out[section]
        for row in rows:
            if row is not None and (who := _name_of(row, name, placeholder)) is not None:
                found.setdefault(who, Counter())[word] += 1
    return found


def _users(names: Iterable[str]) -> dict[str, int]:
    User = get_user_model()
    field_name = User.USERNAME_FIELD
    query = User.objects.filter(**{f"{field_name}__in": set(names)})
    return dict(query.values_list(field_name, "pk"))


def _confirm(
    check: Checker, out: dict, names: dict, users: Mapping[str, Any], by_name: bool, gm
) -> dict[str, tuple[int, str, str]]:
    """The names whoever imports confirmed: name → (user id, username, how). A mapping
    that names nobody of the archive, or seats one user twice, is a problem."""
    confirmed: dict[str, tuple[int, str, str]] = {}
    for name, user in users.items():
        if name not in names:
            check.problem(f"user mapping {name!r}: the archive names nobody {name!r}")
        else:
            confirmed[name] = (user.pk, user.get_username(), "mapped")
    if by_name:
        for name, pk in _users(set(names) - set(confirmed)).items():
            confirmed[name] = (pk, name, "same name")
    seated: dict[int, list[str]] = {}
    for seat in out["seats"]:
        who = _name_of(seat, "user", "user_placeholder")
        if who in confirmed and not (gm is not None and confirmed[who][0] == gm.pk):
            seated.setdefault(confirmed[who][0], []).append(who)
    for who in seated.values():
        if len(who) > 1:
            username = next(confirmed[n][1] for n in who)
            check.problem(
                f"user mapping: {username!r} would hold the seats of {', '.join(map(repr, who))}"
            )
    return confirmed


def _placed(rows: list[dict], name: str, placeholder: str, ids: dict) -> list[dict]:
    """The rows with each person confirmed (in ``ids``) as a user and the others as
    placeholders named as the archive names them."""
    placed = []
    for row in rows:
        who = _name_of(row, name, placeholder)
        if who is None:
            placed.append(row)
        elif who in ids:
            placed.append({**row, name: who, placeholder: ""})
        else:
            placed.append({**row, name: None, placeholder: who})
    return placed


# -- import -----------------------------------------------------------------------------


def import_campaign(data: Any, *, gm=None, name: str | None = None, **people) -> Campaign:
    """The campaign ``import_archive`` creates (see there)."""
    return import_archive(data, gm=gm, name=name, **people).campaign


def import_archive(
    data: Any,
    *,
    gm=None,
    name: str | None = None,
    users: Mapping[str, Any] | None = None,
    by_name: bool = False,
    trust_waiting_seed: bool = False,
) -> ImportReport:
    """A new campaign from archive data (see the module docstring): checked whole first,
    then created in one transaction, with a new secret and new seeds for the phases still
    open. ``gm``: the user who becomes its GM; ``name``: a name instead of the archive's;
    ``users``: the archive's names confirmed as users of this site ({name: user});
    ``by_name``: every name that is a user name here is that user;
    ``trust_waiting_seed``: the seed of a phase waiting for a decision is taken from the
    file (an archive of one's own, moved between servers): its answer rolls on with it,
    so a forged one would let its author predict those dice, and without this word such
    an archive is refused. ArchiveError lists every problem (the mapping's too); nothing
    is created."""
    check, out = _check_archive(data, name=name)
    if not trust_waiting_seed:
        _refuse_waiting_seed(check, out)
    names = _people(out)
    confirmed = _confirm(check, out, names, users or {}, by_name, gm)
    if check.problems:
        raise ArchiveError(check.problems)
    try:
        with transaction.atomic():
            return _create(out, gm, names, confirmed)
    except (IntegrityError, DataError) as error:
        raise ArchiveError(
            f"The archive breaks a rule of the database: {str(error).splitlines()[0]}"
        ) from error


def _refuse_waiting_seed(check, out: dict) -> None:
    """A phase waiting for a decision in a campaign under way rolls on with the file's
    seed: refused unless the importer vouches for it (``trust_waiting_seed``)."""
    ended = (out.get("campaign") or {}).get("ended_at") is not None
    for i, phase in enumerate(out.get("phases") or []):
        if phase["status"] == Phase.Status.WAITING and not ended:
            check.problem(
                f"phases[{i}] waits for a decision, whose answer rolls on with the seed the "
                "file gives (a forged one would let its author predict those dice): answer "
                "the decision and export again, or, for an archive of your own, import it "
                "with --trust-waiting-seed"
            )


def _create(out: dict, gm, names: dict, confirmed: dict) -> ImportReport:
    ids: dict = {name: pk for name, (pk, _, _) in confirmed.items()}
    gm_seat = next((s for s in out["seats"] if s["role"] == Seat.Role.GM), None)
    gm_name = _name_of(gm_seat, "user", "user_placeholder") if gm_seat else None
    gm_id = gm.pk if gm is not None else ids.get(gm_name)
    _refuse_collision(out["campaign"]["name"], gm_id)

    fields = archived_fields(Campaign)
    row = dict(out["campaign"])
    secret_renewed = row["ended_at"] is None  # an ended campaign's secret is public
    if secret_renewed:
        row["secret"] = new_seed()
    renewed = [(p["turn"], p["position"]) for p in out["phases"] if p["status"] == OPEN]
    entry = {"at": timezone.now().isoformat(), "secret": secret_renewed}
    row["imports"] = [*row["imports"], {**entry, "seeds": [list(key) for key in renewed]}]
    if gm is not None:
        row["created_by"] = GM_KEY
        ids[GM_KEY] = gm.pk
    writer = Writer(None, ids)  # type: ignore[arg-type]
    campaign = writer.obj(Campaign, [f for f in fields if f.name != "phase"], row)
    campaign.save()
    writer.campaign = campaign

    power_rows = writer.create(Power, archived_fields(Power, POWER_IDENTITY), out["powers"])
    writer.ids[Power] = {p.key: p.pk for p in power_rows}
    area_rows = writer.create(Area, archived_fields(Area, AREA_IDENTITY), out["areas"])
    writer.ids[Area] = {a.key: a.pk for a in area_rows}
    writer.create(Adjacency, archived_fields(Adjacency), out["adjacency"])
    phases = []
    for phase in out["phases"]:
        if phase["status"] == OPEN:  # whatever the file says of its seed: its dice are ahead
            seed = new_seed()
            context = Phase.context_for(campaign.pk, phase["turn"], phase["position"], phase["key"])
            phase = {**phase, "seed": seed, "seed_hash": seed_hash(seed), "dice_context": context}
        elif phase["seed_hash"] is None:
            phase = {**phase, "seed_hash": seed_hash(phase["seed"])}
        phases.append(phase)
    phase_rows = writer.create(Phase, archived_fields(Phase), phases)
    writer.ids[Phase] = {(p.turn, p.position): p.pk for p in phase_rows}
    writer.state(out["state"], replace=False)

    seats = _placed(out["seats"], "user", "user_placeholder", ids)
    if gm is not None:
        for seat in seats:
            if seat["user"] is not None and ids[seat["user"]] == gm.pk:
                seat.update(user=None, user_placeholder=seat["user"])  # the GM's seat is theirs
        if gm_seat is None:
            seats.append({"role": Seat.Role.GM, "power": None, "user": None})
        gm_row = next(s for s in seats if s["role"] == Seat.Role.GM)
        gm_row.update(user=GM_KEY, user_placeholder="")
        for seat in seats:
            seat.setdefault("created_at", timezone.now())
    seat_fields = archived_fields(Seat)
    for seat in seats:
        for f in seat_fields:
            seat.setdefault(f.name, f.get_default())
    seat_rows = writer.create(Seat, seat_fields, seats)

    writer.create(
        Order,
        archived_fields(Order),
        [
            {**o, "payload": translate(o["payload"], campaign.ruleset, "orders", writer.to_id)}
            for o in out["orders"]
        ],
    )
    roll_rows = writer.create(RollRecord, archived_fields(RollRecord), out["rolls"])
    writer.ids[RollRecord] = {i: r.pk for i, r in enumerate(roll_rows)}
    events = _placed(out["events"], "actor", "actor_placeholder", ids)
    writer.create(Event, archived_fields(Event), events)
    channel_rows = writer.create(Channel, archived_fields(Channel), out["channels"])
    writer.ids[Channel] = {c.key: c.pk for c in channel_rows}
    Member = Channel.members.through
    Member.objects.bulk_create(
        [
            Member(channel_id=c.pk, power_id=writer.ids[Power][key])
            for c, row in zip(channel_rows, out["channels"], strict=True)
            for key in row["members"]
        ]
    )
    messages = _placed(out["messages"], "author", "author_placeholder", ids)
    writer.create(Message, archived_fields(Message), messages)

    current = out["campaign"]["phase"]
    Campaign.objects.filter(pk=campaign.pk).update(
        phase_id=writer.ids[Phase][current] if current is not None else None,
        created_at=row["created_at"],
    )
    campaign.refresh_from_db()
    _publish_renewal(campaign, bool(renewed), secret_renewed, gm)
    if campaign.phase is not None and campaign.phase.status == Phase.Status.OPEN:
        history.phase_opened(campaign, campaign.phase)  # its history starts here

    people = [
        Person(name, *(confirmed[name][1:] if name in confirmed else ()), refs=refs)
        for name, refs in sorted(names.items())
    ]
    gm_user = gm.get_username() if gm is not None else ""
    if gm is None and gm_name in confirmed:
        gm_user = confirmed[gm_name][1]
    return ImportReport(
        campaign=campaign,
        people=people,
        invitations=_invitations(seat_rows, writer.ids[Power]),
        gm=gm_user,
        secret_renewed=secret_renewed,
        seeds_renewed=renewed,
        withheld=out["withheld"],
    )


def _publish_renewal(campaign: Campaign, seeds: bool, secret: bool, actor) -> None:
    """The log of a campaign under way says what the import drew afresh: the open phase's
    seed (its hash is on the campaign page) and, for a ruleset with hidden draws, the new
    secret's SHA-256, as the start publishes it (verify.published_secret_hash)."""
    if campaign.phase_id is None or campaign.ended_at is not None:
        return  # not started: the start publishes the secret's hash; ended: nothing is ahead
    secret = secret and bool(campaign.rules.draw_rule)
    if seeds and secret:
        text = Text(
            "Imported from an archive: each phase not yet resolved has a new dice seed, and "
            "the hidden draws follow a new secret, revealed when the campaign ends; its "
            "SHA-256 is %(secret_hash)s.",
            secret_hash=campaign.secret_hash,
        )
    elif secret:
        text = Text(
            "Imported from an archive: the hidden draws follow a new secret, revealed when "
            "the campaign ends; its SHA-256 is %(secret_hash)s.",
            secret_hash=campaign.secret_hash,
        )
    elif seeds:
        text = Text("Imported from an archive: each phase not yet resolved has a new dice seed.")
    else:
        return
    log(campaign, Event.Kind.PHASE, text, actor=actor)


def _invitations(seats: list[Seat], powers: dict[str, int]) -> list[Invitation]:
    """The link of each imported seat without a user (the GM's is not offered by link)."""
    keys = {pk: key for key, pk in powers.items()}
    site = outgoing.site_origin()
    return [
        Invitation(
            seat=keys[seat.power_id] if seat.power_id else seat.role,
            placeholder=seat.user_placeholder,
            url=site + reverse("campaign:join", args=[seat.invite_token]),
        )
        for seat in seats
        if seat.user_id is None and seat.role != Seat.Role.GM
    ]


def _refuse_collision(name: str, gm_id: int | None) -> None:
    if gm_id is not None:  # two imports for one GM at once: the second waits, then sees it
        list(get_user_model().objects.select_for_update().filter(pk=gm_id).values("pk"))
    same = Campaign.objects.filter(name__iexact=name)
    if gm_id is not None:
        same = same.filter(seats__role=Seat.Role.GM, seats__user_id=gm_id)
        whose = "this GM"
    else:
        same = same.exclude(seats__role=Seat.Role.GM, seats__user__isnull=False)
        whose = "no GM"
    found = same.first()
    if found is not None:
        raise ArchiveError(
            f"A campaign named {found.name!r} with {whose} already exists (#{found.pk}): "
            "import it under another name"
        )


# -- restoring a state ------------------------------------------------------------------


def restore_state(campaign: Campaign, state: dict, *, current: dict | None = None) -> None:
    """Rewrite the campaign's game state from ``state`` (as ``state_of`` gives it):
    powers' and areas' changing fields are updated; every state table of the ruleset (and
    any the state holds) is emptied and created again. Checked whole first (ArchiveError,
    nothing changed); one transaction, a fixed number of queries. Bumps the campaign's
    version; the caller locks the campaign row first (as every service does).

    ``current``: the campaign's state now, as ``state_of(ids=True)`` gives it, for a state
    with ids: then only the powers, areas and tables that differ from it are rewritten
    (the same result, much faster for a replay, which restores a state per phase)."""
    check = Checker(campaign.ruleset)
    check.known[Power] = dict(Power.objects.filter(campaign=campaign).values_list("key", "pk"))
    check.known[Area] = dict(Area.objects.filter(campaign=campaign).values_list("key", "pk"))
    phases = Phase.objects.filter(campaign=campaign).values_list("turn", "position", "pk")
    check.known[Phase] = {(t, p): pk for t, p, pk in phases}
    plan = check.state(state)
    if check.problems or plan is None:
        raise ArchiveError(check.problems)
    writer = Writer(campaign, {})
    for model in (Power, Area, Phase):
        writer.ids[model] = check.known[model]
    keep: set[str] = set()
    if current is not None and plan.with_ids:
        for key, rows in (("powers", plan.powers), ("areas", plan.areas)):
            now = {row["key"]: row for row in current.get(key, [])}
            wanted = zip(rows, state.get(key, []), strict=True)
            setattr(plan, key, [row for row, raw in wanted if now.get(raw["key"]) != raw])
        keep = {t.key for t in state_tables() if state.get(t.key, []) == current.get(t.key, [])}
    try:
        with transaction.atomic():
            writer.state(plan, replace=True, keep=keep)
            campaign.bump_version()
    except (IntegrityError, DataError) as error:
        raise ArchiveError(
            f"The state breaks a rule of the database: {str(error).splitlines()[0]}"
        ) from error
