"""Export and import of whole campaigns (campaign/records/archive.py): a played campaign of each
ruleset survives export → import → export byte for byte and plays on; bad archives are
refused with nothing created; the game state alone is saved and restored; the commands
and the GM's download."""

from __future__ import annotations

import io
import json
from contextlib import nullcontext
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import (
    Area,
    Campaign,
    Event,
    Order,
    Phase,
    Power,
    PowerRelation,
    RollRecord,
    Seat,
)
from campaign.play import services
from campaign.play.scenarios import available_scenarios, create_campaign
from campaign.records import archive
from campaign.records.archive import (
    ArchiveError,
    dumps,
    export_campaign,
    import_campaign,
    restore_state,
    state_of,
)
from rules.empires_in_arms.models import Depot, EiaArea, EiaPowerStatus, GuerrillaStack, LetDown
from rules.engine import registry
from rules.pax_baltica.models import Block
from rules.virgin_queen.models import VqPending, VqUnits
from tests.factories import (
    PASSWORD,
    make_eia_campaign,
    make_pb_campaign,
    make_vq_campaign,
    seat_users,
    snapshot,
)
from tests.services.test_eia_phase_services import CyclingDice, order, quarter_campaign, resolve
from tests.services.test_pb_phase_services import SIEGE_FACES, give_first_season_orders, ids
from tests.services.test_vq_phase_services import (
    SEED_FACES,
    advance_to,
    answer,
    dice_for,
    play_conversion,
    stage,
)

pytestmark = pytest.mark.django_db


# -- played campaigns ---------------------------------------------------------------------


def played_eia():
    """March 1805 through peace and revolt, with GB's attempt rolled; the land phase open
    with France's operations and a British guerrilla move naming its stack by id."""
    campaign = quarter_campaign()
    users = seat_users(campaign)
    resolve(campaign, users["gm"])  # peace
    order(campaign, "great_britain", {"targets": ["minor-0"]}, users["other_player"])
    resolve(campaign, users["gm"])  # revolt: EIA-1 rolls
    campaign.refresh_from_db()
    assert campaign.phase.key == "land"
    france = Power.objects.get(campaign=campaign, key="france")
    gb = Power.objects.get(campaign=campaign, key="great_britain")
    palatinate = Area.objects.get(campaign=campaign, key="palatinate")
    Depot.objects.create(campaign=campaign, power=france, area=palatinate, garrison=2)
    LetDown.objects.create(campaign=campaign, power=gb, area=palatinate, count=1)
    PowerRelation.objects.create(
        campaign=campaign,
        a=Power.objects.get(campaign=campaign, key="austria"),
        b=Power.objects.get(campaign=campaign, key="russia"),
        kind="alliance",
    )
    order(
        campaign,
        "france",
        {"operations": ["palatinate"], "moves": [], "depot_attacks": []},
        users["player"],
    )
    Phase.objects.filter(pk=campaign.phase_id).update(  # a paused clock
        deadline=timezone.now() + timedelta(days=2),
        paused_remaining=timedelta(hours=30, microseconds=7),
    )
    stack = GuerrillaStack.objects.filter(campaign=campaign).order_by("pk").first()
    Order.objects.create(
        campaign=campaign,
        phase=campaign.phase,
        power=gb,
        payload={"moves": [{"stack": stack.pk, "to": "andalusia"}, {"stack": 10**12, "to": "x"}]},
    )
    return campaign, users


def played_pb(monkeypatch):
    """Recruitment, the spring's actions and the siege of Narva resolved; forage open with
    Russia's loss order (block ids); a Swedish regiment carried by its fleet."""
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice(SIEGE_FACES))
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    give_first_season_orders(campaign)
    resolve(campaign, users["gm"])  # actions
    resolve(campaign, users["gm"])  # siege of Narva
    order(campaign, "russia", {"loss_order": ids(campaign, "Sheremetev", "Pyotr I")})
    Block.objects.filter(campaign=campaign, name="Dalregementet").update(
        carried_by=Block.objects.get(campaign=campaign, name="Wachtmeister")
    )
    campaign.refresh_from_db()
    campaign.bump_version()  # as the GM's edit would
    assert campaign.phase.key == "forage"
    return campaign, users


