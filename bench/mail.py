"""Mail: a phase opening mailed to the players of 15 campaigns, and 100 replies by mail
that give orders.

    python bench/mail.py                              # 15 campaigns, 3 rounds; 100 replies
    python bench/mail.py --campaigns 3 --rounds 1 --replies 10 --results /tmp/RESULTS.md

PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/courier_bench_mail,
created if missing (bench/database.py) and migrated; the campaigns and users a previous
run left there are deleted first. Settings as the other scripts (bench/common.py:
bench.settings, DJANGO_DEBUG=0), with replies taken at COURIER_MAIL_REPLY_DOMAIN
(replies.courier.test unless set) and Django's locmem mail backend.

1. Phase opened: --campaigns Empires in Arms campaigns (tests/factories.py
   make_eia_campaign), a user with a mail address in each of the 7 powers' seats and in
   the GM's, the peace step resolved so that the revolt step is open, where every power
   owes orders: each player's mail carries their order form and a reply address. A round
   calls campaign.notify.notifications._phase_opened(campaign, phase) for every campaign (each
   reader's multipart mail written by campaign/notify/outgoing.py and a
   campaign.notify.delivery.deliver_mail task queued: a django_tasks_db row), timed as *build +
   queue*; then deliver_mail.call(*row.args_kwargs["args"]) for each row it queued (the
   mail handed to the backend), timed as *hand* (reading the rows is not timed). Mails
   per second of each and end to end; --rounds rounds after a warm-up campaign.
2. Replies: another campaign, in the peace step, where France and Great Britain owe
   orders (France sponsors a revolt, as tests/services/test_scheduling.py
   france_sponsors_a_revolt). --replies mails, the two players in turn: From the
   player's address, To reply_address(Purpose.ORDERS, phase, user), "Re:" the subject
   of the phase-opened mail they received, the order lines as order_text.written writes
   them (every other reply of a player lets the first revolt lapse), READY on every
   third mail, and the phase-opened mail quoted below "On …, Courier <…> wrote:". Each
   campaign.jobs.mail_replies.receive(raw) timed alone: p50, p95, max, and the outcomes. No
   worker runs: the phase stays open when both are ready (its resolution is only queued).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/courier_bench_mail")
    os.environ.setdefault("COURIER_MAIL_REPLY_DOMAIN", "replies.courier.test")
    from bench.common import setup_django

    setup_django()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core import mail  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402
from django_tasks_db.models import DBTaskResult  # noqa: E402

from bench import common, database  # noqa: E402
from bench.report import shared_cache  # noqa: E402
from campaign.core import readiness  # noqa: E402
from campaign.jobs import mail_replies  # noqa: E402
from campaign.models import Campaign, Phase, Seat  # noqa: E402
from campaign.notify import mail_orders, notifications, order_text, outgoing  # noqa: E402
from campaign.notify.delivery import deliver_mail  # noqa: E402
from campaign.notify.mail_tokens import Purpose, reply_address  # noqa: E402
from campaign.play import services  # noqa: E402
from tests.factories import make_eia_campaign  # noqa: E402
from tests.services.test_scheduling import france_sponsors_a_revolt  # noqa: E402

PREFIX = "Mail bench"
USERS = "mailbench-"
DELIVER = "campaign.notify.delivery.deliver_mail"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"
SECTION = "## Mail"


def clean() -> None:
    """Delete the campaigns and users of a previous run."""
    for pk in Campaign.objects.filter(name__startswith=PREFIX).values_list("pk", flat=True):
        Campaign.objects.filter(pk=pk).delete()
    get_user_model().objects.filter(username__startswith=USERS).delete()


def campaign_with_players(label: str) -> tuple[Campaign, dict]:
    """A started EIA campaign with a user with a mail address in every power's seat and in
    the GM's (by power key, and "gm")."""
    campaign = make_eia_campaign()
    campaign.name = f"{PREFIX} {label}"
    campaign.save(update_fields=["name"])
    users = {}
    for seat in campaign.seats.select_related("power").exclude(role=Seat.Role.OBSERVER):
        key = seat.power.key if seat.power else "gm"
        seat.user = users[key] = get_user_model().objects.create_user(
            f"{USERS}{campaign.pk}-{key}",
            email=f"{key}.{campaign.pk}@players.example.org",
            first_name=key.replace("_", " ").title(),
        )
        seat.save(update_fields=["user"])
    campaign.refresh_from_db()
    return campaign, users


