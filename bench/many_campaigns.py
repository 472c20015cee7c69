"""Many campaigns (issue 36, item 6): the home page, the lobby, the clock's tick and a
campaign page on sites of 15, 300, 2,000 and 10,000 campaigns of 40 areas, each with a
year of history.

    python bench/many_campaigns.py                        # the four sizes (~15 minutes)
    python bench/many_campaigns.py --sizes 15 300         # a quick run
    python bench/many_campaigns.py --explain              # and the plans of the hot queries

Its own database: BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/courier_many
(never the site's DATABASE_URL; a name that does not start with courier_many is refused),
dropped and made afresh (migrated, static files collected) at every run. bench.settings,
DJANGO_DEBUG=0, the database's cache table (not Redis: a World cached by campaign id
would outlive a database made afresh).

The site. Campaign 1 is generated (bench/generate.py: 40 areas, a user in every seat, the
standard pace: 48 hours for orders, 12 for a GM step) and played for a year: 50 phases
resolved by the rules engine with every power's default orders, then dated over the past
year (their deadlines long past) with every power's orders stored ready in each, and 118
press messages among them (public, to the GM, private), each reader's marker a few
messages short of the newest. Every other campaign is a copy of it made in SQL (INSERT …
SELECT per table, the ids shifted by a fixed step per copy, foreign keys with them),
with its own nine users: its phases and their orders, log lines, map and state tables,
channels, messages and read markers; campaigns 2–15 with the history's detail too (each
phase's snapshot, rolls, inputs and decisions: LIGHT), the copies past 15 without it
(a lighter history, ~750 KB a campaign less, which no page measured here reads; at
10,000 campaigns 7.5 GB and most of the generation: --full-history copies
it). Campaigns 1–15 are the same at every size: the reader (the user the pages are
measured as) plays France in campaigns 2–7, is the GM of 8–10 and watches 11–12, their
read markers his; twelve of them are in the lobby (4–9 list two free seats, 10–12 may be
watched, 13–15 both; Prussia is in civil disorder in 12 and 15). Of the copies, one in
forty lists two free seats, one in forty may be watched and one in a hundred has a power
in civil disorder; one in fifty has an away period to come and one in fifty one long
past. Every open phase but campaign 1's has a deadline from 3 to 47 hours away (none
within an hour of its next reminder), the powers of even rank have their orders ready, and those due
within a day have had their 24-hour reminder: the site as the clock leaves it.

Measured in process (Django's test client), per size, after one call of each to warm
up: 3 rounds of 20 calls, the median of the rounds' p95 (and of their medians); the
queries of one call:
- home page: GET / as the reader (11 campaigns);
- lobby page 1: GET /lobby/ as the reader (10 campaigns a page);
- clock tick: what `manage.py clock` does every CLOCK_INTERVAL_SECONDS, tick.enqueue(),
  and the worker's run of that task (campaign.jobs.tasks.tick, called in process): the
  due deadlines, the away periods begun and the reminders due (none, on this site),
  looked for since one clock interval before (the call first moves the moment the
  reminders were looked for up to back by an interval, one query), as a clock that ticks
  every interval has them; the copies start as never looked at, and the first tick after
  each size's generation, which looks at them all, is timed apart (``first_tick_s``);
- campaign page: GET /campaigns/2/ as the reader (France's player).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/courier_many"

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)

from bench import common  # noqa: E402

SIZES = (15, 300, 2000, 10000)
FIXED = 15  # campaigns 1–15, the same at every size
MESSAGES = 118
PHASES = 50  # resolved phases: a year of Empires in Arms at 40 areas
ROUNDS, CALLS = 3, 20
CHUNK = 1000  # copies per INSERT … SELECT
BACKEND = "django.contrib.auth.backends.ModelBackend"
SECTION = "## Many campaigns"
# what the copies past campaign 15 leave out (but with --full-history)
LIGHT = {
    "campaign.PhaseSnapshot",
    "campaign.RollRecord",
    "campaign.DecisionRecord",
    "campaign.InputRecord",
}
# the hours left before the deadline of campaign c's open phase: 3 to 21 or 26 to 46, so
# that no reminder (24 and 2 hours before) falls due within an hour of the generation
HOURS_LEFT = (
    "(CASE WHEN mod(c.id, 2) = 0 THEN 3 + mod(c.id * 7, 19) ELSE 26 + mod(c.id * 7, 21) END)::int"
)


# -- the database -------------------------------------------------------------------------


def fresh_database() -> None:
    """Drop and make the benchmark's database, migrate it, collect the static files."""
    import psycopg
    from psycopg import sql

    url = os.environ["DATABASE_URL"]
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name.startswith("courier_many"):  # it is dropped: never a site's database
        raise SystemExit(
            f"refused: the bench drops its database, and {name!r} is not courier_many…"
        )
    maintenance = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    env = common.environment()
    for args in (("migrate", "--noinput", "-v0"), ("collectstatic", "--noinput", "-v0")):
        subprocess.run(common.manage(*args), cwd=common.ROOT, env=env, check=True)