def played_vq(monkeypatch):
    """Spain's conversion played through; the Protestant's revolt in Lyon waits for
    France to say where its mercenaries go (a unit stack's id in the pending data)."""
    campaign = make_vq_campaign(auto_resolve=False)  # France, without a player, waits
    users = seat_users(campaign, "spain", "protestant")
    play_conversion(campaign, monkeypatch, nullcontext)
    dice_for(monkeypatch, "impulse_protestant", SEED_FACES)
    advance_to(campaign, "impulse_protestant")
    order(campaign, "protestant", {"action": "revolt", "target": "lyon", "cp": 3})
    resolve(campaign)
    assert stage(campaign) == ("revolt", "displace", "france")
    campaign.refresh_from_db()
    return campaign, users


def move(campaign, **options) -> tuple[str, Campaign]:
    """Export, delete the campaign, import (its people confirmed by their names; the
    import's ``options``): the archive text and the new campaign."""
    text = dumps(export_campaign(campaign))
    Campaign.objects.filter(pk=campaign.pk).delete()
    return text, import_campaign(json.loads(text), by_name=True, **options)


def unrenewed(text: str) -> str:
    """An archive less what an import renews (campaign/records/archive.py, "Import"): the secret,
    the marks of the imports, the open phase's dice context and the log line that
    publishes the new commitment."""
    data = json.loads(text)
    data["campaign"] |= {"secret": None, "imports": []}
    for phase in data["phases"]:
        if phase["status"] == "open":
            phase["dice_context"] = None
    data["events"] = [
        e
        for e in data["events"]
        if not (e["message"] or {}).get("id", "").startswith("Imported from an archive")
    ]
    return dumps(data)


def same_but_renewed(again: str, text: str) -> None:
    """``again`` (the export of ``text``'s import) is ``text`` but for what the import
    renewed, which its last mark of ``campaign.imports`` says."""
    assert unrenewed(again) == unrenewed(text)
    before, after = json.loads(text), json.loads(again)
    mark = after["campaign"]["imports"][-1]
    assert after["campaign"]["imports"][:-1] == before["campaign"]["imports"]
    ended = before["campaign"]["ended_at"] is not None
    assert mark["secret"] is not ended
    assert (after["campaign"]["secret"] != before["campaign"]["secret"]) is not ended
    assert mark["seeds"] == [
        [p["turn"], p["position"]] for p in after["phases"] if p["status"] == "open"
    ]


def counts() -> dict:
    return {
        model.__name__: model.objects.count()
        for model in (Campaign, Power, Area, Seat, Phase, Order, RollRecord, Event, Block)
    }


# -- export → import → export -------------------------------------------------------------


def test_an_empires_in_arms_campaign_survives_export_and_import_and_plays_on():
    campaign, users = played_eia()
    text, imported = move(campaign)
    same_but_renewed(dumps(export_campaign(imported)), text)
    data = json.loads(text)
    assert data["format"] == "courier-campaign" and data["version"] == 2
    assert {r["rule"] for r in data["rolls"]} >= {"EIA-1"}
    (open_phase,) = [p for p in data["phases"] if p["status"] == "open"]
    assert open_phase["paused_remaining"] == "P1DT06H00M00.000007S"
    assert imported.phase.paused_remaining == timedelta(hours=30, microseconds=7)
    assert data["state"]["depots"] == [
        {"power": "france", "area": "palatinate", "port_city": False, "garrison": 2}
    ]
    # the stack named by its position in the state's guerrillas; a missing one: null
    gb_order = next(o for o in data["orders"] if "moves" in o["payload"] and o["power"] != "france")
    assert gb_order["payload"]["moves"] == [
        {"stack": 0, "to": "andalusia"},
        {"stack": None, "to": "x"},
    ]
    saved = Order.objects.get(phase=imported.phase, power__key="great_britain")
    stack = GuerrillaStack.objects.filter(campaign=imported).order_by("pk").first()
    assert saved.payload["moves"][0]["stack"] == stack.pk

    seats = {s.power.key if s.power else s.role: s.user for s in imported.seats.all()}
    assert seats["gm"] == users["gm"] and seats["france"] == users["player"]
    assert seats["spain"] is None
    opened = resolve(imported, users["gm"])  # the land phase, with its orders
    assert opened.key == "conquest"
    assert Phase.objects.filter(campaign=imported, status="resolved").count() == 3


