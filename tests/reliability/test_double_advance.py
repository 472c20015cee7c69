"""The double-advance race, 50 times on PostgreSQL with real transactions.

Two threads, each with its own database connection, resolve the same open phase behind
a barrier (two GMs pressing "Close and resolve" at once, or the worker and the GM).
Every time, exactly one resolves it and the other gets PhaseAlreadyResolved; exactly
one new phase opens and the log says once that the phase was resolved. The races go
round the three rulesets, each campaign moving on one phase per race.
"""

from __future__ import annotations

import threading
from itertools import cycle

import pytest
from django.db import connection

from campaign import errors
from campaign.models import Event, Phase
from campaign.play import services
from tests.factories import make_eia_campaign, make_pb_campaign, make_vq_campaign

RACES = 50
TIMEOUT = 30  # seconds: a thread still waiting then is a deadlock


def race(campaign_id: int, expected_phase_id: int) -> list[str]:
    """Both threads resolve ``expected_phase_id`` at once; what each got."""
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def advance() -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            services.resolve_open_phase(
                campaign_id=campaign_id, expected_phase_id=expected_phase_id, actor=None
            )
            outcomes.append("resolved")
        except errors.PhaseAlreadyResolved:
            outcomes.append("already resolved")
        except Exception as error:  # noqa: BLE001 - any other outcome fails the race
            outcomes.append(f"{type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=advance) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_two_advances_at_once_resolve_the_phase_exactly_once_50_times(on_postgresql):
    campaigns = [make_eia_campaign(), make_pb_campaign(), make_vq_campaign()]
    problems = []
    rulesets = cycle(campaigns)
    for number in range(1, RACES + 1):
        campaign = next(rulesets)
        campaign.refresh_from_db()
        expected = campaign.phase
        phases_before = Phase.objects.filter(campaign=campaign).count()
        outcomes = race(campaign.pk, expected.pk)
        campaign.refresh_from_db()
        expected.refresh_from_db()
        where = f"race {number} ({campaign.ruleset}, {expected.key} turn {expected.turn})"
        resolved_lines = Event.objects.filter(
            phase=expected, kind=Event.Kind.PHASE, text__endswith=" resolved."
        ).count()
        newer = list(
            Phase.objects.filter(campaign=campaign, pk__gt=expected.pk).values_list("pk", flat=True)
        )
        still_open = Phase.objects.filter(campaign=campaign).exclude(status=Phase.Status.RESOLVED)
        checks = {
            "one resolves, the other is told it was": sorted(outcomes)
            == ["already resolved", "resolved"],
            "the phase is resolved": expected.status == Phase.Status.RESOLVED,
            "one new phase": len(newer) == 1
            and Phase.objects.filter(campaign=campaign).count() == phases_before + 1,
            "the new phase is the campaign's open phase": newer == [campaign.phase_id]
            and list(still_open.values_list("pk", flat=True)) == newer,
            "one 'resolved' log line": resolved_lines == 1,
        }
        failed = [name for name, ok in checks.items() if not ok]
        if failed:
            problems.append(f"{where}: {failed}; outcomes {outcomes}")
    assert not problems, "\n".join(problems)
