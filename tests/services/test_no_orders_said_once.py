"""A power that gave no orders is said to do its default once: "Spain gave no orders: it
passes." and no "Spain passes." after it; a pass that was ordered, or the pass of a
power without a player (which the platform says nothing of), is still said."""

from __future__ import annotations

import pytest

from campaign.models import Event
from tests.factories import make_vq_campaign, seat_users
from tests.services.test_eia_phase_services import order, resolve
from tests.services.test_vq_phase_services import advance_to

pytestmark = pytest.mark.django_db


def said_of(campaign, key: str) -> list[str]:
    """The log's lines of the impulse ``key``."""
    return list(
        Event.objects.filter(campaign=campaign, phase__key=key)
        .order_by("pk")
        .values_list("text", flat=True)
    )


def impulse_lines(campaign, key: str, power: str) -> list[str]:
    return [line for line in said_of(campaign, key) if line.startswith(power)]


@pytest.fixture
def vq(db):
    campaign = make_vq_campaign()
    seat_users(campaign, player="spain", other="france")
    return campaign


def test_a_power_without_orders_is_said_to_pass_once(vq):
    advance_to(vq, "impulse_spain")
    resolve(vq)
    assert impulse_lines(vq, "impulse_spain", "Spain") == ["Spain gave no orders: it passes."]


def test_an_ordered_pass_is_said(vq):
    advance_to(vq, "impulse_spain")
    order(vq, "spain", {"action": "pass"})
    resolve(vq)
    lines = impulse_lines(vq, "impulse_spain", "Spain")
    assert lines[-1] == "Spain passes." and not any("gave no orders" in line for line in lines)


def test_a_power_without_a_player_is_still_said_to_pass(vq):
    key = next(
        f"impulse_{p.key}"
        for p in vq.powers.order_by("sort")
        if not p.seats.filter(user__isnull=False).exists()
    )
    advance_to(vq, key)
    resolve(vq)
    lines = said_of(vq, key)
    assert sum(line.endswith(" passes.") for line in lines) == 1
    assert not any("gave no orders" in line for line in lines)