def as_version_1(data: dict) -> dict:
    """A version 2 export of an Empires in Arms campaign as version 1 wrote it: each power's
    treasury and political points in ``state.powers``, each area's ceded flag and manpower
    in ``state.areas``."""
    old = json.loads(dumps(data))
    state = old["state"]
    for core, table, owner, fields in (
        ("powers", "eia_powers", "power", ("treasury", "political_points")),
        ("areas", "eia_areas", "area", ("ceded", "manpower")),
    ):
        rows = {row[owner]: row for row in state[table]}
        for row in state[core]:
            row.update({name: rows[row["key"]].pop(name) for name in fields})
    return {**old, "version": 1}


def test_a_version_1_archive_imports_with_its_powers_and_areas_numbers():
    campaign, users = played_eia()
    for i, status in enumerate(EiaPowerStatus.objects.filter(power__campaign=campaign)):
        status.treasury, status.political_points = 30 + i, i - 2
        status.save(update_fields=["treasury", "political_points"])
    for i, row in enumerate(EiaArea.objects.filter(area__campaign=campaign)):
        row.ceded, row.manpower = i % 2 == 0, i
        row.save(update_fields=["ceded", "manpower"])
    current = export_campaign(campaign)
    old = as_version_1(current)
    assert old["state"]["powers"][0].keys() == {"key", "treasury", "political_points"}
    assert "treasury" not in old["state"]["eia_powers"][0]
    # a power and an area without a row of their own: the import makes one for their numbers
    spain = next(r for r in old["state"]["eia_powers"] if r["power"] == "spain")
    old["state"]["eia_powers"].remove(spain)
    castile = next(r for r in old["state"]["eia_areas"] if r["area"] == "old-castile")
    old["state"]["eia_areas"].remove(castile)
    Campaign.objects.filter(pk=campaign.pk).delete()
    imported = import_campaign(old, by_name=True)
    again = export_campaign(imported)
    expected = json.loads(dumps(current["state"]))
    defaults = {"zone": "Neutral", "pays_bad_roll": True, "militia_due": 0}
    next(r for r in expected["eia_powers"] if r["power"] == "spain").update(defaults)
    defaults = {"guerrilla_value": None, "islamic": False, "minor_status": ""}
    next(r for r in expected["eia_areas"] if r["area"] == "old-castile").update(defaults)
    assert json.loads(dumps(again["state"])) == expected
    assert again["version"] == 2


@pytest.mark.parametrize("played", [played_pb, played_vq], ids=["pax_baltica", "virgin_queen"])
def test_a_version_1_archive_of_another_game_imports_as_it_was(played, monkeypatch):
    """Version 1 wrote the four numbers on every game's powers and areas, at their
    defaults where the game had none: they are read past."""
    campaign, _ = played(monkeypatch)
    current = export_campaign(campaign)
    old = json.loads(dumps(current))
    old["version"] = 1
    for row in old["state"]["powers"]:
        row.update(treasury=0, political_points=0)
    for row in old["state"]["areas"]:
        row.update(ceded=False, manpower=0)
    Campaign.objects.filter(pk=campaign.pk).delete()
    imported = import_campaign(old, by_name=True, trust_waiting_seed=True)
    assert json.loads(dumps(export_campaign(imported)["state"])) == json.loads(
        dumps(current["state"])
    )


