"""Web Push: a phase opening pushed to the players' devices in 15 campaigns.

    python bench/push.py                              # 15 campaigns, 3 rounds
    python bench/push.py --campaigns 3 --rounds 1 --results /tmp/RESULTS.md

PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/courier_bench_push,
created if missing (bench/database.py) and migrated; the campaigns and users a previous
run left there are deleted first. Settings as the other scripts (bench/common.py).

--campaigns Empires in Arms campaigns (tests/factories.py make_eia_campaign), a user with
one device and no mail address in each of the 7 powers' seats and in the GM's, the peace
step resolved so that the revolt step is open, where every power owes orders. The devices
are subscribed to a push service on this machine (tests/push_receiver.py), which answers
201 at once. A round calls campaign.notify.notifications._phase_opened(campaign, phase) for every
campaign (each notice written in its reader's language and a campaign.notify.push.deliver_push
task queued), timed as *queue*; then deliver_push.call(...) for each row it queued (the
notice encrypted for the device, signed with the site's VAPID key and POSTed to the push
service), timed as *send*. Pushes per second of each and end to end; every device's
notices are then decrypted with its own keys and counted. --rounds rounds after a
warm-up campaign.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/courier_bench_push")
    from bench.common import setup_django

    setup_django()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402
from django_tasks_db.models import DBTaskResult  # noqa: E402

from bench import common, database  # noqa: E402
from bench.mail import code, peace_step_resolved, write_section  # noqa: E402
from bench.report import shared_cache  # noqa: E402
from campaign.models import Campaign, Phase, Seat  # noqa: E402
from campaign.notify import notifications, push  # noqa: E402
from tests.factories import make_eia_campaign  # noqa: E402
from tests.push_receiver import Device, PushService, vapid_keys  # noqa: E402

PREFIX = "Push bench"
USERS = "pushbench-"
DELIVER = "campaign.notify.push.deliver_push"
SECTION = "## Push"


def clean() -> None:
    """Delete the campaigns and users of a previous run."""
    for pk in Campaign.objects.filter(name__startswith=PREFIX).values_list("pk", flat=True):
        Campaign.objects.filter(pk=pk).delete()
    get_user_model().objects.filter(username__startswith=USERS).delete()


def revolt_step(label: str, service: PushService, devices: dict[str, Device]) -> tuple:
    """A started campaign, a user with a device in every power's seat and in the GM's, its
    peace step resolved: the revolt step is open."""
    campaign = make_eia_campaign()
    campaign.name = f"{PREFIX} {label}"
    campaign.save(update_fields=["name"])
    for seat in campaign.seats.select_related("power").exclude(role=Seat.Role.OBSERVER):
        key = f"{campaign.pk}-{seat.power.key if seat.power else 'gm'}"
        seat.user = get_user_model().objects.create_user(f"{USERS}{key}")
        seat.save(update_fields=["user"])
        device = devices[key] = Device()
        endpoint = service.endpoint(key)
        push.subscribe(seat.user, endpoint=endpoint, device=key, **device.keys())
    return peace_step_resolved(campaign)


def push_round(opened: list[tuple[Campaign, Phase]]) -> dict:
    """Open the phase of every campaign once: notices queued, then sent."""
    since = timezone.now()
    began = time.perf_counter()
    for campaign, phase in opened:
        notifications._phase_opened(campaign, phase)
    queue = time.perf_counter() - began
    rows = list(DBTaskResult.objects.filter(task_path=DELIVER, enqueued_at__gte=since))
    began = time.perf_counter()
    sent = Counter(push.deliver_push.call(*row.args_kwargs["args"]) for row in rows)
    send = time.perf_counter() - began
    DBTaskResult.objects.filter(pk__in=[row.pk for row in rows]).delete()
    count = len(rows)
    return {
        "pushes": count,
        "sent": dict(sent),
        "queue_s": queue,
        "send_s": send,
        "queue_per_s": count / queue,
        "send_per_s": count / send,
        "end_to_end_per_s": count / (queue + send),
    }


def phase_opening(campaigns: int, rounds: int) -> dict:
    private, public = vapid_keys()
    with (
        PushService() as service,
        override_settings(
            VAPID_PRIVATE_KEY=private,
            VAPID_PUBLIC_KEY=public,
            WEBHOOK_ALLOW_PRIVATE=True,
            PUSH_SERVICES=["127.0.0.1"],
        ),
    ):
        devices: dict[str, Device] = {}
        opened = [revolt_step(f"#{n + 1}", service, devices) for n in range(campaigns)]
        service.received.clear()
        print(f"Phase opened: {campaigns} campaigns (revolt step open), {rounds} round(s)")
        warm_up = push_round(opened[:1])  # translations, imports, the first connections
        results = []
        for n in range(rounds):
            r = push_round(opened)
            results.append(r)
            print(
                f"  round {n + 1}: {r['pushes']} pushes, queue {r['queue_per_s']:.1f}/s, "
                f"send {r['send_per_s']:.1f}/s, end to end {r['end_to_end_per_s']:.1f}/s; "
                f"{r['sent']}"
            )
        read = service.read(devices, public)
    decrypted = sum(len(notices) for notices in read.values())
    pushed = warm_up["pushes"] + sum(r["pushes"] for r in results)
    return {"campaigns": campaigns, "rounds": results, "pushed": pushed, "decrypted": decrypted}


def section(f: dict) -> str:
    opening = f["opening"]
    rounds = opening["rounds"]
    rows = [
        [
            n + 1,
            r["pushes"],
            r["queue_per_s"],
            r["send_per_s"],
            r["end_to_end_per_s"],
            r["queue_s"] * 1000 / r["pushes"],
            r["send_s"] * 1000 / r["pushes"],
        ]
        for n, r in enumerate(rounds)
    ]
    sent = sum(r["sent"].get("sent", 0) for r in rounds)
    return "\n\n".join(
        [
            SECTION,
            f"`bench/push.py` on {f['finished']} UTC at {f['code']} (load average "
            f"{f['load_start']:.2f} at the start, {f['load_end']:.2f} at the end, on "
            f"{os.cpu_count()} cores; PostgreSQL on loopback, DJANGO_DEBUG=0, {f['cache']}). "
            "In-process, one thread; the push service is a local HTTP server that answers "
            "201 at once.",
            f"A phase opening: {opening['campaigns']} Empires in Arms campaigns of 7 powers, "
            "a user with one device and no mail address in each power's seat and in the GM's; "
            "the revolt step open, where every power owes orders (the GM, who owes none, is "
            "not pushed). *Queue*: "
            "`campaign.notify.notifications._phase_opened(campaign, phase)` for each campaign "
            "(each notice written in its reader's language and its "
            "`deliver_push` task row); *send*: `deliver_push.call(...)` for each row (the "
            "payload encrypted for the device, RFC 8291, the VAPID signature made, the POST "
            "to the push service). One round opens the phase of every campaign, after a "
            f"warm-up campaign. Sent in the rounds: {sent}; of the run's {opening['pushed']} "
            "pushes (the warm-up's with them), decrypted afterwards by their devices with "
            f"their own keys: {opening['decrypted']}.",
            common.table(
                [
                    "round",
                    "pushes",
                    "queue /s",
                    "send /s",
                    "end to end /s",
                    "queue ms/push",
                    "send ms/push",
                ],
                rows,
            ),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--results", type=Path, default=common.BENCH / "RESULTS.md")
    args = parser.parse_args()
    database.main()
    call_command("migrate", verbosity=0)
    clean()
    load_start = os.getloadavg()[0]
    figures = {"opening": phase_opening(args.campaigns, args.rounds)}
    figures |= {
        "load_start": load_start,
        "load_end": os.getloadavg()[0],
        "finished": f"{datetime.now(UTC):%Y-%m-%d %H:%M}",
        "code": code(),
        "cache": shared_cache(),
    }
    common.save("push", figures)
    write_section(args.results, section(figures))


if __name__ == "__main__":
    main()
