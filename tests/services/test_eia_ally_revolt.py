"""Decision 17's option against the database: a revolt incited in an ally's area breaks
out and ends in the same resolution; the row is written ended, with its let-down."""

from __future__ import annotations

import pytest

from campaign.models import Power, PowerRelation
from campaign.play import services
from rules.empires_in_arms.models import EiaPowerStatus, LetDown, Revolt
from tests.services.test_eia_phase_services import CyclingDice, order, quarter_campaign, resolve


@pytest.mark.django_db
def test_a_revolt_in_an_allys_minor_is_written_ended_with_its_let_down(monkeypatch):
    monkeypatch.setattr(services, "_dice_for", lambda *args: CyclingDice((6,)))
    campaign = quarter_campaign(options={"revolt_against_ally": "allowed"})
    resolve(campaign)  # peace step
    gb = Power.objects.get(campaign=campaign, key="great_britain")
    austria = Power.objects.get(campaign=campaign, key="austria")  # holds Minor 001
    a, b = sorted((gb, austria), key=lambda p: p.pk)  # the pair is stored ordered
    PowerRelation.objects.create(campaign=campaign, a=a, b=b, kind="alliance")
    campaign.bump_version()  # as every change of the state does (pages keep the World by it)
    order(campaign, "great_britain", {"targets": ["minor-1"]})
    resolve(campaign)  # revolt step: 6 +1 breaks out, then ends at once
    revolt = Revolt.objects.get(campaign=campaign, area__key="minor-1")
    assert not revolt.active and revolt.ended_turn == campaign.turn
    assert "Great Britain and Austria are allies" in str(revolt.end_reason)
    assert LetDown.objects.get(campaign=campaign, power=gb, area__key="minor-1").count == 1
    assert Revolt.objects.get(campaign=campaign, area__key="palatinate").active
    assert EiaPowerStatus.objects.get(power=gb).political_points == 9