def test_a_pax_baltica_campaign_survives_export_and_import_and_plays_on(monkeypatch):
    campaign, users = played_pb(monkeypatch)
    text, imported = move(campaign)
    same_but_renewed(dumps(export_campaign(imported)), text)
    data = json.loads(text)
    blocks = {b["name"]: b for b in data["state"]["blocks"]}
    assert blocks["Dalregementet"]["carried_by"] == "Wachtmeister"
    assert blocks["Menshikov"]["location"] == "narva"
    assert next(o for o in data["orders"] if "loss_order" in o["payload"])["payload"] == {
        "loss_order": ["Sheremetev", "Pyotr I"]
    }
    actions = next(
        o for o in data["orders"] if o["power"] == "saxony" and "fleet_moves" in o["payload"]
    )
    assert actions["payload"]["reinforce"][0]["block"] == "August II"
    carried = Block.objects.get(campaign=imported, name="Dalregementet")
    assert carried.carried_by == Block.objects.get(campaign=imported, name="Wachtmeister")
    saved = Order.objects.get(phase=imported.phase, power__key="russia")
    assert saved.payload["loss_order"] == ids(imported, "Sheremetev", "Pyotr I")

    opened = resolve(imported, users["gm"])  # forage, with Russia's loss order
    assert opened.key == "actions" and opened.turn == 2


def test_a_virgin_queen_campaign_waiting_for_a_decision_survives_and_goes_on(monkeypatch):
    """The server's own archive, moved on the importer's word for its waiting seed."""
    campaign, users = played_vq(monkeypatch)
    text, imported = move(campaign, trust_waiting_seed=True)
    same_but_renewed(dumps(export_campaign(imported)), text)
    data = json.loads(text)
    (pending,) = data["state"]["vq_pending"]
    assert pending["phase"] == [imported.phase.turn, imported.phase.position]
    assert pending["data"]["queue"] == [["unit", ["france", "mercenary", "lyon"], "lyon"]]
    mercenaries = VqUnits.objects.get(campaign=imported, area__key="lyon", kind="mercenary")
    assert VqPending.objects.get(campaign=imported).data["queue"] == [
        ["unit", mercenaries.pk, "lyon"]
    ]
    assert imported.phase.status == Phase.Status.WAITING

    answer(imported, "france", {f"unit:{mercenaries.pk}": "orleans"})
    assert stage(imported) == ("revolt", "extra", "protestant")
    assert VqUnits.objects.get(campaign=imported, area__key="orleans", kind="mercenary").count == 2


@pytest.mark.parametrize("scenario", [info.key for info in available_scenarios()])
def test_every_shipped_scenario_survives_export_and_import(scenario):
    gm = get_user_model().objects.create_user("scenario-gm", password=PASSWORD)
    campaign = create_campaign(scenario_key=scenario, name=f"Shipped {scenario}", gm=gm)
    resolve(campaign, gm)
    text, imported = move(campaign)
    same_but_renewed(dumps(export_campaign(imported)), text)
    assert imported.seats.get(role="gm").user == gm


def test_seeds_and_invitations_stay_secret():
    campaign, users = played_eia()
    data = export_campaign(campaign)
    text = dumps(data)
    for seat in Seat.objects.filter(campaign=campaign):
        assert seat.invite_token not in text
    open_phase = Phase.objects.get(pk=campaign.phase_id)
    assert open_phase.seed not in text and open_phase.seed_hash not in text
    for phase in Phase.objects.filter(campaign=campaign, status="resolved"):
        assert phase.seed in text
    Campaign.objects.filter(pk=campaign.pk).delete()
    imported = import_campaign(data)
    fresh = imported.phase
    assert fresh.seed and fresh.seed != open_phase.seed
    assert fresh.seed_hash == archive.seed_hash(fresh.seed)
    tokens = set(Seat.objects.filter(campaign=imported).values_list("invite_token", flat=True))
    assert len(tokens) == imported.seats.count() and not tokens & {
        s.invite_token for s in Seat.objects.exclude(campaign=imported)
    }


