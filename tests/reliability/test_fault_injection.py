"""Fault injection: every database write of every phase service fails in turn.

For each phase service of each ruleset (Empires in Arms: peace, revolt, land, conquest,
economic; Pax Baltica: recruitment, actions, siege, forage; Virgin Queen: an impulse
whose conversion waits for decisions, and each decision; and the GM's rollback of a
phase), the campaign is brought to
the moment before the service runs, with orders that make it change as much as it can.
A first run, rolled back, counts the INSERT, UPDATE and DELETE statements the service
makes (W). Then for N = 1..W the service runs again with its Nth write raising a
database error: it must raise, and leave the database as it was (tests.factories.
snapshot, and the row count of every table). Finally it runs with no fault and must
resolve normally, with the same W writes.

The faults are injected below the ORM (connection.execute_wrapper), so they hit every
write whatever code makes it: the ruleset's persistence, the log, the history and
notifications a phase writes, the next phase opening.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.db import OperationalError, connection, transaction

from campaign.models import Phase, Seat
from campaign.play import services
from campaign.records import rollback
from rules.dice import ScriptedDice
from rules.pax_baltica.models import Block, PbSide
from rules.virgin_queen.models import VqPending
from tests.factories import make_pb_campaign, make_vq_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import CyclingDice, order, quarter_campaign

pytestmark = pytest.mark.django_db
WRITES = ("INSERT", "UPDATE", "DELETE")


class InjectedFault(OperationalError):
    """The database refusing a write (disk full, connection lost, …)."""


def is_write(sql: str) -> bool:
    return sql.lstrip()[:6].upper() in WRITES


class Writes:
    """Counts the writes (and keeps their SQL); raises at the ``fail_at``-th, if given."""

    def __init__(self, fail_at: int | None = None):
        self.fail_at = fail_at
        self.statements: list[str] = []
        self.failed: str | None = None

    def __call__(self, execute, sql, params, many, context):
        if is_write(sql):
            self.statements.append(sql)
            if len(self.statements) == self.fail_at:
                self.failed = sql
                raise InjectedFault(f"injected fault at write {self.fail_at}: {sql[:80]}")
        return execute(sql, params, many, context)

    def summary(self) -> list[str]:
        return [" ".join(sql.split()[:3]) for sql in self.statements]


def table_counts() -> dict[str, int]:
    """Rows in every table of every app: what the campaign snapshot may not cover."""
    return {model._meta.db_table: model._default_manager.count() for model in apps.get_models()}


def database_state(campaign) -> tuple[dict, dict]:
    return snapshot(campaign), table_counts()


# -- the services and the moment before each ---------------------------------------------


@dataclass
class Case:
    """A campaign right before a service runs, and the call that runs it."""

    campaign: object
    run: Callable[[], object]
    done: Callable[[object], bool]  # the service's result says it went through


def seeded_to(campaign, key: str, limit: int = 12) -> None:
    for _ in range(limit):
        campaign.refresh_from_db()
        if campaign.phase.key == key:
            return
        services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
        )
    raise AssertionError(f"phase {key!r} not reached")


def resolving(campaign, actor=None, next_status=Phase.Status.OPEN) -> Case:
    """Resolve the open phase; done when it opened the next (or now waits)."""
    campaign.refresh_from_db()
    expected = campaign.phase_id

    def run():
        return services.resolve_open_phase(
            campaign_id=campaign.pk, expected_phase_id=expected, actor=actor
        )

    def done(opened) -> bool:
        if next_status == Phase.Status.WAITING:
            return opened.pk == expected and opened.status == Phase.Status.WAITING
        resolved = Phase.objects.get(pk=expected).status == Phase.Status.RESOLVED
        return resolved and opened.pk != expected and opened.status == Phase.Status.OPEN

    return Case(campaign, run, done)


def eia_case(monkeypatch, key: str) -> Case:
    """March 1805, every phase of the month; British revolts succeed often (6s)."""
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice((6, 5, 1, 3)))
    campaign = quarter_campaign()
    users = seat_users(campaign)
    orders = {
        "peace": ("great_britain", {"lapse": ["palatinate"]}),
        "revolt": ("great_britain", {"targets": ["minor-0", "minor-2", "minor-4"]}),
        "land": ("france", {"operations": ["palatinate"], "moves": [], "depot_attacks": []}),
        "economic": ("great_britain", {"aid": {"palatinate": 3}}),
    }
    seeded_to(campaign, key)
    if key in orders:
        power, payload = orders[key]
        order(campaign, power, payload)
    return resolving(campaign, users["gm"])


def pb_case(monkeypatch, key: str) -> Case:
    """The first season of the Pax Baltica tests: Saxony draws and places, Sweden steps
    up its fleet, the Coalition reinforces, moves the Danish fleet and besieges Narva
    (Menshikov hits twice), Kurland forages short."""
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice((6, 6, 1, 1, 6, 6)))
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    ids = dict(Block.objects.filter(campaign=campaign).values_list("name", "pk"))
    no_draws = {"draws": 0, "steps_each": 0, "places": [], "fleet_places": []}
    order(campaign, "saxony", {"reinforce": [], **no_draws, "draws": 1, "places": ["lausitz"]})
    order(
        campaign,
        "sweden",
        {"reinforce": [{"block": ids["Wachtmeister"], "steps": 1}], **no_draws},
    )
    if key == "recruitment":
        return resolving(campaign, users["gm"])
    seeded_to(campaign, "actions")
    PbSide.objects.filter(campaign=campaign, key="coalition").update(actions=4)
    campaign.bump_version()  # as every change of the state does (pages keep the World by it)
    order(campaign, "saxony", {"reinforce": [{"block": ids["August II"], "actions": 2}]})
    order(
        campaign,
        "denmark",
        {"fleet_moves": [{"fleet": ids["Danish fleet"], "path": ["southern_baltic"]}]},
    )
    order(campaign, "russia", {"sieges": [{"territory": "narva", "blocks": [ids["Menshikov"]]}]})
    if key == "actions":
        return resolving(campaign, users["gm"])
    seeded_to(campaign, "siege")
    if key == "siege":
        return resolving(campaign, users["gm"])
    seeded_to(campaign, "forage")
    order(campaign, "russia", {"loss_order": [ids["Sheremetev"], ids["Pyotr I"]]})
    return resolving(campaign, users["gm"])


CONVERSION = {"action": "conversion", "zones": ["netherlands", "france"], "attempts": 4}
DECISIONS = (  # Spain's answers, one stage after the other (the services' tests' conversion)
    ("sixes", {"die_1": "keep"}),
    ("flips", {"die_2": "antwerp", "die_4": "dijon", "die_1": "amsterdam"}),
    ("unrest", {"unrest": ["antwerp"]}),
)


def vq_case(monkeypatch, key: str) -> Case:
    """Spain's conversion in the Netherlands and France rolls 6 4 1 5 and waits for
    Spain: keep the 6 or flip with it, then the flips, then where the unrest goes."""
    seeded = services._dice_for

    def dice(campaign, phase, entered):
        if phase.key == "impulse_spain":
            return ScriptedDice([6, 4, 1, 5])
        return seeded(campaign, phase, entered)

    monkeypatch.setattr(services, "_dice_for", dice)
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    seeded_to(campaign, "impulse_spain")
    order(campaign, "spain", {**CONVERSION, "event": ""})
    if key == "impulse":
        return resolving(campaign, users["gm"], next_status=Phase.Status.WAITING)
    resolving(campaign).run()
    for stage, answer in DECISIONS:
        campaign.refresh_from_db()
        assert VqPending.objects.get(campaign=campaign).stage == stage
        if key == f"decision_{stage}":
            return deciding(campaign, answer, last=stage == DECISIONS[-1][0])
        spain = Seat.objects.select_related("power").get(campaign=campaign, power__key="spain")
        services.decide(seat=spain, phase_id=campaign.phase_id, answer=answer, actor=None)
    raise AssertionError(key)


def deciding(campaign, answer: dict, last: bool) -> Case:
    phase_id = campaign.phase_id
    stage = VqPending.objects.get(campaign=campaign).stage

    def run():
        seat = Seat.objects.select_related("power", "campaign").get(
            campaign=campaign, power__key="spain"
        )
        return services.decide(seat=seat, phase_id=phase_id, answer=answer, actor=None)

    def done(result) -> bool:
        pending = VqPending.objects.filter(campaign=campaign).first()
        if last:
            return pending is None and result.pk != phase_id and result.status == "open"
        return pending is not None and pending.stage != stage

    return Case(campaign, run, done)


def rollback_case(monkeypatch, key: str) -> Case:
    """The GM's rollback (campaign/records/rollback.py) of a phase that changed much: the revolt
    step with British successes, or the siege of Narva."""
    make = eia_case if key == "revolt" else pb_case
    resolved = make(monkeypatch, key)
    resolved.run()
    campaign = resolved.campaign
    campaign.refresh_from_db()
    last = Phase.objects.filter(campaign=campaign, status=Phase.Status.RESOLVED).latest("pk")

    def done(reopened) -> bool:
        return reopened.pk == last.pk and reopened.status == Phase.Status.OPEN

    return Case(campaign, lambda: rollback.roll_back(campaign_id=campaign.pk, actor=None), done)


SERVICES = {
    **{f"eia-{k}": (eia_case, k) for k in ("peace", "revolt", "land", "conquest", "economic")},
    **{f"pb-{k}": (pb_case, k) for k in ("recruitment", "actions", "siege", "forage")},
    "vq-impulse-conversion": (vq_case, "impulse"),
    **{f"vq-decision-{s}": (vq_case, f"decision_{s}") for s, _ in DECISIONS},
    "eia-rollback-revolt": (rollback_case, "revolt"),
    "pb-rollback-siege": (rollback_case, "siege"),
}


# -- the test ------------------------------------------------------------------------


def dry_run(case: Case) -> Writes:
    """Run the service and undo it; the writes it made."""
    writes = Writes()
    with transaction.atomic():
        with connection.execute_wrapper(writes):
            case.run()
        transaction.set_rollback(True)
    return writes


@pytest.mark.sampled(every=3)
@pytest.mark.parametrize("service", SERVICES)
def test_each_write_of_a_phase_service_failing_in_turn_changes_nothing(monkeypatch, service):
    make, key = SERVICES[service]
    case = make(monkeypatch, key)
    before = database_state(case.campaign)
    planned = dry_run(case)
    assert database_state(case.campaign) == before, "the dry run was not undone"
    assert len(planned.statements) >= 3, planned.summary()
    print(f"{service}: {len(planned.statements)} writes: {', '.join(planned.summary())}")

    problems = []
    for n in range(1, len(planned.statements) + 1):
        fault = Writes(fail_at=n)
        raised = None
        try:
            with connection.execute_wrapper(fault):
                case.run()
        except InjectedFault as error:
            raised = error
        where = f"write {n}/{len(planned.statements)} ({' '.join(planned.summary()[n - 1 : n])})"
        if fault.failed is None:
            problems.append(f"{where}: never made (the service wrote differently)")
        if raised is None:
            problems.append(f"{where}: the fault was swallowed; the service went on")
        snap, counts = database_state(case.campaign)
        changed = [t for t in before[0] if before[0][t] != snap[t]]
        changed += [t for t in before[1] if before[1][t] != counts[t]]
        if changed:
            problems.append(f"{where}: changed {changed}")
            break  # the next runs would start from another state
    assert not problems, "\n".join(problems)

    done = Writes()
    with connection.execute_wrapper(done):
        result = case.run()
    assert case.done(result), f"{service} did not go through after the faults"
    assert done.summary() == planned.summary()
