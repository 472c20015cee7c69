"""Pax Baltica's order forms state, from the campaign's state, the RP a nation has to
spend and the actions its side has left, with what each order costs."""

from __future__ import annotations

import pytest

from rules.pax_baltica.models import PbNation, PbSide
from rules.pax_baltica.procedures import rp_available
from rules.pax_baltica.services import load_world
from tests.views.test_pb_views import as_role, detail, pb, pb_users, to_phase  # noqa: F401

pytestmark = pytest.mark.django_db


def test_recruitment_page_says_the_rp_the_nation_has(pb, as_role):  # noqa: F811
    PbNation.objects.filter(power__campaign=pb, power__key="sweden").update(event_rp=5)
    pb.bump_version()  # a change behind the services' back
    available = rp_available(load_world(pb).nations["sweden"])
    html = detail(as_role("player"), pb)
    assert f"Sweden has {available} RP to spend this recruitment phase" in html


def test_actions_page_says_the_actions_left(pb, as_role):  # noqa: F811
    to_phase(pb, "actions")
    left = PbSide.objects.get(campaign=pb, key="sweden").actions
    html = detail(as_role("player"), pb)
    assert f"Your side has {left} action" in html
