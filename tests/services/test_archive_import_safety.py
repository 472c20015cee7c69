"""An archive is data, never authority (campaign/records/archive.py, "Import"; issue 30, item 2).

Each attack of the second probe, reproduced and refused: a forged seed for the open
phase, the campaign's secret copied along, forged user names that seated this server's
users and signed press as them, JSON nested 200,000 deep, a file too large to read; an
invalid archive lists every problem; the people an import could not confirm are counted
and become placeholders with invitation links; the GM's download says what it leaves
out; and export → import → export with the people mapped gives the same file but for
what the import renewed, which the file marks."""

from __future__ import annotations

import hashlib
import io
import json
import sys
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from campaign.management.commands.import_campaign import report_lines
from campaign.models import Campaign, Event, Message, Order, Phase, Seat
from campaign.play import services
from campaign.play.ending import end_campaign
from campaign.records import archive, verify
from campaign.records.archive import (
    ArchiveError,
    dumps,
    export_campaign,
    import_archive,
    import_campaign,
    read_archive,
)
from rules.dice import SeededDice
from tests.factories import PASSWORD, make_eia_campaign, seat_users
from tests.services.test_archive import (
    counts,
    played_eia,
    played_pb,
    played_vq,
    same_but_renewed,
)
from tests.services.test_eia_phase_services import resolve

pytestmark = pytest.mark.django_db
User = get_user_model()
FORGED_SEED = "a" * 64


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def archived_eia():
    """A played Empires in Arms campaign's archive, the campaign deleted (its users stay)."""
    campaign, users = played_eia()
    data = export_campaign(campaign)
    Campaign.objects.filter(pk=campaign.pk).delete()
    return data, users


def run(*args, **options) -> str:
    out = io.StringIO()
    call_command("import_campaign", *args, stdout=out, **options)
    return out.getvalue()


def refused_command(match: str, *args) -> str:
    before = counts()
    with pytest.raises(CommandError, match=match) as raised:
        run(*args)
    assert counts() == before
    return str(raised.value)


# -- the dice and the secret ------------------------------------------------------------


def test_a_forged_seed_of_the_open_phase_is_not_used_and_a_new_hash_is_published():
    data, users = archived_eia()
    (open_phase,) = [p for p in data["phases"] if p["status"] == "open"]
    open_phase |= {"seed": FORGED_SEED, "seed_hash": sha(FORGED_SEED), "dice_context": "x/1"}
    predicted = SeededDice(FORGED_SEED, "x/1")

    copy = import_campaign(data, by_name=True)
    phase = copy.phase
    assert phase.seed != FORGED_SEED and len(phase.seed) == 64
    assert phase.seed_hash == sha(phase.seed) != sha(FORGED_SEED)
    assert phase.dice_context == Phase.context_for(copy.pk, phase.turn, phase.position, phase.key)
    dice = services._dice_for(copy, phase, None)
    assert (dice.seed, dice.context) == (phase.seed, phase.dice_context)
    assert [dice.d6("x") for _ in range(20)] != [predicted.d6("x") for _ in range(20)]
    # published: the campaign page shows the new hash, the log says the seed is new
    client = Client()
    client.force_login(users["player"])
    html = client.get(reverse("campaign:detail", args=[copy.pk])).content.decode()
    assert phase.seed_hash in html and sha(FORGED_SEED) not in html
    line = Event.objects.filter(campaign=copy).latest("pk")
    assert line.text.startswith("Imported from an archive: each phase not yet resolved")
    # the file marks it, and the resolved phases keep their seeds (their dice verify)
    assert copy.imports[-1]["seeds"] == [[phase.turn, phase.position]]
    resolved = {(p["turn"], p["position"]): p["seed"] for p in data["phases"] if p["seed"]}
    for kept in Phase.objects.filter(campaign=copy, status="resolved"):
        assert kept.seed == resolved[(kept.turn, kept.position)]
        assert verify.verify_phase(kept, kept.rolls.order_by("index")).ok