# -- campaign 1: a year of play ------------------------------------------------------------


def first_campaign(now: datetime):
    """Campaign 1, played for a year (see the module's docstring)."""
    from django.db import connection

    from bench.generate import make_campaign
    from campaign.models import Campaign, Channel, Message, Phase, ReadMarker
    from campaign.play.scheduling import STANDARD_PACE, pace_hours
    from campaign.play.services import resolve_open_phase
    from rules.engine import ruleset_for

    generated = make_campaign(areas=40, name="Many #1", seed=36)
    campaign = generated.campaign
    ruleset = ruleset_for("empires_in_arms")
    hours = pace_hours(ruleset, STANDARD_PACE)
    Campaign.objects.filter(pk=campaign.pk).update(deadline_hours=hours)
    for _ in range(PHASES):
        campaign.refresh_from_db()
        resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None)
    campaign.refresh_from_db()
    phases = list(Phase.objects.filter(campaign=campaign).order_by("turn", "position"))
    step = timedelta(days=365) / len(phases)
    began = now - timedelta(days=366)
    Campaign.objects.filter(pk=campaign.pk).update(created_at=began, started_at=began)
    for i, phase in enumerate(phases):
        opened = now - timedelta(hours=10) if phase.pk == campaign.phase_id else began + i * step
        Phase.objects.filter(pk=phase.pk).update(
            opened_at=opened,
            deadline=opened + timedelta(hours=48) if phase.pk != campaign.phase_id else None,
            resolved_at=opened + timedelta(hours=36) if phase.pk != campaign.phase_id else None,
        )
    with connection.cursor() as cursor:
        # the log lines: when their phase opened
        cursor.execute(
            "UPDATE campaign_event e SET created_at = p.opened_at + interval '1 minute' "
            "FROM campaign_phase p WHERE p.id = e.phase_id AND e.campaign_id = %s",
            [campaign.pk],
        )
        # every power's orders, ready, in every phase that took orders (default orders
        # leave none: a year of players' orders does)
        cursor.execute(
            "INSERT INTO campaign_order (campaign_id, phase_id, power_id, payload, ready, "
            "submitted_by_id, updated_at) SELECT p.campaign_id, p.id, w.id, '{}', true, s.user_id, "
            "p.opened_at + interval '20 hours' FROM campaign_phase p "
            "JOIN campaign_power w ON w.campaign_id = p.campaign_id "
            "JOIN campaign_seat s ON s.power_id = w.id "
            "WHERE p.campaign_id = %s AND p.status = 'resolved' AND p.key = ANY(%s) "
            "ON CONFLICT DO NOTHING",
            [campaign.pk, [p.key for p in ruleset.phases if p.takes_orders]],
        )
    powers = list(campaign.powers.order_by("sort"))
    users = generated.users
    channels = {"public": Channel.objects.create(campaign=campaign, kind="public", key="public")}
    for i, power in enumerate(powers):
        gm = Channel.objects.create(campaign=campaign, kind="gm", key=f"gm-{power.key}")
        gm.members.set([power])
        channels[gm.key] = gm
        partner = powers[(i + 1) % len(powers)]
        key = "+".join(sorted([power.key, partner.key]))
        private = Channel.objects.create(campaign=campaign, kind="private", key=key)
        private.members.set([power, partner])
        channels[power.key] = private
    rng = random.Random(36)
    rows = []
    for n in range(MESSAGES):
        power = powers[n % len(powers)]
        kind = n % 3
        channel = (channels["public"], channels[f"gm-{power.key}"], channels[power.key])[kind]
        author = users["gm"] if kind == 1 and n % 2 else users[power.key]
        at = began + timedelta(days=365) * (n + 0.5) / MESSAGES
        phase = max((p for p in phases if began + phases.index(p) * step <= at), key=phases.index)
        rows.append(
            Message(
                campaign=campaign,
                channel=channel,
                author=author,
                power=None if author == users["gm"] else power,
                turn=phase.turn,
                phase=phase,
                text=f"message {n} " + "news " * rng.randint(1, 40),
            )
        )
    messages = Message.objects.bulk_create(rows)
    for message in messages:
        Message.objects.filter(pk=message.pk).update(
            created_at=began + timedelta(days=365) * (messages.index(message) + 0.5) / MESSAGES
        )
    markers = []  # each reader has read all but the last few messages of each channel
    for role, user in users.items():
        for channel in channels.values():
            ids = [m.pk for m in messages if m.channel_id == channel.pk]
            readable = (
                channel.kind == "public"
                or (role == "gm" and channel.kind == "gm")
                or channel.members.filter(key=role).exists()
            )
            if ids and readable and len(ids) > 2:
                markers.append(ReadMarker(user=user, channel=channel, last_read=ids[-3]))
    ReadMarker.objects.bulk_create(markers)
    return campaign


