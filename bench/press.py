"""Press under load: players posting press through gunicorn, and the queries of the pages
of a campaign with 5,000 messages.

    python bench/press.py                          # 100 players, 60 s, then the pages
    python bench/press.py --duration 10            # a quick run
    python bench/press.py --think 0 --save-as press-saturation
    python bench/press.py --results bench/RESULTS.md   # also write its section there

Campaigns are generated (bench/generate.py, --areas areas each, 7 powers, a user in
every seat) to seat --players players. gunicorn serves Courier (bench.settings, 2 × cores
+ 1 sync workers) with COURIER_PRESS_RATE_LIMIT set to --rate-limit messages a minute
per user (60 by default: the random think times of a paced run stay under it; the
limit itself is Courier's, counted in the cache). Each player is a thread using the
standard library only (urllib): it opens the press page once for its CSRF cookie and
token, as a browser does, then until the end of --duration waits a think time (uniform
from 0 to twice --think) and posts a message the way the campaign page's HTMX form
does: to everyone, to its channel with the GM, or privately to one to three other
powers of its campaign, at random; each text names the player and its sequence number.

Afterwards the database is counted: every acknowledged post (HTTP 200) must be a
Message row with its text, in the channel it was sent to, signed by the player's power;
an acknowledged post without its row is lost; a row without an acknowledgement is
reported too. Latency is the client's, from sending the request to reading the whole
response.

Then the queries of the pages of one campaign with --messages messages (public and
private, by every power), counted in-process with Django's test client: the press page,
the public channel's page, the campaign page's press panel and the campaign page itself,
each as a reader opens it again (its first visit marks it read); and the same at 50
messages, to show that they do not grow.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from bench import browsing, common  # noqa: E402
from bench.generate import NAME_PREFIX, make_campaign  # noqa: E402
from campaign.models import Campaign, Channel, Message  # noqa: E402

BACKEND = "django.contrib.auth.backends.ModelBackend"
SECTION = "## Press"
P95_TARGET_MS = 150


@dataclass
class Player:
    campaign_id: int
    power: str
    others: list[str]
    session: str
    cookie: str = ""
    token: str = ""
    posts: list[tuple[float, int]] = field(default_factory=list)  # seconds, status
    acknowledged: list[tuple[str, str]] = field(default_factory=list)  # text, channel key
    failures: list[str] = field(default_factory=list)


def prepare(players: int, areas: int) -> list[Player]:
    """Campaigns with a session for every power's player."""
    Campaign.objects.filter(name__startswith=f"{NAME_PREFIX} press").delete()
    seated: list[Player] = []
    for n in range(math.ceil(players / 7)):
        generated = make_campaign(areas=areas, seed=3000 + n, name=f"{NAME_PREFIX} press #{n + 1}")
        keys = list(generated.campaign.powers.values_list("key", flat=True))
        for key in keys:
            client = Client(HTTP_HOST="127.0.0.1")
            client.force_login(generated.users[key], backend=BACKEND)
            others = [k for k in keys if k != key]
            session = client.cookies["sessionid"].value
            seated.append(Player(generated.campaign.pk, key, others, session))
    return seated[:players]


def visit(base: str, player: Player) -> None:
    """The first visit: the CSRF cookie and the token of the page's forms."""
    url = base + reverse("campaign:press", args=[player.campaign_id])
    player.cookie, player.token = browsing.first_visit(url, player.session)


def message(player: Player, n: int, rng: random.Random) -> tuple[list[tuple[str, str]], str]:
    """A post's form data and the key of the channel it goes to."""
    text = f"{player.campaign_id}/{player.power} #{n}: " + " ".join(["news"] * rng.randint(1, 40))
    data = [("csrfmiddlewaretoken", player.token), ("view", "panel"), ("text", text)]
    kind = rng.choice(("public", "gm", "private"))
    if kind == "public":
        return data + [("to", "public")], "public"
    if kind == "gm":
        return data + [("to", "gm")], f"gm-{player.power}"
    chosen = rng.sample(player.others, rng.randint(1, 3))
    key = "+".join(sorted([player.power, *chosen]))
    return data + [("to", "private")] + [("powers", k) for k in chosen], key