def test_the_campaigns_secret_does_not_travel_to_a_copy(monkeypatch):
    campaign, users = played_pb(monkeypatch)
    original = campaign.secret
    data = export_campaign(campaign)
    assert data["campaign"]["secret"] == original  # in the file: the original's GM's own
    copy = import_campaign(data, name="Copy", by_name=True)
    assert copy.secret != original and copy.imports[-1]["secret"] is True
    # the new commitment is published, and is the one the verify pages check against
    line = Event.objects.filter(campaign=copy).latest("pk")
    assert copy.secret_hash in line.text and line.message["params"]["secret_hash"]
    assert verify.published_secret_hash(copy) == copy.secret_hash
    # the copy's GM sees the copy's secret, never the original's
    client = Client()
    client.force_login(users["gm"])
    pages = [
        client.get(reverse("campaign:verify", args=[copy.pk, phase.pk])).content.decode()
        for phase in Phase.objects.filter(campaign=copy, status="resolved")
    ]
    assert pages and not any(original in page for page in pages)
    assert any(copy.secret in page for page in pages)  # the draws' pages show it to the GM
    # ending the copy reveals the copy's secret
    copy.refresh_from_db()
    end_campaign(campaign_id=copy.pk, expected_state_version=copy.state_version, actor=users["gm"])
    ended = Event.objects.filter(campaign=copy).latest("pk").text
    assert copy.secret in ended and original not in ended


# -- people ----------------------------------------------------------------------------


def forged(data: dict, victim: str) -> dict:
    """The archive with France's seat, a GM log line and a public message given to
    ``victim``, a user of this server who never played in it."""
    for seat in data["seats"]:
        if seat["power"] == "france":
            seat["user"] = victim
    next(e for e in data["events"] if e["actor"])["actor"] = victim
    data["channels"] = [{"kind": "public", "key": "public", "members": []}]
    data["messages"] = [
        {"channel": "public", "author": victim, "power": "france", "turn": 1, "text": "I yield."}
    ]
    return data


def test_forged_user_names_seat_nobody_and_sign_nothing_without_a_mapping(tmp_path):
    data, users = archived_eia()
    victim = User.objects.create_user("victim", password=PASSWORD)
    path = tmp_path / "forged.json"
    path.write_text(dumps(forged(data, "victim")), encoding="utf-8")

    said = run(str(path))
    copy = Campaign.objects.get()
    assert not Seat.objects.filter(user=victim).exists()
    assert not Event.objects.filter(actor=victim).exists()
    assert not Message.objects.filter(author=victim).exists()
    france = copy.seats.get(power__key="france")
    assert (france.user, france.user_placeholder) == (None, "victim")
    assert str(france).startswith("(imported) victim")
    assert Event.objects.get(campaign=copy, actor_placeholder="victim").actor_label == (
        "(imported) victim"
    )
    assert Message.objects.get(campaign=copy).author_placeholder == "victim"
    # nobody at all is matched by name: every seat waits for its link
    assert not copy.seats.filter(user__isnull=False).exists()
    assert "not mapped: victim: 1 seat, 1 log actor, 1 message author as the placeholder" in said
    assert "GM seat: nobody" in said


def test_the_user_who_claims_an_imported_seat_replaces_its_placeholder(tmp_path):
    data, users = archived_eia()
    path = tmp_path / "forged.json"
    path.write_text(dumps(forged(data, "victim")), encoding="utf-8")
    run(str(path))
    france = Campaign.objects.get().seats.get(power__key="france")
    claimer = User.objects.create_user("claimer", password=PASSWORD)
    seat = services.claim_seat(token=france.invite_token, user=claimer)
    seat.refresh_from_db()
    assert (seat.user, seat.user_placeholder) == (claimer, "")
    assert not str(seat).startswith("(imported)")


