"""Two nodes, shown (issue 36, item 3): Courier as a deployment runs it, twice over.

Two gunicorn nodes (`gunicorn courier.wsgi`, each on a free port), two task workers
(`manage.py db_worker`) and one clock (`manage.py clock`, COURIER_CLOCK_INTERVAL=1), each
a process of its own, share this test's PostgreSQL database and one Redis database (the
shared cache, courier/cache.py). They run a production build: DJANGO_DEBUG=0, a secret
key of 60 characters, DJANGO_ALLOWED_HOSTS, plain http (DJANGO_HTTPS=0), the static
files collected into a temporary directory for the manifest storage (a settings module
written there adds STATIC_ROOT to courier.settings, nothing else), and mail sent over
SMTP (EMAIL_HOST) to a sink this test listens with, so every mail any process sends
arrives here, as a deployment's mail server would get it.

Fifteen Empires in Arms campaigns seat 100 players, each with a mail address and the
default wishes (every kind of mail, reminders 24 and 2 hours before a deadline), every
phase with a deadline of DEADLINE_SECONDS. Each player, in a thread of its own, logged in
by a session row made here, polls his campaign's status the way the page does, over real
HTTP, alternately on each node; when a new phase shows its order form, half of them (the
even-numbered) post "Save and mark ready" with the page's CSRF token, to the other node;
the rest never answer, so their phases wait for the deadline, which the clock and the
workers act on. Then:

- every phase resolved exactly once (one "… resolved." line in the log, one
  resolve_phase task that returned "resolved"), some at their deadline;
- no page, from either node, named an older phase than one any earlier answer (from
  either node) had named: a resolution seen anywhere is seen everywhere after it;
- every mail went out exactly once: one "is open" mail per player and opened phase, one
  "is resolved" mail per player and resolved phase, and one reminder per player and
  phase the reminders' table counts, none twice.

Marked ``long`` (the CI profile runs it). It needs PostgreSQL and Redis (fails if Redis
does not answer). It prints a summary for bench/RESULTS.md.
"""

from __future__ import annotations

import bisect
import contextlib
import email
import email.policy
import os
import re
import secrets
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from campaign.models import Campaign, Event, Phase, ReminderSent, Seat
from campaign.play.services import start_campaign
from tests.factories import make_eia_campaign

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
PLAYERS = 100
POWERS_PER_CAMPAIGN = 7  # Empires in Arms
DEADLINE_SECONDS = 12
MIN_RESOLVED = 3  # phases each campaign resolves before the players stop
PLAY_SECONDS = 110  # at most
POLL_SECONDS = 2.0
# how long a player waits for an answer: as long as the deployment's proxy does
# (deploy/nginx.conf, proxy_read_timeout). The players keep both nodes saturated, so an
# answer takes as long as the queue before it: seconds here, more than 30 s on a slower
# machine running other tests beside this one; only an answer the proxy would have given
# up on is an error.
ANSWER_SECONDS = 120
REDIS_DB = 11
SECRET_KEY = secrets.token_urlsafe(45)  # 60 characters
RESOLVE = "campaign.jobs.tasks.resolve_phase"
PROGRESS = re.compile(r"status/\?phase=(\d+)&amp;status=(\w+)")
ORDERS_FORM = re.compile(r'<form method="post" action="[^"]*/orders/".*?</form>', re.S)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
FORM_PHASE = re.compile(r'name="phase" value="(\d+)"')


# -- the mail server -----------------------------------------------------------------


class _Smtp(socketserver.StreamRequestHandler):
    """Just enough SMTP for Django's backend (no TLS, no login): keeps each message."""

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.reply("220 sink ESMTP")
        data, lines = False, []
        while line := self.rfile.readline():
            if data:
                if line.rstrip(b"\r\n") == b".":
                    with self.server.lock:
                        self.server.mails.append(b"".join(lines))
                    data, lines = False, []
                    self.reply("250 OK")
                else:
                    lines.append(line[1:] if line.startswith(b".") else line)
                continue
            command = line[:4].upper()
            if command in (b"EHLO", b"HELO"):
                self.reply("250 sink")
            elif command == b"DATA":
                data = True
                self.reply("354 go on")
            elif command == b"QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 OK")