def queued(since) -> list[DBTaskResult]:
    return list(
        DBTaskResult.objects.filter(task_path=DELIVER, enqueued_at__gte=since).order_by(
            "enqueued_at"
        )
    )


# -- 1. a phase opening ---------------------------------------------------------------


def revolt_step(label: str) -> tuple[Campaign, Phase]:
    """A campaign whose peace step the GM resolved: the revolt step is open."""
    campaign, _ = campaign_with_players(label)
    return peace_step_resolved(campaign)


def peace_step_resolved(campaign: Campaign) -> tuple[Campaign, Phase]:
    """Resolve the campaign's peace step: the campaign as it is then, and its open phase
    (the revolt step, where every power owes orders)."""
    services.resolve_open_phase(
        campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
    )
    campaign = Campaign.objects.get(pk=campaign.pk)
    return campaign, campaign.phase


def mail_round(opened: list[tuple[Campaign, Phase]]) -> dict:
    """Open the phase of every campaign once: mails built and queued, then handed."""
    since = timezone.now()
    began = time.perf_counter()
    for campaign, phase in opened:
        notifications._phase_opened(campaign, phase)
    build = time.perf_counter() - began
    rows = queued(since)
    mail.outbox = []
    began = time.perf_counter()
    sent = Counter(deliver_mail.call(*row.args_kwargs["args"]) for row in rows)
    hand = time.perf_counter() - began
    DBTaskResult.objects.filter(pk__in=[row.pk for row in rows]).delete()
    count = len(rows)
    return {
        "mails": count,
        "with_orders": sum(bool(row.args_kwargs["args"][0]["reply_to"]) for row in rows),
        "in_outbox": len(mail.outbox),
        "sent": dict(sent),
        "build_s": build,
        "hand_s": hand,
        "build_per_s": count / build,
        "hand_per_s": count / hand,
        "end_to_end_per_s": count / (build + hand),
    }


def phase_opening(campaigns: int, rounds: int) -> dict:
    opened = [revolt_step(f"#{n + 1}") for n in range(campaigns)]
    print(f"Phase opened: {campaigns} campaigns (revolt step open), {rounds} round(s)")
    mail_round(opened[:1])  # warm-up: templates, translations, imports
    results = []
    for n in range(rounds):
        r = mail_round(opened)
        results.append(r)
        print(
            f"  round {n + 1}: {r['mails']} mails ({r['with_orders']} with orders), "
            f"build + queue {r['build_per_s']:.1f}/s, hand {r['hand_per_s']:.1f}/s, end to end "
            f"{r['end_to_end_per_s']:.1f}/s; outbox {r['in_outbox']}, {r['sent']}"
        )
    return {"campaigns": campaigns, "rounds": results}


# -- 2. replies -------------------------------------------------------------------------


def owing_players(campaign: Campaign, phase: Phase) -> list[Seat]:
    owing = {power.pk for power in readiness.owing_powers(campaign, phase)}
    seats = campaign.seats.select_related("user", "power").filter(power_id__in=owing)
    return sorted(seats, key=lambda seat: seat.power.sort)


def order_lines(form, k: int, ready: bool) -> str:
    """What a player writes above the quote: the form's lines as order_text.written writes
    them (without its "# " explanations), each choice field set to its first choice on
    the player's odd replies, left as it was on the others."""
    lines = []
    for name, key in order_text.field_keys(form).items():
        choices = getattr(form.fields[name], "choices", ())
        if choices and k % 2:
            value = order_text.one_line(choices[0][1])
        else:
            value = order_text.shown_value(form[name])
        lines.append(f"{key}: {value}")
    return "\n".join(lines + (["READY"] if ready else [])) + "\n"