def test_the_importing_gm_takes_the_gm_seat_and_unknown_users_leave_seats_open():
    campaign, users = played_eia()
    data = export_campaign(campaign)
    for seat in data["seats"]:
        if seat["power"] == "great_britain":
            seat["user"] = "nobody-here"
    newcomer = get_user_model().objects.create_user("newcomer", password=PASSWORD)
    imported = import_campaign(data, gm=users["player"], name="Copy", by_name=True)
    seats = {s.power.key if s.power else s.role: s for s in imported.seats.select_related("user")}
    assert seats["gm"].user == users["player"]
    assert seats["france"].user is None  # the same user cannot hold two seats
    assert seats["france"].user_placeholder == users["player"].username
    assert seats["great_britain"].user is None and seats["great_britain"].invite_token
    assert seats["great_britain"].user_placeholder == "nobody-here"
    assert seats["observer"].user == users["observer"]
    assert imported.created_by == users["player"] and imported.name == "Copy"
    assert newcomer not in {s.user for s in seats.values()}


def test_every_model_of_the_campaign_and_ruleset_apps_is_archived_or_left_out_on_purpose():
    labels = ("campaign", *registry())
    models = {m for label in labels for m in apps.get_app_config(label).get_models()}
    covered = archive.archived_models() | set(archive.NOT_ARCHIVED)
    assert models == covered, (
        f"Archive these (a ruleset's in its storage module, campaign/state/storage.py; the "
        f"others in campaign/records/archive.py, or in NOT_ARCHIVED with a reason): "
        f"{sorted(m.__name__ for m in models - covered)}"
    )


# -- refused imports ----------------------------------------------------------------------


@pytest.fixture
def archived():
    """A played Empires in Arms campaign's archive (the campaign itself deleted)."""
    campaign, users = played_eia()
    data = export_campaign(campaign)
    Campaign.objects.filter(pk=campaign.pk).delete()
    return data, users


def refused(data, match: str, **kwargs) -> ArchiveError:
    before = counts()
    with pytest.raises(ArchiveError, match=match) as raised:
        import_campaign(data, **kwargs)
    assert counts() == before
    return raised.value


def test_a_wrong_format_marker_is_refused(archived):
    data, _ = archived
    refused({**data, "format": "something-else"}, "Not a Courier campaign archive")
    refused([data], "JSON object")


def test_an_unknown_version_is_refused(archived):
    data, _ = archived
    refused({**data, "version": 3}, "Unknown archive version 3: this Courier reads versions 1 to 2")
    refused({**data, "version": 0}, "Unknown archive version 0")
    refused({**data, "version": "1"}, "Unknown archive version")


def test_an_unknown_ruleset_is_refused(archived):
    data, _ = archived
    data["campaign"]["ruleset"] = "diplomacy"
    refused(data, "Unknown ruleset 'diplomacy'")


def test_dangling_references_are_refused_and_each_is_named(archived):
    data, _ = archived
    data["orders"][0]["power"] = "atlantis"
    data["state"]["corps"][0]["area"] = "el-dorado"
    data["events"][-1]["roll"] = 999
    data["events"][-1]["audience"] = ["france", "prester-john"]
    data["state"]["guerrillas"][0]["nationality"] = None
    data["state"]["corps"][1]["power"] = {"key": "france"}
    error = refused(data, "problems")
    assert "orders[0].power: no power 'atlantis'" in error.messages
    assert "state.corps[0].area: no area 'el-dorado'" in error.messages
    assert f"events[{len(data['events']) - 1}].roll: no roll 999" in error.messages
    assert any("no power 'prester-john'" in m for m in error.messages)
    assert "state.guerrillas[0].nationality may not be null" in error.messages
    assert "state.corps[1].power: no power {'key': 'france'}" in error.messages


def test_a_block_in_an_unknown_area_and_a_payload_naming_an_unknown_block_are_refused(
    monkeypatch,
):
    campaign, _ = played_pb(monkeypatch)
    data = export_campaign(campaign)
    data["state"]["blocks"][0]["location"] = "atlantis"
    russia = next(
        o for o in data["orders"] if o["power"] == "russia" and "loss_order" in o["payload"]
    )
    russia["payload"]["loss_order"].append("Ghost regiment")
    error = refused(data, "problems", name="Another")
    assert "state.blocks[0].location: no area 'atlantis'" in error.messages
    assert any("no block 'Ghost regiment'" in m for m in error.messages)


