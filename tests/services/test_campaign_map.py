"""A campaign's own map (manage.py build_map --campaign): the GM moves an area's point in
the admin (Area.x, y) and rebuilds; the campaign then draws its own shapes. A point
moved where the area cannot be stops the build, naming the area, and keeps what was."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from campaign.maps.drawn import campaign_map
from campaign.maps.stored import built_map
from campaign.models import Area, Campaign, CampaignMap
from campaign.play.scenarios import create_campaign
from tests.factories import seat_users
from tests.maps import with_map

pytestmark = [pytest.mark.django_db, pytest.mark.long]


@pytest.fixture
def campaign():
    gm = get_user_model().objects.create_user("map-gm")
    return create_campaign(scenario_key="virgin-queen-1559", name="Moved", gm=gm)


def drawn(campaign):
    """The map the campaign draws, read afresh (a campaign object keeps what it read)."""
    return campaign_map(Campaign.objects.get(pk=campaign.pk))


def rebuild(campaign) -> None:
    call_command("build_map", campaign=campaign.pk, stdout=io.StringIO())


def test_unmoved_a_campaign_draws_its_scenarios_map_and_rebuilt_the_same_shapes(campaign):
    assert drawn(campaign) == built_map("virgin-queen-1559")
    rebuild(campaign)
    own, shipped = drawn(campaign), built_map("virgin-queen-1559")
    assert set(own.areas) == set(shipped.areas)
    lyon = own.areas["lyon"].anchor, shipped.areas["lyon"].anchor
    assert abs(lyon[0][0] - lyon[1][0]) < 3 and abs(lyon[0][1] - lyon[1][1]) < 3


def test_a_point_the_gm_moved_moves_its_area_once_rebuilt(campaign):
    before = built_map("virgin-queen-1559").areas["lyon"].anchor
    Area.objects.filter(campaign=campaign, key="lyon").update(y=models_y(campaign, "lyon") + 12)
    assert drawn(campaign).areas["lyon"].anchor == before  # until the GM rebuilds
    version = Campaign.objects.get(pk=campaign.pk).version
    rebuild(campaign)
    assert Campaign.objects.get(pk=campaign.pk).version > version  # cached maps drawn again
    after = drawn(campaign).areas["lyon"].anchor
    assert after[1] > before[1] + 5  # further south on the drawn map too


def test_a_point_moved_into_the_sea_stops_the_build_and_keeps_the_map(campaign):
    rebuild(campaign)
    kept = CampaignMap.objects.get(campaign=campaign).document
    Area.objects.filter(campaign=campaign, key="lyon").update(x=5, y=5)  # off the coast
    with pytest.raises(CommandError, match="lyon"):
        rebuild(campaign)
    assert CampaignMap.objects.get(campaign=campaign).document == kept


def test_no_such_campaign_and_mixed_arguments_are_refused():
    with pytest.raises(CommandError, match="No campaign"):
        call_command("build_map", campaign=10**9, stdout=io.StringIO())
    with pytest.raises(CommandError, match="alone"):
        call_command("build_map", "eia-1805", campaign=1, stdout=io.StringIO())


def models_y(campaign, key: str) -> float:
    return Area.objects.get(campaign=campaign, key=key).y


def test_the_campaign_page_and_its_map_file_draw_the_campaigns_own_map(client, campaign):
    Area.objects.filter(campaign=campaign, key="lyon").update(y=models_y(campaign, "lyon") + 12)
    rebuild(campaign)
    own = drawn(campaign).areas["lyon"].d
    assert own != built_map("virgin-queen-1559").areas["lyon"].d
    client.force_login(seat_users(campaign, player="france")["player"])
    page = client.get(reverse("campaign:detail", args=[campaign.pk])).content.decode()
    page = with_map(client, page)
    svg = client.get(reverse("campaign:map_svg", args=[campaign.pk])).content.decode()
    assert f'd="{own}"' in page and f'd="{own}"' in svg