def send(base: str, player: Player, data: list[tuple[str, str]]) -> int:
    url = base + reverse("campaign:press", args=[player.campaign_id])
    return browsing.htmx_post(url, player.cookie, data)


def play(base: str, player: Player, start: float, end: float, think: float, seed: int) -> None:
    rng = random.Random(seed)
    time.sleep(max(0.0, start - time.time() + rng.uniform(0, 2 * think)))
    n = 0
    while time.time() < end:
        n += 1
        data, key = message(player, n, rng)
        began = time.perf_counter()
        try:
            status = send(base, player, data)
        except Exception as error:  # a refused connection, a timeout: an error, counted
            status = 0
            player.failures.append(f"{type(error).__name__}: {error}")
        player.posts.append((time.perf_counter() - began, status))
        if status == 200:
            player.acknowledged.append((dict(data)["text"], key))
        elif status:
            player.failures.append(f"HTTP {status}")
        time.sleep(rng.uniform(0, 2 * think))


def posts_alone(base: str, player: Player, count: int = 10) -> list[float]:
    """Milliseconds of posts made one after the other on an otherwise idle server."""
    rng, times = random.Random(0), []
    for n in range(count):
        data, key = message(player, -n - 1, rng)
        began = time.perf_counter()
        if send(base, player, data) == 200:
            player.acknowledged.append((dict(data)["text"], key))
        times.append((time.perf_counter() - began) * 1000)
    return times


def requests_alone(base: str, path: str, player: Player | None = None, count=10) -> list[float]:
    """The same for the yardsticks: bench/urls.py's constant view (the middleware stack
    alone) and the campaign page's phase status poll (a signed-in request of four queries
    that answers 204), as ``player``."""
    headers = {"Cookie": player.cookie} if player else {}
    times = []
    for _ in range(count):
        began = time.perf_counter()
        with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers)) as r:
            r.read()
        times.append((time.perf_counter() - began) * 1000)
    return times


def status_url(campaign_id: int) -> str:
    phase = Campaign.objects.get(pk=campaign_id).phase
    return reverse("campaign:status", args=[campaign_id]) + f"?phase={phase.pk}&status=open"


def check(players: list[Player]) -> dict:
    """Count in the database what the acknowledged posts should have left there."""
    campaigns = {p.campaign_id for p in players}
    rows = Counter(
        Message.objects.filter(campaign_id__in=campaigns)
        .values_list("campaign_id", "power__key", "text", "channel__key")
        .order_by()
    )
    expected = Counter(
        (p.campaign_id, p.power, text, key) for p in players for text, key in p.acknowledged
    )
    lost = sum((expected - rows).values())
    return {
        "acknowledged": sum(expected.values()),
        "rows": sum(rows.values()),
        "lost": lost,
        "saved_without_acknowledgement": sum((rows - expected).values()),
        "channels": Channel.objects.filter(campaign_id__in=campaigns).count(),
    }


