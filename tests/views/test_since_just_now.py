"""Orders saved under a minute ago read "less than a minute ago" wherever the pages say
how long ago (templates that use the ``since`` filter), never "0 minutes ago"."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from tests.views.test_orders_for_gm import post_orders

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return " ".join(unescape(response.content.decode()).split())


@pytest.mark.parametrize("ready", [False, True])
def test_orders_saved_just_now_say_less_than_a_minute_ago(campaign, client_as, ready):
    player = client_as("player")
    saved = text(post_orders(player, campaign, {}, ready=ready))
    page = text(player.get(reverse("campaign:detail", args=[campaign.pk])))
    for html in (saved, page):
        assert "Saved less than a minute ago" in html
        assert "0 minutes" not in html
    table = page.split('id="submissions"')[1].split("</table>")[0]
    assert "less than a minute ago" in table and "0 minutes" not in table
