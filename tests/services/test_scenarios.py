"""Scenarios: the shipped file checks out, a campaign is created from it in a fixed number
of queries, bad files are refused with a clear message, and the two commands work."""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from campaign.models import Adjacency, Area, Campaign, PowerRelation, Seat
from campaign.play.scenarios import (
    MAP_HEIGHT,
    MAP_WIDTH,
    ScenarioError,
    available_scenarios,
    create_campaign,
    load_scenario_file,
    shipped_scenario,
)
from rules.empires_in_arms.models import Corps, EiaArea, EiaPowerStatus, NationalModifier

EIA_POWERS = ["france", "great_britain", "spain", "austria", "prussia", "russia", "turkey"]

TINY = {
    "ruleset": "empires_in_arms",
    "name": "Tiny",
    "setup": {"start_year": 1805, "start_month": 1, "political_months": [1, 4, 7, 10]},
    "powers": [
        {"key": "france", "name": "France"},
        {"key": "great_britain", "name": "Great Britain"},
    ],
    "areas": [
        {"key": "paris", "name": "Paris", "kind": "province", "home_power": "france",
         "lat": 48.9, "lon": 2.4},
        {"key": "palatinate", "name": "Palatinate", "kind": "minor", "controller": "france",
         "lat": 49.5, "lon": 8.5, "manpower": 2},
        {"key": "london", "name": "London", "kind": "province", "home_power": "great_britain",
         "lat": 51.5, "lon": -0.1},
    ],
    "adjacency": [["paris", "palatinate"], ["paris", "london", "strait"]],
    "relations": [["great_britain", "france", "war"]],
    "empires_in_arms": {
        "zones": {"great_britain": "Dominant"},
        "national_modifiers": {"chart": {"palatinate": {"great_britain": 1, "france": 0}}},
        "corps": [{"power": "france", "area": "palatinate", "name": "V"}],
    },
}  # fmt: skip


