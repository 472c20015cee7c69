"""Hidden draws on the verify page: while the campaign goes on a player reads the faces but
neither the secret nor the other side's blocks, and is told when the draws become
checkable; the GM checks them at any time; once the GM has ended the campaign every draw
checks (✓) for everyone, a tampered one shows ✗. Only the GM ends a campaign, once."""

from __future__ import annotations

import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Event, Phase, Power, RollRecord
from campaign.records.verify import DRAW_SCRIPT
from rules.dice import drawn_by, secret_order, seed_hash
from rules.pax_baltica.models import Block
from tests.factories import make_pb_campaign, seat_users
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db
SAXONS = ["Schulenburg", "Lubomirski", "Saxon Guard", "Flemming", "Steinau"]
MAX_QUERIES = 40
ROOT = Path(__file__).resolve().parents[2]
VERIFY_DRAW = ROOT / "bin" / "verify-draw"


def recruited():
    """Saxony-Poland (the Coalition) draws three blocks from a pool of five: three rolls."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    saxony = Power.objects.get(campaign=campaign, key="saxony")
    for name in SAXONS[2:]:
        Block.objects.create(
            campaign=campaign, power=saxony, kind="regiment", name=name, strength=1, max_strength=3
        )
    recruitment = campaign.phase
    payload = {"reinforce": [], "draws": 3, "steps_each": 1, "places": ["lausitz"]}
    order(campaign, "saxony", {**payload, "fleet_places": []})
    resolve(campaign, users["gm"])
    recruitment.refresh_from_db()
    assert RollRecord.objects.filter(phase=recruitment, rule="GNW-10").count() == 3
    campaign.refresh_from_db()
    return campaign, users, recruitment


def page(user, campaign, phase) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("campaign:verify", args=[campaign.pk, phase.pk]))
    assert response.status_code == 200
    return unescape(response.content.decode())


def end(user, campaign):
    """The GM dashboard's end form, as the page shows it now."""
    client = Client()
    client.force_login(user)
    version = Campaign.objects.get(pk=campaign.pk).state_version
    data = {"confirm": "on", "state_version": version}
    return client.post(reverse("campaign:end", args=[campaign.pk]), data)


def test_before_the_end_a_player_reads_no_secret_and_no_block_of_the_other_side():
    campaign, users, recruitment = recruited()
    for role in ("player", "other_player", "observer"):  # Sweden, Russia, the observer
        html = page(users[role], campaign, recruitment)
        assert campaign.secret not in html
        assert campaign.secret_hash in html and "once the campaign ends" in html
        assert "3 hidden draws" in html
    sweden = page(users["player"], campaign, recruitment)
    assert not [name for name in SAXONS if name in sweden]
    detail = Client()
    detail.force_login(users["player"])
    text = unescape(detail.get(reverse("campaign:detail", args=[campaign.pk])).content.decode())
    assert campaign.secret_hash in text and campaign.secret not in text
    start = Event.objects.filter(campaign=campaign, text__contains=campaign.secret_hash)
    assert start.exists()  # the log published the hash when the campaign started


def test_the_gm_checks_the_draws_while_the_campaign_goes_on(django_assert_max_num_queries):
    campaign, users, recruitment = recruited()
    client = Client()
    client.force_login(users["gm"])
    client.get(reverse("campaign:list"))
    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.get(reverse("campaign:verify", args=[campaign.pk, recruitment.pk]))
    html = unescape(response.content.decode())
    assert campaign.secret in html and "because you are its GM" in html
    assert "Each of the 3 draws gave what its dice and the secret pick" in html
    assert html.count('<tr class="match">') >= 3 and '<tr class="mismatch">' not in html


def test_after_the_end_every_draw_checks_and_a_tampered_one_shows_a_cross():
    campaign, users, recruitment = recruited()
    assert end(users["gm"], campaign).status_code == 302
    campaign.refresh_from_db()
    assert campaign.ended_at is not None
    html = page(users["player"], campaign, recruitment)  # Sweden: the other side
    assert campaign.secret in html and seed_hash(campaign.secret) in html
    assert "✓ the SHA-256 of the secret" in html
    assert "Each of the 3 draws gave what its dice and the secret pick" in html
    draws = RollRecord.objects.filter(phase=recruitment, rule="GNW-10").order_by("index")
    drawn = [roll.outcome.removesuffix(" drawn") for roll in draws]
    assert all(name in html for name in drawn)
    assert "python3 bin/verify-draw " + campaign.secret in html

    other = next(name for name in SAXONS if name not in drawn)
    tampered = draws[1]
    tampered.outcome = f"{other} drawn"
    tampered.save(update_fields=["outcome"])
    html = page(users["player"], campaign, recruitment)
    assert "1 of 3 draws did not give what the dice and the secret pick" in html
    assert html.count('<tr class="mismatch">') >= 1

    Campaign.objects.filter(pk=campaign.pk).update(secret="0" * 64)  # not the one committed to
    html = page(users["gm"], campaign, recruitment)
    assert "The secret does not match the hash published when the campaign started" in html


