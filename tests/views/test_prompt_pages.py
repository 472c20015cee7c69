"""The player's page states the numbers of the order it offers and who waits for whom,
from the campaign's state: Virgin Queen's decision (Pax Baltica's RP and actions:
test_prompt_pages_pb.py)."""

from __future__ import annotations

import pytest

from tests.views.test_vq_views import (  # noqa: F401 (fixtures)
    as_role,
    decision_panel,
    detail,
    start_spain_conversion,
    vq,
    vq_users,
)

pytestmark = pytest.mark.django_db


def test_the_decision_says_who_waits_for_whom(vq, as_role, monkeypatch):  # noqa: F811
    start_spain_conversion(vq, as_role, monkeypatch)
    own = decision_panel(detail(as_role("spain"), vq))
    other = decision_panel(detail(as_role("protestant"), vq))
    assert "The conversion of Spain (VQ-1) waits for your decision." in own
    assert "The conversion of Spain (VQ-1) waits for the decision of Spain." in other