class MailSink(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Smtp)
        self.lock = threading.Lock()
        self.mails: list[bytes] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def count(self) -> int:
        with self.lock:
            return len(self.mails)


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    line: str  # the text part's first line: names the turn and phase, or the deadline

    @classmethod
    def parse(cls, raw: bytes) -> Mail:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        text = message.get_body(preferencelist=("plain",)).get_content()
        return cls(str(message["To"]), str(message["Subject"]), text.strip().splitlines()[0])

    @property
    def kind(self) -> str:
        if self.subject.endswith(" is open"):
            return "open"
        if self.subject.endswith(" is resolved"):
            return "resolved"
        if self.subject.endswith(" left"):
            return "reminder"
        return "other"

    @property
    def key(self) -> tuple[str, str, str]:
        """The same mail, however often sent (an opening's or resolution's first line
        names its turn and phase)."""
        return self.to, self.subject, self.line


# -- the processes -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Cluster:
    folder: Path
    env: dict[str, str]
    children: dict[str, subprocess.Popen] = field(default_factory=dict)
    logs: list = field(default_factory=list)
    stopped: set[str] = field(default_factory=set)

    def start(self, name: str, args: list[str]) -> None:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115
        self.logs.append(log)
        self.children[name] = subprocess.Popen(
            args,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, which stop() ends
        )

    def check_alive(self) -> None:
        for name, child in self.children.items():
            if name not in self.stopped and child.poll() is not None:
                raise AssertionError(f"{name} exited ({child.returncode}): {self.tail(name)}")

    def tail(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")[-3000:]

    def stop(self, name: str) -> None:
        child = self.children[name]
        self.stopped.add(name)
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
        else:  # its children, if any outlived it
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)

    def stop_all(self) -> None:
        for name in list(self.children):
            self.stop(name)
        for log in self.logs:
            log.close()


def manage(*args: str) -> list[str]:
    return [PYTHON, str(ROOT / "manage.py"), *args]


def wait_healthy(cluster: Cluster, name: str, base: str, deadline: float) -> None:
    while True:
        cluster.check_alive()
        try:
            if requests.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        assert time.monotonic() < deadline, f"{name} did not answer: {cluster.tail(name)}"
        time.sleep(0.2)


# -- the players ---------------------------------------------------------------------


@dataclass
class Player:
    index: int
    user_id: int
    campaign_id: int
    session: requests.Session
    answers: bool  # marks his orders ready; otherwise the deadline decides


@dataclass
class Seen:
    campaign_id: int
    start: float
    end: float
    phase_id: int
    node: int


@dataclass
class Traffic:
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: Counter = field(default_factory=Counter)  # node -> count
    posts: Counter = field(default_factory=Counter)  # status -> count
    seen: list[Seen] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def count(self, node: int) -> None:
        with self.lock:
            self.requests[node] += 1


def log_in(user) -> str:
    """A session row for ``user``, signed with the nodes' key: the cookie's value."""
    with override_settings(SECRET_KEY=SECRET_KEY):
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        return session.session_key


def play(player: Player, nodes: list[str], traffic: Traffic, stop: threading.Event) -> None:
    """Poll the campaign as its page does, alternately on each node; post ready (to the
    other node) once for each new phase whose order form is shown, if he answers."""
    page = f"/campaigns/{player.campaign_id}/"
    phase_id, status, answered, turn = None, None, set(), player.index
    time.sleep((player.index % 20) * POLL_SECONDS / 20)  # spread the players' polls
    while not stop.is_set():
        node = turn % 2
        turn += 1
        start = time.monotonic()
        try:
            if phase_id is None:
                response = player.session.get(nodes[node] + page, timeout=ANSWER_SECONDS)
            else:
                params = {"phase": phase_id, "status": status}
                response = player.session.get(
                    nodes[node] + page + "status/", params=params, timeout=ANSWER_SECONDS
                )
        except requests.RequestException as error:
            with traffic.lock:
                traffic.errors.append(f"{player.index}: {error}")
            time.sleep(POLL_SECONDS)
            continue
        end = time.monotonic()
        traffic.count(node)
        html = ""
        if response.status_code == 204:
            shown = phase_id
        elif response.status_code == 200:
            html = response.text
            found = PROGRESS.search(html)
            if not found:  # finished, or a page without the progress line
                with traffic.lock:
                    traffic.errors.append(f"{player.index}: no phase on the page")
                time.sleep(POLL_SECONDS)
                continue
            shown, status = int(found.group(1)), found.group(2)
        else:
            with traffic.lock:
                traffic.errors.append(f"{player.index}: GET {response.status_code}")
            time.sleep(POLL_SECONDS)
            continue
        with traffic.lock:
            traffic.seen.append(Seen(player.campaign_id, start, end, shown, node))
        phase_id = shown
        form = ORDERS_FORM.search(html) if html else None
        if player.answers and form and phase_id not in answered:
            answered.add(phase_id)
            post(player, nodes, node, form.group(0), traffic)
        stop.wait(POLL_SECONDS)