def write(tmp_path, data, name="tiny.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# -- the shipped scenario -------------------------------------------------------------


def test_shipped_eia_1805_is_listed_and_checks_out():
    info = next(i for i in available_scenarios() if i.key == "eia-1805")
    assert info.ruleset == "empires_in_arms"
    data = load_scenario_file(info.path)
    assert [p["key"] for p in data["powers"]] == EIA_POWERS
    assert data["setup"] == {
        "start_year": 1805,
        "start_month": 1,
        "political_months": [1, 4, 7, 10],
    }


def test_shipped_eia_1805_says_what_is_sample():
    data = shipped_scenario("eia-1805")
    eia = data["empires_in_arms"]
    assert data["notes"] and "sample" in data["notes"][0].lower()
    for section in ("powers", "areas", "adjacency", "coordinates", "relations"):
        assert data["confidence"][section]
    for part in ("zones", "guerrilla_values", "national_modifiers", "corps"):
        assert eia["confidence"][part]
    # The two cells a source gives are the source's; everything else is marked as sample.
    chart = eia["national_modifiers"]["chart"]
    assert chart["palatinate"]["great_britain"] == 1
    assert chart["palatinate"]["france"] == 0
    assert sorted(eia["national_modifiers"]["sourced"]) == [
        ["palatinate", "france"],
        ["palatinate", "great_britain"],
    ]
    assert all(-2 <= v <= 2 for row in chart.values() for v in row.values())


def test_shipped_eia_1805_map():
    data = shipped_scenario("eia-1805")
    areas = {a["key"]: a for a in data["areas"]}
    minors = [a for a in areas.values() if a["kind"] == "minor"]
    spanish = [a for a in areas.values() if a.get("home_power") == "spain"]
    assert len(minors) >= 40
    assert areas["palatinate"]["controller"] == "france"
    assert len(spanish) == 12
    values = data["empires_in_arms"]["guerrilla_values"]
    assert set(values) == {a["key"] for a in spanish}
    assert all(1 <= v <= 4 for v in values.values())
    for power in EIA_POWERS:
        assert sum(a.get("home_power") == power for a in areas.values()) >= 3
    kinds = {(link + ["land"])[2] for link in data["adjacency"]}
    assert {"land", "strait", "sea"} <= kinds


# -- creating a campaign --------------------------------------------------------------


@pytest.mark.django_db
def test_create_campaign_from_eia_1805():
    gm = get_user_model().objects.create_user("the-gm")
    data = shipped_scenario("eia-1805")
    areas = {a["key"]: a for a in data["areas"]}
    campaign = create_campaign(scenario_key="eia-1805", name="Test 1805", gm=gm)

    assert (campaign.ruleset, campaign.scenario, campaign.created_by) == (
        "empires_in_arms",
        "eia-1805",
        gm,
    )
    assert campaign.setup == data["setup"]
    assert campaign.phase is not None and campaign.phase.is_open
    assert [p.key for p in campaign.powers.all()] == EIA_POWERS
    eia = data["empires_in_arms"]
    assert EiaPowerStatus.objects.filter(power__campaign=campaign).count() == 7
    assert Area.objects.filter(campaign=campaign).count() == len(data["areas"])
    assert EiaArea.objects.filter(area__campaign=campaign).count() == len(data["areas"])
    assert Adjacency.objects.filter(campaign=campaign).count() == len(data["adjacency"])
    assert NationalModifier.objects.filter(campaign=campaign).count() == sum(
        len(row) for row in eia["national_modifiers"]["chart"].values()
    )
    assert Corps.objects.filter(campaign=campaign).count() == len(eia["corps"])
    assert PowerRelation.objects.filter(campaign=campaign).count() == len(data["relations"])

    seats = list(campaign.seats.all())
    assert [(s.role, s.user) for s in seats if s.is_gm] == [("gm", gm)]
    players = [s for s in seats if s.role == Seat.Role.PLAYER]
    assert len(players) == 7 and all(s.user is None for s in players)
    assert len({s.invite_token for s in seats}) == len(seats)

    palatinate = campaign.areas.select_related("controller", "eia").get(key="palatinate")
    assert palatinate.controller.key == "france"
    assert palatinate.national_modifiers.get(power__key="great_britain").value == 1
    andalusia = campaign.areas.select_related("eia", "controller").get(key="andalusia")
    assert andalusia.controller.key == "spain"
    assert andalusia.eia.guerrilla_value == eia["guerrilla_values"]["andalusia"]
    assert (andalusia.eia.manpower, andalusia.eia.ceded) == (areas["andalusia"]["manpower"], False)
    britain = EiaPowerStatus.objects.get(power__campaign=campaign, power__key="great_britain")
    assert (britain.treasury, britain.political_points) == (40, 12)
    assert EiaArea.objects.get(area__campaign=campaign, area__key="egypt").islamic
    rhodes = EiaArea.objects.get(area__campaign=campaign, area__key="rhodes")
    assert rhodes.minor_status == eia["minor_status"]["rhodes"]
    for area in campaign.areas.all():
        assert 0 <= area.x <= MAP_WIDTH and 0 <= area.y <= MAP_HEIGHT


@pytest.mark.django_db
def test_relations_are_stored_lower_id_first():
    campaign = create_campaign(scenario_key="tiny", name="Tiny", gm=None, data=TINY)
    relation = PowerRelation.objects.get(campaign=campaign)
    assert relation.a_id < relation.b_id
    assert {relation.a.key, relation.b.key} == {"france", "great_britain"}
    assert relation.kind == "war"
    assert not campaign.seats.filter(role=Seat.Role.GM).exists()
    assert EiaPowerStatus.objects.get(power__campaign=campaign, power__key="france").zone == (
        "Neutral"
    )


@pytest.mark.django_db
def test_create_campaign_queries_do_not_grow_with_the_map(django_assert_max_num_queries):
    with CaptureQueriesContext(connection) as tiny:
        create_campaign(scenario_key="tiny", name="Tiny", gm=None, data=TINY)
    # 106 areas, ~200 links and ~300 chart cells against 3 areas: only the bulk batches
    # (SQLite's parameter limit splits the largest inserts) may add queries.
    with django_assert_max_num_queries(len(tiny) + 6):
        create_campaign(scenario_key="eia-1805", name="Full", gm=None)
    assert len(tiny) <= 35  # opening the first phase reads the state to see who owes orders


# -- bad files ------------------------------------------------------------------------


def broken(change):
    data = copy.deepcopy(TINY)
    change(data)
    return data


BAD = [
    (lambda d: d.update(ruleset="chess"), "unknown ruleset 'chess'"),
    (lambda d: d["areas"][1].update(controller="spain"), "area 'palatinate': unknown controller"),
    (lambda d: d["areas"].append(dict(d["areas"][0])), "areas: duplicate key 'paris'"),
    (lambda d: d["powers"].append({"key": "france", "name": "F"}), "duplicate key 'france'"),
    (lambda d: d["adjacency"].append(["paris", "atlantis"]), "unknown area 'atlantis'"),
    (lambda d: d["adjacency"].append(["palatinate", "paris"]), "listed twice"),
    (lambda d: d["adjacency"].append(["paris", "london", "tunnel"]), "kind one of"),
    (lambda d: d["relations"].append(["france", "spain", "war"]), "unknown power 'spain'"),
    (lambda d: d["areas"][0].pop("lat"), "'lat' and 'lon' must be numbers"),
    (lambda d: d["areas"][1].update(manpower=-1), "'manpower' must be a whole number"),
    (lambda d: d["powers"][0].update(treasury="lots"), "'treasury' must be a whole number"),
    (lambda d: d["powers"][1].update(political_points=1.5), "'political_points' must be a whole"),
    (lambda d: d.pop("areas"), "'areas' must be a non-empty list"),
    (lambda d: d["areas"][0].update(key="île de france"), "key 'île de france' must be"),
    (
        lambda d: d["empires_in_arms"]["zones"].update(france="Glorious"),
        "empires_in_arms.zones: 'Glorious' for 'france' is not one of",
    ),
    (
        lambda d: d["empires_in_arms"]["national_modifiers"]["chart"].update(paris={"france": 1}),
        "'paris' is not a minor country",
    ),
    (
        lambda d: d["empires_in_arms"]["corps"].append({"power": "france", "area": "rome"}),
        "empires_in_arms.corps: unknown area 'rome'",
    ),
    (lambda d: d["empires_in_arms"].update(zones=["france"]), "section is malformed"),
    (
        lambda d: d["empires_in_arms"].update(minor_status={"palatinate": "vassal"}),
        "empires_in_arms.minor_status: 'vassal' for 'palatinate' is not a status",
    ),
    (
        lambda d: d["empires_in_arms"].update(minor_status={"paris": "allied"}),
        "empires_in_arms.minor_status: 'paris' is not a controlled minor",
    ),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_bad_scenario_is_refused_with_a_clear_message(tmp_path, change, message):
    path = write(tmp_path, broken(change))
    with pytest.raises(ScenarioError, match="^tiny.json: ") as error:
        load_scenario_file(path)
    assert message in str(error.value)


def test_invalid_json_and_missing_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ScenarioError, match="bad.json: not valid JSON"):
        load_scenario_file(path)
    with pytest.raises(ScenarioError, match="cannot be read"):
        load_scenario_file(tmp_path / "missing.json")
    with pytest.raises(ScenarioError, match="No scenario 'nope'; shipped: .*eia-1805"):
        shipped_scenario("nope")


def test_every_problem_is_listed(tmp_path):
    data = broken(lambda d: d["adjacency"].extend([["paris", "x"], ["y", "paris"]]))
    with pytest.raises(ScenarioError) as error:
        load_scenario_file(write(tmp_path, data))
    assert "'x'" in str(error.value) and "'y'" in str(error.value)


# -- commands -------------------------------------------------------------------------


@pytest.mark.django_db
def test_load_scenario_by_key_and_by_path(tmp_path, capsys):
    get_user_model().objects.create_user("alice")
    call_command("load_scenario", "eia-1805", "--gm", "alice", "--name", "Alice's 1805")
    campaign = Campaign.objects.get(name="Alice's 1805")
    assert campaign.scenario == "eia-1805"
    assert campaign.seats.get(role=Seat.Role.GM).user.username == "alice"
    assert f"Created campaign {campaign.pk}" in capsys.readouterr().out

    call_command("load_scenario", str(write(tmp_path, TINY)))
    tiny = Campaign.objects.get(scenario="tiny")
    assert tiny.name == "Tiny" and tiny.areas.count() == 3


@pytest.mark.django_db
def test_load_scenario_refuses_bad_input(tmp_path):
    with pytest.raises(CommandError, match="No scenario 'nope'"):
        call_command("load_scenario", "nope")
    with pytest.raises(CommandError, match="No user 'nobody'"):
        call_command("load_scenario", "eia-1805", "--gm", "nobody")
    bad = write(tmp_path, broken(lambda d: d["adjacency"].append(["paris", "atlantis"])))
    with pytest.raises(CommandError, match="unknown area 'atlantis'"):
        call_command("load_scenario", str(bad))
    assert not Campaign.objects.exists()


@pytest.mark.django_db
def test_demo_is_idempotent(capsys):
    call_command("demo")
    first = capsys.readouterr().out
    call_command("demo")
    assert capsys.readouterr().out == first

    rulesets = {info.ruleset for info in available_scenarios()}
    assert Campaign.objects.count() == len(rulesets)
    campaign = Campaign.objects.get(scenario="eia-1805")
    assert campaign.seats.filter(user=None).count() == 0
    assert campaign.seats.get(role=Seat.Role.GM).user.username == "gm"
    france = campaign.seats.select_related("user").get(power__key="france").user
    assert france.username == "france"
    players = set(Seat.objects.filter(role=Seat.Role.PLAYER).values_list("power__key", flat=True))
    assert set(get_user_model().objects.values_list("username", flat=True)) == {"gm"} | players
    request = RequestFactory().post("/accounts/login/")  # login throttling needs it
    assert authenticate(request, username="gm", password="courier-demo") is not None
    assert authenticate(request, username="turkey", password="courier-demo") is not None
    assert "courier-demo" in first and "france plays France" in first
