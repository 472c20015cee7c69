"""The map is drawn once per campaign version and view (campaign/views/context.py
map_context): the next reader who sees the same thing gets the drawing from the cache,
and no reader ever gets one made for a reader who sees something else."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaign import presenters
from tests.factories import make_pb_campaign, seat_users
from tests.maps import map_url, with_map
from tests.views.test_pb_hidden_information import Secrets, blocks_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def counted(monkeypatch, owner, name: str) -> list[int]:
    """Every call of ``owner.name`` during the test (one 1 each)."""
    calls: list[int] = []
    real = getattr(owner, name)

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


@pytest.fixture
def drawings(monkeypatch) -> list[int]:
    """Every map drawn (presenters.map_view called) during the test."""
    return counted(monkeypatch, presenters, "map_view")


def page(user, campaign) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("campaign:detail", args=[campaign.pk]))
    assert response.status_code == 200
    return with_map(client, response.content.decode())


def map_of(html: str) -> str:
    start = html.index('<section id="map"')
    return html[start : html.index("</section>", start)]


def test_each_side_of_pax_baltica_gets_its_own_map_never_the_others_from_the_cache(drawings):
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    swedish = Secrets.of_blocks(blocks_of(campaign, "sweden"))
    coalition = Secrets.of_blocks(blocks_of(campaign, "coalition"))
    sweden = map_of(page(users["player"], campaign))
    assert drawings == [1] and not coalition.found_in(sweden)
    russia = map_of(page(users["other_player"], campaign))  # the same version, the other side
    assert drawings == [1, 1] and not swedish.found_in(russia)
    gm = map_of(page(users["gm"], campaign))
    assert drawings == [1, 1, 1]
    blocks = blocks_of(campaign, "sweden") + blocks_of(campaign, "coalition")
    on_the_map = {b.name for b in blocks if b.location_id}
    assert on_the_map and all(name in gm for name in on_the_map)  # the GM sees both sides
    assert map_of(page(users["player"], campaign)) == sweden  # the same again: from the cache
    assert drawings == [1, 1, 1]


def test_a_change_draws_the_map_again(drawings):
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    page(users["player"], campaign)
    page(users["player"], campaign)
    assert drawings == [1]
    campaign.bump_version()  # any change: an edit, a resolution, an order given
    page(users["player"], campaign)
    assert drawings == [1, 1]


def area_table(user, campaign) -> str:
    client = Client()
    client.force_login(user)
    url = reverse("campaign:area_table", args=[campaign.pk])
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_the_area_table_is_cached_per_view_too(drawings):
    """The table a reader opens is kept like the map: the GM's, with both sides' blocks, is
    never what a player gets, nor one side's what the other gets."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    swedish = Secrets.of_blocks(blocks_of(campaign, "sweden"))
    coalition = Secrets.of_blocks(blocks_of(campaign, "coalition"))
    gm = area_table(users["gm"], campaign)  # first, so that a wrong key would serve it on
    assert swedish.found_in(gm) and coalition.found_in(gm)
    sweden = area_table(users["player"], campaign)
    russia = area_table(users["other_player"], campaign)
    assert not coalition.found_in(sweden) and not swedish.found_in(russia)
    assert drawings == [1, 1, 1]
    assert area_table(users["player"], campaign) == sweden  # the same again: from the cache
    assert drawings == [1, 1, 1]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_map_url_signed_for_another_reader_never_serves_their_drawing(drawings):
    """The map panel's URL carries the cache key of the page that made it, signed for its
    reader: another reader who sends it gets their own drawing, never the one it names."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    swedish = Secrets.of_blocks(blocks_of(campaign, "sweden"))
    gm_client, russian = signed_in(users["gm"]), signed_in(users["other_player"])
    detail = reverse("campaign:detail", args=[campaign.pk])
    gm_map = map_url(gm_client.get(detail).content.decode())
    assert swedish.found_in(gm_client.get(gm_map, **HTMX).content.decode())  # now cached
    answer = russian.get(gm_map, **HTMX)
    assert answer.status_code == 200 and "data-area-url" in answer.content.decode()
    assert not swedish.found_in(answer.content.decode())
    assert drawings == [1, 1]  # drawn again, for Russia's side
    for forged in ("forged", gm_map.split("k=")[1][:-3] + "abc"):
        answer = russian.get(reverse("campaign:map", args=[campaign.pk]), {"k": forged}, **HTMX)
        assert answer.status_code == 200 and not swedish.found_in(answer.content.decode())


def test_a_map_panel_comes_from_the_cache_without_reading_the_state(
    drawings, django_assert_max_num_queries
):
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    client = signed_in(users["player"])
    url = map_url(client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode())
    first = client.get(url, **HTMX)
    assert "private" in first["Cache-Control"] and "max-age" in first["Cache-Control"]
    with django_assert_max_num_queries(3):  # the session, its user and the seat
        again = client.get(url, **HTMX)
    assert again.content == first.content and drawings == [1]


def test_without_javascript_the_map_panel_is_the_maps_own_page(drawings):
    """A browser without JavaScript follows the panel's link to a page with the map and
    the table of its areas."""
    campaign = make_pb_campaign()
    users = seat_users(campaign, "sweden", "russia")
    client = signed_in(users["player"])
    page = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    table = reverse("campaign:area_table", args=[campaign.pk])
    assert f'href="{table}"' in page
    response = client.get(map_url(page))
    assert response.status_code == 302 and response["Location"] == table
    html = client.get(table).content.decode()
    assert "data-area-url" in html and '<table class="data">' in html