def post(player: Player, nodes: list[str], node: int, form: str, traffic: Traffic) -> None:
    """The simplest valid submission: the form's phase and token, marked ready."""
    other = 1 - node
    data = {
        "csrfmiddlewaretoken": CSRF.search(form).group(1),
        "phase": FORM_PHASE.search(form).group(1),
        "ready": "1",
    }
    try:
        response = player.session.post(
            f"{nodes[other]}/campaigns/{player.campaign_id}/orders/",
            data=data,
            allow_redirects=False,
            timeout=ANSWER_SECONDS,
        )
    except requests.RequestException as error:
        with traffic.lock:
            traffic.errors.append(f"{player.index}: POST {error}")
        return
    traffic.count(other)
    with traffic.lock:
        traffic.posts[response.status_code] += 1


def stale_answers(seen: list[Seen]) -> list[str]:
    """Answers that named an older phase than one an answer finished before they were
    asked had named, in the same campaign (phase ids grow as phases open)."""
    stale = []
    by_campaign = defaultdict(list)
    for answer in seen:
        by_campaign[answer.campaign_id].append(answer)
    for answers in by_campaign.values():
        finished = sorted(answers, key=lambda a: a.end)
        ends = [a.end for a in finished]
        newest, best = [], 0
        for answer in finished:
            best = max(best, answer.phase_id)
            newest.append(best)
        for answer in answers:
            before = bisect.bisect_left(ends, answer.start)
            if before and answer.phase_id < newest[before - 1]:
                stale.append(
                    f"campaign {answer.campaign_id}: node {answer.node} showed phase "
                    f"{answer.phase_id} after phase {newest[before - 1]} had been shown"
                )
    return stale