def test_bad_values_are_refused(archived):
    data, _ = archived
    data["campaign"]["dice_mode"] = "loaded"
    data["campaign"]["options"] = {"no-such-option": 1}
    data["phases"][0]["opened_at"] = "yesterday"
    data["powers"][0]["sort"] = "first"
    data["powers"][1]["colour"] = "red"
    data["state"]["revolts"][0]["number"] = True
    error = refused(data, "problems")
    text = "\n".join(error.messages)
    for expected in (
        "campaign.dice_mode: 'loaded' is not one of",
        "has no option 'no-such-option'",
        "phases[0].opened_at must be an ISO 8601 time",
        "powers[0].sort must be a whole number",
        "powers[1]: unknown field(s) 'colour'",
        "state.revolts[0].number must be a whole number",
    ):
        assert expected in text


def test_an_import_that_collides_with_a_campaign_of_its_gm_is_refused(archived):
    data, users = archived
    first = import_campaign(data, by_name=True)
    assert first.seats.get(role="gm").user == users["gm"]
    refused(data, "already exists", by_name=True)
    data["campaign"]["name"] = data["campaign"]["name"].upper()
    refused(data, "already exists", by_name=True)  # the same name, whatever the case
    second = import_campaign(data, name="A second copy", by_name=True)
    assert second.pk != first.pk
    other_gm = get_user_model().objects.create_user("other-gm", password=PASSWORD)
    third = import_campaign(data, gm=other_gm)  # the same name under another GM
    assert third.seats.get(role="gm").user == other_gm


def test_an_empty_name_is_refused(archived):
    data, _ = archived
    refused(data, "campaign.name may not be empty", name="  ")


def test_exported_references_are_not_shared_between_rows():
    campaign, _ = played_eia()
    data = export_campaign(campaign)
    data["campaign"]["phase"][0] = 99
    assert [99, 2] not in [e["phase"] for e in data["events"]]


def test_a_database_rule_broken_by_the_archive_is_refused_cleanly(archived):
    data, _ = archived
    data["seats"][0]["role"] = "player"  # a player seat without a power
    refused(data, "breaks a rule of the database")


# -- state_of / restore_state -------------------------------------------------------------


def test_a_state_with_ids_is_restored_exactly_after_more_play(monkeypatch):
    campaign, users = played_pb(monkeypatch)
    before = state_of(campaign, ids=True)
    loss_order = Order.objects.get(phase=campaign.phase, power__key="russia").payload
    resolve(campaign, users["gm"])  # forage: losses, then a new season
    resolve(campaign, users["gm"])
    assert state_of(campaign, ids=True) != before
    restore_state(campaign, before)
    assert state_of(campaign, ids=True) == before
    # every piece has its id back: the saved orders still name the right blocks
    assert loss_order["loss_order"] == ids(campaign, "Sheremetev", "Pyotr I")


def test_a_state_without_ids_is_restored_and_its_pending_decision_names_new_ids(monkeypatch):
    campaign, _ = played_vq(monkeypatch)
    before = state_of(campaign)
    assert "ids" not in before and "id" not in before["vq_units"][0]
    version = Campaign.objects.get(pk=campaign.pk).version
    VqUnits.objects.filter(campaign=campaign).delete()
    Area.objects.filter(campaign=campaign, key="lyon").update(controller=None)
    restore_state(campaign, before)
    assert state_of(campaign) == before
    assert Campaign.objects.get(pk=campaign.pk).version == version + 1
    mercenaries = VqUnits.objects.get(campaign=campaign, area__key="lyon", kind="mercenary")
    assert VqPending.objects.get(campaign=campaign).data["queue"] == [
        ["unit", mercenaries.pk, "lyon"]
    ]


