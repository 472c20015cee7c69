"""Empires in Arms 0002 and campaign 0032: a power's treasury and political points and an
area's ceded flag and manpower move from the campaign app's powers and areas to the Empires
in Arms tables, in the live rows (a power or area without a row gets one) and in the
states the phase snapshots keep, so that a rollback to a phase resolved before the
upgrade restores them; the Pax Baltica and Virgin Queen campaigns are untouched; undone,
the values go back to the powers and areas."""

from __future__ import annotations

import io
import json

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command

from campaign.models import Area, Campaign, Phase, PhaseSnapshot, Power
from campaign.records import rollback
from campaign.records.archive import state_of
from campaign.records.state_rows import SnapshotRows
from campaign.state.history import opening_state
from campaign.state.snapshots import decode
from rules.empires_in_arms.models import EiaArea, EiaPowerStatus
from tests.migration_steps import latest, migrate
from tests.services.test_eia_phase_services import resolve

BEFORE = [("campaign", "0031_reach"), ("empires_in_arms", "0001_initial")]
EIA, PB, VQ = "empires_in_arms", "pax_baltica", "virgin_queen"
GONE = ("turkey", "andalusia")  # the power and the area whose EIA rows are missing


def rows(state: dict, key: str) -> list[dict]:
    """A raw state's section (campaign/state/snapshots.py): a list, or its JSON text."""
    section = state.get(key)
    return json.loads(section) if isinstance(section, str) else list(section or [])


def live_numbers(i: int) -> tuple[dict, dict]:
    """The values the ``i``-th power and area hold when the database is upgraded."""
    power = {"treasury": 100 + i, "political_points": -i}
    return power, {"ceded": i % 2 == 1, "manpower": 5 + i % 4}


def snapshot_numbers(i: int) -> tuple[dict, dict]:
    """The values the ``i``-th power and area held when the last phase resolved."""
    power = {"treasury": 200 + i, "political_points": 50 + i}
    return power, {"ceded": i % 3 == 0, "manpower": 9 - i % 4}


def demo_campaigns() -> dict[str, Campaign]:
    """The demo campaigns, the Empires in Arms one with its first phase resolved."""
    call_command("demo", stdout=io.StringIO())
    campaigns = {c.ruleset: c for c in Campaign.objects.filter(name__startswith="Demo")}
    eia = campaigns[EIA]
    resolve(eia, eia.created_by)
    eia.refresh_from_db()
    return campaigns


def untouched(campaign: Campaign) -> tuple:
    """What the upgrade must leave as it is of another game's campaign."""
    snapshots = PhaseSnapshot.objects.filter(campaign=campaign).order_by("pk")
    return state_of(campaign), list(snapshots.values_list("state", "before"))


def readable(campaign: Campaign) -> None:
    """Each of the campaign's snapshots is a state its loader reads (the archive's checks
    refuse a row that lacks a field)."""
    for snapshot in PhaseSnapshot.objects.filter(campaign=campaign):
        SnapshotRows(campaign, opening_state(snapshot, campaign.ruleset))


def last_resolved(apps, campaign: Campaign):
    """The snapshot of the campaign's last resolved phase, as ``apps`` has the model."""
    snapshots = apps.get_model("campaign", "PhaseSnapshot").objects
    phase = Phase.objects.filter(campaign=campaign, status="resolved").latest("turn", "position")
    return snapshots.get(phase_id=phase.pk)