def reply(seat: Seat, phase: Phase, original: dict, text: str, n: int) -> bytes:
    """A player's reply to the phase-opened mail, quoting it below the new text."""
    user = seat.user
    sent = timezone.now()
    quoted = "\n".join(f"> {line}".rstrip() for line in original["text"].splitlines())
    message = EmailMessage()
    message["From"] = f"{user.first_name} <{user.email}>"
    message["To"] = reply_address(Purpose.ORDERS, phase.pk, user.pk)
    message["Subject"] = f"Re: {original['subject']}"
    message["Date"] = format_datetime(sent)
    message["Message-ID"] = make_msgid(f"reply{n}", domain="players.example.org")
    message["In-Reply-To"] = message["References"] = original["headers"]["Message-ID"]
    message.set_content(
        f"{text}\nOn {sent:%a, %-d %b %Y at %H:%M}, {settings.DEFAULT_FROM_EMAIL} wrote:\n"
        f"{quoted}\n"
    )
    return message.as_bytes()


def replies(count: int) -> dict:
    campaign, _ = campaign_with_players("replies")
    phase = france_sponsors_a_revolt(campaign)  # France owes orders beside Great Britain
    campaign = Campaign.objects.get(pk=campaign.pk)
    players = owing_players(campaign, phase)
    since = timezone.now()
    notifications._phase_opened(campaign, phase)  # the mails they answer
    originals = {
        row.args_kwargs["args"][0]["to"]: row.args_kwargs["args"][0] for row in queued(since)
    }
    world = campaign.rules.load_world(campaign)
    forms = {}
    for seat in players:
        with outgoing.reading_as(seat.user):
            forms[seat.pk] = mail_orders.order_form(campaign, phase, seat.power, world)
    raws = []
    for n in range(count):
        seat = players[n % len(players)]
        text = order_lines(forms[seat.pk], n // len(players), ready=n % 3 == 2)
        raws.append(reply(seat, phase, originals[seat.user.email], text, n))
    print(
        f"Replies: {count} mails from {', '.join(s.power.key for s in players)} in turn "
        f"({min(map(len, raws))} to {max(map(len, raws))} bytes)"
    )
    times, outcomes = [], Counter()
    for raw in raws:
        began = time.perf_counter()
        outcomes[mail_replies.receive(raw)] += 1
        times.append((time.perf_counter() - began) * 1000)
    figures = {
        "replies": count,
        "players": [s.power.key for s in players],
        "bytes": [min(map(len, raws)), max(map(len, raws))],
        "p50_ms": common.percentile(times, 0.50),
        "p95_ms": common.percentile(times, 0.95),
        "max_ms": max(times),
        "first_ms": times[0],
        "outcomes": dict(outcomes),
    }
    print(
        f"  receive: p50 {figures['p50_ms']:.1f} ms, p95 {figures['p95_ms']:.1f} ms, "
        f"max {figures['max_ms']:.1f} ms (the first {figures['first_ms']:.1f} ms); "
        f"outcomes {figures['outcomes']}"
    )
    return figures


# -- results ----------------------------------------------------------------------------


def section(f: dict) -> str:
    opening, answers = f["opening"], f["replies"]
    rounds = opening["rounds"]
    rows = [
        [
            n + 1,
            r["mails"],
            r["build_per_s"],
            r["hand_per_s"],
            r["end_to_end_per_s"],
            r["build_s"] * 1000 / r["mails"],
            r["hand_s"] * 1000 / r["mails"],
        ]
        for n, r in enumerate(rounds)
    ]
    outcomes = ", ".join(f"{name}: {n}" for name, n in answers["outcomes"].items())
    return "\n\n".join(
        [
            SECTION,
            f"`bench/mail.py` on {f['finished']} UTC at {f['code']} (load average "
            f"{f['load_start']:.2f} at the start, {f['load_end']:.2f} at the end, on "
            f"{os.cpu_count()} cores; PostgreSQL on loopback, DJANGO_DEBUG=0, {f['cache']}, "
            "Django's locmem mail backend). In-process, one thread." + busy(f),
            f"A phase opening: {opening['campaigns']} Empires in Arms campaigns of 7 powers, "
            "a user with a mail address in each power's seat and in the GM's; the revolt step "
            "open, where every power owes orders "
            f"({rounds[0]['with_orders']} of the {rounds[0]['mails']} mails carry an order form "
            "and a reply address). *Build + queue*: "
            "`campaign.notify.notifications._phase_opened(campaign, phase)` for each campaign "
            "(each reader's multipart mail and its `deliver_mail` task row); *hand*: "
            '`deliver_mail.call(*row.args_kwargs["args"])` for each row queued (reading the '
            "rows not timed); one round opens the phase of every campaign, after a warm-up "
            f"campaign. Every mail reached the outbox: {all_sent(rounds)}.",
            common.table(
                [
                    "round",
                    "mails",
                    "build + queue /s",
                    "hand /s",
                    "end to end /s",
                    "build ms/mail",
                    "hand ms/mail",
                ],
                rows,
            ),
            f"Replies: {answers['replies']} mails answering the peace step's phase-opened mail, "
            f"{' and '.join(answers['players'])} in turn ({answers['bytes'][0]} to "
            f"{answers['bytes'][1]} bytes: the order lines as `order_text.written` writes them, "
            "READY in every third, the mail quoted below “On …, Courier <…> wrote:”), each "
            "`campaign.jobs.mail_replies.receive(raw)` timed alone (the first "
            f"{answers['first_ms']:.1f} ms). No worker ran: the phase stayed open.",
            common.table(
                ["replies", "p50 ms", "p95 ms", "max ms", "outcomes"],
                [
                    [
                        answers["replies"],
                        answers["p50_ms"],
                        answers["p95_ms"],
                        answers["max_ms"],
                        outcomes,
                    ]
                ],
            ),
        ]
    )


def busy(f: dict) -> str:
    """A note when other work shared the machine: a load average above its cores."""
    if max(f["load_start"], f["load_end"]) <= (os.cpu_count() or 1):
        return ""
    return " Other processes kept the machine busy during the run (load above its cores)."


def all_sent(rounds: list[dict]) -> str:
    ok = all(r["in_outbox"] == r["mails"] == r["sent"].get("sent") for r in rounds)
    return "yes" if ok else "no: " + "; ".join(f"{r['in_outbox']} of {r['mails']}" for r in rounds)


def write_section(path: Path, text: str) -> None:
    """Put the section at the end of RESULTS.md, in place of the one a previous run wrote."""
    current = path.read_text() if path.exists() else ""
    if SECTION + "\n" in current:
        before, _, rest = current.partition(SECTION + "\n")
        following = rest.find("\n## ")
        current = before + (rest[following + 1 :] if following >= 0 else "")
    path.write_text(current.rstrip() + "\n\n" + text.rstrip() + "\n")
    print(f"\nSection written to {path}")


def code() -> str:
    head = subprocess.run(
        ["git", "log", "-1", "--format=%h"], capture_output=True, text=True, cwd=common.ROOT
    )
    return head.stdout.strip() or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--replies", type=int, default=100)
    parser.add_argument("--results", type=Path, default=common.BENCH / "RESULTS.md")
    args = parser.parse_args()
    database.main()
    call_command("migrate", verbosity=0)
    clean()
    load_start = os.getloadavg()[0]
    with override_settings(EMAIL_BACKEND=LOCMEM):
        figures = {
            "opening": phase_opening(args.campaigns, args.rounds),
            "replies": replies(args.replies),
        }
    figures |= {
        "load_start": load_start,
        "load_end": os.getloadavg()[0],
        "finished": f"{datetime.now(UTC):%Y-%m-%d %H:%M}",
        "code": code(),
        "cache": shared_cache(),
    }
    common.save("mail", figures)
    write_section(args.results, section(figures))


if __name__ == "__main__":
    main()