def test_a_forged_name_is_seated_only_when_mapped(tmp_path):
    data, users = archived_eia()
    victim = User.objects.create_user("victim", password=PASSWORD)
    path = tmp_path / "forged.json"
    path.write_text(dumps(forged(data, "victim")), encoding="utf-8")

    said = run(str(path), "--map-user", "victim=victim")
    copy = Campaign.objects.get()
    assert copy.seats.get(power__key="france").user == victim
    assert Message.objects.get(campaign=copy).author == victim
    assert Event.objects.filter(campaign=copy, actor=victim).count() == 1
    assert "mapped: victim -> victim (--map-user): 1 seat, 1 log actor, 1 message author" in said
    # a name mapped to someone else is that someone
    other = User.objects.create_user("someone-else", password=PASSWORD)
    run(str(path), "--map-user", "victim=someone-else", "--name", "Second")
    second = Campaign.objects.get(name="Second")
    assert second.seats.get(power__key="france").user == other


def test_a_mapping_that_names_nobody_or_no_user_is_refused(tmp_path):
    data, users = archived_eia()
    path = tmp_path / "archive.json"
    path.write_text(dumps(data), encoding="utf-8")
    refused_command("no user 'ghost'", str(path), "--map-user", "gm-x=ghost")
    refused_command("write ARCHIVE_NAME=USERNAME", str(path), "--map-user", "nobody")
    said = refused_command(
        "the archive names nobody 'stranger'",
        str(path),
        "--map-user",
        "stranger=" + users["gm"].username,
    )
    assert "nothing was created" in said
    two = refused_command(
        "would hold the seats",
        str(path),
        "--map-user",
        f"{users['player'].username}={users['gm'].username}",
        "--map-user",
        f"{users['gm'].username}={users['gm'].username}",
    )
    assert users["gm"].username in two


def test_an_import_into_a_server_without_its_users_counts_each_lost_reference():
    """The probe's import said only "Imported campaign #1": now each name is counted by
    kind, seats, actors and authors become placeholders, and each seat's link is printed."""
    campaign, users = played_eia()
    data = export_campaign(campaign)
    Campaign.objects.filter(pk=campaign.pk).delete()
    names = {u.username for u in users.values()}
    expected: dict[str, Counter] = {}
    for section, field, word in (
        ("seats", "user", "seat"),
        ("events", "actor", "log actor"),
        ("orders", "submitted_by", "order submitter"),
        ("phases", "resolved_by", "phase resolver"),
    ):
        for row in data[section]:
            if row[field]:
                expected.setdefault(row[field], Counter())[word] += 1
    expected.setdefault(data["campaign"]["created_by"], Counter())["creator"] += 1
    assert set(expected) <= names

    report = import_archive(data)  # nothing confirmed: as into a server without them
    assert {p.name: p.refs for p in report.people} == expected
    assert not report.mapped and report.gm == ""
    total = sum(sum(c.values()) for c in expected.values())
    text = "\n".join(report_lines(report))
    assert f"in {total} references: 0 mapped to users here (0 references), " in text
    copy = report.campaign
    assert copy.created_by is None
    assert not Order.objects.filter(campaign=copy, submitted_by__isnull=False).exists()
    open_seats = copy.seats.filter(user__isnull=True).exclude(role=Seat.Role.GM)
    assert len(report.invitations) == open_seats.count()
    for seat in open_seats:
        link = reverse("campaign:join", args=[seat.invite_token])
        assert any(i.url.endswith(link) for i in report.invitations)
        assert link in text
    # the GM dashboard lists the placeholders with their links
    gm = User.objects.create_user("new-gm", password=PASSWORD)
    Seat.objects.filter(campaign=copy, role=Seat.Role.GM).update(user=gm)
    client = Client()
    client.force_login(gm)
    html = client.get(reverse("campaign:gm", args=[copy.pk])).content.decode()
    france = copy.seats.get(power__key="france")
    assert f"(imported) {users['player'].username}" in html
    assert reverse("campaign:join", args=[france.invite_token]) in html