# -- copies in SQL -------------------------------------------------------------------------


def cloned_models():
    """The tables a copy of campaign 1 holds: every model with a foreign key to Campaign,
    those whose primary key is one to a copied row (a ruleset's area or power details),
    the read markers and the users; in an order that inserts each row after those it
    points to. (Not the tasks, mail, tokens, devices or feeds: nothing of a campaign.)"""
    from django.apps import apps
    from django.contrib.auth import get_user_model

    from campaign.models import Campaign, Channel, ReadMarker

    User = get_user_model()
    chosen = [User, Campaign]
    for model in apps.get_models():
        owner = {f.name: f for f in model._meta.concrete_fields}.get("campaign")
        if model is ReadMarker or (owner is not None and owner.related_model is Campaign):
            chosen.append(model)
    grown = True
    while grown:  # and the rows whose primary key is one of those: a ruleset's details
        more = [
            m
            for m in apps.get_models()
            if m not in chosen
            and m._meta.pk.is_relation
            and m._meta.pk.related_model in chosen
            and m._meta.pk.related_model is not User
        ]
        chosen += more
        grown = bool(more)
    chosen.append(Channel.members.through)
    # each after what it points to (campaign.phase is set afterwards)
    ordered, left = [], list(chosen)
    while left:
        for model in left:
            targets = {
                f.related_model
                for f in model._meta.concrete_fields
                if f.is_relation and f.related_model is not model
            } - {model}
            if model is Campaign or not (targets & set(left) - {model}):
                ordered.append(model)
                left.remove(model)
                break
        else:
            raise RuntimeError(f"cannot order {left}")
    return ordered


