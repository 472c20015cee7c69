"""Ending a campaign (campaign/play/ending.py): it reveals the secret in the log, leaves the open
phase without a deadline, refuses orders, decisions, resolutions and rollbacks after;
a second end, a stale page and a campaign not started are refused with nothing changed;
two ends at once on PostgreSQL end it once; the export carries the secret and the end."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from campaign.errors import CampaignEnded, Conflict, ServiceError
from campaign.jobs import tasks
from campaign.models import Campaign, Event, Phase
from campaign.play import services
from campaign.play.ending import end_campaign
from campaign.records import rollback
from campaign.records.archive import ArchiveError, export_campaign, import_campaign
from tests.factories import make_pb_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import order, resolve

TIMEOUT = 30
RECRUIT = {"reinforce": [], "draws": 1, "steps_each": 0, "places": ["lausitz"], "fleet_places": []}


def started():
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    campaign.refresh_from_db()
    return campaign, users


def end(campaign, users, version=None) -> Campaign:
    campaign.refresh_from_db()
    return end_campaign(
        campaign_id=campaign.pk,
        expected_state_version=campaign.state_version if version is None else version,
        actor=users["gm"],
    )


@pytest.mark.django_db
def test_ending_marks_the_moment_reveals_the_secret_to_everyone_and_drops_the_deadline():
    campaign, users = started()
    Phase.objects.filter(pk=campaign.phase_id).update(deadline=timezone.now() + timedelta(hours=3))
    version, state_version = campaign.version, campaign.state_version
    ended = end(campaign, users)
    campaign.refresh_from_db()
    assert campaign.ended_at is not None and ended.ended_at == campaign.ended_at
    assert (campaign.version, campaign.state_version) == (version + 1, state_version + 1)
    line = Event.objects.filter(campaign=campaign).latest("pk")
    assert line.kind == Event.Kind.GM and line.audience == [] and line.actor == users["gm"]
    assert campaign.secret in line.text and campaign.secret_hash in line.text
    assert re.fullmatch(r"[0-9a-f]{64}", campaign.secret)
    assert Phase.objects.get(pk=campaign.phase_id).deadline is None
    assert tasks.tick.call() == 0  # the clock leaves the ended campaign alone


@pytest.mark.django_db
def test_a_second_end_a_stale_page_and_a_campaign_not_started_are_refused():
    campaign, users = started()
    with pytest.raises(Conflict, match="changed after this page was loaded"):
        end(campaign, users, version=campaign.state_version - 1 or 99)
    end(campaign, users)
    before = snapshot(campaign)
    with pytest.raises(Conflict, match="already ended"):
        end(campaign, users)
    assert snapshot(campaign) == before
    waiting = make_pb_campaign(start=False)
    with pytest.raises(ServiceError, match="not started"):
        end(waiting, users)
    waiting.refresh_from_db()
    assert waiting.ended_at is None


@pytest.mark.django_db
def test_an_ended_campaign_takes_no_orders_and_resolves_rolls_back_nothing():
    campaign, users = started()
    order(campaign, "saxony", RECRUIT)
    resolve(campaign, users["gm"])  # recruitment: a phase to roll back
    end(campaign, users)
    before = snapshot(campaign)
    with pytest.raises(CampaignEnded, match="has ended"):
        resolve(campaign, users["gm"])
    with pytest.raises(CampaignEnded):
        order(campaign, "saxony", {"reinforce": [], "fleet_moves": [], "sieges": []})
    with pytest.raises(CampaignEnded):
        rollback.roll_back(campaign_id=campaign.pk, actor=users["gm"])
    seat = campaign.seats.get(power__key="saxony")
    with pytest.raises(CampaignEnded):
        services.decide(seat=seat, phase_id=campaign.phase_id, answer={}, actor=None)
    outcome = tasks.resolve_phase.call(campaign.pk, campaign.phase_id, "everyone is ready")
    assert outcome == "skipped"
    assert snapshot(campaign) == before


@pytest.mark.django_db
def test_the_export_carries_the_secret_and_the_end_and_an_import_checks_the_secret():
    campaign, users = started()
    end(campaign, users)
    campaign.refresh_from_db()
    data = export_campaign(campaign)
    assert data["campaign"]["secret"] == campaign.secret
    assert data["campaign"]["ended_at"] is not None
    copy = import_campaign(data, name="Copy")
    assert (copy.secret, copy.ended_at) == (campaign.secret, campaign.ended_at)
    for bad in ("", "G" * 64, campaign.secret.upper(), campaign.secret[:-1]):
        broken = {**data, "campaign": {**data["campaign"], "secret": bad}}
        with pytest.raises(ArchiveError, match="campaign.secret must be 64 hexadecimal"):
            import_campaign(broken, name=f"Broken {bad[:3]}")
    old = {**data, "campaign": {k: v for k, v in data["campaign"].items() if k != "secret"}}
    fresh = import_campaign(old, name="From an older export")
    assert re.fullmatch(r"[0-9a-f]{64}", fresh.secret) and fresh.secret != campaign.secret


@pytest.mark.django_db(transaction=True)
def test_two_ends_at_once_end_the_campaign_once(on_postgresql):
    """Two GMs (or one, twice) press "End the campaign" from the same page at once."""
    campaign, users = started()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def press() -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            end_campaign(
                campaign_id=campaign.pk,
                expected_state_version=campaign.state_version,
                actor=users["gm"],
            )
            outcomes.append("ended")
        except Conflict:
            outcomes.append("conflict")
        except Exception as error:  # noqa: BLE001 - any other outcome fails the race
            outcomes.append(f"{type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=press) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck: deadlock?"
    assert sorted(outcomes) == ["conflict", "ended"]
    ends = Event.objects.filter(campaign=campaign, kind=Event.Kind.GM, text__contains="ends the")
    assert ends.count() == 1


@pytest.mark.django_db
def test_an_ended_campaign_takes_no_standing_order():
    from rules.empires_in_arms.services import set_standing_order
    from tests.factories import make_eia_campaign

    campaign = make_eia_campaign()
    users = seat_users(campaign)
    end(campaign, users)
    seat = campaign.seats.select_related("power").get(power__key="france")
    before = snapshot(campaign)
    with pytest.raises(CampaignEnded):
        set_standing_order(seat=seat, pays_bad_roll=False, actor=users["player"])
    assert snapshot(campaign) == before