def latencies(seen: list[Seen]) -> str:
    """The answers' times, for the summary: median, 95th percentile and longest."""
    times = sorted(answer.end - answer.start for answer in seen)
    if not times:
        return "no answers"
    median, p95 = times[len(times) // 2], times[int(len(times) * 0.95)]
    return f"answered in {median:.2f} s (median), {p95:.2f} s (p95), {times[-1]:.2f} s (longest)"


# -- the test ------------------------------------------------------------------------


def redis_or_fail():
    import redis

    client = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.fail(f"Redis at 127.0.0.1:6379 does not answer ({error}): this test needs it")
    return client


def make_campaigns() -> tuple[list[Campaign], list]:
    """Enough campaigns to seat PLAYERS players, each phase DEADLINE_SECONDS long; not
    started yet."""
    User = get_user_model()
    campaigns, users = [], []
    count = -(-PLAYERS // POWERS_PER_CAMPAIGN)
    for number in range(count):
        campaign = make_eia_campaign(start=False)
        hours = DEADLINE_SECONDS / 3600
        campaign.name = f"Two nodes {number:02d}"
        campaign.deadline_hours = {
            key: hours for spec in campaign.rules.phases for key in (spec.key, spec.schedule_key)
        }
        campaign.save(update_fields=["name", "deadline_hours"])
        seats = campaign.seats.filter(role=Seat.Role.PLAYER).order_by("power__sort")
        for seat in seats:
            if len(users) == PLAYERS:
                break
            name = f"node-player-{len(users):03d}"
            user = User.objects.create_user(name, email=f"{name}@players.test")
            seat.user = user
            seat.save(update_fields=["user"])
            users.append((user, campaign))
        campaigns.append(campaign)
    return campaigns, users


def wait_until_quiet(sink: MailSink, cluster: Cluster, seconds: float = 60) -> None:
    """Until no task is queued or running and no mail came for two seconds."""
    deadline = time.monotonic() + seconds
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        cluster.check_alive()
        busy = (
            DBTaskResult.objects.ready().exists()
            or DBTaskResult.objects.filter(status="RUNNING").exists()
        )
        if sink.count() != last or busy:
            last, since = sink.count(), time.monotonic()
        elif time.monotonic() - since > 2:
            return
        time.sleep(0.3)
    raise AssertionError("the workers did not finish their tasks")


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_two_nodes_two_workers_and_a_clock_resolve_each_phase_once(on_postgresql):
    began = time.monotonic()
    # not pytest's tmp_path: a run of other tests beside this one may remove it meanwhile
    folder = tempfile.TemporaryDirectory(prefix="courier-two-nodes-")
    tmp_path = Path(folder.name)
    cache = redis_or_fail()
    cache.flushdb()
    sink = MailSink()
    (tmp_path / "two_nodes_settings.py").write_text(
        "import os\n\nfrom courier.settings import *  # noqa: F403\n\n"
        'STATIC_ROOT = os.environ["TWO_NODES_STATIC_ROOT"]\n'
    )
    ports = [free_port(), free_port()]
    nodes = [f"http://127.0.0.1:{port}" for port in ports]
    database = connection.settings_dict
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "two_nodes_settings",
        "TWO_NODES_STATIC_ROOT": str(tmp_path / "static"),
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{database['NAME']}",
        "COURIER_CACHE_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_HTTPS": "0",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(sink.port),
        "EMAIL_USE_TLS": "0",
        "COURIER_SITE_URL": nodes[0],
        "COURIER_CLOCK_INTERVAL": "1",
    }
    if database.get("PASSWORD"):
        env["PGPASSWORD"] = database["PASSWORD"]
    cluster = Cluster(tmp_path, env)
    stop = threading.Event()
    threads: list[threading.Thread] = []
    try:
        collect = subprocess.run(
            manage("collectstatic", "--noinput", "-v0"), cwd=ROOT, env=env, capture_output=True
        )
        assert collect.returncode == 0, collect.stderr.decode()[-3000:]
        for number, port in enumerate(ports):
            cluster.start(
                f"node{number}",
                [
                    *(PYTHON, "-m", "gunicorn", "courier.wsgi"),
                    *("--bind", f"127.0.0.1:{port}", "--workers", "2", "--threads", "4"),
                    *("--keep-alive", "30", "--timeout", "60", "--no-control-socket"),
                ],
            )
        for number in range(2):
            cluster.start(f"worker{number}", manage("db_worker", "--interval", "0.2"))
        cluster.start("clock", manage("clock"))

        campaigns, users = make_campaigns()  # while the processes start
        sessions = {user.pk: log_in(user) for user, _ in users}
        for number, base in enumerate(nodes):
            wait_healthy(cluster, f"node{number}", base, time.monotonic() + 60)
        for campaign in campaigns:
            start_campaign(campaign, actor=None)

        traffic = Traffic()
        players = []
        for index, (user, campaign) in enumerate(users):
            session = requests.Session()
            session.cookies.set("sessionid", sessions[user.pk])
            players.append(Player(index, user.pk, campaign.pk, session, index % 2 == 0))
        threads = [
            threading.Thread(target=play, args=(p, nodes, traffic, stop), daemon=True)
            for p in players
        ]
        played = time.monotonic()
        for thread in threads:
            thread.start()
        ids = [c.pk for c in campaigns]
        while time.monotonic() - played < PLAY_SECONDS:
            cluster.check_alive()
            resolved = Counter(
                Phase.objects.filter(campaign_id__in=ids, status=Phase.Status.RESOLVED).values_list(
                    "campaign_id", flat=True
                )
            )
            if all(resolved[pk] >= MIN_RESOLVED for pk in ids):
                break
            if int(time.monotonic() - played) % 10 == 0:
                print(f"{time.monotonic() - played:.0f} s: resolved {sorted(resolved.values())}")
            time.sleep(1)
        play_time = time.monotonic() - played
        stop.set()
        for thread in threads:
            thread.join(ANSWER_SECONDS + 5)
        cluster.stop("clock")  # no deadline passes now; the workers finish what is queued
        wait_until_quiet(sink, cluster)

        # every campaign went through its phases, some resolved at their deadline
        phases = list(Phase.objects.filter(campaign_id__in=ids).order_by("pk"))
        resolved = [p for p in phases if p.status == Phase.Status.RESOLVED]
        per_campaign = Counter(p.campaign_id for p in resolved)
        assert all(per_campaign[pk] >= MIN_RESOLVED for pk in ids), (
            f"resolved phases per campaign {dict(per_campaign)} (wanted {MIN_RESOLVED} each)"
            f" in {play_time:.0f} s"
        )
        # ... each exactly once: one log line, one task that resolved it
        lines = Counter(
            Event.objects.filter(
                campaign_id__in=ids, kind=Event.Kind.PHASE, text__endswith=" resolved."
            ).values_list("phase_id", flat=True)
        )
        tasks = list(DBTaskResult.objects.filter(task_path=RESOLVE))
        outcomes = Counter(
            (t.args_kwargs["args"][1], t.return_value) for t in tasks if t.status == "SUCCESSFUL"
        )
        failed = [t for t in tasks if t.status != "SUCCESSFUL"]
        assert not failed, [(t.args_kwargs, t.status) for t in failed]
        for phase in resolved:
            assert lines[phase.pk] == 1, f"phase {phase.pk} logged {lines[phase.pk]} resolutions"
            assert outcomes[(phase.pk, "resolved")] == 1, f"phase {phase.pk}: {outcomes}"
        assert sum(n for (_, value), n in outcomes.items() if value == "resolved") == len(resolved)
        reasons = Counter(t.args_kwargs["args"][2] for t in tasks if t.return_value == "resolved")
        assert reasons["deadline"] > 0, reasons
        skipped = sum(n for (_, value), n in outcomes.items() if value == "skipped")

        # no answer older than one seen before it, whichever node gave either
        assert not traffic.errors, traffic.errors[:10]
        assert traffic.requests[0] > 0 and traffic.requests[1] > 0
        assert not (stale := stale_answers(traffic.seen)), stale[:10]
        refused = {status: n for status, n in traffic.posts.items() if status not in (302, 303)}

        # every mail once
        mails = [Mail.parse(raw) for raw in sink.mails]
        # an opening or resolution names its turn and phase: none may come twice; a
        # reminder names its phase and deadline to the minute, which two quick phases of
        # the same name may share, so they are counted against the reminders' table below
        copies = Counter(mail.key for mail in mails if mail.kind != "reminder")
        assert not (twice := [key for key, n in copies.items() if n > 1]), twice[:10]
        kinds = Counter(mail.kind for mail in mails)
        by_user = defaultdict(Counter)
        for mail in mails:
            by_user[mail.to][mail.kind] += 1
        opened = Counter(p.campaign_id for p in phases)
        reminded = Counter(
            to
            for to, _ in set(
                ReminderSent.objects.filter(phase__campaign_id__in=ids).values_list(
                    "user__email", "phase_id"
                )
            )
        )
        for user, campaign in users:
            got = by_user[user.email]
            assert got["open"] == opened[campaign.pk], (user.email, got, opened[campaign.pk])
            assert got["resolved"] == per_campaign[campaign.pk], (user.email, got)
            assert got["reminder"] == reminded[user.email], (user.email, got)
        assert kinds["open"] and kinds["resolved"] and kinds["reminder"], kinds
        others = Counter(  # what else went (a power that missed its deadlines…)
            re.sub(r"^\[Two nodes \d+\] ", "", mail.subject)
            for mail in mails
            if mail.kind == "other"
        )
    finally:
        stop.set()
        for thread in threads:
            thread.join(5)
        cluster.stop_all()
        sink.shutdown()
        sink.server_close()
        cache.flushdb()
        folder.cleanup()

    total = time.monotonic() - began
    shapes = ", ".join(f"{n}× “{subject}”" for subject, n in others.most_common(3))
    other_kinds = f" ({shapes})" if shapes else ""
    summary = [
        f"Two nodes (tests/reliability/test_two_nodes.py): {len(campaigns)} campaigns, "
        f"{len(users)} players, 2 gunicorn nodes × 2 workers × 4 threads, 2 db_workers, 1 clock "
        f"(1 s), PostgreSQL + Redis, DEBUG=0, deadlines {DEADLINE_SECONDS} s",
        f"- phases resolved: {len(resolved)} (each exactly once; {reasons['deadline']} at "
        f"their deadline, {reasons['everyone is ready']} when everyone was ready; "
        f"{skipped} second triggers skipped), in {play_time:.0f} s of play",
        f"- requests: node 0 {traffic.requests[0]}, node 1 {traffic.requests[1]}; "
        f"ready posts {sum(traffic.posts.values())} (refused: {refused or 'none'}); "
        f"stale pages 0 of {len(traffic.seen)} answers; {latencies(traffic.seen)}",
        f"- mails (SMTP): {len(mails)} — {kinds['open']} phase open, {kinds['resolved']} "
        f"resolved, {kinds['reminder']} reminders, {kinds['other']} others{other_kinds}; "
        "none twice",
        f"- run time {total:.0f} s",
    ]
    print("\n" + "\n".join(summary))