def test_export_takes_its_state_from_state_of():
    campaign, _ = played_eia()
    assert export_campaign(campaign)["state"] == state_of(campaign)


def test_a_bad_state_is_refused_and_changes_nothing():
    campaign, _ = played_eia()
    state = state_of(campaign)
    state["corps"][0]["power"] = "atlantis"
    state["areas"].append({"key": "nowhere", "controller": None})
    state["unknown_table"] = []
    before = snapshot(campaign)
    with pytest.raises(ArchiveError) as raised:
        restore_state(campaign, state)
    assert snapshot(campaign) == before
    text = "\n".join(raised.value.messages)
    assert "state.corps[0].power: no power 'atlantis'" in text
    assert "state.areas[" in text and "no area 'nowhere'" in text
    assert "unknown table(s) 'unknown_table'" in text


def test_restore_state_runs_a_bounded_number_of_queries(monkeypatch, django_assert_max_num_queries):
    campaign, _ = played_pb(monkeypatch)
    state = state_of(campaign, ids=True)
    with django_assert_max_num_queries(30):
        restore_state(campaign, state)


# -- commands -----------------------------------------------------------------------------


def test_the_commands_export_to_a_file_or_stdout_and_import_it(tmp_path):
    campaign, users = played_eia()
    out = io.StringIO()
    call_command("export_campaign", str(campaign.pk), stdout=out)
    assert json.loads(out.getvalue()) == export_campaign(campaign)
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(campaign.pk), "-o", str(path), stdout=io.StringIO())
    assert path.read_text(encoding="utf-8") == out.getvalue()

    said = io.StringIO()
    call_command(
        "import_campaign",
        str(path),
        "--gm",
        users["outsider"].username,
        "--name",
        "Copy",
        stdout=said,
    )
    imported = Campaign.objects.get(name="Copy")
    assert imported.seats.get(role="gm").user == users["outsider"]
    assert f"#{imported.pk}" in said.getvalue()


def test_the_commands_refuse_bad_input_with_a_clear_message(tmp_path):
    campaign, users = played_eia()
    good = export_campaign(campaign)
    before = counts()

    def fails(match: str, *args):
        with pytest.raises(CommandError, match=match):
            call_command(*args, stdout=io.StringIO())
        assert counts() == before

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "courier-campaign", "version": 1,', encoding="utf-8")
    fails(r"bad\.json: The archive is not valid JSON \(line 1", "import_campaign", str(bad))
    fails("cannot be read", "import_campaign", str(tmp_path / "missing.json"))
    for change, message in (
        ({"version": 7}, "Unknown archive version 7"),
        ({"campaign": {**good["campaign"], "ruleset": "chess"}}, "Unknown ruleset 'chess'"),
        ({}, "already exists"),
    ):
        path = tmp_path / "archive.json"
        path.write_text(dumps({**good, **change}), encoding="utf-8")
        fails(message, "import_campaign", str(path), "--map-users-by-name")
    fails("No user 'ghost'", "import_campaign", str(path), "--gm", "ghost")
    fails("No campaign #", "export_campaign", str(10**15))


# -- the GM's download --------------------------------------------------------------------


@pytest.mark.parametrize(
    "role, status",
    [
        ("gm", 200),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 302),
    ],
)
def test_only_the_gm_downloads_the_campaign(role, status):
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    client = Client()
    if role != "anonymous":
        client.force_login(users[role])
    response = client.get(reverse("campaign:export", args=[campaign.pk]))
    assert response.status_code == status
    if status == 200:
        assert response["Content-Type"] == "application/json"
        assert response["Content-Disposition"] == (
            'attachment; filename="test-campaign-10-areas-turn1.json"'
        )
        assert json.loads(response.content) == export_campaign(campaign)
        assert response.content.decode() == dumps(export_campaign(campaign))


def test_the_download_is_linked_from_the_gm_dashboard():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    client = Client()
    client.force_login(users["gm"])
    html = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert reverse("campaign:export", args=[campaign.pk]) in html