def test_only_the_gm_ends_the_campaign_and_only_once():
    campaign, users, recruitment = recruited()
    assert end(users["player"], campaign).status_code == 403
    assert end(users["observer"], campaign).status_code == 403
    assert end(users["outsider"], campaign).status_code == 404
    campaign.refresh_from_db()
    assert campaign.ended_at is None
    client = Client()
    client.force_login(users["gm"])
    gm_page = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    assert reverse("campaign:end", args=[campaign.pk]) in gm_page
    version = campaign.state_version
    url = reverse("campaign:end", args=[campaign.pk])
    first = client.post(url, {"confirm": "on", "state_version": version})
    again = client.post(url, {"confirm": "on", "state_version": version})  # sent twice
    assert (first.status_code, again.status_code) == (302, 409)
    fresh = end(users["gm"], campaign)  # from a fresh page: already ended
    assert fresh.status_code == 409 and "already ended" in unescape(fresh.content.decode())
    assert client.post(url, {"state_version": version + 1}).status_code == 422  # no confirm
    ends = Event.objects.filter(campaign=campaign, text__contains="ends the campaign")
    assert ends.count() == 1


def test_an_ended_campaign_refuses_orders_and_resolution_with_a_clear_message():
    campaign, users, recruitment = recruited()
    end(users["gm"], campaign)
    campaign.refresh_from_db()
    gm = Client()
    gm.force_login(users["gm"])
    advance = gm.post(reverse("campaign:advance", args=[campaign.pk]), {"phase": campaign.phase_id})
    assert advance.status_code == 409 and "has ended" in unescape(advance.content.decode())
    player = Client()
    player.force_login(users["other_player"])  # Russia
    orders = player.post(
        reverse("campaign:orders", args=[campaign.pk]),
        {"phase": campaign.phase_id, "ready": "on"},
    )
    assert orders.status_code == 409 and "has ended" in unescape(orders.content.decode())
    assert Phase.objects.get(pk=campaign.phase_id).status == Phase.Status.OPEN


@pytest.mark.parametrize(
    "faces, pool",
    [
        ("6", SAXONS),  # 6 ≥ 5, the largest multiple of 5: rolled again, and no more faces
        ("6 6", SAXONS),
        ("", SAXONS),
        ("3", [f"Block {n}" for n in range(7)]),  # 7 blocks: two dice a try, one given
        ("6 6 6", [f"Block {n}" for n in range(7)]),  # 1 full try (rolled again), 1 die
    ],
)
def test_the_draw_script_says_when_the_faces_do_not_complete_a_draw(faces, pool):
    run = subprocess.run(
        [sys.executable, str(VERIFY_DRAW), "c4" * 32, "9/1/0/recruitment/draw/2", faces, *pool],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 1
    assert "drawn:" not in run.stdout
    assert "faces do not complete a draw" in run.stderr


def test_the_draw_script_is_the_same_in_the_readme_and_bin_verify_draw_and_agrees():
    assert VERIFY_DRAW.read_text() == "#!/usr/bin/env python3\n" + DRAW_SCRIPT
    assert VERIFY_DRAW.stat().st_mode & 0o111, "bin/verify-draw is executable"
    readme = (ROOT / "README.md").read_text()
    assert f"```python\n{DRAW_SCRIPT}```" in readme
    secret, context, pool = "c4" * 32, "9/1/0/recruitment/draw/2", SAXONS
    for faces in ("1", "4", "6 3", "6 6 5"):
        run = subprocess.run(
            [sys.executable, str(VERIFY_DRAW), secret, context, faces, *pool],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        order = secret_order(secret, context, pool)
        assert run.stdout.splitlines() == [
            f"secret SHA-256: {seed_hash(secret)}",
            "order: " + " | ".join(order),
            f"drawn: {drawn_by([int(f) for f in faces.split()], order)}",
        ]
