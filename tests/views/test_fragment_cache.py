"""The campaign page's state panels and a power's part of its orders for the GM are drawn
once per campaign version and view (campaign/views/context.py ``panels_key`` and
``gm_part_key``), like the map (tests/views/test_map_cache.py): the next reader who sees
the same thing gets them from the cache, and no reader ever gets those drawn for a reader
who sees something else."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse

from campaign.play import gm_order_forms
from rules import engine
from tests.factories import make_eia_campaign, make_pb_campaign, seat_users
from tests.views.test_map_cache import counted
from tests.views.test_pb_hidden_information import Secrets, blocks_of

pytestmark = pytest.mark.django_db


def page(user, campaign) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("campaign:detail", args=[campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def part(html: str, start: str, end: str) -> str:
    begin = html.index(start)
    return html[begin : html.index(end, begin)]


def panels_of(html: str) -> str:
    return part(html, 'id="state-panels"', "</section>\n</div>")


def counted_panels(monkeypatch, key: str) -> list[int]:
    """Every drawing of the state panels of the ruleset ``key`` during the test."""
    hooks = engine.ruleset_for(key).hooks
    presenter = hooks.presenter
    calls: list[int] = []

    def panels(world, viewer):
        calls.append(1)
        return presenter.panels(world, viewer)

    counting = replace(hooks, presenter=replace(presenter, panels=panels))
    monkeypatch.setitem(engine._hooks, key, counting)
    return calls


def test_each_side_of_pax_baltica_gets_its_own_state_panels_never_the_others(monkeypatch):
    drawn = counted_panels(monkeypatch, "pax_baltica")
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    swedish = Secrets.of_blocks(blocks_of(campaign, "sweden"))
    coalition = Secrets.of_blocks(blocks_of(campaign, "coalition"))
    gm = page(users["gm"], campaign)  # first, so that a wrong key would serve it on
    assert swedish.found_in(panels_of(gm)) and coalition.found_in(panels_of(gm))
    sweden = page(users["player"], campaign)
    russia = page(users["other_player"], campaign)
    assert not coalition.found_in(panels_of(sweden)) and not swedish.found_in(panels_of(russia))
    assert len(drawn) == 3
    assert panels_of(page(users["player"], campaign)) == panels_of(sweden)  # from the cache
    assert len(drawn) == 3
    campaign.bump_version()  # any change draws them again
    page(users["player"], campaign)
    assert len(drawn) == 4


def test_a_power_s_part_of_its_orders_for_the_gm_is_its_own(monkeypatch):
    made = counted(monkeypatch, gm_order_forms.GmOrdersForm, "__init__")
    campaign = make_eia_campaign()
    users = seat_users(campaign, "france", "austria")
    france = part(page(users["player"], campaign), 'id="gm-orders-part"', "</fieldset>")
    assert "corps I" in france and "corps II" in france  # France's corps, its pieces
    austria = page(users["other_player"], campaign)
    assert "corps I" not in part(austria, 'id="gm-orders-part"', "</fieldset>")
    assert len(made) == 2
    again = part(page(users["player"], campaign), 'id="gm-orders-part"', "</fieldset>")
    assert again == france and len(made) == 2  # from the cache: no form made
    assert 'id="gm-orders-part"' not in page(users["gm"], campaign)  # the GM gives none