# -- hostile files ----------------------------------------------------------------------


def test_json_nested_200000_deep_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    refused_command("nests arrays and objects more than 64 deep", str(path))
    with pytest.raises(ArchiveError, match="more than 64 deep"):
        read_archive('{"a": ' * 100_000 + "1" + "}" * 100_000)
    # deep nesting inside a real archive, too
    data, _ = archived_eia()
    data["orders"][0]["payload"] = {"x": json.loads("[" * 70 + "]" * 70)}
    path.write_text(dumps(data), encoding="utf-8")
    refused_command("more than 64 deep", str(path))
    # brackets inside strings are text, and a real export is well within the bound
    assert read_archive(json.dumps({"text": "[" * 1000}))["text"] == "[" * 1000
    data["orders"][0]["payload"] = {}
    assert read_archive(dumps(data)) == data


def test_a_huge_archive_is_refused_by_its_size_before_it_is_read(tmp_path, settings, monkeypatch):
    settings.ARCHIVE_MAX_BYTES = 1000
    path = tmp_path / "huge.json"
    path.write_text("{" + " " * 5000 + "not even JSON", encoding="utf-8")
    read = []
    monkeypatch.setattr(type(path), "read_bytes", lambda self: read.append(self) or b"")
    refused_command(r"5,014 bytes, more than the 1,000 this server reads", str(path))
    assert read == []  # refused by its size, never read
    with pytest.raises(ArchiveError, match="more than the 1,000"):
        read_archive(b"[" + b" " * 2000 + b"]")
    # standard input: read up to the limit and one byte more, then refused
    stdin = io.TextIOWrapper(io.BytesIO(b" " * 10**6 + b"[]"))
    monkeypatch.setattr(sys, "stdin", stdin)
    refused_command("more than the 1,000", "-")
    assert stdin.buffer.tell() == 1001


def test_an_invalid_archive_is_refused_with_every_problem_listed(tmp_path):
    data, _ = archived_eia()
    data["powers"][0]["sort"] = "first"
    data["powers"][1]["colour"] = "red"
    data["adjacency"][0]["a"] = "nowhere"
    data["orders"][0]["power"] = "atlantis"
    data["events"][0]["kind"] = "rumour"
    data["seats"][0]["user_placeholder"] = "x" * 200
    data["withheld"] = {"sealed_orders": {"phase": [99, 9], "powers": ["atlantis"]}}
    path = tmp_path / "invalid.json"
    path.write_text(dumps(data), encoding="utf-8")
    said = refused_command("refused, nothing was created", str(path))
    problems = [line for line in said.splitlines() if line.startswith("  - ")]
    for expected in (
        "powers[0].sort must be a whole number",
        "powers[1]: unknown field(s) 'colour'",
        "adjacency[0].a: no area 'nowhere'",
        "orders[0].power: no power 'atlantis'",
        "events[0].kind: 'rumour' is not one of",
        "seats[0].user_placeholder: Ensure this value has at most 150 characters",
        "withheld.sealed_orders.phase: no phase [99, 9]",
        "withheld.sealed_orders.powers: no power 'atlantis'",
    ):
        assert sum(expected in line for line in problems) == 1, expected
    assert f"({len(problems)} problems)" in said
    # the header's problems together too, not the first alone
    data["version"] = 3
    data["campaign"]["ruleset"] = "chess"
    path.write_text(dumps(data), encoding="utf-8")
    said = refused_command("Unknown archive version 3", str(path))
    assert "Unknown ruleset 'chess'" in said


# -- the GM's download and the round trip -----------------------------------------------


