"""The verify page: a resolved phase of each ruleset recomputed from its revealed seed,
a tampered roll caught, the offline script (bin/verify-dice, the README's) agreeing,
hidden purposes kept hidden, GM-entered dice said to be unverifiable, and every role."""

from __future__ import annotations

import hmac
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Phase, RollRecord
from campaign.records.verify import SCRIPT, verify_phase
from rules.dice import seed_hash, seeded_face
from rules.pax_baltica.models import Block
from tests.factories import make_eia_campaign, make_pb_campaign, make_vq_campaign, seat_users
from tests.services.test_eia_phase_services import order, resolve
from tests.services.test_pb_phase_services import give_first_season_orders

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
VERIFY_DICE = ROOT / "bin" / "verify-dice"
MAX_QUERIES = 25


# -- resolved phases of each ruleset, with seeded dice ----------------------------------


def eia_revolt():
    """Empires in Arms: Great Britain incites a revolt in Minor 000 (EIA-1)."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    resolve(campaign, users["gm"])  # peace
    campaign.refresh_from_db()
    assert campaign.phase.key == "revolt"
    revolt = campaign.phase
    order(campaign, "great_britain", {"targets": ["minor-0"]})
    resolve(campaign, users["gm"])
    return campaign, users, revolt


def pb_siege():
    """Pax Baltica: Menshikov besieges Swedish Narva (GNW-1), a player each side."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    give_first_season_orders(campaign)
    resolve(campaign, users["gm"])  # actions: the siege is declared
    campaign.refresh_from_db()
    assert campaign.phase.key == "siege"
    siege = campaign.phase
    resolve(campaign, users["gm"])
    return campaign, users, siege


def vq_conversion():
    """Virgin Queen: Spain's three conversion attempts in the Netherlands (VQ-1). The
    impulse's seed is one whose dice convert nothing, so no decision is asked and the
    phase resolves at once (any seed is a fair one: it is fixed before the roll)."""
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    for _ in range(6):
        campaign.refresh_from_db()
        if campaign.phase.key == "impulse_spain":
            break
        resolve(campaign, users["gm"])
    impulse = campaign.phase
    assert impulse.key == "impulse_spain"
    seed = next(
        f"{n:064x}"
        for n in range(1000)
        if all(seeded_face(f"{n:064x}", impulse.dice_context, i) <= 3 for i in range(3))
    )
    Phase.objects.filter(pk=impulse.pk).update(seed=seed, seed_hash=seed_hash(seed))
    order(
        campaign,
        "spain",
        {"action": "conversion", "zones": ["netherlands"], "attempts": 3, "event": ""},
    )
    resolve(campaign, users["gm"])
    return campaign, users, impulse


RESOLVED = {"eia": eia_revolt, "pb": pb_siege, "vq": vq_conversion}


def verify_url(campaign, phase) -> str:
    return reverse("campaign:verify", args=[campaign.pk, phase.pk])


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def stored_rolls(phase) -> list[RollRecord]:
    return list(RollRecord.objects.filter(phase=phase).order_by("index"))


def face_cells(html: str) -> list[str]:
    """The text of the faces cells, in order: stored then recomputed, roll by roll."""
    return [unescape(cell).strip() for cell in re.findall(r'<td class="faces">(.*?)</td>', html)]


def offline_command(html: str) -> str:
    """The here-document the page gives to run the check anywhere."""
    (block,) = re.findall(r"<pre><code>(python3 - .*?EOF)</code></pre>", html, re.S)
    return unescape(block)


# -- every ruleset: the page, tampering, the offline script ------------------------------


@pytest.mark.parametrize("ruleset", RESOLVED)
def test_every_roll_of_a_resolved_phase_matches_its_seed(ruleset, django_assert_max_num_queries):
    campaign, users, phase = RESOLVED[ruleset]()
    phase.refresh_from_db()
    rolls = stored_rolls(phase)
    assert rolls, "the phase rolled no dice"
    for role in ("gm", "observer", "player", "other_player"):
        client = client_for(users[role])
        client.get(reverse("campaign:list"))  # the session is saved before counting
        with django_assert_max_num_queries(MAX_QUERIES):
            response = client.get(verify_url(campaign, phase))
        assert response.status_code == 200
        html = unescape(response.content.decode())
        assert phase.seed in html and phase.seed_hash in html and phase.dice_context in html
        dice = sum(len(r.faces) for r in rolls)
        assert f"Every die matches the seed: {dice} di" in html
        assert html.count('aria-label="matches">✓') == len(rolls)
        assert "✗" not in html and "does not match" not in html
        faces = [" ".join(map(str, r.faces)) for r in rolls]
        assert face_cells(html) == [cell for face in faces for cell in (face, face)]
        for roll in rolls:
            assert f'href="/rules/{campaign.ruleset}/#{roll.rule}"' in html