def set_old_values(apps, campaign: Campaign) -> None:
    """At the old schema: the live values and the last resolved phase's state, each
    different from the defaults; one power and one area without their EIA rows."""
    models = {name: apps.get_model("campaign", name) for name in ("Power", "Area")}
    for name, numbers in (("Power", 0), ("Area", 1)):
        owned = models[name].objects.filter(campaign_id=campaign.pk).order_by("pk")
        for i, row in enumerate(owned):
            for field, value in live_numbers(i)[numbers].items():
                setattr(row, field, value)
            row.save()
    apps.get_model(EIA, "EiaPowerStatus").objects.filter(
        power__campaign_id=campaign.pk, power__key=GONE[0]
    ).delete()
    apps.get_model(EIA, "EiaArea").objects.filter(
        area__campaign_id=campaign.pk, area__key=GONE[1]
    ).delete()
    snapshot = last_resolved(apps, campaign)
    state = dict(snapshot.before)
    for key, numbers in (("~powers", 0), ("~areas", 1)):
        section = sorted(rows(state, key), key=lambda r: r["pk"])
        for i, row in enumerate(section):
            row.update(snapshot_numbers(i)[numbers])
        state[key] = section
    gone = {
        "eia_powers": Power.objects.get(campaign=campaign, key=GONE[0]).pk,
        "eia_areas": Area.objects.get(campaign=campaign, key=GONE[1]).pk,
    }
    for key, pk in gone.items():
        state[key] = [r for r in rows(state, key) if r["pk"] != pk]
    snapshot.before = state
    snapshot.save(update_fields=["before"])


def assert_reverse_kept(apps, campaign: Campaign, expected: dict) -> None:
    """Undone, each power's and area's values (``expected``: by model, by key) are in its
    own row again, and in the snapshots' powers and areas."""
    for name, key in (("Power", "~powers"), ("Area", "~areas")):
        model, values = apps.get_model("campaign", name), expected[name]
        for row in model.objects.filter(campaign_id=campaign.pk):
            assert {f: getattr(row, f) for f in values[row.key]} == values[row.key]
        for row in rows(last_resolved(apps, campaign).before, key):
            assert {f: row[f] for f in values[row["key"]]} == values[row["key"]]


def assert_moved(campaign: Campaign, numbers) -> None:
    """Every value of the old columns (``numbers``: as given for the i-th power and area)
    in its EIA row; the rows that were missing made with their defaults."""
    powers = Power.objects.filter(campaign=campaign).order_by("pk")
    for i, power in enumerate(powers):
        status = EiaPowerStatus.objects.get(power=power)
        assert {f: getattr(status, f) for f in numbers(i)[0]} == numbers(i)[0], power.key
        if power.key == GONE[0]:
            assert (status.zone, status.pays_bad_roll, status.militia_due) == ("Neutral", True, 0)
    areas = Area.objects.filter(campaign=campaign).order_by("pk")
    for i, area in enumerate(areas):
        row = EiaArea.objects.get(area=area)
        assert {f: getattr(row, f) for f in numbers(i)[1]} == numbers(i)[1], area.key
        if area.key == GONE[1]:
            assert (row.guerrilla_value, row.islamic, row.minor_status) == (None, False, "")


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_the_columns_move_to_the_eia_tables_live_and_in_the_snapshots():
    campaigns = demo_campaigns()
    eia = campaigns[EIA]
    others = {key: untouched(campaigns[key]) for key in (PB, VQ)}
    kept = {
        "Power": {
            s.power.key: {"treasury": s.treasury, "political_points": s.political_points}
            for s in EiaPowerStatus.objects.filter(power__campaign=eia).select_related("power")
        },
        "Area": {
            a.area.key: {"ceded": a.ceded, "manpower": a.manpower}
            for a in EiaArea.objects.filter(area__campaign=eia).select_related("area")
        },
    }
    assert all(v["treasury"] for v in kept["Power"].values())

    executor = migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    assert_reverse_kept(old, eia, kept)
    set_old_values(old, eia)

    migrate(latest())
    assert_moved(eia, live_numbers)
    for campaign in campaigns.values():
        readable(campaign)
    for key, before in others.items():
        assert untouched(campaigns[key]) == before, key
    snapshot = last_resolved(django_apps, eia)
    state = decode(snapshot.before, EIA)
    assert "treasury" not in state["powers"][0] and "manpower" not in state["areas"][0]

    rollback.roll_back(campaign_id=eia.pk, actor=eia.created_by)
    assert_moved(eia, snapshot_numbers)