class Copier:
    """Copies of one campaign (the template, with its users), ``count`` at a time: each
    table's rows of the template are inserted again with their ids shifted by a step per
    copy (the template's span of ids in that table), every foreign key to a copied table
    shifted with them, and a reference to anything else (a user not seated there, a row
    not copied) left empty."""

    def __init__(self, template_id: int):
        from django.contrib.auth import get_user_model
        from django.db import connection

        self.models = cloned_models()
        self.User = get_user_model()
        self.template = template_id
        self.spans: dict[str, tuple[int, int]] = {}  # table -> (lowest id, span)
        self.where: dict[str, str] = {}
        self.seconds: dict[str, float] = {}  # spent copying each table
        with connection.cursor() as cursor:
            for model in self.models:
                table = model._meta.db_table
                self.where[table] = self._where(model)
                pk = model._meta.pk
                if pk.is_relation:
                    continue
                cursor.execute(
                    f'SELECT min(x."{pk.column}"), max(x."{pk.column}"), count(*) '
                    f"FROM {table} x WHERE {self.where[table]}"
                )
                low, high, count = cursor.fetchone()
                if not count:
                    continue
                if model is self.User and high - low + 1 != count:
                    raise RuntimeError("the template's users are not one run of ids")
                self.spans[table] = (low, high - low + 1)

    def _where(self, model) -> str:
        """Which rows of the model's table are the template's."""
        from campaign.models import Campaign, Seat

        t = self.template
        if model is self.User:
            return f"x.id IN (SELECT user_id FROM {Seat._meta.db_table} WHERE campaign_id = {t})"
        if model is Campaign:
            return f"x.id = {t}"
        fields = {f.name: f for f in model._meta.concrete_fields}
        if "campaign" in fields and fields["campaign"].related_model is Campaign:
            return f"x.{fields['campaign'].column} = {t}"
        relations = [model._meta.pk] + [f for f in model._meta.concrete_fields if f.is_relation]
        for field in relations:  # through a row of the template
            if field.is_relation and field.related_model is not self.User:
                parent = field.related_model
                return (
                    f"x.{field.column} IN (SELECT y.{parent._meta.pk.column} FROM "
                    f"{parent._meta.db_table} y WHERE {self._where_as(parent, 'y')})"
                )
        raise RuntimeError(f"no way to the template from {model}")

    def _where_as(self, model, alias: str) -> str:
        return self._where(model).replace("x.", f"{alias}.")

    def _shifted(self, table: str, column: str, base: dict[str, int]) -> str:
        """A column pointing into a copied table, shifted into copy k (NULL outside the
        template's rows of it)."""
        low, span = self.spans[table]
        return (
            f"CASE WHEN x.{column} BETWEEN {low} AND {low + span - 1} "
            f"THEN {base[table]} + k * {span} + (x.{column} - {low}) END"
        )

    def copy(self, count: int, *, light: bool = False) -> list[int]:
        """Make ``count`` copies; returns their campaign ids. ``light``: without the
        history's detail (LIGHT: the snapshot of each phase, its rolls and the inputs and
        decisions it recorded), which no page measured here reads."""
        from django.db import connection, transaction

        from campaign.models import Campaign, Message, ReadMarker, Seat

        with transaction.atomic(), connection.cursor() as cursor:
            # consistent by construction: no foreign key checked row by row at the commit
            cursor.execute("SET LOCAL session_replication_role = replica")
            base = {}
            for table in self.spans:
                cursor.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}")
                base[table] = cursor.fetchone()[0]
            campaigns = Campaign._meta.db_table
            for model in self.models:
                table = model._meta.db_table
                if model._meta.pk.is_relation is False and table not in self.spans:
                    continue  # the template has none
                if light and model._meta.label in LIGHT:
                    continue
                began = time.perf_counter()
                columns, values = [], []
                for field in model._meta.concrete_fields:
                    column = field.column
                    columns.append(f'"{column}"')
                    target = field.related_model._meta.db_table if field.is_relation else None
                    if field is model._meta.pk and not field.is_relation:
                        values.append(self._shifted(table, column, base))
                    elif model is Campaign and column == "phase_id":
                        values.append("NULL")  # set once the phases are in
                    elif model is Campaign and column == "name":
                        values.append(f"'Many #' || ({self._shifted(table, 'id', base)})")
                    elif model is self.User and column == "username":
                        values.append(f"x.username || '-' || ({base[campaigns]} + k)")
                    elif model is ReadMarker and column == "last_read":  # a message's id
                        values.append(self._shifted(Message._meta.db_table, column, base))
                    elif model is Seat and column == "invite_token":
                        values.append("md5(random()::text || x.id || k)")
                    elif target in self.spans and not (
                        light and field.related_model._meta.label in LIGHT
                    ):
                        values.append(self._shifted(target, column, base))
                    elif field.is_relation:
                        values.append("NULL")
                    else:
                        values.append(f'x."{column}"')
                cursor.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
                    f"FROM {table} x CROSS JOIN generate_series(0, {count - 1}) k "
                    f"WHERE {self.where[table]}"
                )
                self.seconds[table] = self.seconds.get(table, 0) + time.perf_counter() - began
            low, span = self.spans[campaigns]
            cursor.execute(
                f"UPDATE {campaigns} c SET phase_id = p.id FROM {campaigns} t, campaign_phase p, "
                f"campaign_phase tp WHERE t.id = {self.template} AND tp.id = t.phase_id "
                f"AND c.id >= {base[campaigns]} AND p.campaign_id = c.id "
                f"AND p.turn = tp.turn AND p.position = tp.position"
            )
            for table in self.spans:
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
            first = base[campaigns]
        return list(range(first, first + count * span, span))


