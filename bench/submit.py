"""Concurrent order submission: simulated players posting orders through gunicorn.

    python bench/submit.py                       # 100 players, 60 s
    python bench/submit.py --duration 10         # a quick run
    python bench/submit.py --players 100 --think 1 --areas 400

Enough campaigns are generated (bench/generate.py, --areas areas each, 7 powers) to
seat --players players, one user per power, each campaign moved on to its revolt step
(every power gives orders there). gunicorn serves Courier (bench.settings, 2 × cores +
1 sync workers). Each player is a thread with only the standard library (urllib): it
visits a page once for its CSRF cookie and token, as a browser does, then until the
end of --duration waits a think time (uniform from 0 to twice --think, so about one
post per --think seconds each) and posts valid orders to the orders endpoint the way
the page's HTMX form does (HX-Request, the CSRF token, the phase, one to three revolt
targets picked at random among the legal ones, saved as a draft).

Afterwards the database is counted: each power's Order row must hold the payload of its
last acknowledged post (HTTP 200), and the log its one line for those saves ("… saved
its orders as a draft", written in the same transaction as the order: a draft saved
again by the same user takes the place of the earlier line, campaign.play.services
``_log_save``). A power whose acknowledged posts left no line, or whose row holds another
payload, lost an order; a line without an acknowledged post is reported too. Latency is
measured by the client, from sending the request to reading the whole response.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from bench import browsing, common  # noqa: E402
from bench.generate import NAME_PREFIX, make_campaign  # noqa: E402
from campaign.models import Event, Order  # noqa: E402
from campaign.play.services import resolve_open_phase  # noqa: E402
from rules.empires_in_arms import legal  # noqa: E402
from rules.empires_in_arms.services import load_state  # noqa: E402

BACKEND = "django.contrib.auth.backends.ModelBackend"
DRAFT = "saved its orders as a draft"


@dataclass
class Player:
    campaign_id: int
    phase_id: int
    power_id: int
    power: str
    session: str
    targets: list[str]
    cookie: str = ""
    token: str = ""
    posts: list[tuple[float, float, int]] = field(default_factory=list)  # start, s, status
    acknowledged: list[list[str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def prepare(players: int, areas: int) -> list[Player]:
    """Campaigns at their revolt step, a session for every player, the legal targets."""
    seated: list[Player] = []
    for n in range(math.ceil(players / 7)):
        generated = make_campaign(
            areas=areas, seed=2000 + n, name=f"{NAME_PREFIX} submit {areas} #{n + 1}"
        )
        campaign = generated.campaign
        resolve_open_phase(campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None)
        campaign.refresh_from_db()
        assert campaign.phase.key == "revolt", campaign.phase.key
        world = load_state(campaign).world
        for power in campaign.powers.all():
            client = Client(HTTP_HOST="127.0.0.1")
            client.force_login(generated.users[power.key], backend=BACKEND)
            seated.append(
                Player(
                    campaign.pk,
                    campaign.phase_id,
                    power.pk,
                    power.key,
                    client.cookies["sessionid"].value,
                    legal.revolt_targets(world, power.key),
                )
            )
    return seated[:players]


def visit(base: str, player: Player) -> None:
    """The first visit: the CSRF cookie and the token of the page's forms."""
    url = base + reverse("campaign:preferences")
    player.cookie, player.token = browsing.first_visit(url, player.session)


def post(base: str, player: Player, targets: list[str]) -> int:
    """Revolt targets, saved as a draft; the HTTP status."""
    data = [("csrfmiddlewaretoken", player.token), ("phase", str(player.phase_id))]
    return send(base, player, data + [("targets", t) for t in targets])


def post_ready(base: str, player: Player, phase_id: int) -> int:
    """The phase's orders as the form posts them with nothing chosen, marked ready."""
    data = [("csrfmiddlewaretoken", player.token), ("phase", str(phase_id)), ("ready", "1")]
    return send(base, player, data)


def send(base: str, player: Player, data: list[tuple[str, str]]) -> int:
    url = base + reverse("campaign:orders", args=[player.campaign_id])
    return browsing.htmx_post(url, player.cookie, data)


def play(base: str, player: Player, start: float, end: float, think: float, seed: int) -> None:
    rng = random.Random(seed)
    time.sleep(max(0.0, start - time.time() + rng.uniform(0, 2 * think)))
    while time.time() < end:
        targets = rng.sample(player.targets, rng.randint(1, min(3, len(player.targets))))
        began = time.perf_counter()
        stamp = time.time()
        try:
            status = post(base, player, targets)
        except Exception as error:  # a refused connection, a timeout: an error, counted
            status = 0
            player.failures.append(f"{type(error).__name__}: {error}")
        player.posts.append((stamp, time.perf_counter() - began, status))
        if status == 200:
            player.acknowledged.append(targets)
        elif status:
            player.failures.append(f"HTTP {status}")
        time.sleep(rng.uniform(0, 2 * think))


