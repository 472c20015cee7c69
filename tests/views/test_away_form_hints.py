"""The away form: each hint sits under the field it describes and says what is true (the
start may be left empty, the end may not), on the campaign page and in the preferences."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def fields(html: str, form_id: str) -> list[str]:
    """The text of each of the form's field blocks, in the order drawn."""
    form = html.split(f'id="{form_id}"')[1].split("</form>", 2)
    blocks = re.findall(r"<div>\s*<label.*?</div>\s*</div>", "".join(form[:2]), re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", b)).split()) for b in blocks]


def away_fields(client, campaign) -> list[str]:
    html = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    return fields(html, "away")


def test_each_hint_sits_under_its_own_field(campaign, client_as):
    start, end = away_fields(client_as("player"), campaign)
    assert start == "Away from: Optional: leave it empty to be away from now."
    assert end.startswith("Until: Required: at most ")
    assert "Leave empty" not in end and "empty" not in end


def test_the_hint_follows_its_input(campaign, client_as):
    html = client_as("player").get(reverse("campaign:detail", args=[campaign.pk])).content
    html = html.decode()
    for name in ("start", "end"):
        assert html.index(f'id="id_{name}"') < html.index(f'id="id_{name}_helptext"')
    assert re.search(r'name="end"[^>]*required', html)
    assert not re.search(r'name="start"[^>]*required', html)


def test_a_missing_end_is_said_under_the_end(campaign, client_as):
    response = client_as("player").post(reverse("campaign:away", args=[campaign.pk]), {})
    html = unescape(response.content.decode())
    end = html.split('id="id_end"')[1].split("</div>\n</div>")[0]
    assert "This field is required." in end