@pytest.mark.parametrize(
    ("language", "verdict", "purpose"),
    [
        ("el", "Κάθε ζάρι συμφωνεί με τον σπόρο: ", "υποκινεί"),
        ("ru", "Каждый кубик совпадает с зерном: ", "подстрекает"),
    ],
)
def test_the_verdict_and_the_rolls_purposes_read_in_the_readers_language(
    language, verdict, purpose
):
    campaign, users, phase = eia_revolt()
    rolls = stored_rolls(phase)
    assert rolls[0].purpose.startswith("Great Britain incites a revolt in ")
    client = client_for(users["player"])
    client.cookies["django_language"] = language
    html = unescape(client.get(verify_url(campaign, phase)).content.decode())
    assert verdict in html and "Every die" not in html
    row = re.search(r"<tbody>.*?</tbody>", html, re.S).group(0)
    assert purpose in row and "incites" not in row and "breaks out" not in row


@pytest.mark.parametrize("ruleset", RESOLVED)
def test_every_rulesets_rolls_keep_their_purpose_and_explanation_as_messages(ruleset):
    campaign, users, phase = RESOLVED[ruleset]()
    rolls = stored_rolls(phase)
    assert rolls and all(r.purpose_message and r.explanation_message for r in rolls)
    client = client_for(users["gm"])
    client.cookies["django_language"] = "el"
    html = unescape(client.get(verify_url(campaign, phase)).content.decode())
    row = re.search(r"<tbody>.*?</tbody>", html, re.S).group(0)
    for roll in rolls:
        assert roll.purpose not in row and roll.explanation not in row


def test_a_rolls_purpose_not_in_its_log_lines_message_reads_as_stored():
    from campaign.views.verify import said

    line = SimpleNamespace(message={"id": "%(purpose)s: %(roll)s", "params": {"purpose": "x"}})
    assert said(line, "purpose", "France sponsors") == "France sponsors"
    assert said(SimpleNamespace(message=None), "roll", "4 ≥ 4") == "4 ≥ 4"
    other = {"id": "%(purpose)s", "params": {"purpose": {"id": "Another", "params": {}}}}
    assert said(SimpleNamespace(message=other), "purpose", "Stored") == "Stored"


@pytest.mark.parametrize("ruleset", RESOLVED)
def test_a_tampered_roll_is_caught(ruleset):
    campaign, users, phase = RESOLVED[ruleset]()
    first, *others = stored_rolls(phase)
    tampered = [first.faces[0] % 6 + 1, *first.faces[1:]]
    RollRecord.objects.filter(pk=first.pk).update(faces=tampered)
    response = client_for(users["player"]).get(verify_url(campaign, phase))
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "The log does not match the seed: 1 roll of" in html
    assert html.count('aria-label="does not match">✗') == 1
    assert html.count('aria-label="matches">✓') == len(others)
    cells = face_cells(html)
    assert cells[0] == " ".join(map(str, tampered)) != cells[1]


@pytest.mark.parametrize("ruleset", RESOLVED)
def test_the_offline_script_agrees_with_the_page_and_the_log(ruleset):
    campaign, users, phase = RESOLVED[ruleset]()
    phase.refresh_from_db()
    html = unescape(client_for(users["observer"]).get(verify_url(campaign, phase)).content.decode())
    rolls = stored_rolls(phase)
    count = rolls[-1].index + len(rolls[-1].faces)
    logged = [face for roll in rolls for face in roll.faces]
    expected = f"seed SHA-256: {phase.seed_hash}\n{' '.join(map(str, logged))}\n"

    run = subprocess.run(
        [sys.executable, str(VERIFY_DICE), phase.seed, phase.dice_context, str(count)],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    assert run.stdout == expected
    # the page's copy-and-paste command prints the same, and says so
    command = offline_command(html).replace("python3 -", f"{sys.executable} -", 1)
    pasted = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, check=True, timeout=30
    )
    assert pasted.stdout == expected
    assert expected.strip() in html
    assert f"python3 - {phase.seed} '{phase.dice_context}' {count} <<'EOF'" in html


def test_the_script_is_the_same_in_the_readme_bin_verify_dice_and_the_page():
    assert VERIFY_DICE.read_text() == "#!/usr/bin/env python3\n" + SCRIPT
    assert VERIFY_DICE.stat().st_mode & 0o111, "bin/verify-dice is executable"
    assert len(SCRIPT.splitlines()) <= 10
    imports = {m for line in SCRIPT.splitlines() for m in re.findall(r"import (.+)", line)}
    assert imports == {"hashlib, hmac, sys"}
    readme = (ROOT / "README.md").read_text()
    dice = readme[readme.index("## Dice") : readme.index("\n## ", readme.index("## Dice") + 1)]
    assert f"```python\n{SCRIPT}```" in dice