def load(args) -> dict:
    load_start = os.getloadavg()[0]
    players = prepare(args.players, args.areas)
    campaigns = len({p.campaign_id for p in players})
    print(
        f"Press: {len(players)} players in {campaigns} campaigns, {args.duration:g} s, one post "
        f"every ~{args.think:g} s each, at most {args.rate_limit} a minute per user"
    )
    os.environ["COURIER_PRESS_RATE_LIMIT"] = str(args.rate_limit)
    with common.gunicorn(args.workers) as base:
        for player in players:
            visit(base, player)
        alone = {
            "post": posts_alone(base, players[0]),
            "status": requests_alone(base, status_url(players[0].campaign_id), players[0]),
            "constant": requests_alone(base, "/bench/constant/"),
        }
        start = time.time() + 1
        end = start + args.duration
        threads = [
            threading.Thread(target=play, args=(base, p, start, end, args.think, i))
            for i, p in enumerate(players)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        finished = time.time()
    latencies = [seconds * 1000 for p in players for seconds, status in p.posts if status == 200]
    errors = [f for p in players for f in p.failures]
    posts = sum(len(p.posts) for p in players)
    figures = {
        "load_start": load_start,
        "load_end": os.getloadavg()[0],
        "finished": f"{datetime.now(UTC):%Y-%m-%d %H:%M}",
        "players": len(players),
        "campaigns": campaigns,
        "duration": args.duration,
        "think": args.think,
        "rate_limit": args.rate_limit,
        "workers": args.workers,
        "posts": posts,
        "posts_per_s": posts / (finished - start),
        "errors": len(errors),
        "error_kinds": dict(Counter(e.split(":")[0] for e in errors)),
        "alone_post_ms": common.median(alone["post"]),
        "alone_constant_ms": common.median(alone["constant"]),
        "alone_status_ms": common.median(alone["status"]),
        "p50_ms": common.percentile(latencies, 0.50),
        "p95_ms": common.percentile(latencies, 0.95),
        "p99_ms": common.percentile(latencies, 0.99),
        "max_ms": max(latencies, default=float("nan")),
        **check(players),
    }
    print(
        f"  {posts} posts ({figures['posts_per_s']:.1f}/s), {figures['errors']} errors "
        f"{figures['error_kinds'] or ''}, {figures['lost']} lost, "
        f"{figures['saved_without_acknowledgement']} saved without acknowledgement"
    )
    print(
        f"  alone: a post {figures['alone_post_ms']:.1f} ms, the phase status poll "
        f"{figures['alone_status_ms']:.1f} ms, the constant view "
        f"{figures['alone_constant_ms']:.1f} ms (medians of 10)"
    )
    print(
        f"  latency p50 {figures['p50_ms']:.1f} ms, p95 {figures['p95_ms']:.1f} ms, "
        f"p99 {figures['p99_ms']:.1f} ms, max {figures['max_ms']:.1f} ms"
    )
    return figures


# -- the pages of a campaign with many messages -----------------------------------------


def fill(count: int, areas: int) -> tuple[Campaign, dict]:
    """A campaign with ``count`` messages: a third public, a third to the GM, a third in
    private channels of two powers, by every power in turn."""
    generated = make_campaign(areas=areas, seed=4000 + count, name=f"{NAME_PREFIX} press {count}")
    campaign = generated.campaign
    powers = list(campaign.powers.all())
    users = generated.users
    channels = {"public": Channel.objects.create(campaign=campaign, kind="public", key="public")}
    for i, power in enumerate(powers):
        channels[f"gm-{power.key}"] = Channel.objects.create(
            campaign=campaign, kind="gm", key=f"gm-{power.key}"
        )
        channels[f"gm-{power.key}"].members.set([power])
        partner = powers[(i + 1) % len(powers)]
        key = "+".join(sorted([power.key, partner.key]))
        channels[power.key] = Channel.objects.create(campaign=campaign, kind="private", key=key)
        channels[power.key].members.set([power, partner])
    rows = []
    for n in range(count):
        power = powers[n % len(powers)]
        channel = (channels["public"], channels[f"gm-{power.key}"], channels[power.key])[n % 3]
        rows.append(
            Message(
                campaign=campaign,
                channel=channel,
                author=users[power.key],
                power=power,
                turn=1,
                phase_id=campaign.phase_id,
                text=f"message {n} " + "news " * (n % 40),
            )
        )
    Message.objects.bulk_create(rows, batch_size=1000)
    return campaign, users


def page_queries(count: int, areas: int) -> dict[str, int]:
    campaign, users = fill(count, areas)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(users["austria"], backend=BACKEND)
    press = reverse("campaign:press", args=[campaign.pk])
    public = reverse("campaign:press_channel", args=[campaign.pk, "public"])
    pages = {
        "press page (every channel)": press,
        "a channel's page (public)": public,
        "campaign page's press panel": f"{press}?part=panel",
        "press panel's poll, unchanged": None,
        "campaign page": reverse("campaign:detail", args=[campaign.pk]),
    }
    counts = {}
    for name, url in pages.items():
        if url is None:
            body = client.get(f"{press}?part=panel").content.decode()
            stamp = re.search(r"stamp=([0-9a-f]+)", body).group(1)
            url = f"{press}?part=channels&stamp={stamp}"
        client.get(url)  # the first visit marks what it shows read
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code in (200, 204), (name, response.status_code)
        counts[name] = len(captured)
    return counts


def pages(args) -> dict:
    small, large = page_queries(50, args.areas), page_queries(args.messages, args.areas)
    print(f"Queries at 50 and {args.messages} messages:")
    for name in large:
        print(f"  {name:<32} {small[name]:>3} {large[name]:>3}")
    return {"messages": args.messages, "small": small, "large": large}


# -- results ----------------------------------------------------------------------------


def section(load_figures: dict, page_figures: dict) -> str:
    f = load_figures
    rows = [
        [name, page_figures["small"][name], page_figures["large"][name]]
        for name in page_figures["large"]
    ]
    return "\n\n".join(
        [
            SECTION,
            f"`bench/press.py` on {f['finished']} UTC (load average "
            f"{f['load_start']:.2f} at the start, {f['load_end']:.2f} at the end, "
            f"on {os.cpu_count()} cores): {f['players']} players in "
            f"{f['campaigns']} campaigns, each a thread posting press through the campaign "
            f"page's HTMX form for {f['duration']:g} s (to everyone, to the GM or to one to "
            f"three other powers, at random), a think time of ~{f['think']:g} s between "
            f"posts, at most {f['rate_limit']} messages a minute per user; gunicorn with "
            f"{f['workers']} sync workers. *Lost*: acknowledged posts without their Message "
            f"row (text, channel and power checked): {f['rows']} rows for "
            f"{f['acknowledged']} acknowledged posts (the run's and the 10 made alone, below), "
            f"{f['channels']} channels. Before the "
            f"run, one request at a time (medians of 10): a post {f['alone_post_ms']:.1f} ms; "
            f"for scale, the campaign page's phase status poll (signed in, 204) "
            f"{f['alone_status_ms']:.1f} ms and the constant view (the middleware stack "
            f"alone) {f['alone_constant_ms']:.1f} ms.",
            common.table(
                ["posts", "posts/s", "errors", "lost", "p50 ms", "p95 ms", "p99 ms", "max ms"],
                [
                    [
                        f["posts"],
                        f["posts_per_s"],
                        f["errors"],
                        f["lost"],
                        f["p50_ms"],
                        f["p95_ms"],
                        f["p99_ms"],
                        f["max_ms"],
                    ]
                ],
            ),
            f"Targets: 0 errors, {common.verdict(f['errors'] == 0)}; 0 lost, "
            f"{common.verdict(f['lost'] == 0)}; p95 at most {P95_TARGET_MS} ms, "
            f"{common.verdict(f['p95_ms'] <= P95_TARGET_MS)}." + busy(f),
            "Queries of the pages (a reader's second visit; in-process, Django's test "
            "client), with 50 and with "
            f"{page_figures['messages']:,} messages in the campaign:",
            common.table(["page", "50 messages", f"{page_figures['messages']:,}"], rows),
        ]
    )


def busy(f: dict) -> str:
    """A note when the server could not keep up with the players: the median post took
    more than three times a post made alone, so most of the latency was the wait for a
    worker."""
    if f["p50_ms"] <= 3 * f["alone_post_ms"]:
        return ""
    return (
        f" The median post took {f['p50_ms']:.0f} ms against {f['alone_post_ms']:.0f} ms for "
        f"a post alone: the server was saturated, and the latency is mostly the wait for a "
        f"worker (load average {f['load_start']:.1f} at the start on "
        f"{os.cpu_count()} cores)."
    )


def write_section(path: Path, text: str) -> None:
    """Put the section in RESULTS.md, in place of the one a previous run wrote."""
    current = path.read_text() if path.exists() else ""
    if SECTION in current:
        before, _, rest = current.partition(SECTION)
        following = rest.find("\n## ")
        current = before + (rest[following + 1 :] if following >= 0 else "")
    path.write_text(current.rstrip() + "\n\n" + text.rstrip() + "\n")
    print(f"\nSection written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--duration", type=float, default=60, help="seconds")
    parser.add_argument("--think", type=float, default=6.0, help="mean seconds between posts")
    parser.add_argument("--rate-limit", type=int, default=60, help="messages a minute per user")
    parser.add_argument("--areas", type=int, default=40)
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=common.default_workers())
    parser.add_argument("--save-as", default="press", help="name of the figures file")
    parser.add_argument("--results", type=Path, help="also write the section to this file")
    args = parser.parse_args()
    figures = {"load": load(args), "pages": pages(args)}
    common.save(args.save_as, figures)
    if args.results:
        write_section(args.results, section(figures["load"], figures["pages"]))


if __name__ == "__main__":
    main()