# -- the site's variety --------------------------------------------------------------------


def vary(ids: list[int], now: datetime) -> None:
    """The copies' lobby settings, civil disorder, away periods, deadlines, ready orders
    and reminders already sent (see the module's docstring), in SQL."""
    from django.db import connection

    low, high = min(ids), max(ids)
    inside = f"BETWEEN {low} AND {high}"
    with connection.cursor() as cursor:
        run = cursor.execute
        run(
            "UPDATE campaign_campaign SET lobby_open = mod(id, 40) = 0, "
            f"lobby_watch = mod(id, 40) = 20, reminders_checked = 0 WHERE id {inside}"
        )
        run(
            "UPDATE campaign_seat s SET user_id = NULL FROM campaign_power p "
            f"WHERE p.id = s.power_id AND s.campaign_id {inside} AND mod(s.campaign_id, 40) = 0 "
            "AND p.key IN ('spain', 'turkey')"
        )
        run(
            "UPDATE campaign_power SET disorder_since = %s "
            f"WHERE campaign_id {inside} AND mod(campaign_id, 100) = 7 AND key = 'prussia'",
            [now - timedelta(days=3)],
        )
        run(
            "UPDATE campaign_seat s SET away_from = %s, away_until = %s FROM campaign_power p "
            f"WHERE p.id = s.power_id AND s.campaign_id {inside} AND mod(s.campaign_id, 50) = 3 "
            "AND p.key = 'austria'",
            [now + timedelta(days=5), now + timedelta(days=8)],
        )
        run(
            "UPDATE campaign_seat s SET away_from = %s, away_until = %s, away_noticed = true "
            f"FROM campaign_power p WHERE p.id = s.power_id AND s.campaign_id {inside} "
            "AND mod(s.campaign_id, 50) = 4 AND p.key = 'russia'",
            [now - timedelta(days=60), now - timedelta(days=50)],
        )
        # the open phase's deadline: 3 to 22 or 26 to 47 hours away
        run(
            f"UPDATE campaign_phase p SET deadline = %s + make_interval(hours => {HOURS_LEFT}, "
            "mins => mod(c.id * 13, 60)::int) "
            f"FROM campaign_campaign c WHERE c.phase_id = p.id AND c.id {inside}",
            [now],
        )
        run(
            "INSERT INTO campaign_order (campaign_id, phase_id, power_id, payload, ready, "
            "updated_at) SELECT c.id, c.phase_id, w.id, '{}', true, %s FROM campaign_campaign c "
            f"JOIN campaign_power w ON w.campaign_id = c.id WHERE c.id {inside} "
            "AND mod(w.sort, 2) = 0",
            [now],
        )
        steady_reminders(cursor, inside, now)


def steady_reminders(cursor, inside: str, now: datetime) -> None:
    """The reminders as the clock leaves them (campaign/notify/reminders.py): the 24-hour
    one sent where the deadline is within a day and the orders are not ready; the clock
    to look again at the next offset (2 hours, or 24 before the deadline)."""
    cursor.execute(
        "INSERT INTO campaign_remindersent (user_id, phase_id, deadline, hours) "
        "SELECT s.user_id, p.id, p.deadline, 24 FROM campaign_campaign c "
        "JOIN campaign_phase p ON p.id = c.phase_id "
        "JOIN campaign_seat s ON s.campaign_id = c.id AND s.power_id IS NOT NULL "
        "AND s.user_id IS NOT NULL "
        f"WHERE c.id {inside} AND p.deadline <= %s AND NOT EXISTS (SELECT 1 FROM campaign_order o "
        "WHERE o.phase_id = p.id AND o.power_id = s.power_id AND o.ready)",
        [now + timedelta(hours=24)],
    )