def test_the_script_follows_the_engine_on_many_dice():
    seed, context = "ab" * 32, "7/3/1/revolt"
    run = subprocess.run(
        [sys.executable, str(VERIFY_DICE), seed, context, "500"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    faces = run.stdout.splitlines()[1].split()
    assert faces == [str(seeded_face(seed, context, n)) for n in range(500)]


def test_the_script_and_the_engine_try_again_alike_when_no_byte_is_below_252(monkeypatch, capsys):
    """Die 2's first digest and die 4's first two have no byte below 252 (a forged HMAC):
    both the engine and the script go on to "context/n/1", "context/n/2"."""
    seed, context = "cd" * 32, "7/3/1/revolt"
    real, tried = hmac.digest, []

    def digest(key, message, algorithm):
        tried.append(message.decode())
        if message.decode() in (f"{context}/2", f"{context}/4", f"{context}/4/1"):
            return bytes([252 + i % 4 for i in range(32)])
        return real(key, message, "sha256")

    monkeypatch.setattr(
        hmac, "new", lambda key, message, _: SimpleNamespace(digest=lambda: digest(key, message, 0))
    )
    engine = [seeded_face(seed, context, n) for n in range(6)]
    assert {f"{context}/2/1", f"{context}/4/2"} <= set(tried)
    monkeypatch.setattr(hmac, "digest", digest)
    monkeypatch.setattr(sys, "argv", ["verify-dice", seed, context, "6"])
    exec(compile(SCRIPT, "verify-dice", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out.splitlines()[1] == " ".join(map(str, engine))


# -- hidden information ------------------------------------------------------------------


def test_a_swedish_player_sees_the_faces_of_a_siege_but_not_the_coalition_blocks():
    campaign, users, siege = pb_siege()
    rolls = stored_rolls(siege)
    coalition = set(
        Block.objects.filter(campaign=campaign)
        .exclude(power__key="sweden")
        .values_list("name", flat=True)
    )
    assert "Menshikov" in coalition
    # an observer sees no side's hidden state unless the GM chose one (campaign/core/watching.py)
    for role, sees in (
        ("player", False),
        ("gm", True),
        ("observer", False),
        ("other_player", True),
    ):
        html = unescape(client_for(users[role]).get(verify_url(campaign, siege)).content.decode())
        assert ("Menshikov" in html) == sees, role
        faces = [" ".join(map(str, r.faces)) for r in rolls]
        assert face_cells(html)[::2] == faces, role
        if not sees:
            assert not {name for name in coalition if name in html}
            assert html.count("a roll of the other side") == len(rolls)
            assert "Every die matches the seed" in html


def test_a_roll_without_its_log_line_is_not_explained_to_a_player():
    campaign, users, siege = pb_siege()
    RollRecord.objects.filter(phase=siege).update(purpose="Secret purpose", purpose_message=None)
    from campaign.models import Event

    Event.objects.filter(roll__phase=siege).delete()
    html = client_for(users["other_player"]).get(verify_url(campaign, siege)).content.decode()
    assert "Secret purpose" not in html and "a roll of the other side" in html
    html = client_for(users["gm"]).get(verify_url(campaign, siege)).content.decode()
    assert "Secret purpose" in html


# -- GM-entered dice ---------------------------------------------------------------------


def test_gm_entered_dice_are_said_to_be_unverifiable():
    campaign = make_eia_campaign(dice_mode="scripted")
    users = seat_users(campaign)
    resolve(campaign, users["gm"], faces=[])  # peace
    campaign.refresh_from_db()
    revolt = campaign.phase
    order(campaign, "great_britain", {"targets": ["minor-0"]})
    resolve(campaign, users["gm"], faces=[1])  # the revolt does not break out
    assert stored_rolls(revolt)
    response = client_for(users["player"]).get(verify_url(campaign, revolt))
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "entered by the GM" in html and "cannot be verified" in html
    revolt.refresh_from_db()
    assert revolt.seed not in html  # nothing to check it against
    assert "✓" not in html and "✗" not in html and "python3" not in html
    assert face_cells(html) == ["1"]
    detail = client_for(users["player"]).get(reverse("campaign:detail", args=[campaign.pk]))
    assert verify_url(campaign, revolt) not in detail.content.decode()


# -- roles and refusals ------------------------------------------------------------------


@pytest.fixture
def revolt():
    return eia_revolt()


def test_every_seated_role_may_verify_and_the_log_links_to_it(revolt):
    campaign, users, phase = revolt
    for role in ("gm", "observer", "player", "other_player"):
        client = client_for(users[role])
        assert client.get(verify_url(campaign, phase)).status_code == 200, role
        detail = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
        assert f'href="{verify_url(campaign, phase)}"' in detail
        campaign.refresh_from_db()
        assert verify_url(campaign, campaign.phase) not in detail  # the open one: no link


def test_outsiders_anonymous_open_phases_and_other_campaigns_are_refused(revolt):
    campaign, users, phase = revolt
    assert client_for(users["outsider"]).get(verify_url(campaign, phase)).status_code == 404
    anonymous = Client().get(verify_url(campaign, phase))
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))

    campaign.refresh_from_db()
    response = client_for(users["player"]).get(verify_url(campaign, campaign.phase))
    assert response.status_code == 409
    html = unescape(response.content.decode())
    assert "This phase is still open; its seed is revealed once it is resolved." in html
    assert campaign.phase.seed not in html and campaign.phase.seed_hash in html

    other = make_eia_campaign()
    foreign = other.phases.get()
    Phase.objects.filter(pk=foreign.pk).update(status=Phase.Status.RESOLVED)
    for url in (
        reverse("campaign:verify", args=[campaign.pk, foreign.pk]),
        reverse("campaign:verify", args=[other.pk, phase.pk]),
        reverse("campaign:verify", args=[campaign.pk, 10**17]),
    ):
        assert client_for(users["gm"]).get(url).status_code == 404, url


# -- the check itself, without the database ------------------------------------------------


def fake_phase(seed="s" * 64, mode="seeded", published=None):
    return SimpleNamespace(
        seed=seed,
        seed_hash=seed_hash(seed) if published is None else published,
        dice_context="1/2/3/siege",
        campaign=SimpleNamespace(dice_mode=mode),
    )


def honest(phase, index, count):
    faces = [seeded_face(phase.seed, phase.dice_context, n) for n in range(index, index + count)]
    return SimpleNamespace(index=index, faces=faces)


def test_verify_phase_reports_gaps_overlaps_and_a_seed_not_committed_to():
    phase = fake_phase()
    rolls = [honest(phase, 3, 2), honest(phase, 0, 2), honest(phase, 4, 1)]
    result = verify_phase(phase, rolls)
    assert result.all_match and result.seed_matches_hash and not result.ok
    assert [c.index for c in result.checks] == [0, 3, 4]
    assert [(g.start, g.end) for g in result.gaps] == [(2, 3)]
    assert result.gaps[0].faces == (seeded_face(phase.seed, phase.dice_context, 2),)
    assert [(o.start, o.end) for o in result.overlaps] == [(4, 5)]
    assert (result.dice, result.span) == (5, 5)
    assert "Die 2 of the phase is in no stored roll." in result.summary
    assert "Die 4 is stored in more than one roll." in result.summary

    committed = verify_phase(fake_phase(published="0" * 64), [honest(phase, 0, 3)])
    assert committed.all_match and not committed.seed_matches_hash and not committed.ok
    assert committed.summary.startswith("The seed does not match the hash published")

    clean = verify_phase(phase, [honest(phase, 0, 3), honest(phase, 3, 1)])
    assert clean.ok and clean.recomputed == [f for r in clean.checks for f in r.recomputed]
    assert verify_phase(phase, []).summary.startswith("No roll of this phase is stored.")


def test_verify_phase_never_uses_the_hash_and_refuses_gm_entered_dice():
    phase = fake_phase()
    roll = honest(phase, 0, 4)
    # the same seed with any published hash recomputes the same faces
    assert verify_phase(fake_phase(published="f" * 64), [roll]).checks[0].match
    scripted = verify_phase(fake_phase(mode="scripted"), [roll])
    assert not scripted.verifiable and not scripted.ok and not scripted.checks[0].recomputed
    assert "entered by the GM" in scripted.summary and "cannot be verified" in scripted.summary
    broken = verify_phase(phase, [SimpleNamespace(index=0, faces="6")])
    assert not broken.all_match


def test_a_pool_draw_is_a_roll_the_page_verifies():
    """Pax Baltica draws a block at random from the pool with seeded dice: the draw is
    stored and verified like any roll, its block named only to its own side."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    recruitment = campaign.phase
    order(
        campaign,
        "saxony",
        {"reinforce": [], "draws": 1, "steps_each": 0, "places": ["lausitz"], "fleet_places": []},
    )
    resolve(campaign, users["gm"])
    recruitment.refresh_from_db()
    rolls = list(RollRecord.objects.filter(phase=recruitment))
    assert [r.rule for r in rolls] == ["GNW-10"]
    assert verify_phase(recruitment, rolls).all_match
    client = Client()
    client.force_login(users["player"])  # Sweden: the other side
    html = client.get(
        reverse("campaign:verify", args=[campaign.pk, recruitment.pk])
    ).content.decode()
    assert "✓" in html
    assert "Schulenburg" not in html and "Lubomirski" not in html