def check(players: list[Player]) -> dict:
    """Count in the database what the acknowledged posts should have left there."""
    phases = {p.phase_id for p in players}
    logged = Counter(
        Event.objects.filter(phase_id__in=phases, kind=Event.Kind.ORDER, text__contains=DRAFT)
        .values_list("phase_id", "power_id")
        .order_by()
    )
    orders = {
        (o.phase_id, o.power_id): o.payload
        for o in Order.objects.filter(phase_id__in=phases).only("phase_id", "power_id", "payload")
    }
    lost = unacknowledged_saves = wrong_last = 0
    for p in players:
        saved = logged[(p.phase_id, p.power_id)]  # one line for a power's repeated drafts
        lost += int(bool(p.acknowledged) and saved != 1)
        unacknowledged_saves += int(not p.acknowledged and saved > 0)
        payload = orders.get((p.phase_id, p.power_id)) or {}
        if p.acknowledged and sorted(payload.get("targets", [])) != sorted(p.acknowledged[-1]):
            wrong_last += 1
    with_orders = sum(1 for p in players if p.acknowledged)
    rows = sum(1 for p in players if (p.phase_id, p.power_id) in orders)
    return {
        "acknowledged": sum(len(p.acknowledged) for p in players),
        "log_lines": sum(logged[(p.phase_id, p.power_id)] for p in players),
        "lost": lost,
        "last_order_wrong": wrong_last,
        "order_rows": rows,
        "players_with_acknowledged_orders": with_orders,
        "missing_order_rows": max(0, with_orders - rows),
        "saved_without_acknowledgement": unacknowledged_saves,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--duration", type=float, default=60, help="seconds")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between posts")
    parser.add_argument("--areas", type=int, default=400)
    parser.add_argument("--workers", type=int, default=common.default_workers())
    parser.add_argument("--save-as", default="submit", help="name of the figures file")
    args = parser.parse_args()

    players = prepare(args.players, args.areas)
    campaigns = len({p.campaign_id for p in players})
    print(
        f"Order submission: {len(players)} players in {campaigns} campaigns of {args.areas} "
        f"areas, {args.duration:g} s, one post every ~{args.think:g} s each"
    )
    with common.gunicorn(args.workers) as base:
        for player in players:
            visit(base, player)
        start = time.time() + 1
        end = start + args.duration
        threads = [
            threading.Thread(
                target=play, args=(base, p, start, end, args.think, i), name=f"player-{i}"
            )
            for i, p in enumerate(players)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        finished = time.time()
    posts = [post for p in players for post in p.posts]
    latencies = [seconds * 1000 for _, seconds, status in posts if status == 200]
    errors = [f for p in players for f in p.failures]
    counted = check(players)
    figures = {
        "players": len(players),
        "campaigns": campaigns,
        "areas": args.areas,
        "duration": args.duration,
        "think": args.think,
        "workers": args.workers,
        "posts": len(posts),
        "posts_per_s": len(posts) / (finished - start),
        "errors": len(errors),
        "error_kinds": dict(Counter(e.split(":")[0] for e in errors)),
        "p50_ms": common.percentile(latencies, 0.50),
        "p95_ms": common.percentile(latencies, 0.95),
        "p99_ms": common.percentile(latencies, 0.99),
        "max_ms": max(latencies, default=float("nan")),
        **counted,
    }
    print(
        f"  {figures['posts']} posts ({figures['posts_per_s']:.1f}/s), {figures['errors']} errors "
        f"{figures['error_kinds'] or ''}, {figures['lost']} lost, "
        f"{figures['last_order_wrong']} last orders not the acknowledged ones"
    )
    print(
        f"  latency p50 {figures['p50_ms']:.1f} ms, p95 {figures['p95_ms']:.1f} ms, "
        f"p99 {figures['p99_ms']:.1f} ms, max {figures['max_ms']:.1f} ms"
    )
    print(
        f"  database: {figures['log_lines']} order log lines (one a power) for "
        f"{figures['acknowledged']} "
        f"acknowledged posts; {figures['order_rows']} Order rows for "
        f"{figures['players_with_acknowledged_orders']} players with acknowledged orders"
    )
    common.save(args.save_as, figures)


if __name__ == "__main__":
    main()