def fixed_campaigns(now: datetime):
    """Campaigns 2–15 (copies of 1) as the module's docstring says, and the reader."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    from campaign.models import Campaign, Power, ReadMarker, Seat

    reader = get_user_model().objects.create_user("many-reader", "reader@example.org")
    for pk in range(2, FIXED + 1):
        role = "france" if pk <= 7 else "gm" if pk <= 10 else "observer" if pk <= 12 else None
        if role is None:
            continue
        seat = Seat.objects.get(Q(power__key=role) | Q(role=role, power__isnull=True), campaign=pk)
        ReadMarker.objects.filter(user_id=seat.user_id, channel__campaign=pk).update(user=reader)
        Seat.objects.filter(pk=seat.pk).update(user=reader)
    listed = range(4, FIXED + 1)
    Campaign.objects.filter(pk__in=listed).update(lobby_open=False, lobby_watch=False)
    Campaign.objects.filter(Q(pk__range=(4, 9)) | Q(pk__range=(13, 15))).update(lobby_open=True)
    Campaign.objects.filter(pk__range=(10, 15)).update(lobby_watch=True)
    Seat.objects.filter(
        Q(campaign__in=range(4, 10)) | Q(campaign__in=range(13, 16)),
        power__key__in=("spain", "turkey"),
    ).update(user=None)
    Power.objects.filter(campaign__in=(12, 15), key="prussia").update(
        disorder_since=now - timedelta(days=3)
    )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE campaign_phase p SET deadline = %s + make_interval(hours => {HOURS_LEFT}) "
            f"FROM campaign_campaign c WHERE c.phase_id = p.id AND c.id BETWEEN 2 AND {FIXED}",
            [now],
        )
        cursor.execute(
            "INSERT INTO campaign_order (campaign_id, phase_id, power_id, payload, ready, "
            "updated_at) SELECT c.id, c.phase_id, w.id, '{}', true, %s FROM campaign_campaign c "
            f"JOIN campaign_power w ON w.campaign_id = c.id WHERE c.id BETWEEN 2 AND {FIXED} "
            "AND mod(w.sort, 2) = 0 AND w.key <> 'france'",
            [now],
        )
    return reader


# -- measuring -----------------------------------------------------------------------------


def timed(call) -> dict:
    """p95 and median (ms) of ROUNDS rounds of CALLS calls: the median of each."""
    call()  # warm up
    p95s, medians = [], []
    for _ in range(ROUNDS):
        times = []
        for _ in range(CALLS):
            began = time.perf_counter()
            call()
            times.append((time.perf_counter() - began) * 1000)
        p95s.append(common.percentile(times, 0.95))
        medians.append(statistics.median(times))
    return {"p95_ms": statistics.median(p95s), "median_ms": statistics.median(medians)}


def queries(call) -> list[str]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return [q["sql"] for q in captured]


def measure(reader) -> dict:
    from django.conf import settings
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from campaign.jobs import tasks
    from campaign.models import Heartbeat

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(reader, backend=BACKEND)

    def get(url: str):
        def call():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return call

    def tick():
        interval = timedelta(seconds=settings.CLOCK_INTERVAL_SECONDS)
        looked = Heartbeat.objects.filter(name=Heartbeat.Name.REMINDERS)
        looked.update(seen_at=timezone.now() - interval)  # the previous tick's
        tasks.tick.enqueue()
        tasks.tick.call()

    calls = {
        "home page": get(reverse("campaign:list")),
        "lobby page 1": get(reverse("campaign:lobby")),
        "clock tick": tick,
        "campaign page": get(reverse("campaign:detail", args=[2])),
    }
    found = {}
    for name, call in calls.items():
        found[name] = timed(call) | {"queries": len(queries(call))}
    DBTaskResult.objects.filter(task_path__endswith=".tick").delete()
    return found


def explain() -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of each SELECT of the home page, lobby page 1 and the
    tick that reads more than a handful of rows, printed short: the plan's scans and
    rows."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from campaign.jobs import tasks

    reader = get_user_model().objects.get(username="many-reader")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(reader, backend=BACKEND)
    pages = {
        "home page": lambda: client.get(reverse("campaign:list")),
        "lobby page 1": lambda: client.get(reverse("campaign:lobby")),
        "clock tick": lambda: tasks.tick.call(),
    }
    for name, call in pages.items():
        print(f"\n== {name}: plans")
        for sql in queries(call):
            if not sql.startswith("SELECT"):
                continue
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
                plan = [row[0] for row in cursor.fetchall()]
            print(f"-- {common.shape(sql)}: {sql[:160]}…")
            for line in plan:
                if "Scan" in line or "Execution Time" in line or "Rows Removed" in line:
                    print("   " + line.strip())


# -- results -------------------------------------------------------------------------------


def section(figures: dict) -> str:
    sizes = [str(s) for s in figures["sizes"]]
    names = list(figures["sizes"][sizes[0]]["pages"])
    rows = []
    for name in names:
        small = figures["sizes"][sizes[0]]["pages"][name]
        row = [name]
        for size in sizes:
            f = figures["sizes"][size]["pages"][name]
            row.append(f"{f['p95_ms']:.1f} ms ({f['queries']} q)")
        largest = figures["sizes"][sizes[-1]]["pages"][name]
        row.append(f"{largest['p95_ms'] / small['p95_ms']:.2f}×")
        rows.append(row)
    generation = ", ".join(f"{int(s):,}: {figures['sizes'][s]['generated_s']:.0f} s" for s in sizes)
    return "\n\n".join(
        [
            SECTION,
            f"`bench/many_campaigns.py` on {figures['finished']} UTC (load average "
            f"{figures['load_start']:.2f} at the start, {figures['load_end']:.2f} at the end). "
            "p95 of the calls, the median of 3 rounds of 20, in process; queries of one call.",
            common.table(["", *[f"{int(s):,} campaigns" for s in sizes], "largest / 15"], rows),
            f"Generation (cumulative, each size adds to the previous): {generation}.",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--explain", action="store_true", help="plans at the largest size")
    parser.add_argument(
        "--full-history",
        action="store_true",
        help="copy the snapshots, rolls, inputs and decisions too (LIGHT; several GB at 10,000)",
    )
    parser.add_argument("--save-as", default="many_campaigns", help="name of the figures file")
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    started = time.perf_counter()
    fresh_database()
    common.setup_django()
    from django.db import connection

    print(f"database made afresh ({time.perf_counter() - started:.0f} s)", flush=True)
    now = datetime.now(UTC)
    first_campaign(now)
    print(f"campaign 1 played for a year ({time.perf_counter() - started:.0f} s)", flush=True)
    copier = Copier(1)
    copier.copy(FIXED - 1)
    reader = fixed_campaigns(now)
    from campaign.jobs import tasks

    tasks.tick.call()  # campaigns 1–15 as the clock leaves them
    figures: dict = {"sizes": {}, "load_start": load_start}
    count = FIXED
    for size in sorted(args.sizes):
        while count < size:
            ids = copier.copy(min(CHUNK, size - count), light=not args.full_history)
            vary(ids, now)
            count += len(ids)
            print(f"  {count:,} campaigns ({time.perf_counter() - started:.0f} s)", flush=True)
        with connection.cursor() as cursor:  # as autovacuum leaves a site in use
            cursor.execute("VACUUM ANALYZE")
        generated = time.perf_counter() - started
        warm = time.perf_counter()
        tasks.tick.call()  # the clock's first look at the new campaigns, not measured
        warm = time.perf_counter() - warm
        pages = measure(reader)
        figures["sizes"][str(size)] = {
            "generated_s": generated,
            "first_tick_s": warm,
            "pages": pages,
        }
        print(f"{size:,} campaigns (generated in {generated:.0f} s; first tick {warm:.1f} s):")
        for name, f in pages.items():
            print(
                f"  {name:<14} p95 {f['p95_ms']:7.1f} ms   median {f['median_ms']:7.1f} ms   "
                f"{f['queries']:>3} queries",
                flush=True,
            )
    if args.explain:
        explain()
    figures["load_end"] = os.getloadavg()[0]
    figures["finished"] = f"{datetime.now(UTC):%Y-%m-%d %H:%M}"
    common.save(args.save_as, figures)
    print()
    print(section(figures))


if __name__ == "__main__":
    main()
