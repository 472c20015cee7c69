"""The GM and a Virgin Queen procedure under way: edits wait for it, the GM may cancel
it, a stale answer is refused; what the GM edits of spaces and powers is kept."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Adjacency, Area
from campaign.play import services
from rules.dice import ScriptedDice
from rules.virgin_queen.models import VqPending, VqPower, VqSpace
from rules.virgin_queen.services import load_state
from tests.factories import make_vq_campaign, seat_users, snapshot
from tests.services.test_eia_phase_services import order, resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(monkeypatch):
    """Spain's conversion (6 4 1 in France) waiting for its 6; the GM and Spain's client."""
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    resolve(campaign)  # the Ottoman passes
    order(campaign, "spain", {"action": "conversion", "zones": ["france"], "attempts": 3})
    monkeypatch.setattr(services, "_dice_for", lambda *a: ScriptedDice([6, 4, 1]))
    resolve(campaign)
    gm, spain = Client(), Client()
    gm.force_login(users["gm"])
    spain.force_login(users["player"])
    campaign.refresh_from_db()
    return campaign, gm, spain


def decision_url(campaign) -> str:
    return reverse("campaign:decision", args=[campaign.pk])


def test_a_gm_edit_waits_until_the_procedure_is_over(waiting):
    campaign, gm, _ = waiting
    before = snapshot(campaign)
    url = reverse("campaign:edit", args=[campaign.pk, "power"])
    response = gm.post(url, {"power": "hre", "catholic": ""})
    assert response.status_code == 422
    assert "waits for Spain" in response.content.decode()
    assert snapshot(campaign) == before


def test_the_gm_may_cancel_a_procedure_and_the_impulse_ends(waiting):
    campaign, gm, _ = waiting
    dashboard = reverse("campaign:gm", args=[campaign.pk])
    assert "Cancel the conversion instead" in gm.get(dashboard).content.decode()
    gm.cookies["django_language"] = "el"
    assert "Ακύρωση του προσηλυτισμού" in gm.get(dashboard).content.decode()
    gm.cookies["django_language"] = "en"
    data = {"phase": campaign.phase_id, "version": campaign.version, "cancel": "on"}
    response = gm.post(decision_url(campaign), data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.phase.key == "impulse_england"
    assert not VqPending.objects.filter(campaign=campaign).exists()
    assert campaign.events.filter(text__contains="The GM cancels the conversion").exists()


def test_only_the_gm_may_cancel(waiting):
    campaign, _, spain = waiting
    before = snapshot(campaign)
    data = {"phase": campaign.phase_id, "cancel": "on"}
    response = spain.post(decision_url(campaign), data)
    assert response.status_code == 422
    assert "asks nothing called “cancel”" in response.content.decode()
    assert snapshot(campaign) == before


def test_an_answer_given_on_a_stale_page_is_refused(waiting):
    campaign, _, spain = waiting
    before = snapshot(campaign)
    data = {"phase": campaign.phase_id, "version": campaign.version - 1, "die_1": "keep"}
    response = spain.post(decision_url(campaign), data)
    assert response.status_code == 409
    assert "moved on since the page was loaded" in response.content.decode()
    assert snapshot(campaign) == before


def test_space_and_power_edits_are_kept():
    campaign = make_vq_campaign()
    users = seat_users(campaign, "spain", "protestant")
    gm = Client()
    gm.force_login(users["gm"])
    edit = reverse("campaign:edit", args=[campaign.pk, "space"])
    response = gm.post(
        edit,
        {
            "space": "dijon",
            "religion": "protestant",
            "controller": "france",
            "zone": "france",
            "capital_of": "",
            "fortified": "on",
            "key_space": "on",
            "protestant_home": "on",
        },
    )
    assert response.status_code == 302
    dijon = VqSpace.objects.get(area__campaign=campaign, area__key="dijon")
    assert (dijon.fortified, dijon.key_space, dijon.protestant_home) == (True, True, True)
    response = gm.post(reverse("campaign:edit", args=[campaign.pk, "power"]), {"power": "hre"})
    assert response.status_code == 302
    assert not VqPower.objects.get(power__campaign=campaign, power__key="hre").catholic
    assert "hre" not in load_state(campaign).world.catholic_powers


def test_a_strait_is_not_a_land_link_for_the_procedures():
    campaign = make_vq_campaign()
    areas = {a.key: a for a in Area.objects.filter(campaign=campaign)}
    Adjacency.objects.create(
        campaign=campaign, a=areas["brussels"], b=areas["clermont"], kind="strait"
    )
    world = load_state(campaign).world
    assert "clermont" not in world.adjacency["brussels"]