def test_the_download_of_a_gm_who_plays_says_what_it_leaves_out():
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    services.gm_plays(campaign_id=campaign.pk, power_key="spain", actor=users["gm"])
    resolve(campaign)  # peace: the revolt step opens
    campaign.refresh_from_db()
    france = campaign.seats.get(power__key="france")
    services.submit_orders(
        seat=france, phase_id=campaign.phase_id, payload={}, ready=False, actor=users["player"]
    )
    client = Client()
    client.force_login(users["gm"])
    data = json.loads(client.get(reverse("campaign:export", args=[campaign.pk])).content)
    phase = [campaign.phase.turn, campaign.phase.position]
    assert data["withheld"] == {"sealed_orders": {"phase": phase, "powers": ["france"]}}
    assert not [o for o in data["orders"] if o["power"] == "france" and o["phase"] == phase]
    assert "withheld" not in export_campaign(campaign)  # the server's export leaves out nothing

    said = "\n".join(report_lines(import_archive(data, name="Copy")))
    assert "The archive says it leaves out: the sealed orders of france for the open phase" in said


def test_export_import_export_with_the_people_mapped_is_the_same_but_for_what_was_renewed(
    tmp_path, monkeypatch
):
    campaign, users = played_pb(monkeypatch)
    out = tmp_path / "campaign.json"
    call_command("export_campaign", str(campaign.pk), "-o", str(out), stderr=io.StringIO())
    text = out.read_text(encoding="utf-8")
    Campaign.objects.filter(pk=campaign.pk).delete()  # an empty server but for its users
    assert not Campaign.objects.exists()
    mapped = sorted(u.username for u in users.values() if f'"{u.username}"' in text)
    assert len(mapped) == 4  # the GM, two players and the observer
    args = [arg for name in mapped for arg in ("--map-user", f"{name}={name}")]

    said = run(str(out), *args)
    copy = Campaign.objects.get()
    assert f"Imported campaign #{copy.pk}" in said
    assert "0 not (0 references)" in said
    for name in mapped:
        assert f"mapped: {name} -> {name} (--map-user)" in said
    assert f"GM seat: {users['gm'].username}." in said
    assert f"its SHA-256 is now {copy.secret_hash}" in said
    assert copy.seats.get(role="gm").user == users["gm"]
    assert copy.seats.get(power__key="sweden").user == users["player"]

    again = io.StringIO()
    call_command("export_campaign", str(copy.pk), stdout=again)
    same_but_renewed(again.getvalue(), text)
    data = json.loads(again.getvalue())
    assert data["campaign"]["imports"][-1]["secret"] is True
    assert data["campaign"]["imports"][-1]["seeds"] == [[copy.phase.turn, copy.phase.position]]
    assert archive.seed_hash(copy.phase.seed) == copy.phase.seed_hash


def test_a_waiting_phases_seed_is_taken_only_on_the_importers_word(monkeypatch):
    """Its answer rolls on with the file's seed: a forged one would predict those dice."""
    campaign, users = played_vq(monkeypatch)
    data = export_campaign(campaign)
    (waiting,) = [p for p in data["phases"] if p["status"] == Phase.Status.WAITING]
    waiting["seed"] = "a" * 64
    before = Campaign.objects.count()
    with pytest.raises(archive.ArchiveError) as refused:
        archive.import_archive(data, by_name=True, name="Forged")
    assert any("waits for a decision" in problem for problem in refused.value.messages)
    assert Campaign.objects.count() == before


def test_the_gms_download_leaves_out_a_waiting_phases_seed_and_says_so(monkeypatch):
    campaign, users = played_vq(monkeypatch)
    gm = campaign.seats.get(role=Seat.Role.GM)
    data = export_campaign(campaign, reader=gm)
    (waiting,) = [p for p in data["phases"] if p["status"] == Phase.Status.WAITING]
    assert waiting["seed"] is None and waiting["seed_hash"] is None
    assert data["withheld"]["dice_seed"] == [waiting["turn"], waiting["position"]]
    assert Phase.objects.get(campaign=campaign, status="waiting").seed not in dumps(data)
